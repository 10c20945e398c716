"""The turn sequence (section 4): play a card, order, move, attack, draw; and the game opening."""
from __future__ import annotations

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import msg, msg_n

from . import board
from .terms import hex_text, side
from .terms import terrain as terrain_word
from .cards import ArrangeTop, Card, DiscardAndDraw, DrawThenDiscard, PlaceUnit
from .combat import may_attack_refusal, plan_attack, plan_special, special_attack
from .context import Snapshot, snapshot
from .events import (
    NOBODY, CardPlayed, CardsDiscarded, CardsDrawn, DecisionPending, DeckArranged, DeckShuffled, MovesEnded,
    OrdersEnded, TurnEnded, TurnStarted, UnitMoved, UnitOrdered, UnitPlaced,
)
from .medals import entries, settle
from .movement import can_move, move_paths, move_refusal
from .orders import copies_opponent, order_options, order_refusal, resolve_slots
from .outbox import Outbox
from .reinforcements import reinforcement_hexes
from .resolution import candidate_targets
from .scenario import Hex
from .state import ATTACK, MOVE, ORDER, Pending, faction_of
from .support import support_options
from .team import faction_seats, other
from .terrain import STOP_TERRAIN
from .units import starting_figures

#: INFERRED: Counter-Attack with no opponent card played yet orders nothing (content 5.1 is silent).
COUNTER_ATTACK_WITHOUT_CARD_ORDERS_NOTHING = True


def draw(out: Outbox, seat: str, n: int) -> None:
    """HOTH-DRAW-1/2: draw ``n`` cards; reshuffle the discard pile when the deck is empty (HOTH-GAP-41).

    Team play: each seat has its own deck and discard pile (HOTH-TEAM-10, HOTH-TEAM-12 / HOTH-GAP-26).
    No hand limit (HOTH-DRAW-3 / HOTH-GAP-38).
    """
    left = n
    while left > 0:
        st = out.state
        deck = st.decks.get(seat, ())
        if not deck:
            disc = st.discards.get(seat, ())
            if not disc:
                return
            order = tuple(out.dice.shuffle(disc))
            out.emit(DeckShuffled(seat=seat, size=len(order), deck=order, reshuffle=True),
                     RulingBuilder().add("HOTH-DRAW-2", msg_n("The draw pile of {seat} is empty: the discard pile ({count} "
                                                              "cards) is shuffled into a new one.", "The draw pile of "
                                                              "{seat} is empty: the discard pile ({count} cards) is "
                                                              "shuffled into a new one.", "count", seat=side(seat),
                                                              count=len(order))),
                     summary=msg("{seat}: deck reshuffled", seat=side(seat)), visibility=NOBODY, reveals=True)
            continue
        k = min(left, len(deck))
        cards = deck[:k]
        out.emit(CardsDrawn(seat=seat, count=k, cards=cards),
                 RulingBuilder().add("HOTH-DRAW-1", msg_n("{seat}: {count} card(s) drawn.", "{seat}: {count} card(s) drawn.",
                                                        "count", seat=side(seat), count=k), count=k),
                 summary=msg_n("{seat}: {count} card(s) drawn", "{seat}: {count} card(s) drawn", "count", seat=side(seat), count=k), visibility=seat, reveals=True)
        left -= k


def play_card(out: Outbox, seat: str, card_id: str) -> None:
    st = out.state
    if card_id not in st.hands.get(seat, ()):
        raise RuleViolation("HOTH-CARD-1", msg("{card} is not a card in your hand.", card=card_id))
    card = st.cards[card_id]
    if card.kind == "support":
        raise RuleViolation("HOTH-CARD-1", msg("A support card is not a command card."))
    faction = faction_of(seat)
    rb = RulingBuilder().add("HOTH-CARD-1", msg("{seat}: {card} played.", seat=side(seat),
                                                     card=card.title), card=card_id, kind=card.kind)
    eff: Card = card
    mirrored = False
    if copies_opponent(card):
        last = st.last_card.get(other(faction))
        if last is not None and last in st.cards:
            eff = st.cards[last]
            mirrored = True
            rb.add("HOTH-CARD-4", msg("Counter-Attack copies {card}; sections keep their board area.",
                                              card=eff.title),
                   copied=last)
        else:
            rb.add("HOTH-CARD-4", msg("No opponent card to copy: nothing is ordered "
                                      "(COUNTER_ATTACK_WITHOUT_CARD_ORDERS_NOTHING, INFERRED)."))
    slots = resolve_slots(st, faction, eff, mirrored)
    for i, s in enumerate(slots):
        if s.fallback:
            rb.add("HOTH-CARD-5", msg("No unit of the kind named by order group {group}: order 1 unit of your "
                                      "choice anywhere, without the card's bonuses (HOTH-GAP-24).", group=i), slot=i)
    out.emit(CardPlayed(seat=seat, card=card_id, effects_card=eff.id, mirrored=mirrored, slots=slots), rb,
             summary=msg("{seat}: {card} played", seat=side(seat), card=card.title))
    if not order_options(out.state, faction) and slots:
        pass  # HOTH-ORDER-5: nothing to order; advance() closes the step
    card_actions(out, seat, eff)


