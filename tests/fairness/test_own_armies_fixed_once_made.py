"""Attack on the Smoke army builder (SMOKE-ARMY-1..6, ``options.armies`` in ``POST /games``): a player who has
seen the other army wants to change its own (or the other's) before the battle. The lists are fixed when the
game is created and recorded in its header; no later request -- a claim of an invited seat, ``ready`` of a
``when_ready`` game, a command, a dry run -- may carry or change an army. After every attempt the header's lists
and the reserve are exactly the ones the game was created with (the check compares both, so it can fail).

Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings

ARMIES = Path(__file__).resolve().parents[2] / "scenarios" / "smoke" / "armies"


def _list(name: str) -> dict:
    raw = json.loads((ARMIES / name).read_text())
    return {k: raw[k] for k in ("name", "faction", "points", "commander", "units", "preparations")}


KARL = {**_list("army-karl-200-a.json"), "points": 400}
VERTUMN = {**_list("army-vertumn-200-a.json"), "points": 400}
#: what player-2 would rather bring once it has seen player-1's army
BETTER = {**VERTUMN, "units": [{"profile": "pikemen", "count": 2}, {"profile": "lancers", "count": 1}]}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def _armies(c: TestClient, gid: str) -> tuple[dict, list]:
    header = c.get(f"/games/{gid}/events", params={"after": 0, "limit": 1}).json()["events"][0]["payload"]
    reserve = sorted((u["seat"], u["profile"]) for u in c.get(f"/games/{gid}").json()["state"].get("reserve", []))
    return header["options"]["armies"], reserve


def test_no_request_after_the_game_is_made_changes_an_army(client):
    c = client
    r = c.post("/games", json={"ruleset": "smoke", "scenario": "BTL-OPEN-FIELD", "start": "when_ready",
                               "seating": "invitations", "keep": ["player-1"],
                               "options": {"armies": {"player-1": KARL, "player-2": VERTUMN}}})
    assert r.status_code == 201, r.text
    g = r.json()
    gid, p1 = g["game_id"], g["seats"]["player-1"]
    made = _armies(c, gid)
    assert made[0] == {"player-1": KARL, "player-2": VERTUMN}

    # the invited player claims its seat, and tries to bring its own list with the claim
    claim = c.post(f"/games/{gid}/seats/player-2/claim",
                   json={"invitation": g["invitations"]["player-2"], "options": {"armies": {"player-2": BETTER}}})
    assert claim.status_code == 400, claim.text
    claim = c.post(f"/games/{gid}/seats/player-2/claim", json={"invitation": g["invitations"]["player-2"]})
    assert claim.status_code == 201, claim.text
    p2 = claim.json()["token"]
    h2 = {"Authorization": f"Bearer {p2}"}

    attempts = [
        c.post(f"/games/{gid}/ready", json={"client_seed": "s2", "armies": {"player-2": BETTER}}, headers=h2),
        c.post(f"/games/{gid}/ready", json={"client_seed": "s2", "options": {"armies": {"player-2": BETTER}}},
               headers=h2),
    ]
    for r in attempts:
        assert r.status_code == 400, r.text
    version = c.get(f"/games/{gid}").json()["version"]
    for params in ({}, {"dry_run": "true"}):
        for cmd in ({"type": "armies", "armies": {"player-2": BETTER}}, {"type": "set_army", "army": BETTER},
                    {"type": "ready", "client_seed": "s2", "armies": {"player-2": BETTER}}):
            r = c.post(f"/games/{gid}/commands", params=params, headers=h2,
                       json={"command": cmd, "expected_version": version})
            assert r.status_code in (400, 422), (cmd, params, r.status_code, r.text)
    assert _armies(c, gid) == made

    # both seats ready: the game opens with the armies it was made with
    for tok, seed in ((p1, "s1"), (p2, "s2")):
        assert c.post(f"/games/{gid}/ready", json={"client_seed": seed},
                      headers={"Authorization": f"Bearer {tok}"}).status_code == 201
    armies, reserve = _armies(c, gid)
    assert armies == made[0]
    assert sum(1 for seat, _ in reserve if seat == "player-2") == sum(e["count"] for e in VERTUMN["units"])
    assert sum(1 for seat, _ in reserve if seat == "player-2") != sum(e["count"] for e in BETTER["units"])
