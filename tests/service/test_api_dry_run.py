"""``POST /games/{id}/commands?dry_run=true`` for every ruleset: legal or not (with the rule), the
events up to the first draw or the first revealing event as that seat sees them, and nothing
stored, drawn or revealed (DESIGN 8; domain/kernel/decider.py)."""
from __future__ import annotations

import random

import pytest

from domain.kernel import Dice, DryRunStop

from .api_client import SEED, Api, api, assert_problem  # noqa: F401


def dry(api: Api, gid: str, token: str | None, command: dict, version: int):
    return api.client.post(f"/games/{gid}/commands", params={"dry_run": "true"},
                           json={"command": command, "expected_version": version}, headers=api.auth(token))


def test_a_dry_die_draws_nothing():
    d = Dice(b"", "g", {"dice": 7}, dry=True)
    seen: list = ["before"]
    d.track(seen)
    with pytest.raises(DryRunStop) as stop:
        d.value(6)
    assert stop.value.emitted == ["before"]
    assert d.counters() == {"dice": 7} and not d.drawn and not d.untaken()


def test_toy_dry_runs_store_nothing_and_stop_at_a_draw_or_a_reveal(api: Api):
    g = api.create()
    gid, tok = g["game_id"], g["seats"]
    v = g["version"]
    r = dry(api, gid, tok["north"], {"type": "step", "steps": 1}, v)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["legal"] is True and body["stopped_at"] is None
    assert [e["type"] for e in body["events"]] == ["stepped"]
    assert body["events"][0]["ruling"]["steps"][0]["rule"] == "TOY-STEP-1"
    r = dry(api, gid, tok["north"], {"type": "roll"}, v)
    assert r.status_code == 200 and r.json()["stopped_at"] == "draw" and r.json()["events"] == []
    r = dry(api, gid, tok["north"], {"type": "draw"}, v)
    assert r.status_code == 200 and r.json()["stopped_at"] == "reveal" and r.json()["events"] == []
    # nothing was stored: same version, same log
    assert api.view(gid)["version"] == v and len(api.events(gid)) == v
    # the real roll afterwards uses die 0 of the stream: the dry runs drew nothing
    ok = api.ok(gid, tok["north"], {"type": "roll"}, v)
    ruling = api.get(f"/games/{gid}/events/{ok['version']}/ruling").json()
    assert [r["index"] for r in ruling["rolls"] if r["stream"] == "dice"] == [0]


def test_dry_run_refusals_are_the_command_refusals(api: Api):
    g = api.create()
    gid, tok, v = g["game_id"], g["seats"], g["version"]
    assert_problem(dry(api, gid, None, {"type": "step"}, v), 401)
    assert_problem(dry(api, gid, tok["north"], {"type": "step"}, v + 5), 409, current_version=v)
    assert_problem(dry(api, gid, tok["south"], {"type": "step"}, v), 403)
    assert_problem(dry(api, gid, tok["north"], {"type": "step", "steps": 3}, v), 422, rule="TOY-STEP-1")
    assert_problem(dry(api, gid, tok["north"], {"type": "no-such"}, v), 400)