def card_actions(out: Outbox, seat: str, eff: Card) -> None:
    """The card's own actions, right after it is played (INFERRED timing: content 5.2 says "then")."""
    for e in eff.effects:
        if isinstance(e, DiscardAndDraw):
            out.emit(DecisionPending(pending=Pending(kind="discard", seat=seat, max=e.max_discard, steps=e.extra)),
                     RulingBuilder().add("HOTH-CARD-4", msg_n("{seat} may discard up to {count} card(s) and draw that many "
                                                              "+{extra}.", "{seat} may discard up to {count} card(s) and "
                                                              "draw that many +{extra}.", "count", seat=side(seat),
                                                              count=e.max_discard, extra=e.extra),
                                         max=e.max_discard, extra=e.extra),
                     summary=msg("discard decision"))
            return
        if isinstance(e, DrawThenDiscard):
            draw(out, seat, e.draw)
            n = min(e.discard, len(out.state.hands.get(seat, ())))
            if n:
                out.emit(DecisionPending(pending=Pending(kind="discard", seat=seat, max=n, which="exact")),
                         RulingBuilder().add("HOTH-CARD-4", msg("{seat}: {drawn} drawn, now {count} to discard.", seat=side(seat),
                                                                drawn=e.draw, count=n), discard=n),
                         summary=msg("discard decision"))
            return
        if isinstance(e, ArrangeTop):
            top = out.state.decks.get(seat, ())[: e.count]
            if len(top) > 1:
                out.emit(DecisionPending(pending=Pending(kind="arrange", seat=seat, max=len(top)), cards=top),
                         RulingBuilder().add("HOTH-CARD-4", msg("{seat}: the top {count} cards of the deck are looked at "
                                                                "and put back in any order.", seat=side(seat),
                                                                count=len(top))),
                         summary=msg("arrange decision"), visibility=seat, reveals=True)
            return
        if isinstance(e, PlaceUnit):
            hexes = reinforcement_hexes(out.state, faction_of(seat), e.unit)
            if hexes:
                out.emit(DecisionPending(pending=Pending(kind="place", seat=seat, unit_type=e.unit)),
                         RulingBuilder().add("HOTH-CARD-4", msg("{seat}: a new {unit_type} unit goes on an empty hex of the "
                                                                "own baseline.", seat=side(seat), unit_type=e.unit),
                                             unit=e.unit),
                         summary=msg("reinforcement decision"))
            else:
                out.emit(CardsDiscarded(seat=seat, cards=()), RulingBuilder().add(
                    "HOTH-FORCE-3", msg("No {unit_type} unit can be placed (no empty baseline hex, or none left in the "
                                        "box).", unit_type=e.unit)),
                    summary=msg("no reinforcement"))
            return


def reinforce(out: Outbox, seat: str, h: Hex) -> None:
    p = out.state.pending
    assert p is not None and p.unit_type is not None
    h = tuple(h)  # type: ignore[assignment]
    if h not in reinforcement_hexes(out.state, faction_of(seat), p.unit_type):
        raise RuleViolation("HOTH-CARD-4", msg("{hex} is not an empty hex of your baseline.",
                                               hex=hex_text(h) if board.is_playable(h) else str(list(h))), hex=list(h))
    faction = faction_of(seat)
    uid = f"{'E' if faction == 'imperial' else 'R'}+{out.state.turn_no}"
    while uid in out.state.units:
        uid += "'"
    out.emit(UnitPlaced(unit=uid, faction=faction, unit_type=p.unit_type, hex=h,
                        figures=starting_figures(p.unit_type, None)),
             RulingBuilder().add("HOTH-CARD-4", msg("A new {unit_type} unit {unit} enters at {hex}.",
                                                    unit_type=p.unit_type, unit=uid, hex=hex_text(h)),
                                 hex=list(h)), summary=msg("{unit} placed", unit=uid))
    settle(out, [(uid, h)])


