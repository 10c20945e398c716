"""Independent review of the Battle of Hoth engine against battle-of-hoth.md: turn sequence, orders,
movement, badges (section 9), structures, objectives, leaders and team play (section 12), and the
completeness of legal_commands (every command decide accepts is listed, nothing listed is refused).

Black-box through the ruleset's public API with real dice and fixed seeds; each test cites rule ids.
"""
from __future__ import annotations

import itertools

import msgspec
import pytest

from domain.hoth import board
from domain.hoth import commands as C
from domain.hoth.decider import HothRuleset
from domain.hoth.events import (
    AttackResolved, AttackRolled, BreakthroughMade, DecisionPending, GameWon, UnitMoved,
)
from domain.hoth.scenario import PermanentMedal, SideSetup, Structure, TemporaryMedal
from domain.kernel import Dice, NotYourDecision, RuleViolation, SetupError

from .examples import example
from .fixtures import FixtureCatalog, scenario
from .play import Game, events_of, rule_ids, violation


ev = events_of


def refusal(g, seat, cmd):
    v = violation(g, seat, cmd)
    assert v.rule.startswith("HOTH-") and len(str(v)) > len(v.rule) + 10
    return v.rule


def order(g, seat, units, card=None):
    g.do(seat, C.PlayCard(card=card or g.state.hands[seat][0]))
    for u in units:
        g.do(seat, C.OrderUnit(unit=u, slot=0))
    if g.state.turn.phase == "order":
        g.do(seat, C.EndOrders())


def to_attack(g, seat, moves=()):
    for u, p in moves:
        g.do(seat, C.Move(unit=u, path=p))
    if g.state.turn.phase == "move":
        g.do(seat, C.EndMoves())


def accepted(g, seat, cmd) -> bool:
    """Would decide accept ``cmd`` now? (decide is pure: nothing is applied)."""
    try:
        g.rs.decide(g.state, seat, cmd, Dice(g.seed, g.setup.game_id, dict(g.counters)))
    except RuleViolation:
        return False
    return True


# -- HOTH-TURN-2/3/4: the steps come in order ------------------------------------------------------

def test_turn_2_steps_in_order_and_refusals_name_the_rule():
    """HOTH-TURN-2, HOTH-CARD-1 (one card), HOTH-ORDER-1, HOTH-TURN-3, HOTH-TURN-4, HOTH-ATTACK-1, HOTH-MOVE-2."""
    scn = scenario(units=[((8, 0), "rebel", "echo_troopers", None, "E"), ((2, 0), "rebel", "echo_troopers", None, "I"),
                          ((12, 2), "rebel", "echo_troopers", None, "F"), ((10, 4), "imperial", "snowtroopers", None, "T")])
    g = example(scn, faces=["miss"] * 4)
    assert refusal(g, "rebel", C.Move(unit="E", path=((9, 1),))) == "HOTH-CARD-1"
    with pytest.raises(NotYourDecision):
        g.do("imperial", C.PlayCard(card=g.state.hands["imperial"][0]))
    g.do("rebel", C.PlayCard(card=g.state.hands["rebel"][0]))
    assert refusal(g, "rebel", C.PlayCard(card=g.state.hands["rebel"][0])) == "HOTH-CARD-1"
    assert refusal(g, "rebel", C.Attack(unit="E", target="T")) == "HOTH-ATTACK-1"
    g.do("rebel", C.OrderUnit(unit="E", slot=0))
    g.do("rebel", C.OrderUnit(unit="F", slot=0))
    g.do("rebel", C.EndOrders())
    assert refusal(g, "rebel", C.OrderUnit(unit="I", slot=0)) == "HOTH-ORDER-1"
    assert refusal(g, "rebel", C.Move(unit="I", path=((3, 1),))) == "HOTH-TURN-3"
    assert refusal(g, "rebel", C.Attack(unit="E", target="T")) == "HOTH-ATTACK-1"
    g.do("rebel", C.Move(unit="E", path=((9, 1),)))
    assert refusal(g, "rebel", C.Move(unit="E", path=((10, 2),))) == "HOTH-MOVE-2"
    g.do("rebel", C.EndMoves())
    # changed by the review fixes (item 7): a moved unit is refused for the real reason, HOTH-MOVE-2; an unmoved
    # unit after the Move step is refused with HOTH-TURN-4
    assert refusal(g, "rebel", C.Move(unit="E", path=((10, 2),))) == "HOTH-MOVE-2"
    assert refusal(g, "rebel", C.Move(unit="F", path=((13, 3),))) == "HOTH-TURN-4"
    g.do("rebel", C.Attack(unit="E", target="T"))
    if g.state.pending is not None:      # a retreat decision of the defender
        g.do("imperial", g.rs.legal_commands(g.state, "imperial")[0])
    assert g.rs.status(g.state).turn_seat == "rebel" and g.state.turn.phase == "attack"  # F may still attack
    assert refusal(g, "rebel", C.Attack(unit="E", target="T")) == "HOTH-ATTACK-2"


