"""Fixes of the rules review findings; each test names the rule it checks and failed before its fix."""
from __future__ import annotations

import msgspec
import pytest

from domain.hoth import commands as C
from domain.hoth.events import AttackResolved, AttackRolled, GameWon, UnitEliminated, UnitRetreated
from domain.hoth.scenario import PermanentMedal, SideSetup, Structure
from domain.kernel import RuleViolation

from .examples import example
from .fixtures import scenario
from .play import violation
from .test_rules import events, rules, start, to_attack


refusal = violation


# -- HOTH-RETREAT-9 / HOTH-OBJ-PERM-3 --------------------------------------------------------------

def _perm_retreat_scn(imperial_needs=5):
    # Probe droids T (2 figures, 0 medals) at (9,3) retreat north: only (10,4) is open; the next row is seracs.
    return scenario(units=[((9, 3), "imperial", "probe_droids", None, "T"), ((8, 2), "rebel", "echo_troopers", None, "E")],
                    terrain={(8, 4): "serac", (9, 5): "serac", (11, 5): "serac"},
                    objectives=[PermanentMedal(id="P", hex=(10, 4), faction="imperial")], first="rebel",
                    imperial=SideSetup(hand_size=4, victory_medals=imperial_needs))


def test_retreat_9_entry_captures_the_permanent_medal_even_when_retreat_losses_eliminate():
    """HOTH-RETREAT-9, HOTH-OBJ-PERM-3: any entry counts, also by a unit then eliminated by retreat losses."""
    g = example(_perm_retreat_scn(), faces=["retreat", "retreat", "retreat"])
    start(g, "rebel", ["E"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="E", target="T"))
    assert events(items, UnitRetreated)[0].event.path == ((10, 4),)
    assert events(items, UnitEliminated)
    assert g.state.medals["imperial"] == 1 and "P" in g.state.captured
    assert {"HOTH-OBJ-PERM-1", "HOTH-OBJ-PERM-3", "HOTH-RETREAT-9"} <= rules(items)


def test_win_5_capture_by_retreat_ends_the_game_before_the_elimination():
    """HOTH-WIN-5: the capture comes first (the hex is entered before the missing steps cost figures)."""
    g = example(_perm_retreat_scn(imperial_needs=1), faces=["retreat", "retreat", "retreat"])
    start(g, "rebel", ["E"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="E", target="T"))
    assert events(items, GameWon)[0].event.winner == "imperial"
    assert not events(items, UnitEliminated)


# -- HOTH-ATTACK-8: own structures ---------------------------------------------------------------------

def test_attack_8_a_side_cannot_attack_its_own_structure():
    """HOTH-ATTACK-8 / HOTH-GAP-39: a structure owned by the attacker's faction is not a target."""
    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "E"), ((0, 6), "imperial", "snowtroopers")],
                   structures=[Structure(id="SG", kind="shield_generator", hex=(10, 2), owner="rebel"),
                               Structure(id="IC", kind="ion_cannon", hex=(6, 2), owner="imperial")])
    g = example(scn, faces=["miss", "miss", "miss"])
    start(g, "rebel", ["E"])
    to_attack(g, "rebel")
    legal = g.rs.legal_commands(g.state, "rebel")
    assert C.Attack(unit="E", target="SG") not in legal and C.Attack(unit="E", target="IC") in legal
    bad = refusal(g, "rebel", C.Attack(unit="E", target="SG"))
    assert bad.rule == "HOTH-ATTACK-8" and "own" in bad.detail


# -- HOTH-MOVE-2 / HOTH-ORDER-4: the real reason after a step closed by itself ---------------------------

def test_move_2_second_move_after_the_step_closed_names_the_real_reason():
    """HOTH-MOVE-2: the Move step closed by itself (HOTH-TURN-4); a second Move is refused as already moved."""
    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "E"), ((12, 4), "imperial", "snowtroopers")])
    g = example(scn)
    start(g, "rebel", ["E"])
    g.do("rebel", C.Move(unit="E", path=((9, 3),)))
    assert g.state.turn.phase == "attack"
    bad = refusal(g, "rebel", C.Move(unit="E", path=((8, 4),)))
    assert bad.rule == "HOTH-MOVE-2" and "already moved" in bad.detail
    bad = refusal(g, "rebel", C.EndOrders())
    assert bad.rule == "HOTH-ORDER-4" and "already ended" in bad.detail


# -- HOTH-MOD-7: an attack left with 0 dice by a support card ----------------------------------------------

