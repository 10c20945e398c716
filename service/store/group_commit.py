"""Group commit (decision 2): writers queue their transaction functions; one committer runs a group of
them in one transaction and answers each waiting thread, or each waiting coroutine on its event loop."""
from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

log = logging.getLogger("umpire.store")

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
