"""The event store on PostgreSQL (DESIGN section 11), chosen by ``UMPIRE_DATABASE_URL=postgresql://...``.

Same contract as the SQLite store (:class:`service.store_contract.Store`), same statements (it holds a
:class:`service.store.log_sql.LogSql`, as the SQLite adapter does; neither inherits from the other) over
PostgreSQL connections (psycopg 3 and its pool), ``?`` placeholders translated to psycopg's. What differs is how writers are kept apart, as proven
PostgreSQL event stores do it (Message DB's ``write_message``):

- one transaction per command, READ COMMITTED (SERIALIZABLE is not needed);
- first in every write of a game, ``pg_advisory_xact_lock(<class>, hashtext(game_id))``: the writers
  of one game queue, those of other games do not; the lock ends with the transaction;
- ``UNIQUE(game_id, seq)`` (constraint ``events_game_seq``) stays the guarantee: a writer whose
  expected version is stale gets :class:`VersionConflict`, never an overwrite.

Every read runs in autocommit on a pooled connection (each statement sees what was committed before
it). Migrations are numbered as SQLite's (:data:`PG_MIGRATIONS` has one step per entry of
``service.store.migrations.MIGRATIONS``), recorded in ``umpire_schema`` and run under a cluster-wide advisory
lock, so nodes starting together migrate once. ``iter_all`` orders by ``events.gpos`` (an identity
column): the order of insertion, which is the commit order within a game but not across games; it yields a
position only once every position below it is final (:mod:`service.store.visibility`), so a tail and its
checkpoint never step over an event of a transaction still running.

A server that is down or unreachable is a one-line :class:`StoreError` (answered 503 by the service),
naming neither the host nor the credentials; the log keeps the driver's message.
"""
from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolTimeout

from domain.kernel.log import GameRow, StoredEvent, StoreError

from .group_commit import ON_GROUP_COMMIT
from .log_calls import asked, awaited, written
from .log_sql import Dialect, LogSql
from .migrations import MIGRATIONS
from .rows import EVENT_COLUMNS, row_event
from .visibility import SNAPSHOT_COLUMNS, Horizon

log = logging.getLogger("umpire.store")

#: The first key of the two-key advisory locks this store takes (the second: ``hashtext(game_id)``).
GAME_LOCK_CLASS = 0x554D50  # "UMP"
#: The single-key advisory lock under which migrations run.
MIGRATION_LOCK = 0x554D5000
#: Seconds ``iter_all`` and ``last_position`` wait for a gap in the positions to be filled or known to stay
#: empty (transactions running); after that they return what is final (a tail reads again).
GAP_WAIT_S = 2.0
#: Connections per node (psycopg_pool), and how long a caller waits for one (seconds) before its
#: request is refused (503) -- e.g. while the server is down. PROPOSED (no GAP id yet): a few seconds.
POOL_MIN, POOL_MAX, POOL_TIMEOUT = 1, 16, 5.0

_C = 'COLLATE "C"'  # byte order, as SQLite compares text: the lobby order and cursor are the same on both

