"""Clouds of Smoke's rule choices (DESIGN 14, rules.md section 24): the same position gives two outcomes under
the two options, and the ruling cites the choice's id."""
from __future__ import annotations

import msgspec
import pytest

from domain.kernel.registry import rules_of
from domain.smoke import events as E
from domain.smoke.battle import discipline_modifiers, test_discipline as discipline_roll
from domain.smoke.choices import (
    BOMB_PRICE, BOMBARD, CHOICES, COMPLEX_PATH, FAILED_PRICE, GENERAL_PASS, VIEW_INSIDE, VILLAGE,
)
from domain.smoke.geometry import Box
from domain.smoke.state import TurnState
from domain.smoke.units import profile_of

from .fixtures import table_state
from .scripts import INF
from .test_rules import P1, P2, el, out_for, rect


def test_every_choice_is_a_rule_with_its_options():
    rules = rules_of("smoke")
    for c in CHOICES:
        assert c.id in rules and c.default in c.option_ids()
        assert all(f"`{o.id}`" in rules[c.id].text and o.sources for o in c.options)


def _half_in_village(option):
    village = el("V", "village", *rect(8, 8, 12, 12))
    # a line infantry unit straddling the village's east edge (x = 12): partly, not entirely inside
    st = table_state([(P1, "line_infantry", Box(12, 10, 90, 1, 1)), (P1, "line_infantry", Box(3, 3, 90, 1, 1))],
                     terrain=(village,), choices={VILLAGE: option})
    st = msgspec.structs.replace(st, turn=TurnState(side="south", players=(P1,), step="battles"))
    return st, st.units["P1-01"]


@pytest.mark.parametrize("option,bonus", [("entirely", 0), ("partly", 1)])
def test_smoke_choice_village_partly_inside(option, bonus):
    st, u = _half_in_village(option)
    mods = discipline_modifiers(st, u)
    assert sum(m["value"] for m in mods if m["rule"] == "SMOKE-SR-9") == bonus
    need = profile_of(st, u).discipline
    out = out_for(st, faces=[need - 1])  # passes with the +1 only
    survived = discipline_roll(out, u.id, 1)
    assert survived is bool(bonus)
    tested = [e for e in out.items if isinstance(e.event, E.DisciplineTested)][0]
    steps = [s for s in tested.ruling.steps if s.rule == VILLAGE]
    assert [s.values["option"] for s in steps] == [option]


def test_entirely_inside_gets_the_bonus_under_both_readings_and_cites_no_choice():
    village = el("V", "village", *rect(8, 8, 12, 12))
    for option in ("entirely", "partly"):
        st = table_state([(P1, "line_infantry", Box(10, 10, 90, 1, 1)), (P1, "line_infantry", Box(3, 3, 90, 1, 1))],
                         terrain=(village,), choices={VILLAGE: option})
        st = msgspec.structs.replace(st, turn=TurnState(side="south", players=(P1,), step="battles"))
        assert [m["rule"] for m in discipline_modifiers(st, st.units["P1-01"])] == ["SMOKE-SR-9"]
        out = out_for(st, faces=[6])
        discipline_roll(out, "P1-01", 1)
        assert not any(s.rule == VILLAGE for e in out.items for s in e.ruling.steps)


def _with_marker(st, mid="M1", x=10.0, y=16.0):
    from domain.smoke.state import Marker

    return msgspec.structs.replace(st, markers={**st.markers, mid: Marker(id=mid, x=x, y=y)})


