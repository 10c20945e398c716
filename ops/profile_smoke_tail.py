"""Where the slowest commands of random Clouds of Smoke games spend their time.

    PYTHONPATH=. .venv/bin/python ops/profile_smoke_tail.py [--games 12] [--top 0.01] [--band 16:96]

Plays the games of ``ops/bench_smoke.py`` (the same battles and seeds) and times, in thread CPU time, a fixed list
of the engine's steps (``STEPS``: the turn run on, fire contacts, lines of fire, bombardment targets, battles,
battle-marker placement ...) inside every command's decide+evolve; then prints, for the slowest ``--top`` share of
the commands (the tail that makes the p99) and for a band of ranks around the p99 (``--band``, by default the 16th
to the 96th slowest), the time spent in each step (inclusive: a step called inside another counts in both) and
how often it ran. A profiler would time every call and inflate the many small ones; this times only the listed
steps, with two clock reads a call.

    PYTHONPATH=. .venv/bin/python ops/profile_smoke_tail.py --exclusive

``--over-ms 1``: the same report for every command over 1 ms (a p99 under 1 ms allows 1% of them).

``--exclusive``: each step's own time, without the listed steps it called (the rows then add up to the commands'
time), with two more rows: ``(gc)``, the interpreter's garbage collections that ran inside the commands (also
counted in the step that was running), and ``(outside the steps)``, the commands' time in no listed step.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import pkgutil
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import domain.smoke as smoke_pkg  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402
from tests.smoke import play  # noqa: E402
from tests.smoke.play import random_game, ruleset  # noqa: E402

BATTLES = ("BTL-OPEN-FIELD", "BTL-ALL-TERRAIN", "BTL-CROSSROADS")  # as ops/bench_smoke.py

#: (module of domain/smoke, function): the steps timed.
STEPS = [
    ("decider", "dispatch"), ("turns", "advance"), ("turns", "marker_offer"),
    ("fire", "fire_contacts"), ("fire", "_pairs_near_changes"), ("fire", "_pairs_swept"), ("fire", "fire_contact"),
    ("fire", "line_of_fire"), ("fire", "_sector_and_range"), ("fire", "_blockers"), ("fire", "_corner_lines"),
    ("fire", "_first_clear"), ("fire", "_line_hit"), ("fire", "shortest_weapon"),
    ("terrain", "_ring_blocks"), ("chords", "chord_blocks"), ("units", "fire_range"),
    ("formations", "neighbours"), ("formations", "formations"), ("formations", "touching"),
    ("markers", "best_placements"), ("markers", "candidates"), ("markers", "marker_units"),
    ("bombardment", "eligible"), ("bombardment", "targets"),
    ("battle", "fight_roll"), ("battle", "side_result"), ("retreat", "execute_retreat"),
    ("movement", "plan_move"), ("evolve", "evolve"), ("units", "_fire_weapons"), ("fire", "contact_enemies"),
]


def _instrument(current: dict[str, float], exclusive: bool = False) -> None:
    """Replace each step, in its module and wherever domain/smoke imported it by name, with a timed call
    (``exclusive``: less the time of the listed steps it called)."""
    mods = [importlib.import_module(f"domain.smoke.{m.name}") for m in pkgutil.iter_modules(smoke_pkg.__path__)]
    inner: list[float] = []  # per open timed call: the time of the timed calls inside it
    for mod_name, fn_name in STEPS:
        home = importlib.import_module(f"domain.smoke.{mod_name}")
        f = getattr(home, fn_name)
        label = f"{mod_name}.{fn_name}"

        def timed(*a: Any, _f: Callable = f, _label: str = label, **k: Any) -> Any:
            t0 = time.thread_time()
            inner.append(0.0)
            try:
                return _f(*a, **k)
            finally:
                dt = time.thread_time() - t0
                nested = inner.pop()
                if inner:
                    inner[-1] += dt
                current[_label] = current.get(_label, 0.0) + (dt - nested if exclusive else dt)
                current["#" + _label] = current.get("#" + _label, 0) + 1

        for m in mods:
            if getattr(m, fn_name, None) is f:
                setattr(m, fn_name, timed)


def _report(title: str, rows: list[tuple[float, str, dict[str, float]]]) -> None:
    total = sum(r[0] for r in rows)
    print(f"{title}: {len(rows)} commands, {total * 1e3:.1f} ms; "
          + ", ".join(f"{k} {v}" for k, v in Counter(r[1] for r in rows).most_common()))
    agg: dict[str, float] = {}
    for _, _, d in rows:
        for k, v in d.items():
            agg[k] = agg.get(k, 0) + v
    for k, v in sorted(((k, v) for k, v in agg.items() if not k.startswith("#")), key=lambda kv: -kv[1]):
        print(f"  {k:32s} {v * 1e3:9.2f} ms  {100 * v / total if total else 0:5.1f}%  {int(agg['#' + k]):7d} calls")


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--top", type=float, default=0.01, help="share of the slowest commands (default 0.01)")
    ap.add_argument("--band", default="16:96", help="ranks around the p99, slowest first (default 16:96)")
    ap.add_argument("--exclusive", action="store_true", help="each step's own time, with (gc) and (outside the steps)")
    ap.add_argument("--over-ms", type=float, default=None,
                    help="also report every command over this many ms (the tail a p99 under it must empty)")
    args = ap.parse_args(argv)
    current: dict[str, float] = {}
    _instrument(current, args.exclusive)
    rows: list[tuple[float, str, dict[str, float]]] = []
    plain_do = play._Timed.do
    collecting = [0.0, 0.0]  # collections' time in this command, the start of the one running

    def collector(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collecting[1] = time.thread_time()
        else:
            collecting[0] += time.thread_time() - collecting[1]

    if args.exclusive:
        gc.callbacks.append(collector)

    def do(self: Any, seat: str, command: Any) -> Any:
        current.clear()
        collecting[0] = 0.0
        t0 = time.thread_time()
        try:
            return plain_do(self, seat, command)
        finally:
            dt = time.thread_time() - t0
            if args.exclusive:
                current["(outside the steps)"] = dt - sum(v for k, v in current.items() if not k.startswith("#"))
                current["#(outside the steps)"] = 1
                current["(gc)"], current["#(gc)"] = collecting[0], 1
            rows.append((dt, type(command).__name__, dict(current)))

    play._Timed.do = do  # type: ignore[method-assign]
    rs = ruleset()
    for i in range(args.games):
        random_game(rs, BATTLES[i % len(BATTLES)], 100 + i, options={"players": 4}, timings={})
    rows.sort(key=lambda r: -r[0])
    n = max(1, int(len(rows) * args.top))
    print(f"{len(rows)} commands; number {n + 1} from the slowest (the p99 of ops/bench_smoke.py when --top is 0.01): "
          f"{rows[min(n, len(rows) - 1)][0] * 1e6:.0f} us (the timed steps add a little)")
    _report(f"slowest {args.top:g}", rows[:n])
    lo, hi = (int(x) for x in args.band.split(":"))
    _report(f"ranks {lo}-{hi}", rows[lo:hi])
    if args.over_ms is not None:
        _report(f"over {args.over_ms:g} ms", [r for r in rows if r[0] * 1e3 > args.over_ms])
    return 0


if __name__ == "__main__":
    sys.exit(main())