def arrange(out: Outbox, seat: str, order: tuple[str, ...]) -> None:
    p = out.state.pending
    assert p is not None
    if sorted(order) != sorted(p.cards):
        raise RuleViolation("HOTH-CARD-4", msg("Put back exactly the cards you looked at, in any order."))
    out.emit(DeckArranged(seat=seat, count=len(order), top=tuple(order)),
             RulingBuilder().add("HOTH-CARD-4", msg_n("{seat}: {count} cards put back on top of the deck.",
                                                        "{seat}: {count} cards put back on top of the deck.", "count",
                                                        seat=side(seat), count=len(order))),
             summary=msg("{seat}: deck arranged", seat=side(seat)), visibility=seat)


def discard_cards(out: Outbox, seat: str, cards: tuple[str, ...]) -> None:
    st = out.state
    p = st.pending
    assert p is not None and st.turn is not None
    hand = list(st.hands.get(seat, ()))
    if len(cards) > p.max:
        raise RuleViolation("HOTH-CARD-4", msg_n("You may discard at most {count} card(s).", "You may discard at most {count} card(s).",
                                                   "count", count=p.max))
    if list(cards) != sorted(cards):
        raise RuleViolation("HOTH-CARD-4", msg("List the discarded cards in sorted order (each card id once per copy)."))
    if p.which == "exact" and len(cards) != p.max:
        raise RuleViolation("HOTH-CARD-4", msg_n("Discard exactly {count} card(s).", "Discard exactly {count} card(s).", "count",
                                                   count=p.max))
    for c in cards:
        if c not in hand:
            raise RuleViolation("HOTH-CARD-4", msg("{card} is not in your hand.", card=c))
        hand.remove(c)
    out.emit(CardsDiscarded(seat=seat, cards=tuple(cards)),
             RulingBuilder().add("HOTH-CARD-4", msg_n("{seat}: {count} card(s) discarded.", "{seat}: {count} card(s) discarded.",
                                                        "count", seat=side(seat), count=len(cards)), count=len(cards)),
             summary=msg_n("{seat}: {count} card(s) discarded", "{seat}: {count} card(s) discarded", "count", seat=side(seat),
                           count=len(cards)))
    if p.which == "exact":
        return
    draw(out, seat, len(cards) + p.steps)
    eff = st.cards.get(st.turn.effects_card or "")
    dd = next((e for e in eff.effects if isinstance(e, DiscardAndDraw)), None) if eff else None
    mates = [s for s in faction_seats(st.seats, faction_of(seat)) if s != seat]
    if dd is not None and seat == st.turn.seat and mates and dd.teammate_max_discard > 0:
        out.emit(DecisionPending(pending=Pending(kind="discard", seat=mates[0], max=dd.teammate_max_discard, steps=0)),
                 RulingBuilder().add("HOTH-TEAM-13", msg_n("Team play: {seat} may now discard up to {count} card(s) and "
                                                           "draw as many.", "Team play: {seat} may now discard up to "
                                                           "{count} card(s) and draw as many.", "count",
                                                           seat=side(mates[0]), count=dd.teammate_max_discard)),
                 summary=msg("teammate discard decision"))


def order_unit(out: Outbox, unit_id: str, slot: int) -> None:
    st = out.state
    assert st.turn is not None
    bad = order_refusal(st, st.turn.faction, unit_id, slot)
    if bad is not None:
        raise bad
    s = st.turn.slots[slot]
    rb = RulingBuilder().add("HOTH-ORDER-1", msg("{unit} is ordered.", unit=unit_id), unit=unit_id, slot=slot)
    if s.sections:
        rb.add("HOTH-ORDER-2", msg("{unit} stands in the {sections} section named by the card.", unit=unit_id,
                   sections="/".join(s.sections)),
               hex=list(st.units[unit_id].hex))
    if s.fallback:
        rb.add("HOTH-CARD-5", msg("Ordered through the fallback: none of the card's bonuses."))
    out.emit(UnitOrdered(unit=unit_id, slot=slot, bonus=s.bonus), rb, summary=msg("{unit} ordered", unit=unit_id))


