"""Battle of Hoth's rule choices (DESIGN 14, rules.md section 16): the same position gives two outcomes under
the two options of each choice, and the ruling cites the choice's id."""
from __future__ import annotations

import pytest

from domain.hoth import commands as C
from domain.hoth.choices import CHOICES, EWEB, EWEB_CONFIRM, FIRST_DRAW, PERM_MEDAL
from domain.hoth.events import AttackResolved, CardsDrawn, DecisionPending, TurnStarted, UnitMoved
from domain.hoth.scenario import PermanentMedal
from domain.kernel import SetupError
from domain.kernel.choices import in_force, resolve
from domain.kernel.registry import rules_of

from .examples import example
from .fixtures import scenario
from .play import events_of, rule_ids, violation
from .test_rules import start, to_attack


def _steps(items, choice_id):
    return [s for e in items if e.ruling for s in e.ruling.steps if s.rule == choice_id]


def test_every_choice_is_a_rule_with_its_options_and_default():
    rules = rules_of("hoth")
    for c in CHOICES:
        assert c.id in rules, c.id
        assert c.default in c.option_ids() and (c.recorded or c.default) in c.option_ids()
        for o in c.options:
            assert f"`{o.id}`" in rules[c.id].text and o.sources


def test_unknown_choice_or_option_names_the_field():
    with pytest.raises(SetupError) as e:
        resolve(CHOICES, {"HOTH-CHOICE-NOPE": "x"})
    assert e.value.field == "choices.HOTH-CHOICE-NOPE"
    with pytest.raises(SetupError) as e:
        resolve(CHOICES, {EWEB: "some"})
    assert e.value.field == f"choices.{EWEB}" and "any, all" in e.value.detail
    assert resolve(CHOICES, {EWEB: "all"}) == {EWEB: "all", PERM_MEDAL: "pass", FIRST_DRAW: "play", EWEB_CONFIRM: "no"}
    # a game stored before the choices existed: its recorded readings
    assert in_force(CHOICES, {}) == {EWEB: "any", PERM_MEDAL: "pass", FIRST_DRAW: "play", EWEB_CONFIRM: "no"}


def _eweb_game(option):
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", "eweb", "W"),
                          ((12, 2), "rebel", "echo_troopers", None, "E")], first="imperial")
    g = example(scn, faces=["miss", "infantry", "miss", "miss"], choices={EWEB: option})
    start(g, "imperial", ["W"])
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="W", target="E"))  # distance 2: 2 dice, miss + infantry
    return g, items


def test_hoth_choice_eweb_any_rerolls_the_miss_only():
    """HOTH-CHOICE-EWEB any: the player re-rolls die 0 alone and keeps its hit."""
    g, items = _eweb_game("any")
    assert [s.values["option"] for s in _steps(items, EWEB)] == ["any"]
    assert C.Reroll(dice=(0,)) in g.rs.legal_commands(g.state, "imperial")
    g.do("imperial", C.Reroll(dice=(0,)))
    assert g.state.units["E"].figures == 2  # the kept infantry hits; the re-rolled die misses


def test_hoth_choice_eweb_all_rerolls_every_die_or_none():
    """HOTH-CHOICE-EWEB all: picking die 0 alone is refused citing the choice; all dice or none."""
    g, items = _eweb_game("all")
    assert [s.values["option"] for s in _steps(items, EWEB)] == ["all"]
    assert events_of(items, DecisionPending)[0].event.pending.which == "all"
    assert g.rs.legal_commands(g.state, "imperial") == [C.Reroll(dice=()), C.Reroll(dice=(0, 1))]
    assert violation(g, "imperial", C.Reroll(dice=(0,))).rule == EWEB
    g.do("imperial", C.Reroll(dice=(0, 1)))  # the hit is re-rolled too: miss, miss
    assert g.state.units["E"].figures == 3


def _medal_game(option):
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "rebel", "echo_troopers")],
                   objectives=[PermanentMedal(id="OBJ-P", hex=(10, 2), faction="imperial")], first="imperial")
    g = example(scn, choices={PERM_MEDAL: option})
    start(g, "imperial", ["T"])
    items = g.do("imperial", C.Move(unit="T", path=((10, 2), (12, 2))))  # through the medal's hex
    return g, items


