"""The black-box audit's four fairness findings, each reproduced through the service's command path on a real
SQLite store (they failed before consent by side, derived reveals and the bots' reveal rule):

1. a teammate consented to an undo (Hoth team play, both ways; UMPIRE-UNDO-13);
2. Smoke's secret column numbering: the last seat read the opponent's columns in its last marker's answer and
   took its markers back for free (``columns_revealed`` was not a reveal; UMPIRE-REVEAL-1);
3. the same secret through a dry run of the last marker;
4. a bot consented to an undo over a Hoth card draw (a reveal without dice; UMPIRE-BOT-2).
"""
from __future__ import annotations

import random

import msgspec
import pytest

from bots import answer_undo
from domain.kernel import registry
from projections.views import undo_request_view
from service.bot_players import next_job
from service.game_service import CommandRequest, CreateGameRequest, GameService
from service.problems import Problem
from service.store import EventStore
from service.undo import answer as answer_undo_route
from service.undo import request_undo

HOTH = registry.get("hoth")
SMOKE = registry.get("smoke")


@pytest.fixture
def svc(tmp_path, monkeypatch, request):
    monkeypatch.setattr("service.game_service.new_game_id", lambda: f"audit-{request.node.name[:40]}")
    s = GameService(EventStore(tmp_path / "data"))
    try:
        yield s
    finally:
        s.store.close()


def send(svc: GameService, gid: str, token: str, command: dict, *, dry: bool = False):
    req = CommandRequest(command=command, expected_version=svc.current(gid).version)
    return svc.dry_run(gid, token, req) if dry else svc.command(gid, token, req).body


def problem(fn, *args) -> Problem:
    with pytest.raises(Problem) as exc:
        fn(*args)
    return exc.value


def legal(svc: GameService, gid: str, seat: str) -> list[dict]:
    return svc.legal_commands(svc.current(gid), seat)


# -- 1. team play: a teammate consents ----------------------------------------------------------------------
def team_attack(svc: GameService) -> tuple[str, dict, str, int]:
    """A 4-player Hoth game played at random until a command is an attack; (game, tokens, attacker, the version
    before the attack)."""
    g = svc.create_game(CreateGameRequest(ruleset="hoth", scenario="SCN-TAKE-DOWN-THE-SHIELD", seed="7e" * 32,
                                          options={"team": True}))
    gid, tokens = g["game_id"], g["seats"]
    assert set(tokens) == {"imperial", "rebel", "imperial-2", "rebel-2"}
    rng = random.Random(3)
    for _ in range(800):
        cur = svc.current(gid)
        seat = cur.status.to_act[0]
        cmds = [c for c in legal(svc, gid, seat) if not c["type"].startswith("undo")]
        pick = [c for c in cmds if c["type"] == "attack"] or cmds
        ans = send(svc, gid, tokens[seat], rng.choice(pick))
        if ans["events"][0]["type"] == "attack_rolled":
            return gid, tokens, seat, cur.version
    raise AssertionError("no attack")


def partner(seat: str) -> str:
    return seat[:-2] if seat.endswith("-2") else f"{seat}-2"


def enemy(seat: str) -> str:
    return "rebel" if seat.startswith("imperial") else "imperial"


def test_a_teammate_cannot_consent_to_its_partners_re_roll(svc):
    gid, tokens, attacker, before = team_attack(svc)
    ans = request_undo(svc, gid, tokens[attacker], before)
    assert ans.status == 202 and ans.body["undo"] == "requested"
    mate = partner(attacker)
    assert {"type": "undo_accept"} not in legal(svc, gid, mate)  # UMPIRE-UNDO-13: not listed for a teammate
    p = problem(answer_undo_route, svc, gid, tokens[mate], True)
    assert p.status == 403 and p.extra.get("rule") == "UMPIRE-UNDO-13"
    for answer in ("undo_accept", "undo_decline"):  # nor through /commands, nor as a dry run
        p = problem(send, svc, gid, tokens[mate], {"type": answer})
        assert p.status == 403 and p.extra.get("rule") == "UMPIRE-UNDO-13"
        p = problem(lambda: send(svc, gid, tokens[mate], {"type": answer}, dry=True))
        assert p.status == 403 and p.extra.get("rule") == "UMPIRE-UNDO-13"
    assert svc.current(gid).folded.kernel.undo_request is not None  # still waiting: nothing undone
    view = svc.current(gid)
    shown = undo_request_view(view.folded.kernel, view.ruleset)
    assert shown["waiting_for"] == [enemy(attacker).split("-")[0]] and shown["accepted"] == []
    # the other side may consent: then it is an agreed re-roll
    foe = enemy(attacker)
    assert {"type": "undo_accept"} in legal(svc, gid, foe) and {"type": "undo_accept"} in legal(svc, gid, partner(foe))
    done = answer_undo_route(svc, gid, tokens[partner(foe)], True)
    undone = done.body["events"][0]["payload"]
    assert undone["consented_by"] == partner(foe) and undone["redraw"] is True


def test_an_opponents_teammate_cannot_erase_a_roll_its_partner_asked_to_undo(svc):
    gid, tokens, attacker, before = team_attack(svc)
    foe = enemy(attacker)
    ans = request_undo(svc, gid, tokens[foe], before)  # the other side asks to undo the attacker's roll
    assert ans.status == 202
    p = problem(answer_undo_route, svc, gid, tokens[partner(foe)], True)
    assert p.status == 403 and p.extra.get("rule") == "UMPIRE-UNDO-13"
    assert not any(c["type"] == "undo_accept" for c in legal(svc, gid, partner(foe)))
    # the attacker's side declines: the roll stays
    assert answer_undo_route(svc, gid, tokens[partner(attacker)], False).body["undo"] == "declined"
    assert svc.current(gid).folded.undone == frozenset()


