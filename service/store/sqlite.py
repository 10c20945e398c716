"""The event store: the source of truth (DESIGN section 2).

SQLite in WAL mode, ``synchronous=FULL`` (an acknowledged command is on
disk), one writer at a time through ``BEGIN IMMEDIATE``. ``UNIQUE(game_id,
seq)`` is the optimistic concurrency check; ``commands(game_id,
command_id)`` makes a retried command append nothing. Every event is chained:
``hash = sha256(prev_hash + canonical event)``.

sqlite-utils creates the schema and serves reads; the append path uses the
raw connection so the whole command is one ``BEGIN IMMEDIATE`` transaction
(sqlite-utils' ``atomic()`` would issue a deferred ``BEGIN``).

Errors: :class:`StoreError` (one clear line: bad data dir, not a database,
a schema newer than this code, a write that SQLite refused) and its kinds
:class:`UnknownGame`, :class:`GameExists`, :class:`SeedUnavailable`;
:class:`VersionConflict` for a lost race (only the ``UNIQUE(game_id, seq)``
constraint or a stale ``expected_version`` means that); ValueError for a
malformed argument, naming the field.

A duplicate ``command_id`` of the same seat answers the first answer: the same
``first_seq``, ``last_seq`` and ``version`` as the first time
(``current_version`` says where the game is now) and the stored ``body_hash``
of the first request, so the caller can refuse the same id with another body. Verification lives in ``service.verify``, export and
import in ``service.transfer``.
"""
from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import hmac
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlite_utils

from domain.kernel import chain
from domain.kernel.chain import CHAIN_V1, CHAIN_V2, GENESIS
# The pure record types live in the kernel (projections read them without importing the store);
# re-exported here under their old names.
from domain.kernel.log import (  # noqa: F401
    AppendResult, EventLog, GameExists, GameRow, NewEvent, SeedUnavailable, StoredEvent, StoreError, UnknownGame,
    VersionConflict,
)

from .chain_check import ChainReport, verify_chain, verify_commitments
from .group_commit import ON_GROUP_COMMIT, settle, Write
from .migrations import BOT_HEADERS, MIGRATIONS
from .rows import (
    EVENT_COLS, EVENT_COLUMNS, GAME_COLS, GAME_COLUMNS, check_new_events, now_iso, row_event, token_hash,
)

DB_FILE = "umpire.db"
#: Beside the database: the writers' cross-process lock (see ``EventStore._writers_turn``).
WRITER_LOCK_FILE = "umpire.db-writer"


#: Kept for callers of the chain-version-1 helpers (:mod:`domain.kernel.chain` holds both versions).
canonical = chain.v1_canonical
chain_hash = chain.v1_hash


