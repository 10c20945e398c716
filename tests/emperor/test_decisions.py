"""Table-driven tests of every SOLO rule that has a decision in it: the situations that tell its
branches apart, each row naming the rule ids it exercises (movement direction, compass ties, card
choice, targets, switching, push, stars, fallback, crest, location bonuses, defense, the turn)."""
from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.emperor.automaton import turn
from domain.emperor.cards import choose_card, compass_scan
from domain.emperor.commands import Activate, Attack, EndTurn
from domain.emperor.content import Ability, Direction, OrderCard, Requirement
from domain.emperor.events import (
    AttackResolved, CardActivated, Defended, DefenseRequested, EmperorMoved, FallbackUsed,
    LocationsFlipped, OrderCardRevealed, OrderDeckShuffled, Pushed, Refreshed, StarChosen, StepStarted,
    TargetChosen,
)
from domain.emperor.field import Field
from domain.emperor.grid import compass_pick
from domain.emperor.movement import emperor_reach
from domain.emperor.push import best_hazard_plan
from domain.emperor.state import EMPEROR, TurnInfo, Work
from domain.emperor.targeting import SYM_ALL, SYM_FARTHEST, SYM_NEAREST, pick
from domain.kernel import AUTOMATON

from .fixtures import (
    VESPER_VS_WARDEN, ability, all_of, card_ability, emperor_game, game, move, one, rules, run, star_ability,
)

ROW = ("V1", "V2", "V3", "V4", "V5")


def _crest(g, side: str, crest: str):
    c = dict(g.state.crest)
    c[side] = crest
    return g.set(crest=c)


# -- SOLO-MOVE: the movement decision list -----------------------------------------------------------

MOVE_CASES = [
    # id, order card, cells, applied crest, movement (None: base), expected step, destination, rules
    ("step-1", "O1", dict(vesper="C5", warden="C1", hound="B1"), "", None, 1, "C4", {"SOLO-MOVE-7"}),
    ("step-2", "O1", dict(vesper="E3", warden="C1", hound="B1"), "", None, 2, "D3", {"SOLO-MOVE-6"}),
    ("step-3", "O2", dict(vesper="D3", warden="C1", hound="B1"), "", None, 3, "B3", {"SOLO-TIE-2"}),
    ("step-4 single nearest (8c)", "O3", dict(vesper="A5", warden="A1", hound="A3"), "", None, 4, "A4",
     {"SOLO-MOVE-8"}),
    ("step-4 preferred among nearest (8d)", "O1", dict(vesper="C1", warden="A4", hound="E5"), "MOON", 1, 4, "C2",
     {"SOLO-MOVE-8", "SOLO-MOVE-6"}),
    ("step-4 compass among nearest (8e)", "O1", dict(vesper="E5", warden="C1", hound="B1"), "", None, 4, "E3",
     {"SOLO-MOVE-8", "SOLO-TIE-2"}),
    ("applied MOON crest selects the override", "O1", dict(vesper="C5", warden="C1", hound="B1"), "MOON", None, 4,
     "C3", {"BASE-SOLO-1"}),
]


@pytest.mark.parametrize("case", MOVE_CASES, ids=[c[0] for c in MOVE_CASES])
def test_movement_decision_list(case):
    """SOLO-MOVE-4..9: each step of the decision list, and the crest-conditioned requirement."""
    _id, order, cells, crest, value, step, dest, rule_ids = case
    g = emperor_game(order, **cells)
    if crest:
        _crest(g, EMPEROR, crest)
    items = move(g, "vesper", value)
    e = one(items, EmperorMoved)
    assert (e.step, e.to) == (step, dest), e
    assert rule_ids <= rules(items)


def test_movement_no_possible_direction_stays():
    """SOLO-MOVE-8f (INFERRED): no possible direction at all -> the warrior stays."""
    g = emperor_game("O1", vesper="C5", warden="C1", hound="B1")
    far = Direction(requirement=Requirement(kind="DIST_ENEMY_HERO", distance=9))
    g.set(solo=replace(g.state.solo, direction=far))
    e = one(move(g, "vesper"), EmperorMoved)
    assert e.possible == () and e.step == 0 and e.to == "C5" and e.path == ()


