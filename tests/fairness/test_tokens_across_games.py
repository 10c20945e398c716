"""Attacks with tokens where they do not belong (DESIGN 4): a seat's token of game A used on game B, a seat's
token put in the query string of a route that does not take it there, a campaign's token on a game outside the
campaign, and a bot's seat acted for by a human. Each route must treat the caller as what it is (401 for a
token that is not a seat of *this* game, a spectator for a token in a query string the route ignores); the same
reads with the right token name the seat's hand, so every check here can fail.

Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import json
import random
import re

import msgspec
import pytest
from litestar.testing import TestClient

from domain.kernel import registry
from service.app import create_app
from service.settings import Settings

SCENARIO = "SCN-TAKE-DOWN-THE-SHIELD"
OPENING = ("game_created", "game_opened")
CARD_ID = re.compile(r"(?:PROP-)?(?:EMP|REB)-[A-Z0-9-]*[A-Z0-9]")


def _auth(tok: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"} if tok else {}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def _game(c: TestClient, **body) -> dict:
    r = c.post("/games", json={"ruleset": "hoth", "scenario": SCENARIO, **body})
    assert r.status_code == 201, r.text
    return r.json()


def _play(c: TestClient, gid: str, tokens: dict[str, str], steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        view = c.get(f"/games/{gid}").json()
        seat = view["to_act"][0]
        if seat not in tokens:
            return
        legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(tokens[seat])).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers=_auth(tokens[seat]))
        assert r.status_code == 201, r.text


def _hand(c: TestClient, gid: str, seat: str) -> set[str]:
    return set(c.app.state.games.current(gid).state.hands[seat])


def _reads(c: TestClient, gid: str, headers: dict[str, str], params: dict[str, str] | None = None) -> dict[str, object]:
    """Every read route of game ``gid`` with these headers and extra query parameters: (status, text)."""
    q = params or {}
    version = c.get(f"/games/{gid}").json()["version"]
    paths = {"view": f"/games/{gid}", "events": f"/games/{gid}/events", "state": f"/games/{gid}/states/{version}",
             "ruling": f"/games/{gid}/events/{version}/ruling", "timeline": f"/games/{gid}/timeline",
             "board": f"/games/{gid}/board.svg", "legal": f"/games/{gid}/legal-commands"}
    out = {}
    for name, path in paths.items():
        r = c.get(path, headers=headers, params={**q, **({"limit": 1000} if name == "events" else {})})
        text = r.text
        if name == "events" and r.status_code == 200:  # the opening lists the whole card catalogue: proves nothing
            text = json.dumps([e for e in r.json()["events"] if e["type"] not in OPENING])
        out[name] = (r.status_code, text)
    return out


def test_a_seat_token_of_another_game_is_refused_on_every_route(client):
    c, rng = client, random.Random(11)
    a, b = _game(c), _game(c)
    _play(c, b["game_id"], b["seats"], 6, rng)
    gid, stranger = b["game_id"], a["seats"]["imperial"]
    hand = _hand(c, gid, "imperial")
    assert hand
    # the check can fail: B's own token reads B's imperial hand on the view and the past state
    own = _reads(c, gid, _auth(b["seats"]["imperial"]))
    assert all(hand <= set(CARD_ID.findall(own[k][1])) for k in ("view", "state")), own["view"][1][:300]

    for name, (status, text) in _reads(c, gid, _auth(stranger)).items():
        assert status == 401, (name, status, text[:200])
        assert not set(CARD_ID.findall(text)) & hand, name
    version = c.get(f"/games/{gid}").json()["version"]
    legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(b["seats"]["imperial"])).json()
    posts = {"command": (f"/games/{gid}/commands", {"command": (legal["commands"] or [{"type": "x"}])[0],
                                                    "expected_version": version}),
             "undo": (f"/games/{gid}/undo", {"to_version": max(1, version - 1)}),
             "accept": (f"/games/{gid}/undo/accept", None), "decline": (f"/games/{gid}/undo/decline", None),
             "ready": (f"/games/{gid}/ready", None), "rotate": (f"/games/{gid}/seats/imperial/rotate", None)}
    for name, (path, body) in posts.items():
        for params in ({}, {"dry_run": "true"}):
            r = c.post(path, json=body, headers=_auth(stranger), params=params)
            assert r.status_code == 401, (name, params, r.status_code, r.text[:200])
    for how in ({"headers": _auth(stranger)}, {"params": {"token": stranger}}):
        r = c.get(f"/games/{gid}/feed", params={"after": 0, "limit": 1, **how.get("params", {})},
                  headers=how.get("headers", {}))
        assert r.status_code == 401, (how, r.status_code)
    assert c.get(f"/games/{gid}").json()["version"] == version  # nothing was written


def test_a_seat_token_in_the_query_string_of_a_read_is_not_the_seat(client):
    """Only the feed takes ``?token=`` (a browser's EventSource cannot set headers). Elsewhere a token in the
    query string is ignored: the caller is a spectator and reads no hand (nor is the token worth leaving in a
    URL: the access log masks it, tests/service/test_access_log.py)."""
    c = client
    g = _game(c)
    _play(c, g["game_id"], g["seats"], 4, random.Random(12))
    gid, tok = g["game_id"], g["seats"]["imperial"]
    hand = _hand(c, gid, "imperial")
    with_header = _reads(c, gid, _auth(tok))
    assert hand <= set(CARD_ID.findall(with_header["view"][1]))
    for name, (status, text) in _reads(c, gid, {}, {"token": tok}).items():
        if name == "legal":
            assert status in (200, 401), (name, status)
        else:
            assert status == 200, (name, status)
        assert not set(CARD_ID.findall(text)) & hand, name
    assert '"seat":null' in c.get(f"/games/{gid}/legal-commands", params={"token": tok}).text.replace(" ", "")
    r = c.post(f"/games/{gid}/commands", params={"token": tok},
               json={"command": {"type": "pass"}, "expected_version": 1})
    assert r.status_code == 401, r.text
    # the feed takes it, as the seat: its own hand's draw is in it
    feed = c.get(f"/games/{gid}/feed", params={"after": 0, "limit": 3, "token": tok}).text
    assert "cards_drawn" in feed or "deck_shuffled" in feed


def test_a_campaign_token_acts_in_no_game_outside_its_campaign(client):
    c = client
    camp = c.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA", "seed": "6b" * 32}).json()
    other = c.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA"}).json()
    plain = _game(c)
    tok = camp["seats"]["imperial"]
    assert c.get(f"/games/{camp['game_id']}/legal-commands", headers=_auth(tok)).json()["seat"] == "imperial"
    for gid in (plain["game_id"], other["game_id"]):
        for name, (status, _text) in _reads(c, gid, _auth(tok)).items():
            assert status == 401, (gid, name, status)
    assert c.get(f"/campaigns/{other['campaign_id']}", headers=_auth(tok)).status_code == 401
    # a game's token is not a campaign's either
    assert c.get(f"/campaigns/{camp['campaign_id']}", headers=_auth(plain["seats"]["imperial"])).status_code == 401


def test_nobody_acts_for_a_bot_seat(client):
    """UMPIRE-BOT-1: a bot seat has no token; the creator's token of the other seat is refused for the bot's
    decision (UMPIRE-TURN-1), and the bot's seat cannot be claimed (UMPIRE-SEAT-3) nor rotated (UMPIRE-SEAT-4)."""
    c = client
    g = _game(c, bots={"rebel": "random"})
    gid, tok = g["game_id"], g["seats"]["imperial"]
    assert set(g["seats"]) == {"imperial"}
    for _ in range(40):
        view = c.get(f"/games/{gid}").json()
        if "rebel" in view["to_act"] and "imperial" not in view["to_act"]:
            break
        _play(c, gid, g["seats"], 1, random.Random(13))
    else:
        pytest.skip("the bot's decision never came up")
    cur = c.app.state.games.current(gid)
    bot_cmd = msgspec.to_builtins(registry.get("hoth").legal_commands(cur.state, "rebel")[0])
    r = c.post(f"/games/{gid}/commands", json={"command": bot_cmd, "expected_version": cur.version}, headers=_auth(tok))
    assert r.status_code in (403, 409, 422), r.text
    if r.status_code == 403:  # (the bot may have moved meanwhile: then the command is stale or illegal)
        assert r.json().get("rule") == "UMPIRE-TURN-1", r.text
    assert c.post(f"/games/{gid}/seats/rebel/claim", json={"invitation": tok}).status_code in (403, 409)
    rot = c.post(f"/games/{gid}/seats/rebel/rotate", headers=_auth(tok))
    assert rot.status_code in (401, 403), rot.text