#: Schema steps, numbered as the SQLite ones (``service.store.migrations.MIGRATIONS``); never edit one that shipped.
PG_MIGRATIONS: list[list[str]] = [
    # 1: core
    [
        f"""CREATE TABLE games (
            game_id TEXT {_C} PRIMARY KEY, ruleset TEXT NOT NULL, scenario TEXT NOT NULL, setup TEXT NOT NULL,
            seed_commitment TEXT NOT NULL, status TEXT NOT NULL, winner TEXT, version BIGINT NOT NULL,
            created_at TEXT {_C} NOT NULL, campaign_id TEXT)""",
        f"""CREATE TABLE events (
            gpos BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            game_id TEXT {_C} NOT NULL, seq BIGINT NOT NULL, type TEXT NOT NULL,
            payload TEXT NOT NULL, actor TEXT, visibility TEXT NOT NULL,
            command_id TEXT, engine_version TEXT NOT NULL, recorded_at TEXT NOT NULL,
            ruling TEXT, rolls TEXT NOT NULL, reveals INTEGER NOT NULL, turn INTEGER NOT NULL,
            prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
            CONSTRAINT events_game_seq UNIQUE (game_id, seq), CHECK (seq >= 1))""",
        f"""CREATE TABLE commands (
            game_id TEXT {_C} NOT NULL, command_id TEXT {_C} NOT NULL,
            first_seq BIGINT NOT NULL, last_seq BIGINT NOT NULL, PRIMARY KEY (game_id, command_id))""",
        f"""CREATE TABLE seats (
            game_id TEXT {_C} NOT NULL, seat TEXT {_C} NOT NULL, token_hash TEXT NOT NULL,
            PRIMARY KEY (game_id, seat))""",
        "CREATE UNIQUE INDEX seats_token ON seats(token_hash)",
        f"""CREATE TABLE secrets (
            game_id TEXT {_C} PRIMARY KEY, seed TEXT NOT NULL, revealed INTEGER NOT NULL DEFAULT 0)""",
        "CREATE INDEX games_status ON games(status, ruleset)",
        "CREATE INDEX games_created ON games(created_at, game_id)",
    ],
    # 2: campaigns
    [
        f"""CREATE TABLE campaigns (
            campaign_id TEXT {_C} PRIMARY KEY, ruleset TEXT NOT NULL, campaign TEXT NOT NULL,
            seed TEXT NOT NULL, seed_commitment TEXT NOT NULL, status TEXT NOT NULL, winner TEXT,
            version BIGINT NOT NULL, created_at TEXT NOT NULL)""",
        f"""CREATE TABLE campaign_seats (
            campaign_id TEXT {_C} NOT NULL, seat TEXT {_C} NOT NULL, token_hash TEXT NOT NULL,
            PRIMARY KEY (campaign_id, seat))""",
        "CREATE UNIQUE INDEX campaign_seats_token ON campaign_seats(token_hash)",
        f"""CREATE TABLE campaign_events (
            campaign_id TEXT {_C} NOT NULL, seq BIGINT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL,
            visibility TEXT NOT NULL, ruling TEXT, rolls TEXT NOT NULL, recorded_at TEXT NOT NULL,
            CONSTRAINT campaign_events_campaign_seq UNIQUE (campaign_id, seq), CHECK (seq >= 1))""",
    ],
    # 3: the command behind each step
    [
        f"""CREATE TABLE command_bodies (
            game_id TEXT {_C} NOT NULL, first_seq BIGINT NOT NULL, last_seq BIGINT NOT NULL,
            seat TEXT, body TEXT NOT NULL, PRIMARY KEY (game_id, first_seq))""",
    ],
    # 4: chain version 2, per-seat command ids with body hashes, chained campaigns
    [
        "ALTER TABLE games ADD COLUMN chain_version INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE events ADD COLUMN public_payload TEXT",
        "ALTER TABLE events ADD COLUMN commitment TEXT",
        "ALTER TABLE events ADD COLUMN step BIGINT",
        f"""CREATE TABLE commands_v4 (
            game_id TEXT {_C} NOT NULL, seat TEXT {_C} NOT NULL, command_id TEXT {_C} NOT NULL,
            first_seq BIGINT NOT NULL, last_seq BIGINT NOT NULL, body_hash TEXT,
            CONSTRAINT commands_game_seat_command PRIMARY KEY (game_id, seat, command_id))""",
        """INSERT INTO commands_v4 (game_id, seat, command_id, first_seq, last_seq, body_hash)
           SELECT c.game_id, COALESCE(e.actor, ''), c.command_id, c.first_seq, c.last_seq, NULL
           FROM commands c LEFT JOIN events e ON e.game_id = c.game_id AND e.seq = c.first_seq""",
        "DROP TABLE commands",
        "ALTER TABLE commands_v4 RENAME TO commands",
        "ALTER TABLE campaigns ADD COLUMN chain_version INTEGER NOT NULL DEFAULT 1",
        *(f"ALTER TABLE campaign_events ADD COLUMN {col}"
          for col in ("actor TEXT", "public_payload TEXT", "commitment TEXT", "prev_hash TEXT", "hash TEXT")),
    ],
    # 5: the lobby's order per filter (a page reads its rows, not the table)
    [
        "CREATE INDEX IF NOT EXISTS games_created ON games(created_at, game_id)",
        "CREATE INDEX IF NOT EXISTS games_status_created ON games(status, created_at, game_id)",
        "CREATE INDEX IF NOT EXISTS games_ruleset_created ON games(ruleset, created_at, game_id)",
    ],
    # 6: one-time invitations of the seats a creator offered (DESIGN 4)
    [
        f"""CREATE TABLE invitations (
            game_id TEXT {_C} NOT NULL, seat TEXT {_C} NOT NULL, invitation_hash TEXT NOT NULL,
            PRIMARY KEY (game_id, seat))""",
        f"""CREATE TABLE campaign_invitations (
            campaign_id TEXT {_C} NOT NULL, seat TEXT {_C} NOT NULL, invitation_hash TEXT NOT NULL,
            PRIMARY KEY (campaign_id, seat))""",
    ],
    # 7: the headers that name bot seats (a partial index: a start finds the games its bots resume)
    [
        "CREATE INDEX IF NOT EXISTS events_bot_headers ON events(game_id) "
        "WHERE seq = 1 AND (payload::jsonb -> 'bots') <> '{}'::jsonb",
    ],
]
assert len(PG_MIGRATIONS) == len(MIGRATIONS), "a schema step on one backend needs its twin on the other"

