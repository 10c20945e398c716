"""A writer killed with SIGKILL in the middle of appending leaves each command's
events all or none (DESIGN section 2: one transaction per command). Part of the store contract
suite: on SQLite and on PostgreSQL (``tests/service/store_backends.py``)."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from domain.kernel.dice import commitment
from service.store import verify_chain
from tests.service.store_backends import Target, backend, store, target  # noqa: F401  (both backends)

ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(32))
EVENTS_PER_COMMAND = 50
ROUNDS = 6

WRITER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from service.store import NewEvent
from service.store import open_store
store = open_store(sys.argv[2], database_url=sys.argv[5])
round_no = sys.argv[3]
n = int(sys.argv[4])
pad = "x" * 2000  # big enough rows that a command takes a while to write
k = 0
while True:
    v = store.version("crash")
    events = [NewEvent(type="Step", payload=json.dumps({"r": round_no, "k": k, "i": i, "pad": pad}))
              for i in range(n)]
    if k >= 3:
        print(f"begin r{round_no}-c{k}", flush=True)
    store.append("crash", v, events, command_id=f"r{round_no}-c{k}")
    if k >= 3:
        print(f"end r{round_no}-c{k}", flush=True)
    k += 1
    if k == 3:
        print("writing", flush=True)
"""


def check_all_or_none(target: Target) -> tuple[int, int]:
    conn = target.raw()
    try:
        commands = conn.execute("SELECT command_id, first_seq, last_seq FROM commands WHERE game_id='crash'")
        per_command = dict(conn.execute(
            "SELECT command_id, count(*) FROM events WHERE game_id='crash' GROUP BY command_id"
        ))
        ((version,),) = conn.execute("SELECT version FROM games WHERE game_id='crash'")
    finally:
        conn.close()
    # every event belongs to a recorded command, and every recorded command is whole
    assert set(per_command) == {c for c, _, _ in commands}
    for cid, first, last in commands:
        assert last - first + 1 == EVENTS_PER_COMMAND
        assert per_command[cid] == EVENTS_PER_COMMAND, cid
    assert version == len(commands) * EVENTS_PER_COMMAND
    return version, len(commands)


def _wait_for_the_server_side_of_the_writer(target: Target) -> None:
    """PostgreSQL: the killed client's session ends on the server a little later -- a COMMIT it had
    sent may still land (whole: the command is then in the log though its writer never heard so).
    Wait until no session but ours is left on the database, so the checks below see the final state."""
    conn = target.raw()
    try:
        deadline = time.monotonic() + 30
        while conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                           " AND pid <> pg_backend_pid()")[0][0]:
            assert time.monotonic() < deadline, "the killed writer's session did not end"
            time.sleep(0.05)
    finally:
        conn.close()


def test_sigkill_mid_command_leaves_whole_commands_only(store, target):
    store.create_game(game_id="crash", ruleset="test", scenario="s", setup="{}", seed=SEED,
                      seed_commitment=commitment(SEED), token_hashes={})
    store.close()
    rng = random.Random(20261122)
    last_version = 0
    interrupted: list[str] = []
    for r in range(ROUNDS):
        p = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(ROOT), str(target.data_dir), str(r), str(EVENTS_PER_COMMAND),
             target.url],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        )
        line = p.stdout.readline().strip()
        assert line == "writing", p.stderr.read()
        time.sleep(rng.uniform(0.0, 0.25))
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=30)
        assert p.returncode == -signal.SIGKILL
        tail = p.stdout.read().split()
        p.stdout.close()
        p.stderr.close()
        if len(tail) >= 2 and tail[-2] == "begin":
            interrupted.append(tail[-1])  # killed inside append(): that command is all or none
        if target.kind == "postgres":
            _wait_for_the_server_side_of_the_writer(target)
        version, _ = check_all_or_none(target)
        assert version >= last_version + 3 * EVENTS_PER_COMMAND  # the writer made progress
        last_version = version
        # the survivor log verifies and a new writer continues from it
        s = target.open()
        events = s.load("crash")
        assert verify_chain(events).ok
        assert [e.seq for e in events] == list(range(1, version + 1))
        s.close()
    # Most of a writer's time is spent inside append(); at least one kill must
    # have landed there, or this test proved nothing.
    assert interrupted, "no kill landed inside an append; the drill proved nothing"
