"""Benchmark the game aggregate where the service uses it, in process: a command, a replay, a verification.

    .venv/bin/python ops/bench_kernel_game.py [--commands 300] [--rounds 20] [--json]

On a Battle of Hoth game played through ``GameService`` on a fresh SQLite store (random legal commands,
the same game every run):

Times are this thread's CPU time (a shared machine's load and the disk's fsync do not make them): the median
for a command, the least of the rounds for the rest.

- **command path**: CPU ms per ``GameService.command`` (token, decode, fold from the cache, decide, append with
  its fsync, the answer and its receipt), over the game's commands;
- **replay**: ms to fold the game's whole stored log into the service's folded game (decode every event,
  the kernel's bookkeeping, the ruleset's evolve), as the service does for a game not in its cache;
- **states**: ms for ``state_at`` of every seq of the game with a cold cache (the checkpoints made on the
  way, then reused), per seq;
- **verify**: ms for ``umpire verify`` of the game (its own fold, every commitment).

It imports only what every build since the aggregate has (the service's ``_fold_records``), so the same file
run against an older checkout measures it the same way (``PYTHONPATH=<checkout> python <checkout>/ops/...``).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from domain.kernel import registry  # noqa: E402
import service.game_service as gs  # noqa: E402
from service.game_service import CommandRequest, CreateGameRequest, GameService  # noqa: E402
from service.store import EventStore  # noqa: E402
from service.verify import verify_game  # noqa: E402

from hoth_game_driver import new_game, next_command  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402


def _play(svc: GameService, seed: int, commands: int) -> tuple[str, list[float]]:
    gid, tokens = new_game(svc, "bench-kernel", seed)
    rng = random.Random(seed)
    took: list[float] = []
    for _ in range(commands):
        nxt = next_command(svc, gid, rng)
        if nxt is None:
            break
        seat, req = nxt
        t = time.thread_time()
        svc.command(gid, tokens[seat], req)
        took.append(time.thread_time() - t)
    return gid, took


def _ms(fn, rounds: int) -> float:
    """Least CPU ms (this thread's) of ``fn()`` over ``rounds`` calls (the least is the one the machine's other
    work disturbed least)."""
    out = []
    for _ in range(rounds):
        t = time.thread_time()
        fn()
        out.append(time.thread_time() - t)
    return min(out) * 1000


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commands", type=int, default=300, help="commands of the game played (default 300)")
    ap.add_argument("--rounds", type=int, default=20, help="repetitions of each replay and verify (default 20)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="umpire-bench-kernel-") as tmp:
        store = EventStore(tmp)
        svc = GameService(store)
        gid, took = _play(svc, args.seed, args.commands)
        cur = svc.current(gid)
        events = store.load(gid)
        n = len(events)
        command_ms = statistics.median(took) * 1000
        replay_ms = _ms(lambda: gs._fold_records(cur.ruleset, cur.setup, events), args.rounds)

        def every_state() -> None:
            fresh = GameService(store)
            now = fresh.current(gid)
            for seq in range(n):
                fresh.state_at(gid, seq, now)

        states_ms = _ms(every_state, max(1, args.rounds // 10)) / max(1, n)
        verify_ms = _ms(lambda: verify_game(store, gid), max(1, args.rounds // 4))
        store.close()
    figures = [
        {"figure": f"command through GameService.command (hoth, {len(took)} commands, median)",
         "value": round(command_ms, 3), "unit": "CPU ms", "lower_is_better": True},
        {"figure": f"replay: the whole stored log folded into the service's game ({n} events)",
         "value": round(replay_ms, 3), "unit": "CPU ms", "lower_is_better": True},
        {"figure": f"states/{{seq}} for every seq, cold cache ({n} events), per seq",
         "value": round(states_ms, 4), "unit": "CPU ms", "lower_is_better": True},
        {"figure": f"umpire verify of the game ({n} events)", "value": round(verify_ms, 2), "unit": "CPU ms",
         "lower_is_better": True},
    ]
    out = {"benchmark": "kernel_game", "unit": "ms", "params": vars(args), "events": n,
           "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
           "figures": figures}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for f in figures:
        print(f"{f['figure']}: {f['value']} {f['unit']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
