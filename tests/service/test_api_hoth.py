"""Battle of Hoth through the REST API: a whole game played by a bot that uses
only /legal-commands; no hidden information leaks to either seat or a
spectator over the whole game (other hands, deck order, the seed before the
end); states/{seq} equals the fold of the first seq events; the board picture."""
from __future__ import annotations

import json
import random

import msgspec
import pytest

from domain.kernel import Setup, fold, registry
from domain.kernel.fold import decode_event
from projections.views import game_view

from .api_client import SEED, Api, api, assert_problem, open_test_store  # noqa: F401

SCENARIO = "SCN-TAKE-DOWN-THE-SHIELD"  # the one scenario of the sources (battle-of-hoth-content.md)
SEATS = ("imperial", "rebel")
MAX_COMMANDS = 1500

hoth = registry.get("hoth")
pytestmark = pytest.mark.skipif(hoth is None, reason="domain.hoth is not installed")  # it is: the engine is in the repo


def _log(data_dir: str, gid: str, upto: int | None = None):
    store = open_test_store(data_dir)
    try:
        g = store.require_game(gid)
        return g, msgspec.json.decode(g.setup, type=Setup), store.load(gid, upto=upto)
    finally:
        store.close()


def _truth(data_dir: str, gid: str, upto: int | None = None):
    g, setup, records = _log(data_dir, gid, upto)
    return g, records, fold(hoth, setup, [(e.seq, decode_event(hoth, e.payload)) for e in records])


def _all_card_ids(state) -> set[str]:
    out: set[str] = set()
    for s in SEATS:
        out.update(state.hands.get(s, ()), state.decks.get(s, ()), state.discards.get(s, ()))
    return out


def _public_ids(records, ids: set[str]) -> set[str]:
    """Card ids shown face up so far (public events other than the catalog in game_opened)."""
    shown: set[str] = set()
    for e in records:
        if e.visibility == "public" and e.type != "game_opened":
            shown.update(c for c in ids if f'"{c}"' in e.payload)
    return shown


def _scan(text: str, secret: set[str]) -> set[str]:
    return {c for c in secret if f'"{c}"' in text or f">{c}<" in text}


def _responses(api: Api, gid: str, token: str | None, version: int, after: int) -> list[str]:
    out = []
    for p in (f"/games/{gid}", f"/games/{gid}/timeline", f"/games/{gid}/legal-commands",
              f"/games/{gid}/states/{version}", f"/games/{gid}/events/{version}/ruling",
              f"/games/{gid}/board.svg", f"/games/{gid}/verify", "/games"):
        r = api.get(p, token)
        assert r.status_code == 200, (p, r.text)
        out.append(r.text)
    # the log: the events new since the last check (the bot never undoes, so older ones do not change);
    # the public card catalogue of game_opened names every card by design: scan the rest
    evs = api.events(gid, token, after=after)
    out += [json.dumps(e) for e in evs if e["type"] != "game_opened"]
    return out


class Truth:
    """The real state, folded incrementally from the store, and the card ids shown face up so far."""

    def __init__(self, data_dir: str, gid: str):
        self.data_dir, self.gid = data_dir, gid
        g, setup, _ = _log(data_dir, gid, upto=0)
        self.state = hoth.initial_state(setup)
        self.version = 0
        self.public: set[str] = set()
        self.ids: set[str] = set()

    def advance(self) -> None:
        store = open_test_store(self.data_dir)
        try:
            records = store.load(self.gid, after=self.version)
        finally:
            store.close()
        for e in records:
            self.state = hoth.evolve(self.state, decode_event(hoth, e.payload))
            if not self.ids:
                self.ids = _all_card_ids(self.state)
            self.version = e.seq
        self.ids |= _all_card_ids(self.state)
        self.public |= _public_ids(records, self.ids)