def test_draw_1_turn_ends_with_discard_and_one_draw():
    """HOTH-DRAW-1, HOTH-DRAW-3: the played card goes to the discard pile and 1 card is drawn; hand size kept."""
    scn = scenario(units=[((8, 0), "rebel", "echo_troopers", None, "E"), ((10, 6), "imperial", "snowtroopers")])
    g = example(scn)
    card = g.state.hands["rebel"][0]
    n = len(g.state.hands["rebel"])
    order(g, "rebel", ["E"])
    to_attack(g, "rebel")
    assert g.rs.status(g.state).turn_seat == "imperial"
    assert g.state.discards["rebel"] == (card,) and len(g.state.hands["rebel"]) == n


# -- HOTH-ORDER-*, HOTH-CARD-5 -------------------------------------------------------------------

def test_order_7_section_judged_at_ordering_and_move_5_unit_may_leave_it():
    """HOTH-ORDER-7, HOTH-MOVE-5: a left-flank unit ordered by Probe Left moves into the centre."""
    scn = scenario(units=[((4, 0), "rebel", "echo_troopers", None, "L"), ((10, 6), "imperial", "snowtroopers")])
    g = example(scn, card="PROP-REB-PROBE-LEFT")
    order(g, "rebel", ["L"], card="PROP-REB-PROBE-LEFT")
    g.do("rebel", C.Move(unit="L", path=((6, 0),)))   # (6,0) is centre (HOTH-COORD-8)
    assert g.state.units["L"].hex == (6, 0)


def test_card_5_fallback_unit_gets_no_bonus_the_other_group_does():
    """HOTH-CARD-5, HOTH-GAP-24, HOTH-MOD-6: Combined Arms with no vehicle: the vehicle group becomes
    "1 unit of your choice" without the +1 die; the infantry group keeps it."""
    scn = scenario(units=[((2, 2), "rebel", "echo_troopers", None, "A"), ((4, 2), "imperial", "snowtroopers", None, "T"),
                          ((16, 2), "rebel", "echo_troopers", None, "B"), ((18, 2), "imperial", "snowtroopers", None, "U")])
    g = example(scn, card="PROP-REB-COMBINED-ARMS")
    items = g.do("rebel", C.PlayCard(card="PROP-REB-COMBINED-ARMS"))
    assert "HOTH-CARD-5" in rule_ids(items)
    g.do("rebel", C.OrderUnit(unit="A", slot=0))
    g.do("rebel", C.OrderUnit(unit="B", slot=1))
    if g.state.turn.phase == "order":
        g.do("rebel", C.EndOrders())
    to_attack(g, "rebel")
    a = g.do("rebel", C.Attack(unit="A", target="T"))
    assert ev(a, AttackRolled)[0].event.dice == 4
    b = g.do("rebel", C.Attack(unit="B", target="U"))
    assert ev(b, AttackRolled)[0].event.dice == 3


# -- HOTH-MOVE-*: allowances and terrain ---------------------------------------------------------

def test_move_allowances_by_unit_type():
    """HOTH-MOVE-3, HOTH-UNIT-ATAT-2, HOTH-UNIT-PROBE-2, HOTH-UNIT-SPEEDER-2, HOTH-SPECIAL-ELITE-3, HOTH-GAP-42."""
    scn = scenario(units=[((2, 2), "imperial", "at_at", None, "AT"), ((8, 2), "imperial", "probe_droids", None, "P"),
                          ((14, 2), "imperial", "snowtroopers", "elite_troops", "EL"),
                          ((8, 6), "rebel", "echo_troopers", None, "E")], first="imperial")
    g = example(scn)
    order(g, "imperial", ["AT", "P", "EL"])
    longest = {}
    for c in g.rs.legal_commands(g.state, "imperial"):
        if isinstance(c, C.Move):
            longest[c.unit] = max(longest.get(c.unit, 0), len(c.path))
    assert longest == {"AT": 1, "P": 2, "EL": 2}
    assert refusal(g, "imperial", C.Move(unit="AT", path=((4, 2), (6, 2)))) == "HOTH-MOVE-3"
    assert refusal(g, "imperial", C.Move(unit="EL", path=((16, 2), (17, 3), (18, 4)))) == "HOTH-SPECIAL-ELITE-3"


