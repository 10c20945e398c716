"""Benchmark the Clouds of Smoke engine in process.

    .venv/bin/python ops/bench_smoke.py [--games 12] [--seconds 3]
    .venv/bin/python ops/bench_smoke.py --json     # machine-readable (read by ops/bench)

Reports (1) random full games per second (random legal play with template sampling, every
shipped battle and 4 players, to the scenario's end) beside the replay of the same games' logs,
and (2) ``legal_commands`` and ``decide`` calls per second on a crowded mid-game table (40 units,
an activation in progress). "First call" clears the engine's per-layout memo before every call
(a state never seen); "again" keeps it (the service folds a game once and answers many queries).
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

from domain.smoke import commands as C  # noqa: E402
from domain.smoke import state as S  # noqa: E402
from tests.smoke.play import random_game, ruleset  # noqa: E402

BATTLES = ("BTL-OPEN-FIELD", "BTL-ALL-TERRAIN", "BTL-CROSSROADS")
CROWDED = "BTL-CROSSROADS"


def crowded_state(rs):
    """A 4-player crossroads state with 40 units on the table and an activation of 2+ units in progress."""
    for seed in range(200):
        found = {}

        def grab(g, seat, cmd, cmds):
            t = g.state.turn
            act = t.actions.activation if t and t.actions else None
            if (not found and len(g.state.units) >= 40 and act is not None and g.state.turn_no >= 3
                    and len([u for u in act.units if u not in act.moved]) >= 2):
                moves = [c for c in cmds if isinstance(c, C.Move)]
                if moves:
                    found.update(state=g.state, seat=seat, move=moves[0], n=len(cmds), dice=g.dice)

        random_game(rs, CROWDED, seed, options={"players": 4}, check=grab, max_commands=400)
        if found:
            return found
    raise SystemExit("no crowded mid-game state found")


def _per_s(fn, seconds: float, cold: bool) -> float:
    calls = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(5):
            if cold:
                S._MEMO.clear()
            fn()
        calls += 5
    return calls / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=12, help="random full games to play (default 12)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per calls/s measurement (default 3)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)
    rs = ruleset()

    t0 = time.perf_counter()
    events = commands = 0
    logs = []
    results: dict[str, int] = {}
    for i in range(args.games):
        battle = BATTLES[i % len(BATTLES)]
        g = random_game(rs, battle, 100 + i, options={"players": 4})
        events += len(g.events)
        commands += g.commands
        results[g.state.result.kind] = results.get(g.state.result.kind, 0) + 1
        logs.append((g.setup, g.events))
    games_dt = time.perf_counter() - t0
    games_per_s = args.games / games_dt
    t0 = time.perf_counter()
    for setup, evs in logs:
        st = rs.initial_state(setup)
        for ev in evs:
            st = rs.evolve(st, ev)
    replay_dt = time.perf_counter() - t0
    replay_per_s = args.games / replay_dt

    found = crowded_state(rs)
    st, seat, move = found["state"], found["seat"], found["move"]
    n_units = len(st.units)
    legal_cold = _per_s(lambda: rs.legal_commands(st, seat), args.seconds, cold=True)
    legal_warm = _per_s(lambda: rs.legal_commands(st, seat), args.seconds, cold=False)
    templates_warm = _per_s(lambda: rs.command_templates(st, seat), args.seconds, cold=False)
    decide_cold = _per_s(lambda: rs.decide(st, seat, move, found["dice"]()), args.seconds, cold=True)
    table = f"{n_units} units, turn {st.turn_no}, an activation in progress, {found['n']} listed commands"
    figures = [
        {"figure": f"random full games in process (3 battles x 4 players, random legal play with template values;"
                   f" {commands / args.games:.0f} commands, {events / args.games:.0f} events per game)",
         "value": round(games_per_s, 2), "unit": "games/s",
         "vs": {"figure": "replay of the same games' logs (evolve only, no legal_commands or decide)",
                "value": round(replay_per_s, 2)}},
        {"figure": f"legal_commands on a crowded mid-game table ({table}), first call on the state",
         "value": round(legal_cold, 1), "unit": "calls/s",
         "vs": {"figure": "decide of a listed move on the same table (first call on the state)",
                "value": round(decide_cold, 1)}},
        {"figure": "legal_commands on the same table again (per-layout memo warm)",
         "value": round(legal_warm, 1), "unit": "calls/s",
         "vs": {"figure": "command_templates on the same table (memo warm)", "value": round(templates_warm, 1)}},
    ]
    out = {
        "benchmark": "smoke",
        "unit": "in-process engine calls",
        "params": {"games": args.games, "seconds": args.seconds, "battles": list(BATTLES), "players": 4},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "games": {"games": args.games, "seconds": round(games_dt, 3), "games_per_s": round(games_per_s, 2),
                  "commands_per_game": round(commands / args.games, 1), "events_per_game": round(events / args.games, 1),
                  "results": results, "replay_games_per_s": round(replay_per_s, 2)},
        "crowded": {"units": n_units, "legal_commands_first_call_per_s": round(legal_cold, 1),
                    "legal_commands_again_per_s": round(legal_warm, 1), "decide_per_s": round(decide_cold, 1),
                    "command_templates_per_s": round(templates_warm, 1)},
        "figures": figures,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"random full games: {games_per_s:.2f} games/s ({args.games} games in {games_dt:.1f}s, "
          f"{commands / args.games:.0f} commands and {events / args.games:.0f} events per game; {results})")
    print(f"replay of the same logs (evolve only): {replay_per_s:.1f} games/s")
    print(f"crowded table ({table}):")
    print(f"  legal_commands, first call on the state: {legal_cold:.0f} calls/s; again: {legal_warm:.0f} calls/s")
    print(f"  command_templates (warm): {templates_warm:.0f} calls/s; decide (a move): {decide_cold:.0f} calls/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
