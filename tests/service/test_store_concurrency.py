"""Optimistic concurrency (DESIGN section 2): many writers on one game, no gap,
no duplicate, and every writer that lost a race was told so with VersionConflict. Part of the store
contract suite: on SQLite and on PostgreSQL (``tests/service/store_backends.py``)."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import msgspec

from domain.kernel.dice import commitment
from service.store import EventStore, NewEvent, VersionConflict, verify_chain
from tests.service.store_backends import backend, store, target  # noqa: F401  (both backends)

ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(32))
THREADS = 8
PER_WRITER = 200


def make_game(store: EventStore, game_id: str = "race") -> None:
    store.create_game(game_id=game_id, ruleset="test", scenario="s", setup="{}", seed=SEED,
                      seed_commitment=commitment(SEED), token_hashes={})


def append_loop(store: EventStore, game_id: str, writer: str, n: int, sync=None) -> dict:
    """Read the version, append one event expecting it, retry on VersionConflict.

    ``sync`` is called once, right after the first read: the writers wait for
    each other there, so they all expect the same version and all but one lose."""
    won = conflicts = attempts = 0
    first = True
    while won < n:
        v = store.version(game_id)
        if first and sync is not None:
            sync()
        first = False
        attempts += 1
        try:
            store.append(game_id, v, [NewEvent(type="Tick", payload=json.dumps({"w": writer, "i": won}))])
            won += 1
        except VersionConflict as exc:
            assert exc.current > v
            conflicts += 1
    return {"won": won, "conflicts": conflicts, "attempts": attempts}


def check_log(store: EventStore, game_id: str, writers: list[str], total: int) -> None:
    events = store.load(game_id)
    assert store.version(game_id) == total
    assert [e.seq for e in events] == list(range(1, total + 1))  # no gap, no duplicate
    assert verify_chain(events).ok
    seen = [(p["w"], p["i"]) for p in (msgspec.json.decode(e.payload) for e in events)]
    assert sorted(seen) == sorted((w, i) for w in writers for i in range(PER_WRITER))


def test_eight_threads_two_hundred_appends_each(store):
    make_game(store)
    barrier = threading.Barrier(THREADS)
    results: dict[str, dict] = {}
    errors: list[BaseException] = []

    def run(name: str) -> None:
        try:
            results[name] = append_loop(store, "race", name, PER_WRITER, barrier.wait)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(f"t{i}",)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    total = THREADS * PER_WRITER
    check_log(store, "race", [f"t{i}" for i in range(THREADS)], total)
    attempts = sum(r["attempts"] for r in results.values())
    conflicts = sum(r["conflicts"] for r in results.values())
    # every attempt either appended or was told it lost: nothing silent
    assert attempts == total + conflicts
    # the first round was synchronised: at least THREADS-1 losers
    assert conflicts >= THREADS - 1


WORKER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from service.store import open_store
from tests.service.test_store_concurrency import append_loop
store = open_store(sys.argv[2], database_url=sys.argv[5])
def sync():
    print("ready", flush=True)
    sys.stdin.readline()  # both processes read version 0 before either appends
print(json.dumps(append_loop(store, "race", sys.argv[3], int(sys.argv[4]), sync)), flush=True)
"""


def test_two_processes_two_hundred_appends_each(store, target):
    make_game(store)
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(ROOT), str(target.data_dir), f"p{i}", str(PER_WRITER),
                          target.url],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        for i in range(2)
    ]
    for p in procs:
        assert p.stdout.readline().strip() == "ready", p.stderr.read()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    total = 2 * PER_WRITER
    check_log(store, "race", ["p0", "p1"], total)
    attempts = sum(r["attempts"] for r in results)
    conflicts = sum(r["conflicts"] for r in results)
    assert attempts == total + conflicts
    assert all(r["won"] == PER_WRITER for r in results)
    assert conflicts >= 1  # both expected version 0 at first: one of them lost and was told


def test_the_same_command_id_from_eight_threads_at_once_appends_once(store):
    """Idempotency under a race: one seat's command id sent by 8 writers at the same moment (each
    expecting the same version) appends its events once; every other writer gets the first answer
    (a duplicate with the same seqs and head) or, having read a later version, the same duplicate --
    never a second copy, never an error."""
    make_game(store)
    barrier = threading.Barrier(THREADS)
    answers: list = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(i: int) -> None:
        try:
            barrier.wait()
            r = store.append("race", 0, [NewEvent(type="Tick", payload=json.dumps({"w": i}), actor="imperial"),
                                         NewEvent(type="Tock", payload="{}", actor="imperial")],
                             command_id="same", body_hash=f"h{i}")
            with lock:
                answers.append(r)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    firsts = [a for a in answers if not a.duplicate]
    assert len(firsts) == 1 and len(answers) == THREADS
    first = firsts[0]
    assert all((a.first_seq, a.last_seq, a.version, a.head, a.body_hash) ==
               (1, 2, 2, first.head, None if a is first else f"h{msgspec.json.decode(store.event('race', 1).payload)['w']}")
               for a in answers)
    assert store.version("race") == 2 and [e.type for e in store.load("race")] == ["Tick", "Tock"]
