"""Benchmark the web client in a real browser (Debian's Chromium through Playwright).

    .venv/bin/python ops/bench_web.py [--games 2]
    .venv/bin/python ops/bench_web.py --json     # machine-readable (read by ops/bench)
    .venv/bin/python ops/bench_web.py --ruleset smoke|emperor --games 1   # played on the board, as tests/web

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


class _Contexts:
    """What the board test helpers (tests/web) open pages with: one browser context per page."""

    def __init__(self, browser):
        self.browser, self.open = browser, []

    def page(self, width: int = 1280, height: int = 900):
        ctx = self.browser.new_context(viewport={"width": width, "height": height})
        self.open.append(ctx)
        return ctx.new_page()

    def close(self) -> None:
        for c in self.open:
            c.close()


#: counts the person's interactions on a page: every pointer press (a click, or a drag's start)
COUNT_INTERACTIONS = """() => { window.__interactions = 0;
  document.addEventListener('pointerdown', () => { window.__interactions += 1; }, true); }"""


def _raw_svg(page, gid: str, n: int) -> list[float]:
    return page.evaluate("""async ({gid, n}) => {
        const out = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          const r = await fetch(`/games/${gid}/board.svg`, { cache: 'no-store' });
          await r.text();
          out.push(performance.now() - t0);
        }
        return out; }""", {"gid": gid, "n": n})


def play_board(browser, base: str, ruleset: str, seed: int) -> dict:
    """A whole Clouds of Smoke (Open field: terrain, deployment, dice, moves) or Emperor game played on the
    board as tests/web plays it (the greedy bot chooses, the page is clicked and dragged)."""
    import random

    from bots.emperor import _Board, _score
    from tests.web.test_emperor_board import SETUP, BoardPlayer
    from tests.web.test_smoke_game import Table

    ctxs = _Contexts(browser)
    try:
        if ruleset == "smoke":
            t = Table(type("S", (), {"url": base})(), ctxs, "BTL-OPEN-FIELD")
            t.rng = random.Random(seed)
            pages, gid = list(t.pages.values()), t.gid
            for p in pages:
                p.evaluate(COUNT_INTERACTIONS)
            n, first_place = 0, True
            while n < 600 and httpx.get(f"{base}/games/{gid}").json()["status"] != "finished":
                t.step(first_place)
                first_place = not getattr(t, "refused_shown", False)
                n += 1
            t.close()
        else:
            g = httpx.post(f"{base}/games", json={"ruleset": "emperor", "scenario": SETUP}).json()
            gid = g["game_id"]
            page = ctxs.page()
            page.goto(f"{base}/#/game/{gid}?token={g['seats']['human']}")
            page.wait_for_selector("#board rect.cell-hit")
            page.evaluate(COUNT_INTERACTIONS)
            p = BoardPlayer(page, type("S", (), {"url": base})(), gid, g["seats"]["human"])
            p.rng = random.Random(seed)
            pages, n = [page], 0
            while n < 300:
                legal, st = p.legal(), p.state()
                if st.get("winner") or not legal["commands"]:
                    break
                p.wait_version(legal["version"])
                board = _Board(st)
                scored = [(_score(board, c)[0], p.rng.random(), i) for i, c in enumerate(legal["commands"])]
                p.do(legal["commands"][max(scored)[2]], st)
                p.wait_version(legal["version"] + 1)
                n += 1
            p.http.close()
        view = httpx.get(f"{base}/games/{gid}").json()
        first = [pg.evaluate("window.__umpireMetrics.firstBoard") for pg in pages]
        clicks = [c for pg in pages for c in pg.evaluate("window.__umpireMetrics.clicks")]
        interactions = sum(pg.evaluate("window.__interactions") for pg in pages)
        raw = _raw_svg(pages[0], gid, max(len(clicks), 20))
        turns = view.get("turn") or (view.get("state") or {}).get("turn_number") or (view.get("state") or {}).get("round") or 0
        return {"game_id": gid, "commands": n, "first_board": first, "clicks": clicks, "raw_board_svg": raw,
                "interactions": interactions, "turns": turns, "status": view["status"]}
    finally:
        ctxs.close()


def main_board(ruleset: str, games: int) -> int:
    from playwright.sync_api import sync_playwright

    t0 = time.perf_counter()
    runs = []
    with UmpireServer() as srv, sync_playwright() as pw:
        browser = launch(pw)
        try:
            for i in range(games):
                runs.append(play_board(browser, srv.url, ruleset, i))
        finally:
            browser.close()
    first = [x for r in runs for x in r["first_board"]]
    clicks = [x for r in runs for x in r["clicks"]]
    raw = [x for r in runs for x in r["raw_board_svg"]]
    cmds = sum(r["commands"] for r in runs)
    inter = sum(r["interactions"] for r in runs)
    turns = sum(r["turns"] for r in runs)
    print(f"{ruleset}: {len(runs)} games ({', '.join(r['status'] for r in runs)}), {cmds} commands, {turns} turns, "
          f"{round(time.perf_counter() - t0, 1)} s")
    print(f"time to first board: p50 {pct(first, .5):.0f} ms")
    print(f"click or drop to board updated: p50 {pct(clicks, .5):.0f} ms, p95 {pct(clicks, .95):.0f} ms over {len(clicks)} "
          f"(raw GET board.svg from the same browser: p50 {pct(raw, .5):.1f} ms, p95 {pct(raw, .95):.1f} ms)")
    print(f"interactions (pointer presses: clicks and drags): {inter}, {inter / max(cmds, 1):.2f} per command, "
          f"{inter / max(turns, 1):.1f} per turn")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2, help="whole games to play (default 2)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    ap.add_argument("--ruleset", choices=("hoth", "smoke", "emperor"), default="hoth",
                    help="smoke and emperor: whole games played on the board by the greedy bot's choices (text output)")
    args = ap.parse_args(argv)
    if args.ruleset != "hoth":
        return main_board(args.ruleset, args.games)
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
