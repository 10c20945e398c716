"""The order deck (SOLO-ORD): advancing, with the reshuffle of an empty deck, on the automaton stream."""
from __future__ import annotations

from domain.kernel import AUTOMATON, RulingBuilder
from domain.kernel.messages import msg

from .events import OrderCardRevealed, OrderDeckShuffled
from .outbox import Outbox
from .state import NOBODY, EmperorState

#: GAP-A-22 (INFERRED, SOLO-ORD-2): an empty deck is formed again by shuffling the discard pile
#: (with the card just discarded).
RESHUFFLE_EMPTY_DECK = True  # GAP-A-22


def compass(state: EmperorState) -> str:
    """The compass of the current order card (SOLO-TIE-1): ``N`` before the first card is revealed."""
    oc = state.current_order()
    return oc.compass if oc is not None else "N"


def open_deck(out: Outbox, cards: tuple[str, ...]) -> None:
    """BASE-SETUP-1 step 4: shuffle the order deck face down; no current order card yet."""
    deck = tuple(out.dice.shuffle(cards, AUTOMATON))
    out.emit(OrderDeckShuffled(size=len(deck), deck=deck), RulingBuilder().add(
        "BASE-SETUP-1", msg("The order deck ({count} cards) is shuffled face down; its order stays hidden until "
                            "the game ends. There is no current order card yet.", count=len(deck)), size=len(deck)).add(
        "SOLO-ORD-2", msg("Every later reveal takes the top card of this deck.")),
        summary=msg("the order deck is shuffled"), visibility=NOBODY, reveals=True)


def advance(out: Outbox, why: str) -> str:
    """SOLO-ORD-2: the current card goes to the discard pile and the top card of the deck becomes the
    current order card. ``why``: "turn" (SOLO-ORD-3a) or "defense" (SOLO-ORD-3b). Returns the card."""
    st = out.state
    prev = st.order_current
    if not st.order_deck:
        if not RESHUFFLE_EMPTY_DECK:
            raise RuntimeError("the order deck is empty")
        pool = st.order_discard + ((prev,) if prev else ())
        deck = tuple(out.dice.shuffle(pool, AUTOMATON))
        out.emit(OrderDeckShuffled(size=len(deck), deck=deck, reshuffle=True), RulingBuilder().add(
            "SOLO-ORD-2", msg("The order deck is empty: the discard pile ({count} cards, with the current card "
                              "just discarded) is shuffled to form a new deck (INFERRED, GAP-A-22).", count=len(deck)), size=len(deck)),
            summary=msg("the order deck is reshuffled"), visibility=NOBODY, reveals=True)
        prev = ""
    card = out.state.order_deck[0]
    oc = out.state.orders[card]
    rb = RulingBuilder()
    if why == "turn":
        rb.add("SOLO-TURN-1", msg("The Emperor's turn begins by advancing the order deck."))
        rb.add("SOLO-ORD-3", msg("a: the order deck advances at the start of every Emperor turn."))
    else:
        rb.add("SOLO-DEF-2", msg("a: the Emperor's hero defends, so it first advances the order deck."))
        rb.add("SOLO-ORD-3", msg("b: the order deck advances every time the Emperor's hero defends (not its "
                                 "helper)."))
    steps = ", ".join(oc.steps)
    rb.add(
        "SOLO-ORD-2", msg("{card} is revealed and becomes the current order card; {other} goes to the discard pile.",
                          card=card, other=prev) if prev else
        msg("{card} is revealed and becomes the current order card.", card=card), card=card, discarded=prev).add(
        "SOLO-ORD-1", msg("{card}: steps {steps}; refresh value {refresh_value}; defense modifier "
                          "{defense_modifier:+d}; compass {compass}; unique crest {value}.",
                          card=card, steps=steps, refresh_value=oc.refresh_value, defense_modifier=oc.defense_modifier, compass=oc.compass, value=msg("yes") if oc.unique_crest else msg("no")),
        steps=list(oc.steps), refresh_value=oc.refresh_value, defense_modifier=oc.defense_modifier,
        compass=oc.compass, unique_crest=oc.unique_crest)
    out.emit(OrderCardRevealed(card=card, why=why, discarded=prev), rb,
             summary=msg("order card {card} revealed (compass {compass})", card=card, compass=oc.compass), reveals=True)
    return card