def _play(api: Api, seed: int, check_leaks: bool, monkeypatch):
    # a fixed game id: the dice depend on it, so the game is the same every run
    monkeypatch.setattr("service.game_service.new_game_id", lambda: f"hoth-test-{seed}")
    g = api.create("hoth", SCENARIO)
    gid, tokens = g["game_id"], g["seats"]
    assert set(tokens) == set(SEATS)
    rng = random.Random(seed)
    checked = 0
    truth = Truth(api.data_dir, gid)
    seen = 0
    for _ in range(MAX_COMMANDS):
        view = api.view(gid)
        if view["status"] == "finished":
            print(f"hoth game {gid}: {view['version']} events, winner {view['winner']}")
            return gid, tokens, view, checked
        if check_leaks:
            truth.advance()
            st = truth.state
            for caller in (*SEATS, None):
                own = set(st.hands.get(caller, ())) if caller else set()
                secret = set().union(*(st.decks.get(s, ()) for s in SEATS),
                                     *(st.hands.get(s, ()) for s in SEATS if s != caller)) - truth.public - own
                for text in _responses(api, gid, tokens.get(caller) if caller else None, view["version"], seen):
                    assert not _scan(text, secret), (caller, _scan(text, secret), text[:300])
                    assert SEED not in text
                    checked += 1
            seen = view["version"]
        seat = view["to_act"][0]
        cmds = api.legal(gid, tokens[seat])["commands"]
        assert cmds, f"{seat} is to act but has no legal command"
        cmd = rng.choice(cmds)
        r = api.send(gid, tokens[seat], cmd, view["version"])
        assert r.status_code == 201, (cmd, r.text)
    raise AssertionError("the game did not end")


def test_a_whole_hoth_game_by_a_legal_commands_bot_leaks_nothing(api: Api, monkeypatch):
    gid, tokens, final, checked = _play(api, seed=3, check_leaks=True, monkeypatch=monkeypatch)
    assert checked > 100
    assert final["winner"] in SEATS and final["state"]["winner"] == final["winner"]
    # once finished everything is public: both hands, the decks, the seed, and the dice check out
    assert all(isinstance(h, list) for h in final["state"]["hands"].values())
    v = api.get(f"/games/{gid}/verify").json()
    assert v["chain_ok"] is True and v["seed"] == SEED and v["dice_ok"] is True
    assert_problem(api.send(gid, tokens["rebel"], {"type": "end_turn"}, final["version"]), 403)


def test_hoth_states_at_every_seq_equal_the_fold_of_the_prefix(api: Api, monkeypatch):
    gid, tokens, final, _ = _play(api, seed=5, check_leaks=False, monkeypatch=monkeypatch)
    g, setup, records = _log(api.data_dir, gid)
    assert not any(e.type == "undone" for e in records)  # so the prefix fold is a running fold
    st = hoth.initial_state(setup)
    for seq in range(0, final["version"] + 1):
        if seq:
            st = hoth.evolve(st, decode_event(hoth, records[seq - 1].payload))
        r = api.get(f"/games/{gid}/states/{seq}", tokens["rebel"])
        assert r.status_code == 200, r.text
        expected = msgspec.json.decode(msgspec.json.encode(game_view(g, hoth, st, "rebel", version=seq)))
        assert r.json() == expected, seq
    assert fold(hoth, setup, [(e.seq, decode_event(hoth, e.payload)) for e in records]) == st
    # DESIGN 6: every step re-decided with the current engine and the revealed seed gives what was recorded
    firsts = set()
    for e in records:
        r = api.get(f"/games/{gid}/events/{e.seq}/redecide")
        if r.status_code == 404:
            assert e.actor is None  # the opening
            continue
        body = r.json()
        assert body["same"] is True, body["differences"]
        firsts.add(body["first_seq"])
    assert len(firsts) > 10


def test_hoth_illegal_command_names_the_rule(api: Api):
    g = api.create("hoth", SCENARIO)
    gid, t, v = g["game_id"], g["seats"], g["version"]
    view = api.view(gid)
    seat = view["to_act"][0]
    other = next(s for s in SEATS if s != seat)
    assert_problem(api.send(gid, t[other], {"type": "end_turn"}, v), 403)
    r = api.send(gid, t[seat], {"type": "play_card", "card": "NOT-A-CARD"}, v)
    assert r.status_code in (400, 422), r.text
    if r.status_code == 422:
        assert assert_problem(r, 422)["rule"].startswith("HOTH-")


