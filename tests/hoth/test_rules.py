"""One test per rule (or rule family) of battle-of-hoth.md, citing the rule ids."""
from __future__ import annotations

import msgspec
import pytest

from domain.hoth import commands as C
from domain.hoth.events import (
    NOBODY, AttackResolved, AttackRolled, BreakthroughMade, CardPlayed, DecisionPending, DeckShuffled, DiceRerolled,
    GameWon, MedalsAwarded, RetreatIgnored, UnitEliminated, UnitRetreated,
)
from domain.hoth.scenario import PermanentMedal, SideSetup, Structure, StructuresDestroyed, SuddenDeath, TemporaryMedal
from domain.kernel import NotYourDecision, RuleViolation

from .examples import example
from .fixtures import scenario
from .play import events_of, rule_ids, violation

ANY = None


def start(g, seat, units, card=None, slot=0):
    card = card or g.state.hands[seat][0]
    g.do(seat, C.PlayCard(card=card))
    for u in units:
        g.do(seat, C.OrderUnit(unit=u, slot=slot))
    if g.state.turn.phase == "order":
        g.do(seat, C.EndOrders())


def to_attack(g, seat, moves=()):
    for u, p in moves:
        g.do(seat, C.Move(unit=u, path=p))
    if g.state.turn.phase == "move":
        g.do(seat, C.EndMoves())


events = events_of
rules = rule_ids


def refused(g, seat, cmd):
    return violation(g, seat, cmd).rule


# -- units (section 8) -----------------------------------------------------------------------

def atat_scn(terrain=None):
    return scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((10, 2), "imperial", "at_at", None, "A"),
                           ((0, 6), "imperial", "snowtroopers", None, "T")], terrain=terrain)


def test_atat_confirmation_roll_destroys_and_no_terrain_protection():
    """HOTH-HIT-5, HOTH-UNIT-ATAT-4, HOTH-MOD-4 (rocks give an AT-AT nothing), HOTH-UNIT-ATAT-7 (1 medal)."""
    g = example(atat_scn({(10, 2): "rocks"}),
                faces=["explosion", "vehicle", "miss", "infantry", "explosion", "miss"])
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="S", target="A"))
    assert events(items, AttackRolled)[0].event.dice == 4
    assert "HOTH-MOD-4" in rules(items)
    res = events(items, AttackResolved)[0]
    assert res.event.hits == 2 and res.event.confirmation == ("explosion", "miss")
    assert [r.index for r in res.rolls] == [4, 5]
    assert res.event.eliminated and "A" not in g.state.units
    assert g.state.medals["rebel"] == 1


def test_atat_confirmation_without_explosion_leaves_it_unharmed():
    """HOTH-HIT-5: no explosion in the confirmation roll -> unharmed."""
    g = example(atat_scn(), faces=["explosion", "vehicle", "miss", "miss", "vehicle", "infantry"])
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="S", target="A"))
    res = events(items, AttackResolved)[0].event
    assert res.hits == 2 and res.losses == 0 and not res.eliminated
    assert g.state.units["A"].figures == 1


def test_atat_ignores_retreats():
    """HOTH-UNIT-ATAT-5, HOTH-RETREAT-8."""
    g = example(atat_scn(), faces=["retreat", "retreat", "miss", "miss"])
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="S", target="A"))
    ig = events(items, RetreatIgnored)[0]
    assert ig.event.count == 2 and ig.event.reason == "HOTH-UNIT-ATAT-5"
    assert g.state.units["A"].hex == (10, 2) and g.state.pending is None


def test_atat_cannot_enter_ridge():
    """HOTH-UNIT-ATAT-2, HOTH-TERRAIN-RIDGE-1."""
    scn = scenario(units=[((8, 2), "imperial", "at_at", None, "A"), ((8, 6), "rebel", "echo_troopers")],
                   terrain={(10, 2): "ridge"}, first="imperial")
    g = example(scn)
    start(g, "imperial", ["A"])
    moves = [c.path for c in g.rs.legal_commands(g.state, "imperial") if isinstance(c, C.Move)]
    assert ((10, 2),) not in moves and ((6, 2),) in moves
    assert all(len(p) == 1 for p in moves)  # HOTH-UNIT-ATAT-2: 0-1 hex
    assert refused(g, "imperial", C.Move(unit="A", path=((10, 2),))) == "HOTH-TERRAIN-RIDGE-1"