def test_a_four_player_smoke_game_takes_consent_from_the_other_side_only(svc):
    g = svc.create_game(CreateGameRequest(ruleset="smoke", scenario="BTL-CROSSROADS", seed="3c" * 32,
                                          options={"players": 4}))
    gid, tokens = g["game_id"], g["seats"]
    sides = SMOKE.sides(svc.current(gid).setup)
    assert len(set(sides.values())) == 2 and len(sides) == 4
    seat = svc.current(gid).status.to_act[0]
    v = svc.current(gid).version
    send(svc, gid, tokens[seat], [c for c in legal(svc, gid, seat) if not c["type"].startswith("undo")][0])
    asker = next(s for s in sides if sides[s] != sides[seat])  # the other side asks to undo seat's command
    ans = request_undo(svc, gid, tokens[asker], v)
    assert ans.status == 202
    mate = next(s for s in sides if s != asker and sides[s] == sides[asker])
    assert not any(c["type"] == "undo_accept" for c in legal(svc, gid, mate))
    p = problem(answer_undo_route, svc, gid, tokens[mate], True)
    assert p.status == 403 and p.extra.get("rule") == "UMPIRE-UNDO-13"
    other = next(s for s in sides if sides[s] == sides[seat] and s != seat)  # seat's teammate may consent
    assert answer_undo_route(svc, gid, tokens[other], True).body["undo"] == "done"


# -- 2 and 3. Smoke's secret columns ---------------------------------------------------------------------------
def to_last_marker(svc: GameService) -> tuple[str, dict, str, int, dict]:
    """A 2-player column deployment up to the last marker: (game, tokens, its seat, the version before that
    seat's first marker, the last marker command)."""
    g = svc.create_game(CreateGameRequest(ruleset="smoke", scenario="BTL-OPEN-FIELD", seed="3c" * 32))
    gid, tokens = g["game_id"], g["seats"]
    first_marker: dict[str, int] = {}
    for _ in range(80):
        cur = svc.current(gid)
        seat = cur.status.to_act[0]
        cmd = SMOKE.legal_commands(cur.state, seat)[0]
        body = msgspec.to_builtins(cmd)
        if body["type"] == "place_column":
            first_marker.setdefault(seat, cur.version)
            d = cur.state.deployment
            placed = len([m for m in d.markers if m.seat == seat])
            others_done = all(len([m for m in d.markers if m.seat == s]) >= len(d.columns[s])
                              for s in cur.setup.seats if s != seat)
            if others_done and placed == len(d.columns[seat]) - 1:
                return gid, tokens, seat, first_marker[seat], body
        send(svc, gid, tokens[seat], body)
    raise AssertionError("no last marker")


def test_the_last_seat_cannot_take_back_its_markers_for_free_after_the_columns_are_revealed(svc):
    gid, tokens, seat, before, last = to_last_marker(svc)
    ans = send(svc, gid, tokens[seat], last)
    assert "columns_revealed" in [e["type"] for e in ans["events"]]  # the rules reveal them now (SMOKE-DEP-3)
    undo = request_undo(svc, gid, tokens[seat], before)
    assert undo.status == 202 and undo.body["undo"] == "requested", undo.body  # was 201, consented_by null
    assert not any(e.type == "undone" for e in svc.store.load(gid))


def test_a_dry_run_of_the_last_marker_stops_before_the_columns_are_revealed(svc):
    gid, tokens, seat, _before, last = to_last_marker(svc)
    opponent = next(s for s in tokens if s != seat)
    secret = svc.current(gid).state.deployment.columns[opponent]
    dry = send(svc, gid, tokens[seat], last, dry=True)
    assert dry["stopped_at"] == "reveal"
    assert "columns_revealed" not in [e["type"] for e in dry["events"]]
    text = msgspec.json.encode(dry).decode()
    assert all(u not in text for col in secret for u in col), "a unit of the opponent's secret columns is shown"


# -- 4. a bot and a card draw ------------------------------------------------------------------------------
def test_a_bot_declines_an_undo_over_a_hoth_card_draw(svc):
    g = svc.create_game(CreateGameRequest(ruleset="hoth", scenario="SCN-TAKE-DOWN-THE-SHIELD", seed="7e" * 32,
                                          bots={"rebel": "random"}))
    gid, tokens = g["game_id"], g["seats"]
    me = "imperial"
    start = svc.current(gid).version
    for _ in range(60):  # the imperial turn, ending phases at once, up to its end_turn (which draws cards)
        cmds = legal(svc, gid, me)
        ends = [c for c in cmds if c["type"] in ("end_orders", "end_moves", "end_attacks", "end_turn")]
        ans = send(svc, gid, tokens[me], (ends or cmds)[0])
        if "cards_drawn" in [e["type"] for e in ans["events"]]:
            break
    else:
        raise AssertionError("no end of turn")
    assert not any(e.rolls not in ("", "[]") for e in svc.store.load(gid, after=start))  # no die: a card only
    req = request_undo(svc, gid, tokens[me], start)
    assert req.status == 202
    job = next_job(svc, gid)
    assert job is not None and job.kind == "undo" and job.seat == "rebel"
    assert job.question.draws is False and job.question.reveals is True
    accept, why = answer_undo(job.question)
    assert not accept and "revealed" in why
