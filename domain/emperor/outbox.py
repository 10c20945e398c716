"""The events one decision emits, folded as they are emitted so later steps see their effect."""
from __future__ import annotations

from contextlib import contextmanager
from collections.abc import Iterator

from domain.kernel import PUBLIC, Dice, Emitted, Event, Ruling, RulingBuilder

from .evolve import evolve
from .state import EmperorState


class Outbox:
    def __init__(self, state: EmperorState, dice: Dice):
        self.state = state
        self.dice = dice
        self.items: list[Emitted] = []
        self._automaton = 0
        dice.track(self.items)  # a dry run reports the events emitted before its first draw

    @contextmanager
    def automaton(self) -> Iterator[None]:
        """Everything emitted inside is the Emperor's decision: a reveal (undo across it needs consent)."""
        self._automaton += 1
        try:
            yield
        finally:
            self._automaton -= 1

    def emit(self, event: Event, ruling: Ruling | RulingBuilder | None = None, *, summary: str = "",
             visibility: str = PUBLIC, reveals: bool = False) -> None:
        """Record ``event`` with every draw made since the previous event (DESIGN 1: events carry outcomes)."""
        if isinstance(ruling, RulingBuilder):
            ruling = ruling.build(summary)
        rolls = self.dice.take()
        self.items.append(Emitted(event=event, ruling=ruling, visibility=visibility, rolls=rolls,
                                  reveals=reveals or bool(rolls) or self._automaton > 0))
        self.state = evolve(self.state, event)

    @property
    def over(self) -> bool:
        return self.state.winner is not None