def test_snowspeeders_fly_over_crevasses_infantry_cannot():
    """HOTH-UNIT-SPEEDER-2, HOTH-TERRAIN-CREVASSE-1, HOTH-MOVE-8."""
    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((12, 2), "rebel", "echo_troopers", None, "E"),
                          ((0, 6), "imperial", "snowtroopers")], terrain={(10, 2): "crevasse"})
    g = example(scn)
    start(g, "rebel", ["S", "E"])
    assert refused(g, "rebel", C.Move(unit="E", path=((10, 2),))) == "HOTH-TERRAIN-CREVASSE-1"
    g.do("rebel", C.Move(unit="S", path=((10, 2), (11, 3), (13, 3))))
    assert g.state.units["S"].hex == (13, 3)


def test_rocks_stop_movement_and_forbid_attack():
    """HOTH-MOVE-9, HOTH-MOVE-10, HOTH-TERRAIN-ROCKS-1/2."""
    scn = scenario(units=[((8, 0), "rebel", "echo_troopers", None, "E"), ((8, 4), "imperial", "snowtroopers", None, "T")],
                   terrain={(9, 1): "rocks"})
    g = example(scn)
    start(g, "rebel", ["E"])
    assert refused(g, "rebel", C.Move(unit="E", path=((9, 1), (10, 2)))) == "HOTH-MOVE-9"
    assert C.Move(unit="E", path=((9, 1), (10, 2))) not in g.rs.legal_commands(g.state, "rebel")
    g.do("rebel", C.Move(unit="E", path=((9, 1),)))
    # no attack is possible, so the Attack step closes and the turn passes at once
    assert g.rs.status(g.state).turn_seat == "imperial"


def test_infantry_moving_two_cannot_attack_but_elite_troops_can():
    """HOTH-UNIT-ECHO-2, HOTH-SPECIAL-ELITE-1."""
    scn = scenario(units=[((8, 0), "rebel", "echo_troopers", None, "E"),
                          ((12, 0), "rebel", "echo_troopers", "elite_troops", "X"),
                          ((10, 4), "imperial", "snowtroopers", None, "T")])
    g = example(scn)
    start(g, "rebel", ["E", "X"])
    g.do("rebel", C.Move(unit="E", path=((9, 1), (10, 2))))
    g.do("rebel", C.Move(unit="X", path=((11, 1), (12, 2))))
    assert refused(g, "rebel", C.Attack(unit="E", target="T")) == "HOTH-UNIT-ECHO-2"
    attacks = [c for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.Attack)]
    assert attacks == [C.Attack(unit="X", target="T")]


def test_artillery_cannot_move_and_ignores_retreats():
    """HOTH-UNIT-ARTY-2, HOTH-UNIT-ARTY-3."""
    scn = scenario(units=[((8, 2), "rebel", "rebel_artillery", None, "R"), ((0, 0), "rebel", "echo_troopers", None, "E"),
                          ((10, 2), "imperial", "snowtroopers", None, "T")], first="rebel")
    g = example(scn)
    start(g, "rebel", ["R", "E"])
    assert not any(isinstance(c, C.Move) and c.unit == "R" for c in g.rs.legal_commands(g.state, "rebel"))
    assert refused(g, "rebel", C.Move(unit="R", path=((9, 3),))) == "HOTH-UNIT-ARTY-2"

    g2 = example(scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"),
                                 ((10, 2), "rebel", "rebel_artillery", None, "R")], first="imperial"),
                 faces=["retreat", "retreat", "miss"])
    start(g2, "imperial", ["T"])
    to_attack(g2, "imperial")
    items = g2.do("imperial", C.Attack(unit="T", target="R"))
    assert events(items, RetreatIgnored)[0].event.reason == "HOTH-UNIT-ARTY-3"


def test_no_medal_for_probe_droids():
    """HOTH-ELIM-3, HOTH-UNIT-PROBE-5, HOTH-HIT-2 (special units: explosions only)."""
    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((10, 2), "imperial", "probe_droids", None, "P"),
                          ((0, 6), "imperial", "snowtroopers")])
    g = example(scn, faces=["explosion", "infantry", "vehicle", "explosion"])
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="S", target="P"))
    assert events(items, AttackResolved)[0].event.hits == 2
    el = events(items, UnitEliminated)[0]
    assert "HOTH-ELIM-3" in el.ruling.rules()
    assert g.state.medals["rebel"] == 0 and not events(items, MedalsAwarded)


