"""The issue's two undo attacks on Battle of Hoth, through the real HTTP API (issue 10).

- **Re-roll by free undo**: an attack that does not end the turn stores ``attack_rolled,
  attack_resolved, attack_finished``; ``undo`` to the seq of ``attack_rolled`` was free, the same
  attack was legal again and rolled new dice (8 times in the report).
- **Extra cards by free undo**: ``end_turn`` stores ``turn_ended, cards_drawn, turn_started``; an undo
  to the seq of ``cards_drawn`` was free, ``end_turn`` was legal again and drew again.

Both undo targets fall inside one command now (UMPIRE-UNDO-8); the boundary before the command needs
the opponent's consent (the roll and the draw revealed something)."""
from __future__ import annotations

import random

import pytest
from litestar.testing import TestClient

from domain.kernel import registry
from service.app import create_app
from service.settings import Settings

from .api_client import Api, assert_problem

SEED = "7e" * 32
HOTH = registry.get("hoth")


@pytest.fixture
def api(tmp_path, monkeypatch, request):
    # a fixed game id: the dice depend on it, so each test plays the same game every run
    monkeypatch.setattr("service.game_service.new_game_id", lambda: f"fair-{request.node.name[:40]}")
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield Api(c, str(tmp_path / "data"))


def play_until(api: Api, want: list[str], prefer: str, seed: int) -> tuple[str, dict, dict, int]:
    """Random legal play over HTTP (preferring ``prefer`` commands) until a command's events are
    exactly ``want``; (game id, tokens, that answer, the version before it)."""
    r = api.client.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": SEED})
    gid, tokens = r.json()["game_id"], r.json()["seats"]
    rng = random.Random(seed)
    for _ in range(600):
        view = api.view(gid)
        assert view["status"] == "active"
        seat = view["to_act"][0]
        cmds = api.legal(gid, tokens[seat])["commands"]
        pick = [c for c in cmds if c["type"] == prefer] or cmds
        r = api.send(gid, tokens[seat], rng.choice(pick), view["version"])
        assert r.status_code == 201, r.text
        if [e["type"] for e in r.json()["events"]] == want:
            return gid, tokens, r.json(), view["version"]
    raise AssertionError(f"no command produced {want}")


def test_the_attack_re_roll_loop_gets_no_new_dice_without_consent(api: Api):
    gid, tokens, answer, before = play_until(api, ["attack_rolled", "attack_resolved", "attack_finished"],
                                             "attack", seed=2)
    rolled = answer["events"][0]
    attacker = rolled["actor"]
    other = next(s for s in tokens if s != attacker)
    faces = rolled["payload"]["attack"]["faces"]
    for _ in range(8):
        # inside the command: refused, whatever the seat
        for seq in (rolled["seq"], rolled["seq"] + 1):
            b = assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": seq},
                                               headers=api.auth(tokens[attacker])), 422, rule="UMPIRE-UNDO-8")
            assert str(before) in b["detail"]
        # the boundary before the attack: the roll revealed something, so the opponent decides
        r = api.client.post(f"/games/{gid}/undo", json={"to_version": before}, headers=api.auth(tokens[attacker]))
        assert r.status_code == 202, r.text
        assert api.client.post(f"/games/{gid}/undo/decline", headers=api.auth(tokens[other])).status_code == 201
    events = api.events(gid, tokens[attacker])
    assert len(events) > rolled["seq"], (len(events), rolled["seq"])
    assert [e["type"] for e in events[rolled["seq"] - 1:]].count("attack_rolled") == 1  # no second roll
    assert not any(e["undone"] for e in events)
    assert events[rolled["seq"] - 1]["payload"]["attack"]["faces"] == faces
    # the attacker's legal commands do not offer the same attack again
    unit = rolled["payload"]["attack"]["attacker"]
    legal = api.legal(gid, tokens[attacker])["commands"]
    assert not any(c["type"] == "attack" and c.get("unit") == unit for c in legal)


def test_end_turn_cannot_be_undone_halfway_to_draw_again(api: Api):
    gid, tokens, answer, before = play_until(api, ["turn_ended", "cards_drawn", "turn_started"], "end_turn",
                                             seed=3)
    seat = answer["events"][0]["actor"]
    other = next(s for s in tokens if s != seat)
    drawn_seq = answer["events"][1]["seq"]
    hand = api.view(gid, tokens[seat])["state"]["hands"][seat]
    for to in (drawn_seq, drawn_seq - 1):
        assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": to}, headers=api.auth(tokens[seat])),
                       422, rule="UMPIRE-UNDO-8")
    r = api.client.post(f"/games/{gid}/undo", json={"to_version": before}, headers=api.auth(tokens[seat]))
    assert r.status_code == 202, r.text
    # the opponent plays on instead of answering: the request lapses, visibly
    view = api.view(gid, tokens[other])
    assert view["undo_request"]["by"] == seat
    cmds = [c for c in api.legal(gid, tokens[other])["commands"] if not c["type"].startswith("undo")]
    r = api.send(gid, tokens[other], cmds[0], view["version"])
    assert r.status_code == 201 and r.json()["events"][0]["type"] == "undo_lapsed"
    assert [e["type"] for e in api.events(gid)[before:]].count("cards_drawn") == 1  # no second draw
    assert api.view(gid, tokens[seat])["state"]["hands"][seat] == hand
