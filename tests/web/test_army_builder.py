"""The lobby's army builder for Clouds of Smoke (SMOKE-ARMY-1..5): two armies built in the lobby with the
points, the limits and each unit's profile shown as units are added; every army-building refusal (over
the points, more rare than core, too many preparations) shown with its rule and keeping the game from being
created; then the game created from the two lists (recorded in its header, its reserve made of them) and
played through both seats' pages by board interactions to its first moves. Debian's Chromium, a real
``umpire serve``."""
from __future__ import annotations

from typing import Any

import httpx

from .conftest import shot
from .test_axe import AXE, RUN_AXE
from .test_smoke_game import Table


def _axe_serious(page: Any) -> list[dict]:
    """axe-core's serious or critical violations on the page as it is now (tests/web/test_axe.py)."""
    assert AXE.exists(), f"axe-core is missing ({AXE}): run ops/ensure-axe"
    page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in ("serious", "critical")]


def _add(page: Any, seat: str, profile: str, times: int = 1) -> None:
    page.select_option(f"#ab-{seat}-unit", profile)
    for _ in range(times):
        page.click(f"#ab-{seat}-add")


def _problems(page: Any, seat: str) -> list[str]:
    return [li.get_attribute("data-rule") for li in page.locator(f"#ab-{seat} .army-problems li").all()]


def test_two_armies_built_in_the_lobby_then_played(server, contexts):
    # the service's CSP (script-src 'self') forbids axe-core's injected script: these pages bypass it
    page = contexts.page(height=1200, bypass_csp=True)
    page.goto(server.url + "/")
    page.wait_for_selector("#c-scenario option", state="attached")
    page.select_option("#c-ruleset", "smoke")
    page.select_option("#c-scenario", "s:BTL-OPEN-FIELD")
    page.check("#ab-on")
    page.select_option("#ab-player-1-faction", "FAC-KARL")
    page.select_option("#ab-player-2-faction", "FAC-VERTUMN")
    # a unit added shows its profile card: cost, speed, weapons, discipline, traits
    _add(page, "player-1", "line_infantry", 3)
    card = page.locator("#ab-player-1-profile").text_content()
    assert "Line infantry" in card and "16 points" in card and "Musket" in card and "Discipline" in card
    assert "3 × Line infantry" in page.locator("#ab-player-1 .army-units").text_content()
    # more rare than core: SMOKE-ARMY-2, and the game cannot be created
    _add(page, "player-1", "light_artillery", 4)
    assert "SMOKE-ARMY-2" in _problems(page, "player-1")
    shot(page, "army-builder-refusal-1280", full_page=True)
    games_before = httpx.get(f"{server.url}/games").json()
    page.select_option("#c-keep", "all")
    page.click("#c-submit")
    assert "break a rule" in page.locator("#create > p.error").text_content()
    assert httpx.get(f"{server.url}/games").json() == games_before
    for _ in range(2):
        page.click('#ab-player-1 .army-units li[data-profile="light_artillery"] button')
    assert "SMOKE-ARMY-2" not in _problems(page, "player-1")
    # too many preparations for 400 points (at most 2): SMOKE-ARMY-5
    for prep in ("PREP-FORT", "PREP-DEPLOY", "PREP-ADC"):
        page.select_option("#ab-player-1-prep", prep)
        page.click("#ab-player-1-add-prep")
    assert "SMOKE-ARMY-5" in _problems(page, "player-1")
    page.click("#ab-player-1 .army-preps li:last-child button")
    assert _problems(page, "player-1") == []
    # over the agreed points: SMOKE-ARMY-4 (the size is agreed for both armies)
    page.fill("#ab-points", "100")
    page.dispatch_event("#ab-points", "change")
    assert "SMOKE-ARMY-4" in _problems(page, "player-1")
    page.fill("#ab-points", "400")
    page.dispatch_event("#ab-points", "change")
    assert _problems(page, "player-1") == []
    totals = page.locator("#ab-player-1-totals").text_content()
    assert "of 400 points" in totals and "preparations 2 of 2" in totals
    _add(page, "player-2", "pikemen", 2)
    _add(page, "player-2", "mercenary_musketeers", 2)
    _add(page, "player-2", "lancers", 1)
    assert _problems(page, "player-2") == []
    shot(page, "army-builder-1280", full_page=True)
    assert _axe_serious(page) == []  # the builder, open and filled in
    page.click("#c-submit")
    page.wait_for_selector(".created h3")
    gid = page.locator(".created h3").text_content().split()[1]
    tokens = page.evaluate("() => JSON.parse(localStorage.getItem('umpire.tokens') || '{}')")[gid]
    first = httpx.get(f"{server.url}/games/{gid}/events", params={"after": 0}).json()["events"][0]
    armies = first["payload"]["options"]["armies"]
    assert armies["player-1"]["units"] == [{"profile": "line_infantry", "count": 3}, {"profile": "light_artillery", "count": 2}]
    assert armies["player-1"]["preparations"] == ["PREP-FORT", "PREP-DEPLOY"]
    reserve = httpx.get(f"{server.url}/games/{gid}").json()["state"]["reserve"]
    assert sorted(u["profile"] for u in reserve if u["seat"] == "player-2") == ["lancers"] + ["mercenary_musketeers"] * 2 + ["pikemen"] * 2

    # the game from these lists, both seats through their pages, by board interactions
    t = Table(server, contexts, "BTL-OPEN-FIELD", game=(gid, tokens), bypass_csp=True)
    try:
        first_place = True
        checked = False
        for _ in range(200):
            if "move" in t.done or httpx.get(f"{server.url}/games/{gid}").json()["status"] == "finished":
                break
            seat = t.step(first_place)
            if not checked and t.done[-1] == "place_terrain":  # a piece being placed: its zone, ghost, stand-in
                t.pages[seat].wait_for_selector("#board .smoke-ghost")
                assert _axe_serious(t.pages[seat]) == []
                checked = True
            if getattr(t, "refused_shown", False):
                first_place = False
        assert {"place_terrain", "place_column", "deploy_unit", "place_die", "activate", "move"} <= set(t.done), t.done
        assert checked
        for p in t.pages.values():
            assert p.evaluate("window.__generic") == []
        shot(t.pages["player-1"], "army-builder-game-1280", full_page=True)
    finally:
        t.close()
    contexts.watch.errors[:] = [e for e in contexts.watch.errors if "422" not in e]
