"""Draws follow the events that record them (DESIGN 3, issue 10): the kernel's verifier asks the
ruleset whether what an event records of its draws fits them (``check_rolls``).

The Emperor rolls no dice: its only chance is the order deck's shuffle (SOLO-ORD-2, BASE-SETUP-1, a
reshuffle of the discard pile under GAP-A-22), a Fisher-Yates on the automaton stream. An
``order_deck_shuffled`` event records the deck it made; its draws must be exactly that shuffle's:
``size - 1`` draws on the automaton stream whose sides run ``size, size - 1, ..., 2`` with every value
inside its side count, and the deck ``size`` distinct cards. (Which order went in is not in the event:
the kernel checks every value against the seed, and every index of the stream used once and in order.)"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel import AUTOMATON, Roll

from .events import OrderDeckShuffled


def check_rolls(event: Any, rolls: Sequence[Roll]) -> str | None:
    """None when ``rolls`` are the draws of the shuffle ``event`` records; else what does not fit."""
    if not isinstance(event, OrderDeckShuffled):
        return None
    n = len(event.deck)
    if event.size != n or len(set(event.deck)) != n:
        return f"order_deck_shuffled records size {event.size} for a deck of {n} cards ({len(set(event.deck))} " \
               "distinct) (SOLO-ORD-2)"
    want = list(range(n, 1, -1))
    got = [r.sides for r in rolls]
    if got != want or any(r.stream != AUTOMATON or not 0 <= r.value < r.sides for r in rolls):
        return (f"order_deck_shuffled: a shuffle of {n} cards draws sides {want} on the {AUTOMATON} stream, "
                f"its draws are {[(r.stream, r.sides, r.value) for r in rolls]} (SOLO-ORD-2)")
    return None


__all__ = ["check_rolls"]