@pytest.mark.parametrize("cells,mover,expected", [
    # allies may be crossed (the Hound through the Warden), enemies may not; the start cell always counts
    (dict(warden="C5", hound="C4", vesper="A1"), "hound", {"C4", "C3", "B5", "D5", "B3", "D3", "C2", "A5", "E5",
                                                            "A3", "E3", "C1"}),
    (dict(warden="C5", hound="D5", vesper="C4"), "warden", {"C5", "B5", "A5", "E5"}),
], ids=["ally crossed", "enemy blocks"])
def test_reachable_cells(cells, mover, expected):
    """SOLO-MOVE-5 (BASE-MOVE-1): free cells within movement, crossing allies but not enemies or
    locations, hazards ignored; the start cell counts."""
    g = game(VESPER_VS_WARDEN).emperor_turn_state().order("O1").place(**cells)
    w = g.state.warriors[mover]
    r = emperor_reach(Field(g.state), w, w.movement)
    assert set(r) == expected


def test_helper_moves_with_its_own_line_or_the_heros():
    """SOLO-MOVE-11: the helper uses its own requirement from the solo card; with none, the hero's."""
    g = game(VESPER_VS_WARDEN).emperor_turn_state().order("O1").place(vesper="A1", warden="C5", hound="E5")
    own = Direction(requirement=Requirement(kind="DIST_ENEMY_HERO", distance=3))
    g1 = game(VESPER_VS_WARDEN).emperor_turn_state().order("O1").place(vesper="A1", warden="C5", hound="E5")
    g1.set(solo=replace(g1.state.solo, helper_direction=own))
    e_adj = one(move(g, "hound"), EmperorMoved)
    e_own = one(move(g1, "hound"), EmperorMoved)
    assert e_adj.requirement == "ADJ_ENEMY_HERO" and e_own.requirement == "DIST_ENEMY_HERO(3)"
    g2 = game(VESPER_VS_WARDEN).emperor_turn_state().order("O1").place(vesper="A1", warden="C5", hound="E5")
    g2.set(solo=replace(g2.state.solo, helper_direction=None, direction=own))
    assert one(move(g2, "hound"), EmperorMoved).requirement == "DIST_ENEMY_HERO(3)"


# -- SOLO-TIE: the compass ------------------------------------------------------------------------

@pytest.mark.parametrize("cells,arrow,expected,arrows", [
    ({"B3", "D3"}, "E", "D3", ["E"]),
    ({"B3", "D3"}, "W", "B3", ["W"]),
    ({"D3", "D5"}, "N", "D5", ["N"]),
    ({"D3", "D5"}, "E", "D3", ["E", "S"]),   # same column: turn clockwise to S
    ({"D3", "D5"}, "W", "D5", ["W", "N"]),
    ({"B2", "D2"}, "N", "D2", ["N", "E"]),   # same row: turn clockwise to E
    ({"B2", "D2"}, "S", "B2", ["S", "W"]),
    ({"A1", "E5", "C3"}, "S", "A1", ["S"]),
])
def test_compass(cells, arrow, expected, arrows):
    """SOLO-TIE-2: the most extreme candidate in the arrow's direction of the whole battlefield;
    SOLO-TIE-3 (PROPOSED): on a tie turn the arrow 90° clockwise and repeat."""
    assert compass_pick(cells, arrow) == (expected, arrows)


# -- SOLO-CARD: choosing an action card ------------------------------------------------------------

ROW = ("V1", "V2", "V3", "V4", "V5")


