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

The statements themselves are :mod:`service.store.log_sql`'s (shared with the PostgreSQL adapter, by
composition); this module is the SQLite side: connections, migrations, the group commit and the writers'
lock between processes.
"""
from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from domain.kernel import chain
from domain.kernel.chain import GENESIS
# The pure record types live in the kernel (projections read them without importing the store);
# re-exported here under their old names.
from domain.kernel.log import (  # noqa: F401
    AppendResult, EventLog, GameExists, GameRow, NewEvent, SeedUnavailable, StoredEvent, StoreError, UnknownGame,
    VersionConflict,
)

from .chain_check import ChainReport, verify_chain, verify_commitments
from .group_commit import (
    HERE_YIELDS, LOOP_COMMIT_PAUSE_S, LOOP_COMMIT_SLOW_S, ON_GROUP_COMMIT, Committer, Write, WritersLock, answer_loops,
    run_group, tell,
)
from .migrations import BOT_HEADERS, MIGRATIONS
from .log_calls import asked, awaited, written
from .log_sql import Dialect, LogSql, SeatRefused
from .rows import token_hash


def _seq_conflict(exc: BaseException) -> bool:
    return "events.game_id, events.seq" in str(exc)


def _lock_game(conn: Any, game_id: str) -> None:
    """SQLite: ``BEGIN IMMEDIATE`` already holds the database's one write lock (PostgreSQL takes a
    per-game advisory lock)."""


#: What SQLite does its own way (:class:`service.store.log_sql.Dialect`).
SQLITE = Dialect(lock_game=_lock_game, integrity_errors=(sqlite3.IntegrityError,), seq_conflict=_seq_conflict,
                 bot_headers=BOT_HEADERS, position="rowid", newest_game_first="rowid DESC")

DB_FILE = "umpire.db"
#: Beside the database: the writers' lock between processes (:class:`service.store.group_commit.WritersLock`).
WRITER_LOCK_FILE = "umpire.db-writer"


#: Kept for callers of the chain-version-1 helpers (:mod:`domain.kernel.chain` holds both versions).
canonical = chain.v1_canonical
chain_hash = chain.v1_hash


class EventStore:
    """One SQLite file. Safe to share between threads (a connection per thread). Implements
    :class:`service.store_contract.Store` (as does the PostgreSQL backend, ``service.store.postgres``)."""

    #: What a unique-key violation raises inside :meth:`transaction`.
    integrity_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)
    #: Reads are local file reads of microseconds: a command may run on the event loop (the command path)
    #: without stalling it. (PostgreSQL's are network round trips: its commands run on worker threads.)
    local_reads: bool = True
    #: Whether a write awaited on an event loop while nothing else is being written is committed right there
    #: (:meth:`_write_async`; False: always on the committer thread).
    commit_on_loop: bool = True
    #: Until when (``time.monotonic()``) writes are not committed on the loop (after a slow one there).
    _loop_paused_until: float = 0.0
    #: :data:`BOT_HEADERS` in this backend's SQL (the partial index's own predicate, so the index is used).
    bot_headers = BOT_HEADERS

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
        #: The log's statements, read on this thread's connection.
        self._sql = LogSql(self._conn, SQLITE)
        #: Group commit (issue 17): one writer at a time inside this process -- a thread waits on this
        #: condition, never in SQLite's busy handler (whose back-off sleeps made the long tail; the
        #: busy handler only arbitrates between processes) -- and the writes that queued while one
        #: transaction committed are run together, each in its own savepoint, under ONE commit (one
        #: fsync). Each caller gets its answer only once that commit is on disk.
        self._group = threading.Condition()
        self._queue: list[Write] = []
        self._leading = False
        #: Between processes: the group's committer holds this around its transaction.
        self._writers = WritersLock(self.data_dir / WRITER_LOCK_FILE, self.path)
        #: Commits the groups of writes awaited on a loop (unless alone) and announces the loop's commits.
        self._committer = Committer(self._commit_group, lambda batch: tell(self.commit_listeners, batch))
        #: Called with the kept results of each group after its commit and its answers, on the committing
        #: thread (:func:`service.store.group_commit.tell`; the commit bus listens here).
        self.commit_listeners: list[Callable[[list[Any]], None]] = []
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
        with self._writers.held():
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
            conn = self._local.conn = self._connect()
        return conn

    def _loop_writer(self) -> sqlite3.Connection:
        """The connection a group committed on an event loop's thread is written on (:meth:`_commit_here`): one
        of its own, so that no read of that thread left unfinished (a generator suspended across an await)
        is ever inside the write transaction."""
        conn = getattr(self._local, "writer", None)
        if conn is None:
            conn = self._local.writer = self._connect()
        return conn

    def _connect(self) -> sqlite3.Connection:
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
        for name in ("conn", "writer"):
            conn = getattr(self._local, name, None)
            if conn is not None:
                conn.close()
                setattr(self._local, name, None)
        self.release_threads()

    def release_threads(self) -> None:
        """Let the committer thread go (the app's shutdown): its queued groups still run; a later
        awaited write starts another."""
        self._committer.release()

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
        write's own exception) comes once its group's COMMIT is on disk.

        When nothing else is being written (no group committing, nothing queued) and the writers' lock between
        processes is free at once, the write is committed right here, on the loop, as a group of one
        (:meth:`_commit_here`): the same transaction and the same fsync, without the two thread hand-offs
        (not for :data:`LOOP_COMMIT_PAUSE_S` after one that took longer than :data:`LOOP_COMMIT_SLOW_S`)."""
        if self.read_only:
            raise StoreError(f"{self.path} was opened read-only: no write is made")
        loop = asyncio.get_running_loop()
        item = Write(fn)
        with self._group:
            self._queue.append(item)
            lead = not self._leading
            if lead:
                self._leading = True
            else:
                item.future = loop.create_future()  # a group is being committed: this write joins the next
        if lead:
            try:
                if self.commit_on_loop and time.monotonic() >= self._loop_paused_until:
                    for _ in range(HERE_YIELDS):  # requests already arrived reach their appends, queue behind
                        await asyncio.sleep(0)
                    with self._group:
                        alone = len(self._queue) == 1
                    if alone and self._commit_here():
                        if item.error is not None:
                            raise item.error
                        return item.out
            finally:
                if not item.done:  # to the committer thread (also when cancelled meanwhile: the write stands)
                    item.future = loop.create_future()
                    self._committer.commit_queued()
        return await item.future

    def _commit_here(self) -> bool:
        """On the event loop, nothing else being written: take the writers' lock between processes if it is
        free at once (else False: the committer thread commits, as when busy) and commit what queued -- this
        loop's one write, and any thread's that came meanwhile -- as :meth:`_commit_group` does. The commit
        listeners (the commit bus's announcement, a round trip to Redis) are told on the committer thread,
        once the loop is past this step (after the answer is sent)."""
        if not self._writers.take_now():
            return False
        batch: list[Write] = []
        try:
            with self._group:
                batch, self._queue = self._queue, []
            began = time.perf_counter()
            self._commit_locked(batch, self._loop_writer)
            took = time.perf_counter() - began
            if took > LOOP_COMMIT_SLOW_S:
                self._loop_paused_until = time.monotonic() + LOOP_COMMIT_PAUSE_S
            for hook in ON_GROUP_COMMIT:
                hook(len(batch), took)
        finally:
            self._writers.release()
            again = self._finish(batch)
            if again:
                self._committer.commit_queued()
            if self.commit_listeners:
                asyncio.get_running_loop().call_soon(self._committer.tell, batch)
        return True

    def _finish(self, batch: list[Write]) -> bool:
        """A group is done: its writes marked, the threads waiting woken; True when writes awaited on a loop
        queued meanwhile (they have no thread of their own to lead their group: the committer thread does; a
        thread waiting meanwhile joins that group)."""
        with self._group:
            for w in batch:
                w.done = True
            again = any(w.future is not None for w in self._queue)
            self._leading = again
            self._group.notify_all()
        return again

    def _commit_group(self) -> None:
        """Wait for the writers' turn between processes, THEN take every write that queued in this process
        (the ones that came while waiting too: with several workers the wait is another process's
        commit, and the group grows meanwhile) and run them in one BEGIN IMMEDIATE transaction, each in a
        savepoint (a write that raises is rolled back alone and gets its exception), with one COMMIT. A
        refusal of the database itself (SQLite's OperationalError: disk full, I/O error, locked too long)
        fails the whole group: nothing of it is written and every caller gets the StoreError."""
        batch: list[Write] = []
        try:
            with self._writers.held():
                with self._group:
                    batch, self._queue = self._queue, []
                began = time.perf_counter()
                self._commit_locked(batch)
                for hook in ON_GROUP_COMMIT:
                    hook(len(batch), time.perf_counter() - began)
        finally:
            if not batch:  # the turn was never had (an error taking the lock): what queued fails, whole
                with self._group:
                    batch, self._queue = self._queue, []
                for w in batch:
                    w.error = StoreError(f"cannot write to {self.path}: the writers' lock failed")
            again = self._finish(batch)
            answer_loops(batch)
            if again:
                self._committer.commit_queued()
            if self.commit_listeners:
                tell(self.commit_listeners, batch)

    def _commit_locked(self, batch: list[Write], connect: Callable[[], sqlite3.Connection] | None = None) -> None:
        """The group in one transaction on ``connect()`` (this thread's connection by default)."""
        def fail_all(exc: BaseException) -> None:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            err = StoreError(f"cannot write to {self.path}: {exc}")
            for w in batch:
                w.out, w.error = None, err

        try:
            conn = (connect or self._conn)()
            conn.execute("BEGIN IMMEDIATE")
        except (sqlite3.OperationalError, StoreError) as exc:
            err = exc if isinstance(exc, StoreError) else StoreError(f"cannot write to {self.path}: {exc}")
            for w in batch:
                w.error = err
            return
        run_group(conn, batch, fail_all)

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
    last_position = asked(LogSql.last_position)
    iter_all = asked(LogSql.iter_all)

    def import_game(self, game: GameRow, token_hashes: dict[str, str], seed: bytes | None,
                    events: Sequence[StoredEvent], invitation_hashes: dict[str, str] | None = None) -> None:
        """A whole game as stored elsewhere, in one transaction (:meth:`LogSql.import_game_tx`)."""
        try:
            self._write(self._sql.import_game_tx(game, token_hashes, seed, events, invitation_hashes))
        except sqlite3.IntegrityError as exc:
            raise StoreError(f"cannot import game {game.game_id!r}: {exc}") from None


__all__ = [
    "AppendResult", "ChainReport", "EventStore", "GENESIS", "GameExists", "GameRow", "NewEvent", "SeedUnavailable",
    "SeatRefused", "StoreError", "StoredEvent", "UnknownGame", "VersionConflict", "chain_hash", "canonical", "token_hash",
    "verify_chain", "verify_commitments",
]
