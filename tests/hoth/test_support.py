"""Support cards (content 3.1, 5.3 PROPOSED stand-ins): one per turn, in addition to the command card."""
from __future__ import annotations

import msgspec
import pytest

from domain.hoth import commands as C
from domain.hoth.cards import (
    Bombard, Card, DamagedUnit, EnemyDicePenalty, Heal, IgnoreAllRetreats, Reroll, TreatAsTerrain,
)
from domain.hoth.decider import HothRuleset
from domain.hoth.events import Bombarded, DiceRerolled, RetreatIgnored, SupportDealt, SupportPlayed, UnitHealed
from domain.kernel import SetupError

from .examples import example
from .fixtures import scenario
from .test_rules import events, refused, rules, start, to_attack

MEDIC = Card(id="PROP-SUP-REB-MEDICAL-TEAM", faction="rebel", kind="support", status="proposed", title="Medical Team",
             timing="start_of_turn", conditions=(DamagedUnit(),), effects=(Heal(figures=1),))
DUG_IN = Card(id="PROP-SUP-REB-DUG-IN", faction="rebel", kind="support", status="proposed", title="Dug In",
              timing="start_of_turn", effects=(TreatAsTerrain(terrain="trench"),))
ION = Card(id="PROP-SUP-REB-ION-CANNON-SHOT", faction="rebel", kind="support", status="proposed",
           title="Ion Cannon Shot", timing="start_of_turn", effects=(Bombard(dice=3, target_unit_types=("at_at",)),))


def with_support(g, *cards):
    st = g.state
    g.state = msgspec.structs.replace(st, cards={**st.cards, **{c.id: c for c in cards}},
                                      support={"rebel": tuple(c.id for c in cards)})
    return g


def test_medical_team_heals_and_only_one_support_card_per_turn():
    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "E"), ((16, 6), "imperial", "snowtroopers")])
    g = example(scn)
    units = dict(g.state.units)
    units["E"] = msgspec.structs.replace(units["E"], figures=1)
    g.state = msgspec.structs.replace(g.state, units=units)
    with_support(g, MEDIC, DUG_IN)
    opts = [c for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.PlaySupport)]
    assert C.PlaySupport(card=MEDIC.id, target="E") in opts and C.PlaySupport(card=DUG_IN.id, target="E") in opts
    items = g.do("rebel", C.PlaySupport(card=MEDIC.id, target="E"))
    assert events(items, UnitHealed)[0].event.figures == 1 and g.state.units["E"].figures == 2
    assert not any(isinstance(c, C.PlaySupport) for c in g.rs.legal_commands(g.state, "rebel"))
    assert refused(g, "rebel", C.PlaySupport(card=DUG_IN.id, target="E")) == "HOTH-CARD-4"
    assert g.state.support["rebel"] == (DUG_IN.id,)


def test_dug_in_counts_as_a_trench():
    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "E"), ((10, 2), "imperial", "snowtroopers", None, "T"),
                          ((0, 0), "rebel", "echo_troopers")], first="rebel")
    g = example(scn, faces=["miss", "miss"])
    with_support(g, DUG_IN)
    g.do("rebel", C.PlaySupport(card=DUG_IN.id, target="E"))
    g.do("rebel", C.PlayCard(card=g.state.hands["rebel"][0]))
    while g.rs.status(g.state).turn_seat == "rebel":
        cmds = g.rs.legal_commands(g.state, "rebel")
        g.do("rebel", next((c for c in cmds if type(c).__name__.startswith("End")), cmds[0]))
    hands = dict(g.state.hands)
    hands["imperial"] = ("TEST-EMP-ORDER-ANY",) + hands["imperial"][1:]
    g.state = msgspec.structs.replace(g.state, hands=hands)
    start(g, "imperial", ["T"], card="TEST-EMP-ORDER-ANY")
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    assert "HOTH-TERRAIN-TRENCH-2" in rules(items)