def test_mod_7_attack_left_with_no_dice_by_a_support_card_has_a_ruling_naming_the_card():
    """HOTH-MOD-7 + content 5.3 Covering Fire: the AttackResolved of a 0-dice attack carries its ruling."""
    from .test_support import COVER, _support

    # distance 3: 1 die; Covering Fire takes it away
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((14, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn)
    _support(g, "rebel", COVER)
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    g.do("imperial", C.Attack(unit="T", target="E"))
    items = g.do("rebel", C.PlaySupport(card=COVER.id))
    res = events(items, AttackResolved)[0]
    assert res.ruling is not None
    steps = {s.rule: s.values for s in res.ruling.steps}
    assert "HOTH-MOD-7" in steps and steps["HOTH-CARD-4"]["card"] == COVER.id


# -- HOTH-MOVE-4: steps taken are counted; a path may enter a hex again ----------------------------------

def test_move_4_a_path_may_revisit_a_hex_and_the_start_hex():
    """HOTH-MOVE-4: the number of hexes moved is the steps actually taken, whatever the displacement."""
    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((0, 6), "imperial", "snowtroopers")])
    g = example(scn)
    start(g, "rebel", ["S"])
    items = g.do("rebel", C.Move(unit="S", path=((9, 3), (10, 4), (9, 3))))
    moved = [e for e in items if type(e.event).__name__ == "UnitMoved"][0]
    assert g.state.units["S"].hex == (9, 3) and len(moved.event.path) == 3
    assert {s.rule: s.values for s in moved.ruling.steps}["HOTH-MOVE-4"]["steps"] == 3
    g2 = example(scn)
    start(g2, "rebel", ["S"])
    items = g2.do("rebel", C.Move(unit="S", path=((9, 3), (8, 2))))
    assert g2.state.units["S"].hex == (8, 2) and "HOTH-MOVE-4" in rules(items)


def test_move_4_legal_moves_list_each_destination_once_with_an_accepted_path():
    """HOTH-MOVE-4: legal_commands lists distinct destinations (the start hex included) with a shortest path."""
    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "E"), ((0, 6), "imperial", "snowtroopers")],
                   terrain={(10, 2): "rocks"})
    g = example(scn)
    start(g, "rebel", ["E"])
    moves = [c for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.Move)]
    dests = [c.path[-1] for c in moves]
    assert len(dests) == len(set(dests)) and (8, 2) in dests and (12, 2) not in dests  # rocks stop
    assert next(c for c in moves if c.path[-1] == (9, 3)).path == ((9, 3),)
    for c in moves:
        g2 = example(scn)
        start(g2, "rebel", ["E"])
        g2.do("rebel", c)
        assert g2.state.units["E"].hex == c.path[-1]


# -- HOTH-SPECIAL-3: badge eligibility at open and for campaign-derived setups -----------------------------

def test_special_3_open_refuses_a_badge_on_the_wrong_unit_type():
    """HOTH-SPECIAL-3: ``open`` itself refuses (not only ``seats``), naming the field."""
    from domain.hoth.decider import HothRuleset
    from domain.kernel import Dice, Setup, SetupError

    from .fixtures import FixtureCatalog

    for unit, badge in (("echo_troopers", "elite_squadron"), ("at_at", "scouts"), ("snowspeeders", "eweb")):
        faction = "imperial" if unit == "at_at" else "rebel"
        bad = scenario(units=[((8, 2), faction, unit, badge), ((0, 6), "imperial", "snowtroopers"),
                              ((8, 6), "rebel", "echo_troopers")], sid="BAD")
        rs = HothRuleset(FixtureCatalog([bad]))
        st = rs.initial_state(Setup(game_id="g", ruleset="hoth", scenario="BAD", seats=("imperial", "rebel"),
                                    options={}))
        with pytest.raises(SetupError) as exc:
            rs.open(st, Dice(b"\x01" * 32, "g", {}))
        assert exc.value.field == "scenario.units[0].badge" and "HOTH-SPECIAL-3" in exc.value.detail


def test_special_3_campaign_derived_setup_with_a_wrong_badge_is_refused():
    """HOTH-SPECIAL-3 for a campaign variant (content 3.4 ADD_UNIT with a badge)."""
    from domain.hoth.campaign.graph import AddUnit
    from domain.hoth.campaign.variants import apply_setup
    from domain.hoth.decider import HothRuleset
    from domain.kernel import SetupError

    from .fixtures import FixtureCatalog

    base = scenario(units=[((0, 6), "imperial", "snowtroopers"), ((8, 6), "rebel", "echo_troopers")], sid="BASE")
    var = apply_setup(base, (AddUnit(faction="imperial", unit="at_at", hex=(8, 2), badge="scouts"),), "BASE@C/N/x", "V")
    rs = HothRuleset(FixtureCatalog([base, var]))
    with pytest.raises(SetupError) as exc:
        rs.seats("BASE@C/N/x", {})
    assert exc.value.field == "scenario.units[2].badge" and "HOTH-SPECIAL-3" in exc.value.detail


# -- content 3.1: support cards are hidden; reaction windows depend on public information only -------------

