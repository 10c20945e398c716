"""Group commit in the SQLite store (issue 17, ``EventStore._write``): the writes that queue while one
transaction commits -- or while another process holds the writers' turn (the ``flock`` on
``umpire.db-writer``) -- are committed together, each in its own savepoint, with one COMMIT; a write that
fails is rolled back alone; and processes opening one new file at once all get a usable store."""
from __future__ import annotations

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


def _groups(store: EventStore, monkeypatch) -> list[int]:
    """The size of every group the store commits from now on."""
    sizes: list[int] = []
    inner = store._commit_locked

    def spy(batch):
        sizes.append(len(batch))
        return inner(batch)

    monkeypatch.setattr(store, "_commit_locked", spy)
    return sizes


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
