"""Every worked test vector of the rules' section 7 (T1-T12), on the section 6 model, each citing the
rule ids it exercises. Bonus counts first (the table above the vectors)."""
from __future__ import annotations

import pytest

from domain.emperor.commands import Activate, Attack, Defend, EndTurn
from domain.emperor.events import (
    AttackResolved, CardActivated, CardResolved, Defended, DefenseRequested, EmperorMoved, LocationsFlipped,
    OrderCardRevealed, Pushed, Refreshed, TargetChosen,
)
from domain.emperor.field import Field
from domain.emperor.state import EMPEROR, HUMAN

from .fixtures import ability, all_of, card_ability, emperor_game, game, move, one, rules, star_ability


def test_bonus_counts_with_every_location_face_up():
    """Section 7 preamble: B(c) with all locations face up, no exceptions (SOLO-MOVE-6: doubles count 2)."""
    f = Field(game().state)
    expected = {"A2": 2, "C2": 4, "B1": 2, "B3": 3, "E2": 2, "D1": 2, "D3": 3, "A4": 1, "C4": 2, "B5": 1, "E4": 1,
                "D5": 1}
    for cell in f.grid.cells:
        if f.is_location(cell):
            continue
        assert f.bonus_count(cell) == expected.get(cell, 0), cell


def test_T1_single_reachable_possible_direction():
    """T1 -- SOLO-MOVE-1/4/5/7: P = {A2,B3,C4,D3,E2}, R = {A5,B5,C3,C4,C5,D5,E5}, PR = {C4} (step 1); the
    hazard H2 on C4 does not wound the Emperor's warrior in its turn."""
    g = emperor_game("O1", vesper="C5", warden="C1", hound="B1")
    items = move(g, "vesper")
    e = one(items, EmperorMoved)
    assert set(e.possible) == {"A2", "B3", "C4", "D3", "E2"}
    assert set(e.reachable) == {"A5", "B5", "C3", "C4", "C5", "D5", "E5"}
    assert e.candidates == ("C4",) and e.step == 1 and e.to == "C4"
    assert g.state.warriors["vesper"].cell == "C4" and g.state.warriors["vesper"].wounds == 0
    assert {"SOLO-MOVE-1", "SOLO-MOVE-4", "SOLO-MOVE-5", "SOLO-MOVE-7"} <= rules(items)


def test_T2_one_preferred_cell():
    """T2 -- SOLO-MOVE-6/7 step 2: PR = {D3 (B 3), E2 (B 2)} -> D3."""
    g = emperor_game("O1", vesper="E3", warden="C1", hound="B1")
    e = one(move(g, "vesper"), EmperorMoved)
    assert e.candidates == ("D3", "E2") and e.bonus == {"D3": 3, "E2": 2}
    assert e.step == 2 and e.to == "D3"


@pytest.mark.parametrize("order,compass,dest", [("O1", "E", "D3"), ("O2", "W", "B3")])
def test_T3_preferred_tie_broken_by_compass(order, compass, dest):
    """T3 -- SOLO-MOVE-7 step 3, SOLO-MOVE-9, SOLO-TIE: Pref = {B3, D3}; compass E -> D3 (its own cell:
    no move), compass W -> B3."""
    g = emperor_game(order, vesper="D3", warden="C1", hound="B1")
    items = move(g, "vesper")
    e = one(items, EmperorMoved)
    assert e.candidates == ("B3", "C4", "D3", "E2")
    assert e.preferred == ("B3", "D3") and e.step == 3 and e.compass == compass and e.to == dest
    assert g.state.warriors["vesper"].cell == dest
    assert (e.path == ()) == (dest == "D3")  # SOLO-MOVE-9: no movement into its own cell
    assert {"SOLO-MOVE-9", "SOLO-TIE-2"} <= rules(items)


@pytest.mark.parametrize("order,dest", [("O1", "E3"), ("O2", "C5")])
def test_T4_nearest_cell_fallback(order, dest):
    """T4 -- SOLO-MOVE-8: PR = ∅; D: C5 = 1, E3 = 1, D5 = 2, E4 = 2, E5 = 3; N = {C5, E3} both B 0;
    compass E -> E3, W -> C5."""
    g = emperor_game(order, vesper="E5", warden="C1", hound="B1")
    items = move(g, "vesper")
    e = one(items, EmperorMoved)
    assert e.candidates == () and set(e.reachable) == {"C5", "D5", "E3", "E4", "E5"}
    assert e.distances == {"C5": 1, "D5": 2, "E3": 1, "E4": 2, "E5": 3}
    assert e.nearest == ("C5", "E3") and e.step == 4 and e.to == dest
    assert "SOLO-MOVE-8" in rules(items)