def test_hoth_choice_perm_medal_pass_captures_on_the_way():
    g, items = _medal_game("pass")
    assert g.state.captured == ("OBJ-P",) and g.state.medals["imperial"] == 1
    move = events_of(items, UnitMoved)[0]
    assert [s.values["option"] for s in move.ruling.steps if s.rule == PERM_MEDAL] == ["pass"]


def test_hoth_choice_perm_medal_stop_needs_the_move_to_end_there():
    g, items = _medal_game("stop")
    assert g.state.captured == () and g.state.medals["imperial"] == 0
    move = events_of(items, UnitMoved)[0]
    assert [s.values["option"] for s in move.ruling.steps if s.rule == PERM_MEDAL] == ["stop"]
    # stopping on it still captures
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "rebel", "echo_troopers")],
                   objectives=[PermanentMedal(id="OBJ-P", hex=(10, 2), faction="imperial")], first="imperial")
    g = example(scn, choices={PERM_MEDAL: "stop"})
    start(g, "imperial", ["T"])
    g.do("imperial", C.Move(unit="T", path=((10, 2),)))
    assert g.state.captured == ("OBJ-P",)


@pytest.mark.parametrize("option,extra", [("play", 0), ("draw", 1)])
def test_hoth_choice_first_draw(option, extra):
    """HOTH-CHOICE-FIRST-DRAW: the starting player holds one card more under "draw" (CS), none under "play"."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "rebel", "echo_troopers")],
                   first="imperial")
    plain = example(scn, choices={FIRST_DRAW: "play"})
    g = example(scn, choices={FIRST_DRAW: option})
    assert len(g.state.hands["imperial"]) == len(plain.state.hands["imperial"]) + extra
    assert len(g.state.hands["rebel"]) == len(plain.state.hands["rebel"])
    draws = [e for e in g.emitted if isinstance(e.event, CardsDrawn) and e.event.seat == "imperial"]
    assert len(draws) == 1 + extra
    started = [e for e in g.emitted if isinstance(e.event, TurnStarted)][0]
    assert [s.values["option"] for s in started.ruling.steps + (draws[-1].ruling.steps if extra else ())
            if s.rule == FIRST_DRAW] == [option]
    assert FIRST_DRAW in rule_ids(g.emitted)


def _confirm_game(option):
    """A rebel E-Web (token Set) attacks an AT-AT at distance 2: vehicle + miss, kept; the confirmation roll of
    the one hit shows a miss, its re-roll (under "yes" only) an explosion."""
    from domain.hoth.events import AttackResolved


    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", "eweb", "W"), ((12, 2), "imperial", "at_at", None, "A")],
                   first="rebel")
    g = example(scn, faces=["vehicle", "miss", "miss", "explosion"], choices={EWEB_CONFIRM: option})
    start(g, "rebel", ["W"])
    to_attack(g, "rebel")
    g.do("rebel", C.Attack(unit="W", target="A"))
    items = g.do("rebel", C.Reroll(dice=()))  # keep vehicle + miss: one hit
    return g, items, events_of(items, AttackResolved)[0]


@pytest.mark.parametrize("option,destroyed", [("no", False), ("yes", True)])
def test_hoth_choice_eweb_confirm(option, destroyed):
    """HOTH-CHOICE-EWEB-CONFIRM: the same attack leaves the AT-AT unharmed under "no" (the confirmation roll
    stands) and destroys it under "yes" (the E-Web re-rolls the confirmation roll that showed no explosion)."""

    g, items, resolved = _confirm_game(option)
    assert resolved.event.hits == 1
    assert resolved.event.eliminated is destroyed and ("A" not in g.state.units) is destroyed
    assert resolved.event.confirmation == (("explosion",) if destroyed else ("miss",))
    assert [s.values["option"] for s in _steps(items, EWEB_CONFIRM)] == [option]


def test_hoth_choice_eweb_confirm_is_not_cited_without_an_eweb():
    """A plain infantry unit's hits on an AT-AT: the confirmation roll is not a question of the choice."""

    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "W"), ((12, 2), "imperial", "at_at", None, "A")],
                   first="rebel")
    g = example(scn, faces=["vehicle", "miss", "miss", "explosion"], choices={EWEB_CONFIRM: "yes"})
    start(g, "rebel", ["W"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="W", target="A"))
    assert not _steps(items, EWEB_CONFIRM) and "A" in g.state.units