def test_elite_squadron_has_four_figures():
    """HOTH-SPECIAL-ELITESQ-1, HOTH-FORCE-2."""
    g = example(scenario(units=[((8, 2), "rebel", "snowspeeders", "elite_squadron", "S"), ((0, 6), "imperial", "at_at")]))
    assert g.state.units["S"].figures == 4


# -- terrain and retreat -------------------------------------------------------------------------

def trench_scn():
    return scenario(units=[((9, 3), "rebel", "echo_troopers", None, "E"), ((10, 4), "imperial", "snowtroopers", None, "T")],
                    terrain={(9, 3): "trench"}, first="imperial")


def test_trench_protects_infantry_and_may_ignore_one_retreat():
    """HOTH-TERRAIN-TRENCH-2 (-1 die), HOTH-TERRAIN-TRENCH-3 (defender's choice), HOTH-RETREAT-3."""
    g = example(trench_scn(), faces=["retreat", "retreat"])
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    assert events(items, AttackRolled)[0].event.dice == 2  # 3 - 1 (trench)
    assert "HOTH-TERRAIN-TRENCH-2" in rules(items)
    assert g.state.pending.kind == "trench" and g.rs.status(g.state).to_act == ("rebel",)
    assert g.rs.legal_commands(g.state, "rebel") == [C.IgnoreRetreat(ignore=True), C.IgnoreRetreat(ignore=False)]
    assert g.rs.legal_commands(g.state, "imperial") == []
    with pytest.raises(NotYourDecision):
        g.do("imperial", C.IgnoreRetreat(ignore=True))
    g.do("rebel", C.IgnoreRetreat(ignore=True))
    # one retreat left: two hexes towards the Rebel baseline (row 0) -> the Rebel player chooses
    assert g.state.pending.kind == "retreat"
    assert g.rs.legal_commands(g.state, "rebel") == [C.Retreat(path=((8, 2),)), C.Retreat(path=((10, 2),))]
    assert refused(g, "rebel", C.Retreat(path=((8, 4),))) == "HOTH-RETREAT-7"
    g.do("rebel", C.Retreat(path=((8, 2),)))
    assert g.state.units["E"].hex == (8, 2)


def test_blocked_retreat_costs_a_figure_per_step():
    """HOTH-RETREAT-6 (own baseline: off the board), HOTH-RETREAT-7."""
    scn = scenario(units=[((9, 5), "rebel", "echo_troopers", None, "E"), ((10, 6), "imperial", "snowtroopers", None, "T")])
    g = example(scn, faces=["retreat", "retreat", "miss"])
    start(g, "rebel", ["E"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="E", target="T"))
    r = events(items, UnitRetreated)[0]
    assert r.event.path == () and r.event.losses == 2
    assert "HOTH-RETREAT-6" in r.ruling.rules()
    assert g.state.units["T"].figures == 2


def test_retreat_through_units_is_blocked_partly():
    """HOTH-RETREAT-5, HOTH-GAP-9: retreat as far as possible, lose 1 figure per missing step."""
    scn = scenario(units=[((9, 3), "imperial", "snowtroopers", None, "T"), ((8, 4), "imperial", "snowtroopers"),
                          ((8, 2), "rebel", "echo_troopers", None, "E")], first="rebel")
    # T at (9,3) retreats north (Imperial baseline row 6): (8,4) is taken, (10,4) is free; then (9,5)/(11,5).
    g = example(scn, faces=["retreat", "retreat", "retreat"])
    start(g, "rebel", ["E"])
    to_attack(g, "rebel")
    g.do("rebel", C.Attack(unit="E", target="T"))
    assert g.state.pending.kind == "retreat"
    opts = g.rs.legal_commands(g.state, "imperial")
    assert opts == [C.Retreat(path=((10, 4), (9, 5), (8, 6))), C.Retreat(path=((10, 4), (9, 5), (10, 6))),
                    C.Retreat(path=((10, 4), (11, 5), (10, 6))), C.Retreat(path=((10, 4), (11, 5), (12, 6)))]