def test_ion_cannon_shot_bombards_an_atat_with_confirmation():
    scn = scenario(units=[((0, 0), "rebel", "echo_troopers"), ((10, 6), "imperial", "at_at", None, "A"),
                          ((16, 6), "imperial", "snowtroopers")])
    g = example(scn, faces=["explosion", "miss", "miss", "explosion"])
    with_support(g, ION)
    assert [c for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.PlaySupport)] == \
        [C.PlaySupport(card=ION.id, target="A")]
    items = g.do("rebel", C.PlaySupport(card=ION.id, target="A"))
    b = events(items, Bombarded)[0]
    assert b.event.hits == 1 and b.event.confirmation == ("explosion",) and b.event.eliminated
    assert g.state.medals["rebel"] == 1


def test_support_option_is_validated_and_dealt_privately():
    from scenarios.hoth import shipped

    rs = HothRuleset(shipped())
    with pytest.raises(SetupError):
        rs.seats("SCN-TAKE-DOWN-THE-SHIELD", {"support": {"rebel": ["PROP-SUP-EMP-PROBE-INTEL"]}})
    from .play import Game

    g = Game(rs, "SCN-TAKE-DOWN-THE-SHIELD", options={"support": {"rebel": ["PROP-SUP-REB-DUG-IN"]}})
    dealt = [em for em in g.emitted if isinstance(em.event, SupportDealt)]
    assert dealt[0].visibility == "rebel" and "cards" in SupportDealt.private
    assert rs.view(g.state, "imperial")["support"] == {"rebel": 1}
    assert rs.view(g.state, "rebel")["support"] == {"rebel": ["PROP-SUP-REB-DUG-IN"]}
    # the public opening lists every support card definition, not just the held ones
    opened = g.events[0]
    sup_ids = {c.id for c in opened.cards if c.kind == "support"}
    assert sup_ids == {k for k, c in rs.catalog().cards.items() if c.kind == "support"}


COVER = Card(id="PROP-SUP-REB-COVERING-FIRE", faction="rebel", kind="support", status="proposed", title="Covering Fire",
             timing="on_enemy_attack", effects=(EnemyDicePenalty(dice=1),))
DISCIPLINE = Card(id="PROP-SUP-EMP-IMPERIAL-DISCIPLINE", faction="imperial", kind="support", status="proposed",
                  title="Imperial Discipline", timing="on_own_retreat",
                  effects=(IgnoreAllRetreats(),))
GUNNERS = Card(id="PROP-SUP-EMP-VETERAN-GUNNERS", faction="imperial", kind="support", status="proposed",
               title="Veteran Gunners", timing="on_own_attack",
               effects=(Reroll(which="any"),))


def _support(g, faction, *cards):
    st = g.state
    g.state = msgspec.structs.replace(st, cards={**st.cards, **{c.id: c for c in cards}},
                                      support={**st.support, faction: tuple(c.id for c in cards)})


def test_covering_fire_reacts_to_a_declared_attack():
    """Content 5.3 Covering Fire (on_enemy_attack): the defender decides before the roll; -1 die."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((10, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn, faces=["miss", "miss"])
    _support(g, "rebel", COVER)
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    g.do("imperial", C.Attack(unit="T", target="E"))
    assert g.state.pending.kind == "support" and g.rs.status(g.state).to_act == ("rebel",)
    assert g.rs.legal_commands(g.state, "rebel") == [C.PlaySupport(card=COVER.id), C.PassSupport()]
    items = g.do("rebel", C.PlaySupport(card=COVER.id))
    rolled = [e for e in items if type(e.event).__name__ == "AttackRolled"][0]
    assert rolled.event.dice == 2 and "HOTH-CARD-4" in rolled.ruling.rules()
    assert g.state.support["rebel"] == ()


def test_imperial_discipline_ignores_all_retreats_and_veteran_gunners_rerolls():
    """Content 5.3: on_own_retreat (defender) and on_own_attack (attacker) windows."""
    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((10, 2), "imperial", "snowtroopers", None, "T"),
                          ((16, 6), "imperial", "snowtroopers")])
    g = example(scn, faces=["retreat", "retreat", "miss", "miss"])
    _support(g, "imperial", DISCIPLINE, GUNNERS)
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    g.do("rebel", C.Attack(unit="S", target="T"))
    # content 3.1 (review fix, item 9): the defender holds support cards, so the declared attack opens a window
    # even though none of its cards reacts to it; only passing is legal
    assert g.state.pending.which == "on_enemy_attack" and g.rs.legal_commands(g.state, "imperial") == [C.PassSupport()]
    g.do("imperial", C.PassSupport())
    assert g.state.pending.kind == "support" and g.state.pending.which == "on_own_retreat"
    items = g.do("imperial", C.PlaySupport(card=DISCIPLINE.id))
    assert events(items, RetreatIgnored)[0].event.count == 2
    assert g.state.units["T"].hex == (10, 2)


def test_veteran_gunners_reroll_plays_the_card():
    """Content 5.3 Veteran Gunners (on_own_attack): re-rolling with it plays it; keeping the roll does not."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((10, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn, faces=["miss", "miss", "miss", "infantry"])
    _support(g, "imperial", GUNNERS)
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    g.do("imperial", C.Attack(unit="T", target="E"))
    assert g.state.pending.kind == "reroll" and g.state.pending.cards == (GUNNERS.id,)
    items = g.do("imperial", C.Reroll(dice=(2,)))
    assert events(items, SupportPlayed)[0].event.card == GUNNERS.id
    assert events(items, DiceRerolled)[0].event.faces == ("miss", "miss", "infantry")
    assert g.state.units["E"].figures == 2 and g.state.support["imperial"] == ()


