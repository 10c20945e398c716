"""Benchmark: Battle of Hoth line of sight (domain/hoth/sight.py), calls per second over all pairs.

Usage: .venv/bin/python ops/bench_sight.py [--boards N] [--seed S] [--json]

Measures, for all 67 x 66 ordered pairs of playable hexes:
  * cold: the first pass, which computes and caches the exact geometry of every pair;
  * warm: further passes under N seeded random obstruction sets (the steady state of a game).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.hoth.board import PLAYABLE  # noqa: E402
from domain.hoth.sight import line_geometry, line_of_sight  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=50, help="seeded random obstruction sets (default 50)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)

    pairs = [(a, b) for a in sorted(PLAYABLE) for b in sorted(PLAYABLE) if a != b]
    rng = random.Random(args.seed)
    boards = [frozenset(h for h in PLAYABLE if rng.random() < rng.choice((0.05, 0.15, 0.3, 0.5)))
              for _ in range(args.boards)]

    line_geometry.cache_clear()
    t0 = time.perf_counter()
    for a, b in pairs:
        line_of_sight(a, b, boards[0])
    cold = time.perf_counter() - t0

    clear = 0
    t0 = time.perf_counter()
    for obstacles in boards:
        for a, b in pairs:
            clear += line_of_sight(a, b, obstacles).clear
    warm = time.perf_counter() - t0
    calls = len(pairs) * len(boards)

    cold_per_s, warm_per_s = len(pairs) / cold, calls / warm
    if args.json:
        print(json.dumps({
            "benchmark": "sight",
            "unit": "line_of_sight calls",
            "params": {"boards": args.boards, "seed": args.seed},
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                        "platform": platform.platform()},
            "pairs": len(pairs), "calls": calls, "clear_share": round(clear / calls, 4),
            "cold": {"seconds": round(cold, 4), "calls_per_s": round(cold_per_s, 1)},
            "warm": {"seconds": round(warm, 4), "calls_per_s": round(warm_per_s, 1)},
            "figures": [{
                "figure": f"line_of_sight, warm (cached geometry; {len(pairs):,} pairs x {len(boards)} boards)",
                "value": round(warm_per_s, 1), "unit": "calls/s",
                "vs": {"figure": "cold (first pass: geometry computed and cached)", "value": round(cold_per_s, 1)},
            }],
        }, indent=2))
        return 0
    print(f"pairs: {len(pairs)}  boards: {len(boards)}  (python {sys.version.split()[0]})")
    print(f"cold (geometry computed + cached): {cold_per_s:,.0f} calls/s  ({cold:.3f} s for all pairs)")
    print(f"warm (cached geometry):            {warm_per_s:,.0f} calls/s  ({warm:.3f} s for {calls:,} calls)")
    print(f"clear lines: {clear / calls:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