def test_elimination_by_retreat_losses_gives_the_attacker_the_medal():
    """HOTH-ELIM-1, HOTH-GAP-14, HOTH-RETREAT-9."""
    scn = scenario(units=[((10, 0), "rebel", "echo_troopers", None, "E"), ((9, 1), "imperial", "snowtroopers", None, "T")],
                   first="imperial")
    g = example(scn, faces=["retreat", "retreat", "retreat"])
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    el = events(items, UnitEliminated)[0]
    assert "HOTH-GAP-14" in el.ruling.rules()
    assert g.state.medals["imperial"] == 1


# -- special forces (section 9) -------------------------------------------------------------------

def test_eweb_set_rerolls_any_dice_once():
    """HOTH-SPECIAL-EWEB-2/4/6/7, HOTH-DICE-4."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", "eweb", "W"), ((12, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn, faces=["miss", "miss", "infantry", "explosion"])
    start(g, "imperial", ["W"])
    to_attack(g, "imperial")
    assert g.state.units["W"].eweb_set
    g.do("imperial", C.Attack(unit="W", target="E"))  # distance 2: 2 dice
    assert g.state.pending.kind == "reroll"
    opts = g.rs.legal_commands(g.state, "imperial")
    assert opts == [C.Reroll(dice=()), C.Reroll(dice=(0,)), C.Reroll(dice=(1,)), C.Reroll(dice=(0, 1))]
    items = g.do("imperial", C.Reroll(dice=(0, 1)))
    rr = events(items, DiceRerolled)[0]
    assert rr.event.faces == ("infantry", "explosion") and [r.index for r in rr.rolls] == [2, 3]
    assert g.state.units["E"].figures == 1


def test_eweb_moved_has_no_reroll():
    """HOTH-SPECIAL-EWEB-3/5."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", "eweb", "W"), ((12, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn, faces=["miss", "miss", "miss"])
    start(g, "imperial", ["W"])
    to_attack(g, "imperial", [("W", ((10, 2),))])
    assert not g.state.units["W"].eweb_set
    g.do("imperial", C.Attack(unit="W", target="E"))
    assert g.state.pending is None


def test_assault_breakthrough_moves_in_and_attacks_again():
    """HOTH-SPECIAL-ASSAULT-1/2/3/4."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", "assault", "A"),
                          ((10, 2), "rebel", "rebel_artillery", None, "R"),
                          ((12, 2), "rebel", "echo_troopers", None, "E")], first="imperial")
    g = example(scn, faces=["explosion", "miss", "miss", "infantry", "miss", "miss"])
    start(g, "imperial", ["A"])
    to_attack(g, "imperial")
    g.do("imperial", C.Attack(unit="A", target="R"))
    assert "R" not in g.state.units and g.state.pending.kind == "breakthrough"
    assert g.rs.legal_commands(g.state, "imperial") == [C.Breakthrough(advance=True), C.Breakthrough(advance=False)]
    items = g.do("imperial", C.Breakthrough(advance=True))
    assert events(items, BreakthroughMade)[0].event.to == (10, 2)
    assert g.state.pending.kind == "breakthrough_attack"
    assert g.rs.legal_commands(g.state, "imperial") == [C.Attack(unit="A", target="E"), C.SkipAttack()]
    items = g.do("imperial", C.Attack(unit="A", target="E"))
    assert "HOTH-SPECIAL-ASSAULT-4" in rules(items)
    assert g.state.pending is None or g.state.pending.kind != "breakthrough"  # HOTH-SPECIAL-ASSAULT-2


def test_scouts_on_a_ridge_add_one_die():
    """HOTH-SPECIAL-SCOUT-1/2, HOTH-TERRAIN-RIDGE-6."""
    scn = scenario(units=[((8, 4), "imperial", "snowtroopers", "scouts", "SC"),
                          ((8, 2), "imperial", "snowtroopers", None, "T"), ((10, 2), "rebel", "echo_troopers", None, "E")],
                   terrain={(8, 4): "ridge"}, first="imperial")
    g = example(scn, faces=["miss"] * 4)
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    assert events(items, AttackRolled)[0].event.dice == 4
    assert "HOTH-SPECIAL-SCOUT-1" in rules(items)


# -- objectives and victory (section 11, HOTH-WIN-*) ----------------------------------------------

def test_temporary_medal_held_from_setup_and_lost_on_leaving():
    """HOTH-OBJ-TEMP-1/2/3."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "rebel", "echo_troopers")],
                   objectives=[TemporaryMedal(id="OBJ-1", hex=(8, 2), faction="imperial")], first="imperial")
    g = example(scn)
    assert g.state.medals["imperial"] == 1 and g.state.held == ("OBJ-1",)
    start(g, "imperial", ["T"])
    items = g.do("imperial", C.Move(unit="T", path=((10, 2),)))
    assert "HOTH-OBJ-TEMP-2" in rules(items)
    assert g.state.medals["imperial"] == 0 and g.state.held == ()