def test_probe_droids_move_2_and_attack_gap_29():
    """HOTH-UNIT-PROBE-2, HOTH-GAP-29: probe droids may attack after moving 2 hexes."""
    scn = scenario(units=[((2, 2), "imperial", "probe_droids", None, "P"), ((10, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn)
    order(g, "imperial", ["P"])
    to_attack(g, "imperial", [("P", ((4, 2), (6, 2)))])
    items = g.do("imperial", C.Attack(unit="P", target="E"))
    assert ev(items, AttackRolled)[0].event.dice == 1  # distance 2: 1 die


def test_speeder_flies_over_crevasse_but_not_through_units_and_stops_in_rocks():
    """HOTH-UNIT-SPEEDER-2, HOTH-MOVE-6 (no passing through, flying included), HOTH-MOVE-9/10/11,
    HOTH-UNIT-SPEEDER-4 (rocks stop it and forbid its attack), HOTH-GAP-28."""
    scn = scenario(units=[((2, 2), "rebel", "snowspeeders", None, "S"), ((4, 2), "rebel", "echo_troopers", None, "F"),
                          ((10, 2), "imperial", "snowtroopers", None, "T")],
                   terrain={(3, 3): "crevasse", (3, 1): "rocks"})
    g = example(scn)
    order(g, "rebel", ["S"])
    assert refusal(g, "rebel", C.Move(unit="S", path=((4, 2), (6, 2)))) == "HOTH-MOVE-6"
    assert refusal(g, "rebel", C.Move(unit="S", path=((3, 1), (5, 1)))) in ("HOTH-MOVE-9", "HOTH-TERRAIN-ROCKS-1")
    paths = {c.path for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.Move)}
    assert ((3, 3), (5, 3), (6, 2)) in paths and ((3, 1),) in paths
    assert not any(p[0] == (3, 1) and len(p) > 1 for p in paths)
    items = g.do("rebel", C.Move(unit="S", path=((3, 1),)))
    mv = ev(items, UnitMoved)[0]
    assert mv.event.stopped and {"HOTH-MOVE-9", "HOTH-MOVE-10"} <= set(mv.ruling.rules())
    # the only ordered unit cannot attack: the Attack step closes at once
    assert g.rs.status(g.state).turn_seat == "imperial"


def test_move_8_impassable_hexes_and_move_12_half_hexes():
    """HOTH-MOVE-8 (seracs, structures, crevasses), HOTH-STRUCT-2 (flying too), HOTH-MOVE-12, HOTH-COORD-4."""
    scn = scenario(units=[((2, 2), "rebel", "snowspeeders", None, "S"), ((0, 0), "rebel", "echo_troopers", None, "E"),
                          ((10, 6), "imperial", "snowtroopers")],
                   terrain={(4, 2): "serac", (2, 0): "crevasse"},
                   structures=[Structure(id="IC", kind="ion_cannon", hex=(3, 3))])
    g = example(scn)
    order(g, "rebel", ["S", "E"])
    assert refusal(g, "rebel", C.Move(unit="S", path=((4, 2),))) == "HOTH-TERRAIN-SERAC-1"
    assert refusal(g, "rebel", C.Move(unit="S", path=((3, 3),))) == "HOTH-STRUCT-2"
    assert refusal(g, "rebel", C.Move(unit="E", path=((2, 0),))) == "HOTH-TERRAIN-CREVASSE-1"
    assert refusal(g, "rebel", C.Move(unit="S", path=((1, 3), (-1, 3)))) == "HOTH-MOVE-12"


# -- section 9: badges ---------------------------------------------------------------------------

def test_assault_no_breakthrough_when_retreat_was_ignored_in_a_trench():
    """HOTH-SPECIAL-ASSAULT-6: "made it retreat" means the target left its hex; an ignored retreat vacates nothing."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", "assault", "A"), ((9, 1), "rebel", "echo_troopers", None, "E")],
                   terrain={(9, 1): "trench"}, first="imperial")
    g = example(scn, faces=["retreat", "miss"])
    order(g, "imperial", ["A"])
    to_attack(g, "imperial")
    g.do("imperial", C.Attack(unit="A", target="E"))
    assert g.state.pending.kind == "trench"
    g.do("rebel", C.IgnoreRetreat(ignore=True))
    assert g.state.units["E"].hex == (9, 1)
    assert g.state.pending is None or g.state.pending.kind != "breakthrough"


def test_assault_no_breakthrough_after_a_ranged_attack():
    """HOTH-SPECIAL-ASSAULT-1: only after close combat (distance 1)."""
    scn = scenario(units=[((6, 2), "imperial", "snowtroopers", "assault", "A"), ((10, 2), "rebel", "rebel_artillery", None, "R"),
                          ((0, 0), "rebel", "echo_troopers", None, "F")], first="imperial")
    g = example(scn, faces=["explosion", "miss"])
    order(g, "imperial", ["A"])
    to_attack(g, "imperial")
    g.do("imperial", C.Attack(unit="A", target="R"))
    assert "R" not in g.state.units
    assert g.state.pending is None or g.state.pending.kind != "breakthrough"


def test_assault_breakthrough_into_rocks_allows_no_second_attack():
    """HOTH-SPECIAL-ASSAULT-5, HOTH-MOVE-10: the rulebook's debris example, with rocks."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", "assault", "A"), ((10, 2), "rebel", "rebel_artillery", None, "R"),
                          ((12, 2), "rebel", "echo_troopers", None, "E")],
                   terrain={(10, 2): "rocks"}, first="imperial")
    g = example(scn, faces=["explosion", "miss"])
    order(g, "imperial", ["A"])
    to_attack(g, "imperial")
    g.do("imperial", C.Attack(unit="A", target="R"))
    assert g.state.pending.kind == "breakthrough"
    items = g.do("imperial", C.Breakthrough(advance=True))
    bt = ev(items, BreakthroughMade)[0]
    assert bt.event.to == (10, 2) and bt.event.stopped and "HOTH-SPECIAL-ASSAULT-5" in bt.ruling.rules()
    assert g.state.pending is None or g.state.pending.kind != "breakthrough_attack"


