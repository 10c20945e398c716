"""The REST contract basics (DESIGN section 8) on the toy ruleset."""
from __future__ import annotations

import hashlib

from .api_client import SEED, Api, api  # noqa: F401


def test_health_and_rulesets(api: Api):
    r = api.get("/health")
    assert r.status_code == 200
    assert r.json()["status"] == "ok" and r.json()["store"] == "ok"
    rs = {x["id"]: x for x in api.get("/rulesets").json()}
    assert rs["toy"]["scenarios"] == [{"id": "duel", "title": "A duel", "seats": ["north", "south"]}]


def test_create_game_gives_tokens_version_and_commitment(api: Api):
    g = api.create()
    assert set(g["seats"]) == {"north", "south"}
    assert g["version"] == 5  # the game_created header, two shuffles, two hands
    assert g["seed_commitment"] == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    v = api.view(g["game_id"], g["seats"]["north"])
    assert v["version"] == 5 and v["status"] == "active" and v["active_seat"] == "north"
    assert len(v["state"]["hand"]) == 3 and all(c.startswith("N") for c in v["state"]["hand"])
    lobby = api.get("/games", status="active").json()["games"]
    assert [x["game_id"] for x in lobby] == [g["game_id"]]
