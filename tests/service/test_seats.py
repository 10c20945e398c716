"""A seat belongs to the person who claimed it (DESIGN 4, UMPIRE-SEAT-*), attacked as a cheating player.

Audit finding 5: whoever created a game held every seat's token (POST /games answered all of them and
nothing let a player claim a seat or retire the creator's copy). With ``"seating": "invitations"`` the
creator gets only the seats it keeps and a one-time invitation per other seat; a claim answers the
seat's token to the claimant only, spends the invitation and records a public ``seat_claimed`` event.
Every test drives the real app over HTTP on a real SQLite file (two apps on one data dir stand for two
nodes where it matters).
"""
from __future__ import annotations

import threading

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings

from .api_client import SEED, Api, assert_problem
from .toy_ruleset import register


def _client(data_dir: str) -> TestClient:
    register()
    return TestClient(create_app(Settings(data_dir=data_dir), read_models=None))


@pytest.fixture
def api(tmp_path):
    with _client(str(tmp_path / "data")) as c:
        yield Api(c, str(tmp_path / "data"))


def _create(api: Api, **body) -> dict:
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", **body})
    assert r.status_code == 201, r.text
    return r.json()


def _claim(client: TestClient, gid: str, seat: str, code: str, *, header: bool = False):
    if header:
        return client.post(f"/games/{gid}/seats/{seat}/claim", headers={"Authorization": f"Bearer {code}"})
    return client.post(f"/games/{gid}/seats/{seat}/claim", json={"invitation": code})


def _acts_as(api: Api, gid: str, token: str) -> str | None:
    """The seat ``token`` acts as in ``gid`` (None: 401, it is no seat)."""
    r = api.get(f"/games/{gid}/legal-commands", token)
    if r.status_code == 401:
        return None
    assert r.status_code == 200, r.text
    return r.json()["seat"]


# -- the default stays: tokens for tools that seat the players themselves --------------------------------
def test_default_seating_hands_every_token_to_the_creator_and_says_so(api):
    g = _create(api, seed=SEED)
    assert set(g["seats"]) == {"north", "south"} and g["seating"] == "tokens" and "invitations" not in g
    v = api.get(f"/games/{g['game_id']}/verify").json()
    assert v["seating"] == "tokens" and v["creator_holds"] == ["north", "south"]
    assert v["seats"] == {"north": {"claimed": "creator", "rotated": False},
                          "south": {"claimed": "creator", "rotated": False}}
    assert v["seed_given"] is True
    # nothing to claim in a game seated with tokens
    assert_problem(_claim(api.client, g["game_id"], "south", "x" * 32), 409, rule="UMPIRE-SEAT-3")


# -- invitations ---------------------------------------------------------------------------------------
def test_creator_gets_only_its_kept_seat_and_an_invitation_for_the_other(api):
    g = _create(api, seating="invitations", keep=["north"])
    gid = g["game_id"]
    assert list(g["seats"]) == ["north"] and list(g["invitations"]) == ["south"]
    assert len(g["invitations"]["south"]) >= 32  # 24 random bytes, URL-safe base64
    # the creator's answer holds no token of south: none of its secrets acts as south
    for secret in (g["seats"]["north"], g["invitations"]["south"]):
        assert _acts_as(api, gid, secret) != "south"
    assert _acts_as(api, gid, g["invitations"]["south"]) is None  # an invitation is not a token
    v = api.get(f"/games/{gid}/verify").json()
    assert v["seats"]["south"] == {"claimed": "unclaimed", "rotated": False} and v["creator_holds"] == ["north"]
    assert v["seed_given"] is False
    # the log says so publicly, right after the header
    ev = api.events(gid)
    assert ev[1]["type"] == "seats_offered" and ev[1]["payload"]["kept"] == ["north"]
    assert ev[1]["payload"]["invited"] == ["south"]


