"""Benchmark: Battle of Hoth line of sight (domain/hoth/sight.py), calls per second over all pairs.

Usage: .venv/bin/python ops/bench_sight.py [--boards N] [--seed S]

Measures, for all 67 x 66 ordered pairs of playable hexes:
  * cold: the first pass, which computes and caches the exact geometry of every pair;
  * warm: further passes under N seeded random obstruction sets (the steady state of a game).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.hoth.board import PLAYABLE  # noqa: E402
from domain.hoth.sight import line_geometry, line_of_sight  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

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

    print(f"pairs: {len(pairs)}  boards: {len(boards)}  (python {sys.version.split()[0]})")
    print(f"cold (geometry computed + cached): {len(pairs) / cold:,.0f} calls/s  ({cold:.3f} s for all pairs)")
    print(f"warm (cached geometry):            {calls / warm:,.0f} calls/s  ({warm:.3f} s for {calls:,} calls)")
    print(f"clear lines: {clear / calls:.1%}")


if __name__ == "__main__":
    main()
