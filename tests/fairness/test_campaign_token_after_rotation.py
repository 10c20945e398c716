"""Attack: a campaign seat's old token, rotated out, still reading the campaign's earlier battles as the seat.

A campaign's seat token acts in every battle of it (DESIGN 8). ``POST /campaigns/{id}/seats/{seat}/rotate``
replaces it: "the old one no longer acts, on any node" (UMPIRE-SEAT-4). The rotation is recorded in the battle
being played, which makes every process drop what it remembers of the old token *there*; the battles already
finished record nothing, and a process that had looked the old token up on one of them kept answering from
memory that it was the seat. The old holder (the creator who held both tokens in ``tokens`` seating, or a
player whose token leaked and who rotated for that reason) then read a finished battle as the seat: its own
private events, and in particular the sealed support hand dealt in it (UMPIRE-SEAL-1..3: the cards a side
keeps from battle to battle, hidden from everyone but the seat's holder while the campaign goes on).

Fixed in service/game_reading.py: a remembered seat of a finished campaign battle is not trusted (the store
and the campaign's seats are asked again). Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import json
import random

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.service.test_campaigns import CAMPAIGN, play_to_the_end


def _auth(tok: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"} if tok else {}


@pytest.fixture
def two_battles(tmp_path, monkeypatch):
    """A campaign whose first two battles are played to the end (fixed battle ids and seed: the same dice
    every run); (client, campaign id, tokens, battle ids, the first battle's winner, its kept hand)."""
    ids = iter(f"rot-battle-{n}" for n in range(1, 10))
    monkeypatch.setattr("service.game_service.new_game_id", lambda: next(ids))
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        b = c.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": "5a" * 32}).json()
        cid, tokens, first = b["campaign_id"], b["seats"], b["game_id"]
        winner = play_to_the_end(c, first, tokens, random.Random(3))
        camp = c.get(f"/campaigns/{cid}", headers=_auth(tokens[winner])).json()
        second, hand = camp["game_id"], camp["carried"][winner]["support_hand"]
        assert hand, "the winner keeps support cards into battle 2 (sealed there)"
        play_to_the_end(c, second, tokens, random.Random(4))
        yield c, cid, tokens, (first, second), winner, hand


def _reads(c: TestClient, gid: str, tok: str) -> dict[str, tuple[int, str]]:
    """What ``tok`` gets from the routes of battle ``gid`` that read as a seat."""
    h = _auth(tok)
    out = {"events": c.get(f"/games/{gid}/events", params={"limit": 1000}, headers=h),
           "view": c.get(f"/games/{gid}", headers=h),
           "timeline": c.get(f"/games/{gid}/timeline", headers=h),
           "board": c.get(f"/games/{gid}/board.svg", headers=h),
           "state 1": c.get(f"/games/{gid}/states/1", headers=h),
           "feed": c.get(f"/games/{gid}/feed", params={"after": 0, "limit": 1000}, headers=h)}
    return {k: (r.status_code, r.text) for k, r in out.items()}


def _dealt(c: TestClient, gid: str, tok: str | None) -> list[dict]:
    events = c.get(f"/games/{gid}/events", params={"limit": 1000}, headers=_auth(tok)).json()["events"]
    return [e["payload"] for e in events if e["type"] == "support_dealt"]


def test_a_rotated_out_campaign_token_reads_no_earlier_battle_as_the_seat(two_battles):
    c, cid, tokens, battles, winner, hand = two_battles
    old = tokens[winner]
    # the holder reads both finished battles as the seat (this process now remembers the token there)
    for gid in battles:
        for route, (status, _text) in _reads(c, gid, old).items():
            assert status == 200, (gid, route, status)
    # the sealed hand of battle 2 is the holder's: its own reads name it (the check below can see a leak)
    assert [p.get("cards") for p in _dealt(c, battles[1], old)] == [hand]
    assert any(card in _reads(c, battles[1], old)["events"][1] for card in hand)

    rot = c.post(f"/campaigns/{cid}/seats/{winner}/rotate", headers=_auth(old))
    assert rot.status_code == 201, rot.text
    new = rot.json()["token"]

    # UMPIRE-SEAT-4: the old token no longer acts, in any battle of the campaign, on any route
    for gid in battles:
        for route, (status, text) in _reads(c, gid, old).items():
            assert status == 401, (gid, route, status, text[:200])
            assert not [card for card in hand if card in text], (gid, route)
    assert c.get(f"/campaigns/{cid}", headers=_auth(old)).status_code == 401
    # the seat's new holder reads its sealed hand in battle 2, with the same check
    assert [p.get("cards") for p in _dealt(c, battles[1], new)] == [hand]
    assert all(card in _reads(c, battles[1], new)["events"][1] for card in hand)


def test_the_other_side_never_reads_the_sealed_hand_of_a_finished_battle(two_battles):
    """The same finished battle read by the other side and a spectator: the dealt hand stays redacted (the
    holder's read above names it, so this check can fail)."""
    c, cid, tokens, battles, winner, hand = two_battles
    loser = next(s for s in tokens if s != winner)
    for tok in (tokens[loser], None):
        for p in _dealt(c, battles[1], tok):
            assert p.get("redacted") and "cards" not in p and "salt" not in p, p
        text = json.dumps(_dealt(c, battles[1], tok))
        assert not [card for card in hand if card in text]
    assert [p.get("cards") for p in _dealt(c, battles[1], tokens[winner])] == [hand]
