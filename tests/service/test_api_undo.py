"""Undo (DESIGN section 5) through the REST API, with the service's rule ids UMPIRE-UNDO-*."""
from __future__ import annotations

from .api_client import Api, api, assert_problem  # noqa: F401


def _game(api: Api):
    g = api.create()
    return g["game_id"], g["seats"]["north"], g["seats"]["south"], g["version"]


def test_free_undo_of_a_move_marks_it_undone_and_restores_the_state(api: Api):
    gid, n, s, v = _game(api)
    api.ok(gid, n, {"type": "step", "steps": 2}, v)
    assert api.view(gid, n)["state"]["positions"]["north"] == 2
    r = api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=api.auth(n))
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["undo"] == "done" and body["version"] == v + 2
    assert body["events"][0]["payload"] == {"type": "undone", "by": "north", "first": v + 1, "last": v + 1,
                                            "consented_by": None, "redraw": False}
    view = api.view(gid, n)
    assert view["version"] == v + 2 and view["state"]["positions"]["north"] == 0
    evs = {e["seq"]: e for e in api.events(gid, s)}
    assert evs[v + 1]["undone"] is True and evs[v + 1]["type"] == "stepped"
    assert evs[v + 2]["undone"] is False
    tl = api.get(f"/games/{gid}/timeline").json()["steps"]
    assert tl[v]["undone"] is True and "undoes" in tl[v + 1]["summary"]
    # the two steps are available again (TOY-STEP-2 counted the undone one before)
    api.ok(gid, n, {"type": "step", "steps": 2})


def test_undo_across_a_roll_needs_consent_decline_then_accept(api: Api):
    gid, n, s, v = _game(api)
    rolled = api.ok(gid, n, {"type": "roll"}, v)
    first_roll = api.get(f"/games/{gid}/events/{v + 1}/ruling", n).json()["rolls"][0]
    score = api.view(gid, n)["state"]["scores"]["north"]
    assert score == rolled["events"][0]["payload"]["face"]

    r = api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=api.auth(n))
    assert r.status_code == 202 and r.json()["undo"] == "requested"
    assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=api.auth(n)), 422,
                   rule="UMPIRE-UNDO-4")
    assert_problem(api.accept(gid, n), 403)
    r = api.client.post(f"/games/{gid}/undo/decline", headers=api.auth(s))
    assert r.status_code == 201 and r.json()["undo"] == "declined"
    assert api.view(gid, n)["state"]["scores"]["north"] == score
    assert_problem(api.accept(gid, s), 422, rule="UMPIRE-UNDO-5")

    assert api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=api.auth(n)).status_code == 202
    r = api.accept(gid, s)
    assert r.status_code == 201, r.text
    undone_ev = r.json()["events"][0]["payload"]
    assert undone_ev["consented_by"] == "south" and undone_ev["first"] == v + 1 and undone_ev["last"] == v + 1
    assert api.view(gid, n)["state"]["scores"]["north"] == 0
    assert {e["seq"]: e["undone"] for e in api.events(gid, n)}[v + 1] is True

    # after the agreed undo the next roll uses new dice: the counter never went back
    again = api.ok(gid, n, {"type": "roll"})
    seq = again["events"][0]["seq"]
    second_roll = api.get(f"/games/{gid}/events/{seq}/ruling", n).json()["rolls"][0]
    assert second_roll["stream"] == first_roll["stream"] == "dice"
    assert second_roll["index"] == first_roll["index"] + 1


def test_undo_of_the_other_seats_move_is_not_free(api: Api):
    gid, n, s, v = _game(api)
    api.ok(gid, n, {"type": "step"}, v)
    r = api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=api.auth(s))
    assert r.status_code == 202
    assert api.accept(gid, n).status_code == 201
    assert api.view(gid, s)["state"]["positions"]["north"] == 0


def test_undo_across_the_turn_boundary_needs_consent(api: Api):
    gid, n, s, v = _game(api)
    api.ok(gid, n, {"type": "step"}, v)
    api.ok(gid, n, {"type": "end_turn"})
    r = api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=api.auth(n))
    assert r.status_code == 202


def test_a_request_lapses_when_the_game_moves_on(api: Api):
    gid, n, s, v = _game(api)
    api.ok(gid, n, {"type": "roll"}, v)
    assert api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=api.auth(n)).status_code == 202
    api.ok(gid, n, {"type": "step"})
    assert_problem(api.accept(gid, s), 422, rule="UMPIRE-UNDO-5")


def test_refusals_name_their_rule(api: Api):
    gid, n, s, v = _game(api)
    h = api.auth(n)
    assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=h), 422, rule="UMPIRE-UNDO-1")
    api.ok(gid, n, {"type": "step"}, v)
    assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": 0}, headers=h), 422, rule="UMPIRE-UNDO-1")
    assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": v + 1}, headers=h), 422,
                   rule="UMPIRE-UNDO-1")
    assert api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=h).status_code == 201
    api.ok(gid, n, {"type": "step"})
    # reaching back across the earlier undo
    assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=h), 422, rule="UMPIRE-UNDO-2")
    assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": "x"}, headers=h), 400)
    assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": v}), 401)