def test_permanent_medal_won_for_good_on_entry():
    """HOTH-OBJ-PERM-1/2/3."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "rebel", "echo_troopers")],
                   objectives=[PermanentMedal(id="OBJ-P", hex=(10, 2), faction="imperial")], first="imperial")
    g = example(scn)
    assert g.state.medals["imperial"] == 0
    start(g, "imperial", ["T"])
    g.do("imperial", C.Move(unit="T", path=((10, 2), (12, 2))))  # passing through enters it
    assert g.state.medals["imperial"] == 1 and g.state.captured == ("OBJ-P",)


def test_sudden_death_on_destroyed_structures():
    """HOTH-OBJ-SUDDEN-1/2, HOTH-STRUCT-4/5, HOTH-WIN-4."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "rebel", "echo_troopers")],
                   structures=[Structure(id="SG-1", kind="shield_generator", hex=(10, 2))],
                   terrain={(10, 2): "rocks"},
                   objectives=[SuddenDeath(id="SD", faction="imperial",
                                           condition=StructuresDestroyed(structures=("SG-1",)))],
                   imperial=SideSetup(victory_medals=None, elimination_medals=False), first="imperial")
    g = example(scn, faces=["retreat", "explosion"])
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="T", target="SG-1"))
    assert events(items, AttackRolled)[0].event.dice == 2  # HOTH-MOD-5: the rocks under it protect it
    assert "HOTH-MOD-5" in rules(items)
    won = events(items, GameWon)[0].event
    assert won.winner == "imperial" and won.rule == "HOTH-OBJ-SUDDEN-1"
    st = g.rs.status(g.state)
    assert st.status == "finished" and st.winner == "imperial" and st.to_act == ()
    assert refused(g, "imperial", C.EndTurn()) == "HOTH-WIN-5"


def test_victory_checked_at_once_on_a_medal():
    """HOTH-WIN-1, HOTH-WIN-5, HOTH-ELIM-2: the game ends mid-turn, nothing else is resolved."""
    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((12, 2), "rebel", "snowspeeders", None, "S2"),
                          ((10, 2), "imperial", "snowtroopers", None, "T"), ((14, 4), "imperial", "snowtroopers")],
                   rebel=SideSetup(victory_medals=1))
    g = example(scn, faces=["infantry"] * 4)
    start(g, "rebel", ["S", "S2"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="S", target="T"))
    assert events(items, GameWon)[0].event.winner == "rebel"
    assert g.rs.legal_commands(g.state, "rebel") == []


def test_no_imperial_kill_medals_switch():
    """HOTH-ELIM-4 (scenario switch: no medals for eliminating Rebel units)."""
    scn = scenario(units=[((8, 2), "imperial", "at_at", None, "A"), ((10, 2), "rebel", "rebel_artillery"),
                          ((9, 3), "rebel", "echo_troopers", None, "E")],
                   imperial=SideSetup(victory_medals=None, elimination_medals=False), first="imperial")
    g = example(scn, faces=["explosion", "explosion", "explosion"])
    start(g, "imperial", ["A"])
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="A", target="E"))
    assert "E" not in g.state.units and g.state.medals["imperial"] == 0
    assert "HOTH-ELIM-4" in rules(items)