def test_T5_unique_crest_override_and_nearest_cell_past_an_enemy():
    """T5 -- SOLO-CREST-1, SOLO-MOVE-8: O3's unique crest matches Vesper's MOON override, so the
    requirement is ADJ_ENEMY_HERO: P = {A2, B1}; the Hound on A3 blocks, D ignores it: A4 = 2."""
    g = emperor_game("O3", vesper="A5", warden="A1", hound="A3")
    items = move(g, "vesper")
    e = one(items, EmperorMoved)
    assert e.requirement == "ADJ_ENEMY_HERO"
    assert e.possible == ("A2", "B1")
    assert set(e.reachable) == {"A4", "A5", "B5", "C5"}
    assert e.distances == {"A4": 2, "A5": 3, "B5": 4, "C5": 5}
    assert e.to == "A4" and e.step == 4
    assert "SOLO-CREST-1" in rules(items)


def test_T6_movement_bonus_flips_first():
    """T6 -- SOLO-MOVE-2: L1 (MOVE x2) flips before the direction is computed (movement 4), and no
    longer counts: B(A2)=0, B(B3)=1, B(C4)=2, B(D3)=3, B(E2)=2 -> D3."""
    g = emperor_game("O1", vesper="B3", warden="C1", hound="B1")
    items = move(g, "vesper")
    flip = one(items, LocationsFlipped)
    assert flip.locations == ("L1",) and flip.amount == 2
    e = one(items, EmperorMoved)
    assert e.movement == 4
    assert e.candidates == ("A2", "B3", "C4", "D3", "E2")
    assert e.bonus == {"A2": 0, "B3": 1, "C4": 2, "D3": 3, "E2": 2}
    assert e.to == "D3" and g.state.flipped == {"L1": EMPEROR}
    assert "SOLO-MOVE-2" in rules(items)


@pytest.mark.parametrize("order,out_cell", [("O1", "D3"), ("O2", "B3")])
def test_T7_push_bonus_switch_and_out_and_back(order, out_cell):
    """T7 -- SOLO-PUSH-1/2/3, SOLO-SWITCH-2: Gale from D5; L4 flips (V = 3) and H2 goes inactive; the
    farthest enemy, the Hound (5 > 4), reaches no hazard: switch to the Warden. C2 -> C3 (wound),
    out to D3 (compass E) or B3 (W) and back to C3 (wound): 2 wounds, the push value fully used."""
    g = emperor_game(order, vesper="D5", warden="C2", hound="E1")
    items = ability(g, card_ability(g, "V2"), "V2 Gale")
    assert one(items, LocationsFlipped).locations == ("L4",)
    t = one(items, TargetChosen)
    assert t.distances == {"warden": 4, "hound": 5}
    assert t.switched_from == "hound" and t.targets == ("warden",) and t.switch_rule == "SOLO-SWITCH-2"
    p = one(items, Pushed)
    assert p.value == 3 and p.path == ("C3", out_cell, "C3") and p.hazards == ("C3", "C3") and p.wounds == 2
    assert g.state.warriors["warden"].wounds == 2 and g.state.warriors["warden"].cell == "C3"
    assert {"SOLO-PUSH-1", "SOLO-PUSH-2", "SOLO-PUSH-3", "SOLO-SWITCH-2"} <= rules(items)


def test_T8_between_two_hazards():
    """T8 -- SOLO-PUSH-3a: from C5 no push bonus, L4 face up, V = 2: C2 -> C3 (wound) -> C4 (H2 active,
    adjacent: wound). 2 wounds."""
    g = emperor_game("O1", vesper="C5", warden="C2", hound="E1")
    items = ability(g, card_ability(g, "V2"), "V2 Gale")
    assert not all_of(items, LocationsFlipped)
    p = one(items, Pushed)
    assert p.value == 2 and p.path == ("C3", "C4") and p.wounds == 2
    assert one(items, TargetChosen).switched_from == "hound"


def test_T9_long_range_bonus_no_switch():
    """T9 -- SOLO-LOCB-2, SOLO-SWITCH-1: Arc Bolt from E2 next to L2 (RANGE): L2 flips, attack 3 + 1 = 4
    beats the Hound's defense 2: no switch; the Hound takes 2 wounds and dies."""
    g = emperor_game("O1", vesper="E2", warden="C2", hound="A1")
    items = ability(g, card_ability(g, "V1"), "V1 Arc Bolt")
    assert one(items, LocationsFlipped).locations == ("L2",)
    t = one(items, TargetChosen)
    assert t.distances == {"warden": 4, "hound": 5} and t.targets == ("hound",) and not t.switched_from
    a = one(items, AttackResolved)
    assert (a.attack, a.defense, a.wounds) == (4, 2, 2)
    assert not g.state.warriors["hound"].alive
    assert "SOLO-LOCB-2" in rules(items)


