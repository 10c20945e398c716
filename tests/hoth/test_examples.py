"""The rulebook's worked examples as tests, citing the rule ids they check.

Section 5 (three-unit movement example), section 6.4 (3 dice minus 1 for rocks = 2), section
6.6 (the snowspeeder's 4 dice, 2 hits, one retreat moves the two survivors one hex) and
Appendix C (the same turn end to end).
"""
from __future__ import annotations

import pytest

from domain.hoth import commands as C
from domain.hoth.events import AttackRolled, CardPlayed, DecisionPending, UnitRetreated
from domain.kernel import RuleViolation

from .examples import example
from .fixtures import scenario

U1, U2, S, I1, I2 = "U1", "U2", "S", "I1", "I2"


def appendix_c_scenario():
    # Rebels South (HOTH-COORD-1 default); every Rebel unit in the centre (HOTH-COORD-8).
    return scenario(
        units=[((8, 0), "rebel", "echo_troopers", None, U1), ((10, 0), "rebel", "echo_troopers", None, U2),
               ((11, 1), "rebel", "snowspeeders", None, S),
               ((8, 2), "imperial", "snowtroopers", None, I1), ((12, 4), "imperial", "snowtroopers", None, I2)],
        terrain={(8, 2): "rocks", (12, 2): "trench"}, first="rebel")


@pytest.fixture
def game():
    # Dice: U1 -> I1 rolls {X, explosion}; S -> I2 rolls {vehicle, infantry, infantry, retreat} (Appendix C).
    return example(appendix_c_scenario(), card="PROP-REB-ATTACK-CENTER",
                   faces=["miss", "explosion", "vehicle", "infantry", "infantry", "retreat"])


def test_section_5_movement_order_matters(game):
    """HOTH-MOVE-1, HOTH-MOVE-6, HOTH-MOVE-3, HOTH-UNIT-ECHO-2: the three-unit movement example."""
    g = game
    (played,) = [e for e in g.do("rebel", C.PlayCard(card="PROP-REB-ATTACK-CENTER")) if isinstance(e.event, CardPlayed)]
    assert played.event.slots[0].count == 3 and played.event.slots[0].sections == ("centre",)  # HOTH-CARD-3
    for u in (U1, U2, S):
        g.do("rebel", C.OrderUnit(unit=u, slot=0))  # HOTH-ORDER-1
    assert g.state.turn.phase == "move"  # no further order possible: step closes (HOTH-ORDER-4)
    # U2 wants the trench at (12,2): the only 2-hex path passes through the snowspeeders (HOTH-MOVE-6).
    with pytest.raises(RuleViolation) as exc:
        g.do("rebel", C.Move(unit=U2, path=((11, 1), (12, 2))))
    assert exc.value.rule == "HOTH-MOVE-6"
    legal = g.rs.legal_commands(g.state, "rebel")
    assert C.Move(unit=U2, path=((11, 1), (12, 2))) not in legal
    assert not any(isinstance(c, C.Move) and c.unit == U2 and c.path[-1] == (12, 2) for c in legal)  # 3 hexes away
    # U1 moves 1 hex next to I1 on the rocks.
    g.do("rebel", C.Move(unit=U1, path=((9, 1),)))
    # The snowspeeders (0-3 hexes) move first to clear the path and end next to I2.
    g.do("rebel", C.Move(unit=S, path=((10, 2), (11, 3))))
    # Now U2 moves 2 hexes into the trench ...
    g.do("rebel", C.Move(unit=U2, path=((11, 1), (12, 2))))
    assert g.state.units[U2].hex == (12, 2)
    assert g.state.turn.phase == "attack"  # every ordered unit has moved: the Move step closes (HOTH-TURN-4)
    # ... and, having moved 2 hexes, it cannot attack this turn (HOTH-UNIT-ECHO-2).
    with pytest.raises(RuleViolation) as exc:
        g.do("rebel", C.Attack(unit=U2, target=I2))
    assert exc.value.rule == "HOTH-UNIT-ECHO-2"
    assert not any(isinstance(c, C.Attack) and c.unit == U2 for c in g.rs.legal_commands(g.state, "rebel"))