@pytest.mark.parametrize("option,price", [("no", 1), ("yes", 2)])
def test_smoke_choice_bomb_price(option, price):
    """A unit retreats from a bombardment with a battle marker on the table: its price rises under "yes" only."""
    from domain.smoke.retreat import execute_retreat
    from domain.smoke.state import RetreatPending

    from .test_rules import at

    st = at((P1, "line_infantry", 10, 10, 90), (P1, "line_infantry", 3, 3, 90), choices={BOMB_PRICE: option})
    st = _with_marker(st)
    st = msgspec.structs.replace(st, turn=TurnState(side="north", players=("player-2",), step="bombard",
                                                     bombard_retreat=RetreatPending(unit="P1-01", distance=1.0,
                                                                                    context="bombardment")))
    out = out_for(st)
    assert execute_retreat(out, "P1-01", "back", "bombardment") is True
    assert out.state.markers["M1"].price == price
    r = [e for e in out.items if isinstance(e.event, E.UnitRetreated)][0]
    assert [s.values["option"] for s in r.ruling.steps if s.rule == BOMB_PRICE] == [option]


@pytest.mark.parametrize("option,price", [("no", 1), ("yes", 2)])
def test_smoke_choice_failed_price(option, price):
    """A retreat in a battle that touches an enemy fails (SMOKE-FRET-1): the marker's price rises under "yes"."""
    from domain.smoke.retreat import execute_retreat

    from .test_rules import _retreating, at

    st = at((P1, INF, 10, 10, 90), (P2, INF, 10, 7.5, 270), (P2, INF, 20, 19, 270), choices={FAILED_PRICE: option})
    st = _retreating(_with_marker(st, x=10, y=11), "P1-01", 3.0, markers=("M1",))
    out = out_for(st)
    assert execute_retreat(out, "P1-01", "back", "battle") is False
    assert out.state.markers["M1"].price == price
    r = [e for e in out.items if isinstance(e.event, E.UnitRetreated)][0]
    assert r.event.outcome == "destroyed"
    assert [s.values["option"] for s in r.ruling.steps if s.rule == FAILED_PRICE] == [option]


def _gun_and_wood(option):
    """player-1's light artillery at (12, 10); player-2's infantry P2-01 inside a wood 4 UW ahead, P2-02 in the
    open beside it (so the gun has a target under both readings and the bombardment step waits)."""
    from .scripts import duel

    wood = el("W", "forest", *rect(10, 13.5, 14, 15.5))
    return duel([("light_artillery", 12, 10, 90), (INF, 20, 3, 90)], [(INF, 12, 14.5, 270), (INF, 15.5, 14, 270)],
                terrain=(wood,), choices={VIEW_INSIDE: option})


def test_smoke_choice_view_inside_through_sees_the_unit_inside():
    """SMOKE-CHOICE-VIEW-INSIDE through: the line ends inside the wood without passing through it: the gun aims,
    and the ruling cites the choice."""
    from domain.smoke import commands as C

    g = _gun_and_wood("through")
    assert C.Aim(unit="P1-01", target="P2-01") in g.rs.legal_commands(g.state, P1)
    items = g.do(P1, C.Aim(unit="P1-01", target="P2-01"))
    aimed = [e for e in items if isinstance(e.event, E.BombardmentAimed)][0]
    assert [s.values["option"] for s in aimed.ruling.steps if s.rule == VIEW_INSIDE] == ["through"]


def test_smoke_choice_view_inside_enter_hides_the_unit_inside():
    """SMOKE-CHOICE-VIEW-INSIDE enter: the same line enters the wood and breaks: no target, the aim is refused
    citing the choice."""
    from domain.kernel import RuleViolation
    from domain.smoke import commands as C

    g = _gun_and_wood("enter")
    assert C.Aim(unit="P1-01", target="P2-02") in g.rs.legal_commands(g.state, P1)
    assert C.Aim(unit="P1-01", target="P2-01") not in g.rs.legal_commands(g.state, P1)
    with pytest.raises(RuleViolation) as e:
        g.do(P1, C.Aim(unit="P1-01", target="P2-01"))
    assert e.value.rule == VIEW_INSIDE and "not seen" in e.value.detail