def _attack_with_defender_support(card):
    from .test_support import _support

    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((10, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn, faces=["miss", "miss", "miss"])
    _support(g, "rebel", card)
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    g.do("imperial", C.Attack(unit="T", target="E"))
    return g


def test_support_window_opens_whatever_the_defender_holds():
    """Content 3.1 (support cards are hidden): a window opens when the defender holds any support card (the
    count is public), so status().to_act and view().pending do not tell whether it holds a reactive one."""
    from .test_support import COVER, MEDIC

    with_cover = _attack_with_defender_support(COVER)
    with_medic = _attack_with_defender_support(MEDIC)
    for g in (with_cover, with_medic):
        assert g.rs.status(g.state).to_act == ("rebel",)
    for seat in ("imperial", None):
        assert with_cover.rs.view(with_cover.state, seat)["pending"] == with_medic.rs.view(with_medic.state, seat)["pending"]
    assert with_medic.rs.legal_commands(with_medic.state, "rebel") == [C.PassSupport()]
    assert with_cover.rs.legal_commands(with_cover.state, "rebel") == [C.PlaySupport(card=COVER.id), C.PassSupport()]
    with pytest.raises(RuleViolation):
        with_medic.do("rebel", C.PlaySupport(card=MEDIC.id))
    with_medic.do("rebel", C.PassSupport())
    assert with_medic.state.pending is None or with_medic.state.pending.kind != "support"


# -- HOTH-COORD-3: one coordinate form in sentences (the label), raw [x, r] in values ----------------------

def test_coord_3_refusals_and_rulings_name_hexes_by_label():
    """HOTH-COORD-3: sentences name hexes "c4 r2 [8,2]" (column and row, then the API's id); machines get
    [x, r] in values."""
    from domain.hoth.board import label
    from domain.hoth.view import summarize
    from domain.kernel.messages import text_of

    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "E"), ((10, 2), "rebel", "echo_troopers", None, "F"),
                          ((0, 6), "imperial", "snowtroopers")], terrain={(9, 3): "rocks", (7, 3): "serac"})
    g = example(scn)
    start(g, "rebel", ["E"])
    for path, rule, h in ((((10, 2),), "HOTH-MOVE-6", (10, 2)), (((7, 3),), "HOTH-TERRAIN-SERAC-1", (7, 3)),
                          (((9, 3), (10, 4)), "HOTH-MOVE-9", (9, 3)), (((12, 2),), "HOTH-MOVE-4", (12, 2))):
        bad = refusal(g, "rebel", C.Move(unit="E", path=path))
        assert bad.rule == rule and label(h) in bad.detail and "(" not in bad.detail.replace("(s)", ""), bad.detail
        assert bad.values.get("hex") == list(h)
    items = g.do("rebel", C.Move(unit="E", path=((9, 1),)))
    moved = [e for e in items if type(e.event).__name__ == "UnitMoved"][0]
    assert label((9, 1)) in moved.ruling.steps[0].text and moved.ruling.steps[0].values["path"] == [[9, 1]]
    assert label((9, 1)) in text_of(summarize(moved.event))


# -- citations: the specific rule beside the general one ------------------------------------------------------

def test_citations_atat_specific_rules_beside_hit_5_mod_4_elim_2():
    """HOTH-UNIT-ATAT-4 (HOTH-HIT-5), HOTH-UNIT-ATAT-6 (HOTH-MOD-4), HOTH-UNIT-ATAT-7 (HOTH-ELIM-2)."""
    from .test_rules import atat_scn

    g = example(atat_scn({(10, 2): "rocks"}), faces=["explosion", "vehicle", "miss", "infantry", "explosion", "miss"])
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    got = rules(g.do("rebel", C.Attack(unit="S", target="A")))
    assert {"HOTH-HIT-5", "HOTH-UNIT-ATAT-4", "HOTH-MOD-4", "HOTH-UNIT-ATAT-6", "HOTH-ELIM-2",
            "HOTH-UNIT-ATAT-7"} <= got


def test_citations_probe_and_artillery_beside_hit_2_elim_3():
    """HOTH-UNIT-PROBE-4/5 and HOTH-UNIT-ARTY-5/6 beside HOTH-HIT-2 / HOTH-ELIM-3."""
    for unit, probe in (("probe_droids", True), ("rebel_artillery", False)):
        att, dfn = ("rebel", "imperial") if probe else ("imperial", "rebel")
        scn = scenario(units=[((8, 2), att, "snowspeeders" if probe else "snowtroopers", None, "S"),
                              ((10, 2), dfn, unit, None, "P"), ((0, 6), "imperial", "snowtroopers"),
                              ((18, 0), "rebel", "echo_troopers")], first=att)
        g = example(scn, faces=["explosion", "explosion", "explosion", "explosion"])
        start(g, att, ["S"])
        to_attack(g, att)
        got = rules(g.do(att, C.Attack(unit="S", target="P")))
        spec = ("HOTH-UNIT-PROBE-4", "HOTH-UNIT-PROBE-5") if probe else ("HOTH-UNIT-ARTY-5", "HOTH-UNIT-ARTY-6")
        assert {"HOTH-HIT-2", "HOTH-ELIM-3", *spec} <= got, (unit, got)


