"""``ops/bench``: every benchmark of the project in one run, one table.

    ops/bench                 # every ops/bench_*.py --json at its defaults (a few minutes)
    ops/bench --quick         # shorter runs (benchmarks' own size options, where they have them)
    ops/bench --only append,projections
    ops/bench --out FILE      # where the markdown goes (default ops/bench-results.md)

A benchmark that fails, times out or has no ``--json`` is reported (and, when
it runs without ``--json``, its text output is kept in the markdown file). Exit
code 0 when at least one benchmark gave figures.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .figures import Row, num, rows_of
from .machine import describe

OPS = Path(__file__).resolve().parents[1]
ROOT = OPS.parent
#: Seconds one benchmark may take before it is stopped and reported.
TIMEOUT_S = 600
#: Shorter runs for ``--quick``: each option is passed only if the benchmark's --help lists it.
QUICK_ARGS: dict[str, list[str]] = {
    "bench_append": ["--seconds", "1", "--rounds", "1"],
    "bench_pg_append": ["--seconds", "1", "--rounds", "1"],
    "bench_projections": ["--events", "600", "--samples", "60"],
    "bench_hoth": ["--games", "20", "--seconds", "1"],
    "bench_sight": ["--boards", "5"],
    "bench_smoke": ["--games", "3", "--seconds", "1"],
    "bench_http": ["--seconds", "2", "--connections", "8"],
    "bench_workers": ["--seconds", "2", "--clients", "4"],
    "bench_nodes": ["--seconds", "2", "--clients", "4"],
    "bench_web": ["--games", "1"],
    "bench_smoke_drag": ["--poses", "15"],
    "bench_lobby": ["--games", "400", "--rounds", "5"],
    "bench_fair": ["--events", "1000"],
    "bench_bots": ["--quick"],
}
#: The order of the table (others follow, alphabetically).
ORDER = ["bench_append", "bench_http", "bench_workers", "bench_nodes", "bench_projections", "bench_hoth", "bench_sight", "bench_smoke", "bench_web", "bench_bots"]


@dataclass
class Outcome:
    bench: str
    seconds: float = 0.0
    rows: list[Row] = field(default_factory=list)
    error: str | None = None
    text: str | None = None  # output of a run without --json


def discover(only: list[str] | None = None) -> list[Path]:
    found = sorted(OPS.glob("bench_*.py"), key=lambda p: (ORDER.index(p.stem) if p.stem in ORDER else 99, p.stem))
    if only:
        found = [p for p in found if p.stem in only or p.stem.removeprefix("bench_") in only]
    return found


def _quick_args(path: Path) -> list[str]:
    wanted = QUICK_ARGS.get(path.stem, [])
    if not wanted:
        return []
    help_text = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True,
                               cwd=ROOT, timeout=60).stdout
    out: list[str] = []
    i = 0
    while i < len(wanted):
        opt = wanted[i]
        has_value = i + 1 < len(wanted) and not wanted[i + 1].startswith("--")
        if opt in help_text:
            out += wanted[i:i + 2] if has_value else [opt]
        i += 2 if has_value else 1
    return out


def run_one(path: Path, quick: bool, timeout: float = TIMEOUT_S) -> Outcome:
    o = Outcome(path.stem)
    args = _quick_args(path) if quick else []
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    t0 = time.monotonic()
    try:
        p = subprocess.run([sys.executable, str(path), "--json", *args], capture_output=True, text=True,
                           cwd=ROOT, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        o.error = f"timed out after {timeout:.0f} s"
        return o
    o.seconds = time.monotonic() - t0
    if p.returncode == 2 and "--json" in p.stderr:
        o.error = "it has no --json option; ran without it"
        try:
            q = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, cwd=ROOT,
                               env=env, timeout=timeout)
            o.text = (q.stdout + (q.stderr if q.returncode else "")).strip()
        except subprocess.TimeoutExpired:
            o.text = f"(timed out after {timeout:.0f} s)"
        o.seconds = time.monotonic() - t0
        return o
    if p.returncode != 0:
        tail = (p.stderr.strip().splitlines() or ["(no output)"])[-1]
        o.error = f"exit {p.returncode}: {tail}"
        return o
    try:
        start = p.stdout.index("{")
        out = json.loads(p.stdout[start:])
    except ValueError:
        o.error = "its --json output is not JSON"
        o.text = p.stdout.strip()[-2000:]
        return o
    o.rows = rows_of(path.stem, out)
    if not o.rows:
        o.error = "its JSON holds no figures"
    return o


def table(outcomes: list[Outcome]) -> list[str]:
    lines = ["| benchmark | figure | value | unit | compared with (same run) | value | figure ÷ comparison |",
             "|---|---|---:|---|---|---:|---:|"]
    for o in outcomes:
        for r in o.rows:
            lines.append(f"| {o.bench.removeprefix('bench_')} | {r.figure} | {num(r.value)} | {r.unit} | "
                         f"{r.vs_figure} | {num(r.vs_value) if r.vs_figure else ''} | {r.ratio_text()} |")
        if o.error and o.text and not o.rows:
            lines.append(f"| {o.bench.removeprefix('bench_')} | no figures for the table ({o.error.split(';')[0]});"
                         f" its own output is below | | | | | |")
        elif o.error:
            lines.append(f"| {o.bench.removeprefix('bench_')} | **not measured**: {o.error} | | | | | |")
    return lines


def render(outcomes: list[Outcome], machine: dict[str, str], command: str, took: float) -> str:
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [f"Measured by `{command}` on {when} ({took:.0f} s in all).", ""]
    out += table(outcomes)
    out += ["", "Machine: " + "; ".join(f"{k} {v}" for k, v in machine.items()) + "."]
    texts = [o for o in outcomes if o.text]
    for o in texts:
        out += ["", f"`ops/{o.bench}.py` (no `--json`), its own output:", "", "```", o.text, "```"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="ops/bench", description="every umpire benchmark, one table")
    ap.add_argument("--quick", action="store_true", help="shorter runs")
    ap.add_argument("--only", default="", help="comma-separated benchmarks (e.g. append,projections)")
    ap.add_argument("--out", default=str(OPS / "bench-results.md"), help="markdown file to write ('' for none)")
    ap.add_argument("--timeout", type=float, default=TIMEOUT_S, help="seconds per benchmark")
    a = ap.parse_args(argv)
    only = [x.strip() for x in a.only.split(",") if x.strip()] or None
    paths = discover(only)
    machine = describe()
    t0 = time.monotonic()
    outcomes: list[Outcome] = []
    for path in paths:
        print(f"running ops/{path.name} ...", file=sys.stderr, flush=True)
        o = run_one(path, a.quick, a.timeout)
        print(f"  {'ok' if not o.error else o.error} ({o.seconds:.0f} s)", file=sys.stderr, flush=True)
        outcomes.append(o)
    if only:
        missing = [n for n in only if not any(p.stem in (n, f"bench_{n}") for p in paths)]
        outcomes += [Outcome(n if n.startswith("bench_") else f"bench_{n}", error="missing (no such ops/bench_*.py)")
                     for n in missing]
    command = "ops/bench" + (" --quick" if a.quick else "") + (f" --only {a.only}" if only else "")
    md = render(outcomes, machine, command, time.monotonic() - t0)
    print(md)
    if a.out:
        Path(a.out).write_text(md)
        print(f"(written to {a.out})", file=sys.stderr)
    return 0 if any(o.rows for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
