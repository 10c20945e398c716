"""A rotated-out token used on another process that still remembers the seat (UMPIRE-SEAT-4: "the old one no
longer acts, on any node").

A process decides a command on the game's row and fold as it last wrote or read them when the request expects
that version (service/game_commands.py ``command_steps``; the append's own check of the version guards it), and
answers a token it has seen before from memory at the door (service/auth.py ``check_seat``). The attack: the
creator holds both tokens (``tokens`` seating), plays south on node A, hands south over; the new holder rotates
the token on node B and plays there (a private draw, with a ``command_id`` the creator can guess: ``c-1``). Node A
has not read the game since. The creator then uses south's old token on A: the new holder's command again (its
id, its body, the version it expected, and the version A remembers), a new command, a dry run, a waiting undo
request's acceptance, and the reads. Every one must be refused (401), store nothing and name no card.

Two real ``uvicorn`` processes of the app (the toy ruleset), each reached on its own port, sharing a real Redis:
on one SQLite file, as two workers of ``umpire serve --workers 2`` share it; and on one real PostgreSQL with a data
dir each and one signing key, as two stateless nodes (DESIGN 11) share it. The PostgreSQL store runs the same
``command_steps``; this runs the attack on it, not only on SQLite.
"""
from __future__ import annotations

import httpx

from tests.service.api_client import SEED


def _auth(tok: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"}


def test_a_rotated_out_token_gets_nothing_from_a_node_that_remembers_the_seat(two_nodes):
    a, b = two_nodes
    with httpx.Client(base_url=a.url, timeout=30) as ca, httpx.Client(base_url=b.url, timeout=30) as cb:
        g = ca.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        gid, t = g["game_id"], g["seats"]
        old = t["south"]

        def play(c: httpx.Client, tok: str, cmd: dict, cid: str | None = None) -> httpx.Response:
            v = c.get(f"/games/{gid}").json()["version"]
            body = {"command": cmd, "expected_version": v, **({"command_id": cid} if cid else {})}
            return c.post(f"/games/{gid}/commands", json=body, headers=_auth(tok))

        assert play(ca, t["north"], {"type": "end_turn"}).status_code == 201
        assert play(ca, old, {"type": "step"}, "c-0").status_code == 201  # A remembers south's token and the row
        remembered = ca.get(f"/games/{gid}", headers=_auth(old)).json()["version"]
        # node B: the new holder rotates south's token and draws (a card only south may see)
        rot = cb.post(f"/games/{gid}/seats/south/rotate", headers=_auth(old))
        assert rot.status_code == 201, rot.text
        new = rot.json()["token"]
        before = cb.get(f"/games/{gid}").json()["version"]
        drew = play(cb, new, {"type": "draw"}, "c-1")
        assert drew.status_code == 201, drew.text
        card = next(e["payload"]["card"] for e in drew.json()["events"] if e["type"] == "card_drawn")
        after = cb.get(f"/games/{gid}").json()["version"]
        undo = cb.post(f"/games/{gid}/undo", json={"to_version": remembered}, headers=_auth(t["north"]))

        # node A, with the old token
        answers = []
        for expected in (remembered, before, after):
            for cid in ("c-1", "c-0", "c-2"):
                answers.append(ca.post(f"/games/{gid}/commands", headers=_auth(old), json={
                    "command": {"type": "draw"}, "expected_version": expected, "command_id": cid}))
            answers.append(ca.post(f"/games/{gid}/commands", params={"dry_run": "true"}, headers=_auth(old),
                                   json={"command": {"type": "draw"}, "expected_version": expected}))
        answers.append(ca.post(f"/games/{gid}/undo/accept", headers=_auth(old),
                               json={"expected_version": cb.get(f"/games/{gid}").json()["version"]}))
        answers.append(ca.post(f"/games/{gid}/commands", headers=_auth(old), json={
            "command": {"type": "undo_accept"}, "expected_version": cb.get(f"/games/{gid}").json()["version"]}))
        for path in ("", "/legal-commands", "/events", "/timeline", f"/states/{after}", f"/events/{after}/ruling"):
            answers.append(ca.get(f"/games/{gid}{path}", headers=_auth(old)))
        answers.append(ca.get(f"/games/{gid}/feed", params={"token": old, "after": before, "limit": 1}))
        for r in answers:
            assert r.status_code == 401, (r.request.method, str(r.request.url), r.status_code, r.text[:300])
            assert card not in r.text
        # nothing was stored by the old token: the log is as B left it (and north's undo request, if it waits,
        # was not agreed by south's old holder)
        final = cb.get(f"/games/{gid}/events", params={"after": after}, headers=_auth(new)).json()["events"]
        assert all(e["type"] in ("undo_requested", "undone") for e in final), [e["type"] for e in final]
        assert not any(e["type"] == "undo_accepted" for e in final)
        if undo.status_code == 202:
            assert cb.get(f"/games/{gid}").json()["undo_request"] is not None
        # the same requests with the new token are answered (the checks above can fail): its own draw again
        again = cb.post(f"/games/{gid}/commands", headers=_auth(new), json={
            "command": {"type": "draw"}, "expected_version": before, "command_id": "c-1"})
        assert again.status_code == 201 and card in again.text, again.text


def test_an_undo_across_the_rotation_does_not_revive_the_old_token_on_a_node_that_remembers_it(two_nodes):
    """The creator holds north and south's first token; south's new holder rotates it (on node B) during
    north's turn; north then takes back its own free steps, the rotation in between (``seat_rotated`` is not a
    command: the undo is free). Were the rotation undone in the game's fold, node A, which checked the old token
    before the rotation, would take it as south again (its remembered seat stands while the fold shows no
    rotation since). The seat's rotation stays (domain/kernel/seats.py): the old token is refused on A."""
    a, b = two_nodes
    with httpx.Client(base_url=a.url, timeout=30) as ca, httpx.Client(base_url=b.url, timeout=30) as cb:
        g = ca.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        gid, t = g["game_id"], g["seats"]
        old = t["south"]
        start = ca.get(f"/games/{gid}", headers=_auth(old)).json()["version"]  # A remembers the old token
        assert ca.post(f"/games/{gid}/commands", json={"command": {"type": "step"}, "expected_version": start},
                       headers=_auth(t["north"])).status_code == 201
        rot = cb.post(f"/games/{gid}/seats/south/rotate", headers=_auth(old))
        assert rot.status_code == 201, rot.text
        v = cb.get(f"/games/{gid}").json()["version"]
        assert cb.post(f"/games/{gid}/commands", json={"command": {"type": "step"}, "expected_version": v},
                       headers=_auth(t["north"])).status_code == 201
        undo = cb.post(f"/games/{gid}/undo", json={"to_version": start}, headers=_auth(t["north"]))
        assert undo.status_code == 201 and undo.json()["undo"] == "done", undo.text  # the rotation was in its range
        now = ca.get(f"/games/{gid}").json()["version"]  # A reads the game after the undo
        for r in (ca.get(f"/games/{gid}", headers=_auth(old)), ca.get(f"/games/{gid}/legal-commands", headers=_auth(old)),
                  ca.post(f"/games/{gid}/commands", json={"command": {"type": "step"}, "expected_version": now},
                          headers=_auth(old)),
                  ca.get(f"/games/{gid}/feed", params={"token": old, "limit": 1})):
            assert r.status_code == 401, (str(r.request.url), r.status_code, r.text[:200])
        assert ca.get(f"/games/{gid}", headers=_auth(rot.json()["token"])).status_code == 200