def move(out: Outbox, unit_id: str, path: tuple[Hex, ...]) -> None:
    st = out.state
    assert st.turn is not None
    path = tuple(tuple(h) for h in path)  # type: ignore[misc]
    snap = snapshot(st)
    bad = move_refusal(st, snap, st.turn.faction, unit_id, path)
    if bad is not None:
        raise bad
    u = st.units[unit_id]
    last_terrain = snap.terrain.get(path[-1])
    stopped = last_terrain in STOP_TERRAIN
    rb = RulingBuilder().add("HOTH-MOVE-1", msg_n("{unit} moves {count} hex(es) from {frm} to {to}.",
                                                  "{unit} moves {count} hex(es) from {frm} to {to}.", "count",
                                                  unit=unit_id, count=len(path), frm=hex_text(u.hex),
                                                  to=hex_text(path[-1])), steps=len(path),
                             path=[list(h) for h in path], from_hex=list(u.hex))
    rb.add("HOTH-MOVE-4", msg_n("{count} step(s) taken count as {count} hex(es) moved, whatever the final "
                                "displacement.", "{count} step(s) taken count as {count} hex(es) moved, whatever the "
                                "final displacement.", "count", count=len(path)), steps=len(path))
    rb.add("HOTH-MOVE-6", msg("No hex of the path holds another unit."))
    if u.badge == "elite_troops":
        rb.add("HOTH-SPECIAL-ELITE-3", msg("Elite troops move at most 2 hexes (no 3-hex move)."), max=2)
    if stopped:
        rb.add("HOTH-MOVE-9", msg("It enters {terrain} and must stop.", terrain=terrain_word(last_terrain)),
               terrain=last_terrain)
        rb.add("HOTH-MOVE-10", msg("It cannot attack this turn."))
        if u.badge == "elite_troops":
            rb.add("HOTH-SPECIAL-ELITE-2", msg("Terrain stops and attack penalties still apply to elite troops."))
    if u.unit in ("snowtroopers", "echo_troopers") and len(path) == 2 and u.badge != "elite_troops":
        rb.add("HOTH-UNIT-SNOW-2" if u.unit == "snowtroopers" else "HOTH-UNIT-ECHO-2",
               msg("Infantry that moves 2 hexes cannot attack this turn."))
    entered = entries(out, rb, unit_id, path)
    out.emit(UnitMoved(unit=unit_id, path=path, stopped=stopped), rb,
             summary=msg("{unit} moves to {hex}", unit=unit_id, hex=hex_text(path[-1])))
    settle(out, entered)


def end_moves(out: Outbox) -> None:
    st = out.state
    assert st.turn is not None
    eweb: dict[str, bool] = {}
    rb = RulingBuilder().add("HOTH-TURN-4", msg("The Move step ends; attacks begin (HOTH-ATTACK-1)."))
    for o in st.turn.ordered:
        u = st.units.get(o.unit)
        if u is not None and u.badge == "eweb":
            eweb[u.id] = u.id not in st.turn.moved
            rb.add("HOTH-SPECIAL-EWEB-4" if eweb[u.id] else "HOTH-SPECIAL-EWEB-3",
                   msg("E-Web {unit} token: Set (HOTH-SPECIAL-EWEB-7).", unit=u.id) if eweb[u.id] else
                   msg("E-Web {unit} token: Moved (HOTH-SPECIAL-EWEB-7).", unit=u.id), unit=u.id)
    out.emit(MovesEnded(eweb=eweb), rb, summary=msg("moves ended"))


def end_turn(out: Outbox) -> None:
    st = out.state
    t = st.turn
    assert t is not None
    out.emit(TurnEnded(seat=t.seat, card=t.card),
             RulingBuilder().add("HOTH-DRAW-1", msg("{seat}: the played card is discarded.", seat=side(t.seat)), card=t.card),
             summary=msg("{seat}: turn ends", seat=side(t.seat)))
    if not t.draw_replaced:
        draw(out, t.seat, 1)
    start_next_turn(out)


