"""Benchmark smoke's drag on the web board in a real browser (Debian's Chromium through Playwright).

    .venv/bin/python ops/bench_smoke_drag.py [--poses 40]
    .venv/bin/python ops/bench_smoke_drag.py --json     # machine-readable (read by ops/bench)

Starts ``umpire serve`` (free port, temp data dir), brings a Clouds of Smoke game (BTL-CROSSROADS,
fixed seed) over REST to its first move, opens the acting seat's page and drags the unit with the
mouse through ``--poses`` poses, waiting for each verdict. The page records (performance.now(),
window.__umpireMetrics): the time from a pose to its verdict drawn on the ghost (the client's
debounce included), and the dry run's round trip inside it; beside them, the raw POST
``/commands?dry_run=true`` of the same command measured with fetch() in the same browser, same run.
Nothing is stored (Escape lets go before the release).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from ops.bench_web import pct  # noqa: E402  (one percentile helper for the browser benchmarks)
from tests.web.harness import UmpireServer, launch  # noqa: E402
from tests.web.test_smoke_board import BATTLE, SEED, _screen_of, _to_first_move  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402


def run(browser, base: str, poses: int) -> dict:
    g = httpx.post(f"{base}/games", json={"ruleset": "smoke", "scenario": BATTLE, "seed": SEED}).json()
    gid, seats = g["game_id"], g["seats"]
    clients = {s: httpx.Client(base_url=base, headers={"authorization": f"Bearer {t}"}, timeout=30) for s, t in seats.items()}
    seat, legal = _to_first_move(base, gid, clients)
    tpl = next(t for t in legal["templates"] if t["command"].get("type") == "move")
    uid = tpl["command"]["unit"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(f"{base}/#/game/{gid}?token={seats[seat]}")
    unit = page.locator(f'#board [data-unit="{uid}"].act-drag')
    unit.wait_for()
    x0, y0, f0 = (float(unit.get_attribute(a)) for a in ("data-x", "data-y", "data-facing"))
    page.mouse.move(*_screen_of(page, x0, y0))
    page.mouse.down()
    for i in range(poses):
        d = 0.3 + 3.0 * (i % 10) / 10  # legal and refused distances alike
        a = math.radians(f0 + (i % 7 - 3) * 10)
        page.mouse.move(*_screen_of(page, x0 + d * math.cos(a), y0 + d * math.sin(a)), steps=2)
        page.wait_for_function("n => window.__umpireMetrics.poseToVerdict.length > n", arg=i, timeout=20_000)
    page.keyboard.press("Escape")
    page.mouse.up()
    m = page.evaluate("({p: window.__umpireMetrics.poseToVerdict, d: window.__umpireMetrics.dryRun})")
    cmd = {**tpl["command"], "facing": f0, "distance": 1.0}
    raw = page.evaluate("""async ({gid, token, cmd, version, n}) => {
        const out = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          const r = await fetch(`/games/${gid}/commands?dry_run=true`, { method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ command: cmd, expected_version: version }) });
          await r.text();
          out.push(performance.now() - t0);
        }
        return out; }""", {"gid": gid, "token": seats[seat], "cmd": cmd, "version": legal["version"], "n": poses})
    stored = httpx.get(f"{base}/games/{gid}").json()["version"]
    assert stored == legal["version"], "a dry run stored something"
    ctx.close()
    for c in clients.values():
        c.close()
    return {"pose_to_verdict": m["p"], "dry_run": m["d"], "raw": raw}


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--poses", type=int, default=40, help="poses dragged through (default 40)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    t0 = time.perf_counter()
    with UmpireServer() as srv, sync_playwright() as pw:
        browser = launch(pw)
        try:
            r = run(browser, srv.url, args.poses)
        finally:
            browser.close()
    p, d, raw = r["pose_to_verdict"], r["dry_run"], r["raw"]
    figures = [
        {"figure": f"web smoke: pose to verdict on the ghost ({len(p)} poses, debounce included)",
         "value": round(pct(p, 0.5), 1), "unit": "ms (p50)", "lower_is_better": True,
         "vs": {"figure": "raw POST dry run (fetch in the same browser)", "value": round(pct(raw, 0.5), 1)}},
        {"figure": "web smoke: pose to verdict", "value": round(pct(p, 0.95), 1), "unit": "ms (p95)", "lower_is_better": True,
         "vs": {"figure": "raw POST dry run", "value": round(pct(raw, 0.95), 1)}},
        {"figure": "web smoke: the client's dry run round trip", "value": round(pct(d, 0.5), 1), "unit": "ms (p50)",
         "lower_is_better": True, "vs": {"figure": "raw POST dry run", "value": round(pct(raw, 0.5), 1)}},
    ]
    out = {
        "benchmark": "smoke_drag",
        "unit": "milliseconds in the browser (performance.now())",
        "params": {"poses": args.poses, "battle": BATTLE},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "seconds": round(time.perf_counter() - t0, 1),
        "pose_to_verdict_ms": {"p50": pct(p, 0.5), "p95": pct(p, 0.95), "n": len(p)},
        "dry_run_ms": {"p50": pct(d, 0.5), "p95": pct(d, 0.95), "n": len(d)},
        "raw_dry_run_ms": {"p50": pct(raw, 0.5), "p95": pct(raw, 0.95), "n": len(raw)},
        "figures": figures,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{len(p)} poses, {out['seconds']} s")
    print(f"pose to verdict: p50 {pct(p, .5):.0f} ms, p95 {pct(p, .95):.0f} ms (debounce included); "
          f"client dry run p50 {pct(d, .5):.0f} ms; raw POST dry run p50 {pct(raw, .5):.1f} ms, p95 {pct(raw, .95):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
