"""What stands above and on the boards, read by a person (issue 30): the game page's rule choices folded into one
line that fits a 375 px phone (opened, one choice a line, nothing past the screen's edge); Battle of Hoth's hex
labels (coordinates, terrain) at least 10 px on a 1280 px screen and overlapping nothing (each other, a unit, a
structure, a medal); Clouds of Smoke's picture header in words (the turn, the phase, who is to act). Screenshots
at 1280 and 375 px in tests/web/artifacts/board-words-*. Debian's Chromium, a real ``umpire serve``."""
from __future__ import annotations

import re
from typing import Any

import httpx

from .conftest import shot
from .harness import SCENARIO

#: The board picture's texts (visible, not empty): text, screen box, rendered font size (px), and whether it
#: is a hex label; and the boxes of the units', structures' and medals' shapes.
BOXES = """() => {
  const svg = document.querySelector('#board svg.board-svg');
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() && t.checkVisibility())
    .map((t) => ({ text: t.textContent.trim(), box: box(t), px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
                   label: Boolean(t.closest('#labels')) }));
  const shapes = [...svg.querySelectorAll('#units circle, #structures rect, #medals circle')].map((e) => ({ what: e.closest('[data-unit],[data-structure]') ? (e.closest('[data-unit]') || e.closest('[data-structure]')).outerHTML.slice(0, 60) : 'medal', box: box(e) }));
  return { texts, shapes };
}"""


def _overlap(a: list[float], b: list[float], slack: float = 0.5) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _game(base: str, ruleset: str, scenario: str) -> tuple[str, str]:
    g = httpx.post(f"{base}/games", json={"ruleset": ruleset, "scenario": scenario}).json()
    return g["game_id"], next(iter(g["seats"].values()))


def test_hoth_hex_labels_legible_and_apart_at_1280(server, contexts):
    gid, token = _game(server.url, "hoth", SCENARIO)
    page = contexts.page(width=1280, height=900)
    page.goto(f"{server.url}/#/game/{gid}?token={token}")
    page.wait_for_selector("body[data-version] #board svg")
    page.wait_for_timeout(300)
    shot(page, "board-words-hoth-1280", full_page=True)
    found = page.evaluate(BOXES)
    labels = [t for t in found["texts"] if t["label"]]
    assert len(labels) > 60  # every hex's coordinate, and the terrain's names
    small = [(t["text"], round(t["px"], 1)) for t in labels if t["px"] < 10]
    assert small == []
    clashes = []
    for t in labels:
        clashes += [(t["text"], u["text"]) for u in found["texts"] if u is not t and _overlap(t["box"], u["box"])]
        clashes += [(t["text"], s["what"]) for s in found["shapes"] if _overlap(t["box"], s["box"])]
    assert clashes == [], clashes


def test_rule_choices_fold_into_a_line_on_a_phone(server, contexts):
    gid, token = _game(server.url, "hoth", SCENARIO)
    for width in (375, 1280):
        page = contexts.page(width=width, height=800)
        page.goto(f"{server.url}/#/game/{gid}?token={token}")
        page.wait_for_selector("body[data-version] #board svg")
        line = page.locator("#game-choices")
        assert line.evaluate("e => e.tagName") == "DETAILS" and not line.evaluate("e => e.open")
        summary = line.locator("summary")
        assert "Rule choices (" in summary.text_content() and "the defaults" in summary.text_content()
        box = summary.bounding_box()
        assert box["x"] + box["width"] <= width and box["height"] < 40, box  # one line, on the screen
        summary.click()
        items = line.locator("li")
        assert items.count() >= 2
        assert all(li.bounding_box()["x"] + li.bounding_box()["width"] <= width + 0.5 for li in items.all())
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing makes the page scroll sideways
        assert "HOTH-CHOICE-" in line.text_content()  # each with its rule's id
        shot(page, f"board-words-hoth-choices-{width}", full_page=True)
        page.context.close()
        contexts.open.remove(page.context)


def test_smoke_picture_header_in_words(server, contexts):
    gid, token = _game(server.url, "smoke", "BTL-CROSSROADS")
    svg = httpx.get(f"{server.url}/games/{gid}/board.svg").text
    for width in (1280, 375):
        page: Any = contexts.page(width=width, height=900)
        page.goto(f"{server.url}/#/game/{gid}?token={token}")
        page.wait_for_selector("body[data-version] #board svg")
        page.wait_for_timeout(300)
        words = page.locator("#board svg text.headline").text_content()
        assert words in svg
        assert re.match(r"turn 1, phase \d of 8 · ", words) and "(Player 1)" in words and "player-" not in words and " to act, " in words, words
        assert "_" not in words and "(actions)" not in words
        shot(page, f"board-words-smoke-{width}", full_page=True)
        page.context.close()
        contexts.open.remove(page.context)