def test_T10_spark_switches_to_the_hero():
    """T10 -- SOLO-SWITCH-1: L2 already flipped, Spark (ATTACK 1 RANGED) -> farthest is the Hound
    (defense 2); 1 <= 2: switch to the Warden; your defense choice then decides."""
    g = emperor_game("O1", vesper="E2", warden="C2", hound="A1").flip("L2")
    items = ability(g, star_ability(g, "Spark"), "star: Spark")
    t = one(items, TargetChosen)
    assert t.switched_from == "hound" and t.targets == ("warden",) and t.switch_rule == "SOLO-SWITCH-1"
    req = one(items, DefenseRequested)
    assert req.pending.target == "warden" and req.pending.attack == 1
    assert g.state.pending is not None and "SOLO-SWITCH-1" in rules(items)


def test_T11_emperor_defense():
    """T11 -- SOLO-DEF-2, SOLO-CARD-1: the Warden attacks Vesper (E2, L2 face up) with Shield Bash;
    the deck advances to O4 (compass S, +2); scanning from the right finds V5 Ward (DEF 4);
    defense 4 + 1 (L2 DEFENSE, flipped) + 0 + 2 = 7: 0 wounds."""
    g = game().place(warden="E1", vesper="E2", hound="A1").exhaust(EMPEROR, "V1", "V3").order(None, ("O4", "O1", "O2"))
    g.do(Activate(card="W1"))
    items = g.do(Attack(target="vesper"))
    assert one(items, OrderCardRevealed).card == "O4"
    d = one(items, Defended)
    assert d.card == "V5" and d.value == 7
    assert d.parts == {"card": 4, "locations": 1, "crest": 0, "order_modifier": 2}
    assert d.scanned == ("V5",)
    assert g.state.flipped.get("L2") == EMPEROR
    a = one(items, AttackResolved)
    assert (a.attack, a.defense, a.wounds) == (2, 7, 0)
    assert "V5" in g.state.exhausted[EMPEROR] and g.state.crest[EMPEROR] == "MOON"
    assert {"SOLO-DEF-2", "SOLO-CARD-1", "SOLO-ORD-3"} <= rules(items)


def test_T12_a_whole_emperor_turn():
    """T12 -- SOLO-TURN, SOLO-TGT-2, SOLO-SWITCH-4: O1 revealed. MOVE: E5 -> E3 (as T4). ACTIVATE: scan
    from the right, V5 exhausted -> V4 Storm (ATTACK 2 AREA, no crest applied yet: no boost): your hero
    first (you choose its defense), then the Hound (2 vs 2, 0 wounds; no switching for AREA). V4
    exhausted, crest SUN. REFRESH_CHECK: 2 prepared > 1: no refresh."""
    g = game().place(vesper="E5", warden="C1", hound="B1").exhaust(EMPEROR, "V2", "V5").order(None, ("O1", "O3"))
    items = g.do(EndTurn())
    assert one(items, OrderCardRevealed).card == "O1"
    assert one(items, EmperorMoved).to == "E3"
    act = one(items, CardActivated)
    assert act.card == "V4" and act.scanned == ("V5", "V4")
    t = one(items, TargetChosen)
    assert t.targets == ("warden", "hound") and not t.switched_from
    req = one(items, DefenseRequested)
    assert req.pending.attack == 2 and req.pending.target == "warden"
    # the Emperor waits for your defense; the rest of its turn is in the event
    items2 = g.do(Defend(card=None))
    hits = all_of(items2, AttackResolved)
    assert [(h.target, h.attack, h.defense, h.wounds) for h in hits] == [("warden", 2, 0, 2), ("hound", 2, 2, 0)]
    assert one(items2, CardResolved).crest == "SUN"
    ref = one(items2, Refreshed)
    assert not ref.refreshed and ref.prepared == 2 and ref.refresh_value == 1
    assert g.state.crest[EMPEROR] == "SUN" and g.state.turn.side == HUMAN
    assert {"SOLO-TURN-2", "SOLO-TURN-5", "SOLO-TURN-6", "SOLO-TGT-2", "SOLO-SWITCH-4"} <= rules(items + items2)
