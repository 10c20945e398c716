"""Group commit (decision 2): writers queue their transaction functions; one committer runs a group of
them in one transaction and answers each waiting thread, or each waiting coroutine on its event loop; the
writers' lock between processes."""
from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import queue
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from domain.kernel.log import StoreError

log = logging.getLogger("umpire.store")

#: How many turns of the event loop a write that finds nothing else being written gives the other requests before
#: it is committed on the loop (``EventStore._write_async``): the requests already started (several connections
#: read in one pass of the loop) reach their appends meanwhile and queue behind it, and then the whole group goes to
#: the committer thread. Measured (``ops/bench_http.py``, 8 connections, one worker, CPU per command): one turn did
#: as well as three; with none every command was committed alone (one fsync each) and cost a third more.
HERE_YIELDS = 1
#: A commit on the loop that took longer than this (a slow fsync: the disk busy) held every other request of the
#: process meanwhile: for :data:`LOOP_COMMIT_PAUSE_S` after it, writes go to the committer thread (the loop goes
#: on while it waits for the disk).
LOOP_COMMIT_SLOW_S = 0.002
LOOP_COMMIT_PAUSE_S = 1.0

#: Called after each group commit with its size (writes) and its transaction's seconds (``service.metrics``).
ON_GROUP_COMMIT: list[Callable[[int, float], None]] = []


class Write:
    """One caller's transaction function waiting for its group's commit: a thread waiting on the group's
    condition, or (``future`` set) a coroutine of an event loop awaiting ``future``."""

    __slots__ = ("fn", "out", "error", "done", "future")

    def __init__(self, fn: Callable[[sqlite3.Connection], Any], future: asyncio.Future[Any] | None = None):
        self.fn = fn
        self.out: Any = None
        self.error: BaseException | None = None
        self.done = False
        self.future = future


def settle(writes: list[Write]) -> None:
    """On the awaiting coroutines' event loop: their writes are committed (or refused)."""
    for w in writes:
        fut = w.future
        if fut is None or fut.done():  # cancelled meanwhile: the write stands, nobody waits for it
            continue
        if w.error is not None:
            fut.set_exception(w.error)
        else:
            fut.set_result(w.out)


def answer_loops(batch: list[Write]) -> None:
    """Hand a group's results to the event loops awaiting them (from the committing thread): one wake-up per
    loop."""
    by_loop: dict[Any, list[Write]] = {}
    for w in batch:
        if w.future is not None:
            by_loop.setdefault(w.future.get_loop(), []).append(w)
    for loop, writes in by_loop.items():
        try:
            loop.call_soon_threadsafe(settle, writes)
        except RuntimeError:  # that loop is closed: nobody awaits these any more
            pass


class Committer:
    """The thread that commits the groups of writes awaited on an event loop (the command path runs a command on
    the loop and, unless its write is alone, its commit here), and tells the commit listeners of the groups
    committed on a loop. Started on first use; it waits on a plain queue (one job each: True, commit the queued
    group; a committed group, tell its listeners; None, end), cheaper than an executor's futures."""

    def __init__(self, commit_group: Callable[[], None], tell_group: Callable[[list[Write]], None]):
        self._commit_group = commit_group
        self._tell_group = tell_group
        self.thread: threading.Thread | None = None
        self._jobs: queue.SimpleQueue[bool | list[Write] | None] = queue.SimpleQueue()

    def commit_queued(self) -> None:
        """Commit the queued group on the thread."""
        self._put(True)

    def tell(self, batch: list[Write]) -> None:
        """Tell the commit listeners of ``batch`` (a group committed on a loop) on the thread."""
        self._put(batch)

    def _put(self, job: bool | list[Write]) -> None:
        if self.thread is None or not self.thread.is_alive():
            jobs: queue.SimpleQueue[bool | list[Write] | None] = queue.SimpleQueue()
            thread = threading.Thread(target=self._run, args=(jobs,), name="umpire-commit", daemon=True)
            try:
                thread.start()
            except RuntimeError:  # shutting down (the interpreter): do it here instead
                self._commit_group() if job is True else self._tell_group(job)
                return
            self.thread, self._jobs = thread, jobs
        self._jobs.put(job)

    def _run(self, jobs: queue.SimpleQueue[bool | list[Write] | None]) -> None:
        while (job := jobs.get()) is not None:
            if job is True:
                self._commit_group()
            else:
                self._tell_group(job)

    def release(self) -> None:
        """Let the thread go (the app's shutdown): its queued jobs still run; a later job starts another."""
        thread, self.thread = self.thread, None
        if thread is not None:
            self._jobs.put(None)


class WritersLock:
    """The writers' lock between processes (``umpire serve --workers N``, the CLI beside a server): an
    exclusive ``flock`` on a file beside the database, held by a group's committer around its transaction,
    so the processes queue in the kernel and each wakes the moment the other commits, instead of sleeping
    in SQLite's busy handler (whose back-off steps of up to 100 ms made the 2-worker tail). SQLite's own
    lock stays the guarantee; this only orders the waiting. The file is opened on first use; without it
    (it cannot be opened) SQLite's busy handler alone arbitrates, as before."""

    def __init__(self, path: Path, db_path: Path):
        self.path = path
        self.db_path = db_path
        self._fd: int | None = None

    def _open(self) -> int | None:
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                return None
            weakref.finalize(self, os.close, self._fd)
        return self._fd

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Hold the lock (blocking; the GIL is released while waiting)."""
        fd = self._open()
        if fd is None:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            raise StoreError(f"cannot write to {self.db_path}: the writers' lock failed ({exc.strerror})") from None
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def take_now(self) -> bool:
        """Take the lock if no other process holds it (never waits); True: taken, :meth:`release` it."""
        fd = self._open()
        if fd is None:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)


def tell(listeners: list[Callable[[list[Any]], None]], batch: list[Write]) -> None:
    """After a group's commit is on disk and its callers are answered: each of the store's commit listeners
    gets the results of the group's writes that were kept (on the thread that committed the group; the
    commit bus announces the group's commits to the other processes from here, without a thread of its own).
    A listener's failure is logged: the writes are committed."""
    outs = [w.out for w in batch if w.error is None]
    if not outs:
        return
    for listener in listeners:
        try:
            listener(outs)
        except Exception:
            log.exception("commit listener %r failed", listener)


def run_group(conn: sqlite3.Connection, batch: list[Write], fail_all: Callable[[BaseException], None]) -> None:
    """The group's writes in the transaction just begun on ``conn``, then its commit. Each write runs in a
    savepoint of its own, so its own refusal (a conflict, a bad argument: kept as its ``error``) undoes only
    it; a write alone in its group runs without one (its refusal rolls the whole transaction back, which held
    nothing else). The database refusing (``sqlite3.OperationalError``), or an interruption between writes,
    fails the whole group through ``fail_all``, which rolls back: nothing of it is kept."""
    if len(batch) == 1:
        w = batch[0]
        try:
            w.out = w.fn(conn)
        except sqlite3.OperationalError as exc:
            fail_all(exc)
            return
        except BaseException as exc:  # this write's own refusal (a conflict, a bad argument)
            w.error = exc
            try:
                conn.execute("ROLLBACK")
            except sqlite3.OperationalError as rb:  # pragma: no cover
                fail_all(rb)
            return
        try:
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            fail_all(exc)
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