def test_own_turn_support_card_keeps_the_turn_open():
    """Content 5.3 Orbital Barrage (own_turn, no shield generator): still playable when no attack is left."""
    from domain.hoth.cards import NoStructure

    barrage = Card(id="PROP-SUP-EMP-ORBITAL-BARRAGE", faction="imperial", kind="support", status="proposed",
                   title="Orbital Barrage", timing="own_turn", conditions=(NoStructure(kind="shield_generator"),),
                   effects=(Bombard(dice=2),))
    scn = scenario(units=[((0, 6), "imperial", "snowtroopers", None, "T"), ((18, 0), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn, faces=["explosion", "infantry"])
    _support(g, "imperial", barrage)
    start(g, "imperial", ["T"])
    to_attack(g, "imperial")
    assert g.rs.status(g.state).turn_seat == "imperial" and g.state.turn.phase == "attack"
    assert g.rs.legal_commands(g.state, "imperial") == [C.PlaySupport(card=barrage.id, target="E"), C.EndTurn()]
    items = g.do("imperial", C.PlaySupport(card=barrage.id, target="E"))
    assert events(items, Bombarded)[0].event.losses == 2 and g.state.units["E"].figures == 1
    assert g.rs.status(g.state).turn_seat == "rebel"  # nothing left to do: the turn ended


def test_a_support_window_never_writes_the_offered_cards_into_the_log():
    """UMPIRE-SEAL-3: a window's cards are the side's support cards, which a campaign side keeps into the next
    battle; the log (public once the battle ends, its private parts brute-forceable from the revealed seed)
    must not list them: the fold derives them, so the window still offers exactly the side's reactive cards."""
    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((10, 2), "imperial", "snowtroopers", None, "T"),
                          ((16, 6), "imperial", "snowtroopers")])
    g = example(scn, faces=["retreat", "retreat", "miss", "miss"])
    _support(g, "imperial", DISCIPLINE, GUNNERS)
    start(g, "rebel", ["S"])
    to_attack(g, "rebel")
    logged = list(g.do("rebel", C.Attack(unit="S", target="T")))
    logged += g.do("imperial", C.PassSupport())
    assert g.state.pending.which == "on_own_retreat" and g.state.pending.cards == (DISCIPLINE.id,)
    assert g.rs.legal_commands(g.state, "imperial") == [C.PlaySupport(card=DISCIPLINE.id), C.PassSupport()]
    windows = [e for e in logged if type(e.event).__name__ == "DecisionPending"]
    assert len(windows) == 2
    text = msgspec.json.encode([[e.event, e.ruling] for e in windows]).decode()
    assert DISCIPLINE.id not in text and GUNNERS.id not in text, text
    # nor does a view of another seat, even of a finished game (a past state: GET /states/{seq})
    assert "cards" not in g.rs.view(g.state, "rebel", reveal_all=True)["pending"]
    assert "cards" not in g.rs.view(g.state, None, reveal_all=True)["pending"]
    assert list(g.rs.view(g.state, "imperial")["pending"]["cards"]) == [DISCIPLINE.id]
