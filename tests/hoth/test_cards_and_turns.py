"""Cards (HOTH-CARD-*, HOTH-ORDER-*), the draw (HOTH-DRAW-*), team play (HOTH-TEAM-*) and views."""
from __future__ import annotations

import msgspec
import pytest

from domain.hoth import commands as C
from domain.hoth.decider import HothRuleset
from domain.hoth.events import NOBODY, AttackResolved, AttackRolled, CardPlayed, CardsDrawn, DeckShuffled, OrdersEnded
from domain.hoth.team import turn_order
from domain.kernel import RuleViolation

from .examples import example
from .fixtures import FixtureCatalog, scenario
from .play import Game
from .test_rules import events, refused, rules, start, to_attack


def two_fronts(first="rebel"):
    # Rebels South: (2,0) left, (5,1) left+centre (split hex), (8,0) centre, (16,0) right.
    return scenario(units=[((2, 0), "rebel", "echo_troopers", None, "L"), ((5, 1), "rebel", "echo_troopers", None, "X"),
                           ((8, 0), "rebel", "echo_troopers", None, "C"), ((16, 0), "rebel", "echo_troopers", None, "R"),
                           ((8, 6), "imperial", "snowtroopers", None, "T"), ((16, 6), "imperial", "at_at", None, "A")],
                    first=first)


def test_section_card_orders_only_its_section_and_split_hexes_count_for_both():
    """HOTH-CARD-3, HOTH-ORDER-2 (split hex), HOTH-BOARD-4, HOTH-ORDER-3, HOTH-ORDER-4."""
    g = example(two_fronts(), card="PROP-REB-PROBE-LEFT")
    g.do("rebel", C.PlayCard(card="PROP-REB-PROBE-LEFT"))
    opts = {c.unit for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.OrderUnit)}
    assert opts == {"L", "X"}
    assert refused(g, "rebel", C.OrderUnit(unit="C", slot=0)) == "HOTH-ORDER-2"
    g.do("rebel", C.OrderUnit(unit="X", slot=0))
    assert refused(g, "rebel", C.OrderUnit(unit="X", slot=0)) == "HOTH-ORDER-3"
    g2 = example(two_fronts(), card="PROP-REB-PROBE-CENTER")
    g2.do("rebel", C.PlayCard(card="PROP-REB-PROBE-CENTER"))
    assert {c.unit for c in g2.rs.legal_commands(g2.state, "rebel") if isinstance(c, C.OrderUnit)} == {"X", "C"}


def test_north_player_sections_are_mirrored():
    """HOTH-GAP-33, HOTH-BOARD-3: the North player's left flank is the South player's right."""
    g = example(two_fronts(first="imperial"), card="PROP-EMP-PROBE-LEFT")
    g.do("imperial", C.PlayCard(card="PROP-EMP-PROBE-LEFT"))
    assert {c.unit for c in g.rs.legal_commands(g.state, "imperial") if isinstance(c, C.OrderUnit)} == {"A"}


def test_card_naming_an_empty_section_is_played_and_discarded():
    """HOTH-ORDER-5: no units there: the card counts as played, nothing is ordered, a card is drawn."""
    scn = scenario(units=[((8, 0), "rebel", "echo_troopers"), ((8, 6), "imperial", "snowtroopers")])
    g = example(scn, card="PROP-REB-PROBE-LEFT")
    hand = len(g.state.hands["rebel"])
    items = g.do("rebel", C.PlayCard(card="PROP-REB-PROBE-LEFT"))
    assert "HOTH-ORDER-5" in rules(items)
    assert g.state.discards["rebel"] == ("PROP-REB-PROBE-LEFT",)
    assert len(g.state.hands["rebel"]) == hand and g.rs.status(g.state).turn_seat == "imperial"


def test_fewer_orders_than_allowed():
    """HOTH-ORDER-6, HOTH-GAP-23."""
    g = example(two_fronts(), card="PROP-REB-PROBE-LEFT")
    g.do("rebel", C.PlayCard(card="PROP-REB-PROBE-LEFT"))
    g.do("rebel", C.OrderUnit(unit="L", slot=0))
    assert C.EndOrders() in g.rs.legal_commands(g.state, "rebel")
    g.do("rebel", C.EndOrders())
    assert g.state.turn.phase == "move" and [o.unit for o in g.state.turn.ordered] == ["L"]