@pytest.mark.parametrize("prepared,arrow,card,scanned", [
    (ROW, "E", "V5", ("V5",)),
    (ROW, "S", "V5", ("V5",)),
    (ROW, "W", "V1", ("V1",)),
    (ROW, "N", "V1", ("V1",)),
    (("V1", "V2", "V3", "V4"), "E", "V4", ("V5", "V4")),
    (("V3", "V4"), "N", "V3", ("V1", "V2", "V3")),
    (("V2",), "S", "V2", ("V5", "V4", "V3", "V2")),
    ((), "E", None, ("V5", "V4", "V3", "V2", "V1")),
])
def test_card_choice_scans_from_the_compass_end(prepared, arrow, card, scanned):
    """SOLO-CARD-1 (PROPOSED): scan from the right for E/S, from the left for W/N; first prepared card."""
    assert compass_scan(ROW, frozenset(prepared), arrow) == (card, scanned)
    g = emperor_game("O1").exhaust(EMPEROR, *[c for c in ROW if c not in prepared])
    assert choose_card(g.state, arrow) == (card, scanned)


# -- SOLO-TGT: targets -----------------------------------------------------------------------------

@pytest.mark.parametrize("rule,cells,order,expected,tie", [
    (SYM_NEAREST, dict(vesper="C4", warden="C1", hound="E1"), "O1", ["warden"], False),
    (SYM_NEAREST, dict(vesper="C3", warden="B3", hound="D3"), "O1", ["hound"], True),
    (SYM_NEAREST, dict(vesper="C3", warden="B3", hound="D3"), "O2", ["warden"], True),
    (SYM_FARTHEST, dict(vesper="C4", warden="C1", hound="E1"), "O1", ["hound"], False),
    (SYM_ALL, dict(vesper="C2", warden="A1", hound="C1"), "O1", ["warden", "hound"], False),
], ids=["nearest", "nearest tie E", "nearest tie W", "farthest", "all: your hero first"])
def test_targets(rule, cells, order, expected, tie):
    """SOLO-TGT-1..4 at any distance; ties by the compass (SOLO-FAQ-1); SYM_ALL starts with your hero."""
    g = emperor_game(order, **cells)
    enemies = g.state.enemies(EMPEROR)
    targets, _, was_tie = pick(Field(g.state), cells["vesper"], enemies, rule, g.state.current_order().compass)
    assert targets == expected and was_tie == tie


# -- SOLO-SWITCH -----------------------------------------------------------------------------------

SWITCH_CASES = [
    # id, cells, flipped, the ability, expected target, switched from, rule
    ("attack cannot hurt the helper", dict(vesper="E2", warden="C2", hound="A1"), ("L2",), ("star", "Spark"),
     "warden", "hound", "SOLO-SWITCH-1"),
    ("attack beats the helper: kept", dict(vesper="E2", warden="C2", hound="A1"), (), ("card", "V1"),
     "hound", "", "SOLO-SWITCH-3"),
    ("your hero is never switched from", dict(vesper="C4", warden="C3", hound="E1"), (),
     ("inline", Ability(kind="ATTACK", value=1, range="MELEE")), "warden", "", "SOLO-SWITCH-3"),
    ("push target reaches no hazard", dict(vesper="D5", warden="C2", hound="E1"), (), ("card", "V2"),
     "warden", "hound", "SOLO-SWITCH-2"),
    ("push target reaches a hazard: kept though another would suffer more",
     dict(vesper="E3", warden="C2", hound="A4"), (), ("card", "V2"), "hound", "", "SOLO-SWITCH-3"),
]


@pytest.mark.parametrize("case", SWITCH_CASES, ids=[c[0] for c in SWITCH_CASES])
def test_switching(case):
    """SOLO-SWITCH-1..3: the only two reasons to change a target."""
    _id, cells, flipped, (kind, name), target, frm, rule = case
    g = emperor_game("O1", **cells)
    if flipped:
        g.flip(*flipped)
    a = star_ability(g, name) if kind == "star" else name if kind == "inline" else card_ability(g, name)
    items = ability(g, a, str(kind))
    t = one(items, TargetChosen)
    assert t.targets == (target,) and t.switched_from == frm
    assert rule in rules(items)


def test_switch_3_the_kept_push_target_would_suffer_less():
    """SOLO-SWITCH-3: the Hound (farthest) can reach a hazard (1 wound), the Warden could suffer 2; the
    Hound is kept."""
    g = emperor_game("O1", vesper="E3", warden="C2", hound="A4")
    f = Field(g.state)
    assert best_hazard_plan(f, "hound", 2, "E").wounds < best_hazard_plan(f, "warden", 2, "E").wounds
    items = ability(g, card_ability(g, "V2"), "V2")
    assert one(items, Pushed).target == "hound"


