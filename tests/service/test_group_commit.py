"""Group commit in the SQLite store (issue 17, ``EventStore._write``): the writes that queue while one
transaction commits -- or while another process holds the writers' turn (the ``flock`` on
``umpire.db-writer``) -- are committed together, each in its own savepoint, with one COMMIT; a write that
fails is rolled back alone; and processes opening one new file at once all get a usable store."""
from __future__ import annotations

import asyncio
import fcntl
import multiprocessing
import os
import threading
import time

import pytest

from domain.kernel.dice import commitment
from service.store import WRITER_LOCK_FILE, EventStore, NewEvent, VersionConflict

SEED = bytes(range(32))
WRITERS = 6


def _store(tmp_path, games: int) -> EventStore:
    store = EventStore(tmp_path / "data")
    for i in range(games):
        store.create_game(game_id=f"g{i}", ruleset="test", scenario="s", setup="{}", seed=SEED,
                          seed_commitment=commitment(SEED), token_hashes={})
    return store


class Groups(list):
    """The size of every group the store commits (``threads``: the thread that committed each)."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[str] = []


def _groups(store: EventStore, monkeypatch, before=None) -> Groups:
    """Every group the store commits from now on (``before(groups)``: called as each group starts)."""
    groups = Groups()
    inner = store._commit_locked

    def spy(batch, *connect):
        groups.append(len(batch))
        groups.threads.append(threading.current_thread().name)
        if before is not None:
            before(groups)
        return inner(batch, *connect)

    monkeypatch.setattr(store, "_commit_locked", spy)
    return groups


def _while_another_process_writes(store: EventStore, writes: list) -> list:
    """Run ``writes`` (callables) in threads while the writers' turn is held elsewhere (another open file
    description of the lock file: flock treats it as another process); release it once all are queued."""
    fd = os.open(store.data_dir / WRITER_LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    out: list = [None] * len(writes)

    def run(i):
        try:
            out[i] = writes[i]()
        except Exception as exc:  # noqa: BLE001 - the write's own answer
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(writes))]
    try:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while len(store._queue) < len(writes) and time.monotonic() < deadline:
            time.sleep(0.01)  # the leader waits for the turn; every other write queues behind it
        assert len(store._queue) == len(writes)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    for t in threads:
        t.join(30)
    return out


def test_writes_that_queue_while_another_process_commits_go_in_one_group(tmp_path, monkeypatch):
    store = _store(tmp_path, WRITERS)
    sizes = _groups(store, monkeypatch)
    writes = [lambda i=i: store.append(f"g{i}", 0, [NewEvent(type="Moved", payload='{"n":1}')], command_id=f"c{i}")
              for i in range(WRITERS)]
    out = _while_another_process_writes(store, writes)
    assert [r.version for r in out] == [1] * WRITERS
    assert sizes == [WRITERS]  # one COMMIT (one fsync) for all of them, the leader's own write among them
    assert all(store.version(f"g{i}") == 1 for i in range(WRITERS))


def test_a_write_that_fails_in_a_group_is_rolled_back_alone(tmp_path, monkeypatch):
    store = _store(tmp_path, 2)
    sizes = _groups(store, monkeypatch)
    writes = [lambda: store.append("g0", 0, [NewEvent(type="Moved", payload='{"n":1}')], command_id="ok"),
              lambda: store.append("g1", 5, [NewEvent(type="Moved", payload='{"n":1}')], command_id="stale"),
              lambda: store.append("g1", 0, [NewEvent(type="Moved", payload='{"n":2}')], command_id="ok2")]
    out = _while_another_process_writes(store, writes)
    assert sizes == [3]
    assert out[0].version == 1 and out[2].version == 1
    assert isinstance(out[1], VersionConflict)
    assert [e.payload for e in store.load("g1")][-1] == '{"n":2}' and store.version("g1") == 1
    assert store.command_result("g1", "stale", None) is None  # nothing of the refused write was kept


def _open(path: str, q) -> None:
    try:
        EventStore(path).close()
        q.put("ok")
    except Exception as exc:  # noqa: BLE001
        q.put(repr(exc))


@pytest.mark.parametrize("processes", [4])
def test_processes_opening_one_new_file_at_once_all_get_a_store(tmp_path, processes):
    ctx = multiprocessing.get_context("spawn")
    for round_ in range(3):
        q = ctx.Queue()
        procs = [ctx.Process(target=_open, args=(str(tmp_path / f"d{round_}"), q)) for _ in range(processes)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        assert sorted(q.get(timeout=10) for _ in procs) == ["ok"] * processes


# -- writes awaited on an event loop (the command path: the command on the loop, its commit elsewhere) -------

def _event(n: int) -> list[NewEvent]:
    return [NewEvent(type="Moved", payload=f'{{"n":{n}}}')]


def test_writes_awaited_on_a_loop_and_a_threads_write_commit_in_one_group(tmp_path, monkeypatch):
    store = _store(tmp_path, WRITERS + 1)
    groups = _groups(store, monkeypatch)
    fd = os.open(store.data_dir / WRITER_LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another process's turn: everything below queues
    out: dict[str, object] = {}

    def thread_write():
        out["thread"] = store.append(f"g{WRITERS}", 0, _event(1), command_id="t")

    async def main():
        tasks = [asyncio.ensure_future(store.append_async(f"g{i}", 0, _event(1), command_id=f"c{i}"))
                 for i in range(WRITERS - 1)]
        tasks.append(asyncio.ensure_future(store.append_async("g0", 5, _event(9), command_id="stale")))
        t = threading.Thread(target=thread_write)
        t.start()
        for _ in range(3000):
            if len(store._queue) == WRITERS + 1:
                break
            await asyncio.sleep(0.01)
        assert len(store._queue) == WRITERS + 1
        fcntl.flock(fd, fcntl.LOCK_UN)
        res = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
        await asyncio.to_thread(t.join, 30)
        return res

    try:
        res = asyncio.run(main())
    finally:
        os.close(fd)
    assert [r.version for r in res[:-1]] == [1] * (WRITERS - 1)
    assert isinstance(res[-1], VersionConflict)  # the refused write gets its own exception, alone
    assert out["thread"].version == 1
    assert groups == [WRITERS + 1]  # one COMMIT for the loop's writes and the thread's
    assert store.version("g0") == 1 and [e.payload for e in store.load("g0")] == ['{"n":1}']


def test_a_loops_write_that_queues_while_a_thread_commits_is_committed_after_it(tmp_path, monkeypatch):
    """The thread's group took the queue before the loop's write came: nobody waits in a thread for that
    write, so the committer thread leads its group once the thread's group is done."""
    store = _store(tmp_path, 2)
    first_taken, loop_write_queued = threading.Event(), threading.Event()

    def hold_the_first(groups):
        if len(groups) == 1:
            first_taken.set()
            assert loop_write_queued.wait(30)

    groups = _groups(store, monkeypatch, before=hold_the_first)
    t = threading.Thread(target=lambda: store.append("g0", 0, _event(1)), name="a-request-thread")
    t.start()
    assert first_taken.wait(30)

    async def main():
        task = asyncio.ensure_future(store.append_async("g1", 0, _event(2)))
        for _ in range(3000):
            if store._queue:
                break
            await asyncio.sleep(0.01)
        loop_write_queued.set()
        return await asyncio.wait_for(task, 30)

    res = asyncio.run(main())
    t.join(30)
    assert res.version == 1 and store.version("g0") == 1 and store.version("g1") == 1
    assert groups == [1, 1]
    assert groups.threads[0] == "a-request-thread" and groups.threads[1].startswith("umpire-commit")