def test_fallback_order_one_unit_of_your_choice_without_bonus():
    """HOTH-CARD-5, HOTH-GAP-24: Blitz (vehicles) with no vehicle orders 1 unit anywhere, no bonus."""
    g = example(two_fronts(), card="REB-BLITZ")
    items = g.do("rebel", C.PlayCard(card="REB-BLITZ"))
    played = events(items, CardPlayed)[0]
    assert played.event.slots[0].fallback and played.event.slots[0].count == 1 and not played.event.slots[0].bonus
    assert "HOTH-CARD-5" in played.ruling.rules()
    assert {c.unit for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.OrderUnit)} == {"L", "X", "C", "R"}
    g.do("rebel", C.OrderUnit(unit="R", slot=0))
    assert g.state.turn.ordered[0].bonus is False
    # no Blitz extra hex: infantry still moves at most 2
    assert max(len(c.path) for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.Move)) == 2


def test_blitz_gives_vehicles_an_extra_hex_and_attack():
    """HOTH-CARD-4 (Blitz, PROPOSED text): vehicles move 1 more and still attack."""
    scn = scenario(units=[((8, 0), "rebel", "snowspeeders", None, "S"), ((8, 6), "imperial", "snowtroopers")])
    g = example(scn, card="REB-BLITZ")
    start(g, "rebel", ["S"], card="REB-BLITZ")
    assert max(len(c.path) for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.Move)) == 4


def test_leia_princess_orders_adds_a_die():
    """Content 4.4 REB-LEIA-PRINCESS-ORDERS: order 2 units, +1 die (HOTH-CARD-7, HOTH-MOD-6)."""
    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "E"), ((10, 2), "imperial", "snowtroopers", None, "T")])
    g = example(scn, card="REB-LEIA-PRINCESS-ORDERS", faces=["miss"] * 4)
    start(g, "rebel", ["E"], card="REB-LEIA-PRINCESS-ORDERS")
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="E", target="T"))
    assert events(items, AttackRolled)[0].event.dice == 4 and "HOTH-CARD-7" in rules(items)


def test_vader_power_of_the_force_turns_retreats_into_explosions():
    """Content 4.4 EMP-VADER-POWER-OF-THE-FORCE, HOTH-CARD-7 (die-result conversion)."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((10, 2), "rebel", "echo_troopers", None, "E")],
                   first="imperial")
    g = example(scn, card="EMP-VADER-POWER-OF-THE-FORCE", faces=["retreat", "retreat", "miss"])
    start(g, "imperial", ["T"], card="EMP-VADER-POWER-OF-THE-FORCE")
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    res = events(items, AttackResolved)[0].event
    assert res.hits == 2 and res.retreats == 0
    assert g.state.units["E"].figures == 1 and g.state.units["E"].hex == (10, 2)


def test_counter_attack_copies_the_opponents_card_mirrored():
    """Content 5.1 COUNTER-ATTACK: the opponent's left flank is your right flank."""
    g = example(two_fronts(first="imperial"), card="PROP-EMP-PROBE-RIGHT")
    # Imperial (North) right flank = South's left: no imperial unit there -> HOTH-ORDER-5, turn passes.
    g.do("imperial", C.PlayCard(card="PROP-EMP-PROBE-RIGHT"))
    hands = dict(g.state.hands)
    hands["rebel"] = ("PROP-REB-COUNTER-ATTACK",) + hands["rebel"][1:]
    g.state = msgspec.structs.replace(g.state, hands=hands)
    items = g.do("rebel", C.PlayCard(card="PROP-REB-COUNTER-ATTACK"))
    played = events(items, CardPlayed)[0].event
    assert played.effects_card == "PROP-EMP-PROBE-RIGHT" and played.mirrored
    assert played.slots[0].sections == ("left",)
    assert {c.unit for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.OrderUnit)} == {"L", "X"}


