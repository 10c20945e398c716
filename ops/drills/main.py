"""``ops/drill``: run the fault drills and print what happened.

    ops/drill            # the full drills (a few minutes)
    ops/drill --quick    # short versions (well under a minute)
    ops/drill --only kills,redis,disk,readonly,backup,workers

Exit code 0 when every drill that ran held; 1 otherwise. A drill that cannot
run here (no root for a tmpfs) is reported as skipped.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from service.redis_runtime import EmbeddedRedis

import tests.rulesets.drill  # noqa: F401  (registers the drill ruleset in this process too)
from .scenarios import FULL, QUICK, Plan, Report, backup_restore, disk_full, read_only, redis_outages, server_kills
from scenarios.content import hand_to_rulesets

DRILLS: dict[str, Callable[[Path, EmbeddedRedis, Plan], Report]] = {
    "kills": lambda base, r, plan: server_kills(base, r, plan, workers=1),
    "redis": redis_outages,
    "disk": disk_full,
    "readonly": read_only,
    "backup": backup_restore,
    "workers": lambda base, r, plan: server_kills(base, r, plan, workers=2),
}


def run(names: list[str], plan: Plan, *, out: Callable[[str], None] = print,
        workdir: str | None = None) -> list[Report]:
    reports: list[Report] = []
    with tempfile.TemporaryDirectory(prefix="umpire-drill-", dir=workdir) as tmp:
        base = Path(tmp)
        with EmbeddedRedis(base / "redis") as redis:
            out(f"drill workdir {base}; redis-server pid {redis.pid} at {redis.url} (started by the drill)")
            for i, name in enumerate(names, start=1):
                t0 = time.monotonic()
                out(f"\n[{i}] {name} ...")
                rep = DRILLS[name](base / name, redis, plan)
                reports.append(rep)
                out(f"[{i}] {rep.name}: " + ("SKIPPED: " + rep.skipped if rep.skipped else
                                              ("HELD" if rep.ok else "FAILED")) + f"  ({time.monotonic() - t0:.1f} s)")
                for line in rep.lines:
                    out("    " + line)
    return reports


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(prog="ops/drill", description="umpire fault drills")
    ap.add_argument("--quick", action="store_true", help="short versions (well under a minute)")
    ap.add_argument("--only", default=",".join(DRILLS), help=f"comma-separated subset of {','.join(DRILLS)}")
    ap.add_argument("--workdir", default=None, help="where the temporary data dirs go (default: $TMPDIR)")
    a = ap.parse_args(argv)
    names = [n.strip() for n in a.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in DRILLS]
    if unknown:
        ap.error(f"unknown drill {unknown[0]!r}; known: {', '.join(DRILLS)}")
    t0 = time.monotonic()
    reports = run(names, QUICK if a.quick else FULL, workdir=a.workdir)
    failed = [r for r in reports if not r.ok]
    skipped = [r for r in reports if r.skipped]
    print(f"\n{len(reports) - len(failed) - len(skipped)} held, {len(failed)} failed, {len(skipped)} skipped"
          f" in {time.monotonic() - t0:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