def test_assault_breakthrough_after_moving_1_still_attacks_again():
    """HOTH-SPECIAL-ASSAULT-6: the breakthrough step is not the unit's move (HOTH-MOVE-2/3)."""
    scn = scenario(units=[((6, 2), "imperial", "snowtroopers", "assault", "A"), ((10, 2), "rebel", "rebel_artillery", None, "R"),
                          ((12, 2), "rebel", "echo_troopers", None, "E")], first="imperial")
    g = example(scn, faces=["explosion", "miss", "miss", "miss", "miss", "miss"])
    order(g, "imperial", ["A"])
    to_attack(g, "imperial", [("A", ((8, 2),))])
    g.do("imperial", C.Attack(unit="A", target="R"))
    g.do("imperial", C.Breakthrough(advance=True))
    assert g.state.pending.kind == "breakthrough_attack"
    assert C.Attack(unit="A", target="E") in g.rs.legal_commands(g.state, "imperial")


def test_eweb_unordered_keeps_its_side_ordered_and_unmoved_sets_it():
    """HOTH-SPECIAL-EWEB-3/4/7: moved -> Moved; not ordered next turn -> still Moved; ordered, unmoved -> Set
    and the reroll is offered that same turn."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", "eweb", "W"), ((14, 2), "rebel", "echo_troopers", None, "E"),
                          ((0, 6), "imperial", "snowtroopers", None, "X"), ((18, 0), "rebel", "echo_troopers", None, "Y")],
                   first="imperial")
    g = example(scn)
    order(g, "imperial", ["W"])
    to_attack(g, "imperial", [("W", ((10, 2),))])
    assert not g.state.units["W"].eweb_set
    if g.rs.status(g.state).turn_seat == "imperial":
        g.do("imperial", C.EndTurn())

    def pass_turn(seat, unit):
        g.do(seat, C.PlayCard(card=g.state.hands[seat][0]))
        if g.state.turn.phase == "order":
            g.do(seat, C.OrderUnit(unit=unit, slot=0))
        if g.state.turn.phase == "order":
            g.do(seat, C.EndOrders())
        if g.state.turn.phase == "move":
            g.do(seat, C.EndMoves())
        if g.rs.status(g.state).turn_seat == seat and g.state.turn.phase == "attack":
            g.do(seat, C.EndTurn())

    def put(seat, card):
        g.state = msgspec.structs.replace(g.state, hands={**g.state.hands, seat: (card,) + g.state.hands[seat][1:]})

    put("rebel", "TEST-REB-ORDER-ANY")
    pass_turn("rebel", "Y")
    put("imperial", "TEST-EMP-ORDER-ANY")
    pass_turn("imperial", "X")              # W not ordered: keeps Moved
    assert not g.state.units["W"].eweb_set
    put("rebel", "TEST-REB-ORDER-ANY")
    pass_turn("rebel", "Y")
    put("imperial", "TEST-EMP-ORDER-ANY")
    order(g, "imperial", ["W"])
    to_attack(g, "imperial")                # ordered, not moved: Set at the end of the Move step
    assert g.state.units["W"].eweb_set
    g.do("imperial", C.Attack(unit="W", target="E"))
    assert g.state.pending is not None and g.state.pending.kind == "reroll"


# -- structures (10.8) ---------------------------------------------------------------------------

def structure_game(faces, terrain=None, attackable=True):
    scn = scenario(units=[((4, 2), "imperial", "snowtroopers", None, "A"), ((0, 6), "rebel", "echo_troopers", None, "F")],
                   structures=[Structure(id="SG", kind="shield_generator", hex=(6, 2), attackable=attackable)],
                   terrain=terrain, first="imperial")
    g = example(scn, faces=faces)
    order(g, "imperial", ["A"])
    to_attack(g, "imperial")
    return g


def test_struct_5_explosion_destroys_retreat_does_nothing_and_6_piece_removed():
    """HOTH-STRUCT-4/5/6, HOTH-GAP-15: an explosion destroys; afterwards the hex neither blocks sight nor movement."""
    g = structure_game(["retreat", "infantry", "miss"])
    items = g.do("imperial", C.Attack(unit="A", target="SG"))
    res = ev(items, AttackResolved)[0]
    assert not res.event.structure_destroyed and "HOTH-STRUCT-5" in res.ruling.rules()
    assert not g.state.structures["SG"].destroyed
    g2 = structure_game(["explosion", "miss", "miss"])
    g2.do("imperial", C.Attack(unit="A", target="SG"))
    assert g2.state.structures["SG"].destroyed


def test_mod_5_structure_takes_its_hex_protection_but_never_the_trench():
    """HOTH-MOD-5, HOTH-GAP-36."""
    g = structure_game(["miss"] * 3, terrain={(6, 2): "rocks"})
    assert ev(g.do("imperial", C.Attack(unit="A", target="SG")), AttackRolled)[0].event.dice == 2
    g = structure_game(["miss"] * 3, terrain={(6, 2): "trench"})
    assert ev(g.do("imperial", C.Attack(unit="A", target="SG")), AttackRolled)[0].event.dice == 3


def test_struct_4_not_attackable_unless_the_scenario_allows():
    """HOTH-STRUCT-4, HOTH-ATTACK-8."""
    scn = scenario(units=[((4, 2), "imperial", "snowtroopers", None, "A"), ((10, 2), "rebel", "echo_troopers", None, "E")],
                   structures=[Structure(id="SG", kind="shield_generator", hex=(6, 4), attackable=False)],
                   first="imperial")
    g = example(scn)
    order(g, "imperial", ["A"])
    to_attack(g, "imperial")
    assert refusal(g, "imperial", C.Attack(unit="A", target="SG")) == "HOTH-STRUCT-4"
    assert not any(isinstance(c, C.Attack) and c.target == "SG" for c in g.rs.legal_commands(g.state, "imperial"))


# -- objectives (section 11) ---------------------------------------------------------------------

def test_obj_temp_2_medal_lost_when_the_holder_is_eliminated():
    """HOTH-OBJ-TEMP-2 ("for any reason ... or elimination"), HOTH-WIN-5."""
    scn = scenario(units=[((4, 2), "imperial", "snowtroopers", None, "A"), ((6, 2), "rebel", "echo_troopers", None, "E"),
                          ((0, 0), "rebel", "echo_troopers", None, "F")],
                   objectives=[TemporaryMedal(id="T1", hex=(6, 2), faction="rebel")], first="imperial")
    g = example(scn, faces=["infantry", "infantry", "infantry"])
    assert g.state.medals["rebel"] == 1
    order(g, "imperial", ["A"])
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="A", target="E"))
    assert "HOTH-OBJ-TEMP-2" in rule_ids(items)
    assert g.state.medals["rebel"] == 0 and g.state.medals["imperial"] == 1


def test_obj_perm_start_on_hex_does_not_capture_gap_12():
    """HOTH-OBJ-PERM-3, HOTH-GAP-12: a unit that starts on the hex does not capture it."""
    scn = scenario(units=[((6, 2), "rebel", "echo_troopers", None, "E"), ((10, 6), "imperial", "snowtroopers")],
                   objectives=[PermanentMedal(id="P1", hex=(6, 2), faction="rebel")])
    g = example(scn)
    assert g.state.medals["rebel"] == 0 and g.state.captured == ()


def test_obj_perm_2_never_lost_after_leaving():
    """HOTH-OBJ-PERM-1/2."""
    scn = scenario(units=[((4, 2), "rebel", "echo_troopers", None, "E"), ((10, 6), "imperial", "snowtroopers")],
                   objectives=[PermanentMedal(id="P1", hex=(6, 2), faction="rebel")])
    g = example(scn)
    order(g, "rebel", ["E"])
    items = g.do("rebel", C.Move(unit="E", path=((6, 2), (7, 3))))
    assert "HOTH-OBJ-PERM-1" in rule_ids(items)
    assert g.state.medals["rebel"] == 1 and g.state.captured == ("P1",)


def test_win_5_medal_victory_by_objective_mid_move():
    """HOTH-WIN-5, HOTH-OBJ-TEMP-3: gaining a temporary medal runs the victory check at once."""
    scn = scenario(units=[((4, 2), "rebel", "echo_troopers", None, "E"), ((10, 6), "imperial", "snowtroopers")],
                   objectives=[TemporaryMedal(id="T1", hex=(6, 2), faction="rebel")],
                   rebel=SideSetup(hand_size=4, victory_medals=1))
    g = example(scn)
    order(g, "rebel", ["E"])
    items = g.do("rebel", C.Move(unit="E", path=((6, 2),)))
    assert ev(items, GameWon) and g.state.winner == "rebel"


# -- 12.1 leaders, 12.2 team play (shipped content) ----------------------------------------------

def test_leader_2_one_leader_adds_three_cards_to_a_19_card_deck():
    """HOTH-SETUP-9, HOTH-LEADER-2/3, HOTH-COMP-7: 16 standard + 3 leader cards."""
    from domain.kernel import registry
    RULESET = registry.get("hoth")
    g = Game(RULESET, "SCN-TAKE-DOWN-THE-SHIELD", options={"leaders": {"rebel": "han"}})
    reb = g.state.decks["rebel"] + g.state.hands["rebel"]
    assert len(reb) == 19 and len(g.state.decks["imperial"] + g.state.hands["imperial"]) == 16
    assert set(RULESET.catalog().leader_cards("han")) <= set(reb)
    assert all(RULESET.catalog().cards[c].kind == "leader" for c in RULESET.catalog().leader_cards("han"))


def test_leader_4_one_leader_per_player():
    """HOTH-LEADER-4, HOTH-TEAM-6."""
    from domain.kernel import registry
    RULESET = registry.get("hoth")
    with pytest.raises(SetupError):
        RULESET.seats("SCN-TAKE-DOWN-THE-SHIELD", {"leaders": {"rebel": ["han", "luke"]}})
    assert len(RULESET.seats("SCN-TAKE-DOWN-THE-SHIELD", {"team": "rebel", "leaders": {"rebel": ["han", "luke"]}})) == 3


def test_team_9_three_players_single_player_after_each_team_turn():
    """HOTH-TEAM-7/8/9 (3 players; Rebels start in the rulebook example), HOTH-TEAM-11 (units shared)."""
    scn = scenario(units=[((2, 0), "rebel", "echo_troopers", None, "R1"), ((16, 0), "rebel", "echo_troopers", None, "R2"),
                          ((10, 6), "imperial", "snowtroopers", None, "I")], first="rebel")
    rs = HothRuleset(FixtureCatalog([scn]))
    g = Game(rs, scn.id, options={"team": "rebel"})
    seen = []
    for _ in range(5):
        seat = g.to_act()
        seen.append(seat)
        g.do(seat, C.PlayCard(card=g.state.hands[seat][0]))
        while g.rs.status(g.state).turn_seat == seat and g.state.winner is None:
            cmds = g.rs.legal_commands(g.state, g.to_act())
            ends = [c for c in cmds if isinstance(c, (C.EndOrders, C.EndMoves, C.EndTurn))]
            g.do(g.to_act(), ends[0] if ends else cmds[0])
    assert seen == ["rebel", "imperial", "rebel-2", "imperial", "rebel"]


# -- legal_commands completeness (brute force against decide) -------------------------------------

def brute_moves(g, seat, unit, max_len):
    start_hex = g.state.units[unit].hex
    found = set()
    frontier = [()]
    for _ in range(max_len):
        nxt = []
        for p in frontier:
            cur = p[-1] if p else start_hex
            for h in board.neighbours(cur):
                q = p + (h,)
                nxt.append(q)
                if accepted(g, seat, C.Move(unit=unit, path=q)):
                    found.add(q)
        frontier = nxt
    return found


def test_legal_moves_equal_what_decide_accepts():
    """HOTH-MOVE-3..12: legal_commands lists exactly the moves decide accepts (speeder 3, infantry 2, AT-AT 1)."""
    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((12, 2), "rebel", "echo_troopers", None, "E"),
                          ((9, 3), "rebel", "echo_troopers", None, "B"), ((10, 4), "imperial", "snowtroopers", None, "T")],
                   terrain={(7, 3): "crevasse", (6, 2): "rocks", (10, 2): "serac", (11, 1): "ridge", (13, 3): "buildings"})
    g = example(scn)
    order(g, "rebel", ["S", "E"])
    # Changed by the review fixes (item 3, HOTH-MOVE-4): paths may revisit hexes, so legal_commands lists each
    # reachable destination once with a shortest path; every listed path is accepted and every accepted path
    # ends on a listed destination.
    listed = {}
    for c in g.rs.legal_commands(g.state, "rebel"):
        if isinstance(c, C.Move):
            listed.setdefault(c.unit, set()).add(tuple(map(tuple, c.path)))

    def same(paths, brute):
        return paths <= brute and {p[-1] for p in paths} == {p[-1] for p in brute} \
            and len({p[-1] for p in paths}) == len(paths) \
            and all(len(p) == min(len(q) for q in brute if q[-1] == p[-1]) for p in paths)

    assert same(listed["S"], brute_moves(g, "rebel", "S", 3))
    assert same(listed["E"], brute_moves(g, "rebel", "E", 3))
    scn2 = scenario(units=[((8, 2), "imperial", "at_at", None, "A"), ((8, 6), "rebel", "echo_troopers")],
                    terrain={(10, 2): "ridge", (7, 3): "crevasse"}, first="imperial")
    g2 = example(scn2)
    order(g2, "imperial", ["A"])
    l2 = {tuple(map(tuple, c.path)) for c in g2.rs.legal_commands(g2.state, "imperial") if isinstance(c, C.Move)}
    assert same(l2, brute_moves(g2, "imperial", "A", 2))


def test_legal_attacks_equal_what_decide_accepts():
    """HOTH-ATTACK-7/8, HOTH-RANGE-1, HOTH-LOS-1, HOTH-MOD-7: every accepted (unit, target) is listed and
    nothing listed is refused."""
    scn = scenario(units=[((6, 2), "rebel", "echo_troopers", None, "E"), ((8, 2), "rebel", "snowspeeders", None, "S"),
                          ((4, 0), "rebel", "rebel_artillery", None, "R"),
                          ((10, 2), "imperial", "snowtroopers", None, "T1"), ((9, 5), "imperial", "at_at", None, "A"),
                          ((12, 4), "imperial", "probe_droids", None, "P"), ((2, 4), "imperial", "snowtroopers", None, "T2")],
                   terrain={(7, 3): "rocks", (10, 2): "ridge", (12, 4): "buildings"},
                   structures=[Structure(id="SG", kind="shield_generator", hex=(4, 4))])
    g = example(scn)
    order(g, "rebel", ["E", "S", "R"])
    to_attack(g, "rebel")
    listed = {(c.unit, c.target) for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.Attack)}
    targets = [u for u in g.state.units] + ["SG"]
    brute = {(u, t) for u, t in itertools.product(["E", "S", "R"], targets)
             if accepted(g, "rebel", C.Attack(unit=u, target=t))}
    assert listed == brute and listed


def test_legal_orders_equal_what_decide_accepts():
    """HOTH-ORDER-1..4, HOTH-CARD-3, HOTH-BOARD-4: order options for a section card with split hexes."""
    scn = scenario(units=[((2, 0), "rebel", "echo_troopers", None, "L"), ((5, 1), "rebel", "echo_troopers", None, "X"),
                          ((8, 0), "rebel", "echo_troopers", None, "C"), ((13, 3), "rebel", "snowspeeders", None, "Y"),
                          ((16, 0), "rebel", "echo_troopers", None, "R"), ((8, 6), "imperial", "snowtroopers", None, "T")])
    for card in ("PROP-REB-ATTACK-CENTER", "PROP-REB-PINCER", "PROP-REB-RECON-IN-FORCE"):
        g = example(scn, card=card)
        g.do("rebel", C.PlayCard(card=card))
        listed = {(c.unit, c.slot) for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.OrderUnit)}
        brute = {(u, s) for u in ["L", "X", "C", "Y", "R", "T"] for s in range(len(g.state.turn.slots))
                 if accepted(g, "rebel", C.OrderUnit(unit=u, slot=s))}
        assert listed == brute and listed, card


def test_every_pending_decision_names_its_rule():
    """Section 3 of the review brief: every DecisionPending event carries a ruling naming a rule id."""
    scn = scenario(units=[((9, 3), "rebel", "echo_troopers", None, "E"), ((10, 4), "imperial", "snowtroopers", None, "T")],
                   terrain={(9, 3): "trench"}, first="imperial")
    g = example(scn, faces=["retreat", "retreat"])
    order(g, "imperial", ["T"])
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    items += g.do("rebel", C.IgnoreRetreat(ignore=False))
    pend = ev(items, DecisionPending)
    assert len(pend) == 2
    assert all(p.ruling and p.ruling.rules() and p.ruling.rules()[0].startswith("HOTH-") for p in pend)


def team_game(card=None):
    scn = scenario(units=[((8, 0), "imperial", "snowtroopers", None, "I1"), ((16, 0), "imperial", "snowtroopers", None, "I2"),
                          ((8, 6), "rebel", "echo_troopers", None, "R1")], south="imperial", first="imperial")
    return example(scn, card=card, options={"team": True})


def test_team_13_deploy_the_fleet_active_player_then_teammate_without_plus_one():
    """HOTH-TEAM-13, HOTH-TEAM-10 (own personal piles), HOTH-GAP-27."""
    g = team_game(card="EMP-DEPLOY-THE-FLEET")
    deck2 = len(g.state.decks["imperial-2"])
    g.do("imperial", C.PlayCard(card="EMP-DEPLOY-THE-FLEET"))
    assert g.state.pending.kind == "discard" and g.state.pending.seat == "imperial"
    keep = g.state.hands["imperial"]
    g.do("imperial", C.DiscardCards(cards=(keep[0],)))
    assert len(g.state.hands["imperial"]) == len(keep) - 1 + 2           # +1 for the active player
    assert g.state.pending.kind == "discard" and g.state.pending.seat == "imperial-2"
    assert g.rs.status(g.state).to_act == ("imperial-2",)
    mate = g.state.hands["imperial-2"]
    g.do("imperial-2", C.DiscardCards(cards=tuple(sorted(mate))))
    assert len(g.state.hands["imperial-2"]) == len(mate)                  # as many as discarded, no +1
    assert len(g.state.decks["imperial-2"]) == deck2 - len(mate)          # from the teammate's own deck
    assert g.state.discards["imperial-2"] == tuple(sorted(mate))
    assert g.rs.status(g.state).turn_seat == "rebel"


def test_team_12_personal_deck_runs_out_reshuffles_the_personal_discard():
    """HOTH-TEAM-12, HOTH-GAP-26, HOTH-DRAW-2: only the owner's discard pile is reshuffled."""
    g = team_game()
    planted, other_card = g.state.decks["imperial-2"][:2]   # ids not in the first member's piles
    mate_discard = (other_card,)
    g.state = msgspec.structs.replace(g.state, decks={**g.state.decks, "imperial": ()},
                                      discards={**g.state.discards, "imperial": (planted,),
                                                "imperial-2": mate_discard})
    played = g.state.hands["imperial"][0]
    order(g, "imperial", ["I1"])
    if g.rs.status(g.state).turn_seat == "imperial":
        to_attack(g, "imperial")
    if g.rs.status(g.state).turn_seat == "imperial":
        g.do("imperial", C.EndTurn())
    assert g.state.discards["imperial-2"] == mate_discard
    drawn = set(g.state.hands["imperial"]) | set(g.state.decks["imperial"])
    assert planted not in g.state.discards["imperial"] and {planted, played} <= drawn


