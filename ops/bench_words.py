"""Benchmark the words of legal commands (DESIGN 12) in process.

    .venv/bin/python ops/bench_words.py [--commands 150] [--json]

For every ruleset, a seeded random game: at each decision, the time of the ruleset's
``legal_commands`` (with the JSON builtins) beside the time of their words
(``domain.kernel.words.described``: each command's label and warning), which
``GET /games/{id}/legal-commands`` adds to every answer. Median, 95th percentile and maximum in ms.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec  # noqa: E402

from domain.kernel import registry, words  # noqa: E402
from domain.kernel.runner import Game  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402

CASES = (("hoth", "SCN-TAKE-DOWN-THE-SHIELD"), ("smoke", "BTL-CROSSROADS"), ("emperor", "SETUP-AKHENA-VS-REBEL"))


def _stats(xs: list[float]) -> dict[str, float]:
    s = sorted(xs)
    return {"median_ms": round(statistics.median(s) * 1e3, 3), "p95_ms": round(s[int(0.95 * (len(s) - 1))] * 1e3, 3),
            "max_ms": round(s[-1] * 1e3, 3)}


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commands", type=int, default=150)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    out = {}
    for rid, scenario in CASES:
        rs = registry.get(rid)
        g = Game(rs, scenario, seed=a.seed.to_bytes(32, "big"))
        rng = random.Random(a.seed)
        legal_t, words_t, n = [], [], 0
        while not g.over and g.commands < a.commands:
            seat = g.to_act()
            t0 = time.perf_counter()
            cmds = g.legal(seat)
            built = [msgspec.to_builtins(c) for c in cmds]
            t1 = time.perf_counter()
            words.described(rs, g.state, seat, built)
            t2 = time.perf_counter()
            legal_t.append(t1 - t0)
            words_t.append(t2 - t1)
            n += len(cmds)
            g.do(seat, rng.choice(cmds))
        out[rid] = {"decisions": len(legal_t), "commands_per_decision": round(n / max(1, len(legal_t)), 1),
                    "legal_commands": _stats(legal_t), "described": _stats(words_t)}
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        for rid, r in out.items():
            print(f"{rid}: {r['decisions']} decisions, {r['commands_per_decision']} commands each; "
                  f"legal_commands {r['legal_commands']}; described {r['described']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