def test_a_claim_answers_the_token_to_the_claimant_only_and_spends_the_invitation(api):
    g = _create(api, seating="invitations", keep=["north"])
    gid, code = g["game_id"], g["invitations"]["south"]
    # a code that is not the seat's invitation spends nothing (403) ...
    assert_problem(_claim(api.client, gid, "south", code[:-2] + ("AA" if not code.endswith("AA") else "BB")), 403,
                   rule="UMPIRE-SEAT-3")
    r = _claim(api.client, gid, "south", code)
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    assert r.json()["seat"] == "south" and token != code
    assert _acts_as(api, gid, token) == "south"
    # ... a second claim, with the same invitation or the header, is refused: 410 naming the rule
    for header in (False, True):
        assert_problem(_claim(api.client, gid, "south", code, header=header), 410, rule="UMPIRE-SEAT-2")
    # a kept seat is not claimable (409), an unknown one is 404
    assert_problem(_claim(api.client, gid, "north", code), 409, rule="UMPIRE-SEAT-3")
    assert_problem(_claim(api.client, gid, "west", code), 404)
    claimed = [e for e in api.events(gid) if e["type"] == "seat_claimed"]
    assert [e["payload"] for e in claimed] == [{"type": "seat_claimed", "seat": "south", "by_invitation": True}]
    v = api.get(f"/games/{gid}/verify").json()
    assert v["seats"]["south"]["claimed"] == "invitation" and v["chain_ok"] is True


def test_the_invitation_can_come_as_a_bearer_header_never_in_the_url(api):
    g = _create(api, seating="invitations", keep=["north"])
    gid, code = g["game_id"], g["invitations"]["south"]
    # a query parameter is no way to pass it (it would end up in access logs)
    assert_problem(api.client.post(f"/games/{gid}/seats/south/claim?invitation={code}"), 401, rule="UMPIRE-SEAT-2")
    # the body's invitation counts when both are given (a header may carry the caller's token of another seat)
    assert_problem(api.client.post(f"/games/{gid}/seats/south/claim", json={"invitation": "other"},
                                   headers={"Authorization": f"Bearer {code}"}), 403, rule="UMPIRE-SEAT-3")
    r = _claim(api.client, gid, "south", code, header=True)
    assert r.status_code == 201, r.text


def test_the_creator_keeps_nothing_of_a_claimed_seat(api):
    """The attack of finding 5: the creator tries every secret it was handed on the claimed seat."""
    g = _create(api, seating="invitations", keep=["north"], start="when_ready")
    gid, code = g["game_id"], g["invitations"]["south"]
    # before the claim nobody can post south's ready (the creator has no token of it)
    for secret in (g["seats"]["north"], code):
        r = api.client.post(f"/games/{gid}/ready", json={}, headers=api.auth(secret))
        assert r.status_code in (401, 201)
        if r.status_code == 201:
            assert r.json()["events"][0]["actor"] == "north"
    token = _claim(api.client, gid, "south", code).json()["token"]
    # after it: the invitation and the creator's token still do not act as south
    assert _acts_as(api, gid, code) is None
    assert _acts_as(api, gid, g["seats"]["north"]) == "north"
    own = api.get(f"/games/{gid}", token).json()
    creators = api.get(f"/games/{gid}", g["seats"]["north"]).json()
    assert own["state"] != creators["state"] or own["state"]["hand_sizes"]  # each its own view
    r = api.client.post(f"/games/{gid}/ready", json={"client_seed": "souths-seed"}, headers=api.auth(token))
    assert r.status_code == 201, r.text
    assert api.view(gid)["status"] == "active"


def test_hot_seat_the_creator_keeps_every_seat_and_the_game_says_so(api):
    g = _create(api, seating="invitations", keep=["north", "south"])
    assert set(g["seats"]) == {"north", "south"} and g["invitations"] == {}
    view = api.view(g["game_id"])
    assert view["creator_holds"] == ["north", "south"] and view["seating"] == "invitations"
    ruling = api.get(f"/games/{g['game_id']}/events/2/ruling").json()
    assert "can read each of those hands" in str(ruling)