def test_team_11_second_member_orders_any_unit_of_the_faction():
    """HOTH-TEAM-11, HOTH-TEAM-8: units are shared; the active member orders any of them."""
    g = team_game()
    order(g, "imperial", ["I1"])
    while g.rs.status(g.state).turn_seat == "imperial":
        cmds = g.rs.legal_commands(g.state, "imperial")
        g.do("imperial", next(c for c in cmds if isinstance(c, (C.EndMoves, C.EndTurn))))
    # rebel's turn
    g.do("rebel", C.PlayCard(card=g.state.hands["rebel"][0]))
    while g.rs.status(g.state).turn_seat == "rebel":
        seat = g.to_act()
        cmds = g.rs.legal_commands(g.state, seat)
        g.do(seat, next((c for c in cmds if isinstance(c, (C.EndOrders, C.EndMoves, C.EndTurn))), cmds[0]))
    assert g.rs.status(g.state).turn_seat == "imperial-2"
    g.do("imperial-2", C.PlayCard(card=g.state.hands["imperial-2"][0]))
    if g.state.turn.phase == "order":
        opts = {c.unit for c in g.rs.legal_commands(g.state, "imperial-2") if isinstance(c, C.OrderUnit)}
        assert opts and opts <= {"I1", "I2"}
        assert all(accepted(g, "imperial-2", C.OrderUnit(unit=u, slot=s))
                   for u, s in [(c.unit, c.slot) for c in g.rs.legal_commands(g.state, "imperial-2")
                                if isinstance(c, C.OrderUnit)])


def test_obj_temp_recaptured_by_another_unit_and_by_retreat_gap_13():
    """HOTH-OBJ-TEMP-1/3, HOTH-GAP-13, HOTH-RETREAT-9: re-held whenever re-occupied, retreat included."""
    scn = scenario(units=[((6, 2), "rebel", "echo_troopers", None, "A"), ((7, 3), "imperial", "snowtroopers", None, "T"),
                          ((0, 6), "imperial", "snowtroopers", None, "F")],
                   terrain={(6, 4): "serac"},
                   objectives=[TemporaryMedal(id="T1", hex=(8, 4), faction="imperial")])
    g = example(scn, faces=["retreat", "miss", "miss"])
    assert g.state.medals["imperial"] == 0
    order(g, "rebel", ["A"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="A", target="T"))
    assert g.state.units["T"].hex == (8, 4) and "HOTH-OBJ-TEMP-1" in rule_ids(items)
    assert g.state.medals["imperial"] == 1 and g.state.held == ("T1",)