def test_citations_eweb_moved_elite_troops_scouts_ridge_and_retreat_through_rocks():
    """HOTH-SPECIAL-EWEB-5, HOTH-SPECIAL-ELITE-2/3, HOTH-TERRAIN-RIDGE-6, HOTH-TERRAIN-ROCKS-5 / BUILDING-5."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", "eweb", "W"), ((12, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn, faces=["miss", "miss", "miss"])
    start(g, "imperial", ["W"])
    to_attack(g, "imperial", [("W", ((10, 2),))])
    assert "HOTH-SPECIAL-EWEB-5" in rules(g.do("imperial", C.Attack(unit="W", target="E")))

    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", "elite_troops", "L"), ((0, 6), "imperial", "snowtroopers")],
                   terrain={(10, 2): "rocks"})
    g = example(scn)
    start(g, "rebel", ["L"])
    bad = refusal(g, "rebel", C.Move(unit="L", path=((9, 3), (10, 4), (11, 5))))
    # the refusal names the rule its sentence applies: an elite unit's limit is HOTH-SPECIAL-ELITE-3
    assert bad.rule == "HOTH-SPECIAL-ELITE-3" and "elite troops still move at most 2" in bad.detail
    got = rules(g.do("rebel", C.Move(unit="L", path=((10, 2),))))
    assert {"HOTH-MOVE-9", "HOTH-SPECIAL-ELITE-2", "HOTH-SPECIAL-ELITE-3"} <= got

    scn = scenario(units=[((8, 4), "imperial", "snowtroopers", "scouts", "SC"),
                          ((8, 2), "imperial", "snowtroopers", None, "T"), ((10, 2), "rebel", "echo_troopers", None, "E")],
                   terrain={(8, 4): "ridge"}, first="imperial")
    g = example(scn, faces=["miss"] * 4)
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    assert {"HOTH-SPECIAL-SCOUT-1", "HOTH-TERRAIN-RIDGE-6"} <= rules(g.do("imperial", C.Attack(unit="T", target="E")))

    scn = scenario(units=[((6, 2), "rebel", "echo_troopers", None, "A"), ((7, 3), "imperial", "snowtroopers", None, "T")],
                   terrain={(6, 4): "rocks", (8, 4): "buildings"})
    for path, rule in ((((6, 4), (5, 5)), "HOTH-TERRAIN-ROCKS-5"), (((8, 4), (9, 5)), "HOTH-TERRAIN-BUILDING-5")):
        g = example(scn, faces=["retreat", "retreat", "miss"])
        start(g, "rebel", ["A"])
        to_attack(g, "rebel")
        g.do("rebel", C.Attack(unit="A", target="T"))
        got = rules(g.do("imperial", C.Retreat(path=path)))
        assert {"HOTH-RETREAT-4", rule} <= got, got


def test_attackers_own_support_reroll_window_opens_whatever_it_holds():
    """Content 3.1: the attacker's own re-roll window (content 5.3 Veteran Gunners) opens whenever it holds a
    support card; without a re-rolling card only keeping the roll is legal, and the defender sees the same."""
    from domain.hoth.cards import Card, Heal

    from .test_support import GUNNERS, _support

    plain = Card(id="PROP-SUP-EMP-TEST-PLAIN", faction="imperial", kind="support", status="proposed", title="Plain",
                 timing="start_of_turn", effects=(Heal(figures=1),))
    games = []
    for card in (GUNNERS, plain):
        scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"),
                              ((10, 2), "rebel", "echo_troopers", None, "E")], first="imperial")
        g = example(scn, faces=["miss", "miss", "miss", "infantry"])
        _support(g, "imperial", card)
        start(g, "imperial", ["T"])
        to_attack(g, "imperial")
        g.do("imperial", C.Attack(unit="T", target="E"))
        assert g.state.pending.kind == "reroll" and g.rs.status(g.state).to_act == ("imperial",)
        games.append(g)
    with_gunners, with_plain = games
    for seat in ("rebel", None):
        assert with_gunners.rs.view(with_gunners.state, seat)["pending"] == with_plain.rs.view(with_plain.state, seat)["pending"]
    assert with_plain.rs.legal_commands(with_plain.state, "imperial") == [C.Reroll(dice=())]
    assert refusal(with_plain, "imperial", C.Reroll(dice=(0,))).rule == "HOTH-CARD-4"
    with_plain.do("imperial", C.Reroll(dice=()))
    assert with_plain.state.support["imperial"] == (plain.id,)
