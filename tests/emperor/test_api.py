"""The Emperor through the REST API (real app, real SQLite, the session's real Redis): a whole game
played from /legal-commands, with the order deck hidden until the end; replay (states/{seq} equals
the fold of the prefix), timeline, rulings, verify and re-decide of every step; undo (free for the
human's own moves, refused across the Emperor's decisions in a one-seat game: UMPIRE-UNDO-6);
export and import; the board picture."""
from __future__ import annotations

import json
import random

import msgspec

from domain.kernel import Setup, registry
from domain.kernel.fold import decode_event, fold
from service.store import EventStore
from service.transfer import export_lines, import_game
from service.verify import verify_game
from projections.views import game_view
from tests.service.api_client import SEED, Api, api, assert_problem  # noqa: F401

SETUP = "SETUP-WARDEN-VS-VESPER"
MAX_COMMANDS = 3000
emperor = registry.get("emperor")


def _log(data_dir: str, gid: str):
    store = EventStore(data_dir)
    try:
        g = store.require_game(gid)
        return g, msgspec.json.decode(g.setup, type=Setup), store.load(gid)
    finally:
        store.close()


def _play(api: Api, seed: int, monkeypatch):
    monkeypatch.setattr("service.game_service.new_game_id", lambda: f"emperor-test-{seed}")
    g = api.create("emperor", SETUP)
    gid, tokens = g["game_id"], g["seats"]
    assert set(tokens) == {"human"}
    t = tokens["human"]
    rng = random.Random(seed)
    hidden_checked = 0
    for _ in range(MAX_COMMANDS):
        view = api.view(gid, t)
        if view["status"] == "finished":
            return gid, t, view, hidden_checked
        assert view["to_act"] == ["human"] and view["active_seat"] == "human"
        if rng.random() < 0.1:  # DESIGN 4: the order deck's order is nobody's until the end
            for tok in (t, None):
                assert "deck" not in api.view(gid, tok)["state"]["order"]
                for e in api.events(gid, tok):
                    if e["type"] == "order_deck_shuffled":
                        assert e["payload"].get("redacted") is True and "deck" not in e["payload"]
                        r = api.get(f"/games/{gid}/events/{e['seq']}/ruling", tok).json()
                        assert r["ruling"] is None and r.get("redacted") is True
                        hidden_checked += 1
        cmds = api.legal(gid, t)["commands"]
        assert cmds
        cmd = rng.choice(cmds)
        r = api.send(gid, t, cmd, view["version"])
        assert r.status_code == 201, (cmd, r.text)
    raise AssertionError("the game did not end")


