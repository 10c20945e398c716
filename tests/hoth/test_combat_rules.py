"""Independent review of the Battle of Hoth engine against battle-of-hoth.md: attacks, dice, hits, retreats.

Black-box: positions are built with the test fixtures' ``scenario`` and played through the ruleset's
public API (decide/evolve/legal_commands/status) with real HMAC dice and fixed seeds. Each test names
the rule ids it checks.
"""
from __future__ import annotations

import msgspec
import pytest

from domain.hoth import commands as C
from domain.hoth.events import AttackResolved, AttackRolled, GameWon, RetreatIgnored, UnitRetreated
from domain.kernel import RuleViolation

from .examples import example
from .fixtures import scenario
from .play import events_of, rule_ids, violation


ev = events_of


def refusal(g, seat, cmd):
    v = violation(g, seat, cmd)
    assert v.rule.startswith("HOTH-") and str(v)
    return v.rule


def ready(g, seat, units, moves=()):
    """Play the test card, order ``units``, make ``moves``, and reach the Attack step."""
    g.do(seat, C.PlayCard(card=g.state.hands[seat][0]))
    for u in units:
        g.do(seat, C.OrderUnit(unit=u, slot=0))
    if g.state.turn.phase == "order":
        g.do(seat, C.EndOrders())
    for u, p in moves:
        g.do(seat, C.Move(unit=u, path=p))
    if g.state.turn.phase == "move":
        g.do(seat, C.EndMoves())


def dice_for(attacker, faction, distance, terrain=None, attacker_hex=(2, 2), target_unit=None, badge=None):
    """Dice rolled by ``attacker`` at ``distance`` along row 2 (empty line of sight)."""
    enemy = "rebel" if faction == "imperial" else "imperial"
    target_unit = target_unit or ("echo_troopers" if enemy == "rebel" else "snowtroopers")
    th = (attacker_hex[0] + 2 * distance, attacker_hex[1])
    # H attacks HE far away, so the Attack step stays open even when A has no legal attack
    scn = scenario(units=[(attacker_hex, faction, attacker, badge, "A"), (th, enemy, target_unit, None, "T"),
                          ((16, 6), faction, "snowspeeders" if faction == "rebel" else "snowtroopers", None, "H"),
                          ((18, 6), enemy, "echo_troopers" if enemy == "rebel" else "snowtroopers", None, "HE")],
                   terrain=terrain, first=faction)
    g = example(scn)
    ready(g, faction, ["A", "H"])
    listed = any(isinstance(c, C.Attack) and c.unit == "A" and c.target == "T"
                 for c in g.rs.legal_commands(g.state, faction))
    try:
        items = g.do(faction, C.Attack(unit="A", target="T"))
    except RuleViolation as exc:
        assert not listed, "HOTH-ATTACK-7: a refused attack must not be listed in legal_commands"
        return exc.rule
    assert listed, "every legal attack is listed"
    return ev(items, AttackRolled)[0].event.dice


# -- HOTH-RANGE-1/2, HOTH-UNIT-*-3: base dice by unit and distance -----------------------------

@pytest.mark.parametrize("unit,faction,row", [
    ("snowtroopers", "imperial", (3, 2, 1)),       # HOTH-UNIT-SNOW-3
    ("echo_troopers", "rebel", (3, 2, 1)),         # HOTH-UNIT-ECHO-3
    ("snowspeeders", "rebel", (4, 2)),             # HOTH-UNIT-SPEEDER-3
    ("at_at", "imperial", (3, 3, 3)),              # HOTH-UNIT-ATAT-3, HOTH-GAP-2
    ("probe_droids", "imperial", (2, 1)),          # HOTH-UNIT-PROBE-3, HOTH-GAP-3
    ("rebel_artillery", "rebel", (4, 3, 2, 1)),    # HOTH-UNIT-ARTY-4, HOTH-GAP-4
])
def test_range_2_base_dice_by_unit_and_distance_and_range_1_limit(unit, faction, row):
    """HOTH-RANGE-1, HOTH-RANGE-2, HOTH-RANGE-3: dice by distance; one hex beyond the row is refused."""
    for d, n in enumerate(row, start=1):
        assert dice_for(unit, faction, d) == n, (unit, d)
    assert dice_for(unit, faction, len(row) + 1) == "HOTH-RANGE-1"


