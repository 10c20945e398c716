"""The lobby's army builder for Clouds of Smoke (SMOKE-ARMY-1..5): two armies built in the lobby with the
points, the limits and each unit's profile shown as units are added; every army-building refusal (over
the points, more rare than core, too many preparations) shown with its rule and keeping the game from being
created; then the game created from the two lists (recorded in its header, its reserve made of them) and
played through both seats' pages by board interactions to its first moves. Debian's Chromium, a real
``umpire serve``."""
from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bots.smoke import _Field, _score

from .conftest import shot
from .harness import AT_VERSION, UmpireServer
from .test_axe import AXE, RUN_AXE
from .test_smoke_game import Table

#: A seed whose action dice roll few sixes early (SMOKE-PHASE-2): the phases, and so the game (GAP-B-09), last
#: long enough for the armies to meet; the dice do not depend on the moves. The game id is mixed into every
#: roll too (DESIGN 4), so this module's server counts its game ids (tests/web/counted_ids.py): the course of
#: the dice is the same on every run.
SEED = "37" * 32


@pytest.fixture(scope="module")
def server() -> Iterator[UmpireServer]:
    """This module's own ``umpire serve``, with counted game ids (the shared one has random ids)."""
    root = str(Path(__file__).resolve().parents[2])
    with UmpireServer(command=[sys.executable, "-m", "tests.web.counted_ids"], env={"PYTHONPATH": root}) as srv:
        yield srv


def _axe_serious(page: Any) -> list[dict]:
    """axe-core's serious or critical violations on the page as it is now (tests/web/test_axe.py)."""
    assert AXE.exists(), f"axe-core is missing ({AXE}): run ops/ensure-axe"
    page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in ("serious", "critical")]


def _count(page: Any, seat: str, profile: str) -> int:
    li = page.locator(f'#ab-{seat} .army-units li[data-profile="{profile}"]')
    return int(li.text_content().split(" × ")[0]) if li.count() else 0


def _add(page: Any, seat: str, profile: str, times: int = 1) -> None:
    page.select_option(f"#ab-{seat}-unit", profile)
    for _ in range(times):
        n = _count(page, seat, profile)
        page.click(f"#ab-{seat}-add")  # the seat's box is drawn again: the next click waits for it
        page.wait_for_function("([sel, n]) => { const li = document.querySelector(sel); return li && parseInt(li.textContent) === n; }",
                               arg=[f'#ab-{seat} .army-units li[data-profile="{profile}"]', n + 1])


def _problems(page: Any, seat: str) -> list[str]:
    return [li.get_attribute("data-rule") for li in page.locator(f"#ab-{seat} .army-problems li").all()]


def _built(page: Any, seat: str) -> dict[str, Any]:
    """The list as the builder shows it: name, faction, points, commander, units (in order) and preparations."""
    units = []
    for li in page.locator(f"#ab-{seat} .army-units li").all():
        units.append({"profile": li.get_attribute("data-profile"), "count": int(li.text_content().split(" × ")[0])})
    preps = [o.get_attribute("value") for o in page.locator(f"#ab-{seat}-prep option").all()]
    names = {page.locator(f'#ab-{seat}-prep option[value="{p}"]').text_content().split(" (")[0]: p for p in preps}
    chosen = [names[li.text_content().rsplit(" ", 1)[0].strip()] for li in page.locator(f"#ab-{seat} .army-preps li").all()]
    return {"name": f"Player {seat.rsplit('-', 1)[1]}'s army", "faction": page.locator(f"#ab-{seat}-faction").input_value(),
            "points": int(page.locator("#ab-points").input_value()), "commander": page.locator(f"#ab-{seat}-commander").input_value(),
            "units": units, "preparations": chosen}