def test_hoth_board_picture_snapshot(api: Api, snapshot, monkeypatch):
    monkeypatch.setattr("service.game_service.new_game_id", lambda: "hoth-board")
    g = api.create("hoth", SCENARIO)
    r = api.get(f"/games/{g['game_id']}/board.svg", at=g["version"])
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith("<svg") or r.text.lstrip().startswith("<?xml")
    assert r.text == snapshot


def test_hoth_undo_free_for_moves_consent_for_an_attack_and_new_dice_after(api: Api, monkeypatch):
    """DESIGN 5 on Hoth: the first legal command each time; card play, orders and moves reveal
    nothing (free undo), an attack rolls dice (consent), and the re-made attack rolls new dice."""
    monkeypatch.setattr("service.game_service.new_game_id", lambda: "hoth-undo")
    g = api.create("hoth", SCENARIO)
    gid, tokens = g["game_id"], g["seats"]
    kinds = set()
    for _ in range(40):
        v = api.view(gid)
        seat = v["to_act"][0]
        other = next(s for s in SEATS if s != seat)
        cmd = api.legal(gid, tokens[seat])["commands"][0]
        done = api.ok(gid, tokens[seat], cmd, v["version"])
        rolled = [e for e in api.events(gid, tokens[seat], after=v["version"]) if e["type"] == "attack_rolled"]
        u = api.client.post(f"/games/{gid}/undo", json={"to_version": v["version"]}, headers=api.auth(tokens[seat]))
        if rolled:  # dice were rolled: never free
            assert u.status_code == 202, (cmd, u.text)
            first = api.get(f"/games/{gid}/events/{rolled[0]['seq']}/ruling", tokens[seat]).json()["rolls"]
            kinds.add("consent after a roll")
        else:  # free unless the card revealed something (e.g. a look at the other hand)
            assert u.status_code in (201, 202), (cmd, u.text)
            kinds.add("free" if u.status_code == 201 else "consent")
        if u.status_code == 202:
            assert api.accept(gid, tokens[other]).status_code == 201
        after = api.view(gid)
        assert after["state"] == v["state"], cmd  # undo equals the fold of the kept events
        evs = {e["seq"]: e for e in api.events(gid, tokens[seat])}
        assert all(evs[e["seq"]]["undone"] for e in done["events"])
        redo = api.ok(gid, tokens[seat], cmd, after["version"])
        if rolled:
            seq = next(e["seq"] for e in redo["events"] if e["type"] == "attack_rolled")
            second = api.get(f"/games/{gid}/events/{seq}/ruling", tokens[seat]).json()["rolls"]
            assert min(r["index"] for r in second) > max(r["index"] for r in first)  # never a re-roll
            break
    assert {"free", "consent after a roll"} <= kinds, kinds


def test_replays_of_a_finished_hoth_game_show_every_hand_to_a_spectator(api: Api, monkeypatch):
    """DESIGN 4: after the game ends everything is public, also in replays of earlier states
    (GET /games/{id}/states/{seq}): a spectator sees both hands and the deck order of an early state."""
    gid, tokens, final, _ = _play(api, seed=5, check_leaks=False, monkeypatch=monkeypatch)
    _, _, records = _log(api.data_dir, gid)
    seq = next(e.seq for e in records if e.type == "turn_started")  # hands are dealt, the game just began
    g, _, st = _truth(api.data_dir, gid, upto=seq)
    assert st.winner is None and all(st.hands.get(s) for s in SEATS)  # an early, unfinished state
    body = api.get(f"/games/{gid}/states/{seq}").json()
    assert body["version"] == seq and body["status"] == "active"
    assert body["state"]["hands"] == {s: list(st.hands[s]) for s in SEATS}
    assert body["state"]["decks"] == {s: list(d) for s, d in st.decks.items()}
