"""The events one decision emits, folded as they are emitted so later steps see their effect.

The kernel then plays the decision (``domain/kernel/game.py`` ``play``): it folds the same event objects again,
from the same state object. ``folded`` hands it the states the outbox already folded, so each event is folded
once: ``evolve`` is pure and its inputs are immutable (frozen structs), so the state kept for the same two
objects is the state folding them would give. The next layout is then the same ``units`` dict as the one the
decision's last steps measured, so their per-layout answers (``state.memo``) serve the next queries too."""
from __future__ import annotations

import threading
from typing import Any

from domain.kernel import PUBLIC, Dice, Emitted, Event, Ruling, RulingBuilder

from .evolve import evolve
from .state import SmokeState

#: (id of the state before, id of the event) -> (state before, event, state after): the folds of the outboxes,
#: taken (once) by ``folded``. Holding the two inputs keeps their ids from being reused while kept; bounded (a
#: decision never played, a dry run, leaves its folds here until cleared).
_FOLDS: dict[tuple[int, int], tuple[SmokeState, Any, SmokeState]] = {}
_FOLDS_MAX = 512
_LOCK = threading.Lock()


def folded(state: SmokeState, event: Any) -> SmokeState | None:
    """The state an outbox folded from ``state`` (this very object) and ``event`` (this very object), or None."""
    hit = _FOLDS.pop((id(state), id(event)), None)
    if hit is not None and hit[0] is state and hit[1] is event:
        return hit[2]
    return None


def _kept(before: SmokeState, event: Any, after: SmokeState) -> None:
    with _LOCK:
        if len(_FOLDS) >= _FOLDS_MAX:
            _FOLDS.clear()
        _FOLDS[(id(before), id(event))] = (before, event, after)


class Outbox:
    def __init__(self, state: SmokeState, dice: Dice):
        self.state = state
        self.dice = dice
        self.items: list[Emitted] = []
        dice.track(self.items)  # a dry run reports the events emitted before its first draw

    def emit(self, event: Event, ruling: Ruling | RulingBuilder | None = None, *, summary: str = "",
             visibility: str = PUBLIC, reveals: bool = False) -> None:
        """Record ``event`` with every draw made since the previous event (DESIGN 1: events carry outcomes)."""
        if isinstance(ruling, RulingBuilder):
            ruling = ruling.build(summary)
        rolls = self.dice.take()
        self.items.append(Emitted(event=event, ruling=ruling, visibility=visibility, rolls=rolls,
                                  reveals=reveals or bool(rolls)))
        before = self.state
        self.state = evolve(before, event)
        _kept(before, event, self.state)

    @property
    def over(self) -> bool:
        return self.state.result is not None