def _to_attack_step(g):
    g.do("rebel", C.PlayCard(card="PROP-REB-ATTACK-CENTER"))
    for u in (U1, U2, S):
        g.do("rebel", C.OrderUnit(unit=u, slot=0))
    g.do("rebel", C.Move(unit=U1, path=((9, 1),)))
    g.do("rebel", C.Move(unit=S, path=((10, 2), (11, 3))))
    g.do("rebel", C.Move(unit=U2, path=((11, 1), (12, 2))))


def test_attack_example_rocks_3_minus_1_is_2(game):
    """HOTH-RANGE-2, HOTH-TERRAIN-ROCKS-3, HOTH-MOD-7, HOTH-HIT-2: infantry at rocks rolls 3 - 1 = 2 dice."""
    g = game
    _to_attack_step(g)
    items = g.do("rebel", C.Attack(unit=U1, target=I1))
    rolled = items[0]
    assert isinstance(rolled.event, AttackRolled)
    assert rolled.event.dice == 2
    steps = {s.rule: s.values for s in rolled.ruling.steps}
    assert steps["HOTH-RANGE-2"]["base_dice"] == 3 and steps["HOTH-RANGE-2"]["distance"] == 1
    assert steps["HOTH-TERRAIN-ROCKS-3"]["dice"] == -1
    assert steps["HOTH-MOD-7"]["dice"] == 2
    assert rolled.event.attack.faces == ("miss", "explosion")
    assert [r.index for r in rolled.rolls] == [0, 1]  # every die face is in the event that rolled it
    assert g.state.units[I1].figures == 3  # 1 hit: 4 -> 3 (HOTH-HIT-3)


def test_snowspeeder_4_dice_two_hits_one_retreat(game):
    """HOTH-RANGE-2 (4/2), HOTH-HIT-2 (vehicle misses infantry), HOTH-RETREAT-1..3 (owner chooses the hex)."""
    g = game
    _to_attack_step(g)
    g.do("rebel", C.Attack(unit=U1, target=I1))
    items = g.do("rebel", C.Attack(unit=S, target=I2))
    rolled = items[0].event
    assert rolled.dice == 4
    assert rolled.attack.faces == ("vehicle", "infantry", "infantry", "retreat")
    resolved = items[1]
    assert resolved.event.hits == 2 and resolved.event.losses == 2
    assert {s.rule for s in resolved.ruling.steps} >= {"HOTH-HIT-2", "HOTH-HIT-3"}
    assert g.state.units[I2].figures == 2
    # The retreat path is the Imperial player's decision (HOTH-RETREAT-3): two hexes towards row 6.
    pend = items[-1].event
    assert isinstance(pend, DecisionPending) and pend.pending.kind == "retreat"
    assert g.rs.status(g.state).to_act == ("imperial",)
    options = g.rs.legal_commands(g.state, "imperial")
    assert options == [C.Retreat(path=((11, 5),)), C.Retreat(path=((13, 5),))]
    assert g.rs.legal_commands(g.state, "rebel") == []
    out = g.do("imperial", C.Retreat(path=((13, 5),)))
    retreat = next(e for e in out if isinstance(e.event, UnitRetreated))
    assert retreat.event.path == ((13, 5),) and retreat.event.losses == 0
    assert "HOTH-RETREAT-2" in retreat.ruling.rules()
    assert g.state.units[I2].hex == (13, 5) and g.state.units[I2].figures == 2


def test_appendix_c_turn_end_to_end(game):
    """Appendix C: the whole Rebel turn, then discard and draw (HOTH-DRAW-1); the turn passes (HOTH-TURN-1)."""
    g = game
    hand_before = len(g.state.hands["rebel"])
    _to_attack_step(g)
    g.do("rebel", C.Attack(unit=U1, target=I1))
    g.do("rebel", C.Attack(unit=S, target=I2))
    g.do("imperial", C.Retreat(path=((11, 5),)))
    # No attack is left (U2 moved 2): the turn ends, the card is discarded and 1 card drawn.
    st = g.rs.status(g.state)
    assert st.turn == 2 and st.turn_seat == "imperial" and st.to_act == ("imperial",)
    assert g.state.discards["rebel"] == ("PROP-REB-ATTACK-CENTER",)
    assert len(g.state.hands["rebel"]) == hand_before
    assert (g.state.units[I1].figures, g.state.units[I2].figures) == (3, 2)