def test_keep_is_checked(api):
    for body, field in (({"seating": "invitations", "keep": ["west"]}, "keep[0]"),
                        ({"seating": "invitations", "keep": ["north", "north"]}, "keep[1]"),
                        ({"keep": ["north"]}, "keep")):
        r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", **body})
        assert_problem(r, 422, field=field, rule="UMPIRE-SEAT-1")
    assert_problem(api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seating": "all"}), 400)


def test_bot_seats_are_seated_by_the_service_never_invited(api):
    g = _create(api, seating="invitations", bots={"south": "random"})
    assert g["invitations"] == {"north": g["invitations"]["north"]} and g["seats"] == {}
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seating": "invitations",
                                        "keep": ["south"], "bots": {"south": "random"}})
    assert_problem(r, 422, field="keep[0]", rule="UMPIRE-SEAT-1")
    v = api.get(f"/games/{g['game_id']}/verify").json()
    assert v["seats"]["south"]["claimed"] == "bot" and v["seats"]["north"]["claimed"] == "unclaimed"
    assert v["creator_holds"] == []


# -- races and guesses -----------------------------------------------------------------------------------
def test_two_claims_at_once_on_two_nodes_exactly_one_wins(tmp_path):
    """Two service nodes on one store, each its own per-game lock: only the store's transaction decides."""
    data = str(tmp_path / "data")
    with _client(data) as a, _client(data) as b:
        games = [a.post("/games", json={"ruleset": "toy", "scenario": "duel", "seating": "invitations",
                                        "keep": ["north"]}).json() for _ in range(6)]
        for g in games:
            start = threading.Barrier(2)
            answers: list = []

            def go(c: TestClient) -> None:
                start.wait()
                answers.append(_claim(c, g["game_id"], "south", g["invitations"]["south"]))

            threads = [threading.Thread(target=go, args=(c,)) for c in (a, b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(r.status_code for r in answers)
            assert codes == [201, 410], [r.text for r in answers]
            winner = next(r for r in answers if r.status_code == 201).json()["token"]
            assert next(r for r in answers if r.status_code == 410).json()["rule"] == "UMPIRE-SEAT-2"
            events = a.get(f"/games/{g['game_id']}/events").json()["events"]
            assert [e["type"] for e in events].count("seat_claimed") == 1
            assert b.get(f"/games/{g['game_id']}/legal-commands",
                         headers={"Authorization": f"Bearer {winner}"}).json()["seat"] == "south"


def test_invitations_are_not_guessable_and_a_wrong_one_spends_nothing(api):
    g = _create(api, seating="invitations", keep=["north"])
    gid, code = g["game_id"], g["invitations"]["south"]
    others = [_create(api, seating="invitations", keep=["north"])["invitations"]["south"] for _ in range(20)]
    assert len(set(others + [code])) == 21 and all(len(o) >= 32 for o in others)
    # another game's invitation, the seat name, the game id, an empty string: none claims
    for guess in (*others[:5], "south", gid, g["seats"]["north"], "A" * 32):
        assert_problem(_claim(api.client, gid, "south", guess), 403, rule="UMPIRE-SEAT-3")
    assert_problem(api.client.post(f"/games/{gid}/seats/south/claim", json={}), 401)
    assert _claim(api.client, gid, "south", code).status_code == 201


def test_no_secret_reaches_a_spectator(api):
    """Views, events, timeline, verify, rulings, the lobby and the feed say which seat was claimed, never by
    whom, and carry no token or invitation."""
    g = _create(api, seating="invitations", keep=["north"])
    gid, code = g["game_id"], g["invitations"]["south"]
    token = _claim(api.client, gid, "south", code).json()["token"]
    rotated = api.client.post(f"/games/{gid}/seats/south/rotate", headers=api.auth(token)).json()["token"]
    secrets_ = [g["seats"]["north"], code, token, rotated]
    version = api.view(gid)["version"]
    pages = [(f"/games/{gid}", {}), (f"/games/{gid}/events", {}), (f"/games/{gid}/timeline", {}),
             (f"/games/{gid}/verify", {}), ("/games", {}), (f"/games/{gid}/states/2", {}),
             (f"/games/{gid}/events/7/ruling", {}), (f"/games/{gid}/feed", {"limit": version})]
    for who in (None, g["seats"]["north"], rotated):
        for page, params in pages:
            r = api.get(page, who, **params)
            assert r.status_code == 200, (page, r.text)
            assert not any(s in r.text for s in secrets_), page
    assert r.text.count("event: event") == version  # the feed did run: every event, none with a secret
    # a spectator can tell the seat was claimed and its token replaced, and nothing more
    v = api.get(f"/games/{gid}/verify").json()
    assert v["seats"]["south"] == {"claimed": "invitation", "rotated": True}


# -- rotation --------------------------------------------------------------------------------------------
def test_rotation_kills_the_old_token_on_every_node(tmp_path):
    """A creator that saw a seat's token (a game seated with tokens, handed on to a player) keeps nothing once
    the player rotates -- also on a node that had remembered the old token."""
    data = str(tmp_path / "data")
    with _client(data) as a, _client(data) as b:
        g = a.post("/games", json={"ruleset": "toy", "scenario": "duel"}).json()
        gid, old = g["game_id"], g["seats"]["south"]
        auth = {"Authorization": f"Bearer {old}"}
        assert b.get(f"/games/{gid}/legal-commands", headers=auth).json()["seat"] == "south"  # b remembers it
        r = a.post(f"/games/{gid}/seats/south/rotate", headers=auth)
        assert r.status_code == 201, r.text
        new = r.json()["token"]
        for c in (a, b):
            assert_problem(c.get(f"/games/{gid}/legal-commands", headers=auth), 401)
            assert_problem(c.post(f"/games/{gid}/commands", headers=auth,
                                  json={"command": {"type": "pass"}, "expected_version": r.json()["version"]}), 401)
            assert c.get(f"/games/{gid}/legal-commands",
                         headers={"Authorization": f"Bearer {new}"}).json()["seat"] == "south"
        # the dead token rotates nothing; another seat's token cannot rotate south
        assert_problem(a.post(f"/games/{gid}/seats/south/rotate", headers=auth), 401, rule="UMPIRE-SEAT-4")
        assert_problem(a.post(f"/games/{gid}/seats/south/rotate",
                              headers={"Authorization": f"Bearer {g['seats']['north']}"}), 403, rule="UMPIRE-SEAT-4")
        assert_problem(a.post(f"/games/{gid}/seats/south/rotate"), 401, rule="UMPIRE-SEAT-4")
        v = a.get(f"/games/{gid}/verify").json()
        assert v["seats"]["south"] == {"claimed": "creator", "rotated": True} and v["chain_ok"]


def test_seat_events_do_not_disturb_play_or_undo(api):
    """The seat events are kernel events: play goes on around them, undo never reaches back across a claim."""
    g = _create(api, seating="invitations", keep=["north"], seed=SEED)
    gid = g["game_id"]
    north = g["seats"]["north"]
    legal = api.legal(gid, north)
    api.ok(gid, north, legal["commands"][0], legal["version"])
    before_claim = api.view(gid)["version"]
    south = _claim(api.client, gid, "south", g["invitations"]["south"]).json()["token"]
    # undo back before the claim is refused (the claim ends the opening, UMPIRE-UNDO-1)
    r = api.client.post(f"/games/{gid}/undo", json={"to_version": before_claim - 1}, headers=api.auth(north))
    assert_problem(r, 422, rule="UMPIRE-UNDO-1")
    seat = api.view(gid)["active_seat"]
    tok = {"north": north, "south": south}[seat]
    legal = api.legal(gid, tok)
    assert legal["commands"], legal
    api.ok(gid, tok, legal["commands"][0], legal["version"])
    assert api.get(f"/games/{gid}/verify").json()["chain_ok"] is True


# -- the seat events among random play, undo and answers: read models and the log agree -------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SEAT_MOVE = st.tuples(st.sampled_from(["play", "play", "play", "undo", "answer", "claim", "rotate"]),
                      st.integers(0, 1), st.integers(0, 6), st.integers(0, 2**16 - 1))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_seat_events_among_random_play_keep_projections_log_and_chain_in_step(data, tmp_path_factory, redis_url,
                                                                              redis_client):
    """Claims and rotations land between random commands, undo requests and answers: every answer is a
    success or a refusal naming a rule; the projected views (Redis) equal the views folded from the log for
    every caller; the chain verifies; undo never reaches back across a claim."""
    register()
    d = str(tmp_path_factory.mktemp("seat-prop") / "data")
    moves = data.draw(st.lists(SEAT_MOVE, min_size=4, max_size=20))
    keep = data.draw(st.sampled_from([[], ["north"], ["south"]]))
    with TestClient(create_app(Settings(data_dir=d, redis_url=redis_url))) as c, _client(d) as log:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED, "seating": "invitations",
                                   "keep": keep}).json()
        gid, held, codes = g["game_id"], dict(g["seats"]), dict(g["invitations"])
        claimed_at = 0
        for kind, who, back, pick in moves:
            view = c.get(f"/games/{gid}").json()
            if view["status"] == "finished":
                break
            version = view["version"]
            seats = sorted({"north", "south"})
            seat = seats[who]
            if kind == "claim" and codes:
                s = sorted(codes)[who % len(codes)]
                r = _claim(c, gid, s, codes.pop(s))
                assert r.status_code == 201, r.text
                held[s] = r.json()["token"]
                claimed_at = r.json()["version"]
            elif kind == "rotate" and seat in held:
                r = c.post(f"/games/{gid}/seats/{seat}/rotate", headers={"Authorization": f"Bearer {held[seat]}"})
                assert r.status_code == 201, r.text
                held[seat] = r.json()["token"]
            elif kind == "undo" and seat in held:
                to = version - back % (min(6, version) + 1)
                r = c.post(f"/games/{gid}/undo", json={"to_version": to}, headers={"Authorization": f"Bearer {held[seat]}"})
                assert r.status_code in (201, 202, 422), r.text
                if r.status_code == 422:
                    assert r.json()["rule"].startswith("UMPIRE-UNDO-")
                elif r.status_code == 201:
                    undone = r.json()["events"][-1]["payload"]
                    assert undone["first"] > claimed_at  # never back across a claim
            elif kind == "answer" and view["undo_request"] is not None:
                other = next(s for s in seats if s != view["undo_request"]["by"])
                if other in held:
                    r = c.post(f"/games/{gid}/commands", headers={"Authorization": f"Bearer {held[other]}"},
                               json={"command": {"type": "undo_accept" if pick % 2 else "undo_decline"},
                                     "expected_version": version})
                    assert r.status_code == 201, r.text
            elif view["to_act"] and view["to_act"][0] in held:
                tok = held[view["to_act"][0]]
                legal = c.get(f"/games/{gid}/legal-commands", headers={"Authorization": f"Bearer {tok}"}).json()
                if legal["commands"]:
                    cmd = legal["commands"][pick % len(legal["commands"])]
                    r = c.post(f"/games/{gid}/commands", headers={"Authorization": f"Bearer {tok}"},
                               json={"command": cmd, "expected_version": legal["version"]})
                    assert r.status_code == 201, r.text
        c.app.state.games.project(gid)
        for tok in (None, *held.values()):
            headers = {"Authorization": f"Bearer {tok}"} if tok else {}
            projected = c.get(f"/games/{gid}", headers=headers).json()
            folded = log.get(f"/games/{gid}", headers=headers).json()
            projected.pop("receipt", None), folded.pop("receipt", None)
            assert projected == folded
            assert c.get(f"/games/{gid}/timeline", headers=headers).json() == \
                log.get(f"/games/{gid}/timeline", headers=headers).json()
        v = c.get(f"/games/{gid}/verify").json()
        assert v["chain_ok"] and v["row_ok"], v
        assert {s for s, x in v["seats"].items() if x["claimed"] == "unclaimed"} == set(codes)