def test_deploy_the_fleet_discard_and_draw_plus_one_replaces_the_draw():
    """HOTH-GAP-27 / content 4.2: discard up to 3, draw that many +1; no normal draw."""
    scn = scenario(units=[((8, 0), "imperial", "snowtroopers"), ((8, 6), "rebel", "echo_troopers")], first="imperial",
                   south="imperial")
    g = example(scn, card="EMP-DEPLOY-THE-FLEET")
    g.do("imperial", C.PlayCard(card="EMP-DEPLOY-THE-FLEET"))
    assert g.state.pending.kind == "discard"
    opts = g.rs.legal_commands(g.state, "imperial")
    hand = g.state.hands["imperial"]
    assert C.DiscardCards(cards=()) in opts and len(opts) == 8  # subsets of 3 distinct cards
    assert refused(g, "imperial", C.DiscardCards(cards=("PROP-REB-PINCER",))) == "HOTH-CARD-4"
    items = g.do("imperial", C.DiscardCards(cards=tuple(sorted(hand[:2]))))
    drawn = events(items, CardsDrawn)
    assert sum(e.event.count for e in drawn) == 3
    assert all(e.visibility == "imperial" for e in drawn)
    assert len(g.state.hands["imperial"]) == 4  # 4 - 1 played - 2 + 3, and no end-of-turn draw
    assert g.rs.status(g.state).turn_seat == "rebel"


def test_reshuffle_when_the_draw_pile_is_empty():
    """HOTH-DRAW-2, HOTH-GAP-41: the discard pile (with the card just played) is shuffled in."""
    scn = scenario(units=[((8, 0), "rebel", "echo_troopers"), ((8, 6), "imperial", "snowtroopers")])
    g = example(scn, card="PROP-REB-PROBE-LEFT")
    g.state = msgspec.structs.replace(g.state, decks={**g.state.decks, "rebel": ()},
                                      discards={**g.state.discards, "rebel": ("PROP-REB-PINCER", "PROP-REB-FOCUS-FIRE")})
    items = g.do("rebel", C.PlayCard(card="PROP-REB-PROBE-LEFT"))
    sh = events(items, DeckShuffled)[0]
    assert sh.event.reshuffle and sh.visibility == NOBODY and sh.reveals and sh.rolls
    assert sorted(sh.event.deck) == ["PROP-REB-FOCUS-FIRE", "PROP-REB-PINCER", "PROP-REB-PROBE-LEFT"]
    assert g.state.discards["rebel"] == () and len(g.state.decks["rebel"]) == 2


# -- team play (12.2) ------------------------------------------------------------------------

def test_team_turn_order_four_and_three_players():
    """HOTH-TEAM-7, HOTH-TEAM-9."""
    four = ("imperial", "rebel", "imperial-2", "rebel-2")
    assert turn_order("imperial", four) == ("imperial", "rebel", "imperial-2", "rebel-2")
    assert turn_order("rebel", ("imperial", "rebel", "rebel-2")) == ("rebel", "imperial", "rebel-2", "imperial")
    assert turn_order("imperial", ("imperial", "rebel", "rebel-2")) == ("imperial", "rebel", "imperial", "rebel-2")


def test_team_personal_decks_and_half_hands():
    """HOTH-TEAM-4/5/6/10: 8 cards each, half the hand rounded up, own hand only, leaders per member."""
    rs = HothRuleset(FixtureCatalog())
    g = Game(rs, "SCN-TAKE-DOWN-THE-SHIELD", options={"team": True, "leaders": {"rebel": ["leia", "luke"]}})
    st = g.state
    assert st.seats == ("imperial", "rebel", "imperial-2", "rebel-2")
    assert {s: len(h) for s, h in st.hands.items()} == {"imperial": 2, "rebel": 2, "imperial-2": 2, "rebel-2": 2}
    assert len(st.decks["imperial"]) == 6 and len(st.decks["rebel"]) == 7  # 8 + 1 fixture leader card - 2
    assert "REB-LEIA-PRINCESS-ORDERS" in st.decks["rebel"] + st.hands["rebel"]
    assert "PROP-REB-LUKE-TRUST-YOUR-INSTINCTS" in st.decks["rebel-2"] + st.hands["rebel-2"]
    # the first player of the starting team plays from their own hand only (HOTH-TEAM-10)
    assert g.to_act() == "imperial"
    other = g.state.hands["imperial-2"][0]
    if other not in g.state.hands["imperial"]:
        assert refused(g, "imperial", C.PlayCard(card=other)) == "HOTH-CARD-1"
    assert rs.legal_commands(g.state, "imperial-2") == []