def test_switch_4_all_targets_never_switch():
    """SOLO-SWITCH-4 (INFERRED): an AREA attack hits each enemy in turn, the helper too though it cannot be
    hurt; an AREA push pushes only the enemies that can reach a hazard."""
    g = emperor_game("O1", vesper="C5", warden="C1", hound="B1")
    items = ability(g, Ability(kind="ATTACK", value=1, range="AREA"), "test AREA")
    t = one(items, TargetChosen)
    assert t.targets == ("warden", "hound") and not t.switched_from and "SOLO-SWITCH-4" in rules(items)
    # AREA push (test content: not in the shipped model, GAP-A-30): the Warden on C2 reaches H1, the
    # Hound on E1 does not
    g = emperor_game("O1", vesper="C5", warden="C2", hound="E1")
    items = ability(g, Ability(kind="PUSH", value=1, range="AREA"), "test AREA push")
    assert one(items, TargetChosen).targets == ("warden",)
    assert [p.target for p in all_of(items, Pushed)] == ["warden"]


# -- SOLO-PUSH: the push plan ---------------------------------------------------------------------

PUSH_CASES = [
    # id, warden cell, value, flipped, arrow, path, wounds
    ("nearest hazard in 1", "C2", 1, (), "E", ("C3",), 1),
    ("between two hazards", "C2", 2, (), "E", ("C3", "C4"), 2),
    ("between two hazards, back again", "C2", 3, (), "E", ("C3", "C4", "C3"), 3),
    ("out and back, compass E", "C2", 3, ("L4",), "E", ("C3", "D3", "C3"), 2),
    ("out and back, compass W", "C2", 3, ("L4",), "W", ("C3", "B3", "C3"), 2),
    ("stop with push left (r = 1)", "C2", 2, ("L4",), "E", ("C3",), 1),
    ("on a hazard: leave and re-enter", "C3", 2, ("L4",), "E", ("D3", "C3"), 1),
    ("ties between hazards by the compass", "B3", 1, (), "W", ("A3",), 1),
    ("ties between hazards by the compass (E)", "B3", 1, (), "E", ("C3",), 1),
]


@pytest.mark.parametrize("case", PUSH_CASES, ids=[c[0] for c in PUSH_CASES])
def test_push_plan(case):
    """SOLO-PUSH-2 (nearest reachable active hazard, k >= 1, compass ties), SOLO-PUSH-3 (a: between
    two hazards; b: out and back), SOLO-PUSH-4 (stop when no further wound is possible)."""
    _id, cell, value, flipped, arrow, path, wounds = case
    g = emperor_game("O1", vesper="E5", warden=cell, hound="E1")
    if flipped:
        g.flip(*flipped, by=EMPEROR)
    plan = best_hazard_plan(Field(g.state), "warden", value, arrow)
    assert plan is not None and plan.path == path and plan.wounds == wounds


def test_push_plan_none_when_no_hazard_in_reach():
    g = emperor_game("O1", vesper="E5", warden="C1", hound="E1")
    assert best_hazard_plan(Field(g.state), "hound", 3, "E") is None
    assert best_hazard_plan(Field(g.state), "warden", 1, "E") is None
    assert best_hazard_plan(Field(g.state), "warden", 2, "E").path == ("C2", "C3")


def test_push_stops_when_the_target_dies():
    """SOLO-PUSH-4: the push stops as soon as the target dies (the Warden with 1 health left)."""
    g = emperor_game("O1", vesper="D5", warden="C2", hound="E1")
    ws = dict(g.state.warriors)
    ws["warden"] = replace(ws["warden"], wounds=7)
    g.set(warriors=ws)
    items = ability(g, card_ability(g, "V2"), "V2 Gale")
    p = one(items, Pushed)
    assert p.path == ("C3",) and p.wounds == 1
    assert g.state.winner == EMPEROR and "SOLO-PUSH-4" in rules(items)


# -- SOLO-STAR: star priority -----------------------------------------------------------------------

