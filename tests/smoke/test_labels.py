"""Clouds of Smoke's words (DESIGN 12): placing a die names its face and what the slot does with it;
taking the risk warns of the chance and the cost from SMOKE-ACT-2 and SMOKE-RISK-5/6; the move form's
distance bound is what SMOKE-MOVE-3 and SMOKE-TERR-6 allow (the road bonus only from a road)."""
from __future__ import annotations

import random

import msgspec
import pytest

from domain.kernel import RuleViolation, registry
from domain.kernel.messages import text_of
from domain.kernel.runner import Game
from domain.smoke import commands as C
from domain.smoke.movement import ROAD_BONUS


def _words(got: dict) -> dict:
    """A command's words in English (labels and warnings are messages, issue 28: their English text)."""
    return {k: text_of(v) if v is not None else None for k, v in got.items()}


def _walk(seed: int, until, cap: int = 400):
    """Random play of BTL-CROSSROADS; ``until(g, seat, cmds)`` is asked at every decision (True: stop)."""
    rs = registry.get("smoke")
    g = Game(rs, "BTL-CROSSROADS", seed=seed.to_bytes(32, "big"))
    rng = random.Random(seed)
    while not g.over and g.commands < cap:
        seat = g.to_act()
        cmds = g.legal(seat)
        if until(g, seat, cmds):
            return rs, g, seat, cmds
        g.do(seat, rng.choice(cmds))
    raise AssertionError("never reached")


def test_placing_a_die_names_its_face_and_the_slot_action():
    rs, g, seat, cmds = _walk(5, lambda g, s, cmds: any(isinstance(c, C.PlaceDie) for c in cmds))
    a = g.state.turn.actions
    board = g.state.board_of(seat)
    for c in [c for c in cmds if isinstance(c, C.PlaceDie)]:
        face, slot = a.dice[c.die], board.slot(c.slot)
        label = _words(rs.describe(g.state, seat, c))["label"]
        assert label.startswith(f"Put your {face} on {slot.name} ({slot.id}, {slot.kind}): ")
        if slot.name == "Order":  # "within D + 2 UW": the face is put in
            assert f"within {face} + 2 UW of a commander" in label


def test_taking_the_risk_warns_of_the_chance_and_the_cost_from_the_rules():
    rs, g, seat, cmds = _walk(5, lambda g, s, cmds: any(isinstance(c, C.TakeRisk) for c in cmds))
    army = g.state.armies[seat]
    words = _words(rs.describe(g.state, seat, C.TakeRisk()))
    assert words["label"].startswith("Take the risk: roll one extra action die")
    w = words["warning"]
    assert "1 in 6" in w and "SMOKE-ACT-2" in w
    assert f"your army loses {army.level} morale" in w and "SMOKE-RISK-5" in w and f"{army.morale} left now" in w
    assert f"a deputy of level {max(2, army.level - 1)}" in w and "SMOKE-RISK-6" in w


@pytest.mark.parametrize("seed", [5, 9])
def test_the_move_forms_distance_is_what_the_rule_allows(seed: int):
    def has_move(g, seat, cmds):
        return any(t["command"]["type"] == "move" and t["command"]["kind"] == "simple" for t in g.templates(seat))

    rs, g, seat, cmds = _walk(seed, has_move)
    for t in g.templates(seat):
        if t["command"]["type"] != "move" or t["command"]["kind"] != "simple":
            continue
        u = g.state.units[t["command"]["unit"]]
        d = t["bounds"]["distance"]
        road = g.state.terrain().touches_road(u.box())
        assert d["max"] == d["speed"] + (ROAD_BONUS if road else 0)
        assert "up to" in _words(rs.describe_template(g.state, seat, t))["label"]
        if not road:  # a step past the bound is refused with the rule, as the form says
            cmd = msgspec.convert({**t["command"], "facing": u.facing, "distance": d["max"] + 1.0}, C.Move)
            with pytest.raises(RuleViolation):
                rs.decide(g.state, seat, cmd, g.dice(dry=True))
