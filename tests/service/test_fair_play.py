"""Fair play (issue 10) through the real HTTP API on the toy ruleset: each attack of the issue as a
test that fails on the code before it, and the guarantees that replace it.

- undo cannot re-roll: ``to_version`` is a command boundary (UMPIRE-UNDO-8), a roll needs consent,
  an agreed re-roll is labelled; a waiting request is in every view and lapses with an event;
- the chain hides what it hides: a brute force of the hands over the published hashes finds nothing;
  every caller's view of the chain verifies; every commitment verifies after the end; receipts;
- command ids per seat; the same id with another body is refused;
- strict input: depth, encoding, type, size, unknown fields.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import random

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings

from . import fair_verifier as V
from .api_client import SEED, Api, assert_problem
from .toy_ruleset import deck_of, register


@pytest.fixture
def api(tmp_path, redis_url, redis_client):
    """The app with the Redis read models (the views a client gets are the projected ones)."""
    register()
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))) as client:
        yield Api(client, str(tmp_path / "data"))


def _game(api: Api, **body):
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED, **body})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["game_id"], g["seats"]["north"], g["seats"]["south"], g["version"]


def _undo(api: Api, gid: str, token: str, to: int):
    return api.client.post(f"/games/{gid}/undo", json={"to_version": to}, headers=api.auth(token))


def _types(api: Api, gid: str) -> list[str]:
    return [e["type"] for e in api.events(gid)]


# -- undo cannot re-roll ---------------------------------------------------------------------
def test_undo_re_roll_loop_gets_no_second_roll_without_consent(api: Api):
    """The attack: a throw stores dice_thrown (the roll) and throw_scored; an undo to the seq of
    dice_thrown took back the score only, the throw was legal again and rolled new dice -- again and
    again. Now that version is inside a command (422), and the boundary before needs consent."""
    gid, n, s, v = _game(api)
    r = api.ok(gid, n, {"type": "throw"}, v)
    roll_seq = r["events"][0]["seq"]
    assert [e["type"] for e in r["events"]] == ["dice_thrown", "throw_scored"]
    score = api.view(gid, n)["state"]["scores"]["north"]
    for _attempt in range(8):
        b = assert_problem(_undo(api, gid, n, roll_seq), 422, rule="UMPIRE-UNDO-8")
        assert str(v) in b["detail"]
        assert _undo(api, gid, n, v).status_code == 202  # needs south's consent
        assert api.client.post(f"/games/{gid}/commands", headers=api.auth(s), json={
            "command": {"type": "undo_decline"}, "expected_version": api.view(gid, s)["version"]}).status_code == 201
        assert_problem(api.send(gid, n, {"type": "throw"}, api.view(gid, n)["version"]), 422, rule="TOY-THROW-2")
    assert _types(api, gid).count("dice_thrown") == 1
    assert api.view(gid, n)["state"]["scores"]["north"] == score


def test_an_agreed_re_roll_is_a_new_roll_labelled_in_the_log_and_its_ruling(api: Api):
    gid, n, s, v = _game(api)
    first = api.ok(gid, n, {"type": "throw"}, v)
    first_roll = api.get(f"/games/{gid}/events/{first['events'][0]['seq']}/ruling", n).json()["rolls"][0]
    assert _undo(api, gid, n, v).status_code == 202
    r = api.accept(gid, s)
    assert r.status_code == 201, r.text
    undone = r.json()["events"][0]["payload"]
    assert undone["consented_by"] == "south" and undone["redraw"] is True
    tl = api.get(f"/games/{gid}/timeline").json()["steps"]
    assert "an agreed re-roll" in tl[-1]["summary"]
    again = api.ok(gid, n, {"type": "throw"})
    ruling = api.get(f"/games/{gid}/events/{again['events'][0]['seq']}/ruling", n).json()
    assert ruling["rolls"][0]["index"] == first_roll["index"] + 1  # a new draw, never the same one again
    assert ruling["ruling"]["steps"][-1]["rule"] == "UMPIRE-UNDO-9"
    assert "Agreed re-roll" in ruling["ruling"]["steps"][-1]["text"]


def test_a_card_drawn_needs_consent_and_drawn_again_is_the_same_card(api: Api):
    gid, n, s, v = _game(api)
    drawn = api.ok(gid, n, {"type": "draw"}, v)["events"][0]["payload"]["card"]
    assert _undo(api, gid, n, v).status_code == 202
    assert api.accept(gid, s).status_code == 201
    assert drawn not in api.view(gid, n)["state"]["hand"]
    assert api.ok(gid, n, {"type": "draw"})["events"][0]["payload"]["card"] == drawn


def test_a_waiting_request_is_in_every_view_and_the_other_seats_legal_commands_then_lapses(api: Api):
    gid, n, s, v = _game(api)
    api.ok(gid, n, {"type": "roll"}, v)
    r = _undo(api, gid, n, v)
    assert r.status_code == 202 and r.json()["undo"] == "requested"
    req_seq = r.json()["version"]
    for token in (n, s, None):
        view = api.view(gid, token)
        assert view["undo_request"] == {"seq": req_seq, "by": "north", "to_version": v,
                                        "answer": [{"type": "undo_accept"}, {"type": "undo_decline"}],
                                        "waiting_for": ["south"], "accepted": []}
        assert api.get(f"/games/{gid}/states/{req_seq}", token).json()["undo_request"]["by"] == "north"
    south_cmds = api.legal(gid, s)["commands"]
    assert south_cmds[:2] == [{"type": "undo_accept"}, {"type": "undo_decline"}]
    assert {"type": "undo_accept"} not in api.legal(gid, n)["commands"]  # not the one who asked
    # play goes on: the request lapses, visibly
    r = api.ok(gid, n, {"type": "step"})
    assert [e["type"] for e in r["events"]] == ["undo_lapsed", "stepped"]
    assert r["events"][0]["payload"] == {"type": "undo_lapsed", "by": "north", "to_version": v}
    assert api.view(gid, s)["undo_request"] is None
    assert {"type": "undo_accept"} not in api.legal(gid, s)["commands"]
    assert_problem(api.accept(gid, s), 422, rule="UMPIRE-UNDO-5")


def test_accept_through_the_commands_endpoint_with_a_command_id(api: Api):
    gid, n, s, v = _game(api)
    api.ok(gid, n, {"type": "roll"}, v)
    assert _undo(api, gid, n, v).status_code == 202
    ver = api.view(gid, s)["version"]
    body = {"command": {"type": "undo_accept"}, "expected_version": ver, "command_id": "yes-1"}
    r = api.client.post(f"/games/{gid}/commands", json=body, headers=api.auth(s))
    assert r.status_code == 201 and r.json()["undo"] == "done", r.text
    again = api.client.post(f"/games/{gid}/commands", json=body, headers=api.auth(s))
    assert again.json()["events"] == r.json()["events"]  # the first answer, nothing appended
    assert api.view(gid, n)["state"]["scores"]["north"] == 0
    # the one who asked cannot answer its own request
    api.ok(gid, n, {"type": "roll"})
    assert _undo(api, gid, n, api.view(gid, n)["version"] - 1).status_code == 202
    assert_problem(api.client.post(f"/games/{gid}/commands", headers=api.auth(n), json={
        "command": {"type": "undo_accept"}, "expected_version": api.view(gid, n)["version"]}), 403)


# -- the chain hides what it hides ---------------------------------------------------------------
def _v1_hash(prev: str, row: dict) -> str:
    """The hash the chain published before issue 10: sha256(prev + canonical stored event)."""
    body = {k: row[k] for k in ("game_id", "seq", "type", "payload", "actor", "visibility", "command_id",
                                "engine_version", "recorded_at", "ruling", "rolls", "reveals", "turn")}
    return hashlib.sha256(prev.encode() + msgspec.json.encode(body, order="sorted")).hexdigest()


def _brute_force(entries: list[dict], game_id: str, seq: int, payloads: list[dict], visibility: str,
                 ruling: str | None = None) -> dict | None:
    """A spectator's attack: every candidate private payload, the guessable rest of the stored event,
    against the published hash. The payload whose hash matches, or None."""
    e = entries[seq - 1]
    prev = entries[seq - 2]["hash"] if seq > 1 else V.GENESIS
    for p in payloads:
        for turn in (0, 1):
            row = {"game_id": game_id, "seq": seq, "type": e["type"], "payload": msgspec.json.encode(p).decode(),
                   "actor": e["actor"], "visibility": visibility, "command_id": None, "engine_version": "toy-1",
                   "recorded_at": e["recorded_at"], "ruling": ruling, "rolls": "[]", "reveals": True, "turn": turn}
            if _v1_hash(prev, row) == e["hash"]:
                return p
            # and under the new chain: the commitment is published, so try it as a plain digest too
            priv = {"payload": {k: v for k, v in p.items() if k not in e["payload"]}}
            if hashlib.sha256(V.canonical(priv)).hexdigest() == e.get("commitment"):
                return p
    return None


def test_a_hash_brute_force_of_the_opening_hands_and_of_a_draw_recovers_nothing(api: Api):
    gid, n, s, v = _game(api)
    api.ok(gid, n, {"type": "draw"}, v)
    entries = api.events(gid)  # a spectator's view
    dealt = [e for e in entries if e["type"] == "hand_dealt"]
    truth = {seat: api.view(gid, tok)["state"]["hand"] for seat, tok in (("north", n), ("south", s))}
    for e in dealt:
        seat = e["payload"]["seat"]
        assert e["payload"]["redacted"] is True and "cards" not in e["payload"]
        candidates = [{"type": "hand_dealt", "seat": seat, "count": 3, "cards": list(c)}
                      for c in itertools.permutations(deck_of(seat), 3)]
        assert len(candidates) == 336
        got = _brute_force(entries, gid, e["seq"], candidates, seat)
        assert got is None or got["cards"] != truth[seat], "a hidden hand was recovered from the public hash"
    drawn = next(e for e in entries if e["type"] == "card_drawn")
    ruling = None  # the drawer's ruling is hidden; the attacker guesses the toy's fixed one
    candidates = [{"type": "card_drawn", "seat": "north", "card": c} for c in deck_of("north")]
    got = _brute_force(entries, gid, drawn["seq"], candidates, "north", ruling)
    real = api.events(gid, n)[drawn["seq"] - 1]["payload"]["card"]
    assert got is None or got["card"] != real
    # the published hash depends on nothing hidden: recomputed from the public part alone it matches
    assert V.chain_problem(gid, entries) is None


def _play_toy(api: Api, gid: str, tokens: dict[str, str], rng: random.Random, check) -> dict:
    for _ in range(400):
        view = api.view(gid)
        check(view["version"])
        if view["status"] == "finished":
            return view
        seat = view["to_act"][0]
        cmds = [c for c in api.legal(gid, tokens[seat])["commands"] if not c["type"].startswith("undo")]
        weights = [0.2 if c["type"] in ("end_turn", "challenge") else 1.0 for c in cmds]
        r = api.send(gid, tokens[seat], rng.choices(cmds, weights)[0], view["version"])
        assert r.status_code == 201, r.text
        receipts.append(r.json()["receipt"])
    raise AssertionError("the game did not end")


receipts: list[dict] = []


def test_a_whole_game_every_view_of_the_chain_every_commitment_every_receipt_verify(api: Api):
    receipts.clear()
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED})
    g = r.json()
    gid, tokens = g["game_id"], g["seats"]
    receipts.append(g["receipt"])
    key = api.get("/.well-known/umpire-key").json()
    assert key["alg"] == "Ed25519" and len(V.unb64url(key["public_key"])) == 32
    assert key["key_id"] == hashlib.sha256(V.unb64url(key["public_key"])).hexdigest()[:16]

    def check(version: int) -> None:
        for token in (tokens["north"], tokens["south"], None):
            entries = api.events(gid, token)
            assert len(entries) == version
            assert V.chain_problem(gid, entries) is None, token
            view = api.view(gid, token)
            assert view["receipt"]["head"] == entries[-1]["hash"] and view["receipt"]["version"] == version
            assert V.receipt_ok(view["receipt"], key["public_key"])

    final = _play_toy(api, gid, tokens, random.Random(5), check)
    assert final["winner"] in ("north", "south")
    for rec in receipts:
        assert V.receipt_ok(rec, key["public_key"]), rec
    forged = dict(receipts[-1], version=receipts[-1]["version"] + 1)
    assert not V.receipt_ok(forged, key["public_key"])
    verify = api.get(f"/games/{gid}/verify").json()
    assert verify["chain_ok"] and verify["row_ok"] and verify["dice_ok"] and verify["commitments_ok"], verify
    entries = api.events(gid)
    assert all("private" in e for e in entries)
    assert V.commitment_problem(gid, verify["seed"], entries) is None
    # a doctored revealed payload is caught by its commitment
    hidden = next(e for e in entries if e["type"] == "hand_dealt")
    real = hidden["private"]["payload"]
    doctored = dict(real, cards=[*real["cards"], "N99"])  # differs from the dealt hand whatever it was
    bad = [dict(e, private=dict(e["private"], payload=doctored)) if e is hidden else e for e in entries]
    assert V.commitment_problem(gid, verify["seed"], bad) is not None


# -- command ids per seat ------------------------------------------------------------------------
def test_command_ids_are_per_seat_and_one_id_names_one_request(api: Api):
    gid, n, s, v = _game(api)
    # north squats the id that south's client will send next
    r = api.send(gid, n, {"type": "step"}, v, command_id="turn-2")
    assert r.status_code == 201
    end = api.send(gid, n, {"type": "end_turn"}, v + 1, command_id="end-1")
    assert end.status_code == 201
    # south's command with that id is its own: applied, not north's old answer
    r = api.send(gid, s, {"type": "step"}, v + 2, command_id="turn-2")
    assert r.status_code == 201 and r.json()["version"] == v + 3
    assert r.json()["events"][0]["payload"] == {"type": "stepped", "seat": "south", "position": 1}
    assert api.view(gid, s)["state"]["positions"]["south"] == 1
    # replaying north's id from south's seat tells nothing about north's ids: it is a new command of south's
    probe = api.send(gid, s, {"type": "end_turn"}, v + 3, command_id="end-1")
    assert probe.status_code == 201 and probe.json()["events"][0]["payload"]["seat"] == "south"
    # the same id with another body is refused; the same body again answers the first answer
    again = api.send(gid, n, {"type": "step"}, v, command_id="turn-2")
    assert again.status_code == 201 and again.json()["version"] == v + 1
    b = assert_problem(api.send(gid, n, {"type": "step", "steps": 2}, v, command_id="turn-2"), 422,
                       rule="UMPIRE-IDEMPOTENCY")
    assert b["field"] == "command_id"
    # a retry that learnt the new version still gets the first answer (the id is checked first)
    late = api.send(gid, n, {"type": "step"}, v + 4, command_id="turn-2")
    assert late.status_code == 201 and late.json()["version"] == v + 1


# -- strict input ------------------------------------------------------------------------------
def test_strict_input_depth_encoding_types_size_and_unknown_fields(api: Api):
    deep = b"[" * 100_000 + b"]" * 100_000
    assert_problem(api.client.post("/games", content=deep, headers={"content-type": "application/json"}), 400)
    assert_problem(api.client.post("/games", content=b'{"ruleset": "\xff\xfe"}',
                                   headers={"content-type": "application/json"}), 400)
    body = json.dumps({"ruleset": "toy", "scenario": "duel"}).encode()
    assert_problem(api.client.post("/games", content=body, headers={"content-type": "text/plain"}), 415)
    big = b'{"ruleset": "toy", "scenario": "' + b"x" * 400_000 + b'"}'
    assert_problem(api.client.post("/games", content=big, headers={"content-type": "application/json"}), 413)
    nested_string = json.dumps({"ruleset": "toy", "scenario": "[" * 150}).encode()  # brackets in a string
    assert_problem(api.client.post("/games", content=nested_string, headers={"content-type": "application/json"}),
                   422, field="scenario")
    gid, n, s, v = _game(api)
    h = {**api.auth(n), "content-type": "application/json"}
    for ev in ('"%d"' % v, "%d.0" % v, "true"):
        b = assert_problem(api.client.post(f"/games/{gid}/commands", headers=h,
                                           content=b'{"command": {"type": "step"}, "expected_version": %s}' % ev.encode()),
                           400, field="expected_version")
    b = assert_problem(api.send(gid, n, {"type": "step", "stepz": 2}, v), 400, field="command.stepz")
    assert "stepz" in b["detail"]
    assert_problem(api.client.post(f"/games/{gid}/commands", headers=h, content=deep), 400)
    assert_problem(api.client.post(f"/games/{gid}/commands", headers=h, content=b"\xff\xff"), 400)
    assert_problem(api.client.post(f"/games/{gid}/undo", headers=h, content=b'{"to_version": "5"}'), 400,
                   field="to_version")
    assert_problem(api.client.post(f"/games/{gid}/undo", headers=h, content=b'{"to_version": 5, "x": 1}'), 400,
                   field="x")
    # nothing was stored by any of it
    assert api.view(gid, n)["version"] == v