def test_sudden_death_by_occupying_hexes_and_permanent_medal_by_retreat():
    """HOTH-OBJ-SUDDEN-1 (hexes_occupied), HOTH-OBJ-PERM-3 / HOTH-GAP-12 (a retreat entry captures)."""
    from domain.hoth.scenario import HexesOccupied

    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "rebel", "echo_troopers")],
                   objectives=[SuddenDeath(id="SD", faction="imperial", condition=HexesOccupied(hexes=((10, 2),)))],
                   first="imperial")
    g = example(scn)
    start(g, "imperial", ["T"])
    items = g.do("imperial", C.Move(unit="T", path=((10, 2),)))
    assert events(items, GameWon)[0].event.rule == "HOTH-OBJ-SUDDEN-1"

    scn2 = scenario(units=[((9, 3), "imperial", "snowtroopers", None, "T"), ((8, 2), "rebel", "echo_troopers", None, "E")],
                    terrain={(8, 4): "serac"},
                    objectives=[PermanentMedal(id="P", hex=(10, 4), faction="imperial")], first="rebel")
    g2 = example(scn2, faces=["retreat", "miss", "miss"])
    start(g2, "rebel", ["E"])
    to_attack(g2, "rebel")
    items = g2.do("rebel", C.Attack(unit="E", target="T"))  # the only retreat hex (10,4) holds the medal
    assert events(items, UnitRetreated)[0].event.path == ((10, 4),)
    assert g2.state.medals["imperial"] == 1 and "HOTH-OBJ-PERM-1" in rules(items)


def test_attack_ruling_carries_sight_and_dice_numbers():
    """DESIGN 6 / HOTH-LOS-1..3: examined hexes, roll indices and faces are in the attack ruling."""
    scn = scenario(units=[((8, 0), "rebel", "echo_troopers", None, "E"), ((10, 2), "imperial", "snowtroopers", None, "T")],
                   terrain={(7, 1): "rocks"})
    g = example(scn, faces=["miss", "miss"])
    start(g, "rebel", ["E"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="E", target="T"))
    steps = {s.rule: s.values for s in items[0].ruling.steps}
    los = steps["HOTH-LOS-1"]
    assert los["clear"] and los["examined"] == ["c4 r1 [9,1]"] and los["blocked_by"] == []
    assert steps["HOTH-HIT-1"]["roll_indices"] == [0, 1] and steps["HOTH-HIT-1"]["faces"] == ["miss", "miss"]


def test_blocked_sight_is_refused_naming_the_blocking_hex():
    """HOTH-LOS-1, HOTH-LOS-3, HOTH-LOS-4 (a unit in between blocks)."""
    scn = scenario(units=[((6, 2), "rebel", "echo_troopers", None, "E"), ((8, 2), "rebel", "echo_troopers", None, "F"),
                          ((10, 2), "imperial", "snowtroopers", None, "T")])
    g = example(scn)
    start(g, "rebel", ["E", "F"])
    to_attack(g, "rebel")
    with pytest.raises(RuleViolation) as exc:
        g.do("rebel", C.Attack(unit="E", target="T"))
    assert exc.value.rule == "HOTH-LOS-1" and "c4 r2 [8,2]" in exc.value.detail
    assert C.Attack(unit="E", target="T") not in g.rs.legal_commands(g.state, "rebel")


def test_focus_fire_both_attacks_on_the_same_target_get_a_die():
    """Content 5.1 FOCUS-FIRE (extra_dice with same_target): "each rolls +1 die" - the first attack too.

    Changed by the review fixes (item 1): the first attack used to roll without the bonus.
    """
    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "A"), ((12, 2), "rebel", "echo_troopers", None, "B"),
                          ((10, 4), "imperial", "snowtroopers", None, "T")])
    g = example(scn, card="PROP-REB-FOCUS-FIRE", faces=["miss"] * 6)
    start(g, "rebel", ["A", "B"], card="PROP-REB-FOCUS-FIRE")
    to_attack(g, "rebel")
    first = g.do("rebel", C.Attack(unit="A", target="T"))
    assert events(first, AttackRolled)[0].event.dice == 3  # distance 2: 2 dice, +1 (declares the focus target)
    assert "HOTH-CARD-7" in rules(first)
    second = g.do("rebel", C.Attack(unit="B", target="T"))
    assert events(second, AttackRolled)[0].event.dice == 3 and "HOTH-CARD-7" in rules(second)


