"""Campaigns: seats claimed by invitation act in every battle, and a chosen seed is visible (DESIGN 4, 3).

Audit finding 6: ``POST /campaigns`` with ``"seed"`` left no trace (no ``seed_given`` anywhere) while every
battle said ``seed_given: true`` whether or not the campaign's seed was chosen (battles always get a derived
seed). Now the campaign's stream records a chosen seed (``seed_chosen``), ``/campaigns/{id}`` and its
``/verify`` say ``seed_given``, and each battle's header follows the campaign's. Finding 5 for campaigns:
``"seating": "invitations"`` works there too, the claimed token acts in every battle. Real app, real SQLite
file and a real PostgreSQL.
"""
from __future__ import annotations

import pytest


from .api_client import assert_problem
from .api_client import both_stores as client  # noqa: F401  (the app on SQLite and on PostgreSQL)

SEED = "5a" * 32
CAMPAIGN = "CMP-2-OUTPOST-DELTA"


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def _seat_of(client, gid, token):
    r = client.get(f"/games/{gid}/legal-commands", headers=auth(token))
    return r.json()["seat"] if r.status_code == 200 else r.status_code


@pytest.mark.parametrize("chosen", [True, False])
def test_a_chosen_campaign_seed_is_visible_and_only_then(client, chosen):
    body = {"ruleset": "hoth", "campaign": CAMPAIGN} | ({"seed": SEED} if chosen else {})
    c = client.post("/campaigns", json=body).json()
    assert c["seed_given"] is chosen
    assert client.get(f"/campaigns/{c['campaign_id']}").json()["seed_given"] is chosen
    assert client.get(f"/campaigns/{c['campaign_id']}/verify").json()["seed_given"] is chosen
    battle = client.get(f"/games/{c['game_id']}/verify").json()
    assert battle["seed_given"] is chosen  # the battle's seed is derived from the campaign's
    header = client.get(f"/games/{c['game_id']}/events", params={"limit": 1}).json()["events"][0]
    assert header["type"] == "game_created" and header["payload"]["seed_given"] is chosen


def test_a_campaign_seat_claimed_by_invitation_acts_in_its_battles(client):
    c = client.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seating": "invitations",
                                        "keep": ["imperial"]}).json()
    cid, gid = c["campaign_id"], c["game_id"]
    assert list(c["seats"]) == ["imperial"] and list(c["invitations"]) == ["rebel"]
    code = c["invitations"]["rebel"]
    # the battle says how its seats are held; nobody holds rebel yet
    assert client.get(f"/games/{gid}/verify").json()["seats"]["rebel"]["claimed"] == "unclaimed"
    assert _seat_of(client, gid, code) == 401
    # a battle's seat is claimed on its campaign
    assert_problem(client.post(f"/games/{gid}/seats/rebel/claim", json={"invitation": code}), 409,
                   rule="UMPIRE-SEAT-3")
    r = client.post(f"/campaigns/{cid}/seats/rebel/claim", json={"invitation": code})
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    assert r.json()["game_id"] == gid
    assert _seat_of(client, gid, token) == "rebel"
    assert_problem(client.post(f"/campaigns/{cid}/seats/rebel/claim", json={"invitation": code}), 410,
                   rule="UMPIRE-SEAT-2")
    assert_problem(client.post(f"/campaigns/{cid}/seats/imperial/claim", json={"invitation": code}), 409,
                   rule="UMPIRE-SEAT-3")
    # the campaign and the battle both record it, publicly and without a secret
    for where in (f"/campaigns/{cid}/verify", f"/games/{gid}/verify", f"/campaigns/{cid}"):
        body = client.get(where).json()
        assert body["seats"]["rebel"]["claimed"] == "invitation" and body["creator_holds"] == ["imperial"], where
        assert token not in str(body) and code not in str(body)
    assert client.get(f"/campaigns/{cid}/verify").json()["chain_ok"] is True
    events = client.get(f"/games/{gid}/events").json()["events"]
    assert [e["payload"] for e in events if e["type"] == "seat_claimed"] == [
        {"type": "seat_claimed", "seat": "rebel", "by_invitation": True}]
    # rotation: the old token is dead in the battle, the new one acts
    r = client.post(f"/campaigns/{cid}/seats/rebel/rotate", headers=auth(token))
    assert r.status_code == 201, r.text
    assert _seat_of(client, gid, token) == 401 and _seat_of(client, gid, r.json()["token"]) == "rebel"
    assert_problem(client.post(f"/campaigns/{cid}/seats/rebel/rotate", headers=auth(c["seats"]["imperial"])), 403,
                   rule="UMPIRE-SEAT-4")
    assert client.get(f"/games/{gid}/verify").json()["seats"]["rebel"] == {"claimed": "invitation", "rotated": True}


def test_a_waiting_campaign_opens_once_the_claimed_seat_is_ready(client):
    c = client.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seating": "invitations",
                                        "keep": ["imperial"], "start": "when_ready"}).json()
    cid = c["campaign_id"]
    assert c["status"] == "waiting" and c["game_id"] is None
    assert client.post(f"/campaigns/{cid}/ready", json={}, headers=auth(c["seats"]["imperial"])).status_code == 201
    rebel = client.post(f"/campaigns/{cid}/seats/rebel/claim",
                        headers=auth(c["invitations"]["rebel"])).json()["token"]
    r = client.post(f"/campaigns/{cid}/ready", json={"client_seed": "rebels"}, headers=auth(rebel))
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    # the first battle, created after the claim, says so from its opening on
    types = [e["type"] for e in client.get(f"/games/{gid}/events").json()["events"]]
    assert types[:3] == ["game_created", "seats_offered", "seat_claimed"]
    assert _seat_of(client, gid, rebel) == "rebel"
    assert client.get(f"/games/{gid}/verify").json()["seats"]["rebel"]["claimed"] == "invitation"