_translated: dict[str, str] = {}


def _pg_sql(sql: str) -> str:
    """``?`` placeholders (the SQLite store's statements) as psycopg's ``%s``."""
    out = _translated.get(sql)
    if out is None:
        out = _translated[sql] = sql.replace("%", "%%").replace("?", "%s")
    return out


def redact(url: str) -> str:
    """The URL without its password (what logs may show)."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://?"
    host, port, db = info.get("host", ""), info.get("port", ""), info.get("dbname", "")
    return f"postgresql://{info.get('user', '')}@{host}{':' + str(port) if port else ''}/{db}"


def _lock_game(conn: Any, game_id: str) -> None:
    """The game's writers queue here until this transaction ends (Message DB's write_message). The
    transaction takes its id here, before any position (``gpos``): :mod:`service.store.visibility`."""
    conn.execute("SELECT pg_advisory_xact_lock(?, hashtext(?)), pg_current_xact_id()", (GAME_LOCK_CLASS, game_id))


def _seq_conflict(exc: BaseException) -> bool:
    return isinstance(exc, psycopg.errors.UniqueViolation) and exc.diag.constraint_name == "events_game_seq"


#: What PostgreSQL does its own way (:class:`service.store.log_sql.Dialect`).
POSTGRES = Dialect(lock_game=_lock_game, integrity_errors=(psycopg.IntegrityError,), seq_conflict=_seq_conflict,
                   bot_headers="e.seq = 1 AND (e.payload::jsonb -> 'bots') <> '{}'::jsonb", position="gpos",
                   newest_game_first="created_at DESC, game_id DESC")


class _Rows:
    """The answer of a read: fetched whole, read like a cursor."""

    def __init__(self, rows: list[tuple[Any, ...]]):
        self._rows = rows

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._rows

    def __iter__(self) -> Any:
        return iter(self._rows)


class _Reader:
    """A connection for reads: each statement on a pooled connection, autocommit."""

    def __init__(self, store: PgEventStore):
        self._store = store

    def execute(self, sql: str, args: Sequence[Any] = ()) -> _Rows:
        try:
            with self._store._pool.connection() as conn:
                cur = conn.execute(_pg_sql(sql), tuple(args)) if args else conn.execute(sql)
                return _Rows(cur.fetchall() if cur.description is not None else [])
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise self._store._unavailable(exc) from None


class _Tx:
    """A connection inside one write transaction, speaking the SQLite store's statements."""

    def __init__(self, conn: psycopg.Connection[Any]):
        self._conn = conn

    def execute(self, sql: str, args: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        return self._conn.execute(_pg_sql(sql), tuple(args)) if args else self._conn.execute(sql)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(r) for r in rows]
        if len(rows) == 1:  # one round trip, no pipeline set up for a single row
            self._conn.execute(_pg_sql(sql), rows[0])
        elif rows:
            with self._conn.cursor() as cur:
                cur.executemany(_pg_sql(sql), rows)


