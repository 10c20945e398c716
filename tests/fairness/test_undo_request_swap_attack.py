"""An undo request swapped under the other side's consent (DESIGN 5: a re-draw needs another side's consent).

The attack: north draws a card (private) and rolls; it asks to undo back to just before the roll (202: south's
consent is needed). South reads the request -- "back to version 6": the roll only -- and answers it. Meanwhile
north lets the request lapse (a free step of its own) and asks again, back to before the *draw*. South's accept,
meant for the first request, lands on the second: north's card is drawn again (a second outcome of a private
draw) with a consent south never gave to it.

``POST /games/{id}/undo/accept`` and ``/decline`` had no body: an answer named no request. Now a consent must
carry ``{"expected_version": n}`` (as every command through ``/commands`` does, DESIGN 8): the version of the
game the answering seat saw the request in; when the game has moved on (another request may be waiting) the
answer is 409 and nothing is stored. A decline may carry it (declining takes nothing back). The game page sends
it. The same answer through ``/commands`` was already bound by its ``expected_version``.

Real app (litestar's TestClient) on a real SQLite file, the toy ruleset.
"""
from __future__ import annotations

import pytest

from tests.service.api_client import PROBLEM, SEED


def _auth(tok: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"}


@pytest.mark.parametrize("route", ["/undo/accept", "/undo/decline", "/commands"])
def test_an_answer_meant_for_one_undo_request_is_not_taken_for_the_next(toy_client, route):
    c = toy_client
    g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
    gid, t = g["game_id"], g["seats"]

    def version() -> int:
        return c.get(f"/games/{gid}").json()["version"]

    def play(seat: str, cmd: dict) -> None:
        r = c.post(f"/games/{gid}/commands", json={"command": cmd, "expected_version": version()},
                   headers=_auth(t[seat]))
        assert r.status_code == 201, r.text

    play("north", {"type": "draw"})
    before_roll = version()
    play("north", {"type": "roll"})
    r = c.post(f"/games/{gid}/undo", json={"to_version": before_roll}, headers=_auth(t["north"]))
    assert r.status_code == 202, r.text
    seen = c.get(f"/games/{gid}", headers=_auth(t["south"])).json()  # south reads the request: the roll only
    assert seen["undo_request"]["to_version"] == before_roll
    # north swaps it: a free step lapses the request, then a request back before the draw
    play("north", {"type": "step"})
    r = c.post(f"/games/{gid}/undo", json={"to_version": before_roll - 1}, headers=_auth(t["north"]))
    assert r.status_code == 202, r.text
    # south's answer, meant for the request it saw
    kind = "undo_decline" if route == "/undo/decline" else "undo_accept"
    if route == "/commands":
        a = c.post(f"/games/{gid}/commands", headers=_auth(t["south"]),
                   json={"command": {"type": kind}, "expected_version": seen["version"]})
    else:
        a = c.post(f"/games/{gid}{route}", json={"expected_version": seen["version"]}, headers=_auth(t["south"]))
    assert a.status_code == 409 and a.headers["content-type"].startswith(PROBLEM), a.text
    assert a.json()["current_version"] == version()
    events = c.get(f"/games/{gid}/events", params={"after": seen["version"]}).json()["events"]
    assert not [e for e in events if e["type"] in ("undone", "undo_declined")], [e["type"] for e in events]
    # south, shown the new request, answers it knowingly: taken
    now = c.get(f"/games/{gid}", headers=_auth(t["south"])).json()
    assert now["undo_request"]["to_version"] == before_roll - 1
    if route == "/commands":
        a = c.post(f"/games/{gid}/commands", headers=_auth(t["south"]),
                   json={"command": {"type": kind}, "expected_version": now["version"]})
    else:
        a = c.post(f"/games/{gid}{route}", json={"expected_version": now["version"]}, headers=_auth(t["south"]))
    assert a.status_code == 201, a.text


def test_a_consent_must_name_its_version_a_decline_need_not_and_a_malformed_one_is_a_problem(toy_client):
    """A consent without ``expected_version`` is a 400 (an old client's bodyless accept could land on a request its
    seat never saw) and stores nothing; a decline without a body is still taken (the answer is to the request
    waiting now); a body that is not ``{"expected_version": <int>}`` is a 400 naming the field."""
    c = toy_client
    g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
    gid, t = g["game_id"], g["seats"]
    v = c.get(f"/games/{gid}").json()["version"]
    assert c.post(f"/games/{gid}/commands", json={"command": {"type": "roll"}, "expected_version": v},
                  headers=_auth(t["north"])).status_code == 201
    assert c.post(f"/games/{gid}/undo", json={"to_version": v}, headers=_auth(t["north"])).status_code == 202
    waiting = c.get(f"/games/{gid}").json()["version"]
    for body in (None, {}):
        r = c.post(f"/games/{gid}/undo/accept", json=body, headers=_auth(t["south"]))
        assert r.status_code == 400 and r.headers["content-type"].startswith(PROBLEM), (body, r.text)
        assert "body" in r.json()["detail"] or r.json().get("field") == "expected_version", r.text
    assert c.get(f"/games/{gid}").json()["version"] == waiting  # nothing stored
    for route in ("/undo/accept", "/undo/decline"):
        for body in ({"expected_version": "7"}, {"expected_version": 7.0}, {"version": 7}, [7]):
            r = c.post(f"/games/{gid}{route}", json=body, headers=_auth(t["south"]))
            assert r.status_code == 400 and r.headers["content-type"].startswith(PROBLEM), (route, body, r.text)
    r = c.post(f"/games/{gid}/undo/decline", headers=_auth(t["south"]))
    assert r.status_code == 201, r.text
