"""The Emperor's automaton named once on the page (docs/seat-names.md): after the human ends two turns, the Emperor's
own lines in "Latest steps" and the replay's step list read "the Emperor refreshes", "the Emperor's order step MOVE",
never "the Emperor (automaton): the Emperor ..." (its summaries pass the side's name as ``{emperor}``, so
``by.in_summary`` is set), and a warrior by its name alone. In English and Ukrainian; screenshots at 1280 and 375 px (emperor-words-*.png)."""
from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from .conftest import shot
from .harness import AT_VERSION, UmpireServer

SETUP = "SETUP-AKHENA-VS-REBEL"
#: The Emperor as each language's page names it (its rulebook's Імператор).
EMPEROR = {"en-GB": "the Emperor", "uk-UA": "Імператор"}
#: How long a page may take to show a game on a machine shared with other test workers (not a timing assert).
WAIT = 90_000
#: A warrior's id beside its name (the setup's warriors: Akhena, Rebel, Sparrow).
WARRIOR_ID = re.compile(r"\((?:akhena|rebel|sparrow)\)")


@pytest.fixture(scope="module")
def server() -> Iterator[UmpireServer]:
    with UmpireServer() as srv:
        yield srv


def _two_emperor_turns(base: str) -> tuple[str, str, int]:
    """A game whose human ended its turn twice (the Emperor played in between); (game id, token, version)."""
    api = httpx.Client(base_url=base, timeout=60)
    r = api.post("/games", json={"ruleset": "emperor", "scenario": SETUP, "seed": f"{5:064x}"})
    assert r.status_code == 201, r.text
    gid, tok = r.json()["game_id"], r.json()["seats"]["human"]
    auth = {"Authorization": f"Bearer {tok}"}
    ended = 0
    for _ in range(20):
        legal = api.get(f"/games/{gid}/legal-commands", headers=auth).json()
        if ended == 2 or not legal["commands"]:
            return gid, tok, legal["version"]
        cmd = next((c for c in legal["commands"] if c["type"] == "end_turn"), legal["commands"][0])
        ended += cmd["type"] == "end_turn"
        r = api.post(f"/games/{gid}/commands", headers=auth, json={"command": cmd, "expected_version": legal["version"]})
        assert r.status_code == 201, r.text
    raise AssertionError("the human never ended two turns")


def test_the_emperors_lines_name_it_once(server, contexts):
    gid, tok, version = _two_emperor_turns(server.url)
    for locale, name in EMPEROR.items():
        for width in (1280, 375):
            page = contexts.page(width=width, locale=locale)
            page.goto(f"{server.url}/#/")
            page.evaluate("(t) => localStorage.setItem('umpire.tokens', JSON.stringify(t))", {gid: {"human": tok}})
            page.goto(f"{server.url}/#/game/{gid}?seat=human")
            page.reload()
            page.wait_for_function(AT_VERSION, arg=version, timeout=WAIT)
            page.wait_for_function("(n) => document.querySelector('.recent')?.innerText.includes(n)", arg=name,
                                   timeout=WAIT)
            lines = page.eval_on_selector_all(".recent li", "(ls) => ls.map((l) => l.innerText)")
            said = [ln for ln in lines if name in ln]
            assert said, lines
            assert all(ln.count(name) == 1 for ln in said), said  # old: "the Emperor (automaton): the Emperor ..."
            # a warrior by its name alone (old, in Ukrainian: "Бунтар (rebel)")
            assert not WARRIOR_ID.search(" ".join(lines)), lines
            shot(page, f"emperor-words-{locale[:2]}-{width}", full_page=True)
            page.close()
    # the replay's list of every step says it once too
    page = contexts.page(width=375, locale="uk-UA")
    page.goto(f"{server.url}/#/")
    page.evaluate("(t) => localStorage.setItem('umpire.tokens', JSON.stringify(t))", {gid: {"human": tok}})
    page.goto(f"{server.url}/#/game/{gid}?seat=human&tab=replay&at=8")
    page.reload()  # the same document: a hash change alone can land before the page routes (it then shows the lobby)
    page.wait_for_function("() => document.querySelectorAll('#timeline li').length > 20", timeout=WAIT)
    items = page.eval_on_selector_all("#timeline li", "(ls) => ls.map((l) => l.innerText)")
    # the automaton's lines (the referee's first line names the setup and the rule choices, "…Бунтаря Імператора…")
    emperor = [ln for ln in items if "Імператор" in ln and "суддя:" not in ln]
    assert len(emperor) >= 6 and all(ln.count("Імператор") == 1 for ln in emperor), emperor
    assert any("Імператор: крок наказу" in ln for ln in items), items
    shot(page, "emperor-words-uk-replay-375", full_page=True)