def test_a_write_whose_coroutine_was_cancelled_still_commits(tmp_path):
    """Cancelling the await does not take the write back (as with a thread that stopped waiting): it is
    committed with its group; the caller was never told it was, and a retry with its command id answers
    the first result."""
    store = _store(tmp_path, 1)
    fd = os.open(store.data_dir / WRITER_LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)

    async def main():
        task = asyncio.ensure_future(store.append_async("g0", 0, _event(1), command_id="c"))
        for _ in range(3000):
            if store._queue:
                break
            await asyncio.sleep(0.01)
        task.cancel()
        fcntl.flock(fd, fcntl.LOCK_UN)
        with pytest.raises(asyncio.CancelledError):
            await task
        retry = await asyncio.wait_for(store.append_async("g0", 0, _event(1), command_id="c"), 30)
        return retry

    try:
        retry = asyncio.run(main())
    finally:
        os.close(fd)
    assert retry.duplicate and retry.version == 1 and store.version("g0") == 1


# -- a write awaited on a loop while nothing else is written: committed on the loop itself ------------------

def test_a_loops_write_alone_is_committed_on_the_loop_and_its_listeners_told_on_the_committer(tmp_path, monkeypatch):
    """Nothing else being written and the writers' lock free: the loop's write is its own group, committed on the
    loop's thread (no hand-off), durable before the await returns (another connection reads it at once); the
    commit listeners (the commit bus) are told afterwards on the committer thread, never on the loop."""
    store = _store(tmp_path, 1)
    groups = _groups(store, monkeypatch)
    told: list[tuple[str, list]] = []
    store.commit_listeners.append(lambda outs: told.append((threading.current_thread().name, outs)))

    async def main():
        res = await store.append_async("g0", 0, _event(1), command_id="c")
        other = EventStore(tmp_path / "data")  # its own connection: what is committed, nothing else
        try:
            seen = other.version("g0")
        finally:
            other.close()
        for _ in range(3000):
            if told:
                break
            await asyncio.sleep(0.01)
        return res, seen, threading.current_thread().name

    res, seen, loop_thread = asyncio.run(main())
    assert res.version == 1 and seen == 1
    assert groups == [1] and groups.threads == [loop_thread]
    assert len(told) == 1 and told[0][0].startswith("umpire-commit") and told[0][1][0].version == 1