def test_focus_fire_partner_is_bound_to_the_focus_target():
    """Content 5.1 FOCUS-FIRE: after the first bonus attack the partner may only attack that target
    (FOCUS_FIRE_PARTNER_BOUND, INFERRED); refused with HOTH-CARD-7 and not listed."""
    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "A"), ((12, 2), "rebel", "echo_troopers", None, "B"),
                          ((10, 4), "imperial", "snowtroopers", None, "T"), ((14, 4), "imperial", "snowtroopers", None, "U")])
    g = example(scn, card="PROP-REB-FOCUS-FIRE", faces=["miss"] * 6)
    start(g, "rebel", ["A", "B"], card="PROP-REB-FOCUS-FIRE")
    to_attack(g, "rebel")
    assert C.Attack(unit="B", target="U") in g.rs.legal_commands(g.state, "rebel")
    g.do("rebel", C.Attack(unit="A", target="T"))
    assert C.Attack(unit="B", target="U") not in g.rs.legal_commands(g.state, "rebel")
    with pytest.raises(RuleViolation) as exc:
        g.do("rebel", C.Attack(unit="B", target="U"))
    assert exc.value.rule == "HOTH-CARD-7" and "FOCUS_FIRE_PARTNER_BOUND" in exc.value.detail


@pytest.mark.parametrize("attacker_hex,terrain,dice,rule", [
    ((8, 2), {(10, 2): "ridge"}, 3, "HOTH-TERRAIN-RIDGE-3"),                       # speeder 4 - 1 (ridge)
    ((8, 2), {(10, 2): "ridge", (8, 2): "ridge"}, 4, "HOTH-TERRAIN-RIDGE-3"),     # both on ridges: no protection
    ((8, 2), {(10, 2): "rocks"}, 2, "HOTH-TERRAIN-ROCKS-3"),                       # vehicle attacker -2
    ((8, 2), {(10, 2): "buildings", (8, 2): "buildings"}, 0, "HOTH-MOD-7"),         # -2 target, -2 attacker: refused
    ((8, 2), {(8, 2): "buildings"}, 2, "HOTH-TERRAIN-BUILDING-2"),                 # vehicle attacking from buildings
    ((8, 2), {(10, 2): "trench"}, 3, "HOTH-TERRAIN-TRENCH-2"),                     # infantry target in a trench
])
def test_terrain_modifiers_for_a_vehicle_attacker(attacker_hex, terrain, dice, rule):
    """HOTH-MOD-1/2/3/7: protection and attack penalties add up; 0 dice means no attack (HOTH-GAP-10)."""
    scn = scenario(units=[(attacker_hex, "rebel", "snowspeeders", None, "S"), ((10, 2), "imperial", "snowtroopers", None, "T"),
                          ((6, 2), "imperial", "snowtroopers")], terrain=terrain)
    g = example(scn, faces=["miss"] * 4)
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    if dice == 0:
        assert refused(g, "rebel", C.Attack(unit="S", target="T")) == rule
        assert C.Attack(unit="S", target="T") not in g.rs.legal_commands(g.state, "rebel")
        return
    items = g.do("rebel", C.Attack(unit="S", target="T"))
    assert events(items, AttackRolled)[0].event.dice == dice and rule in rules(items)


