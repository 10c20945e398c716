"""The log's SQL, spoken by both store adapters (DESIGN sections 2 and 11): every read of games, seats,
seeds and events, and every write as a *transaction function* of a connection, which each adapter runs
with its own writer (SQLite: the group commit under ``BEGIN IMMEDIATE``; PostgreSQL: a transaction per
write behind a per-game advisory lock).

The statements are the subset both databases speak, with ``?`` placeholders (the PostgreSQL adapter
translates them). What differs between the two is a :class:`Dialect`: how a write locks its game, which
unique violation means a lost race for a seq, the bot headers' predicate and the column that orders
every event of every game. An adapter *holds* a :class:`LogSql` and answers the
:class:`service.store_contract.Store` methods through it; neither adapter inherits from the other.

Over 500 lines on purpose: every statement on the log's tables is here, so a change of the schema is
read and made in one file for both databases.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.kernel import chain
from domain.kernel.chain import CHAIN_V1, CHAIN_V2, GENESIS
from domain.kernel.log import (
    AppendResult, GameExists, GameRow, NewEvent, SeedUnavailable, StoredEvent, StoreError, UnknownGame,
    VersionConflict,
)

from .rows import EVENT_COLS, EVENT_COLUMNS, GAME_COLS, GAME_COLUMNS, check_new_events, now_iso, row_event, token_hash


class SeatRefused(StoreError):
    """A claim or a rotation the store refused: ``reason`` is ``claimed`` (the seat's invitation is
    spent: it was claimed, maybe a moment ago by a concurrent claim), ``wrong`` (not the seat's
    invitation) or ``not-holder`` (not the seat's current token)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Dialect:
    """What one database does its own way."""

    #: Serialise the writers of one game inside a write transaction (first statement of every write).
    lock_game: Callable[[Any, str], None]
    #: The exception classes a unique-key violation raises.
    integrity_errors: tuple[type[BaseException], ...]
    #: Whether a unique violation is the ``UNIQUE(game_id, seq)`` one (a lost race: VersionConflict).
    seq_conflict: Callable[[BaseException], bool]
    #: The headers that name bot seats, in this database's SQL (its partial index's own predicate).
    bot_headers: str
    #: The column that orders every event of every game (commit order): SQLite ``rowid``, PostgreSQL ``gpos``.
    position: str
    #: ``ORDER BY`` that puts the game stored last first: SQLite ``rowid DESC`` (created or imported last);
    #: PostgreSQL, whose games table has no insertion order, the last in the lobby's order.
    newest_game_first: str


#: A game row and whether it is read-only (no seed here, not finished: UMPIRE-READ-ONLY-1).
GAME_SELECT = ("SELECT " + ", ".join(f"g.{c}" for c in GAME_COLS) + ","
               " (g.status != 'finished' AND NOT EXISTS (SELECT 1 FROM secrets s WHERE s.game_id = g.game_id))"
               " FROM games g")


#: What an append reads before it writes, in one statement: the game's version and chain version, the hash
#: of its last event (the link of the next), its seed (the commitments' key), its status and winner (written
#: only when they change: the status is in two indexes); no row: no such game.
APPEND_HEAD = ("SELECT g.version, g.chain_version, e.hash, s.seed, g.status, g.winner FROM games g"
               " LEFT JOIN events e ON e.game_id = g.game_id AND e.seq = g.version"
               " LEFT JOIN secrets s ON s.game_id = g.game_id"
               " WHERE g.game_id = ?")


def game_row(r: Any) -> GameRow:
    """A row of :data:`GAME_SELECT` as a :class:`GameRow`."""
    return GameRow(**dict(zip(GameRow.__struct_fields__, (*r[:-1], bool(r[-1])))))


class LogSql:
    """The log's statements over a database: ``read()`` answers a connection for reads (anything with
    ``execute(sql, args)`` returning rows), ``dialect`` what differs."""

    def __init__(self, read: Callable[[], Any], dialect: Dialect):
        self._read = read
        self.dialect = dialect

    # -- transactions: functions of a connection, run by the adapter's writer ----------------------
    def create_game_tx(
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
    ) -> Callable[[Any], AppendResult]:
        """The transaction of the store's ``create_game``. ``invitation_hashes``: seat -> hash of its one-time invitation (seats offered by invitation have
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

        def tx(conn: Any) -> AppendResult:
            self.dialect.lock_game(conn, game_id)
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

        return tx

    # -- reads ------------------------------------------------------------------------------------
    def game(self, game_id: str) -> GameRow | None:
        row = self._read().execute(GAME_SELECT + " WHERE g.game_id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return game_row(row)

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
        sql = GAME_SELECT
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.created_at, g.game_id"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [game_row(r) for r in self._read().execute(sql, args)]

    def newest_game_id(self) -> str | None:
        """The game stored last (:attr:`Dialect.newest_game_first`), None for none."""
        row = self._read().execute(
            f"SELECT game_id FROM games ORDER BY {self.dialect.newest_game_first} LIMIT 1").fetchone()
        return None if row is None else row[0]

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._read().execute("SELECT game_id FROM games ORDER BY created_at, game_id")]

    def version(self, game_id: str) -> int:
        return self.require_game(game_id).version

    def seat_for_token(self, game_id: str, token: str) -> str | None:
        row = self._read().execute(
            "SELECT seat FROM seats WHERE game_id = ? AND token_hash = ?", (game_id, token_hash(token))
        ).fetchone()
        return row[0] if row else None

    def seats(self, game_id: str) -> list[str]:
        return [r[0] for r in self._read().execute("SELECT seat FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]

    def seat_hashes(self, game_id: str) -> dict[str, str]:
        """``{seat: token_hash}`` of one game (for export)."""
        return dict(self._read().execute(
            "SELECT seat, token_hash FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall())

    def seed(self, game_id: str) -> bytes:
        row = self._read().execute("SELECT seed FROM secrets WHERE game_id = ?", (game_id,)).fetchone()
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
        row = self._read().execute(sql + " ORDER BY first_seq LIMIT 1", args).fetchone()
        if row is None:
            return None
        return AppendResult(first_seq=row[0], last_seq=row[1], version=row[1], duplicate=True,
                            current_version=self.version(game_id), body_hash=row[2],
                            head=self.head(game_id, row[1]) or "")

    def head(self, game_id: str, version: int) -> str | None:
        """The hash of event ``version`` (the genesis hash for version 0; None when there is none)."""
        if version == 0:
            return GENESIS
        row = self._read().execute("SELECT hash FROM events WHERE game_id = ? AND seq = ?",
                                   (game_id, version)).fetchone()
        return None if row is None else row[0]

    def _insert_events(self, conn: Any, game_id: str, current: int, prev: str,
                       events: Sequence[NewEvent], *, command_id: str | None, now: str, chain_version: int,
                       key: bytes | None) -> tuple[str, tuple[StoredEvent, ...]]:
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
        except self.dialect.integrity_errors as exc:
            if not self.dialect.seq_conflict(exc):
                raise
            raise VersionConflict(game_id, current, current + 1) from None
        return prev, tuple(stored)

    def append_tx(self, game_id: str, expected_version: int, events: Sequence[NewEvent], *,
                   command_id: str | None = None, status: str | None = None, winner: str | None = None,
                   command_body: str | None = None, command_seat: str | None = None,
                   body_hash: str | None = None) -> Callable[[Any], AppendResult]:
        """The transaction of the store's ``append`` (its arguments checked first), also run inside a
        ``transaction`` of another module (a campaign seat recorded in its battle)."""
        check_new_events(events)
        seat_key = (command_seat if command_seat is not None else events[0].actor) or ""

        def tx(conn: Any) -> AppendResult:
            self.dialect.lock_game(conn, game_id)
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
            g = conn.execute(APPEND_HEAD, (game_id,)).fetchone()
            if g is None:
                raise UnknownGame(game_id)
            current, version_of_chain, head_hash, seed, status_was, winner_was = g
            if current != expected_version:
                raise VersionConflict(game_id, expected_version, current)
            prev = head_hash if current > 0 else GENESIS
            key = None
            if version_of_chain == CHAIN_V2:
                if seed is None:
                    raise SeedUnavailable(game_id)
                key = chain.commit_key(bytes.fromhex(seed))
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
                if status != status_was:
                    sets.append("status = ?")
                    args.append(status)
                if status == "finished":
                    conn.execute("UPDATE secrets SET revealed = 1 WHERE game_id = ?", (game_id,))
            if winner is not None and winner != winner_was:
                sets.append("winner = ?")
                args.append(winner)
            conn.execute(f"UPDATE games SET {', '.join(sets)} WHERE game_id = ?", (*args, game_id))
            return AppendResult(first_seq=current + 1, last_seq=last, version=last, current_version=last, head=head,
                                events=stored)

        return tx

    # -- seats changing hands (DESIGN 4) -----------------------------------------------------------
    def claim_seat_tx(self, game_id: str, seat: str, invitation_hash: str, new_token_hash: str,
                      expected_version: int, events: Sequence[NewEvent]) -> Callable[[Any], AppendResult]:
        """Retire ``seat``'s invitation (it must be ``invitation_hash``), give the seat ``new_token_hash``
        and append ``events`` (its ``seat_claimed``), in one transaction. :class:`SeatRefused`
        (``claimed``: no invitation left; ``wrong``: another invitation) or :class:`VersionConflict`
        leave everything as it was. Of two claims at once exactly one wins: the invitation row is
        deleted under the game's write lock."""
        append = self.append_tx(game_id, expected_version, events)

        def tx(conn: Any) -> AppendResult:
            self.dialect.lock_game(conn, game_id)
            row = conn.execute("SELECT invitation_hash FROM invitations WHERE game_id = ? AND seat = ?",
                               (game_id, seat)).fetchone()
            if row is None:
                raise SeatRefused("claimed")
            if not hmac.compare_digest(row[0], invitation_hash):
                raise SeatRefused("wrong")
            conn.execute("DELETE FROM invitations WHERE game_id = ? AND seat = ?", (game_id, seat))
            conn.execute("INSERT INTO seats (game_id, seat, token_hash) VALUES (?,?,?)", (game_id, seat, new_token_hash))
            return append(conn)

        return tx

    def rotate_seat_tx(self, game_id: str, seat: str, old_token_hash: str, new_token_hash: str,
                       expected_version: int, events: Sequence[NewEvent]) -> Callable[[Any], AppendResult]:
        """Replace ``seat``'s token (it must be ``old_token_hash``) by ``new_token_hash`` and append
        ``events`` (its ``seat_rotated``), in one transaction (:class:`SeatRefused` ``not-holder``)."""
        append = self.append_tx(game_id, expected_version, events)

        def tx(conn: Any) -> AppendResult:
            self.dialect.lock_game(conn, game_id)
            cur = conn.execute("UPDATE seats SET token_hash = ? WHERE game_id = ? AND seat = ? AND token_hash = ?",
                               (new_token_hash, game_id, seat, old_token_hash))
            if cur.rowcount != 1:
                raise SeatRefused("not-holder")
            return append(conn)

        return tx

    def invitation_hashes(self, game_id: str) -> dict[str, str]:
        """``{seat: invitation_hash}`` of the invitations of ``game_id`` still open (for export)."""
        return dict(self._read().execute(
            "SELECT seat, invitation_hash FROM invitations WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall())

    def invited_seats(self, game_id: str) -> list[str]:
        """The seats of ``game_id`` whose invitation is still open (not claimed)."""
        return [r[0] for r in self._read().execute(
            "SELECT seat FROM invitations WHERE game_id = ? ORDER BY seat", (game_id,))]

    def import_game_tx(
        self,
        game: GameRow,
        token_hashes: dict[str, str],
        seed: bytes | None,
        events: Sequence[StoredEvent],
        invitation_hashes: dict[str, str] | None = None,
    ) -> Callable[[Any], None]:
        """Insert a whole game as stored elsewhere (events kept byte for byte, hashes
        included) in one transaction, with the hashes of its invitations still open. The caller verifies the chain first
        (``service.transfer`` does). Raises :class:`GameExists` for a used id.
        The ``commands`` table is rebuilt from the events' ``command_id`` (body hashes are not
        exported: a retried id of an imported game answers the first answer)."""

        def tx(conn: Any) -> None:
            self.dialect.lock_game(conn, game.game_id)
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

        return tx

    def command_body(self, game_id: str, seq: int) -> tuple[int, int, str | None, str] | None:
        """(first_seq, last_seq, seat, command JSON) of the command whose events include ``seq``."""
        row = self._read().execute(
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
        return [row_event(r) for r in self._read().execute(sql, args)]

    def last_seq_not_of(self, game_id: str, types: Iterable[str], upto: int | None = None) -> int:
        """The seq of the last event whose type is not in ``types`` (0: none)."""
        kinds = sorted(types)
        sql = f"SELECT MAX(seq) FROM events WHERE game_id = ? AND type NOT IN ({','.join('?' * len(kinds))})"
        args: list[Any] = [game_id, *kinds]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        row = self._read().execute(sql, args).fetchone()
        return row[0] or 0

    def event(self, game_id: str, seq: int) -> StoredEvent | None:
        r = self._read().execute(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq = ?", (game_id, seq)
        ).fetchone()
        return row_event(r) if r else None

    def unfinished_bot_games(self) -> list[str]:
        """The games not finished whose header names bot seats, read through the bot headers' partial index:
        rows of the games with bots, never one per stored game."""
        # no ORDER BY: SQLite would then walk the lobby's index of every game instead of the bot headers'
        rows = self._read().execute(
            "SELECT g.created_at, e.game_id FROM events AS e JOIN games AS g ON g.game_id = e.game_id "
            f"WHERE {self.dialect.bot_headers} AND g.status != 'finished'").fetchall()
        return [r[1] for r in sorted(rows)]

    def last_position(self) -> int:
        """The position of the newest event of any game, 0 for none: where a tail starts."""
        return self._read().execute(f"SELECT COALESCE(MAX({self.dialect.position}), 0) FROM events").fetchone()[0]

    def iter_all(self, after_rowid: int = 0, batch: int = 1000) -> Iterable[tuple[int, StoredEvent]]:
        """Every event of every game in commit order (the position), for rebuilds."""
        pos = self.dialect.position
        last = after_rowid
        while True:
            rows = self._read().execute(
                f"SELECT {pos}, {EVENT_COLUMNS} FROM events WHERE {pos} > ? ORDER BY {pos} LIMIT ?", (last, batch)
            ).fetchall()
            if not rows:
                return
            for r in rows:
                last = r[0]
                yield r[0], row_event(r[1:])

    def count_events(self, after_rowid: int = 0, upto_rowid: int | None = None) -> int:
        """How many events :meth:`iter_all` yields after ``after_rowid`` (up to ``upto_rowid``)."""
        pos = self.dialect.position
        sql, args = f"SELECT count(*) FROM events WHERE {pos} > ?", [after_rowid]
        if upto_rowid is not None:
            sql += f" AND {pos} <= ?"
            args.append(upto_rowid)
        return self._read().execute(sql, args).fetchone()[0]


__all__ = ["GAME_SELECT", "Dialect", "LogSql", "SeatRefused", "game_row"]
