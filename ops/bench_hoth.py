"""Benchmark the Battle of Hoth engine in process.

    .venv/bin/python ops/bench_hoth.py [--games 200] [--seconds 5]
    .venv/bin/python ops/bench_hoth.py --json     # machine-readable (read by ops/bench)

Reports (1) random full games per second (random legal commands to the end, turn cap 300)
and (2) legal_commands calls per second on a mid-game state (Attack step of turn 10+).
"""
from __future__ import annotations

import argparse
import msgspec
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.kernel.fold import fold  # noqa: E402
from domain.hoth.decider import HothRuleset  # noqa: E402
from tests.hoth.fixtures import FixtureCatalog  # noqa: E402
from tests.hoth.play import random_game  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402

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


def _calls_per_s(rs: HothRuleset, state, seat, seconds: float) -> float:
    """Calls on copies of the state (equal, not the same object): in a game every call is on a new state, so the
    engine's per-state caches must not make the figure."""
    copies = [msgspec.structs.replace(state) for _ in range(200)]
    calls = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for st in copies:
            rs.legal_commands(st, seat)
        calls += len(copies)
    return calls / (time.perf_counter() - t0)


def move_step_state(rs: HothRuleset):
    """A state in the Move step after turn 10 (the biggest lists: every path of every ordered unit)."""
    rng = random.Random(5)
    for seed in range(200):
        found = {}

        def grab(g, s, cmd, cmds):
            if not found and g.state.turn_no >= 10 and g.state.turn.phase == "move" and len(cmds) >= 20:
                found["state"], found["seat"], found["n"] = g.state, s, len(cmds)

        random_game(rs, SCN, seed + rng.randrange(10_000), max_turns=40, check=grab)
        if found:
            return found["state"], found["seat"], found["n"]
    return None


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="random full games to play (default 200)")
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per legal_commands measurement (default 5)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)
    rs = HothRuleset(FixtureCatalog())

    t0 = time.perf_counter()
    turns = events = capped = 0
    logs = []
    for seed in range(args.games):
        g = random_game(rs, SCN, seed, max_turns=300)
        turns += g.state.turn_no
        events += len(g.events)
        capped += g.state.winner is None
        logs.append((g.setup, g.events))
    games_dt = time.perf_counter() - t0
    games_per_s = args.games / games_dt
    # The comparison: replaying the same games' logs (evolve only: no legal_commands, no decide).
    t0 = time.perf_counter()
    for setup, evs in logs:
        fold(rs, setup, enumerate(evs, start=1))  # the kernel's replay
    replay_dt = time.perf_counter() - t0
    replay_per_s = args.games / replay_dt

    state, seat, n = mid_game_state(rs)
    attack_per_s = _calls_per_s(rs, state, seat, args.seconds)
    move = move_step_state(rs)
    move_per_s = _calls_per_s(rs, move[0], move[1], args.seconds) if move else None

    attack_label = f"legal_commands on a mid-game state (Attack step, turn {state.turn_no}, {n} commands)"
    move_label = (f"legal_commands on a mid-game state (Move step, turn {move[0].turn_no}, {move[2]} commands)"
                  if move else "")
    figures = [
        {"figure": f"random full games in process ({SCN}, random legal commands, turn cap 300;"
                   f" {turns / args.games:.0f} turns, {events / args.games:.0f} events per game)",
         "value": round(games_per_s, 2), "unit": "games/s",
         "vs": {"figure": "replay of the same games' logs (evolve only, no legal_commands or decide)",
                "value": round(replay_per_s, 2)}},
        {"figure": attack_label, "value": round(attack_per_s, 1), "unit": "calls/s",
         "vs": {"figure": move_label, "value": round(move_per_s, 1)} if move else {}},
    ]
    out = {
        "benchmark": "hoth",
        "unit": "in-process engine calls",
        "params": {"games": args.games, "seconds": args.seconds, "scenario": SCN},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "games": {"games": args.games, "seconds": round(games_dt, 3), "games_per_s": round(games_per_s, 2),
                  "turns_per_game": round(turns / args.games, 1), "events_per_game": round(events / args.games, 1),
                  "capped": capped, "replay_games_per_s": round(replay_per_s, 2)},
        "legal_commands": {"attack_step_calls_per_s": round(attack_per_s, 1),
                           "move_step_calls_per_s": round(move_per_s, 1) if move else None},
        "figures": figures,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"random full games: {games_per_s:.1f} games/s ({args.games} games in {games_dt:.2f}s, "
          f"{turns / args.games:.0f} turns and {events / args.games:.0f} events per game, {capped} capped)")
    print(f"replay of the same logs (evolve only): {replay_per_s:.1f} games/s")
    print(f"{attack_label}: {attack_per_s:.0f} calls/s")
    if move:
        print(f"{move_label}: {move_per_s:.0f} calls/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
