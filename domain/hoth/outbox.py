"""The events one decision emits, folded as they are emitted so later steps see their effect."""
from __future__ import annotations

from domain.kernel.messages import Message
from domain.kernel import PUBLIC, Dice, Emitted, Event, Ruling, RulingBuilder

from .evolve import evolve
from .state import HothState


class Outbox:
    def __init__(self, state: HothState, dice: Dice, explain: bool = True):
        self.state = state
        self.dice = dice
        self.items: list[Emitted] = []
        dice.track(self.items)  # a dry run reports the events emitted before its first draw
        #: False only inside a bot's playouts (``HothRuleset.step``): the same states, but an attack's event and
        #: ruling leave out the line-of-sight details (examined hexes, sight values), which cost the most.
        self.explain = explain

    def emit(self, event: Event, ruling: Ruling | RulingBuilder | None = None, *, summary: "str | Message" = "",
             visibility: str = PUBLIC, reveals: bool = False) -> None:
        """Record ``event`` with every draw made since the previous event (DESIGN 1: events carry outcomes)."""
        if isinstance(ruling, RulingBuilder):
            ruling = ruling.build(summary)
        rolls = self.dice.take()
        self.items.append(Emitted(event=event, ruling=ruling, visibility=visibility, rolls=rolls,
                                  reveals=reveals or bool(rolls)))
        self.state = evolve(self.state, event)

    @property
    def over(self) -> bool:
        return self.state.winner is not None