def test_breakthrough_into_rocks_forbids_the_second_attack():
    """HOTH-SPECIAL-ASSAULT-5, HOTH-MOVE-10."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", "assault", "A"),
                          ((10, 2), "rebel", "rebel_artillery", None, "R"),
                          ((12, 2), "rebel", "echo_troopers", None, "E")], terrain={(10, 2): "rocks"}, first="imperial")
    g = example(scn, faces=["explosion", "miss"])  # 3 - 1 (rocks) = 2 dice
    start(g, "imperial", ["A"])
    to_attack(g, "imperial")
    g.do("imperial", C.Attack(unit="A", target="R"))
    items = g.do("imperial", C.Breakthrough(advance=True))
    assert "HOTH-SPECIAL-ASSAULT-5" in rules(items)
    assert g.state.units["A"].hex == (10, 2)
    assert g.state.pending is None and g.rs.status(g.state).turn_seat == "rebel"  # no second attack: turn over


def test_team_deploy_the_fleet_teammate_discards_too():
    """HOTH-TEAM-13: the active player discards up to 3 and draws +1, then the teammate up to 3, no +1."""
    import msgspec

    from domain.hoth.decider import HothRuleset

    from .fixtures import FixtureCatalog
    from .play import Game

    rs = HothRuleset(FixtureCatalog())
    g = Game(rs, "SCN-TAKE-DOWN-THE-SHIELD", options={"team": True})
    hands = dict(g.state.hands)
    hands["imperial"] = ("EMP-DEPLOY-THE-FLEET",) + hands["imperial"][1:]
    g.state = msgspec.structs.replace(g.state, hands=hands)
    g.do("imperial", C.PlayCard(card="EMP-DEPLOY-THE-FLEET"))
    keep = g.state.hands["imperial"]
    g.do("imperial", C.DiscardCards(cards=tuple(sorted(keep))))
    assert len(g.state.hands["imperial"]) == len(keep) + 1
    assert g.state.pending.kind == "discard" and g.state.pending.seat == "imperial-2"
    assert g.rs.status(g.state).to_act == ("imperial-2",)
    mate = g.state.hands["imperial-2"]
    g.do("imperial-2", C.DiscardCards(cards=(sorted(mate)[0],)))
    assert len(g.state.hands["imperial-2"]) == len(mate)
    assert g.rs.status(g.state).turn_seat == "rebel"


def test_temporary_medal_recaptured_on_reentry_and_lost_on_elimination():
    """HOTH-OBJ-TEMP-2 (elimination loses it at once), HOTH-OBJ-TEMP-3 (re-captured when re-occupied)."""
    scn = scenario(units=[((10, 2), "imperial", "snowtroopers", None, "T"), ((8, 2), "rebel", "snowspeeders", None, "S")],
                   objectives=[TemporaryMedal(id="OBJ", hex=(10, 2), faction="imperial")],
                   rebel=SideSetup(victory_medals=5), first="rebel")
    g = example(scn, faces=["infantry"] * 4)
    assert g.state.medals["imperial"] == 1
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="S", target="T"))
    assert "T" not in g.state.units and g.state.medals == {"imperial": 0, "rebel": 1}
    assert "HOTH-OBJ-TEMP-2" in rules(items)


def test_sudden_death_when_the_enemy_has_no_units_of_a_type():
    """HOTH-OBJ-SUDDEN-1 (units_eliminated condition)."""
    from domain.hoth.scenario import UnitsEliminated

    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((10, 2), "imperial", "probe_droids", None, "P"),
                          ((16, 6), "imperial", "snowtroopers")],
                   objectives=[SuddenDeath(id="NO-DROIDS", faction="rebel",
                                           condition=UnitsEliminated(unit_types=("probe_droids",)))])
    g = example(scn, faces=["explosion", "explosion", "miss", "miss"])
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="S", target="P"))
    assert events(items, GameWon)[0].event.winner == "rebel" and g.state.medals["rebel"] == 0


def test_damaged_units_roll_full_dice_and_speeders_stop_in_rocks():
    """HOTH-ATTACK-5 / HOTH-FORCE-4 (losses do not weaken), HOTH-UNIT-SPEEDER-4 / HOTH-GAP-28 (rocks stop speeders)."""
    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((10, 2), "imperial", "snowtroopers", None, "T"),
                          ((4, 2), "rebel", "snowspeeders", None, "S2"), ((16, 6), "imperial", "snowtroopers")],
                   terrain={(5, 3): "rocks"})
    g = example(scn, faces=["miss"] * 4)
    units = dict(g.state.units)
    units["S"] = msgspec.structs.replace(units["S"], figures=1)
    g.state = msgspec.structs.replace(g.state, units=units)
    start(g, "rebel", ["S", "S2"])
    assert refused(g, "rebel", C.Move(unit="S2", path=((5, 3), (6, 4)))) == "HOTH-MOVE-9"
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="S", target="T"))
    assert events(items, AttackRolled)[0].event.dice == 4


def test_a_unit_ordered_in_its_section_may_leave_it():
    """HOTH-ORDER-7 (section judged when ordered), HOTH-MOVE-5 (then it may move to another section)."""
    scn = scenario(units=[((4, 0), "rebel", "echo_troopers", None, "E"), ((8, 6), "imperial", "snowtroopers")])
    g = example(scn, card="PROP-REB-PROBE-LEFT")
    start(g, "rebel", ["E"], card="PROP-REB-PROBE-LEFT")
    g.do("rebel", C.Move(unit="E", path=((5, 1), (6, 2))))  # (6,2) is in the centre
    assert g.state.units["E"].hex == (6, 2)
