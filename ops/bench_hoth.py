"""Benchmark the Battle of Hoth engine in process.

    .venv/bin/python ops/bench_hoth.py [--games 200] [--seconds 5]

Reports (1) random full games per second (random legal commands to the end, turn cap 300)
and (2) legal_commands calls per second on a mid-game state (Attack step of turn 10+).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.hoth.decider import HothRuleset  # noqa: E402
from tests.hoth.fixtures import FixtureCatalog  # noqa: E402
from tests.hoth.play import random_game  # noqa: E402

SCN = "SCN-TAKE-DOWN-THE-SHIELD"


def mid_game_state(rs: HothRuleset):
    """A state in the Attack step after turn 10 with several attacks on offer."""
    for seed in range(1000):
        found = {}

        def grab(g, seat, cmd, cmds):
            if not found and g.state.turn_no >= 10 and g.state.turn.phase == "attack" and len(cmds) >= 4:
                found["state"], found["seat"], found["n"] = g.state, seat, len(cmds)

        random_game(rs, SCN, seed, max_turns=40, check=grab)
        if found:
            return found["state"], found["seat"], found["n"]
    raise SystemExit("no mid-game state found")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    rs = HothRuleset(FixtureCatalog())

    t0 = time.perf_counter()
    turns = commands = capped = 0
    for seed in range(args.games):
        g = random_game(rs, SCN, seed, max_turns=300)
        turns += g.state.turn_no
        commands += len(g.events)
        capped += g.state.winner is None
    dt = time.perf_counter() - t0
    print(f"random full games: {args.games / dt:.1f} games/s ({args.games} games in {dt:.2f}s, "
          f"{turns / args.games:.0f} turns and {commands / args.games:.0f} events per game, {capped} capped)")

    state, seat, n = mid_game_state(rs)
    for phase_state, label in ((state, "attack step"),):
        calls = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < args.seconds:
            for _ in range(100):
                rs.legal_commands(phase_state, seat)
            calls += 100
        dt = time.perf_counter() - t0
        print(f"legal_commands on a mid-game state ({label}, turn {phase_state.turn_no}, {n} commands): "
              f"{calls / dt:.0f} calls/s")
    # a Move step too (the biggest lists: every path of every ordered unit)
    rng = random.Random(5)
    for seed in range(200):
        found = {}

        def grab(g, s, cmd, cmds):
            if not found and g.state.turn_no >= 10 and g.state.turn.phase == "move" and len(cmds) >= 20:
                found["state"], found["seat"], found["n"] = g.state, s, len(cmds)

        random_game(rs, SCN, seed + rng.randrange(10_000), max_turns=40, check=grab)
        if found:
            calls = 0
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < args.seconds:
                for _ in range(100):
                    rs.legal_commands(found["state"], found["seat"])
                calls += 100
            dt = time.perf_counter() - t0
            print(f"legal_commands on a mid-game state (move step, turn {found['state'].turn_no}, "
                  f"{found['n']} commands): {calls / dt:.0f} calls/s")
            break


if __name__ == "__main__":
    main()
