"""Benchmark the web client in a real browser (Debian's Chromium through Playwright).

    .venv/bin/python ops/bench_web.py [--games 2]
    .venv/bin/python ops/bench_web.py --json     # machine-readable (read by ops/bench)

Starts ``umpire serve`` (free port, temp data dir), then plays whole hoth games
(SCN-TAKE-DOWN-THE-SHIELD) by clicking, one browser context per seat, as tests/web does. The page
records (performance.now(), window.__umpireMetrics):

- time to first board: from the navigation start of a seat's page (an invite link) to its first
  board drawn; beside it, the same page's DOMContentLoaded (the files, before any API call);
- time from a click to the board updated: from the click that sends a command to the board and
  panels redrawn after the answer (POST, then view + legal commands + board.svg); beside it, the raw
  ``GET board.svg`` round trip measured with fetch() in the same browser, same run.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from tests.web.harness import MAX_COMMANDS, SCENARIO, Player, UmpireServer, launch  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def play(browser, base: str, seed: int) -> dict:
    api = httpx.Client(base_url=base, timeout=30)
    g = api.post("/games", json={"ruleset": "hoth", "scenario": SCENARIO}).json()
    gid = g["game_id"]
    players, contexts, first, dcl = {}, [], [], []
    for i, (seat, token) in enumerate(sorted(g["seats"].items())):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(f"{base}/#/game/{gid}?token={token}")
        page.wait_for_function("() => window.__umpireMetrics && window.__umpireMetrics.firstBoard != null")
        first.append(page.evaluate("window.__umpireMetrics.firstBoard"))
        dcl.append(page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
        players[seat] = Player(page, base, gid, seat, token, seed=seed * 10 + i)
    n = 0
    while n < MAX_COMMANDS:
        view = api.get(f"/games/{gid}").json()
        if view["status"] != "active":
            break
        seat = view["to_act"][0]
        players[seat].play_one()
        n += 1
        version = api.get(f"/games/{gid}").json()["version"]
        for s, p in players.items():
            if s != seat:
                p.wait_version(version)
    clicks = [c for p in players.values() for c in p.page.evaluate("window.__umpireMetrics.clicks")]
    page = players["imperial"].page
    raw = page.evaluate("""async ({gid, n}) => {
        const out = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          const r = await fetch(`/games/${gid}/board.svg`, { cache: 'no-store' });
          await r.text();
          out.push(performance.now() - t0);
        }
        return out; }""", {"gid": gid, "n": max(len(clicks), 20)})
    for p in players.values():
        p.close()
    for c in contexts:
        c.close()
    api.close()
    return {"game_id": gid, "commands": n, "first_board": first, "dom_content_loaded": dcl, "clicks": clicks,
            "raw_board_svg": raw}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2, help="whole games to play (default 2)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    t0 = time.perf_counter()
    runs = []
    with UmpireServer() as srv, sync_playwright() as pw:
        browser = launch(pw)
        try:
            for i in range(args.games):
                runs.append(play(browser, srv.url, i))
        finally:
            browser.close()
    first = [x for r in runs for x in r["first_board"]]
    dcl = [x for r in runs for x in r["dom_content_loaded"]]
    clicks = [x for r in runs for x in r["clicks"]]
    raw = [x for r in runs for x in r["raw_board_svg"]]
    commands = sum(r["commands"] for r in runs)
    figures = [
        {"figure": "web: time to first board (seat page from an invite link, fresh browser context)",
         "value": round(pct(first, 0.5), 1), "unit": "ms (p50)", "lower_is_better": True,
         "vs": {"figure": "DOMContentLoaded of the same page (its files, before any API call)", "value": round(pct(dcl, 0.5), 1)}},
        {"figure": f"web: click to board updated ({len(clicks)} clicks over {commands} commands, {len(runs)} whole games)",
         "value": round(pct(clicks, 0.5), 1), "unit": "ms (p50)", "lower_is_better": True,
         "vs": {"figure": "raw GET board.svg round trip (fetch in the same browser)", "value": round(pct(raw, 0.5), 2)}},
        {"figure": "web: click to board updated",
         "value": round(pct(clicks, 0.95), 1), "unit": "ms (p95)", "lower_is_better": True,
         "vs": {"figure": "raw GET board.svg round trip", "value": round(pct(raw, 0.95), 2)}},
    ]
    out = {
        "benchmark": "web",
        "unit": "milliseconds in the browser (performance.now())",
        "params": {"games": args.games, "scenario": SCENARIO},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "seconds": round(time.perf_counter() - t0, 1),
        "first_board_ms": {"p50": pct(first, 0.5), "p95": pct(first, 0.95), "n": len(first)},
        "dom_content_loaded_ms": {"p50": pct(dcl, 0.5), "n": len(dcl)},
        "click_to_board_ms": {"p50": pct(clicks, 0.5), "p95": pct(clicks, 0.95), "mean": statistics.fmean(clicks) if clicks else None,
                              "n": len(clicks)},
        "raw_board_svg_ms": {"p50": pct(raw, 0.5), "p95": pct(raw, 0.95), "n": len(raw)},
        "games": [{k: r[k] for k in ("game_id", "commands")} for r in runs],
        "figures": figures,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{len(runs)} games, {commands} commands, {out['seconds']} s")
    print(f"time to first board: p50 {pct(first, .5):.0f} ms, p95 {pct(first, .95):.0f} ms "
          f"(DOMContentLoaded p50 {pct(dcl, .5):.0f} ms)")
    print(f"click to board updated: p50 {pct(clicks, .5):.0f} ms, p95 {pct(clicks, .95):.0f} ms over {len(clicks)} clicks "
          f"(raw GET board.svg: p50 {pct(raw, .5):.1f} ms, p95 {pct(raw, .95):.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
