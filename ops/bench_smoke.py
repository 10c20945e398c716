"""Benchmark the Clouds of Smoke engine in process.

    .venv/bin/python ops/bench_smoke.py [--games 12] [--seconds 3]
    .venv/bin/python ops/bench_smoke.py --json     # machine-readable (read by ops/bench)

Reports (1) random full games per second (random legal play with template sampling, every
shipped battle and 4 players, to the scenario's end) beside the replay of the same games' logs,
and beside random full games of Battle of Hoth played in the same run (ops/bench_hoth.py's game);
(2) per command of those Smoke games, the time of ``legal_commands`` and of decide+evolve (the
command's ``decide`` and the folding of its events; refused template values included): p50, p99,
mean, max and the calls over 1 ms (``over_1ms``), in CPU time of the thread (on a shared machine a call's wall time is mostly how long the
scheduler left the process waiting); and (3) ``legal_commands`` and ``decide`` calls per second on a crowded mid-game table
(40 units, an activation in progress). "First call" clears the engine's per-layout memo before every
call (a state never seen); "again" keeps it (the service folds a game once and answers many queries).

    .venv/bin/python ops/bench_smoke.py --games 12 --no-crowded   # only (1) and (2)
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.kernel.fold import fold  # noqa: E402
from domain.hoth.decider import HothRuleset  # noqa: E402
from domain.smoke import commands as C  # noqa: E402
from domain.smoke import state as S  # noqa: E402
from tests.hoth.fixtures import FixtureCatalog  # noqa: E402
from tests.hoth.play import random_game as hoth_game  # noqa: E402
from tests.smoke.play import random_game, ruleset  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402

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


HOTH_SCN = "SCN-TAKE-DOWN-THE-SHIELD"


def _quantiles(xs: list[float]) -> dict[str, float]:
    """p50, p99, mean and max of a list of seconds, in microseconds, and how many are over 1 ms (the tail's
    honest size: a p99 under 1 ms allows at most 1% of them)."""
    ys = sorted(xs)
    q = (lambda p: ys[min(len(ys) - 1, int(p * len(ys)))] * 1e6) if ys else (lambda p: 0.0)
    return {"n": len(ys), "p50_us": round(q(0.5), 1), "p99_us": round(q(0.99), 1),
            "mean_us": round(sum(ys) / len(ys) * 1e6, 1) if ys else 0.0, "max_us": round(ys[-1] * 1e6, 1) if ys else 0.0,
            "over_1ms": sum(1 for y in ys if y > 1e-3)}


def _hoth_games(n: int) -> tuple[float, float, int]:
    """Random full Hoth games per second and per CPU second (the games of ops/bench_hoth.py), and their
    commands."""
    rs = HothRuleset(FixtureCatalog())
    commands = 0
    t0, c0 = time.perf_counter(), time.thread_time()
    for seed in range(n):
        commands += hoth_game(rs, HOTH_SCN, seed, max_turns=300).commands
    return n / (time.perf_counter() - t0), n / (time.thread_time() - c0), commands


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
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=12, help="random full games to play (default 12)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per calls/s measurement (default 3)")
    ap.add_argument("--hoth-games", type=int, default=50, help="random Hoth games to play beside (default 50)")
    ap.add_argument("--no-crowded", action="store_true", help="skip the crowded-table calls/s")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)
    rs = ruleset()

    t0, c0 = time.perf_counter(), time.thread_time()
    events = commands = 0
    logs = []
    results: dict[str, int] = {}
    timings: dict[str, list[float]] = {}
    for i in range(args.games):
        battle = BATTLES[i % len(BATTLES)]
        g = random_game(rs, battle, 100 + i, options={"players": 4}, timings=timings)
        events += len(g.events)
        commands += g.commands
        results[g.state.result.kind] = results.get(g.state.result.kind, 0) + 1
        logs.append((g.setup, g.events))
    games_dt = time.perf_counter() - t0
    games_cpu = time.thread_time() - c0
    games_per_s = args.games / games_dt
    games_per_cpu_s = args.games / games_cpu
    t0 = time.perf_counter()
    for setup, evs in logs:
        fold(rs, setup, enumerate(evs, start=1))  # the kernel's replay
    replay_dt = time.perf_counter() - t0
    replay_per_s = args.games / replay_dt

    per_command = {"decide_evolve": _quantiles(timings.get("decide_evolve", [])),
                   "legal_commands": _quantiles(timings.get("legal_commands", []))}
    # per command type: which kinds of command make the decide+evolve tail (above the p99 of all commands)
    p99_all = per_command["decide_evolve"]["p99_us"]
    by_type = {k.split(":", 1)[1]: dict(_quantiles(v), over_all_p99=sum(1 for x in v if x * 1e6 >= p99_all))
               for k, v in timings.items() if k.startswith("decide_evolve:")}
    by_type = dict(sorted(by_type.items(), key=lambda kv: -kv[1]["p99_us"]))
    hoth_per_s, hoth_per_cpu_s, hoth_commands = _hoth_games(args.hoth_games) if args.hoth_games else (0.0, 0.0, 0)
    figures = [
        {"figure": f"random full games in process (3 battles x 4 players, random legal play with template values;"
                   f" {commands / args.games:.0f} commands, {events / args.games:.0f} events per game)",
         "value": round(games_per_s, 2), "unit": "games/s",
         "vs": {"figure": "replay of the same games' logs (evolve only, no legal_commands or decide)",
                "value": round(replay_per_s, 2)}},
        {"figure": "random full Smoke games (above) per CPU second of the thread", "value": round(games_per_cpu_s, 2),
         "unit": "games/CPU s",
         "vs": {"figure": f"random full Hoth games in the same run ({HOTH_SCN}, "
                          f"{hoth_commands / max(1, args.hoth_games):.0f} commands per game), per CPU second",
                "value": round(hoth_per_cpu_s, 2)}},
    ]
    for name, label in (("decide_evolve", "decide+evolve"), ("legal_commands", "legal_commands")):
        q = per_command[name]
        figures.append({"figure": f"{label} per command of those Smoke games, p99 of thread CPU time ({q['n']} calls)",
                        "value": round(q["p99_us"] / 1000, 3), "unit": "ms", "lower_is_better": True,
                        "vs": {"figure": "p50", "value": round(q["p50_us"] / 1000, 3)}})
    crowded: dict[str, Any] = {}
    table = ""
    if not args.no_crowded:
        found = crowded_state(rs)
        st, seat, move = found["state"], found["seat"], found["move"]
        n_units = len(st.units)
        legal_cold = _per_s(lambda: rs.legal_commands(st, seat), args.seconds, cold=True)
        legal_warm = _per_s(lambda: rs.legal_commands(st, seat), args.seconds, cold=False)
        templates_warm = _per_s(lambda: rs.command_templates(st, seat), args.seconds, cold=False)
        decide_cold = _per_s(lambda: rs.decide(st, seat, move, found["dice"]()), args.seconds, cold=True)
        table = f"{n_units} units, turn {st.turn_no}, an activation in progress, {found['n']} listed commands"
        figures += [
            {"figure": f"legal_commands on a crowded mid-game table ({table}), first call on the state",
             "value": round(legal_cold, 1), "unit": "calls/s",
             "vs": {"figure": "decide of a listed move on the same table (first call on the state)",
                    "value": round(decide_cold, 1)}},
            {"figure": "legal_commands on the same table again (per-layout memo warm)",
             "value": round(legal_warm, 1), "unit": "calls/s",
             "vs": {"figure": "command_templates on the same table (memo warm)", "value": round(templates_warm, 1)}},
        ]
        crowded = {"units": n_units, "legal_commands_first_call_per_s": round(legal_cold, 1),
                   "legal_commands_again_per_s": round(legal_warm, 1), "decide_per_s": round(decide_cold, 1),
                   "command_templates_per_s": round(templates_warm, 1)}
    out = {
        "benchmark": "smoke",
        "unit": "in-process engine calls",
        "params": {"games": args.games, "seconds": args.seconds, "battles": list(BATTLES), "players": 4},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "games": {"games": args.games, "seconds": round(games_dt, 3), "games_per_s": round(games_per_s, 2),
                  "games_per_cpu_s": round(games_per_cpu_s, 2),
                  "commands_per_game": round(commands / args.games, 1), "events_per_game": round(events / args.games, 1),
                  "results": results, "replay_games_per_s": round(replay_per_s, 2)},
        "per_command": per_command,
        "decide_evolve_by_type": by_type,
        "hoth": {"games": args.hoth_games, "games_per_s": round(hoth_per_s, 2),
                 "games_per_cpu_s": round(hoth_per_cpu_s, 2), "scenario": HOTH_SCN},
        "crowded": crowded,
        "figures": figures,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"random full games: {games_per_s:.2f} games/s ({args.games} games in {games_dt:.1f}s, "
          f"{commands / args.games:.0f} commands and {events / args.games:.0f} events per game; {results})")
    print(f"replay of the same logs (evolve only): {replay_per_s:.1f} games/s")
    print(f"per CPU second of the thread: Smoke {games_per_cpu_s:.2f} games; random full Hoth games in the same run "
          f"({args.hoth_games} of {HOTH_SCN}) {hoth_per_cpu_s:.1f} games ({hoth_per_s:.1f} games/s)")
    for name, label in (("decide_evolve", "decide+evolve"), ("legal_commands", "legal_commands")):
        q = per_command[name]
        print(f"{label} per command ({q['n']} calls, thread CPU time): p50 {q['p50_us']:.0f} us, p99 {q['p99_us']:.0f} us, "
              f"mean {q['mean_us']:.0f} us, max {q['max_us']:.0f} us, over 1 ms {q['over_1ms']}")
    print("decide+evolve by command type (thread CPU time; over: calls at or above the p99 of all commands):")
    for kind, q in by_type.items():
        print(f"  {kind:18s} n {q['n']:5d}  p50 {q['p50_us']:7.0f} us  p99 {q['p99_us']:7.0f} us  "
              f"max {q['max_us']:7.0f} us  over {q['over_all_p99']}")
    if crowded:
        print(f"crowded table ({table}):")
        print(f"  legal_commands, first call on the state: {crowded['legal_commands_first_call_per_s']:.0f} calls/s; "
              f"again: {crowded['legal_commands_again_per_s']:.0f} calls/s")
        print(f"  command_templates (warm): {crowded['command_templates_per_s']:.0f} calls/s; "
              f"decide (a move): {crowded['decide_per_s']:.0f} calls/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
