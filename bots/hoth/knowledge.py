"""What a Battle of Hoth seat knows, and full engine states sampled from it (determinisation).

:class:`Knowledge` is built from a :class:`~bots.protocol.SeatInput` only: the seat's view
(``domain/hoth/view.py``) and the public log entries as the seat sees them (the opening's scenario and
card definitions, and the few public facts the view does not list: lasting card effects, units lost,
the turn a support card was last played). It never reads a state, a deck order or another hand.

:meth:`Knowledge.sample` builds a complete :class:`~domain.hoth.state.HothState` the engine can play on:
every public field as the seat sees it, and the hidden cards drawn at random from the cards the seat has
not seen -- per faction, the deck list of the opening minus the discard piles, the card in play and the
seat's own hand -- dealt into the other hands and the draw piles at the sizes the view gives; the other
faction's support cards from its support cards not yet played. The view of a sampled state for the seat
is the seat's view (tests/bots/test_knowledge.py).

Not used (INFERRED as rare enough): the top of the seat's own deck it saw through ``arrange_top``, and the
cards it saw through ``peek_hand``; both are sampled like any unseen card.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec

from domain.hoth.choices import CHOICES
from domain.kernel.choices import in_force
from domain.hoth.cards import Card, IgnoreRetreat
from domain.hoth.scenario import Scenario
from domain.hoth.state import AttackCtx, HothState, Lasting, Pending, StructureState, TurnState, UnitState, faction_of
from domain.hoth.team import faction_seats, other

from ..protocol import SeatInput

replace = msgspec.structs.replace

#: Cards dealt into decks by kind (HOTH-SETUP-9, catalog ``deck``/``leader_cards``): standard cards count
#: ``copies`` times, a leader card once.
_DECK_KINDS = ("section", "tactic")


class Opening(msgspec.Struct, frozen=True, kw_only=True):
    """The public ``game_opened`` event: the scenario and card definitions (public content)."""

    scenario: Scenario
    cards: tuple[Card, ...]
    seats: tuple[str, ...]
    turn_order: tuple[str, ...]
    unit_ids: tuple[str, ...]


_OPENINGS: dict[int, tuple[dict, Opening]] = {}


def _opening(payload: dict[str, Any]) -> Opening:
    """The decoded opening, kept while the same payload object is handed in again (in-process games)."""
    hit = _OPENINGS.get(id(payload))
    if hit is not None and hit[0] is payload:
        return hit[1]
    op = msgspec.convert(payload, Opening)
    if len(_OPENINGS) > 64:
        _OPENINGS.clear()
    _OPENINGS[id(payload)] = (payload, op)
    return op


class PublicFacts(msgspec.Struct, kw_only=True):
    """Public state fields the view does not list, folded from the public log entries."""

    lasting: tuple[Lasting, ...] = ()
    lost_units: dict[str, int] = {}
    support_turn: dict[str, int] = {}
    #: Support cards played so far, per faction (public: ``support_played``).
    support_played: dict[str, list[str]] = {}
    #: Units placed during the game, in order (``unit_placed``), after the opening's units.
    placed: list[str] = []


def public_facts(events: list[dict[str, Any]], cards: dict[str, Card], unit_faction: dict[str, str]) -> PublicFacts:
    """Fold the seat's log entries (public fields only) into :class:`PublicFacts`.

    The same steps as ``domain/hoth/evolve.py`` for these fields: ``unit_ordered`` with a card's
    ``ignore_retreat`` bonus and ``effect_added`` add lasting effects; ``turn_started`` ends those of that
    seat, ``turn_ended`` those of the turn.
    """
    f = PublicFacts(lost_units={"imperial": 0, "rebel": 0})
    lasting: list[Lasting] = []
    turn_no = 0
    turn_seat = ""
    effects_card: Card | None = None
    for e in events:
        if e.get("undone"):
            continue
        t, p = e["type"], e["payload"]
        if t == "turn_started":
            turn_no, turn_seat, effects_card = p["turn"], p["seat"], None
            lasting = [x for x in lasting if x.until_seat != turn_seat]
        elif t == "card_played":
            effects_card = cards.get(p["effects_card"])
        elif t == "unit_ordered":
            if p["bonus"] and effects_card is not None:
                for x in effects_card.effects:
                    if isinstance(x, IgnoreRetreat):
                        until = turn_seat if x.duration == "until_your_next_turn" else ""
                        lasting.append(Lasting(unit=p["unit"], effect="ignore_retreat", count=x.count,
                                               until_seat=until))
        elif t == "effect_added":
            lasting.append(Lasting(unit=p["unit"], effect=p["effect"], count=p.get("count", 1),
                                   until_seat=p["until_seat"]))
        elif t == "turn_ended":
            lasting = [x for x in lasting if x.until_seat != ""]
        elif t == "unit_eliminated":
            fac = unit_faction.get(p["unit"]) or other(p["by"])
            f.lost_units[fac] = f.lost_units.get(fac, 0) + 1
        elif t == "support_played":
            fac = faction_of(p["seat"])
            f.support_turn[fac] = turn_no
            f.support_played.setdefault(fac, []).append(p["card"])
        elif t == "unit_placed":
            f.placed.append(p["unit"])
            unit_faction[p["unit"]] = p["faction"]
    f.lasting = tuple(lasting)
    return f


class _Slot(msgspec.Struct, frozen=True):
    """Hidden cards to deal: ``n`` cards into ``where`` ("hands"/"decks"/"support") of ``owner``."""

    where: str
    owner: str
    n: int


class Knowledge:
    """A seat's knowledge at one decision, and the public part of the state with hidden cards left out."""

    def __init__(self, seat_input: SeatInput):
        v = seat_input.view
        if not v.get("opened"):
            raise ValueError("the game has not been opened yet")
        self.seat = seat_input.seat
        self.faction = faction_of(self.seat)
        opening_entry = next((e for e in seat_input.events if e["type"] == "game_opened"), None)
        if opening_entry is None:
            raise ValueError("the hoth bots read the game's log from its first event (game_opened)")
        op = _opening(opening_entry["payload"])
        self.opening = op
        cards = {c.id: c for c in op.cards}
        unit_faction = {uid: us.faction for uid, us in zip(op.unit_ids, op.scenario.units)}
        facts = public_facts(seat_input.events, cards, unit_faction)
        self.facts = facts
        order = {uid: i for i, uid in enumerate([*op.unit_ids, *facts.placed])}
        units = sorted(v["units"], key=lambda u: order.get(u["id"], len(order)))
        turn_no = v["turn_number"]
        turn_order = tuple(v["turn_order"])
        # DESIGN 14: the rule choices in force, from the game's header (event 1; public)
        header = next((e for e in seat_input.events if e["type"] == "game_created"), None)
        choices = in_force(CHOICES, (header or {}).get("payload", {}).get("choices"))
        self.base = HothState(
            game_id=seat_input.game_id, scenario_id=v["scenario_id"], seats=op.seats, options={}, opened=True,
            choices=choices,
            scenario=op.scenario, cards=cards,
            units={u["id"]: msgspec.convert(u, UnitState) for u in units},
            structures={s["id"]: msgspec.convert(s, StructureState) for s in v["structures"]},
            medals=dict(v["medals"]), held=tuple(v["objectives"]["held"]),
            captured=tuple(v["objectives"]["captured"]),
            hands={}, decks={}, discards={s: tuple(d) for s, d in v["discards"].items()},
            turn_order=turn_order, turn_index=(turn_no - 1) % max(1, len(turn_order)) if turn_no else 0,
            turn_no=turn_no,
            turn=msgspec.convert(v["turn"], TurnState) if v["turn"] is not None else None,
            pending=msgspec.convert(v["pending"], Pending) if v["pending"] is not None else None,
            attack=msgspec.convert(v["attack"], AttackCtx) if v["attack"] is not None else None,
            last_card=dict(v["last_card"]), lost_units=dict(facts.lost_units), lasting=facts.lasting,
            support={}, support_turn=dict(facts.support_turn), winner=v["winner"], win_reason=v["win_reason"],
        )
        # known cards
        self.hands: dict[str, tuple[str, ...] | None] = {
            s: (tuple(h) if isinstance(h, list) else None) for s, h in v["hands"].items()}
        self.hand_sizes = {s: (len(h) if isinstance(h, list) else int(h)) for s, h in v["hands"].items()}
        self.deck_sizes = {s: int(n) for s, n in v["deck_sizes"].items()}
        self.support_known = {f: tuple(c) for f, c in v.get("support", {}).items() if isinstance(c, list)}
        self.support_sizes = {f: (len(c) if isinstance(c, list) else int(c)) for f, c in v.get("support", {}).items()}
        # what is hidden: per faction, the unseen cards and where they go
        self.pools: list[tuple[list[str], list[_Slot]]] = []
        self.exact = True
        t = self.base.turn
        for fac in ("imperial", "rebel"):
            members = [s for s in faction_seats(op.seats, fac) if s in self.hand_sizes]
            if not members:
                continue
            pool = Counter()
            for c in op.cards:
                if c.faction == fac and (c.kind in _DECK_KINDS or c.kind == "leader"):
                    pool[c.id] += c.copies if c.kind in _DECK_KINDS else 1
            for s in members:
                pool.subtract(self.base.discards.get(s, ()))
                if self.hands.get(s) is not None:
                    pool.subtract(self.hands[s])
            if t is not None and t.card is not None and faction_of(t.seat) == fac:
                pool[t.card] -= 1  # the card in play: out of the hand, not yet discarded (HOTH-DRAW-1)
            unseen = sorted(pool.elements())
            if any(n < 0 for n in pool.values()):
                self.exact = False
            slots = [_Slot("hands", s, self.hand_sizes[s]) for s in members if self.hands.get(s) is None]
            slots += [_Slot("decks", s, self.deck_sizes.get(s, 0)) for s in members]
            if sum(x.n for x in slots) != len(unseen):
                self.exact = False
            self.pools.append((unseen, slots))
        for fac, n in self.support_sizes.items():
            if fac in self.support_known or n == 0:
                continue
            pool = Counter()
            for c in op.cards:
                if c.faction == fac and c.kind == "support":
                    pool[c.id] += c.copies
            pool.subtract(facts.support_played.get(fac, ()))
            unseen = sorted(pool.elements())
            if len(unseen) < n:
                self.exact = False
            self.pools.append((unseen, [_Slot("support", fac, n)]))
        self._fixed_hands = {s: h for s, h in self.hands.items() if h is not None}

    def sample(self, rng: random.Random) -> HothState:
        """A full state: the public part as known, the hidden cards dealt at random from the unseen ones."""
        hands: dict[str, tuple[str, ...]] = dict(self._fixed_hands)
        decks: dict[str, tuple[str, ...]] = {}
        support: dict[str, tuple[str, ...]] = dict(self.support_known)
        out = {"hands": hands, "decks": decks, "support": support}
        for unseen, slots in self.pools:
            cards = list(unseen)
            rng.shuffle(cards)
            i = 0
            for sl in slots:
                got = cards[i:i + sl.n]
                i += sl.n
                while len(got) < sl.n and unseen:  # only when the public record does not add up (not exact)
                    got.append(unseen[rng.randrange(len(unseen))])
                out[sl.where][sl.owner] = tuple(got)
        # keep the view's key order (hands/decks follow the seats; support the factions)
        hands = {s: hands.get(s, ()) for s in self.hand_sizes}
        decks = {s: decks.get(s, ()) for s in self.deck_sizes}
        support = {f: support.get(f, ()) for f in self.support_sizes}
        return replace(self.base, hands=hands, decks=decks, support=support)