def test_attack_5_losses_do_not_weaken_the_attacker():
    """HOTH-ATTACK-5, HOTH-FORCE-4: a unit down to 1 figure rolls full dice."""
    scn = scenario(units=[((2, 2), "rebel", "echo_troopers", None, "A"), ((4, 2), "imperial", "snowtroopers", None, "T")])
    g = example(scn)
    units = dict(g.state.units)
    units["A"] = msgspec.structs.replace(units["A"], figures=1)
    g.state = msgspec.structs.replace(g.state, units=units)
    ready(g, "rebel", ["A"])
    items = g.do("rebel", C.Attack(unit="A", target="T"))
    assert ev(items, AttackRolled)[0].event.dice == 3


# -- HOTH-MOD-*: terrain protection and penalties ------------------------------------------------

@pytest.mark.parametrize("attacker,faction,terrain,target_unit,expected", [
    ("echo_troopers", "rebel", "rocks", None, 2),            # HOTH-TERRAIN-ROCKS-3: infantry -1
    ("snowspeeders", "rebel", "rocks", None, 2),             # HOTH-TERRAIN-ROCKS-3: vehicle -2
    ("rebel_artillery", "rebel", "rocks", None, 3),          # HOTH-UNIT-ARTY-4: special column -1
    ("echo_troopers", "rebel", "buildings", None, 2),        # HOTH-TERRAIN-BUILDING-3: infantry -1
    ("snowspeeders", "rebel", "buildings", None, 2),         # HOTH-TERRAIN-BUILDING-3: vehicle -2
    ("snowspeeders", "rebel", "ridge", None, 3),             # HOTH-TERRAIN-RIDGE-3: vehicles -1, not -2
    ("probe_droids", "imperial", "ridge", None, 1),          # HOTH-TERRAIN-RIDGE-3, HOTH-UNIT-PROBE-3
    ("snowspeeders", "rebel", "trench", None, 3),            # HOTH-TERRAIN-TRENCH-2: infantry target -1
    ("snowtroopers", "imperial", "trench", "snowspeeders", 3),  # HOTH-TERRAIN-TRENCH-2: no trench for vehicles
    ("snowtroopers", "imperial", "trench", "rebel_artillery", 3),  # ... nor for special units
    ("snowtroopers", "imperial", "crevasse", "snowspeeders", 3),  # HOTH-TERRAIN-CREVASSE-3: no protection
    ("snowspeeders", "rebel", "rocks", "at_at", 4),          # HOTH-MOD-4, HOTH-UNIT-ATAT-6: AT-AT never protected
    ("echo_troopers", "rebel", "ridge", "at_at", 3),         # HOTH-MOD-4 on a ridge too
])
def test_mod_2_protection_of_the_target_hex(attacker, faction, terrain, target_unit, expected):
    """HOTH-MOD-1, HOTH-MOD-2, HOTH-MOD-4 at distance 1 (target on the terrain)."""
    assert dice_for(attacker, faction, 1, terrain={(4, 2): terrain}, target_unit=target_unit) == expected


def test_mod_2_ridge_to_ridge_gives_no_protection():
    """HOTH-TERRAIN-RIDGE-3: no -1 when the attacker is also on a ridge; HOTH-TERRAIN-RIDGE-2: no penalty."""
    assert dice_for("echo_troopers", "rebel", 1, terrain={(4, 2): "ridge", (2, 2): "ridge"}) == 3
    assert dice_for("echo_troopers", "rebel", 1, terrain={(2, 2): "ridge"}) == 3