def start_next_turn(out: Outbox) -> None:
    st = out.state
    nxt = st.turn_order[st.turn_no % len(st.turn_order)]
    out.emit(TurnStarted(seat=nxt, turn=st.turn_no + 1),
             RulingBuilder().add("HOTH-TURN-1" if len(st.turn_order) == 2 else "HOTH-TEAM-9",
                                 msg("Turn {turn}: {seat}.", turn=st.turn_no + 1, seat=side(nxt)), seat=nxt),
             summary=msg("turn {turn}: {seat}", turn=st.turn_no + 1, seat=side(nxt)))


# -- options (used by legal_commands and by advance) -------------------------------------

def move_options(state, snap: Snapshot | None = None) -> list[tuple[str, tuple[Hex, ...]]]:
    t = state.turn
    snap = snap or snapshot(state)
    out = []
    for o in t.ordered:
        if o.unit in t.moved:
            continue
        u = state.units.get(o.unit)
        if u is None:
            continue
        for p in move_paths(state, snap, u):
            out.append((u.id, p))
    return out


def any_move(state) -> bool:
    t = state.turn
    snap = None
    for o in t.ordered:
        if o.unit in t.moved:
            continue
        u = state.units.get(o.unit)
        if u is None:
            continue
        snap = snap or snapshot(state)
        if can_move(state, snap, u):
            return True
    return False


def attack_options(state, only_unit: str | None = None, breakthrough: bool = False,
                   first_only: bool = False, with_special: bool = False) -> list:
    """(unit, target) pairs, or (unit, target, special) with ``with_special``."""
    t = state.turn
    out: list = []
    snap = None
    units = [only_unit] if only_unit else [o.unit for o in t.ordered]
    for uid in units:
        u = state.units.get(uid)
        if u is None or may_attack_refusal(state, u, breakthrough) is not None:
            continue
        for tid in candidate_targets(state, u):
            snap = snap or snapshot(state)
            if not isinstance(plan_attack(state, snap, u, tid), RuleViolation):
                out.append((uid, tid, False) if with_special else (uid, tid))
                if first_only:
                    return out
            if special_attack(state, uid) is not None and tid in state.units \
                    and not isinstance(plan_special(state, snap, u, tid), RuleViolation):
                out.append((uid, tid, True) if with_special else (uid, tid))
                if first_only:
                    return out
    return out


#: The full attack list of the last few states (id -> (state, list)); states are immutable, so the list
#: ``advance`` finds for a step's final state is the one ``legal_commands`` lists for it next.
_ATTACKS: dict[int, tuple[object, list]] = {}


def all_attacks(state) -> list[tuple[str, str, bool]]:
    """``attack_options(state, with_special=True)``, kept per state."""
    hit = _ATTACKS.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    if len(_ATTACKS) >= 64:
        _ATTACKS.clear()
    opts = attack_options(state, with_special=True)
    _ATTACKS[id(state)] = (state, opts)
    return opts


def advance(out: Outbox) -> None:
    """Close steps in which nothing is left to do (HOTH-ORDER-5 and the like), and end such turns."""
    while not out.over and out.state.pending is None and out.state.turn is not None:
        st = out.state
        t = st.turn
        if t.phase == ORDER and not order_options(st, t.faction):
            out.emit(OrdersEnded(), RulingBuilder().add("HOTH-ORDER-5" if not t.ordered else "HOTH-ORDER-4",
                                                        msg("No further unit can be ordered with this card.")),
                     summary=msg("orders ended"))
            continue
        if t.phase == MOVE and not any_move(st):
            end_moves(out)
            continue
        # in a bot's playout (explain=False) the next call is legal_commands on this very state: list them all
        # once; otherwise the first attack found is enough
        if t.phase == ATTACK and not (all_attacks(st) if not out.explain else attack_options(st, first_only=True)):
            if st.support.get(t.faction):
                if support_options(st, t.seat):
                    return  # an own-turn support card may still be played before the turn ends
            end_turn(out)
        return


def close_orders(out: Outbox) -> None:
    out.emit(OrdersEnded(), RulingBuilder().add("HOTH-ORDER-6", msg("Ordering ends (fewer units than allowed is fine).")),
             summary=msg("orders ended"))


def _unused(*_: object) -> None:  # keep imports used for type checkers
    return None


_unused(board)