def test_the_replaced_option_is_refused_and_an_old_game_with_it_reads_enter():
    """blocks_view_strict became SMOKE-CHOICE-VIEW-INSIDE: a new game with it is refused naming the field; a
    setup stored with it (and no choice) is decided under "enter", as it was."""
    from domain.kernel import Setup, SetupError
    from domain.smoke.decider import SmokeRuleset
    from scenarios.smoke import shipped

    rs = SmokeRuleset(shipped())
    battle = sorted(shipped().battles)[0]
    with pytest.raises(SetupError) as e:
        rs.seats(battle, {"blocks_view_strict": True})
    assert e.value.field == "options.blocks_view_strict" and VIEW_INSIDE in e.value.detail
    old = Setup(game_id="o", ruleset="smoke", scenario=battle, seats=rs.seats(battle, {}),
                options={"blocks_view_strict": True})
    assert rs.initial_state(old).choices[VIEW_INSIDE] == "enter"
    assert rs.initial_state(msgspec.structs.replace(old, options={})).choices[VIEW_INSIDE] == "through"


@pytest.mark.parametrize("option,survives", [("destroyed", False), ("slides", True)])
def test_smoke_choice_retreat_contact(option, survives):
    """SMOKE-CHOICE-RETREAT-CONTACT: P1-01 has P2-01 touching its east side and retreats straight back (south),
    sliding along P2-01's west edge: destroyed under "destroyed", 3 UW further south under "slides"."""
    from domain.smoke.choices import RETREAT_CONTACT
    from domain.smoke.retreat import execute_retreat

    from .test_rules import _retreating, at

    st = at((P1, INF, 10, 10, 90), (P2, INF, 11, 10, 270), (P2, INF, 20, 19, 270), choices={RETREAT_CONTACT: option})
    out = out_for(_retreating(st, "P1-01", 3.0))
    assert execute_retreat(out, "P1-01", "back", "battle") is survives
    r = [e for e in out.items if isinstance(e.event, E.UnitRetreated)][0]
    assert r.event.outcome == ("ok" if survives else "destroyed")
    assert ("P1-01" in out.state.units) is survives
    assert [s.values["option"] for s in r.ruling.steps if s.rule == RETREAT_CONTACT] == [option]


def test_retreat_straight_away_from_the_contact_cites_no_choice():
    """Moving away from the enemy at once survives under both readings: the choice is not cited."""
    from domain.smoke.choices import RETREAT_CONTACT
    from domain.smoke.retreat import execute_retreat

    from .test_rules import _retreating, at

    for option in ("destroyed", "slides"):
        st = at((P1, INF, 10, 10, 90), (P2, INF, 10, 11, 270), (P2, INF, 20, 19, 270), choices={RETREAT_CONTACT: option})
        out = out_for(_retreating(st, "P1-01", 3.0))
        assert execute_retreat(out, "P1-01", "back", "battle") is True
        assert not any(s.rule == RETREAT_CONTACT for e in out.items for s in e.ruling.steps)


def _pass_over(option):
    """player-1's infantry at (12, 10) makes a simple move 2 UW north, over player-2's commander at (12, 11);
    it ends 0.5 UW past the commander's figure (not touching it)."""
    from domain.smoke import commands as C

    from .scripts import duel

    g = duel([(INF, 12, 10, 90)], [(INF, 25, 19, 270)], commanders1=((12.0, 8.0),), commanders2=((12.0, 11.0),),
             choices={GENERAL_PASS: option})
    assert g.state.turn.step == "actions"
    g.do(P1, C.PlaceDie(die=0, slot="A1"))
    g.do(P1, C.EndPlacement())
    cid = next(c.id for c in g.state.commanders.values() if c.seat == P1)
    g.do(P1, C.Activate(slot="A1", die=0, commander=cid, unit="P1-01"))
    items = g.do(P1, C.Move(unit="P1-01", kind="simple", facing=90.0, distance=2.0))
    return g, items


