"""Undo with forged targets, as a player who wants a second outcome of a draw without the other side's consent.

The adversarial battery (tests/fairness/battery.py) asks for undos only to the command boundaries the game lists
(``undo_targets``); here the cheater sends every ``to_version`` it can make up -- below zero, 0 (before the game's
header), inside the opening's deal, every seq of the log (boundaries and the middle of a command), the version
itself, one past it, and numbers too big for a 64-bit integer -- through every route that undoes: ``POST
/games/{id}/undo``, ``{"type": "undo"}`` through ``/commands`` (with and without ``expected_version``), and the
dry run of it. After each request that waits for consent it accepts it itself, by both routes.

What must hold (DESIGN 5; UMPIRE-UNDO-8, -9, -13; the oracle reads the stored log, never the answers): every
``undone`` event whose range, or anything after it up to the undo, holds a draw or an event hidden from some
seat was agreed by a seat of another side (none in the Emperor's solo game: nobody can agree there); no answer is
a 500; a refusal is a problem detail; a dry run stores nothing.

Games: the toy ruleset (dice and private draws, tests/service/toy_ruleset.py), the Emperor (one seat: each of
its decisions is a reveal) and a Battle of Hoth campaign's first battle (its opening deals come from the
campaign's seed). Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import random
from typing import Any

import msgspec
from litestar.testing import TestClient

from tests.service.api_client import PROBLEM, SEED

KERNEL = frozenset({"game_created", "seat_ready", "undo_requested", "undo_accepted", "undo_declined",
                    "undo_lapsed", "undone", "seats_offered", "seat_claimed", "seat_rotated"})
HUGE = (2**31, 2**63, 2**64 + 5, 10**30)


def _auth(tok: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"}


def _reveals(log: list[Any]) -> set[int]:
    """Seqs of the log's draws, events hidden from some seat, and events stored as reveals (the Emperor's turned
    order card and what follows from it): the stored rows, not an answer."""
    return {e.seq for e in log
            if e.type not in KERNEL and (e.reveals or e.rolls not in ("", "[]") or e.visibility != "public")}


def check_log(store: Any, gid: str, sides: dict[str, str]) -> int:
    """The oracle: every ``undone`` of the stored log is free only when it crosses no reveal, and otherwise was
    agreed by another side. Returns the number of undos found."""
    log = store.load(gid)
    reveals = _reveals(log)
    found = 0
    for e in log:
        if e.type != "undone":
            continue
        found += 1
        p = msgspec.json.decode(e.payload)
        crossed = sorted(s for s in reveals if p["first"] <= s < e.seq)
        if p["consented_by"] is None:
            assert not crossed, f"a free undo (seq {e.seq}) by {p['by']} crossed the reveals at {crossed}"
        else:
            assert sides[p["consented_by"]] != sides[p["by"]], f"undo seq {e.seq} agreed by the asker's own side"
    return found


def _refused(r: Any) -> None:
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        assert r.headers["content-type"].startswith(PROBLEM), r.text


def attack(c: TestClient, gid: str, tokens: dict[str, str], sides: dict[str, str], seats: list[str]) -> dict[str, int]:
    """Every forged target by every route, for each of ``seats``; each waiting request accepted by its asker."""
    svc = c.app.state.games
    tally = {"free": 0, "requested": 0, "refused": 0, "dry": 0}
    for seat in seats:
        tok = tokens[seat]
        version = svc.current(gid).version
        targets = [-(2**63), -1, *range(version + 2), *HUGE]
        for t in targets:
            for how in ("undo-route", "command", "command-no-version", "dry-run"):
                now = svc.current(gid).version
                if how == "undo-route":
                    r = c.post(f"/games/{gid}/undo", json={"to_version": t}, headers=_auth(tok))
                elif how == "dry-run":
                    r = c.post(f"/games/{gid}/commands", params={"dry_run": "true"}, headers=_auth(tok),
                               json={"command": {"type": "undo", "to_version": t}, "expected_version": now})
                    _refused(r)
                    assert svc.current(gid).version == now, "a dry run of an undo stored something"
                    tally["dry"] += r.status_code == 200
                    continue
                else:
                    body: dict[str, Any] = {"command": {"type": "undo", "to_version": t}}
                    if how == "command":
                        body["expected_version"] = now
                    r = c.post(f"/games/{gid}/commands", json=body, headers=_auth(tok))
                _refused(r)
                if r.status_code >= 400:
                    tally["refused"] += 1
                    continue
                kind = r.json().get("undo")
                if kind == "done":
                    tally["free"] += 1
                    check_log(svc.store, gid, sides)
                    continue
                assert kind == "requested", r.text
                tally["requested"] += 1
                # the asker agrees to its own request: by the route and as a command
                at = {"expected_version": c.get(f"/games/{gid}").json()["version"]}
                a = c.post(f"/games/{gid}/undo/accept", headers=_auth(tok), json=at)
                assert a.status_code in (403, 409, 422), a.text
                a = c.post(f"/games/{gid}/commands", headers=_auth(tok),
                           json={"command": {"type": "undo_accept"}, "expected_version": svc.current(gid).version})
                assert a.status_code in (403, 409, 422), a.text
                # a teammate (a seat of the asker's side) agrees
                for mate in (s for s in tokens if s != seat and sides[s] == sides[seat]):
                    a = c.post(f"/games/{gid}/undo/accept", headers=_auth(tokens[mate]), json=at)
                    assert a.status_code in (403, 409, 422), a.text
                # the other side declines it (the next forged target starts from a game without a request)
                other = next((s for s in tokens if sides[s] != sides[seat]), None)
                if other is not None:
                    d = c.post(f"/games/{gid}/undo/decline", headers=_auth(tokens[other]))
                    assert d.status_code == 201, d.text
                check_log(svc.store, gid, sides)
    check_log(svc.store, gid, sides)
    return tally


def _play(c: TestClient, gid: str, tokens: dict[str, str], commands: list[tuple[str, dict]]) -> None:
    svc = c.app.state.games
    for seat, cmd in commands:
        r = c.post(f"/games/{gid}/commands", headers=_auth(tokens[seat]),
                   json={"command": cmd, "expected_version": svc.current(gid).version})
        assert r.status_code == 201, r.text


def test_toy_forged_undo_targets_never_re_roll_or_re_draw_without_the_other_side(toy_client):
    c = toy_client
    g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
    gid, tokens = g["game_id"], g["seats"]
    sides = {s: s for s in tokens}
    # north: a free step, a roll, a private draw, another step (still north's turn: its own commands)
    _play(c, gid, tokens, [("north", {"type": "step"}), ("north", {"type": "roll"}), ("north", {"type": "draw"}),
                           ("north", {"type": "step"})])
    tally = attack(c, gid, tokens, sides, ["north", "south"])
    # south's turn: a step, a draw; both seats attack again (the last command is south's own, not a reveal)
    _play(c, gid, tokens, [("north", {"type": "end_turn"}), ("south", {"type": "draw"}), ("south", {"type": "step"})])
    more = attack(c, gid, tokens, sides, ["south", "north"])
    print(f"\n{tally} {more}")
    # the attack reached every kind of answer: refusals, requests and at least one free undo (north's last step)
    assert tally["refused"] > 0 and tally["requested"] > 0 and tally["free"] > 0, tally
    assert more["requested"] > 0 and more["dry"] > 0, more


def test_the_emperor_solo_seat_cannot_undo_the_emperors_turn_by_any_target(toy_client):
    """One seat, ``human``: the Emperor's decisions are reveals, and there is no other side to agree."""
    c, rng = toy_client, random.Random(5)
    svc = c.app.state.games
    g = c.post("/games", json={"ruleset": "emperor", "scenario": "SETUP-AKHENA-VS-REBEL", "seed": SEED})
    assert g.status_code == 201, g.text
    gid, tokens = g.json()["game_id"], g.json()["seats"]
    opening = svc.current(gid).version
    for _ in range(60):  # play until the Emperor has taken a turn (its decisions are stored in the human's commands)
        if _reveals(svc.store.load(gid, after=opening)):
            break
        legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(tokens["human"])).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        r = c.post(f"/games/{gid}/commands", headers=_auth(tokens["human"]),
                   json={"command": rng.choice(cmds), "expected_version": legal["version"]})
        assert r.status_code == 201, r.text
    assert _reveals(svc.store.load(gid, after=opening)), "the Emperor revealed nothing: the attack would prove nothing"
    assert not svc.current(gid).finished
    tally = attack(c, gid, tokens, {"human": "human"}, ["human"])
    assert tally["refused"] > 0, tally
    # no request can ever be agreed: nobody else sits here
    assert not any(e.type == "undo_accepted" for e in svc.store.load(gid))


def test_a_campaign_battles_opening_cannot_be_undone_into_another_deal(toy_client):
    """The first battle of a Battle of Hoth campaign: its opening (the support shuffles from the campaign's seed,
    the deals) is no command; undoing to before it, or into it, would deal again."""
    c = toy_client
    b = c.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA", "seed": "5a" * 32})
    assert b.status_code == 201, b.text
    gid, tokens = b.json()["game_id"], b.json()["seats"]
    svc = c.app.state.games
    opening = svc.current(gid).version
    rng = random.Random(3)
    for _ in range(3):  # a few commands, so there are boundaries after the opening
        seat = svc.current(gid).status.to_act[0]
        legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(tokens[seat])).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        _play(c, gid, tokens, [(seat, rng.choice(cmds))])
    sides = {s: s for s in tokens}
    attack(c, gid, tokens, sides, list(tokens))
    log = svc.store.load(gid)
    # no undo reached into the opening: whatever was undone starts after it
    for e in log:
        if e.type == "undone":
            assert msgspec.json.decode(e.payload)["first"] > opening, e.payload
