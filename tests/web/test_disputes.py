"""The dispute view of a replay step (DESIGN 6, 14) in the browser, on a finished game played under a rule
choice that is not the default: the step that depended on the choice shows the rules it applied with their
texts, the choices in force, its dice, the re-decision beside the record, and the step decided again under the
other option, which differs from the record. The game page's header and the timeline's first line show the
choices too. Screenshots at 1280 and 375 px."""
from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.hoth.choices import EWEB
from tests.hoth.choice_games import cites, store_scripted

from .conftest import shot
from .harness import UmpireServer


@pytest.fixture(scope="module")
def finished() -> Iterator[tuple[UmpireServer, str]]:
    """A server whose store holds the scripted finished game (E-Web re-rolls: all dice)."""
    with tempfile.TemporaryDirectory(prefix="umpire-disputes-") as tmp:
        game_id, _tokens = store_scripted(str(Path(tmp) / "data"))
        with UmpireServer(data_dir=Path(tmp)) as srv:
            yield srv, game_id


def _eweb_step(base: str, game_id: str) -> int:
    api = httpx.Client(base_url=base, timeout=30)
    for e in api.get(f"/games/{game_id}/events", params={"limit": 1000}).json()["events"]:
        if cites((e.get("private") or {}).get("ruling"), EWEB):
            return e["seq"]
    raise AssertionError("the scripted game has an E-Web attack")


@pytest.mark.parametrize("width", [1280, 375])
def test_dispute_view_shows_the_step_under_the_other_option(finished, contexts, width: int):
    srv, gid = finished
    seq = _eweb_step(srv.url, gid)
    page: Any = contexts.page(width=width, height=900)
    page.goto(f"{srv.url}/#/game/{gid}?tab=replay&at={seq}")
    page.wait_for_selector(f"#ruling[data-at='{seq}']")
    # the header names the choices in force; the timeline's first line too
    page.wait_for_selector("#game-choices")
    head = page.text_content("#game-choices")
    assert EWEB in head and "E-Web re-roll: all dice or none" in head and "not the default" in head  # words, ids beside
    page.wait_for_selector("#timeline li[data-seq='1']")
    assert f"E-Web re-roll: all dice or none ({EWEB} all)" in page.text_content("#timeline li[data-seq='1']")
    # open the dispute view of the E-Web step
    page.click("#dispute-details > summary")
    page.wait_for_selector("#dispute[data-ready='true']")
    box = page.locator("#dispute")
    text = box.text_content()
    assert "HOTH-SPECIAL-EWEB-6" in text and EWEB in text  # the rules it applied, with their texts
    assert "«" in text  # the choice's rule text quotes the originals
    assert f"E-Web re-roll: all dice or none ({EWEB} all) — this step depended on it" in page.text_content("#dispute-choices")
    assert "dice[" in text  # the dice with stream and index
    cols = page.locator("#dispute-grid .redecision")
    assert cols.count() == 3  # recorded, decided again now, under the other option
    again = cols.nth(1).text_content()
    assert "the same as the record" in again
    other = page.locator(f"#dispute-grid .redecision[data-choice='{EWEB}']")
    assert other.get_attribute("data-option") == "any" and other.get_attribute("data-same") == "false"
    assert "differs from the record" in other.text_content()
    assert f"Under E-Web re-roll: any dice ({EWEB} any; the game had all dice or none)" in other.text_content()
    assert f"under E-Web re-roll: any dice ({EWEB} any)" in other.text_content()
    # a rule link in the dispute view opens the rule's text
    page.click(f"#dispute a.rule[data-rule='{EWEB}'] >> nth=0")
    page.wait_for_selector("#rule-dialog[open]")
    page.wait_for_function("() => !document.querySelector('#rule-dialog').textContent.includes('Loading')")  # fetched
    assert "«" in page.text_content("#rule-dialog")
    page.keyboard.press("Escape")
    box.scroll_into_view_if_needed()
    # nothing wider than the screen at 375 px
    shot(page, f"dispute-{width}", full_page=True)
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1)
        .slice(0, 8).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1, wide


def test_the_lobby_creates_a_game_under_a_chosen_reading(server, contexts):
    """The create form's "Rule choices" lists each choice of the ruleset with its default; a changed one is sent
    and the game's header (the line under its title) shows it."""
    page: Any = contexts.page(width=375, height=900)
    page.goto(server.url + "/")
    page.wait_for_selector("#c-scenario option", state="attached")
    page.select_option("#c-ruleset", "hoth")
    page.wait_for_selector("#c-choices")
    page.click("#c-choices > summary")
    sel = f"#c-choice-{EWEB}"
    assert page.input_value(sel) == "any"  # the default
    page.select_option(sel, "all")
    shot(page, "lobby-choices-375", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    page.click("#c-submit")
    page.wait_for_selector(".created ul.seats li")
    game_id = page.locator(".created h3").text_content().split()[1]
    header = httpx.get(f"{server.url}/games/{game_id}/events", params={"limit": 1}).json()["events"][0]
    assert header["payload"]["choices"][EWEB] == "all"
    page.goto(f"{server.url}/#/game/{game_id}")
    page.wait_for_selector("#game-choices")
    assert f"E-Web re-roll: all dice or none ({EWEB} all) (not the default)" in page.text_content("#game-choices")
