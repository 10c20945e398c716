"""The start of the human's turn (BASE-TURN-1): emitted at the game's opening, after the Emperor's
turn (:mod:`domain.emperor.automaton`) and never by the human's own commands (:mod:`domain.emperor.human`)."""
from __future__ import annotations

from domain.kernel import RulingBuilder
from domain.kernel.messages import msg

from .events import TurnStarted
from .outbox import Outbox
from .state import HUMAN


def start_human_turn(out: Outbox) -> None:
    st = out.state
    n = st.turn_no + 1
    restored = tuple(sorted(k for k, v in st.flipped.items() if v == HUMAN))
    rb = RulingBuilder().add("BASE-TURN-1", msg("Your turn: up to two different actions from MOVE, ACTIVATE, "
                                                "REFRESH."),
                             turn=n)
    if restored:
        rb.add("BASE-LOC-4", msg("Locations you flipped are face up again: {restored} (PROPOSED, GAP-A-18).",
                                 restored=', '.join(restored)),
               locations=list(restored))
    rb.add("BASE-CREST-1", msg("Your applied crest initiative is cleared at the start of your turn."))
    out.emit(TurnStarted(side=HUMAN, turn=n, restored=restored), rb, summary=msg("turn {n}: you", n=n))
