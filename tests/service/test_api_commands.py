"""POST /games/{id}/commands: the check order and the problem bodies (DESIGN section 8)."""
from __future__ import annotations

from .api_client import Api, api, assert_problem  # noqa: F401


def _game(api: Api):
    g = api.create()
    return g["game_id"], g["seats"]["north"], g["seats"]["south"], g["version"]


def test_a_legal_command_is_201_with_version_and_events(api: Api):
    gid, n, _s, v = _game(api)
    r = api.send(gid, n, {"type": "step", "steps": 1}, v)
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["version"] == v + 1
    [ev] = body["events"]
    assert ev["seq"] == v + 1 and ev["type"] == "stepped" and ev["actor"] == "north" and ev["undone"] is False
    assert ev["payload"] == {"type": "stepped", "seat": "north", "position": 1}
    assert api.events(gid, n, after=v) == body["events"]


def test_401_without_token_and_with_a_wrong_token(api: Api):
    gid, _n, s, v = _game(api)
    assert_problem(api.send(gid, None, {"type": "step"}, v), 401)
    assert_problem(api.send(gid, "not-a-token", {"type": "step"}, v), 401)
    other = api.create()
    assert_problem(api.send(gid, other["seats"]["north"], {"type": "step"}, v), 401)
    r = api.client.post(f"/games/{gid}/commands", json={"command": {"type": "step"}, "expected_version": v},
                        headers={"Authorization": "Basic abc"})
    assert_problem(r, 401)


def test_401_comes_before_a_malformed_body(api: Api):
    gid, *_ = _game(api)
    r = api.client.post(f"/games/{gid}/commands", content=b"{not json")
    assert_problem(r, 401)


def test_400_malformed_bodies_name_the_field(api: Api):
    gid, n, _s, v = _game(api)
    h = api.auth(n)
    assert_problem(api.client.post(f"/games/{gid}/commands", content=b"{not json", headers=h), 400)
    b = assert_problem(api.client.post(f"/games/{gid}/commands", json={"command": {"type": "step"}}, headers=h), 400)
    assert "expected_version" in b["detail"]
    b = assert_problem(api.send(gid, n, {"type": "fly"}, v), 400, field="command.type")
    b = assert_problem(api.send(gid, n, {"type": "step", "steps": "two"}, v), 400, field="command.steps")
    assert_problem(api.client.post(f"/games/{gid}/commands", json={"command": {"type": "step"}, "expected_version": "x"},
                                   headers=h), 400)
    assert_problem(api.client.post(f"/games/{gid}/commands", json=[1, 2], headers=h), 400)


def test_403_when_it_is_the_other_seats_decision(api: Api):
    gid, _n, s, v = _game(api)
    b = assert_problem(api.send(gid, s, {"type": "step"}, v), 403)
    assert "north" in b["detail"]


def test_409_stale_version_carries_the_current_version(api: Api):
    gid, n, _s, v = _game(api)
    api.ok(gid, n, {"type": "step"}, v)
    assert_problem(api.send(gid, n, {"type": "step"}, v), 409, current_version=v + 1)
    assert_problem(api.send(gid, n, {"type": "step"}, v + 7), 409, current_version=v + 1)


def test_422_illegal_names_the_rule(api: Api):
    gid, n, _s, v = _game(api)
    b = assert_problem(api.send(gid, n, {"type": "step", "steps": 3}, v), 422, rule="TOY-STEP-1")
    assert "1 or 2" in b["detail"]
    assert_problem(api.send(gid, n, {"type": "play", "card": "S1"}, v), 422, rule="TOY-PLAY-1")
    # nothing was appended by the refused commands
    assert api.view(gid, n)["version"] == v


def test_check_order_409_before_403_before_422(api: Api):
    gid, n, s, v = _game(api)
    # stale AND not south's decision AND illegal -> 409
    assert_problem(api.send(gid, s, {"type": "step", "steps": 3}, v - 1), 409, current_version=v)
    # current version, not south's decision, illegal -> 403
    assert_problem(api.send(gid, s, {"type": "step", "steps": 3}, v), 403)
    # north: illegal -> 422
    assert_problem(api.send(gid, n, {"type": "step", "steps": 3}, v), 422, rule="TOY-STEP-1")


def test_command_id_retry_returns_the_first_answer_before_the_version_check(api: Api):
    gid, n, _s, v = _game(api)
    first = api.send(gid, n, {"type": "roll"}, v, command_id="c-1")
    assert first.status_code == 201
    again = api.send(gid, n, {"type": "roll"}, v, command_id="c-1")
    assert again.status_code == 201 and again.json() == first.json()
    api.ok(gid, n, {"type": "step"})
    # the version moved on: a retry still answers the first answer, appends nothing
    late = api.send(gid, n, {"type": "roll"}, v, command_id="c-1")
    assert late.status_code == 201 and late.json() == first.json()
    assert api.view(gid, n)["version"] == v + 2
    assert [e["type"] for e in api.events(gid, n, after=v)] == ["rolled", "stepped"]


def test_404_unknown_game_and_routes_are_problems(api: Api):
    assert_problem(api.get("/games/nope"), 404)
    assert_problem(api.client.post("/games/nope/commands", json={"command": {}, "expected_version": 0},
                                   headers=api.auth("x")), 404)
    assert_problem(api.get("/nowhere"), 404)
    assert_problem(api.client.delete("/games"), 405)


def test_bad_game_creation_is_a_problem_naming_the_field(api: Api):
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": "XYZ"})
    assert_problem(r, 400, field="seed")
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": "AB" * 32})
    assert_problem(r, 400, field="seed")
    assert_problem(api.client.post("/games", json={"ruleset": "chess", "scenario": "x"}), 422, field="ruleset")
    assert_problem(api.client.post("/games", json={"ruleset": "toy", "scenario": "x"}), 422, field="scenario")
    assert_problem(api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "options": {"z": 1}}), 422,
                   field="options")
    assert_problem(api.client.post("/games", json={"scenario": "duel"}), 400)
    assert api.get("/games").json()["games"] == []


def test_legal_commands_can_be_posted_back_as_they_are(api: Api):
    gid, n, s, v = _game(api)
    lc = api.legal(gid, n)
    assert lc["seat"] == "north" and lc["version"] == v and {"type": "end_turn"} in lc["commands"]
    assert api.legal(gid, s)["commands"] == []
    for cmd in lc["commands"]:
        if cmd["type"] in ("step",):
            r = api.send(gid, n, cmd, v)
            assert r.status_code == 201, (cmd, r.text)
            break