STAR_CASES = [
    # id, cells, flipped, used stars, used location abilities, order, expected choice (or "" for fallback)
    ("1: a location ability", dict(vesper="C4", warden="C2", hound="E1"), (), (), (), "O1", "L4"),
    ("1: equivalent locations by the compass (W)", dict(vesper="C4", warden="C2", hound="E1"), (), (), (), "O2",
     "L3"),
    ("1: a location used this turn is skipped", dict(vesper="C4", warden="C2", hound="E1"), (), (), ("L4",), "O1",
     "L3"),
    ("1: a location ability without effect is skipped (GAP-A-28)", dict(vesper="C4", warden="C3", hound="E1"), (),
     (), (), "O1", "L3"),
    ("2: Jolt pushes into a hazard", dict(vesper="E5", warden="C2", hound="E1"), (), (), (), "O1", "Jolt"),
    ("3: Jolt cannot apply -> Spark", dict(vesper="E5", warden="A1", hound="E1"), (), (), (), "O1", "Spark"),
    ("4: Jolt and Spark used -> Drift", dict(vesper="E5", warden="A1", hound="E1"), (), ("Jolt", "Spark"), (),
     "O1", "Drift"),
    ("nothing applies -> fallback", dict(vesper="E5", warden="A1", hound="E1"), (),
     ("Jolt", "Spark", "Drift"), (), "O1", ""),
]


@pytest.mark.parametrize("case", STAR_CASES, ids=[c[0] for c in STAR_CASES])
def test_star_priority(case):
    """SOLO-STAR-2..6: walk Vesper's list (any location ability, Jolt, Spark, Drift) and take the first
    that can apply; once per turn each; equivalent location abilities by the compass; none -> fallback
    (SOLO-STAR-3)."""
    _id, cells, flipped, used, used_locs, order, expected = case
    g = emperor_game(order, **cells)
    g.set(turn=TurnInfo(side=EMPEROR, number=2, stars_used=used, location_abilities_used=used_locs))
    if flipped:
        g.flip(*flipped)
    items = ability(g, Ability(kind="STAR"), "V5 Ward")
    s = one(items, StarChosen)
    assert s.choice == expected
    if expected:
        assert expected in g.state.turn.stars_used + g.state.turn.location_abilities_used
    else:
        assert one(items, FallbackUsed).name == "Hex" and "SOLO-STAR-3" in rules(items)
    assert "SOLO-STAR-2" in rules(items)


def test_star_location_ability_flips_and_pushes():
    """SOLO-STAR-6, BASE-LOC-3, GAP-A-27: the location ability flips its card first (so its own PUSH
    symbol does not count and H2 goes off), then resolves: Gust pushes the Warden C2 -> C3 (1 wound)."""
    g = emperor_game("O1", vesper="C4", warden="C2", hound="E1")
    items = ability(g, Ability(kind="STAR"), "V5 Ward")
    assert one(items, StarChosen).choice == "L4"
    assert g.state.flipped.get("L4") == EMPEROR
    assert all_of(items, LocationsFlipped)[0].locations == ("L4",)
    p = one(items, Pushed)
    assert p.value == 1 and p.path == ("C3",) and p.wounds == 1


# -- SOLO-FALL: the fallback ------------------------------------------------------------------------

def test_fallback_triggers_and_once_per_turn():
    """SOLO-FALL-1a/b/c and SOLO-FALL-2: a star with no usable ability, a push that reaches no hazard, and a
    movement ability that ends where it began each trigger Hex (your hero: 1 wound, no defense) -- but
    only the first in a turn does anything."""
    g = emperor_game("O1", vesper="E5", warden="A1", hound="E1")
    g.set(turn=TurnInfo(side=EMPEROR, number=2, stars_used=("Jolt", "Spark", "Drift")))
    items = ability(g, Ability(kind="STAR"), "V5 Ward")  # 1a
    fb = one(items, FallbackUsed)
    assert fb.applied and fb.trigger == "SOLO-FALL-1a" and fb.wounds == 1
    assert g.state.warriors["warden"].wounds == 1 and g.state.turn.fallback_used
    items = ability(g, Ability(kind="PUSH", value=1, range="MELEE"), "push")  # 1b, second time this turn
    fb2 = one(items, FallbackUsed)
    assert fb2.trigger == "SOLO-FALL-1b" and not fb2.applied
    assert g.state.warriors["warden"].wounds == 1 and "SOLO-FALL-2" in rules(items)


