"""Accessibility of every main view, checked by axe-core in Debian's Chromium: the lobby, and for each
ruleset (hoth, smoke, emperor) a game's play view, replay tab and fairness tab, seen by a seat (its
token in the link), at 1280 and 375 px. No violation of impact "serious" or "critical" may remain;
every view's screenshot is kept in tests/web/artifacts/ (a11y-<view>-<width>.png) and all violations
found (lesser ones included) in tests/web/artifacts/axe-violations.json.

axe-core is a test-only npm package (tests/web/package.json, installed by ops/ensure-axe); without it
this test fails, it does not skip."""
from __future__ import annotations

import json
from typing import Any

import httpx

from .conftest import ARTIFACTS, HERE, shot
from .harness import SCENARIO
from .test_emperor_board import SETUP
from .test_smoke_board import BATTLE, SEED

AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (1280, 375)
GAMES = {"hoth": {"scenario": SCENARIO}, "smoke": {"scenario": BATTLE, "seed": SEED}, "emperor": {"scenario": SETUP}}
#: Commands played (each seat's first legal command, over the API) so that replay has steps to show.
PLAYED = 6

RUN_AXE = """async () => {
  const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 160),
      why: (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 300) })) }));
}"""


def _game(base: str, ruleset: str) -> tuple[str, str]:
    """A new game with a few commands played; its id and the token of the seat the pages use."""
    g = httpx.post(f"{base}/games", json={"ruleset": ruleset, **GAMES[ruleset]}).json()
    gid, seats = g["game_id"], g["seats"]
    clients = [httpx.Client(base_url=base, headers={"authorization": f"Bearer {t}"}, timeout=30) for t in seats.values()]
    for _ in range(PLAYED):
        for c in clients:
            legal = c.get(f"/games/{gid}/legal-commands").json()
            if legal.get("commands"):
                r = c.post(f"/games/{gid}/commands", json={"command": legal["commands"][0], "expected_version": legal["version"]})
                assert r.status_code == 201, r.text
                break
    for c in clients:
        c.close()
    return gid, next(iter(seats.values()))


def _views(base: str) -> list[tuple[str, str, str]]:
    """(name, url, a selector present once the view is drawn)."""
    out = [("lobby", f"{base}/", "#games table")]
    for ruleset in GAMES:
        gid, token = _game(base, ruleset)
        link = f"{base}/#/game/{gid}?token={token}"
        out += [(f"{ruleset}-play", link, "body[data-version] #board svg"),
                (f"{ruleset}-replay", link + "&tab=replay", "#replay-board[data-at] svg"),
                (f"{ruleset}-fairness", link + "&tab=fairness", "#fair-commitment > *")]
    return out


def _readable(found: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for view, violations in found.items():
        for v in violations:
            lines.append(f"{view}: [{v['impact']}] {v['id']}: {v['help']}")
            lines += [f"    {n['target']}  {n['html']}\n      {n['why']}" for n in v["nodes"][:5]]
    return "\n".join(lines)


def test_every_main_view_has_no_serious_accessibility_violation(server, contexts):
    assert AXE.exists(), f"axe-core is missing ({AXE}): run ops/ensure-axe (npm ci --prefix tests/web)"
    found: dict[str, list[dict[str, Any]]] = {}
    for name, url, ready in _views(server.url):
        for width in WIDTHS:
            # the service's CSP (script-src 'self') forbids the injected script: this test's pages bypass it
            page = contexts.page(width=width, height=900 if width > 400 else 800, bypass_csp=True)
            page.goto(url)
            page.wait_for_selector(ready, timeout=30_000)
            page.wait_for_timeout(300)  # the live feed keeps the network busy: let the last drawing settle
            shot(page, f"a11y-{name}-{width}", full_page=True)
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate(RUN_AXE)
            if violations:
                found[f"{name}@{width}"] = violations
            page.context.close()
            contexts.open.remove(page.context)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "axe-violations.json").write_text(json.dumps(found, indent=1))
    serious = {k: [v for v in vs if v["impact"] in ("serious", "critical")] for k, vs in found.items()}
    serious = {k: vs for k, vs in serious.items() if vs}
    assert not serious, "axe-core found serious or critical violations:\n" + _readable(serious)