def test_a_whole_emperor_game_over_rest(api: Api, monkeypatch, tmp_path):
    gid, t, final, hidden_checked = _play(api, 3, monkeypatch)
    assert hidden_checked > 0
    assert final["winner"] in ("human", "emperor") and final["state"]["winner"] == final["winner"]
    version = final["version"]
    # once finished the deck order is public
    assert isinstance(api.view(gid)["state"]["order"]["deck"], list)
    shuffled = [e for e in api.events(gid) if e["type"] == "order_deck_shuffled"]
    assert shuffled and all("deck" in e["payload"] for e in shuffled)
    # timeline: one line per step, with the Emperor's decisions in words
    tl = api.get(f"/games/{gid}/timeline").json()["steps"]
    assert len(tl) == version
    assert any("order card" in s["summary"] for s in tl) and any(s["type"] == "emperor_moved" for s in tl)
    # rulings: each Emperor decision cites the solo rules, with their values
    evs = api.events(gid)
    moved = next(e for e in evs if e["type"] == "emperor_moved")
    ruling = api.get(f"/games/{gid}/events/{moved['seq']}/ruling").json()["ruling"]
    rules = [s["rule"] for s in ruling["steps"]]
    assert {"SOLO-MOVE-4", "SOLO-MOVE-5", "SOLO-MOVE-7"} <= set(rules)
    assert any("P" in s.get("values", {}) for s in ruling["steps"])
    for kind, rule in (("card_activated", "SOLO-CARD-1"), ("order_card_revealed", "SOLO-ORD-2"),
                       ("target_chosen", "SOLO-TGT-1")):
        e = next(e for e in evs if e["type"] == kind and (kind != "card_activated" or e["payload"]["side"] == "emperor"))
        steps = api.get(f"/games/{gid}/events/{e['seq']}/ruling").json()["ruling"]["steps"]
        assert rule in [s["rule"] for s in steps], (kind, steps)
    # verify: the chain, the revealed seed, every automaton draw
    v = api.get(f"/games/{gid}/verify").json()
    assert v["chain_ok"] is True and v["seed"] == SEED and v["dice_ok"] is True and v["rolls_checked"] > 0
    # replay: states/{seq} equals the fold of the first seq events
    g, setup, records = _log(api.data_dir, gid)
    st = emperor.initial_state(setup)
    sample = {0, 1, 2, 3, version} | set(random.Random(1).sample(range(1, version + 1), 12))
    for seq in range(0, version + 1):
        if seq:
            st = emperor.evolve(st, decode_event(emperor, records[seq - 1].payload))
        if seq in sample:
            r = api.get(f"/games/{gid}/states/{seq}", t)
            assert r.status_code == 200, r.text
            expected = msgspec.json.decode(msgspec.json.encode(game_view(g, emperor, st, "human", version=seq)))
            assert r.json() == expected, seq
    assert fold(emperor, setup, [(e.seq, decode_event(emperor, e.payload)) for e in records]) == st
    # re-deciding every command with the current engine and the revealed seed gives what was recorded
    firsts = set()
    for e in records:
        r = api.get(f"/games/{gid}/events/{e.seq}/redecide")
        if r.status_code == 404:
            assert e.actor is None
            continue
        body = r.json()
        assert body["same"] is True, body["differences"]
        firsts.add(body["first_seq"])
    assert len(firsts) > 5
    # a dispute read in Ukrainian: the same verdict, the rulings' words and the cited rules' texts in uk
    disputed = next(b for b in (api.get(f"/games/{gid}/events/{s}/redecide").json() for s in sorted(firsts))
                    if any(st.get("message") for e in b["recorded"] for st in (e["ruling"] or {}).get("steps", ())))
    r = api.get(f"/games/{gid}/events/{disputed['seq']}/redecide", lang="uk")
    assert r.status_code == 200 and r.headers["content-language"] == "uk", r.text
    uk = r.json()
    assert uk["same"] is disputed["same"] is True and uk["differences"] == disputed["differences"] == []
    assert [e["payload"] for e in uk["recorded"]] == [e["payload"] for e in disputed["recorded"]]
    said = [(en_s["text"], uk_s["text"]) for en_e, uk_e in zip(disputed["recorded"], uk["recorded"])
            for en_s, uk_s in zip(en_e["ruling"]["steps"], uk_e["ruling"]["steps"]) if en_s.get("message")]
    assert said and all(a != b for a, b in said), said
    assert any(ch in "абвгдеєжзиіїйклмнопрстуфхцчшщьюя" for _, b in said for ch in b.lower()), said
    assert [x["id"] for x in uk["rules"]] == [x["id"] for x in disputed["rules"]]
    assert {x["lang"] for x in uk["rules"]} <= {"uk", "en"} and any(x["lang"] == "uk" for x in uk["rules"])
    for en_rule, uk_rule in zip(disputed["rules"], uk["rules"]):
        assert (uk_rule["text"] != en_rule["text"]) is (uk_rule["lang"] == "uk"), (en_rule, uk_rule)
    # export / import into another store, and verify there
    src = EventStore(api.data_dir)
    try:
        lines = list(export_lines(src, gid))
    finally:
        src.close()
    dst = EventStore(tmp_path / "copy")
    try:
        import_game(dst, lines)
        rep = verify_game(dst, gid)
        assert rep.ok and rep.dice_ok and rep.rolls_checked == v["rolls_checked"]
    finally:
        dst.close()
    # the picture, and no more commands
    svg = api.get(f"/games/{gid}/board.svg", at=version)
    assert svg.status_code == 200 and svg.text.lstrip().startswith("<svg")
    assert_problem(api.send(gid, t, {"type": "end_turn"}, version), 403)


def test_undo_free_for_own_moves_refused_across_the_emperor(api: Api):
    g = api.create("emperor", SETUP)
    gid, t, v = g["game_id"], g["seats"]["human"], g["version"]
    api.ok(gid, t, {"type": "move", "warrior": "warden", "to": "C2"}, v)
    r = api.client.post(f"/games/{gid}/undo", json={"to_version": v}, headers=api.auth(t))
    assert r.status_code == 201 and r.json()["undo"] == "done", r.text
    assert next(w for w in api.view(gid, t)["state"]["warriors"] if w["id"] == "warden")["cell"] == "C1"
    v2 = api.view(gid, t)["version"]
    api.ok(gid, t, {"type": "end_turn"}, v2)
    # the Emperor's turn revealed an order card and its decisions: with one seat nobody can consent
    assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": v2}, headers=api.auth(t)), 422,
                   rule="UMPIRE-UNDO-6")


def test_refusals_name_the_rule_and_bad_input_is_a_problem(api: Api):
    g = api.create("emperor", SETUP)
    gid, t, v = g["game_id"], g["seats"]["human"], g["version"]
    body = assert_problem(api.send(gid, t, {"type": "move", "warrior": "warden", "to": "E5"}, v), 422)
    assert body["rule"] == "BASE-MOVE-1"
    body = assert_problem(api.send(gid, t, {"type": "attack", "target": "vesper"}, v), 422)
    assert body["rule"] == "BASE-CARD-1"
    assert_problem(api.send(gid, t, {"type": "move", "warrior": 3, "to": "C2"}, v), 400)
    assert_problem(api.send(gid, t, {"type": "push", "target": "vesper", "path": []}, v), 400)
    assert_problem(api.send(gid, None, {"type": "end_turn"}, v), 401)
    r = api.client.post("/games", json={"ruleset": "emperor", "scenario": "NOPE"})
    assert assert_problem(r, 422)["field"] == "scenario"
    r = api.client.post("/games", json={"ruleset": "emperor", "scenario": SETUP, "options": {"x": 1}})
    assert assert_problem(r, 422)["field"] == "options.x"
    rs = api.get("/rulesets").json()
    em = next(x for x in (rs if isinstance(rs, list) else rs["rulesets"]) if x["id"] == "emperor")
    assert {s["id"] for s in em["scenarios"]} >= {SETUP, "SETUP-VESPER-VS-WARDEN", "SETUP-AKHENA-VS-REBEL"}
    assert json.dumps(api.view(gid, t))  # plain JSON