@pytest.mark.parametrize("trigger,cells,ab", [
    ("SOLO-FALL-1b", dict(vesper="E5", warden="A1", hound="E1"), Ability(kind="PUSH", value=1, range="RANGED")),
    ("SOLO-FALL-1c", dict(vesper="D3", warden="C1", hound="B1"), Ability(kind="MARCH", value=1)),
])
def test_fallback_each_trigger(trigger, cells, ab):
    g = emperor_game("O1", **cells)
    items = ability(g, ab, "test")
    fb = one(items, FallbackUsed)
    assert fb.trigger == trigger and fb.applied and fb.name == "Hex"


def test_base_move_never_triggers_the_fallback():
    """SOLO-FALL-1c: the base move of SOLO-TURN-4 ending in its own cell is no trigger (T3, compass E)."""
    g = emperor_game("O1", vesper="D3", warden="C1", hound="B1")
    items = move(g, "vesper")
    assert one(items, EmperorMoved).to == "D3" and not all_of(items, FallbackUsed)


def test_second_wind_heals():
    """Warden's fallback Second Wind (BASE-SOLO-3): the Emperor's hero heals 1, never above its health."""
    g = game(VESPER_VS_WARDEN).emperor_turn_state().order("O1").place(warden="E5", vesper="A1")
    ws = dict(g.state.warriors)
    ws["warden"] = replace(ws["warden"], wounds=2)
    g.set(warriors=ws)
    items = ability(g, Ability(kind="MARCH", value=0), "nowhere")
    fb = one(items, FallbackUsed)
    assert fb.name == "Second Wind" and fb.healed == 1 and g.state.warriors["warden"].wounds == 1


# -- SOLO-CREST -----------------------------------------------------------------------------------

@pytest.mark.parametrize("order,crest,expected", [
    ("O1", "", 2),       # no crest applied: no boost
    ("O1", "SUN", 3),    # applied crest initiative SUN (BASE-CREST-1)
    ("O1", "MOON", 2),   # the wrong crest
    ("O3", "", 3),       # unique crest: every crest counts (SOLO-CREST-1)
])
def test_crest_boost_on_an_emperor_attack(order, crest, expected):
    """SOLO-CREST-1, BASE-CREST-1: Storm (ATTACK 2 AREA, +1 if SUN)."""
    g = emperor_game(order, vesper="C5", warden="C1", hound="B1")
    if crest:
        _crest(g, EMPEROR, crest)
    items = ability(g, card_ability(g, "V4"), "V4 Storm")
    assert one(items, DefenseRequested).pending.attack == expected


@pytest.mark.parametrize("crest,expected", [("MOON", 5), ("SUN", 4)])
def test_unique_crest_never_counts_for_defense(crest, expected):
    """SOLO-CREST-2, SOLO-DEF-2c/d: the Emperor's Warden defends with Bulwark (DEF 4, +1 if MOON) against
    your attack, O3 (a unique crest) revealed: only its real applied crest counts (+0 from the unique
    crest); O3's modifier -1 still applies."""
    g = game(VESPER_VS_WARDEN).place(vesper="C3", warden="C4", hound="E5").exhaust(EMPEROR, "W1", "W2", "W3", "W5")
    _crest(g, EMPEROR, crest).order(None, ("O3", "O1"))
    g.do(Activate(card="V1"))
    items = g.do(Attack(target="warden"))
    d = one(items, Defended)
    assert d.card == "W4" and d.parts["crest"] == expected - 4 and d.value == expected - 1
    assert g.state.current_order().unique_crest


# -- SOLO-LOCB: location bonuses ------------------------------------------------------------------