def test_dry_runs_of_the_kernels_commands_decide_as_the_command_and_store_nothing(api: Api):
    """``ready``, ``undo``, ``undo_accept``/``undo_decline`` in a dry run: the same checks and decision as
    the command (the kernel's events, with their rulings), nothing stored; the last seat's ``ready`` stops
    at the opening's first draw (the shuffles depend on the client seeds: nothing of them is drawn); a game
    command while an undo request waits shows the request lapsing first, as the command would."""
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED, "start": "when_ready"})
    g = r.json()
    gid, tok, v = g["game_id"], g["seats"], g["version"]
    assert_problem(dry(api, gid, tok["north"], {"type": "step", "steps": 1}, v), 403, rule="UMPIRE-READY-3")
    r = dry(api, gid, tok["north"], {"type": "ready", "client_seed": "n-seed"}, v)
    assert r.status_code == 200, r.text
    body = r.json()
    assert [e["type"] for e in body["events"]] == ["seat_ready"] and body["stopped_at"] is None
    assert body["events"][0]["payload"]["client_seed"] == "n-seed"
    assert api.view(gid)["version"] == v and api.view(gid)["waiting_for"] == ["north", "south"]
    assert [c["type"] for c in api.legal(gid, tok["north"])["commands"]] == ["ready"]  # still to post
    v = api.ok(gid, tok["north"], {"type": "ready", "client_seed": "n-seed"}, v)["version"]
    assert_problem(dry(api, gid, tok["north"], {"type": "ready"}, v), 422, rule="UMPIRE-READY-2")
    r = dry(api, gid, tok["south"], {"type": "ready", "client_seed": "s-seed"}, v)
    body = r.json()
    assert r.status_code == 200 and body["stopped_at"] == "draw", body
    assert [e["type"] for e in body["events"]] == ["seat_ready"]
    assert api.view(gid)["status"] == "waiting" and len(api.events(gid)) == v
    opened = api.ok(gid, tok["south"], {"type": "ready", "client_seed": "s-seed"}, v)
    assert [e["type"] for e in opened["events"]].count("deck_shuffled") == 2
    assert api.get(f"/games/{gid}/verify").json()["client_seeds"] == {"north": "n-seed", "south": "s-seed"}
    v = opened["version"]

    # undo: free (own step of this turn, nothing revealed)
    v = api.ok(gid, tok["north"], {"type": "step", "steps": 1}, v)["version"]
    r = dry(api, gid, tok["north"], {"type": "undo", "to_version": v - 1}, v)
    body = r.json()
    assert r.status_code == 200 and [e["type"] for e in body["events"]] == ["undone"], body
    assert body["events"][0]["ruling"]["steps"][0]["rule"] == "UMPIRE-UNDO-11"
    assert body["events"][0]["ruling"]["steps"][0]["rule_url"].endswith("/rules/UMPIRE-UNDO-11")
    assert_problem(dry(api, gid, tok["north"], {"type": "undo", "to_version": v + 3}, v), 422, rule="UMPIRE-UNDO-1")
    assert_problem(dry(api, gid, tok["north"], {"type": "undo_accept"}, v), 422, rule="UMPIRE-UNDO-5")
    # a roll reveals: the undo would need consent
    v = api.ok(gid, tok["north"], {"type": "roll"}, v)["version"]
    r = dry(api, gid, tok["north"], {"type": "undo", "to_version": v - 2}, v)
    assert r.status_code == 200 and [e["type"] for e in r.json()["events"]] == ["undo_requested"], r.text
    assert api.view(gid)["undo_request"] is None and len(api.events(gid)) == v  # nothing asked, nothing stored
    r = api.client.post(f"/games/{gid}/undo", json={"to_version": v - 2}, headers=api.auth(tok["north"]))
    assert r.status_code == 202, r.text
    v = r.json()["version"]
    for answer, kind in (("undo_accept", "undone"), ("undo_decline", "undo_declined")):
        r = dry(api, gid, tok["south"], {"type": answer}, v)
        assert r.status_code == 200 and [e["type"] for e in r.json()["events"]] == [kind], r.text
        assert_problem(dry(api, gid, tok["north"], {"type": answer}, v), 403, rule="UMPIRE-UNDO-9")
    assert r.json()["events"][0]["ruling"]["steps"][0]["rule"] == "UMPIRE-UNDO-9"
    # a game command now would let the request lapse first
    r = dry(api, gid, tok["north"], {"type": "step", "steps": 1}, v)
    assert r.status_code == 200 and [e["type"] for e in r.json()["events"]] == ["undo_lapsed", "stepped"], r.text
    assert api.view(gid)["undo_request"]["by"] == "north" and len(api.events(gid)) == v  # still waiting
    done = api.ok(gid, tok["north"], {"type": "step", "steps": 1}, v)
    assert [e["type"] for e in done["events"]] == ["undo_lapsed", "stepped"]


