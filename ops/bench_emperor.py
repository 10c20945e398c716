"""Benchmark the Emperor engine in process.

    .venv/bin/python ops/bench_emperor.py [--games 100] [--seconds 3]
    .venv/bin/python ops/bench_emperor.py --json     # machine-readable (read by ops/bench)

Reports (1) random full games per second (random legal human commands to the end, every shipped
setup in turn), beside the replay of the same games' logs (evolve only); and (2) Emperor turns per
second: ``decide`` of the command that ends the human's turn, which runs the automaton through the
Emperor's whole turn to the next human decision, beside folding the events that turn produced.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.kernel.fold import fold  # noqa: E402
from domain.emperor.events import TurnStarted  # noqa: E402
from domain.emperor.state import EMPEROR, HUMAN  # noqa: E402
from domain.kernel import Dice  # noqa: E402
from tests.emperor.play import SETUPS, random_game, ruleset  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="random full games to play (default 100)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds for the Emperor-turn measurement (default 3)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)
    rs = ruleset()

    # (1) full random games, and the turns they contain for (2)
    turns_at: list[tuple] = []

    def grab(g, cmd, cmds):
        turns_at.append((g.state, cmd, g.seed, g.setup.game_id, dict(g.counters)))

    t0 = time.perf_counter()
    logs = []
    events = turns = capped = 0
    for i in range(args.games):
        g = random_game(rs, SETUPS[i % len(SETUPS)], i, check=grab)
        logs.append((g.setup, g.events))
        events += len(g.events)
        turns += g.state.turn_no
        capped += g.state.winner is None
    games_dt = time.perf_counter() - t0
    games_per_s = args.games / games_dt
    t0 = time.perf_counter()
    for setup, evs in logs:
        fold(rs, setup, enumerate(evs, start=1))  # the kernel's replay
    replay_dt = time.perf_counter() - t0
    replay_per_s = args.games / replay_dt

    # (2) the commands that hand the turn to the Emperor
    emperor_turns = []
    for state, cmd, seed, gid, counters in turns_at:
        items = rs.decide(state, HUMAN, cmd, Dice(seed, gid, counters))
        if any(isinstance(e.event, TurnStarted) and e.event.side == EMPEROR for e in items):
            emperor_turns.append((state, cmd, seed, gid, counters, [e.event for e in items]))
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < args.seconds:
        for state, cmd, seed, gid, counters, _ in emperor_turns:
            rs.decide(state, HUMAN, cmd, Dice(seed, gid, counters))
        n += len(emperor_turns)
    decide_dt = time.perf_counter() - t0
    turns_per_s = n / decide_dt
    m = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < max(1.0, args.seconds / 3):
        for state, _, _, _, _, evs in emperor_turns:
            fold(rs, None, enumerate(evs, start=1), state=state)  # type: ignore[arg-type]
        m += len(emperor_turns)
    fold_dt = time.perf_counter() - t0
    fold_per_s = m / fold_dt
    ev_per_turn = sum(len(x[5]) for x in emperor_turns) / max(1, len(emperor_turns))

    figures = [
        {"figure": f"random full games in process (all {len(SETUPS)} setups in turn, random legal human commands;"
                   f" {turns / args.games:.0f} turns, {events / args.games:.0f} events per game)",
         "value": round(games_per_s, 2), "unit": "games/s",
         "vs": {"figure": "replay of the same games' logs (evolve only, no legal_commands or decide)",
                "value": round(replay_per_s, 2)}},
        {"figure": f"Emperor turns in process (decide of the turn-ending command: the automaton runs the whole turn;"
                   f" {ev_per_turn:.0f} events per turn)",
         "value": round(turns_per_s, 1), "unit": "turns/s",
         "vs": {"figure": "folding the events of the same turns (evolve only)", "value": round(fold_per_s, 1)}},
    ]
    out = {
        "benchmark": "emperor",
        "unit": "in-process engine calls",
        "params": {"games": args.games, "seconds": args.seconds, "setups": list(SETUPS)},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "games": {"games": args.games, "seconds": round(games_dt, 3), "games_per_s": round(games_per_s, 2),
                  "turns_per_game": round(turns / args.games, 1), "events_per_game": round(events / args.games, 1),
                  "capped": capped, "replay_games_per_s": round(replay_per_s, 2)},
        "emperor_turns": {"turns": len(emperor_turns), "turns_per_s": round(turns_per_s, 1),
                          "events_per_turn": round(ev_per_turn, 1), "fold_turns_per_s": round(fold_per_s, 1)},
        "figures": figures,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"random full games: {games_per_s:.1f} games/s ({args.games} games in {games_dt:.2f}s, "
          f"{turns / args.games:.0f} turns and {events / args.games:.0f} events per game, {capped} capped)")
    print(f"replay of the same logs (evolve only): {replay_per_s:.1f} games/s")
    print(f"Emperor turns: {turns_per_s:.0f} turns/s ({len(emperor_turns)} distinct turns, {ev_per_turn:.0f} events "
          f"each); folding the same turns: {fold_per_s:.0f} turns/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