def _steer(view: dict[str, Any], seat: str, legal: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The commands to try, best first: the greedy bot's choice (bots/smoke), except that the highest die goes
    on March while the armies are apart, then on Order (activations, not rides), and a unit moves straight at the nearest enemy as far as it may
    (the greedy bot keeps to the engine's straight-ahead examples and seldom meets the enemy before the end)."""
    f = _Field(view["state"], seat)
    cmds = legal["commands"]
    greedy = cmds[max((_score(f, c)[0], rng.random(), i) for i, c in enumerate(cmds))[2]]
    near = min((math.hypot(e["x"] - u["x"], e["y"] - u["y"]) for i, u in f.units.items() if i in f.mine
                for e in f.enemies), default=0.0)
    for slot in (("A3", "A1") if near > 3.5 else ("A1",)):  # March (+1 simple speed) while no enemy is near
        order = [c for c in cmds if c["type"] == "place_die" and c["slot"] == slot]
        if order:
            return [max(order, key=lambda c: f.dice[c["die"]]), greedy]
    out = []
    for t in legal["templates"]:
        c = t["command"]
        if c.get("type") != "move" or c.get("kind") != "simple" or not f.enemies:
            continue
        u = f.units[c["unit"]]
        e = min(f.enemies, key=lambda e: math.hypot(e["x"] - u["x"], e["y"] - u["y"]))
        gap = math.hypot(e["x"] - u["x"], e["y"] - u["y"])
        facing = round(math.degrees(math.atan2(e["y"] - u["y"], e["x"] - u["x"])) % 360, 3)
        top = min(t["bounds"]["distance"]["max"], max(0.0, gap - 1.0))
        out += [{**c, "facing": facing, "distance": round(top * k, 3)} for k in (1.0, 0.75, 0.5, 0.25)]
    return out + [greedy]


def _play_to_first_battle(base: str, gid: str, tokens: dict[str, str], limit: int = 600) -> dict[str, Any]:
    """Both seats through the REST API (their own tokens, views and legal commands) until a battle starts
    (SMOKE-BAT): its event."""
    http = {s: httpx.Client(base_url=base, headers={"authorization": f"Bearer {t}"}, timeout=30) for s, t in tokens.items()}
    rng = random.Random(7)
    seen = 0
    try:
        for _ in range(limit):
            evs = http["player-1"].get(f"/games/{gid}/events", params={"after": seen}).json()["events"]
            battle = next((e for e in evs if e["type"] == "battle_started"), None)
            if battle is not None:
                return battle
            seen = evs[-1]["seq"] if evs else seen
            status = httpx.get(f"{base}/games/{gid}").json()
            assert status["status"] != "finished", f"the game ended before any battle: {status['state'].get('result')}"
            seat = (status.get("to_act") or [status.get("active_seat")])[0]
            view = http[seat].get(f"/games/{gid}").json()
            legal = http[seat].get(f"/games/{gid}/legal-commands").json()
            for cmd in _steer(view, seat, legal, rng):
                r = http[seat].post(f"/games/{gid}/commands", json={"command": cmd, "expected_version": legal["version"]})
                if r.status_code == 201:
                    break
                assert r.status_code == 422, r.text  # a pose the rules refuse: the next one
            else:
                raise AssertionError(f"no command of {seat} was taken: {legal['commands'][:3]}")
        raise AssertionError(f"no battle in {limit} commands")
    finally:
        for c in http.values():
            c.close()


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
    _add(page, "player-1", "line_cavalry")  # traits in words, never as field names
    assert "_" not in page.locator("#ab-player-1-profile").text_content()
    page.click('#ab-player-1 .army-units li[data-profile="line_cavalry"] button')
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
    assert "SMOKE-ARMY-5" in page.locator("#ab-player-1 .army-problems").text_content()
    page.click("#c-submit")
    assert "break a rule" in page.locator("#create > p.error").text_content()
    assert httpx.get(f"{server.url}/games").json() == games_before
    page.click("#ab-player-1 .army-preps li:last-child button")
    assert _problems(page, "player-1") == []
    # no commander (one select: never two): SMOKE-ARMY-3, and the game cannot be created
    page.select_option("#ab-player-1-commander", "")
    assert _problems(page, "player-1") == ["SMOKE-ARMY-3"]
    assert "SMOKE-ARMY-3" in page.locator("#ab-player-1 .army-problems").text_content()
    page.click("#c-submit")
    assert "break a rule" in page.locator("#create > p.error").text_content()
    assert httpx.get(f"{server.url}/games").json() == games_before
    page.select_option("#ab-player-1-commander", "mediocre")
    assert _problems(page, "player-1") == []
    # over the agreed points: SMOKE-ARMY-4 (the size is agreed for both armies)
    page.fill("#ab-points", "100")
    page.dispatch_event("#ab-points", "change")
    assert "SMOKE-ARMY-4" in _problems(page, "player-1")
    assert "SMOKE-ARMY-4" in page.locator("#ab-player-1 .army-problems").text_content()
    page.click("#c-submit")
    assert "break a rule" in page.locator("#create > p.error").text_content()
    assert httpx.get(f"{server.url}/games").json() == games_before
    page.fill("#ab-points", "400")
    page.dispatch_event("#ab-points", "change")
    assert _problems(page, "player-1") == []
    totals = page.locator("#ab-player-1-totals").text_content()
    assert "of 400 points" in totals and "preparations 2 of 2" in totals
    _add(page, "player-2", "pikemen", 2)
    _add(page, "player-2", "mercenary_musketeers", 2)
    _add(page, "player-2", "lancers", 1)
    assert _problems(page, "player-2") == []
    assert page.locator("#create > p.error").text_content() == ""  # the refusal goes once both lists are fixed
    shot(page, "army-builder-1280", full_page=True)
    assert _axe_serious(page) == []  # the builder, open and filled in
    built = {seat: _built(page, seat) for seat in ("player-1", "player-2")}
    page.click("#create > details > summary")
    page.fill("#c-seed", SEED)  # a reproducible game
    page.click("#c-submit")
    page.wait_for_selector(".created h3")
    gid = page.locator(".created h3").text_content().split()[1]
    tokens = page.evaluate("() => JSON.parse(localStorage.getItem('umpire.tokens') || '{}')")[gid]
    first = httpx.get(f"{server.url}/games/{gid}/events", params={"after": 0}).json()["events"][0]
    armies = first["payload"]["options"]["armies"]
    assert armies == built  # the game's header records the two lists as built in the lobby
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
        # then on to the first battle, the moves through the public API (steered at the enemy)
        battle = _play_to_first_battle(server.url, gid, tokens)
        assert battle["type"] == "battle_started" and battle["payload"]["units"]
        units = {u["id"]: u for u in httpx.get(f"{server.url}/games/{gid}").json()["state"]["units"]}
        fighting = {units[u]["seat"] for u in battle["payload"]["units"] if u in units}
        assert fighting == {"player-1", "player-2"}, battle  # units of both built armies meet
        for s, p in t.pages.items():  # each seat's page shows the battle
            p.wait_for_function(AT_VERSION, arg=battle["seq"], timeout=30_000)
            p.wait_for_function("m => document.querySelector('#panel-play').innerText.includes('battle of ' + m)",
                                arg=battle["payload"]["markers"][0], timeout=30_000)  # in the latest steps
            shot(p, f"army-builder-battle-{s}-1280", full_page=True)
    finally:
        t.close()
    contexts.watch.errors[:] = [e for e in contexts.watch.errors if "422" not in e]