@pytest.mark.parametrize("option,risked", [("stop", False), ("touch", True)])
def test_smoke_choice_general_pass(option, risked):
    """SMOKE-CHOICE-GENERAL-PASS: passing over the enemy commander without stopping puts it at risk (and
    displaces it) under "touch" only; the move's ruling cites the choice under both."""
    g, items = _pass_over(option)
    other = next(c for c in g.state.commanders.values() if c.seat == P2)
    assert bool([e for e in items if isinstance(e.event, E.CommanderRisked)]) is risked
    assert ((other.x, other.y) != (12.0, 11.0)) is risked  # displaced toward its edge after the risk
    moved = [e for e in items if isinstance(e.event, E.UnitMoved)][0]
    assert [s.values["option"] for s in moved.ruling.steps if s.rule == GENERAL_PASS] == [option]


def _two_guns(option):
    """player-1's two light artillery units, each with player-2's infantry 4 UW ahead."""
    from .scripts import duel

    return duel([("light_artillery", 8, 10, 90), ("light_artillery", 20, 10, 90)],
                [(INF, 8, 14.5, 270), (INF, 20, 14.5, 270)], choices={BOMBARD: option})


def test_smoke_choice_bombard_may_lets_a_gun_decline():
    """SMOKE-CHOICE-BOMBARD may: one gun aims, the other declines; the roll's ruling cites the choice."""
    from domain.smoke import commands as C

    g = _two_guns("may")
    g.do(P1, C.Aim(unit="P1-01", target="P2-01"))
    assert C.Bombard() in g.rs.legal_commands(g.state, P1)
    items = g.do(P1, C.Bombard())
    rolled = [e for e in items if isinstance(e.event, E.BombardmentRolled)][0]
    assert [s["unit"] for s in rolled.event.shots] == ["P1-01"]
    assert [s.values["option"] for s in rolled.ruling.steps if s.rule == BOMBARD] == ["may"]


def test_smoke_choice_bombard_must_makes_every_gun_aim():
    """SMOKE-CHOICE-BOMBARD must: the same bombardment is refused citing the choice until P1-02 aims too."""
    from domain.kernel import RuleViolation
    from domain.smoke import commands as C

    g = _two_guns("must")
    assert C.Bombard() not in g.rs.legal_commands(g.state, P1)
    g.do(P1, C.Aim(unit="P1-01", target="P2-01"))
    with pytest.raises(RuleViolation) as e:
        g.do(P1, C.Bombard())
    assert e.value.rule == BOMBARD and "P1-02" in e.value.detail
    g.do(P1, C.Aim(unit="P1-02", target="P2-02"))
    items = g.do(P1, C.Bombard())
    rolled = [e for e in items if isinstance(e.event, E.BombardmentRolled)][0]
    assert [s["unit"] for s in rolled.event.shots] == ["P1-01", "P1-02"]
    assert not any(s.rule == BOMBARD for s in rolled.ruling.steps)  # every gun bombards: both readings agree


@pytest.mark.parametrize("option,lost", [("all", 0), ("landing", 1)])
def test_smoke_choice_irregular(option, lost):
    """SMOKE-CHOICE-IRREGULAR: Cossacks (Irregular) retreat into an enemy and are destroyed: no morale lost under
    "all", their morale loss under "landing"."""
    from domain.smoke.choices import IRREGULAR
    from domain.smoke.retreat import execute_retreat

    from .test_rules import _retreating

    st = table_state([(P1, "cossacks", Box(10, 10, 90, 1, 0.75)), (P2, INF, Box(10, 7.0, 270, 1, 0.5)),
                      (P2, INF, Box(20, 19, 270, 1, 0.5))], choices={IRREGULAR: option})
    out = out_for(_retreating(st, "P1-01", 3.0))
    execute_retreat(out, "P1-01", "back", "battle")
    lost_events = [e.event for e in out.items if isinstance(e.event, E.MoraleLost)]
    assert len(lost_events) == lost
    if lost:
        assert lost_events[0].amount == profile_of(st, st.units["P1-01"]).morale_loss > 0
    destroyed = [e for e in out.items if isinstance(e.event, E.UnitDestroyed)][0]
    assert [s.values["option"] for s in destroyed.ruling.steps if s.rule == IRREGULAR] == [option]


