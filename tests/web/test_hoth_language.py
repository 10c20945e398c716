"""A Battle of Hoth game read in Ukrainian in the browser (issue 28): the replay's timeline and the
ruling of an attack in Ukrainian with the rulebook's printed unit names, and a seat's page with its
command labels in Ukrainian. Screenshots kept as artefacts (tests/web/artifacts/hoth-uk-*.png)."""
from __future__ import annotations

import re

import httpx

from .conftest import shot
from .harness import play_random

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
SCENARIO = "PROP-SCN-BREACH-THE-TRENCHES"


def _played(base: str, steps: int = 60, seed: int = 5) -> tuple[str, dict[str, str]]:
    return play_random(base, "hoth", SCENARIO, steps, seed)


def test_a_hoth_game_reads_in_ukrainian_in_the_browser(server, contexts):
    gid, seats = _played(server.url)
    page = contexts.page(locale="uk")
    page.goto(f"{server.url}/#/game/{gid}?tab=replay")
    page.wait_for_selector("#timeline li")
    page.wait_for_function("() => /[А-Яа-яІіЇї]/.test(document.querySelector('#timeline').textContent)")
    items = page.eval_on_selector_all("#timeline li", "ls => ls.map(l => l.textContent)")
    assert items and all(CYRILLIC.search(t) for t in items), items[:5]
    assert any("Снігові штурмовики (E" in t or "Солдати бази «Відлуння» (R" in t for t in items), items[:10]
    # an attack's ruling, step by step in Ukrainian
    steps = httpx.get(f"{server.url}/games/{gid}/timeline").json()["steps"]
    attack = next((s for s in steps if s["type"] == "attack_rolled"), None)
    if attack is not None:
        page.click(f"#timeline li[data-seq='{attack['seq']}'] button")
        page.wait_for_selector(f"#ruling[data-at='{attack['seq']}']")
        ruling = page.text_content("#ruling") or ""
        assert "Атака" in ruling or "атака" in ruling, ruling
    shot(page, "hoth-uk-replay", full_page=True)
    # a seat's page: the labels of its legal commands in Ukrainian
    v = httpx.get(f"{server.url}/games/{gid}").json()
    if v["status"] == "active" and v["to_act"]:
        seat = v["to_act"][0]
        page.evaluate("(t) => localStorage.setItem('umpire.tokens', JSON.stringify(t))", {gid: {seat: seats[seat]}})
        page.goto(f"{server.url}/#/game/{gid}?seat={seat}")
        page.wait_for_selector("#board svg [data-unit]")
        shot(page, "hoth-uk-seat", full_page=True)