@pytest.mark.parametrize("cells,ab,flips,attack", [
    (dict(vesper="A4", warden="A5", hound="E1"), Ability(kind="ATTACK", value=1, range="MELEE"), ("L3",), 2),
    (dict(vesper="E2", warden="C2", hound="E1"), Ability(kind="ATTACK", value=1, range="RANGED"), ("L2",), 2),
    (dict(vesper="E2", warden="E1", hound="A1"), Ability(kind="ATTACK", value=3, range="MELEE"), (), 3),
    (dict(vesper="C5", warden="A5", hound="E1"), Ability(kind="ATTACK", value=1, range="AREA"), (), 1),
    (dict(vesper="A4", warden="A5", hound="E1"), Ability(kind="ATTACK", value=1, range="AREA"), ("L3",), 2),
], ids=["ATTACK symbol, melee", "RANGE symbol on a ranged attack", "RANGE symbol ignored for melee",
        "no location", "ATTACK symbol, area"])
def test_location_bonuses(cells, ab, flips, attack):
    """SOLO-LOCB-1 (always used, flipped), SOLO-LOCB-2 (RANGE: +1 attack per symbol, ranged only)."""
    g = emperor_game("O1", **cells)
    items = ability(g, ab, "test")
    flipped = [lo for e in all_of(items, LocationsFlipped) for lo in e.locations]
    assert tuple(flipped) == flips
    hits = all_of(items, AttackResolved) + [e.pending for e in all_of(items, DefenseRequested)]
    assert hits and all(h.attack == attack for h in hits)


# -- SOLO-DEF: the Emperor's defense ----------------------------------------------------------------

def _human_attacks(g, card: str, target: str):
    g.do(Activate(card=card))
    return g.do(Attack(target=target))


def test_defense_hero_with_a_card_and_a_negative_modifier():
    """SOLO-DEF-2b/e: only V1 (DEF 1) is prepared; O3 is revealed (compass N, modifier -1):
    1 + 0 + 0 - 1 = 0, so Shield Bash's 2 wounds twice."""
    g = game().place(warden="C3", vesper="C4", hound="E1").exhaust(EMPEROR, "V2", "V3", "V4", "V5")
    g.order(None, ("O3", "O1"))
    items = _human_attacks(g, "W1", "vesper")
    d = one(items, Defended)
    assert d.card == "V1" and d.value == 0 and d.parts["order_modifier"] == -1
    assert one(items, AttackResolved).wounds == 2


def test_defense_floor_is_zero():
    """SOLO-DEF-2f: a modifier of -3 on DEF 1 gives 0, never below."""
    g = game().place(warden="C3", vesper="C4", hound="E1").exhaust(EMPEROR, "V2", "V3", "V4", "V5")
    orders = dict(g.state.orders)
    orders["O3"] = replace(orders["O3"], defense_modifier=-3)
    g.set(orders=orders).order(None, ("O3",))
    d = one(_human_attacks(g, "W1", "vesper"), Defended)
    assert d.value == 0 and d.card == "V1" and d.parts["order_modifier"] == -3


def test_defense_helper_does_not_advance_the_deck():
    """SOLO-DEF-3: the Emperor's Hound defends with its fixed 2; no deck advance, no modifier."""
    g = game(VESPER_VS_WARDEN).place(vesper="E2", warden="A5", hound="E3").order(None, ("O4", "O1"))
    items = _human_attacks(g, "V1", "hound")
    assert not all_of(items, OrderCardRevealed)
    d = one(items, Defended)
    assert d.value == 2 and not d.card and "SOLO-DEF-3" in rules(items)
    assert g.state.order_deck == ("O4", "O1")


def test_defense_without_prepared_cards():
    """SOLO-DEF-4 (INFERRED): no prepared card: no advance, no card, no modifier; location DEFENSE still
    counts (L2 next to E2)."""
    g = game().place(warden="E1", vesper="E2", hound="A1").exhaust(EMPEROR, *ROW).order(None, ("O4",))
    items = _human_attacks(g, "W1", "vesper")
    assert not all_of(items, OrderCardRevealed)
    d = one(items, Defended)
    assert d.value == 1 and not d.card and "SOLO-DEF-4" in rules(items)
    assert one(items, AttackResolved).wounds == 1