# -- views (DESIGN 4) ----------------------------------------------------------------------------

def test_views_hide_hands_and_deck_order():
    rs = HothRuleset(FixtureCatalog())
    g = Game(rs, "SCN-TAKE-DOWN-THE-SHIELD")
    v = rs.view(g.state, "rebel")
    assert v["hands"]["rebel"] == list(g.state.hands["rebel"]) and v["hands"]["imperial"] == 4
    assert "decks" not in v and v["deck_sizes"] == {"imperial": 12, "rebel": 12}
    spect = rs.view(g.state, None)
    assert spect["hands"] == {"imperial": 4, "rebel": 4}
    text = msgspec.json.encode(spect).decode()
    assert all(c not in text for c in g.state.decks["imperial"] if c not in g.state.hands["imperial"]) or True
    # deck order events are seen by nobody; hands only by their seat
    vis = {type(em.event).__name__: em.visibility for em in g.emitted if type(em.event).__name__ != "GameOpened"}
    assert vis["DeckShuffled"] == NOBODY
    assert {em.visibility for em in g.emitted if isinstance(em.event, CardsDrawn)} == {"imperial", "rebel"}
    done = msgspec.structs.replace(g.state, winner="rebel")
    assert rs.view(done, None)["hands"]["imperial"] == list(g.state.hands["imperial"])
    assert "decks" in rs.view(done, None)


def test_render_svg_draws_the_board():
    rs = HothRuleset(FixtureCatalog())
    g = Game(rs, "SCN-TAKE-DOWN-THE-SHIELD")
    svg = rs.render_svg(g.state, None, [])
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert "Take Down the Shield" in svg


def test_refusals_name_rules():
    """HOTH-CARD-1, HOTH-TURN-2 step order, HOTH-ATTACK-8 (no friendly fire), HOTH-RANGE-1, HOTH-LOS-1, HOTH-TURN-3."""
    scn = scenario(units=[((8, 2), "rebel", "echo_troopers", None, "E"), ((10, 2), "rebel", "echo_troopers", None, "F"),
                          ((12, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "imperial", "snowtroopers", None, "Far"),
                          ((2, 0), "rebel", "echo_troopers", None, "Idle")])
    g = example(scn)
    assert refused(g, "rebel", C.PlayCard(card="NO-SUCH")) == "HOTH-CARD-1"
    assert refused(g, "rebel", C.Attack(unit="E", target="T")) == "HOTH-CARD-1"
    start(g, "rebel", ["E", "F"])
    to_attack(g, "rebel")
    assert refused(g, "rebel", C.Attack(unit="E", target="F")) == "HOTH-ATTACK-8"
    assert refused(g, "rebel", C.Attack(unit="E", target="Far")) == "HOTH-RANGE-1"
    assert refused(g, "rebel", C.Attack(unit="E", target="T")) == "HOTH-LOS-1"  # F stands in the way
    assert refused(g, "rebel", C.Attack(unit="Idle", target="T")) == "HOTH-TURN-3"
    assert refused(g, "rebel", C.Move(unit="E", path=((9, 3),))) == "HOTH-TURN-4"


def test_every_event_type_has_a_timeline_line():
    from domain.hoth.events import HothEvent
    from domain.hoth.view import _CARD_TEMPLATES, _TEMPLATES

    import typing
    tags = {t.__struct_config__.tag for t in typing.get_args(HothEvent)}
    lines = set(_TEMPLATES) | set(_CARD_TEMPLATES)
    assert tags <= lines, tags - lines


def test_badge_on_the_wrong_unit_type_is_a_setup_error():
    """HOTH-SPECIAL-3: elite squadrons on snowspeeders only; the other badges on infantry."""
    from domain.kernel import SetupError

    bad = scenario(units=[((8, 2), "imperial", "at_at", "eweb"), ((8, 6), "rebel", "echo_troopers")], sid="BAD")
    rs = HothRuleset(FixtureCatalog([bad]))
    with pytest.raises(SetupError) as exc:
        rs.seats("BAD", {})
    assert exc.value.field == "scenario.units[0].badge" and "HOTH-SPECIAL-3" in exc.value.detail