class PgEventStore:
    """The event log in one PostgreSQL database. Safe to share between threads (a connection pool).
    Implements :class:`service.store_contract.Store`."""

    integrity_errors: tuple[type[BaseException], ...] = POSTGRES.integrity_errors
    #: The bot headers' predicate in this backend's SQL.
    bot_headers = POSTGRES.bot_headers

    def __init__(self, url: str, *, data_dir: str | os.PathLike[str] | None = None, read_only: bool = False,
                 min_size: int = POOL_MIN, max_size: int = POOL_MAX, timeout: float = POOL_TIMEOUT):
        """``data_dir``: this node's local state (the umpire's signing key), created unless
        ``read_only``; ``read_only``: sessions are ``default_transaction_read_only``, no migration runs
        and the schema must be exactly this code's."""
        self.url = url
        self.where = redact(url)
        #: The log's statements, read on pooled connections.
        self._sql = LogSql(self._conn, POSTGRES)
        self.read_only = read_only
        self.data_dir = Path(data_dir) if data_dir is not None else Path(".")
        self.path = self.data_dir
        #: which positions are final (``iter_all``, ``last_position``), and how long those wait for a gap
        self._horizon = Horizon()
        self.gap_wait_s = GAP_WAIT_S
        if not read_only:
            try:
                self.data_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create data dir {self.data_dir}: {exc.strerror}") from None
        # an acknowledged command is on disk whatever the server's default (SQLite: synchronous=FULL)
        options = "-c synchronous_commit=on"
        if read_only:
            options += " -c default_transaction_read_only=on"
        kwargs: dict[str, Any] = {"autocommit": True, "options": options}
        self._pool = ConnectionPool(url, min_size=min_size, max_size=max_size, kwargs=kwargs, timeout=timeout,
                                    open=False, name="umpire-store")
        try:
            self._pool.open(wait=True, timeout=timeout)
        except PoolTimeout as exc:
            self._pool.close()
            raise StoreError(f"cannot connect to the PostgreSQL event store ({self.where}) within {timeout:g}s"
                             ) from exc
        try:
            self._check_schema() if read_only else self._migrate()
        except BaseException:
            self._pool.close()
            raise

    # -- connections ---------------------------------------------------------------------------------
    def _unavailable(self, exc: BaseException) -> StoreError:
        log.error("PostgreSQL event store (%s): %s", self.where, exc)
        return StoreError(f"the PostgreSQL event store is unavailable ({type(exc).__name__})")

    def _conn(self) -> Any:
        return _Reader(self)

    def db(self) -> Any:
        raise StoreError("the PostgreSQL event store has no sqlite-utils view")

    def close(self) -> None:
        self._pool.close()

    def release_threads(self) -> None:
        """Nothing to let go: this store starts no thread of its own (writes run on the caller's)."""

    def transaction(self, fn: Callable[[Any], Any]) -> Any:
        """Run ``fn(conn)`` in one transaction, all or nothing: for modules that own tables of their own
        (``service/campaign_store.py``)."""
        return self._write(fn)

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """A read query (autocommit, on a pooled connection)."""
        return self._conn().execute(sql, args).fetchall()

    def _schema_version(self, conn: psycopg.Connection[Any]) -> int | None:
        if conn.execute("SELECT to_regclass('umpire_schema')").fetchone()[0] is None:
            return None
        row = conn.execute("SELECT version FROM umpire_schema").fetchone()
        return None if row is None else row[0]

    def _check_schema(self) -> None:
        with self._pool.connection() as conn:
            done = self._schema_version(conn) or 0
        known = len(PG_MIGRATIONS)
        if done > known:
            raise StoreError(f"{self.where} has schema version {done}, newer than this umpire knows ({known});"
                             " upgrade umpire")
        if done < known:
            raise StoreError(f"{self.where} has schema version {done}, older than this umpire's ({known}); opened"
                             " read-only it cannot be migrated")

    def _migrate(self) -> None:
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                conn.execute("CREATE TABLE IF NOT EXISTS umpire_schema (version INTEGER NOT NULL)")
                done = self._schema_version(conn)
                if done is None:
                    conn.execute("INSERT INTO umpire_schema (version) VALUES (0)")
                    done = 0
                if done > len(PG_MIGRATIONS):
                    raise StoreError(f"{self.where} has schema version {done}, newer than this umpire knows"
                                     f" ({len(PG_MIGRATIONS)}); upgrade umpire")
                for i, step in enumerate(PG_MIGRATIONS[done:], start=done + 1):
                    for statement in step:
                        conn.execute(statement)
                    conn.execute("UPDATE umpire_schema SET version = %s", (i,))
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise self._unavailable(exc) from None
        except psycopg.Error as exc:
            raise StoreError(f"{self.where} is not a usable umpire database: {type(exc).__name__}: {exc}") from None

    def schema_version(self) -> int:
        with self._pool.connection() as conn:
            return self._schema_version(conn) or 0

    def _write(self, fn: Callable[[Any], Any]) -> Any:
        """Run ``fn`` in one transaction (READ COMMITTED); all or nothing."""
        if self.read_only:
            raise StoreError(f"{self.where} was opened read-only: no write is made")
        began = time.perf_counter()
        try:
            with self._pool.connection() as conn, conn.transaction():
                out = fn(_Tx(conn))
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise self._unavailable(exc) from None
        for hook in ON_GROUP_COMMIT:  # a transaction per write: a group of one
            hook(1, time.perf_counter() - began)
        return out

    #: Every read is a round trip to the server: the command path runs commands on worker threads.
    local_reads = False

    async def _write_async(self, fn: Callable[[Any], Any]) -> Any:
        """:meth:`_write` on a thread of the loop's executor (a transaction per command, no group)."""
        return await asyncio.get_running_loop().run_in_executor(None, self._write, fn)

    # -- the log: the Store calls answered from ``self._sql`` (:mod:`service.store.log_calls`) ----------
    create_game = written(LogSql.create_game_tx)
    append = written(LogSql.append_tx)
    append_async = awaited(LogSql.append_tx)
    append_tx = asked(LogSql.append_tx)
    claim_seat = written(LogSql.claim_seat_tx)
    rotate_seat = written(LogSql.rotate_seat_tx)
    game = asked(LogSql.game)
    require_game = asked(LogSql.require_game)
    games = asked(LogSql.games)
    newest_game_id = asked(LogSql.newest_game_id)
    game_ids = asked(LogSql.game_ids)
    version = asked(LogSql.version)
    seat_for_token = asked(LogSql.seat_for_token)
    seats = asked(LogSql.seats)
    seat_hashes = asked(LogSql.seat_hashes)
    invitation_hashes = asked(LogSql.invitation_hashes)
    invited_seats = asked(LogSql.invited_seats)
    seed = asked(LogSql.seed)
    revealed_seed = asked(LogSql.revealed_seed)
    command_result = asked(LogSql.command_result)
    head = asked(LogSql.head)
    command_body = asked(LogSql.command_body)
    load = asked(LogSql.load)
    last_seq_not_of = asked(LogSql.last_seq_not_of)
    event = asked(LogSql.event)
    unfinished_bot_games = asked(LogSql.unfinished_bot_games)
    count_events = asked(LogSql.count_events)

    def import_game(self, game: GameRow, token_hashes: dict[str, str], seed: bytes | None,
                    events: Sequence[StoredEvent], invitation_hashes: dict[str, str] | None = None) -> None:
        """A whole game as stored elsewhere, in one transaction (:meth:`LogSql.import_game_tx`)."""
        try:
            self._write(self._sql.import_game_tx(game, token_hashes, seed, events, invitation_hashes))
        except psycopg.IntegrityError as exc:
            raise StoreError(f"cannot import game {game.game_id!r}: {type(exc).__name__}:"
                             f" {exc.diag.message_primary}") from None

    def iter_all(self, after_rowid: int = 0, batch: int = 1000) -> Iterable[tuple[int, StoredEvent]]:
        """Every event of every game in position order (``gpos``), for rebuilds and the projector's tail.

        Only final positions: before a gap (a position a running transaction may still fill) it waits up to
        :data:`GAP_WAIT_S` for the gap to be final, then stops there (a caller reading again later resumes)."""
        last, waited = after_rowid, 0.0
        while True:
            rows = self._conn().execute(
                f"SELECT {SNAPSHOT_COLUMNS}, e.* FROM (SELECT 1) one LEFT JOIN LATERAL "
                f"(SELECT gpos, {EVENT_COLUMNS} FROM events WHERE gpos > ? ORDER BY gpos LIMIT ?) e ON true",
                (last, batch)).fetchall()
            xmin, xmax = rows[0][0], rows[0][1]
            final = self._horizon.snapshot(xmin, xmax)
            if rows[0][2] is None:
                return
            self._horizon.seen(rows[-1][2], xmin, xmax)
            if rows[0][2] != last + 1 and rows[0][2] > final and xmin < xmax:
                if waited >= self.gap_wait_s:
                    return
                time.sleep(0.005)
                waited += 0.005
                continue
            for r in rows:
                if r[2] != last + 1 and r[2] > final and xmin < xmax:
                    break  # a gap not known to be final: read again from here
                last = r[2]
                yield r[2], row_event(r[3:])

    def last_position(self) -> int:
        """The position (``gpos``) of the newest event of any game, 0 for none: where a tail starts. Every
        position up to it is final (it waits up to :data:`GAP_WAIT_S` for running transactions, else it
        answers the highest position known final)."""
        waited = 0.0
        while True:
            xmin, xmax, top = self._conn().execute(
                f"SELECT {SNAPSHOT_COLUMNS}, (SELECT COALESCE(MAX(gpos), 0) FROM events)").fetchone()
            final = self._horizon.snapshot(xmin, xmax)
            self._horizon.seen(top, xmin, xmax)
            if top <= final or xmin >= xmax:
                return top
            if waited >= self.gap_wait_s:
                return final
            time.sleep(0.005)
            waited += 0.005


__all__ = ["GAME_LOCK_CLASS", "PG_MIGRATIONS", "POSTGRES", "PgEventStore", "redact"]