def test_a_hoth_end_turn_dry_run_does_not_show_the_drawn_cards(api: Api, monkeypatch):
    """The draw at the end of a hoth turn is revealing: the dry run stops before it, and the card
    the seat then really draws appears nowhere in the dry run's answer."""
    monkeypatch.setattr("service.game_service.new_game_id", lambda: "hoth-dry")
    g = api.create(ruleset="hoth", scenario="SCN-TAKE-DOWN-THE-SHIELD")
    gid, tok = g["game_id"], g["seats"]
    rng = random.Random(4)
    attacked = False
    for _ in range(400):
        view = api.view(gid)
        seat = view["active_seat"]
        legal = api.legal(gid, tok[seat])
        types = {c["type"] for c in legal["commands"]}
        attack = next((c for c in legal["commands"] if c["type"] == "attack"), None)
        if attack is not None and not attacked:
            r = dry(api, gid, tok[seat], attack, legal["version"])
            assert r.status_code == 200, r.text
            assert r.json()["stopped_at"] in ("draw", "reveal")
            assert all("rolls" not in e for e in r.json()["events"])
            attacked = True
        if "end_turn" in types:
            before = api.events(gid, tok[seat])
            r = dry(api, gid, tok[seat], {"type": "end_turn"}, legal["version"])
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["stopped_at"] == "reveal"
            assert all(e["type"] != "cards_drawn" for e in body["events"])
            assert api.events(gid, tok[seat]) == before  # nothing stored
            done = api.ok(gid, tok[seat], {"type": "end_turn"}, legal["version"])
            drawn = [c for e in done["events"] if e["type"] == "cards_drawn" for c in e["payload"].get("cards", [])]
            assert drawn, done
            text = r.text
            hand_before = set(api.view(gid, tok[seat])["state"]["hands"][seat]) - set(drawn)
            for card in drawn:
                if card not in hand_before:
                    assert f'"{card}"' not in text
            return
        cmd = rng.choice([c for c in legal["commands"] if c["type"] != "end_turn"] or legal["commands"])
        api.ok(gid, tok[seat], cmd, legal["version"])
    raise AssertionError("no end_turn offered")


def test_a_smoke_move_dry_run_measures_and_stores_nothing(api: Api, monkeypatch):
    monkeypatch.setattr("service.game_service.new_game_id", lambda: "smoke-dry")
    g = api.create(ruleset="smoke", scenario="BTL-CROSSROADS")
    gid, tok = g["game_id"], g["seats"]
    for _ in range(60):
        view = api.view(gid)
        seat = view["active_seat"]
        legal = api.legal(gid, tok[seat])
        moves = [t for t in legal.get("templates", []) if t["command"]["type"] == "move"]
        if moves:
            t = moves[0]
            cmd = dict(t["example"])
            r = dry(api, gid, tok[seat], cmd, legal["version"])
            assert r.status_code == 200, r.text
            body = r.json()
            moved = [e for e in body["events"] if e["type"] == "unit_moved"]
            assert moved and "limit" in moved[0]["payload"]["measure"]
            assert moved[0]["ruling"]["steps"][0]["rule"] in ("SMOKE-MOVE-3", "SMOKE-MOVE-4")
            # out of bounds of the simple speed: refused with the rule, never a 5xx
            if cmd.get("kind") == "simple":
                bad = dict(cmd, distance=t["bounds"]["distance"]["max"] + 5)
                assert_problem(dry(api, gid, tok[seat], bad, legal["version"]), 422)
            assert api.view(gid)["version"] == legal["version"]
            return
        pick = next((c for c in legal["commands"] if c["type"] == "place_die" and c["slot"] == "A1"), None) \
            or next((c for c in legal["commands"] if c["type"] == "end_placement"), None) \
            or next((c for c in legal["commands"] if c["type"] == "activate"), None) or legal["commands"][0]
        api.ok(gid, tok[seat], pick, legal["version"])
    raise AssertionError("no move template offered")
