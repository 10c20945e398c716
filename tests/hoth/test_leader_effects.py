"""Leader-card effects of content 5.2 (PROPOSED texts) through the effect vocabulary (HOTH-CARD-4/7)."""
from __future__ import annotations

import msgspec

from domain.hoth import commands as C
from domain.hoth.events import AttackResolved, CardsDrawn, DecisionPending, DeckArranged, RetreatIgnored, UnitPlaced

from .examples import example
from .fixtures import ORDER_ANY, scenario
from .test_rules import events, refused, rules, start, to_attack


def _give(g, seat, card):
    hands = dict(g.state.hands)
    hands[seat] = (card,) + tuple(hands[seat][1:])
    g.state = msgspec.structs.replace(g.state, hands=hands)


def test_hold_the_line_ignores_a_retreat_until_the_next_turn():
    """PROP-REB-LEIA-HOLD-THE-LINE (card effect ignore_retreat, until your next turn)."""
    scn = scenario(units=[((9, 3), "rebel", "echo_troopers", None, "E"), ((10, 4), "imperial", "snowtroopers", None, "T"),
                          ((0, 0), "rebel", "echo_troopers")], first="rebel")
    g = example(scn, card="PROP-REB-LEIA-HOLD-THE-LINE", faces=["retreat", "retreat", "miss"])
    g.do("rebel", C.PlayCard(card="PROP-REB-LEIA-HOLD-THE-LINE"))
    g.do("rebel", C.OrderUnit(unit="E", slot=0))
    g.do("rebel", C.EndOrders())
    to_attack(g, "rebel")
    if g.state.turn.seat == "rebel":
        g.do("rebel", C.EndTurn())
    assert g.state.lasting and g.state.lasting[0].unit == "E"
    _give(g, "imperial", ORDER_ANY["imperial"].id)
    start(g, "imperial", ["T"], card=ORDER_ANY["imperial"].id)
    to_attack(g, "imperial")
    items = g.do("imperial", C.Attack(unit="T", target="E"))
    ig = events(items, RetreatIgnored)[0]
    assert ig.event.count == 1 and ig.event.reason == "HOTH-CARD-4"
    assert g.state.pending.kind == "retreat" and g.state.pending.steps == 1


def test_evacuation_draw_then_discard_exactly_one_and_no_attack():
    """PROP-REB-LEIA-EVACUATE: extra hexes towards the baseline, no attack, draw 1 then discard 1."""
    scn = scenario(units=[((9, 3), "rebel", "echo_troopers", None, "E"), ((10, 4), "imperial", "snowtroopers", None, "T")])
    g = example(scn, card="PROP-REB-LEIA-EVACUATE")
    items = g.do("rebel", C.PlayCard(card="PROP-REB-LEIA-EVACUATE"))
    assert sum(e.event.count for e in events(items, CardsDrawn)) == 1
    assert g.state.pending.kind == "discard" and g.state.pending.which == "exact"
    opts = g.rs.legal_commands(g.state, "rebel")
    assert opts and all(len(c.cards) == 1 for c in opts)
    assert refused(g, "rebel", C.DiscardCards(cards=())) == "HOTH-CARD-4"
    g.do("rebel", opts[0])
    assert len(g.state.hands["rebel"]) == 3  # 4 - 1 played + 1 drawn - 1 discarded
    g.do("rebel", C.OrderUnit(unit="E", slot=0))
    paths = [c.path for c in g.rs.legal_commands(g.state, "rebel") if isinstance(c, C.Move)]
    assert max(len(p) for p in paths) == 4
    # steps 3 and 4 go towards the Rebel baseline (row 0): rows strictly decrease
    assert all(p[3][1] < p[2][1] < p[1][1] for p in paths if len(p) == 4)
    g.do("rebel", C.Move(unit="E", path=((10, 2),)))
    assert g.rs.status(g.state).turn_seat == "imperial"  # it may not attack: the turn ended


def test_orbital_recon_rearranges_the_deck_privately():
    """PROP-EMP-PIETT-ORBITAL-RECON (arrange_top): only the seat sees the cards (DESIGN 4)."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers"), ((8, 6), "rebel", "echo_troopers")], first="imperial")
    g = example(scn, card="PROP-EMP-PIETT-ORBITAL-RECON")
    top = g.state.decks["imperial"][:3]
    items = g.do("imperial", C.PlayCard(card="PROP-EMP-PIETT-ORBITAL-RECON"))
    pend = events(items, DecisionPending)[0]
    assert pend.visibility == "imperial" and "cards" in type(pend.event).private and pend.event.cards == top
    assert "cards" not in g.rs.view(g.state, "rebel")["pending"]
    assert list(g.rs.view(g.state, "imperial")["pending"]["cards"]) == list(top)
    opts = g.rs.legal_commands(g.state, "imperial")
    assert len(opts) == len(set(__import__("itertools").permutations(top)))
    new = tuple(reversed(top))
    items = g.do("imperial", C.ArrangeDeck(order=new))
    assert events(items, DeckArranged)[0].visibility == "imperial"
    assert g.state.decks["imperial"][:3] == new


def test_reinforcements_place_a_unit_on_the_own_baseline():
    """PROP-EMP-PIETT-REINFORCEMENTS (place_unit), HOTH-FORCE-3 box limit."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers"), ((8, 0), "rebel", "echo_troopers")], first="imperial")
    g = example(scn, card="PROP-EMP-PIETT-REINFORCEMENTS")  # Rebels South: the Imperial baseline is row 6
    g.do("imperial", C.PlayCard(card="PROP-EMP-PIETT-REINFORCEMENTS"))
    opts = g.rs.legal_commands(g.state, "imperial")
    assert {c.hex for c in opts} == {(x, 6) for x in range(0, 19, 2)}
    assert refused(g, "imperial", C.Reinforce(hex=(8, 4))) == "HOTH-CARD-4"
    items = g.do("imperial", C.Reinforce(hex=(10, 6)))
    placed = events(items, UnitPlaced)[0].event
    assert g.state.units[placed.unit].hex == (10, 6) and g.state.units[placed.unit].figures == 4


def test_tow_cables_special_attack_destroys_an_atat_without_confirmation():
    """PROP-REB-LUKE-TOW-CABLES (special_attack): 3 dice, any explosion destroys the AT-AT, no confirmation."""
    scn = scenario(units=[((8, 2), "rebel", "snowspeeders", None, "S"), ((10, 2), "imperial", "at_at", None, "A"),
                          ((0, 6), "imperial", "snowtroopers")])
    g = example(scn, card="PROP-REB-LUKE-TOW-CABLES", faces=["explosion", "miss", "miss"])
    start(g, "rebel", ["S"], card="PROP-REB-LUKE-TOW-CABLES")
    to_attack(g, "rebel")
    opts = g.rs.legal_commands(g.state, "rebel")
    assert C.Attack(unit="S", target="A", special=True) in opts and C.Attack(unit="S", target="A") in opts
    items = g.do("rebel", C.Attack(unit="S", target="A", special=True))
    res = events(items, AttackResolved)[0]
    assert res.event.eliminated and res.event.confirmation == () and len(res.rolls) == 0
    assert "A" not in g.state.units and g.state.medals["rebel"] == 1
    assert "HOTH-CARD-4" in rules(items)