class SeatRefused(StoreError):
    """A claim or a rotation the store refused: ``reason`` is ``claimed`` (the seat's invitation is
    spent: it was claimed, maybe a moment ago by a concurrent claim), ``wrong`` (not the seat's
    invitation) or ``not-holder`` (not the seat's current token)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class EventStore:
    """One SQLite file. Safe to share between threads (a connection per thread). Implements
    :class:`service.store_contract.Store` (as does the PostgreSQL backend, ``service.store.postgres``)."""

    #: What a unique-key violation raises inside :meth:`transaction`.
    integrity_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)
    #: Reads are local file reads of microseconds: a command may run on the event loop (the command path)
    #: without stalling it. (PostgreSQL's are network round trips: its commands run on worker threads.)
    local_reads: bool = True
    #: The thread that commits the groups of writes awaited on an event loop (:meth:`_write_async`: the
    #: command path runs a command on the loop and only its commit here). Started on first use.
    _committer: ThreadPoolExecutor | None = None

    def __init__(self, data_dir: str | os.PathLike[str], *, busy_timeout_ms: int = 10_000,
                 read_only: bool = False):
        """``read_only=True`` (``umpire verify``/``export``, e.g. on a read-only backup copy): the data
        dir and the database must exist; it is opened ``mode=ro`` -- no directory created, no migration,
        no journal-mode or synchronous pragma written, and every write raises :class:`StoreError`. Its
        schema must be exactly the one this code knows (older or newer: a one-line StoreError)."""
        self.data_dir = Path(data_dir)
        self.read_only = read_only
        self.path = self.data_dir / DB_FILE
        self._busy = busy_timeout_ms
        self._local = threading.local()
        #: Group commit (issue 17): one writer at a time inside this process -- a thread waits on this
        #: condition, never in SQLite's busy handler (whose back-off sleeps made the long tail; the
        #: busy handler only arbitrates between processes) -- and the writes that queued while one
        #: transaction committed are run together, each in its own savepoint, under ONE commit (one
        #: fsync). Each caller gets its answer only once that commit is on disk.
        self._group = threading.Condition()
        self._queue: list[Write] = []
        self._leading = False
        #: Between processes (``umpire serve --workers N``, the CLI beside a server): the group's leader
        #: holds an exclusive ``flock`` on :data:`WRITER_LOCK_FILE` around its transaction, so the
        #: processes queue in the kernel and each wakes the moment the other commits, instead of
        #: sleeping in SQLite's busy handler (whose back-off steps of up to 100 ms made the 2-worker
        #: tail). SQLite's own lock stays the guarantee; this only orders the waiting. Opened lazily.
        self._writer_fd: int | None = None
        if read_only:
            if not self.data_dir.is_dir():
                raise StoreError(f"data dir {self.data_dir} does not exist or is not a directory")
            if not self.path.is_file():
                raise StoreError(f"no umpire database in {self.data_dir} (expected {self.path})")
            self._check_schema()
            return
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create data dir {self.data_dir}: {exc.strerror}") from None
        if not os.access(self.data_dir, os.W_OK):
            raise StoreError(f"data dir {self.data_dir} is not writable")
        # Processes starting at once on a new file (``--workers N``): the first switches it to WAL and
        # migrates while the others wait on the writers' lock -- SQLite answers a concurrent journal-mode
        # switch with "database is locked" at once, without its busy handler.
        with self._writers_turn():
            self._migrate()

    # -- connections -------------------------------------------------
    def _read_only_uri(self) -> str:
        """``mode=ro``; and ``immutable=1`` when there is no ``-wal`` file beside the database: a
        WAL-mode file opened merely ``mode=ro`` makes SQLite create ``-wal``/``-shm`` files (it cannot
        in a read-only dir), while a cleanly closed copy has nothing outside the main file to read.
        When a ``-wal`` is there (a live data dir, or a copy taken with one) it is read through it."""
        uri = self.path.resolve().as_uri() + "?mode=ro"
        if not Path(str(self.path) + "-wal").exists():
            uri += "&immutable=1"
        return uri

    def _connect_read_only(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self._read_only_uri(), uri=True, isolation_level=None,
                                   timeout=self._busy / 1000)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path} read-only: {exc}") from None
        try:
            conn.execute(f"PRAGMA busy_timeout={int(self._busy)}")  # per connection; writes nothing
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{self.path} is not a usable umpire database: {exc}") from None
        return conn

    def _check_schema(self) -> None:
        """Read-only open: the schema version must be this code's (no migration can run)."""
        try:
            done = self._conn().execute("PRAGMA user_version").fetchone()[0]
            if done and not self._conn().execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").fetchone():
                raise StoreError(f"{self.path} is not an umpire database (no events table)")
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(f"{self.path} is not a usable umpire database: {exc}") from None
        except StoreError:
            self.close()
            raise
        known = len(MIGRATIONS)
        if done != known:
            self.close()
            if done > known:
                raise StoreError(f"{self.path} has schema version {done}, newer than this umpire knows"
                                 f" ({known}); upgrade umpire")
            raise StoreError(f"{self.path} has schema version {done}, older than this umpire's ({known});"
                             " opened read-only it cannot be migrated: open it once with a writable copy"
                             " (e.g. umpire serve) or use the umpire that wrote it")

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None and self.read_only:
            conn = self._local.conn = self._connect_read_only()
        if conn is None:
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, timeout=self._busy / 1000)
            except sqlite3.Error as exc:
                raise StoreError(f"cannot open {self.path}: {exc}") from None
            try:
                conn.execute(f"PRAGMA busy_timeout={int(self._busy)}")
                mode = self._wal_mode(conn)
                if str(mode).lower() != "wal":
                    raise StoreError(f"{self.path}: cannot switch to WAL mode (got {mode!r})")
                conn.execute("PRAGMA synchronous=FULL")
            except sqlite3.DatabaseError as exc:
                conn.close()
                raise StoreError(f"{self.path} is not a usable umpire database: {exc}") from None
            except BaseException:
                conn.close()
                raise
            self._local.conn = conn
        return conn

    def _wal_mode(self, conn: sqlite3.Connection) -> str:
        """``PRAGMA journal_mode=WAL``, retried within the busy timeout: SQLite answers it with
        "database is locked" at once, without calling the busy handler, while another process holds a
        lock it needs (several workers opening one file)."""
        deadline = time.monotonic() + self._busy / 1000
        pause = 0.005
        while True:
            try:
                return str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0])
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)

    def db(self) -> sqlite_utils.Database:
        return sqlite_utils.Database(self._conn())

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
        self.release_threads()

    def release_threads(self) -> None:
        """Let the committer thread go (the app's shutdown): its queued groups still run; a later
        awaited write starts another."""
        committer, self._committer = self._committer, None
        if committer is not None:
            committer.shutdown(wait=False)

    def _migrate(self) -> None:
        try:
            conn = self._conn()
            conn.execute("BEGIN IMMEDIATE")
            try:
                done = conn.execute("PRAGMA user_version").fetchone()[0]
                if done > len(MIGRATIONS):
                    raise StoreError(
                        f"{self.path} has schema version {done}, newer than this umpire knows"
                        f" ({len(MIGRATIONS)}); upgrade umpire"
                    )
                db = sqlite_utils.Database(conn)
                for i, step in enumerate(MIGRATIONS[done:], start=done + 1):
                    step(db)
                    conn.execute(f"PRAGMA user_version={i}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(f"{self.path} is not a usable umpire database: {exc}") from None
        except StoreError:
            self.close()
            raise

    def transaction(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``fn(conn)`` in one BEGIN IMMEDIATE transaction, all or nothing: for modules that own
        tables of their own in this file (``service/campaign_store.py``)."""
        return self._write(fn)

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """A read query on this thread's connection."""
        return self._conn().execute(sql, args).fetchall()

    def _lock_game(self, conn: Any, game_id: str) -> None:
        """Serialise the writers of one game inside a write transaction. SQLite: ``BEGIN IMMEDIATE``
        already holds the database's one write lock (PostgreSQL takes a per-game advisory lock)."""

    def _write(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``fn`` in one BEGIN IMMEDIATE transaction; all or nothing."""
        if self.read_only:
            raise StoreError(f"{self.path} was opened read-only: no write is made")
        item = Write(fn)
        with self._group:
            self._queue.append(item)
            while not item.done and self._leading:
                self._group.wait()
            lead = not item.done  # this thread commits the group that queued (its own write among them)
            if lead:
                self._leading = True
        if lead:
            self._commit_group()
        if item.error is not None:
            raise item.error
        return item.out

    async def _write_async(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """:meth:`_write` for a coroutine: the write joins the group queue and the coroutine awaits its
        commit while the event loop goes on. The committer thread leads a group when no thread does; a
        group led by a waiting thread takes these writes too. Same guarantees: the result (or the
        write's own exception) comes once its group's COMMIT is on disk."""
        if self.read_only:
            raise StoreError(f"{self.path} was opened read-only: no write is made")
        item = Write(fn, asyncio.get_running_loop().create_future())
        with self._group:
            self._queue.append(item)
            lead = not self._leading
            if lead:
                self._leading = True
        if lead:
            self._commit_elsewhere()
        return await item.future

    def _commit_elsewhere(self) -> None:
        """Commit the queued group on the committer thread (``_leading`` is set for it)."""
        try:
            if self._committer is None:
                self._committer = ThreadPoolExecutor(1, thread_name_prefix="umpire-commit")
            self._committer.submit(self._commit_group)
        except RuntimeError:  # shutting down (the interpreter or the store): commit here instead
            self._commit_group()

    def _commit_group(self) -> None:
        """Wait for the writers' turn between processes, THEN take every write that queued in this process
        (the ones that came while waiting too: with several workers the wait is another process's
        commit, and the group grows meanwhile) and run them in one BEGIN IMMEDIATE transaction, each in a
        savepoint (a write that raises is rolled back alone and gets its exception), with one COMMIT. A
        refusal of the database itself (SQLite's OperationalError: disk full, I/O error, locked too long)
        fails the whole group: nothing of it is written and every caller gets the StoreError."""
        batch: list[Write] = []
        try:
            with self._writers_turn():
                with self._group:
                    batch, self._queue = self._queue, []
                began = time.perf_counter()
                self._commit_locked(batch)
                for hook in ON_GROUP_COMMIT:
                    hook(len(batch), time.perf_counter() - began)
        finally:
            with self._group:
                if not batch:  # the turn was never had (an error taking the lock): what queued fails, whole
                    batch, self._queue = self._queue, []
                    for w in batch:
                        w.error = StoreError(f"cannot write to {self.path}: the writers' lock failed")
                for w in batch:
                    w.done = True
                # Writes awaited on a loop that queued meanwhile have no thread of their own to lead
                # their group: the committer thread does (a thread waiting meanwhile joins that group).
                again = any(w.future is not None for w in self._queue)
                self._leading = again
                self._group.notify_all()
            self._answer_loops(batch)
            if again:
                self._commit_elsewhere()

    @staticmethod
    def _answer_loops(batch: list[Write]) -> None:
        """Hand a group's results to the event loops awaiting them: one wake-up per loop."""
        by_loop: dict[Any, list[Write]] = {}
        for w in batch:
            if w.future is not None:
                by_loop.setdefault(w.future.get_loop(), []).append(w)
        for loop, writes in by_loop.items():
            try:
                loop.call_soon_threadsafe(settle, writes)
            except RuntimeError:  # that loop is closed: nobody awaits these any more
                pass

    @contextlib.contextmanager
    def _writers_turn(self) -> Iterator[None]:
        """Hold the writers' ``flock`` (blocking; the GIL is released while waiting). Without it when the
        lock file cannot be opened (then SQLite's busy handler alone arbitrates, as before)."""
        fd = self._writer_fd
        if fd is None:
            try:
                fd = self._writer_fd = os.open(self.data_dir / WRITER_LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                yield
                return
            weakref.finalize(self, os.close, fd)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            raise StoreError(f"cannot write to {self.path}: the writers' lock failed ({exc.strerror})") from None
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def _commit_locked(self, batch: list[Write]) -> None:
        def fail_all(exc: BaseException) -> None:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            err = StoreError(f"cannot write to {self.path}: {exc}")
            for w in batch:
                w.out, w.error = None, err

        try:
            conn = self._conn()
            conn.execute("BEGIN IMMEDIATE")
        except (sqlite3.OperationalError, StoreError) as exc:
            err = exc if isinstance(exc, StoreError) else StoreError(f"cannot write to {self.path}: {exc}")
            for w in batch:
                w.error = err
            return
        try:
            for w in batch:
                conn.execute("SAVEPOINT w")
                try:
                    w.out = w.fn(conn)
                except sqlite3.OperationalError:
                    raise
                except BaseException as exc:  # this write's own refusal (a conflict, a bad argument)
                    conn.execute("ROLLBACK TO w")
                    w.error = exc
                conn.execute("RELEASE w")
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            fail_all(exc)
        except BaseException as exc:  # pragma: no cover - interrupted between writes: nothing is kept
            fail_all(exc)

    # -- games -------------------------------------------------------
    def create_game(
        self,
        *,
        game_id: str,
        ruleset: str,
        scenario: str,
        setup: str,
        seed: bytes,
        seed_commitment: str,
        token_hashes: dict[str, str],
        campaign_id: str | None = None,
        status: str = "active",
        winner: str | None = None,
        events: Sequence[NewEvent] = (),
        chain_version: int = CHAIN_V2,
        invitation_hashes: dict[str, str] | None = None,
    ) -> AppendResult:
        """``invitation_hashes``: seat -> hash of its one-time invitation (seats offered by invitation have
        no token yet). Create a game with its first ``events`` (the ``game_created`` header and the opening) in
        one transaction: there is never a game row without its header. With no events the game is
        at version 0. Raises :class:`GameExists` for a used id and ValueError when ``seed`` is not 32
        bytes or ``seed_commitment`` is not its sha256."""
        if not isinstance(seed, (bytes, bytearray)) or len(seed) != 32:
            raise ValueError("seed: a game's seed is 32 bytes")
        if hashlib.sha256(bytes(seed)).hexdigest() != seed_commitment:
            raise ValueError("seed_commitment: must be the lowercase hex sha256 of the seed")
        if chain_version not in chain.CHAIN_VERSIONS:
            raise ValueError(f"chain_version: one of {chain.CHAIN_VERSIONS}")
        check_new_events(events, allow_empty=True)
        now = now_iso()

        def tx(conn: sqlite3.Connection) -> AppendResult:
            self._lock_game(conn, game_id)
            if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone():
                raise GameExists(game_id)
            conn.execute(
                f"INSERT INTO games ({GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,0,?,?,?)",
                (game_id, ruleset, scenario, setup, seed_commitment, status, winner, now, campaign_id, chain_version),
            )
            conn.executemany(
                "INSERT INTO seats (game_id, seat, token_hash) VALUES (?,?,?)",
                [(game_id, seat, h) for seat, h in token_hashes.items()],
            )
            conn.executemany(
                "INSERT INTO invitations (game_id, seat, invitation_hash) VALUES (?,?,?)",
                [(game_id, seat, h) for seat, h in (invitation_hashes or {}).items()],
            )
            conn.execute("INSERT INTO secrets (game_id, seed, revealed) VALUES (?,?,?)",
                         (game_id, seed.hex(), int(status == "finished")))
            if not events:
                return AppendResult(first_seq=1, last_seq=0, version=0, current_version=0, head=GENESIS)
            head, stored = self._insert_events(conn, game_id, 0, GENESIS, events, command_id=None, now=now,
                                               chain_version=chain_version, key=chain.commit_key(bytes(seed)))
            conn.execute("UPDATE games SET version = ? WHERE game_id = ?", (len(events), game_id))
            return AppendResult(first_seq=1, last_seq=len(events), version=len(events), current_version=len(events),
                                head=head, events=stored)

        return self._write(tx)

    #: A game row and whether it is read-only (no seed here, not finished: UMPIRE-READ-ONLY-1).
    _GAME_SELECT = ("SELECT " + ", ".join(f"g.{c}" for c in GAME_COLS) + ","
                    " (g.status != 'finished' AND NOT EXISTS (SELECT 1 FROM secrets s WHERE s.game_id = g.game_id))"
                    " FROM games g")

    @staticmethod
    def _row(r: Any) -> GameRow:
        return GameRow(**dict(zip(GameRow.__struct_fields__, (*r[:-1], bool(r[-1])))))

    def game(self, game_id: str) -> GameRow | None:
        row = self._conn().execute(self._GAME_SELECT + " WHERE g.game_id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return self._row(row)

    def require_game(self, game_id: str) -> GameRow:
        g = self.game(game_id)
        if g is None:
            raise UnknownGame(game_id)
        return g

    def games(self, *, status: str | None = None, ruleset: str | None = None,
              after: tuple[str, str] | None = None, limit: int | None = None) -> list[GameRow]:
        """Games in creation order (``created_at``, then ``game_id``). ``status``: ``active`` (playable),
        ``finished``, or ``read_only`` (not finished, no seed here: UMPIRE-READ-ONLY-1); ``after``: only
        games after this ``(created_at, game_id)`` (a lobby cursor); ``limit``: at most that many."""
        where, args = [], []
        no_seed = "NOT EXISTS (SELECT 1 FROM secrets s WHERE s.game_id = g.game_id)"
        if status == "read_only":
            where.append(f"g.status != 'finished' AND {no_seed}")
        elif status == "active":
            where.append(f"g.status = 'active' AND NOT {no_seed}")
        elif status:
            where.append("g.status = ?")
            args.append(status)
        if ruleset:
            where.append("g.ruleset = ?")
            args.append(ruleset)
        if after is not None:
            where.append("(g.created_at, g.game_id) > (?, ?)")
            args.extend(after)
        sql = self._GAME_SELECT
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.created_at, g.game_id"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [self._row(r) for r in self._conn().execute(sql, args)]

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._conn().execute("SELECT game_id FROM games ORDER BY created_at, game_id")]

    def version(self, game_id: str) -> int:
        return self.require_game(game_id).version

    def seat_for_token(self, game_id: str, token: str) -> str | None:
        row = self._conn().execute(
            "SELECT seat FROM seats WHERE game_id = ? AND token_hash = ?", (game_id, token_hash(token))
        ).fetchone()
        return row[0] if row else None

    def seats(self, game_id: str) -> list[str]:
        return [r[0] for r in self._conn().execute("SELECT seat FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]

    def seat_hashes(self, game_id: str) -> dict[str, str]:
        """``{seat: token_hash}`` of one game (for export)."""
        return dict(self._conn().execute(
            "SELECT seat, token_hash FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall())

    def seed(self, game_id: str) -> bytes:
        row = self._conn().execute("SELECT seed FROM secrets WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            self.require_game(game_id)
            raise SeedUnavailable(game_id)
        return bytes.fromhex(row[0])

    def revealed_seed(self, game_id: str) -> bytes | None:
        """The seed, only once the game is finished (it is revealed then). The row's status is a
        cache: verification (``service.verify``) decides from the fold of the log instead."""
        g = self.require_game(game_id)
        if g.status != "finished":
            return None
        return self.seed(game_id)

    # -- events ------------------------------------------------------
    def command_result(self, game_id: str, command_id: str, seat: str | None = None) -> AppendResult | None:
        """The first answer to ``command_id`` of ``seat`` (None: of any seat, for operators' checks)."""
        sql = "SELECT first_seq, last_seq, body_hash FROM commands WHERE game_id = ? AND command_id = ?"
        args: list[Any] = [game_id, command_id]
        if seat is not None:
            sql += " AND seat = ?"
            args.append(seat)
        row = self._conn().execute(sql + " ORDER BY first_seq LIMIT 1", args).fetchone()
        if row is None:
            return None
        return AppendResult(first_seq=row[0], last_seq=row[1], version=row[1], duplicate=True,
                            current_version=self.version(game_id), body_hash=row[2],
                            head=self.head(game_id, row[1]) or "")

    def head(self, game_id: str, version: int) -> str | None:
        """The hash of event ``version`` (the genesis hash for version 0; None when there is none)."""
        if version == 0:
            return GENESIS
        row = self._conn().execute("SELECT hash FROM events WHERE game_id = ? AND seq = ?",
                                   (game_id, version)).fetchone()
        return None if row is None else row[0]

    def _commit_key(self, conn: sqlite3.Connection, game_id: str) -> bytes:
        row = conn.execute("SELECT seed FROM secrets WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            raise SeedUnavailable(game_id)
        return chain.commit_key(bytes.fromhex(row[0]))

    def _insert_events(self, conn: sqlite3.Connection, game_id: str, current: int, prev: str,
                       events: Sequence[NewEvent], *, command_id: str | None, now: str, chain_version: int,
                       key: bytes | None) -> str:
        """Insert ``events`` after version ``current`` (hash ``prev``), chained; returns the new head
        and the events as stored."""
        rows = []
        stored: list[StoredEvent] = []
        step = current + 1
        for i, ev in enumerate(events, start=current + 1):
            e: dict[str, Any] = {
                "game_id": game_id, "seq": i, "type": ev.type, "payload": ev.payload,
                "actor": ev.actor, "visibility": ev.visibility, "command_id": command_id,
                "engine_version": ev.engine_version, "recorded_at": now, "ruling": ev.ruling,
                "rolls": ev.rolls, "reveals": int(ev.reveals), "turn": ev.turn, "prev_hash": prev,
                "public_payload": None, "commitment": None, "step": None,
            }
            if chain_version == CHAIN_V1:
                e["hash"] = prev = chain.v1_hash(prev, e)
            else:
                assert key is not None
                if ev.visibility != chain.PUBLIC:
                    # a caller that does not say what a spectator sees: nothing of the payload is public
                    e["public_payload"] = ev.public_payload if ev.public_payload is not None else '{"redacted":true}'

                e["step"] = step
                e["commitment"], e["hash"] = chain.seal(prev, key, e)
                prev = e["hash"]
            rows.append(tuple(e[c] for c in EVENT_COLS))
            stored.append(StoredEvent(**{**e, "reveals": bool(ev.reveals)}))
        try:
            conn.executemany(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({','.join('?' * len(EVENT_COLS))})",
                             rows)
        except sqlite3.IntegrityError as exc:
            if "events.game_id, events.seq" not in str(exc):
                raise
            raise VersionConflict(game_id, current, current + 1) from None
        return prev, tuple(stored)

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: str | None = None,
        status: str | None = None,
        winner: str | None = None,
        command_body: str | None = None,
        command_seat: str | None = None,
        body_hash: str | None = None,
    ) -> AppendResult:
        """Append all ``events`` (one command) in one transaction, or none.

        ``command_body`` (JSON of the command that produced the events, optional)
        is kept beside them for re-deciding the step later (:meth:`command_body`).

        Raises :class:`VersionConflict` when ``expected_version`` is stale.
        A ``command_id`` this seat (``command_seat``, default the first event's
        actor) used before returns the first result (with its ``body_hash``) and
        appends nothing; another seat's ids never answer. ``status``/``winner``
        update the game row in the same transaction (a finished game's seed is
        then revealed).
        """
        return self._write(self._append_tx(game_id, expected_version, events, command_id=command_id, status=status,
                                           winner=winner, command_body=command_body, command_seat=command_seat,
                                           body_hash=body_hash))

    async def append_async(self, game_id: str, expected_version: int, events: Sequence[NewEvent],
                           **kw: Any) -> AppendResult:
        """:meth:`append` awaited on an event loop (the command path): the same transaction, committed on
        the committer thread (:meth:`_write_async`) while the loop serves other requests."""
        return await self._write_async(self._append_tx(game_id, expected_version, events, **kw))

    def _append_tx(self, game_id: str, expected_version: int, events: Sequence[NewEvent], *,
                   command_id: str | None = None, status: str | None = None, winner: str | None = None,
                   command_body: str | None = None, command_seat: str | None = None,
                   body_hash: str | None = None) -> Callable[[sqlite3.Connection], AppendResult]:
        """The transaction of :meth:`append` (its arguments checked first)."""
        check_new_events(events)
        seat_key = (command_seat if command_seat is not None else events[0].actor) or ""

        def tx(conn: sqlite3.Connection) -> AppendResult:
            self._lock_game(conn, game_id)
            if command_id is not None:
                row = conn.execute(
                    "SELECT first_seq, last_seq, body_hash FROM commands WHERE game_id = ? AND seat = ?"
                    " AND command_id = ?", (game_id, seat_key, command_id),
                ).fetchone()
                if row is not None:
                    cur = conn.execute("SELECT version FROM games WHERE game_id = ?", (game_id,)).fetchone()[0]
                    head = conn.execute("SELECT hash FROM events WHERE game_id = ? AND seq = ?",
                                        (game_id, row[1])).fetchone()
                    return AppendResult(first_seq=row[0], last_seq=row[1], version=row[1], duplicate=True,
                                        current_version=cur, body_hash=row[2], head=head[0] if head else "")
            g = conn.execute("SELECT version, chain_version FROM games WHERE game_id = ?", (game_id,)).fetchone()
            if g is None:
                raise UnknownGame(game_id)
            current, version_of_chain = g
            if current != expected_version:
                raise VersionConflict(game_id, expected_version, current)
            prev = GENESIS
            if current > 0:
                prev = conn.execute(
                    "SELECT hash FROM events WHERE game_id = ? AND seq = ?", (game_id, current)
                ).fetchone()[0]
            key = self._commit_key(conn, game_id) if version_of_chain == CHAIN_V2 else None
            head, stored = self._insert_events(conn, game_id, current, prev, events, command_id=command_id,
                                               now=now_iso(), chain_version=version_of_chain, key=key)
            last = current + len(events)
            if command_id is not None:
                conn.execute(
                    "INSERT INTO commands (game_id, seat, command_id, first_seq, last_seq, body_hash)"
                    " VALUES (?,?,?,?,?,?)",
                    (game_id, seat_key, command_id, current + 1, last, body_hash),
                )
            if command_body is not None:
                conn.execute(
                    "INSERT INTO command_bodies (game_id, first_seq, last_seq, seat, body) VALUES (?,?,?,?,?)",
                    (game_id, current + 1, last, command_seat or events[0].actor, command_body),
                )
            sets, args = ["version = ?"], [last]
            if status is not None:
                sets.append("status = ?")
                args.append(status)
                if status == "finished":
                    conn.execute("UPDATE secrets SET revealed = 1 WHERE game_id = ?", (game_id,))
            if winner is not None:
                sets.append("winner = ?")
                args.append(winner)
            conn.execute(f"UPDATE games SET {', '.join(sets)} WHERE game_id = ?", (*args, game_id))
            return AppendResult(first_seq=current + 1, last_seq=last, version=last, current_version=last, head=head,
                                events=stored)

        return tx

    # -- seats changing hands (DESIGN 4) -----------------------------------------------------------
    def claim_seat(self, game_id: str, seat: str, invitation_hash: str, new_token_hash: str,
                   expected_version: int, events: Sequence[NewEvent]) -> AppendResult:
        """Retire ``seat``'s invitation (it must be ``invitation_hash``), give the seat ``new_token_hash``
        and append ``events`` (its ``seat_claimed``), in one transaction. :class:`SeatRefused`
        (``claimed``: no invitation left; ``wrong``: another invitation) or :class:`VersionConflict`
        leave everything as it was. Of two claims at once exactly one wins: the invitation row is
        deleted under the game's write lock."""
        append = self._append_tx(game_id, expected_version, events)

        def tx(conn: Any) -> AppendResult:
            self._lock_game(conn, game_id)
            row = conn.execute("SELECT invitation_hash FROM invitations WHERE game_id = ? AND seat = ?",
                               (game_id, seat)).fetchone()
            if row is None:
                raise SeatRefused("claimed")
            if not hmac.compare_digest(row[0], invitation_hash):
                raise SeatRefused("wrong")
            conn.execute("DELETE FROM invitations WHERE game_id = ? AND seat = ?", (game_id, seat))
            conn.execute("INSERT INTO seats (game_id, seat, token_hash) VALUES (?,?,?)", (game_id, seat, new_token_hash))
            return append(conn)

        return self._write(tx)

    def rotate_seat(self, game_id: str, seat: str, old_token_hash: str, new_token_hash: str,
                    expected_version: int, events: Sequence[NewEvent]) -> AppendResult:
        """Replace ``seat``'s token (it must be ``old_token_hash``) by ``new_token_hash`` and append
        ``events`` (its ``seat_rotated``), in one transaction (:class:`SeatRefused` ``not-holder``)."""
        append = self._append_tx(game_id, expected_version, events)

        def tx(conn: Any) -> AppendResult:
            self._lock_game(conn, game_id)
            cur = conn.execute("UPDATE seats SET token_hash = ? WHERE game_id = ? AND seat = ? AND token_hash = ?",
                               (new_token_hash, game_id, seat, old_token_hash))
            if cur.rowcount != 1:
                raise SeatRefused("not-holder")
            return append(conn)

        return self._write(tx)

    def append_tx(self, game_id: str, expected_version: int, events: Sequence[NewEvent]) -> Callable[[Any], AppendResult]:
        """:meth:`append`'s transaction as a function of the connection, for a write of another module that
        appends to a game inside its own :meth:`transaction` (a campaign seat recorded in its battle)."""
        return self._append_tx(game_id, expected_version, events)

    def invitation_hashes(self, game_id: str) -> dict[str, str]:
        """``{seat: invitation_hash}`` of the invitations of ``game_id`` still open (for export)."""
        return dict(self._conn().execute(
            "SELECT seat, invitation_hash FROM invitations WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall())

    def invited_seats(self, game_id: str) -> list[str]:
        """The seats of ``game_id`` whose invitation is still open (not claimed)."""
        return [r[0] for r in self._conn().execute(
            "SELECT seat FROM invitations WHERE game_id = ? ORDER BY seat", (game_id,))]

    def import_game(
        self,
        game: GameRow,
        token_hashes: dict[str, str],
        seed: bytes | None,
        events: Sequence[StoredEvent],
        invitation_hashes: dict[str, str] | None = None,
    ) -> None:
        """Insert a whole game as stored elsewhere (events kept byte for byte, hashes
        included) in one transaction, with the hashes of its invitations still open. The caller verifies the chain first
        (``service.transfer`` does). Raises :class:`GameExists` for a used id.
        The ``commands`` table is rebuilt from the events' ``command_id`` (body hashes are not
        exported: a retried id of an imported game answers the first answer)."""

        def tx(conn: sqlite3.Connection) -> None:
            self._lock_game(conn, game.game_id)
            if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (game.game_id,)).fetchone():
                raise GameExists(game.game_id)
            conn.execute(
                f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({','.join('?' * len(GAME_COLS))})",
                tuple(getattr(game, f) for f in GAME_COLS),
            )
            conn.executemany(
                "INSERT INTO seats (game_id, seat, token_hash) VALUES (?,?,?)",
                [(game.game_id, seat, h) for seat, h in token_hashes.items()],
            )
            conn.executemany(
                "INSERT INTO invitations (game_id, seat, invitation_hash) VALUES (?,?,?)",
                [(game.game_id, seat, h) for seat, h in (invitation_hashes or {}).items()],
            )
            if seed is not None:
                conn.execute(
                    "INSERT INTO secrets (game_id, seed, revealed) VALUES (?,?,?)",
                    (game.game_id, seed.hex(), int(game.status == "finished")),
                )
            conn.executemany(
                f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({','.join('?' * len(EVENT_COLS))})",
                [tuple(int(v) if c == "reveals" else v for c, v in ((c, getattr(ev, c)) for c in EVENT_COLS))
                 for ev in events],
            )
            spans: dict[tuple[str, str], list[int]] = {}
            for ev in events:
                if ev.command_id is not None:
                    span = spans.setdefault((ev.actor or "", ev.command_id), [ev.seq, ev.seq])
                    span[0], span[1] = min(span[0], ev.seq), max(span[1], ev.seq)
            conn.executemany(
                "INSERT INTO commands (game_id, seat, command_id, first_seq, last_seq, body_hash)"
                " VALUES (?,?,?,?,?,NULL)",
                [(game.game_id, seat, cid, a, b) for (seat, cid), (a, b) in spans.items()],
            )

        try:
            self._write(tx)
        except sqlite3.IntegrityError as exc:
            raise StoreError(f"cannot import game {game.game_id!r}: {exc}") from None

    def command_body(self, game_id: str, seq: int) -> tuple[int, int, str | None, str] | None:
        """(first_seq, last_seq, seat, command JSON) of the command whose events include ``seq``."""
        row = self._conn().execute(
            "SELECT first_seq, last_seq, seat, body FROM command_bodies"
            " WHERE game_id = ? AND first_seq <= ? AND last_seq >= ? ORDER BY first_seq DESC LIMIT 1",
            (game_id, seq, seq),
        ).fetchone()
        return None if row is None else (row[0], row[1], row[2], row[3])

    def load(self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None,
             types: Iterable[str] | None = None) -> list[StoredEvent]:
        """Events of one game in seq order (``types``: only events of these types)."""
        sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ?"
        args: list[Any] = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        if types is not None:
            kinds = sorted(types)
            sql += f" AND type IN ({','.join('?' * len(kinds))})"
            args.extend(kinds)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [row_event(r) for r in self._conn().execute(sql, args)]

    def last_seq_not_of(self, game_id: str, types: Iterable[str], upto: int | None = None) -> int:
        """The seq of the last event whose type is not in ``types`` (0: none)."""
        kinds = sorted(types)
        sql = f"SELECT MAX(seq) FROM events WHERE game_id = ? AND type NOT IN ({','.join('?' * len(kinds))})"
        args: list[Any] = [game_id, *kinds]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        row = self._conn().execute(sql, args).fetchone()
        return row[0] or 0

    def event(self, game_id: str, seq: int) -> StoredEvent | None:
        r = self._conn().execute(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq = ?", (game_id, seq)
        ).fetchone()
        return row_event(r) if r else None

    #: :data:`BOT_HEADERS` in this backend's SQL (the partial index's own predicate, so the index is used).
    bot_headers = BOT_HEADERS

    def unfinished_bot_games(self) -> list[str]:
        """The games not finished whose header names bot seats, read through the bot headers' partial index:
        rows of the games with bots, never one per stored game."""
        # no ORDER BY: SQLite would then walk the lobby's index of every game instead of the bot headers'
        rows = self._conn().execute(
            "SELECT g.created_at, e.game_id FROM events AS e JOIN games AS g ON g.game_id = e.game_id "
            f"WHERE {self.bot_headers} AND g.status != 'finished'").fetchall()
        return [r[1] for r in sorted(rows)]

    def last_position(self) -> int:
        """The position (rowid) of the newest event of any game, 0 for none: where a tail starts."""
        return self._conn().execute("SELECT COALESCE(MAX(rowid), 0) FROM events").fetchone()[0]

    def iter_all(self, after_rowid: int = 0, batch: int = 1000) -> Iterable[tuple[int, StoredEvent]]:
        """Every event of every game in commit order (rowid), for rebuilds."""
        last = after_rowid
        while True:
            rows = self._conn().execute(
                f"SELECT rowid, {EVENT_COLUMNS} FROM events WHERE rowid > ? ORDER BY rowid LIMIT ?", (last, batch)
            ).fetchall()
            if not rows:
                return
            for r in rows:
                last = r[0]
                yield r[0], row_event(r[1:])

    def count_events(self, after_rowid: int = 0, upto_rowid: int | None = None) -> int:
        """How many events :meth:`iter_all` yields after ``after_rowid`` (up to ``upto_rowid``)."""
        sql, args = "SELECT count(*) FROM events WHERE rowid > ?", [after_rowid]
        if upto_rowid is not None:
            sql += " AND rowid <= ?"
            args.append(upto_rowid)
        return self._conn().execute(sql, args).fetchone()[0]


__all__ = [
    "AppendResult", "ChainReport", "EventStore", "GENESIS", "GameExists", "GameRow", "NewEvent", "SeedUnavailable",
    "SeatRefused", "StoreError", "StoredEvent", "UnknownGame", "VersionConflict", "chain_hash", "canonical", "token_hash",
    "verify_chain", "verify_commitments",
]