def test_mod_3_vehicle_attacking_from_buildings_and_mod_7_floor():
    """HOTH-MOD-3, HOTH-TERRAIN-BUILDING-2, HOTH-MOD-4 (AT-AT penalties still apply), HOTH-MOD-7, HOTH-GAP-10."""
    assert dice_for("snowspeeders", "rebel", 1, terrain={(2, 2): "buildings"}) == 2          # 4 - 2
    assert dice_for("at_at", "imperial", 2, terrain={(2, 2): "buildings"}) == 1              # 3 - 2
    assert dice_for("echo_troopers", "rebel", 1, terrain={(2, 2): "buildings"}) == 3         # infantry: no penalty
    assert dice_for("echo_troopers", "rebel", 1, terrain={(2, 2): "rocks"}) == 3             # rocks: no penalty
    # 4 - 2 (from buildings) - 2 (target on rocks) = 0: not allowed (HOTH-MOD-7)
    assert dice_for("snowspeeders", "rebel", 1, terrain={(2, 2): "buildings", (4, 2): "rocks"}) == "HOTH-MOD-7"
    # 2 (d=2) - 2 (from buildings) = 0
    assert dice_for("snowspeeders", "rebel", 2, terrain={(2, 2): "buildings"}) == "HOTH-MOD-7"
    # infantry at d=3 on a ridge: 1 - 1 = 0
    assert dice_for("echo_troopers", "rebel", 3, terrain={(8, 2): "ridge"}) == "HOTH-MOD-7"


def test_mod_7_zero_dice_attacks_are_not_listed_as_legal():
    """HOTH-ATTACK-7 (e), HOTH-MOD-7: legal_commands never offers an attack with 0 dice."""
    scn = scenario(units=[((2, 2), "rebel", "snowspeeders", None, "A"), ((4, 2), "imperial", "snowtroopers", None, "T"),
                          ((0, 6), "imperial", "snowtroopers", None, "F")],
                   terrain={(2, 2): "buildings", (4, 2): "rocks"})
    g = example(scn)
    ready(g, "rebel", ["A"])
    # no attack is possible: the Attack step closes and the turn passes
    assert g.rs.status(g.state).turn_seat == "imperial"


def test_scouts_bonus_not_for_the_scouts_own_attack_and_never_stacks():
    """HOTH-SPECIAL-SCOUT-1 ("every other friendly unit"), HOTH-SPECIAL-SCOUT-2, HOTH-GAP-19."""
    scn = scenario(units=[((8, 4), "imperial", "snowtroopers", "scouts", "S1"),
                          ((12, 4), "imperial", "snowtroopers", "scouts", "S2"),
                          ((8, 2), "imperial", "snowtroopers", None, "T"), ((10, 2), "rebel", "echo_troopers", None, "E"),
                          ((0, 0), "rebel", "echo_troopers", None, "F")],
                   terrain={(8, 4): "ridge", (12, 4): "ridge"}, first="imperial")
    g = example(scn)
    ready(g, "imperial", ["T", "S1"])
    # S1 attacks E at distance 2 from its ridge: 2 dice, S2 on a ridge sees E -> +1 from S2 (another Scouts unit)
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    assert ev(items, AttackRolled)[0].event.dice == 4  # 3 + 1, two Scouts do not give +2


