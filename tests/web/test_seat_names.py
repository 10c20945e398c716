"""The seats in words on the page (docs/seat-names.md): a Ukrainian reader of a Battle of Hoth game sees the sides as
the Ukrainian rulebook prints them (Повстанці, Імперія), never the seats' ids (``rebel``, ``imperial``): in the
status line, the seat picker, the latest steps, the lobby's own seats and its new-game form; a Ukrainian reader of a Clouds
of Smoke game reads Гравець 1 in the ruleset's own sentences (summaries, the board picture, a ruling). Screenshots at 1280 and
375 px are kept (seat-names-uk-1280.png, seat-names-uk-375.png)."""
from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from .conftest import shot
from .harness import UmpireServer, open_game, play_random

#: A seat's id as a word (the ids stay in addresses and data- attributes, which are not text).
IDS = re.compile(r"(?<![\w-])(?:rebel|imperial)(?:-\d)?(?![\w-])")


@pytest.fixture(scope="module")
def server() -> Iterator[UmpireServer]:
    """A server of this module's own: its lobby's first page holds this module's game (on the shared server the
    lobby lists every other module's games first, oldest first, and a page holds 50)."""
    with UmpireServer() as srv:
        yield srv


def _text(page, selector: str) -> str:
    return page.eval_on_selector_all(selector, "(els) => els.map((e) => e.innerText).join(' | ')")


def test_a_ukrainian_page_names_the_sides_as_the_rulebook_prints_them(server, contexts):
    gid, seats = play_random(server.url, "hoth", "PROP-SCN-BREACH-THE-TRENCHES", 6, seed=11, server_seed=f"{11:064x}")
    names = {e["id"]: e["seat_names"] for e in httpx.get(f"{server.url}/rulesets", params={"lang": "uk"}).json()}
    assert names["hoth"]["rebel"] == "Повстанці" and names["hoth"]["imperial"] == "Імперія"
    for width in (1280, 375):
        page = contexts.page(width=width, locale="uk-UA")
        page.goto(f"{server.url}/#/")
        page.evaluate("(t) => localStorage.setItem('umpire.tokens', JSON.stringify(t))", {gid: seats})
        page.goto(f"{server.url}/#/game/{gid}?seat=rebel")
        page.reload()  # the page starts on the game, in its language (as tests/web/test_language_screens.py)
        page.wait_for_selector("#board > svg", state="attached")
        page.wait_for_selector("#h-recent")
        page.wait_for_function("() => document.querySelector('#status')?.innerText.includes('Повстанці')")
        status = _text(page, "#status")
        assert "ви — Повстанці" in status, status
        picker = page.eval_on_selector_all("#seat-pick option", "(os) => os.map((o) => [o.value, o.textContent])")
        assert ["rebel", "Повстанці"] in picker and ["imperial", "Імперія"] in picker, picker
        recent = _text(page, ".recent")  # who did a step: its .who, or the summary that names the seat (by.in_summary)
        assert "Імперія" in recent or "Повстанці" in recent, recent
        for where, text in (("status", status), ("recent", recent), ("picker", " ".join(t for _, t in picker)),
                            ("hands", _text(page, ".hand-box")), ("head", _text(page, ".game-head"))):
            assert not IDS.search(text), (where, text)
        shot(page, f"seat-names-uk-{width}", full_page=True)
    # the lobby: this browser's seats, the game's play buttons and the new-game form name the sides too
    page.goto(f"{server.url}/#/")
    page.wait_for_selector(f"#games tr[data-game='{gid}']")
    page.select_option("#c-ruleset", "hoth")
    page.wait_for_selector("#c-keep option", state="attached")
    mine = _text(page, "#h-mine + ul")
    assert "Повстанці" in mine and "Імперія" in mine, mine
    row = _text(page, f"#games tr[data-game='{gid}']")
    assert "Грати: Повстанці" in row, row
    keep = page.eval_on_selector_all("#c-keep option", "(os) => os.map((o) => o.textContent)")
    assert "Я граю: Повстанці" in keep and "Я граю: Імперія" in keep, keep
    for where, text in (("mine", mine), ("row", row), ("keep", " ".join(keep)), ("bots", _text(page, "#c-bots"))):
        assert not IDS.search(text), (where, text)
    shot(page, "seat-names-uk-lobby-375", full_page=True)


#: A Clouds of Smoke seat's id as a word.
SMOKE_IDS = re.compile(r"(?<![\w-])player-\d(?![\w-])")


def test_a_ukrainian_smoke_page_names_the_players_in_the_rulesets_own_sentences(server, contexts):
    """Clouds of Smoke's own sentences on the page (the latest steps' summaries, the board picture's words and hover
    titles, the board in words, a ruling): Гравець 1, never ``player-1`` (domain/smoke/seat_words.py). Screenshots
    at 1280 and 375 px (seat-names-smoke-uk-1280.png, seat-names-smoke-uk-375.png)."""
    gid, seats = play_random(server.url, "smoke", "BTL-OPEN-FIELD", 30, seed=5, server_seed=f"{5:064x}")
    for width in (1280, 375):
        page = contexts.page(width=width, locale="uk-UA")
        open_game(page, server.url, gid, seats, "player-1")
        page.wait_for_function("() => document.querySelector('#board > svg')?.textContent.includes('Гравець 1')")
        svg = page.eval_on_selector("#board > svg", "(s) => [...s.querySelectorAll('text, title')].map((e) => e.textContent)")
        recent = page.eval_on_selector_all(".recent li", "(ls) => ls.map((l) => l.textContent)")
        board_text = page.eval_on_selector("#board-text", "(e) => e.textContent")
        assert any("Гравець 1" in t for t in svg), svg[:20]
        assert recent and any(re.search(r"Гравець \d", t) for t in recent), recent
        for where, texts in (("svg", svg), ("recent", recent), ("board text", [board_text]),
                             ("status", [_text(page, "#status")]), ("head", [_text(page, ".game-head")]),
                             ("side", [_text(page, ".hand-box")])):
            found = [t for t in texts if SMOKE_IDS.search(t)]
            assert found == [], (width, where, found[:5])
        shot(page, f"seat-names-smoke-uk-{width}", full_page=True)
    # a ruling in the replay: its summary and steps name the players too
    page.goto(f"{server.url}/#/game/{gid}?seat=player-1&tab=replay&at=12")
    page.wait_for_selector("#ruling[data-at] h3")
    ruling = page.eval_on_selector("#ruling", "(e) => e.textContent")
    timeline = page.eval_on_selector("#timeline", "(e) => e.textContent")
    assert not SMOKE_IDS.search(ruling) and not SMOKE_IDS.search(timeline), (ruling[:300], timeline[:300])
    assert "Гравець" in timeline, timeline[:500]
