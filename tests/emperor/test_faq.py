"""The seed's FAQ rulings (section 4.14, SOLO-FAQ-1..4), each a test citing its rule ids."""
from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.emperor.commands import Activate, Attack, Skip, Swap
from domain.emperor.events import AbilityDone, EmperorMoved, Swapped, TargetChosen
from domain.emperor.field import Field
from domain.emperor.grid import compass_pick
from domain.emperor.movement import preferred
from domain.emperor.state import EMPEROR

from .fixtures import ability, card_ability, emperor_game, game, move, one, rules
from .play import Game, ruleset


@pytest.mark.parametrize("order,expected", [("O1", "hound"), ("O2", "warden")])
def test_FAQ_1_equal_targets_are_chosen_with_the_compass(order, expected):
    """SOLO-FAQ-1 (= SOLO-TGT-4): the Warden on A1 and the Hound on E1 are equally far (6) from Vesper on
    C5; Arc Bolt targets the farthest: compass E takes the Hound (east), W the Warden."""
    g = emperor_game(order, vesper="C5", warden="A1", hound="E1")
    items = ability(g, card_ability(g, "V1"), "V1 Arc Bolt")
    t = one(items, TargetChosen)
    assert t.distances == {"warden": 6, "hound": 6}
    assert t.targets == (expected,) and t.compass
    assert {"SOLO-TGT-4"} <= rules(items)


@pytest.mark.parametrize("vesper", ["C5", "C4", "C2"])
def test_FAQ_2_the_compass_is_relative_to_the_whole_battlefield(vesper):
    """SOLO-FAQ-2 (= SOLO-TIE-2): wherever the Emperor's warrior stands, compass E picks the candidate
    that is easternmost on the battlefield (here the Hound on D1 over the Warden on B1, equally far)."""
    g = emperor_game("O1", vesper=vesper, warden="B1", hound="D1")
    f = Field(g.state)
    assert f.dist(vesper, "B1") == f.dist(vesper, "D1")  # a genuine tie from every position tested
    t = one(ability(g, card_ability(g, "V1"), "V1 Arc Bolt"), TargetChosen)
    assert t.targets == ("hound",)
    # the same candidate cells give the same pick, whoever asks
    assert compass_pick({"B1", "D1"}, "E")[0] == "D1"


def test_FAQ_3_exceptions_cover_double_symbols():
    """SOLO-FAQ-3 (= SOLO-MOVE-3): a solo card's exception for MOVE also removes the double MOVE symbol
    of L1 (Old Road) from the preference count: A2 next to L1 counts 2 without it, 0 with it."""
    f = Field(game().state)
    assert f.bonus_count("A2") == 2 and f.bonus_count("A2", ("MOVE",)) == 0
    assert f.bonus_count("C2") == 4 and f.bonus_count("C2", ("MOVE",)) == 2
    # in a decision: A2 and E2 tie (2 each) without the exception; with Aura's MOVE exception E2 wins
    pref, b = preferred(f, {"A2", "E2"}, ())
    assert pref == {"A2", "E2"} and b == {"A2": 2, "E2": 2}
    pref, b = preferred(f, {"A2", "E2"}, ("MOVE",))
    assert pref == {"E2"} and b == {"A2": 0, "E2": 2}


@pytest.mark.parametrize("exceptions,dest,step", [(("MOVE",), "D1", 3), ((), "C2", 2)])
def test_FAQ_3_aura_solo_card_in_a_move(exceptions, dest, step):
    """SOLO-FAQ-3 in a decision, with Aura's shipped solo card (DIST_ENEMY_HERO(2), exception MOVE):
    from D1 with the Warden on B1, PR = {C2, D1}. C2 sits next to L1's double MOVE symbol: excluded, C2
    and D1 tie at 2 and compass E keeps D1; counted, C2 has 4 and wins outright."""
    aura = ruleset().catalog().solo["aura"]
    assert aura.exceptions == ("MOVE",)
    solo = replace(aura, exceptions=exceptions)
    g = emperor_game("O1", vesper="D1", warden="B1", hound="E5").set(solo=solo)
    e = one(move(g, "vesper"), EmperorMoved)
    assert e.candidates == ("C2", "D1")
    assert e.bonus == ({"C2": 2, "D1": 2} if exceptions else {"C2": 4, "D1": 2})
    assert e.to == dest and e.step == step


def _akhena_human_game() -> Game:
    """Akhena (human) next to the Rebel's helper, Fate-herald ready."""
    g = Game(ruleset(), "SETUP-AKHENA-VS-REBEL")
    return g.place(akhena="C3", rebel="C5", sparrow="E3")


def test_FAQ_4_fate_herald_attacks_without_swapping():
    """SOLO-FAQ-4: Akhena's «Долевісниця» (Fate-herald) may attack without swapping places."""
    g = _akhena_human_game()
    g.do(Activate(card="AK1"))
    g.do(Attack(target="rebel"))
    assert Swap() in g.legal() and Skip() in g.legal()  # the swap is offered, and optional
    items = g.do(Skip())
    assert not [e for e in items if isinstance(e.event, Swapped)]
    assert g.state.warriors["akhena"].cell == "C3" and g.state.warriors["rebel"].cell == "C5"


def test_FAQ_4_fate_herald_may_swap():
    g = _akhena_human_game()
    g.do(Activate(card="AK1"))
    g.do(Attack(target="rebel"))
    items = g.do(Swap())
    assert one(items, Swapped).cells == ("C3", "C5")
    assert g.state.warriors["akhena"].cell == "C5" and g.state.warriors["rebel"].cell == "C3"
    assert "SOLO-FAQ-4" in rules(items)


def test_FAQ_4_the_emperor_never_swaps():
    """SOLO-FAQ-4 (INFERRED, GAP-A-21): for the Emperor, the swap is not performed."""
    g = Game(ruleset(), "SETUP-AURA-VS-AKHENA").emperor_turn_state().order("O1").place(akhena="D4", aura="C1")
    before = dict((w.id, w.cell) for w in g.state.warriors.values())
    items = ability(g, card_ability(g, "AK1", 1), "AK1 Fate-herald")
    done = one(items, AbilityDone)
    assert done.skipped and "SOLO-FAQ-4" in rules(items)
    assert {w.id: w.cell for w in g.state.warriors.values()} == before
    assert g.state.heroes[EMPEROR].id == "akhena"
