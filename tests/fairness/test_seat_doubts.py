"""Doubts left on seats and invitations, settled (docs/seats.md "Who sees an invitation").

- The creator of a game seated by invitations is handed the other seats' invitations (to pass on): once a
  seat is claimed, nothing the creator was handed acts, reads or listens as that seat, nor claims it again.
- An export keeps the invitations still open (their hashes) and an import restores them: an invited seat of
  a moved game can still be claimed, a claimed one still cannot.

Real app (litestar's TestClient) on real SQLite files.
"""
from __future__ import annotations

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.store import open_store
from service.transfer import TransferError, export_lines, import_game, read_export
from tests.service.toy_ruleset import register


def _app(data_dir: str) -> TestClient:
    register()
    return TestClient(create_app(Settings(data_dir=data_dir), read_models=None))


def _auth(tok: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"}


def test_nothing_the_creator_was_handed_acts_for_a_seat_once_its_player_claimed_it(tmp_path):
    with _app(str(tmp_path / "data")) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seating": "invitations",
                                   "keep": ["north"]}).json()
        gid, north, code = g["game_id"], g["seats"]["north"], g["invitations"]["south"]
        assert set(g["seats"]) == {"north"}, "the creator holds no token of an invited seat"
        r = c.post(f"/games/{gid}/seats/south/claim", json={"invitation": code})
        assert r.status_code == 201, r.text
        south = r.json()["token"]
        # the creator's copy of the invitation: no second claim, no act, no read, no feed, no rotation
        assert c.post(f"/games/{gid}/seats/south/claim", json={"invitation": code}).status_code == 410
        v = c.get(f"/games/{gid}").json()["version"]
        c.post(f"/games/{gid}/commands", json={"command": {"type": "end_turn"}, "expected_version": v},
               headers=_auth(north))
        v += 1
        for secret in (code, north):
            r = c.post(f"/games/{gid}/commands", json={"command": {"type": "draw"}, "expected_version": v},
                       headers=_auth(secret))
            assert r.status_code in (401, 403), (secret == code, r.text)
            assert c.post(f"/games/{gid}/seats/south/rotate", headers=_auth(secret)).status_code in (401, 403)
            assert c.post(f"/games/{gid}/undo", json={"to_version": 2},
                          headers=_auth(secret)).json().get("seat") != "south"
        assert c.get(f"/games/{gid}/feed", params={"token": code, "limit": 1}).status_code == 401
        assert c.get(f"/games/{gid}/legal-commands", headers=_auth(code)).status_code == 401
        # the player who claimed it acts as south; the log says the seat was claimed by invitation
        assert c.get(f"/games/{gid}/legal-commands", headers=_auth(south)).json()["seat"] == "south"
        assert c.get(f"/games/{gid}/verify").json()["seats"]["south"]["claimed"] == "invitation"


def test_an_export_keeps_the_open_invitations_and_an_import_restores_them(tmp_path):
    src, dst = str(tmp_path / "src"), str(tmp_path / "dst")
    with _app(src) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seating": "invitations",
                                   "keep": []}).json()
        gid, codes = g["game_id"], g["invitations"]
        assert c.post(f"/games/{gid}/seats/north/claim", json={"invitation": codes["north"]}).status_code == 201
        lines = list(export_lines(c.app.state.games.store, gid, with_secrets=True))  # a game moved to play on
    header, _events, _seed = read_export(lines)
    assert set(header.invitations) == {"south"}  # the open one only, as a hash
    assert codes["south"] not in b"\n".join(lines).decode()
    store = open_store(dst)
    import_game(store, lines)
    assert store.invited_seats(gid) == ["south"]
    with _app(dst) as c:
        assert c.post(f"/games/{gid}/seats/north/claim", json={"invitation": codes["north"]}).status_code in (409, 410)
        r = c.post(f"/games/{gid}/seats/south/claim", json={"invitation": codes["south"]})
        assert r.status_code == 201, r.text
        assert c.get(f"/games/{gid}/legal-commands", headers=_auth(r.json()["token"])).json()["seat"] == "south"


def test_an_import_refuses_an_invitation_for_a_seat_the_game_does_not_have(tmp_path):
    import json

    with _app(str(tmp_path / "src")) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seating": "invitations",
                                   "keep": ["north"]}).json()
        lines = list(export_lines(c.app.state.games.store, g["game_id"]))
    head = json.loads(lines[0])
    head["invitations"]["west"] = "0" * 64
    with pytest.raises(TransferError, match="invitations: 'west'"):
        read_export([json.dumps(head).encode(), *lines[1:]])