def _around(option):
    """player-1's Cossacks (complex speed 3) at (10, 8) and player-2's infantry at (10, 9.6) just ahead: going
    1.2 UW east, then 1.5 UW north, the Cossacks pass beside the infantry (2.7 UW of path); the straight vector
    (1.2, 1.5) to the same end would cut through its corner."""
    from domain.smoke import commands as C

    from .scripts import duel

    g = duel([("cossacks", 10, 8, 90)], [(INF, 10, 9.6, 270), (INF, 25, 19, 270)],
             commanders1=((10.0, 6.0),), choices={COMPLEX_PATH: option})
    g.do(P1, C.PlaceDie(die=0, slot="A1"))
    g.do(P1, C.EndPlacement())
    cid = next(c.id for c in g.state.commanders.values() if c.seat == P1)
    g.do(P1, C.Activate(slot="A1", die=0, commander=cid, unit="P1-01"))
    return g, C


def test_smoke_choice_complex_path_straight_refuses_a_path():
    """SMOKE-CHOICE-COMPLEX-PATH straight: the path around is refused citing the choice; the straight vector to
    the same end passes through the enemy (SMOKE-MOVE-5)."""
    from domain.kernel import RuleViolation

    g, C = _around("straight")
    with pytest.raises(RuleViolation) as e:
        g.do(P1, C.Move(unit="P1-01", kind="complex", vector=(1.2, 1.5), via=((1.2, 0.0),)))
    assert e.value.rule == COMPLEX_PATH and e.value.values["field"] == "via"
    with pytest.raises(RuleViolation) as e:
        g.do(P1, C.Move(unit="P1-01", kind="complex", vector=(1.2, 1.5)))
    assert e.value.rule == "SMOKE-MOVE-5"
    assert (g.state.units["P1-01"].x, g.state.units["P1-01"].y) == (10, 8)


def test_smoke_choice_complex_path_path_goes_around():
    """SMOKE-CHOICE-COMPLEX-PATH path: the same move goes around the infantry and ends at (11.2, 9.5); the
    ruling cites the choice; a path longer than the complex speed is refused."""
    from domain.kernel import RuleViolation

    g, C = _around("path")
    with pytest.raises(RuleViolation) as e:  # 1.2 + 1.5 + 1.0 = 3.7 UW > 3
        g.do(P1, C.Move(unit="P1-01", kind="complex", vector=(2.2, 1.5), via=((1.2, 0.0), (1.2, 1.5))))
    assert e.value.rule == "SMOKE-MOVE-4"
    items = g.do(P1, C.Move(unit="P1-01", kind="complex", vector=(1.2, 1.5), via=((1.2, 0.0),)))
    u = g.state.units["P1-01"]
    assert (round(u.x, 6), round(u.y, 6)) == (11.2, 9.5)
    moved = [e for e in items if isinstance(e.event, E.UnitMoved)][0]
    assert moved.event.distance == pytest.approx(2.7)
    assert [s.values["option"] for s in moved.ruling.steps if s.rule == COMPLEX_PATH] == ["path"]


def test_the_complex_move_template_offers_via_under_path_only():
    """The page's drag follows the choice through the template: a `via` bound under "path" only."""
    for option, has_via in (("straight", False), ("path", True)):
        g, C = _around(option)
        tpl = next(t for t in g.rs.command_templates(g.state, P1) if t["command"].get("kind") == "complex")
        assert ("via" in tpl["bounds"]) is has_via and (COMPLEX_PATH in tpl["rules"]) is has_via
