"""Whole games through the API: a bot that uses only legal-commands, no hidden
information leak for either seat or a spectator, replay equals the fold of the
prefix, the seed only at the end (DESIGN sections 3-5, 8)."""
from __future__ import annotations

import random
import re

import msgspec

from domain.kernel import fold
from domain.kernel.fold import decode_event
from projections.views import game_view

from .api_client import SEED, Api, api, assert_problem, open_test_store  # noqa: F401
from .toy_ruleset import RULESET, SEATS, Setup

MAX_COMMANDS = 600


def _truth(data_dir: str, gid: str, upto: int | None = None):
    store = open_test_store(data_dir)
    try:
        g = store.require_game(gid)
        setup = msgspec.json.decode(g.setup, type=Setup)
        pairs = [(e.seq, decode_event(RULESET, e.payload)) for e in store.load(gid, upto=upto)]
        return g, setup, fold(RULESET, setup, pairs)
    finally:
        store.close()


def _secrets(state, caller: str | None) -> set[str]:
    """Card ids the caller may not know now: other hands, every deck."""
    out: set[str] = set()
    for seat in SEATS:
        out.update(state.decks[seat])
        if seat != caller:
            out.update(state.hands[seat])
    return out


def _responses(api: Api, gid: str, token: str | None, version: int) -> list[str]:
    paths = [f"/games/{gid}", f"/games/{gid}/events", f"/games/{gid}/timeline", f"/games/{gid}/legal-commands",
             f"/games/{gid}/states/{version}", f"/games/{gid}/events/{version}/ruling", f"/games/{gid}/board.svg",
             f"/games/{gid}/verify", "/games"]
    out = []
    for p in paths:
        r = api.get(p, token, **({"limit": 1000} if p.endswith("/events") else {}))
        assert r.status_code == 200, (p, r.text)
        out.append(r.text)
    return out


def _play(api: Api, seed: int, check_leaks: bool):
    g = api.create()
    gid, tokens = g["game_id"], g["seats"]
    rng = random.Random(seed)
    for _ in range(MAX_COMMANDS):
        view = api.view(gid)
        if view["status"] == "finished":
            return gid, tokens, view
        if check_leaks:
            _, _, truth = _truth(api.data_dir, gid)
            for caller in (*SEATS, None):
                secret = _secrets(truth, caller)
                texts = _responses(api, gid, tokens.get(caller) if caller else None, view["version"])
                for text in texts:
                    found = {c for c in secret if re.search(rf'"{c}"|\b{c}\b', text)}
                    assert not found, (caller, found, text[:400])
                    assert SEED not in text
        seat = view["to_act"][0]
        cmds = api.legal(gid, tokens[seat])["commands"]
        assert cmds, "an active game always has a legal command for the seat to act"
        weights = [0.2 if c["type"] in ("end_turn", "challenge") else 1.0 for c in cmds]
        cmd = rng.choices(cmds, weights)[0]
        r = api.send(gid, tokens[seat], cmd, view["version"])
        assert r.status_code == 201, (cmd, r.text)
    raise AssertionError("the game did not end")


def test_bot_plays_a_whole_game_with_legal_commands_only_and_nothing_leaks(api: Api):
    gid, tokens, final = _play(api, seed=7, check_leaks=True)
    assert final["winner"] in SEATS
    # after the end everything is public: both hands, and the seed in /verify
    assert set(final["state"]["hands"]) == set(SEATS)
    v = api.get(f"/games/{gid}/verify").json()
    assert v["chain_ok"] is True and v["seed"] == SEED and v["dice_ok"] is True
    # a finished game takes no more commands
    assert_problem(api.send(gid, tokens["north"], {"type": "step"}, final["version"]), 403)


def test_states_at_every_seq_equal_the_fold_of_the_prefix(api: Api):
    gid, tokens, final = _play(api, seed=11, check_leaks=False)
    n = tokens["north"]
    for seq in range(0, final["version"] + 1):
        r = api.get(f"/games/{gid}/states/{seq}", n)
        assert r.status_code == 200, r.text
        g, _setup, st = _truth(api.data_dir, gid, upto=seq)
        expected = msgspec.json.decode(msgspec.json.encode(game_view(g, RULESET, st, "north", version=seq)))
        assert r.json() == expected, seq
    assert_problem(api.get(f"/games/{gid}/states/{final['version'] + 1}", n), 404)
    assert api.get(f"/games/{gid}/states/{final['version']}", n).json()["state"] == final["state"]


