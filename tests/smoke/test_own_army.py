"""Players' own armies (SMOKE-ARMY-1..6) through ``POST /games``: a battle deployed by columns takes each
seat's army list, checked by the content loader's own rules; every refusal names the field and the rule,
creates nothing; the lists chosen are the armies of the game (its reserve) and are kept in its header."""
from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings

ARMIES = Path(__file__).resolve().parents[2] / "scenarios" / "smoke" / "armies"


def _list(name: str) -> dict:
    raw = json.loads((ARMIES / name).read_text())
    return {k: raw[k] for k in ("name", "faction", "points", "commander", "units", "preparations")}


#: two 400-point lists built from the shipped 200-point ones (same size: SMOKE-ARMY-4)
KARL = {**_list("army-karl-200-a.json"), "points": 400}
VERTUMN = {**_list("army-vertumn-200-a.json"), "points": 400}


@pytest.fixture
def client(tmp_path, redis_url, redis_client) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    with TestClient(app) as c:
        yield c


def _create(client: TestClient, armies: dict, scenario: str = "BTL-OPEN-FIELD"):
    return client.post("/games", json={"ruleset": "smoke", "scenario": scenario, "options": {"armies": armies}})


def test_own_armies_are_the_armies_of_the_game_and_kept_in_its_header(client):
    small = {**KARL, "units": [{"profile": "line_infantry", "count": 3}, {"profile": "line_cavalry", "count": 1}]}
    r = _create(client, {"player-1": small, "player-2": VERTUMN})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    view = client.get(f"/games/{gid}").json()
    mine = [u for u in view["state"]["reserve"] if u["seat"] == "player-1"]
    assert sorted(u["profile"] for u in mine) == ["line_cavalry"] + ["line_infantry"] * 3
    theirs = [u for u in view["state"]["reserve"] if u["seat"] == "player-2"]
    assert len(theirs) == sum(e["count"] for e in VERTUMN["units"])
    first = client.get(f"/games/{gid}/events", params={"after": 0}).json()["events"][0]
    assert first["type"] == "game_created", first
    assert first["payload"]["options"]["armies"]["player-1"]["units"] == small["units"]  # recorded in the header


@pytest.mark.parametrize(("change", "field", "rule"), [
    (lambda a: a.update(points=100), "options.armies.player-1.points", "SMOKE-ARMY-4"),
    (lambda a: a.update(units=[{"profile": "line_infantry", "count": 1}, {"profile": "cuirassiers", "count": 2}]),
     "options.armies.player-1.units", "SMOKE-ARMY-2"),
    (lambda a: a.pop("commander"), "options.armies.player-1.commander", "SMOKE-ARMY-3"),
    (lambda a: a.update(commander=["mediocre", "competent"]), "options.armies.player-1.commander", "SMOKE-ARMY-3"),
    (lambda a: a.update(preparations=["PREP-FORT", "PREP-DEPLOY", "PREP-ADC"]), "options.armies.player-1.preparations",
     "SMOKE-ARMY-5"),
    (lambda a: a.update(units=[{"profile": "nope", "count": 1}]), "options.armies.player-1.units[0].profile", None),
])
def test_army_building_refusals_name_the_field_and_the_rule(client, change, field, rule):
    bad = copy.deepcopy(KARL)
    change(bad)
    before = client.get("/games").json()
    r = _create(client, {"player-1": bad, "player-2": VERTUMN})
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["field"] == field, problem
    if rule:
        assert rule in problem["detail"], problem
    assert client.get("/games").json() == before  # nothing created


def test_a_battle_that_places_its_units_fixes_its_armies(client):
    r = _create(client, {"player-1": KARL, "player-2": VERTUMN}, scenario="BTL-CROSSROADS")
    assert r.status_code == 422 and r.json()["field"] == "options.armies" and "SMOKE-ARMY-6" in r.json()["detail"]
    r = _create(client, {"player-1": KARL, "player-2": {**VERTUMN, "points": 600}})
    assert r.status_code == 422 and "SMOKE-ARMY-4" in r.json()["detail"], r.text
    r = _create(client, {"player-9": KARL})
    assert r.status_code == 422 and r.json()["field"] == "options.armies.player-9"


def test_armies_null_is_refused_as_the_schema_says(client):
    """``options.armies`` is an object (the options schema); ``null`` is bad input naming the field, never a
    game created as if the option were left out."""
    for bad in (None, {}, []):
        r = _create(client, bad, scenario="BTL-CROSSROADS")
        assert r.status_code == 422 and r.json()["field"] == "options.armies", r.text
    assert client.post("/games", json={"ruleset": "smoke", "scenario": "BTL-CROSSROADS"}).status_code == 201