def test_each_attack_on_the_hero_is_a_separate_defense():
    """SOLO-DEF-5 (INFERRED): Rally Cry (ATTACK 1 AREA) hits Vesper, then its star is spent on Cleave
    (ATTACK 1 MELEE) against Vesper again: two separate SOLO-DEF-2 sequences, two deck advances, two
    defense cards."""
    from domain.emperor.commands import Star

    g = game().place(warden="C3", vesper="C4", hound="E1").order(None, ("O1", "O2", "O4"))
    g.do(Activate(card="W5"))
    first = g.do(Attack(target=None))
    g.do(Star(choice="Cleave"))
    second = g.do(Attack(target="vesper"))
    assert [e.card for e in all_of(first + second, OrderCardRevealed)] == ["O1", "O2"]
    cards_used = [d.card for d in all_of(first + second, Defended)]
    assert len(cards_used) == 2 and cards_used[0] != cards_used[1]
    assert g.state.order_current == "O2" and "SOLO-DEF-5" in rules(first)


# -- SOLO-TURN / SOLO-ORD -----------------------------------------------------------------------------

def test_turn_steps_in_order_and_refresh_check_appended():
    """SOLO-TURN-2 (INFERRED): an order card without REFRESH_CHECK gets one after its last step; steps run
    in the card's order; SOLO-TURN-6: <= refresh value refreshes."""
    g = game().place(vesper="E5", warden="C1", hound="B1").exhaust(EMPEROR, "V1", "V2", "V3", "V4")
    orders = dict(g.state.orders)
    orders["OX"] = OrderCard(id="OX", steps=("ACTIVATE", "MOVE"), refresh_value=1, defense_modifier=0, compass="E")
    g.set(orders=orders).order(None, ("OX",))
    items = g.do(EndTurn())
    while g.state.pending is not None:
        from domain.emperor.commands import Defend

        items += g.do(Defend(card=None))
    steps = [e.step for e in all_of(items, StepStarted)]
    assert steps == ["ACTIVATE", "MOVE", "REFRESH_CHECK"]
    ref = one(items, Refreshed)
    assert ref.refreshed and ref.prepared == 0  # V5 was used: 0 prepared <= 1
    assert g.state.exhausted[EMPEROR] == ()


def test_move_step_without_prepared_cards_moves_only_the_helper():
    """SOLO-TURN-4 (and GAP-A-06): no prepared card -> the hero does not move; the helper still does."""
    g = game(VESPER_VS_WARDEN).emperor_turn_state().order("O1").place(vesper="A1", warden="C5", hound="E5")
    g.exhaust(EMPEROR, "W1", "W2", "W3", "W4", "W5")
    items = run(g, turn.run, [Work(kind="step", step="MOVE", index=0)])
    moved = [e.warrior for e in all_of(items, EmperorMoved)]
    assert moved == ["hound"] and "SOLO-TURN-4" in rules(items)


def test_activate_step_without_prepared_cards_does_nothing():
    g = emperor_game("O1").exhaust(EMPEROR, *ROW)
    items = run(g, turn.run, [Work(kind="step", step="ACTIVATE", index=1)])
    s = one(items, StepStarted)
    assert not s.performed and not all_of(items, CardActivated) and "SOLO-TURN-5" in rules(items)


def test_order_deck_reshuffles_when_empty():
    """SOLO-ORD-2 (INFERRED, GAP-A-22): an empty deck is formed again from the discard pile (and the
    card just discarded), shuffled on the automaton stream, its order hidden."""
    g = game().place(vesper="E5", warden="C1", hound="B1").order("O2", ()).set(order_discard=("O1", "O3"))
    items = g.do(EndTurn())
    sh = [e for e in items if isinstance(e.event, OrderDeckShuffled)]
    assert len(sh) == 1 and sh[0].event.reshuffle and sh[0].visibility == "umpire"
    assert sh[0].rolls and all(r.stream == AUTOMATON for r in sh[0].rolls)
    assert sorted(sh[0].event.deck) == ["O1", "O2", "O3"]
    assert one(items, OrderCardRevealed).card == sh[0].event.deck[0]