def test_events_redact_private_fields_for_others_and_keep_seq_gapless(api: Api):
    g = api.create()
    gid, t = g["game_id"], g["seats"]
    api.ok(gid, t["north"], {"type": "draw"})
    for caller in ("north", "south", None):
        evs = api.events(gid, t.get(caller) if caller else None)
        assert [e["seq"] for e in evs] == list(range(1, len(evs) + 1))
        dealt = {e["payload"]["seat"]: e["payload"] for e in evs if e["type"] == "hand_dealt"}
        for seat, payload in dealt.items():
            if seat == caller:
                assert len(payload["cards"]) == 3 and "redacted" not in payload
            else:
                assert payload["redacted"] is True and "cards" not in payload
        shuffles = [e["payload"] for e in evs if e["type"] == "deck_shuffled"]
        assert all(p["redacted"] is True and "order" not in p for p in shuffles)
        drawn = evs[-1]["payload"]
        assert ("card" in drawn) == (caller == "north")
        ruling = api.get(f"/games/{gid}/events/{evs[-1]['seq']}/ruling", t.get(caller) if caller else None).json()
        assert (ruling["ruling"] is None) == (caller != "north")
    # the shuffle's draws would give the deck order away: withheld from everybody
    for caller in ("north", "south", None):
        r = api.get(f"/games/{gid}/events/2/ruling", t.get(caller) if caller else None).json()
        assert r.get("redacted") is True and "rolls" not in r


def test_pagination_and_timeline(api: Api):
    g = api.create()
    gid, t = g["game_id"], g["seats"]
    api.ok(gid, t["north"], {"type": "step"})
    api.ok(gid, t["north"], {"type": "end_turn"})
    page = api.get(f"/games/{gid}/events", after=2, limit=2).json()["events"]
    assert [e["seq"] for e in page] == [3, 4]
    assert_problem(api.get(f"/games/{gid}/events", limit=0), 400, field="limit")
    assert_problem(api.get(f"/games/{gid}/events", after=-1), 400, field="after")
    assert api.get(f"/games/{gid}/events", after=2**53 - 1).json()["events"] == []  # the largest seq it takes
    assert_problem(api.get(f"/games/{gid}/events", after=10**30), 400, field="after")  # past it (and SQLite's): 400
    steps = api.get(f"/games/{gid}/timeline").json()["steps"]
    assert [s["seq"] for s in steps] == list(range(1, 8))
    assert steps[0]["summary"] == "game created: A duel for north, south"
    assert steps[5]["summary"] == "north steps to 1" and steps[6]["summary"] == "north ends the turn"
    svg = api.get(f"/games/{gid}/board.svg", at=5)
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and "<text" in svg.text
    assert_problem(api.get(f"/games/{gid}/board.svg", at=99), 404)
    assert_problem(api.get(f"/games/{gid}/events/99/ruling"), 404)
    assert_problem(api.get(f"/games/{gid}", "bad-token"), 401)
    assert_problem(api.get("/games", status="paused"), 400, field="status")


def test_redecide_a_step_of_a_finished_game_with_the_current_engine(api: Api, monkeypatch):
    g = api.create()
    gid, t = g["game_id"], g["seats"]
    api.ok(gid, t["north"], {"type": "step"})
    assert_problem(api.get(f"/games/{gid}/events/5/redecide"), 409)  # the seed is still secret
    gid, tokens, final = _play(api, seed=7, check_leaks=False)
    evs = api.events(gid)
    assert_problem(api.get(f"/games/{gid}/events/1/redecide"), 404, field="seq")  # the opening: no command
    for e in evs:
        if e["seq"] <= 5:  # the header and the opening
            continue
        r = api.get(f"/games/{gid}/events/{e['seq']}/redecide")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["same"] is True and body["differences"] == [], body
        assert body["first_seq"] <= e["seq"] <= body["last_seq"]
    # a rule "fixed" since: steps now go one further; the re-decision shows the difference
    stepped = next(e for e in evs if e["type"] == "stepped")
    from . import toy_ruleset

    orig = toy_ruleset.ToyRuleset.decide

    def changed(self, state, seat, command, dice):
        out = orig(self, state, seat, command, dice)
        if isinstance(command, toy_ruleset.Step):
            ev = out[0].event
            out[0] = msgspec.structs.replace(out[0], event=msgspec.structs.replace(ev, position=ev.position + 1))
        return out

    monkeypatch.setattr(toy_ruleset.ToyRuleset, "decide", changed)
    body = api.get(f"/games/{gid}/events/{stepped['seq']}/redecide").json()
    assert body["same"] is False
    [diff] = body["differences"]
    assert diff["field"] == "payload" and diff["current"]["position"] == diff["recorded"]["position"] + 1
