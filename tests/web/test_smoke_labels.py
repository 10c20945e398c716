"""Clouds of Smoke's table legible at 1x on a 1280 px screen (issue 30): in a deployed game (the
Crossroads battle starts with both armies in columns, units side by side), every unit carries its type's
symbol, every name on the table is at least 10 px high on the screen, and no two visible names overlap
(read from the rendered boxes, getBoundingClientRect); a name that found no free place shows when its unit
is pointed at. The same on a phone (375 px, the table zoomed) and in the replay. Debian's Chromium, a real
``umpire serve``."""
from __future__ import annotations

import re
import time
from typing import Any

import httpx

from .conftest import shot

BATTLE = "BTL-CROSSROADS"

#: The visible texts of the table: their text, screen box and font height (px).
TEXTS = """sel => [...document.querySelectorAll(sel + ' svg.board-svg text')].filter(t => {
    const cs = getComputedStyle(t);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && t.textContent.trim();
}).map(t => { const r = t.getBoundingClientRect();
    return {text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height, unit: !!t.closest('[data-unit],[data-commander]'),
            tucked: t.classList.contains('tucked')}; })"""


def _overlaps(texts: list[dict[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]:
                out.append((a["text"], b["text"]))
    return out


def _check(page: Any, sel: str, min_px: float) -> list[dict[str, Any]]:
    texts = page.evaluate(TEXTS, sel)
    assert _overlaps(texts) == []
    units = [t for t in texts if t["unit"]]
    assert units, texts
    small = [t for t in units if t["h"] < min_px]
    assert small == [], small
    return units


def test_names_on_a_deployed_table_never_overlap(server, contexts):
    base = server.url
    g = httpx.post(f"{base}/games", json={"ruleset": "smoke", "scenario": BATTLE}).json()
    gid, seats = g["game_id"], g["seats"]
    st = httpx.get(f"{base}/games/{gid}").json()["state"]
    pieces = {u["id"] for u in st["units"]} | {c["id"] for c in st["commanders"]}
    assert len(st["units"]) >= 20  # a crowded table: two armies in columns

    page = contexts.page()
    page.goto(f"{base}/#/game/{gid}?token={seats['player-1']}")
    page.wait_for_selector("#board svg.board-svg .unit-label")
    units = _check(page, "#board", 10)
    # the seat's commands are all on the table (dice, slots): no generic list repeats them
    page.wait_for_selector("#action-board .die")
    assert page.locator("#all-commands").count() == 0
    shown = {t["text"] for t in units}
    assert shown <= pieces
    assert len(shown) >= 0.8 * len(pieces), sorted(pieces - shown)  # most names need no pointing at
    # the type's symbol in every unit, and the key to the symbols under the table
    kinds = page.evaluate("() => [...document.querySelectorAll('#board g[data-unit]')].map(g => g.querySelector('.unit-symbol')?.dataset.type)")
    assert len(kinds) == len(st["units"]) and set(kinds) <= {"infantry", "cavalry", "artillery"}, kinds
    assert "infantry" in page.locator("#smoke-legend").text_content()
    # every army's morale and general's level, at the size of the page's text (SMOKE-VIC-1, SMOKE-ARMY-3)
    armies = page.locator("#smoke-armies li").all_inner_texts()
    want = sorted(st["armies"].values(), key=lambda a: a["seat"])
    named = next(r["seat_names"] for r in httpx.get(f"{base}/rulesets").json() if r["id"] == "smoke")
    assert [a.split(")")[0].split("(")[-1] for a in armies] == [named[a["seat"]] for a in want], armies
    for line, a in zip(armies, want):
        assert f"morale {a['morale']} of {a['start_morale']}, general level {a['level']}" in line, line
    shot(page, "smoke-labels-1280")
    # a name with no free place shows while its unit is pointed at
    tucked = page.evaluate("() => [...document.querySelectorAll('#board text.unit-label.tucked')].map(t => t.closest('g').dataset.unit || t.closest('g').dataset.commander)")
    for pid in tucked[:3]:
        page.locator(f'#board [data-unit="{pid}"], #board [data-commander="{pid}"]').first.hover()
        assert pid in {t["text"] for t in page.evaluate(TEXTS, "#board")}

    # a phone: the table zoomed in its frame, the names still apart and legible
    phone = contexts.page(width=375, height=800)
    phone.goto(f"{base}/#/game/{gid}?token={seats['player-1']}")
    phone.wait_for_selector("#board svg.board-svg .unit-label")
    _check(phone, "#board", 10)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375

    # the replay's picture is dressed the same way
    page.goto(f"{base}/#/game/{gid}?token={seats['player-1']}&tab=replay")
    page.wait_for_selector("#panel-replay svg.board-svg .unit-label")
    _check(page, "#panel-replay", 10)


def test_names_apart_while_columns_deploy_and_once_deployed(server, contexts):
    """Open field played by two greedy bots: the replay's table while the columns deploy (column markers,
    units arriving beside them) and once every column is deployed."""
    base = server.url
    g = httpx.post(f"{base}/games", json={"ruleset": "smoke", "scenario": "BTL-OPEN-FIELD", "seed": "3d" * 32,
                                          "bots": {"player-1": "greedy", "player-2": "greedy"}}).json()
    gid = g["game_id"]
    seen: dict[str, int] = {}
    after = 0
    for _ in range(300):  # the bots play on their own: read the log until the deployment has ended
        evs = httpx.get(f"{base}/games/{gid}/events", params={"after": after, "limit": 100}).json()["events"]
        for e in evs:
            seen.setdefault(e["type"], e["seq"])
        after = evs[-1]["seq"] if evs else after
        if "deployment_ended" in seen:
            break
        if not evs:
            time.sleep(0.5)
    assert "deployment_ended" in seen and "column_placed" in seen, sorted(seen)
    page = contexts.page()
    for at, name in ((seen["unit_deployed"] + 6, "deploying"), (seen["deployment_ended"], "deployed")):
        page.goto(f"{base}/#/game/{gid}?tab=replay&at={at}")
        page.wait_for_selector(f'#replay-board[data-at="{at}"] svg.board-svg .unit-label')
        units = _check(page, "#panel-replay", 10)
        assert len(units) >= 8, units
        shot(page, f"smoke-labels-{name}-1280")

    # the game's end as people read it (SMOKE-VIC-3, GAP-B-09): a draw is no side's win, and the phase shown is
    # never past the scenario's last (sixes may carry the counter past it in the last turn)
    for _ in range(240):
        view = httpx.get(f"{base}/games/{gid}").json()
        if view["status"] == "finished":
            break
        time.sleep(0.5)
    assert view["status"] == "finished", view["status"]
    page.goto(f"{base}/#/game/{gid}")
    page.wait_for_selector("#status strong")
    status = page.text_content("#status") or ""
    if view["winner"] == "draw":
        assert "Finished: a draw." in status and "draw wins" not in status, status
    else:
        assert "wins." in status, status
    phase = re.search(r"Phase (\d+) of (\d+)", status)
    assert phase and int(phase.group(1)) <= int(phase.group(2)), status
    assert "morale fractions" not in status and "to act" not in status, status
    shot(page, "smoke-finished-1280")