def test_loop_writes_that_start_together_go_to_the_committer_as_one_group(tmp_path, monkeypatch):
    """Several commands reaching their appends in one pass of the loop (several connections): the first gives
    the loop a turn before committing, the others queue behind it, and the group is committed once, on the
    committer thread (the loop goes on meanwhile); a refused write among them is refused alone."""
    store = _store(tmp_path, WRITERS)
    groups = _groups(store, monkeypatch)

    async def main():
        writes = [store.append_async(f"g{i}", 0, _event(1), command_id=f"c{i}") for i in range(WRITERS)]
        writes.append(store.append_async("g0", 7, _event(2), command_id="stale"))
        return await asyncio.wait_for(asyncio.gather(*writes, return_exceptions=True), 30)

    res = asyncio.run(main())
    assert [r.version for r in res[:-1]] == [1] * WRITERS and isinstance(res[-1], VersionConflict)
    assert groups == [WRITERS + 1] and groups.threads[0].startswith("umpire-commit")
    assert [e.payload for e in store.load("g0")] == ['{"n":1}']


def test_a_read_left_open_on_the_loop_is_not_inside_its_write(tmp_path):
    """A read of the loop's thread left unfinished (a generator suspended across an await) holds a statement
    open on that thread's connection; the write committed on the loop uses a connection of its own: the write
    commits, and the open read goes on over the snapshot it began with (it does not see the write)."""
    store = _store(tmp_path, 1)
    store.append("g0", 0, _event(1) + _event(2))

    async def main():
        rows = store._conn().execute("SELECT seq FROM events WHERE game_id = 'g0' ORDER BY seq")
        first = rows.fetchone()  # the statement stays open on the loop thread's read connection
        res = await store.append_async("g0", 2, _event(3))
        return first, res, rows.fetchall()

    first, res, rest = asyncio.run(main())
    assert res.version == 3 and store.version("g0") == 3
    assert first == (1,) and rest == [(2,)]


def test_after_a_slow_commit_on_the_loop_writes_go_to_the_committer_for_a_while(tmp_path, monkeypatch):
    """A commit on the loop slower than LOOP_COMMIT_SLOW_S (a busy disk) held the whole loop: the writes after it
    are committed on the committer thread (the loop goes on meanwhile) until LOOP_COMMIT_PAUSE_S has passed."""
    from service.store import sqlite as sqlite_store

    store = _store(tmp_path, 1)
    groups = _groups(store, monkeypatch)
    monkeypatch.setattr(sqlite_store, "LOOP_COMMIT_SLOW_S", -1.0)  # every commit counts as slow

    async def main():
        first = await store.append_async("g0", 0, _event(1))
        second = await store.append_async("g0", 1, _event(2))
        store._loop_paused_until = 0.0  # the pause over
        third = await store.append_async("g0", 2, _event(3))
        return [first.version, second.version, third.version], threading.current_thread().name

    versions, loop_thread = asyncio.run(main())
    assert versions == [1, 2, 3] and store.version("g0") == 3
    assert groups.threads[0] == loop_thread and groups.threads[1].startswith("umpire-commit")
    assert groups.threads[2] == loop_thread
