"""Battle of Hoth's own sentences on the page (docs/seat-names.md): a Ukrainian reader who plays a support card reads,
in "Latest steps", the side once (the summary names it; the page adds no "who:" before it, ``by.in_summary``) and the
card by its printed Ukrainian name, never its id. Screenshots at 1280 and 375 px are kept (hoth-words-uk-1280.png,
hoth-words-uk-375.png)."""
from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from .conftest import shot
from .harness import AT_VERSION, UmpireServer

SCENARIO = "PROP-SCN-BREACH-THE-TRENCHES"
#: The Empire's support card (content 5.3, start of turn, no target): the Ukrainian printed name is the catalog's.
CARD, CARD_UK = "PROP-SUP-EMP-PROBE-INTEL", "Дані дроїдів-розвідників"
#: An id in the text: a card's or scenario's (capitals with hyphens) or a seat's.
IDS = re.compile(r"PROP-[A-Z-]+|(?<![\w-])(?:rebel|imperial)(?:-\d)?(?![\w-])")


@pytest.fixture(scope="module")
def server() -> Iterator[UmpireServer]:
    with UmpireServer() as srv:
        yield srv


def _first_turn_of_the_empire(base: str) -> tuple[str, dict[str, str], int]:
    """A game whose Empire holds Probe Intel, played to the Empire's first start of turn (the Rebels' first turn
    ended at once when they play first). Returns (game id, seat tokens, version)."""
    api = httpx.Client(base_url=base, timeout=60)
    r = api.post("/games", json={"ruleset": "hoth", "scenario": SCENARIO, "seed": f"{21:064x}",
                                 "options": {"support": {"imperial": [CARD]}}})
    assert r.status_code == 201, r.text
    gid, seats = r.json()["game_id"], r.json()["seats"]
    for _ in range(12):
        v = api.get(f"/games/{gid}").json()
        seat = v["to_act"][0]
        auth = {"Authorization": f"Bearer {seats[seat]}"}
        legal = api.get(f"/games/{gid}/legal-commands", headers=auth).json()
        if seat == "imperial" and any(c["type"] == "play_support" and c["card"] == CARD for c in legal["commands"]):
            return gid, seats, legal["version"]
        # the Rebels end each step at once; so does the Empire until its support card is offered
        ends = [c for c in legal["commands"] if c["type"] in ("end_orders", "end_moves", "end_turn", "pass_support")]
        cmd = ends[0] if ends else legal["commands"][0]
        r = api.post(f"/games/{gid}/commands", headers=auth, json={"command": cmd, "expected_version": legal["version"]})
        assert r.status_code == 201, r.text
    raise AssertionError("the Empire was never offered its support card")


def test_latest_steps_name_the_side_once_and_the_support_card_by_its_printed_name(server, contexts):
    gid, seats, version = _first_turn_of_the_empire(server.url)
    for n, width in enumerate((1280, 375)):
        page = contexts.page(width=width, locale="uk-UA")
        page.goto(f"{server.url}/#/")
        page.evaluate("(t) => localStorage.setItem('umpire.tokens', JSON.stringify(t))", {gid: seats})
        page.goto(f"{server.url}/#/game/{gid}?seat=imperial")
        page.reload()
        page.wait_for_function(AT_VERSION, arg=version)
        if n == 0:  # played once, from the page: the hand's support card, in Ukrainian
            button = page.locator(f".hand li.card[data-card='{CARD}'] button")
            assert CARD_UK in button.inner_text(), button.inner_text()
            button.click()
            page.wait_for_function(AT_VERSION, arg=version + 1)
        page.wait_for_function("(c) => document.querySelector('.recent')?.innerText.includes(c)", arg=CARD_UK)
        lines = page.eval_on_selector_all(".recent li", "(ls) => ls.map((l) => l.innerText)")
        played = [ln for ln in lines if CARD_UK in ln]
        assert len(played) == 1, lines
        # the side once: "Імперія: зіграно карту підтримки Дані дроїдів-розвідників", no "Імперія: Імперія: ..."
        assert played[0].count("Імперія") == 1 and played[0].startswith("Імперія: "), played[0]
        assert "зіграно карту підтримки" in played[0], played[0]
        assert not any(ln.count("Імперія") > 1 or ln.count("Повстанці") > 1 for ln in lines), lines
        # who did a step is still said where the summary does not name the seat (a referee's step, a unit's move)
        assert page.locator(".recent li .who").count() >= 1
        assert not IDS.search(" ".join(lines)), lines
        shot(page, f"hoth-words-uk-{width}", full_page=True)
    # the timeline says so in data, the same for every reader: the support step's seat is in its summary
    steps = httpx.get(f"{server.url}/games/{gid}/timeline", params={"lang": "uk"}).json()["steps"]
    step = next(s for s in steps if s["type"] == "support_played")
    # the replay's list of every step and the step's heading say the side once too (no "від Імперія" beside it)
    page.goto(f"{server.url}/#/game/{gid}?seat=imperial&tab=replay&at={step['seq']}")
    page.wait_for_function("(s) => document.querySelector(`#timeline li[data-seq='${s}']`)", arg=str(step["seq"]))
    line = page.inner_text(f"#timeline li[data-seq='{step['seq']}']")
    assert line.count("Імперія") == 1 and CARD_UK in line and not IDS.search(line), line
    page.wait_for_function("(c) => document.querySelector('#ruling h3')?.innerText.includes(c)", arg=CARD_UK)
    ruling = page.inner_text("#ruling")
    assert ruling.split("\n")[0].count("Імперія") == 1 and "від Імперія" not in ruling, ruling
    # the ruling's values name the card by its printed name too (``values_named``; old: "card PROP-SUP-EMP-...")
    assert CARD_UK in ruling.split("HOTH-", 1)[-1] and not re.search(r"PROP-[A-Z-]+", ruling), ruling
    shot(page, "hoth-words-uk-replay-375", full_page=True)
    assert step["by"]["seat"] == "imperial" and step["by"].get("in_summary") is True, step
    assert step["summary"] == f"Імперія: зіграно карту підтримки {CARD_UK}", step
    en = httpx.get(f"{server.url}/games/{gid}/timeline").json()["steps"]
    assert next(s for s in en if s["seq"] == step["seq"])["summary"] == "the Empire: support card Probe Intel played"
    referee = [s for s in steps if s["by"]["kind"] == "referee"]
    assert referee and not any(s["by"].get("in_summary") for s in referee)