def test_scouts_need_a_ridge():
    """HOTH-SPECIAL-SCOUT-1: a Scouts unit off a ridge gives nothing."""
    scn = scenario(units=[((8, 4), "imperial", "snowtroopers", "scouts", "S1"),
                          ((8, 2), "imperial", "snowtroopers", None, "T"), ((10, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn)
    ready(g, "imperial", ["T"])
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    assert ev(items, AttackRolled)[0].event.dice == 3 and "HOTH-SPECIAL-SCOUT-1" not in rule_ids(items)


# -- HOTH-HIT-*: hits by symbol -------------------------------------------------------------------

@pytest.mark.parametrize("target_unit,target_faction,hits", [
    ("snowtroopers", "imperial", 2),   # infantry + explosion (HOTH-UNIT-SNOW-3)
    ("probe_droids", "imperial", 1),   # explosion only (HOTH-UNIT-PROBE-4)
    ("at_at", "imperial", 2),          # vehicle + explosion (then confirmation, HOTH-HIT-5)
])
def test_hit_2_hits_by_symbol(target_unit, target_faction, hits):
    """HOTH-HIT-2, HOTH-HIT-6, HOTH-DICE-2: infantry/vehicle hit their type, explosion hits all, X misses."""
    scn = scenario(units=[((2, 2), "rebel", "snowspeeders", None, "A"), ((4, 2), target_faction, target_unit, None, "T"),
                          ((0, 6), "imperial", "snowtroopers", None, "F")])
    g = example(scn, faces=["infantry", "vehicle", "explosion", "miss"])
    ready(g, "rebel", ["A"])
    items = g.do("rebel", C.Attack(unit="A", target="T"))
    res = ev(items, AttackResolved)[0]
    assert res.event.hits == hits
    assert "HOTH-HIT-2" in res.ruling.rules()


def test_hit_2_rebel_specials_hit_only_by_explosions_and_hit_4_overkill():
    """HOTH-UNIT-ARTY-5 (explosion only), HOTH-HIT-4 (hits beyond the figures are wasted), HOTH-UNIT-ARTY-6."""
    scn = scenario(units=[((2, 2), "imperial", "snowtroopers", None, "A"), ((4, 2), "rebel", "rebel_artillery", None, "R"),
                          ((0, 0), "rebel", "echo_troopers", None, "F")], first="imperial")
    g = example(scn, faces=["explosion", "explosion", "infantry"])
    ready(g, "imperial", ["A"])
    items = g.do("imperial", C.Attack(unit="A", target="R"))
    res = ev(items, AttackResolved)[0]
    assert res.event.hits == 2 and res.event.losses == 1 and res.event.eliminated
    assert "HOTH-HIT-4" in res.ruling.rules()
    assert g.state.medals.get("imperial", 0) == 0  # HOTH-UNIT-ARTY-6


def test_hit_5_confirmation_rerolls_exactly_the_hitting_dice():
    """HOTH-HIT-5, HOTH-UNIT-ATAT-4: 3 hits (vehicle, explosion, explosion) -> 3 confirmation dice, indices after the roll."""
    scn = scenario(units=[((2, 2), "rebel", "echo_troopers", None, "A"), ((4, 2), "imperial", "at_at", None, "T")])
    g = example(scn, faces=["vehicle", "explosion", "explosion", "miss", "miss", "miss"])
    ready(g, "rebel", ["A"])
    items = g.do("rebel", C.Attack(unit="A", target="T"))
    res = ev(items, AttackResolved)[0]
    assert res.event.hits == 3 and len(res.event.confirmation) == 3
    assert res.event.losses == 0 and g.state.units["T"].figures == 1
    assert [r.index for r in res.rolls] == [3, 4, 5]
    assert "HOTH-HIT-5" in res.ruling.rules()


def test_hit_5_no_confirmation_roll_when_nothing_hit():
    """HOTH-HIT-5: only dice that scored hits are re-rolled; infantry symbols do not hit an AT-AT."""
    scn = scenario(units=[((2, 2), "rebel", "echo_troopers", None, "A"), ((4, 2), "imperial", "at_at", None, "T")])
    g = example(scn, faces=["infantry", "infantry", "miss"])
    ready(g, "rebel", ["A"])
    items = g.do("rebel", C.Attack(unit="A", target="T"))
    res = ev(items, AttackResolved)[0]
    assert res.event.hits == 0 and res.event.confirmation == () and not res.rolls


# -- HOTH-RETREAT-*: direction, choice, terrain, blocking -----------------------------------------

def test_retreat_2_imperial_retreats_north_through_rocks_without_stopping():
    """HOTH-RETREAT-1/2/3, HOTH-RETREAT-4, HOTH-TERRAIN-ROCKS-5, HOTH-COORD-9 (Imperial baseline row 6)."""
    scn = scenario(units=[((6, 2), "rebel", "echo_troopers", None, "A"), ((7, 3), "imperial", "snowtroopers", None, "T")],
                   terrain={(6, 4): "rocks", (8, 4): "buildings"})
    g = example(scn, faces=["retreat", "retreat", "miss"])
    ready(g, "rebel", ["A"])
    g.do("rebel", C.Attack(unit="A", target="T"))
    assert g.state.pending.kind == "retreat" and g.rs.status(g.state).to_act == ("imperial",)
    opts = g.rs.legal_commands(g.state, "imperial")
    assert opts == [C.Retreat(path=((6, 4), (5, 5))), C.Retreat(path=((6, 4), (7, 5))),
                    C.Retreat(path=((8, 4), (7, 5))), C.Retreat(path=((8, 4), (9, 5)))]
    assert g.rs.legal_commands(g.state, "rebel") == []
    # sideways is never a retreat step
    assert refusal(g, "imperial", C.Retreat(path=((9, 3), (9, 5)))) == "HOTH-RETREAT-7"
    items = g.do("imperial", C.Retreat(path=((6, 4), (5, 5))))
    r = ev(items, UnitRetreated)[0]
    assert r.event.losses == 0 and g.state.units["T"].hex == (5, 5)
    assert {"HOTH-RETREAT-1", "HOTH-RETREAT-2"} <= set(r.ruling.rules())


def test_retreat_4_impassable_terrain_blocks_retreat():
    """HOTH-RETREAT-4, HOTH-TERRAIN-SERAC-1, HOTH-TERRAIN-CREVASSE-1, HOTH-STRUCT-2, HOTH-RETREAT-6."""
    from domain.hoth.scenario import Structure
    scn = scenario(units=[((6, 2), "rebel", "echo_troopers", None, "A"), ((7, 3), "imperial", "snowtroopers", None, "T")],
                   terrain={(6, 4): "serac", (8, 4): "crevasse"})
    g = example(scn, faces=["retreat", "miss", "miss"])
    ready(g, "rebel", ["A"])
    items = g.do("rebel", C.Attack(unit="A", target="T"))
    r = ev(items, UnitRetreated)[0]
    assert r.event.path == () and r.event.losses == 1 and g.state.units["T"].figures == 3
    assert "HOTH-RETREAT-6" in r.ruling.rules()

    scn2 = scenario(units=[((6, 2), "rebel", "echo_troopers", None, "A"), ((7, 3), "imperial", "snowtroopers", None, "T")],
                    terrain={(6, 4): "serac"}, structures=[Structure(id="SG", kind="shield_generator", hex=(8, 4))])
    g2 = example(scn2, faces=["retreat", "miss", "miss"])
    ready(g2, "rebel", ["A"])
    items = g2.do("rebel", C.Attack(unit="A", target="T"))
    assert ev(items, UnitRetreated)[0].event.losses == 1


def test_retreat_4_flying_snowspeeders_retreat_over_a_crevasse():
    """HOTH-TERRAIN-CREVASSE-1 ("during retreats too"), HOTH-UNIT-SPEEDER-4."""
    scn = scenario(units=[((7, 3), "imperial", "snowtroopers", None, "A"), ((8, 2), "rebel", "snowspeeders", None, "S")],
                   terrain={(7, 1): "crevasse", (9, 1): "serac"}, first="imperial")
    g = example(scn, faces=["retreat", "miss", "miss"])
    ready(g, "imperial", ["A"])
    items = g.do("imperial", C.Attack(unit="A", target="S"))
    r = ev(items, UnitRetreated)[0]
    assert r.event.path == ((7, 1),) and r.event.losses == 0


def test_retreat_8_trench_ignore_only_for_infantry_and_atat_artillery_ignore_all():
    """HOTH-RETREAT-8, HOTH-TERRAIN-TRENCH-3: a snowspeeder in a trench gets no choice and retreats."""
    scn = scenario(units=[((7, 3), "imperial", "snowtroopers", None, "A"), ((8, 2), "rebel", "snowspeeders", None, "S")],
                   terrain={(8, 2): "trench", (9, 1): "serac"}, first="imperial")
    g = example(scn, faces=["retreat", "miss", "miss"])
    ready(g, "imperial", ["A"])
    items = g.do("imperial", C.Attack(unit="A", target="S"))
    assert ev(items, AttackRolled)[0].event.dice == 3  # no trench protection for a vehicle
    assert not ev(items, RetreatIgnored)
    assert ev(items, UnitRetreated)[0].event.path == ((7, 1),)


def test_retreat_1_no_retreat_for_an_eliminated_target_and_hits_first():
    """HOTH-HIT-1, HOTH-RETREAT-1 ("if it survives"), HOTH-ELIM-1/2."""
    scn = scenario(units=[((2, 2), "imperial", "snowtroopers", None, "A"), ((4, 2), "rebel", "echo_troopers", None, "E"),
                          ((0, 0), "rebel", "echo_troopers", None, "F")], first="imperial")
    g = example(scn, faces=["infantry", "explosion", "infantry"])
    ready(g, "imperial", ["A"])
    items = g.do("imperial", C.Attack(unit="A", target="E"))
    assert "E" not in g.state.units and not ev(items, UnitRetreated)
    assert g.state.medals["imperial"] == 1


# -- HOTH-WIN-5: victory at once, nothing else resolved --------------------------------------------

def test_win_5_game_ends_mid_turn_and_refuses_everything_after():
    """HOTH-WIN-1, HOTH-WIN-5, HOTH-ELIM-5: the winning medal ends the game before the draw; no command after."""
    from domain.hoth.scenario import SideSetup
    scn = scenario(units=[((2, 2), "imperial", "snowtroopers", None, "A"), ((4, 2), "rebel", "echo_troopers", None, "E"),
                          ((10, 2), "imperial", "snowtroopers", None, "B"), ((12, 2), "rebel", "echo_troopers", None, "F")],
                   first="imperial", imperial=SideSetup(hand_size=4, victory_medals=1))
    g = example(scn, faces=["infantry", "infantry", "infantry"])
    ready(g, "imperial", ["A", "B"])
    hand = g.state.hands["imperial"]
    items = g.do("imperial", C.Attack(unit="A", target="E"))
    won = ev(items, GameWon)
    assert won and won[0].event.winner == "imperial" and "HOTH-WIN-5" in won[0].ruling.rules()
    assert g.rs.status(g.state).status == "finished" and g.rs.status(g.state).to_act == ()
    assert g.state.hands["imperial"] == hand  # no draw
    assert g.rs.legal_commands(g.state, "imperial") == []
    assert refusal(g, "imperial", C.Attack(unit="B", target="F")) == "HOTH-WIN-5"


# -- rulings: every ruling names rule ids and carries the numbers ----------------------------------

def test_every_event_of_random_games_explains_itself():
    """Review brief item 3: each move/attack/retreat/card event carries a Ruling naming rule ids, and the
    attack ruling carries base dice, final dice, roll indices and faces; retreats and moves carry their path."""
    import re

    from domain.hoth.decider import HothRuleset
    from domain.hoth.events import AttackFinished, CardPlayed, UnitMoved

    from .fixtures import FixtureCatalog
    from .play import random_game

    rid = re.compile(r"^HOTH-([A-Z]+(-[A-Z]+)?-[0-9]+|CHOICE(-[A-Z]+)+)$")  # a rule, or a rule choice (DESIGN 14)
    rs = HothRuleset(FixtureCatalog())
    seen = set()
    for seed in range(3):
        g = random_game(rs, "SCN-TAKE-DOWN-THE-SHIELD", seed)
        for em in g.emitted:
            kind = type(em.event)
            if kind is AttackFinished:
                continue
            assert em.ruling is not None and em.ruling.steps, kind.__name__
            assert all(rid.match(r) for r in em.ruling.rules()), em.ruling.rules()
            values = {k: v for s in em.ruling.steps for k, v in s.values.items()}
            if kind is AttackRolled and em.event.dice > 0:
                assert {"base_dice", "distance", "roll_indices", "faces"} <= set(values)
                assert len(values["faces"]) == em.event.dice == len(em.rolls)
                assert [r.index for r in em.rolls] == values["roll_indices"]
            if kind is UnitRetreated:
                assert "path" in values and "from_hex" in values
            if kind is UnitMoved:
                assert values["steps"] == len(em.event.path)
            if kind is CardPlayed:
                assert "HOTH-CARD-1" in em.ruling.rules()
            seen.add(kind)
    assert {AttackRolled, UnitMoved, CardPlayed} <= seen


def test_probe_droids_retreat_normally_and_are_only_hit_by_explosions():
    """HOTH-UNIT-PROBE-4: hit only by explosions, retreats normally (towards the Imperial baseline)."""
    scn = scenario(units=[((6, 2), "rebel", "snowspeeders", None, "S"), ((7, 3), "imperial", "probe_droids", None, "P"),
                          ((0, 6), "imperial", "snowtroopers", None, "F")], terrain={(6, 4): "serac"})
    g = example(scn, faces=["retreat", "infantry", "vehicle", "miss"])
    ready(g, "rebel", ["S"])
    items = g.do("rebel", C.Attack(unit="S", target="P"))
    assert ev(items, AttackResolved)[0].event.hits == 0
    r = ev(items, UnitRetreated)[0]
    assert r.event.path == ((8, 4),) and g.state.units["P"].figures == 2


def test_atat_moves_1_then_attacks():
    """HOTH-UNIT-ATAT-2: it may attack after moving."""
    scn = scenario(units=[((2, 2), "imperial", "at_at", None, "A"), ((8, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn)
    ready(g, "imperial", ["A"], moves=[("A", ((4, 2),))])
    items = g.do("imperial", C.Attack(unit="A", target="E"))
    assert ev(items, AttackRolled)[0].event.dice == 3


def test_elite_troops_still_stop_in_rocks_and_cannot_attack():
    """HOTH-SPECIAL-ELITE-2, HOTH-MOVE-11."""
    scn = scenario(units=[((2, 2), "rebel", "echo_troopers", "elite_troops", "X"), ((10, 0), "rebel", "echo_troopers", None, "B"),
                          ((8, 2), "imperial", "snowtroopers", None, "T"), ((2, 6), "imperial", "snowtroopers", None, "U")],
                   terrain={(4, 2): "rocks"})
    g = example(scn)
    ready(g, "rebel", ["X", "B"], moves=[("X", ((4, 2),))])
    assert refusal(g, "rebel", C.Attack(unit="X", target="T")) == "HOTH-SPECIAL-ELITE-2"
    assert not any(isinstance(c, C.Attack) and c.unit == "X" for c in g.rs.legal_commands(g.state, "rebel"))


def test_los_8_sight_is_judged_after_earlier_retreats():
    """HOTH-LOS-8, HOTH-GAP-40: a unit that retreated out of the line no longer blocks the next attack."""
    scn = scenario(units=[((2, 2), "rebel", "echo_troopers", None, "A"), ((3, 1), "rebel", "echo_troopers", None, "C"),
                          ((4, 2), "imperial", "snowtroopers", None, "X"), ((6, 2), "imperial", "snowtroopers", None, "T")])
    g = example(scn, faces=["retreat", "miss", "miss"])
    ready(g, "rebel", ["A", "C"])
    assert refusal(g, "rebel", C.Attack(unit="A", target="T")) == "HOTH-LOS-1"
    g.do("rebel", C.Attack(unit="C", target="X"))
    if g.state.pending is not None:
        g.do("imperial", g.rs.legal_commands(g.state, "imperial")[0])
    assert g.state.units["X"].hex[1] == 3
    assert C.Attack(unit="A", target="T") in g.rs.legal_commands(g.state, "rebel")


def test_scouts_sight_uses_the_ridge_to_ridge_rule():
    """HOTH-SPECIAL-SCOUT-2 (the Scouts' sight is judged by the normal rules, ridge rule included),
    HOTH-LOS-RIDGE-1: rocks between two ridge hexes do not block the Scouts; HOTH-TERRAIN-RIDGE-3 still applies."""
    scn = scenario(units=[((8, 4), "imperial", "snowtroopers", "scouts", "S"), ((12, 2), "imperial", "snowtroopers", None, "T"),
                          ((12, 4), "rebel", "echo_troopers", None, "E"), ((0, 0), "rebel", "echo_troopers", None, "F")],
                   terrain={(8, 4): "ridge", (12, 4): "ridge", (10, 4): "rocks"}, first="imperial")
    g = example(scn)
    ready(g, "imperial", ["T"])
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    assert ev(items, AttackRolled)[0].event.dice == 2   # 2 (d=2) - 1 (ridge) + 1 (Scouts)
    assert {"HOTH-TERRAIN-RIDGE-3", "HOTH-SPECIAL-SCOUT-1"} <= rule_ids(items)
