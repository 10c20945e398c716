"""The Emperor solo mode's rule choices (DESIGN 14, rules.md "Rule choices"): the same position gives two
outcomes under the two options, and the ruling cites the choice's id."""
from __future__ import annotations

import pytest

from domain.emperor.choices import CHOICES, PUSH_BONUS, STEP4, UNDEFENDED
from domain.emperor.events import AttackResolved, Defended, LocationsFlipped
from domain.emperor.state import EMPEROR
from domain.kernel.registry import rules_of

from .fixtures import all_of, game, one
from .test_decisions import ROW, _human_attacks


def test_every_choice_is_a_rule_with_its_options():
    rules = rules_of("emperor")
    for c in CHOICES:
        assert c.id in rules and c.default in c.option_ids()
        assert all(f"`{o.id}`" in rules[c.id].text and o.sources for o in c.options)


@pytest.mark.parametrize("option,defense,wounds,flipped", [("locations", 1, 1, ["L2"]), ("none", 0, 2, [])])
def test_solo_choice_undefended_hero_and_its_location(option, defense, wounds, flipped):
    """No prepared card; L2 (DEFENSE) next to the Emperor's hero at E2: under "locations" it defends with 1 and
    L2 is flipped, under "none" it defends with 0 and nothing is flipped (SOLO-DEF-4)."""
    g = game().place(warden="E1", vesper="E2", hound="A1").exhaust(EMPEROR, *ROW).order(None, ("O4",))
    g.set(choices={UNDEFENDED: option})
    items = _human_attacks(g, "W1", "vesper")
    d = one(items, Defended)
    assert d.value == defense
    assert one(items, AttackResolved).wounds == wounds
    assert [lo for e in all_of(items, LocationsFlipped) if e.side == EMPEROR for lo in e.locations] == flipped
    steps = [s for e in items if getattr(e, "ruling", None) for s in e.ruling.steps if s.rule == UNDEFENDED]
    assert [s.values["option"] for s in steps] == [option]


@pytest.mark.parametrize("option,value,flipped", [("adjacent", 2, []), ("anywhere", 3, ["L4"])])
def test_solo_choice_push_bonus_adjacent_or_anywhere(option, value, flipped):
    """Vesper on E3 is not next to L4 (D4, PUSH 1): V2's push (2) gets L4's +1 and flips it under "anywhere"
    only (SOLO-PUSH-1)."""
    from domain.emperor.events import Pushed

    from .fixtures import ability, card_ability, emperor_game

    g = emperor_game("O1", vesper="E3", warden="C2", hound="A4")
    g.set(choices={PUSH_BONUS: option})
    items = ability(g, card_ability(g, "V2"), "V2")
    assert one(items, Pushed).value == value
    assert [lo for e in all_of(items, LocationsFlipped) for lo in e.locations] == flipped
    steps = [s for e in items if getattr(e, "ruling", None) for s in e.ruling.steps if s.rule == PUSH_BONUS]
    assert [s.values["option"] for s in steps] == [option]


@pytest.mark.parametrize("option,to", [("nearest", "C4"), ("preferred", "E4")])
def test_solo_choice_step4_nearest_cell_or_preferred_direction(option, to):
    """Order O3, Vesper on D3, Warden D5, Hound C5: no possible direction is reachable (SOLO-MOVE-7 step 4);
    the two readings of "first choose the preferred direction" send the Emperor's hero to different cells."""
    from domain.emperor.events import EmperorMoved

    from .fixtures import emperor_game, move

    g = emperor_game("O3", vesper="D3", warden="D5", hound="C5")
    g.set(choices={STEP4: option})
    items = move(g, "vesper")
    assert one(items, EmperorMoved).to == to
    steps = [s for e in items if getattr(e, "ruling", None) for s in e.ruling.steps if s.rule == STEP4]
    assert [s.values["option"] for s in steps] == [option]


@pytest.mark.parametrize("option,hound", [("value", 0), ("abilities", 2)])
def test_solo_choice_defense_card_value_or_abilities(option, hound):
    """Only V1 (Arc Bolt: DEF 1, ATTACK 3 RANGED) is prepared; the Warden attacks Vesper and V1 defends under both
    readings. Under "abilities" its Arc Bolt then resolves: it picks the Hound (2 health) and kills it."""
    from domain.emperor.choices import DEFENSE_CARD
    from domain.emperor.events import AbilityDone, WarriorDied

    g = game().place(warden="C3", vesper="C4", hound="E1").exhaust(EMPEROR, "V2", "V3", "V4", "V5")
    g.order(None, ("O1", "O3"))
    g.set(choices={DEFENSE_CARD: option})
    items = _human_attacks(g, "W1", "vesper")
    assert one(items, Defended).card == "V1"
    assert g.state.warriors["hound"].wounds == hound
    assert [e.warrior for e in all_of(items, WarriorDied)] == (["hound"] if hound else [])
    assert [e.source for e in all_of(items, AbilityDone) if e.side == EMPEROR] == (
        ["V1 Arc Bolt (defense card)"] if hound else [])
    steps = [s for e in items if getattr(e, "ruling", None) for s in e.ruling.steps if s.rule == DEFENSE_CARD]
    assert [s.values["option"] for s in steps] == [option]


def test_solo_choice_defense_card_abilities_wait_for_your_defense_and_your_turn_goes_on():
    """Under "abilities", V1's Arc Bolt attacks your hero (no helper on the table): you are asked to defend in
    your own turn; after your defense your activation goes on with W1's next ability."""
    from domain.emperor.choices import DEFENSE_CARD
    from domain.emperor.commands import Defend, Push
    from domain.emperor.events import DefenseRequested

    g = game().place(warden="C3", vesper="C4", hound=None).exhaust(EMPEROR, "V2", "V3", "V4", "V5")
    g.order(None, ("O1", "O3"))
    g.set(choices={DEFENSE_CARD: "abilities"})
    items = _human_attacks(g, "W1", "vesper")
    assert one(items, DefenseRequested) and g.state.pending is not None
    after = g.do(Defend(card=None, bonuses=()))
    assert one(after, AttackResolved).target == "warden" and g.state.pending is None
    assert g.state.warriors["warden"].wounds == 4
    assert Push(target="vesper", path=("C5",), bonuses=()) in g.rs.legal_commands(g.state, "human")
