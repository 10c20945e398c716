"""The kernel's undo events (DESIGN section 5): a request, a side's consent, a refusal, a lapse, and
``undone`` itself. Decided by :mod:`domain.kernel.undo`; folded into the kernel's state by
:func:`domain.kernel.header.kernel_evolve` and out of the ruleset's by :mod:`domain.kernel.fold`."""
from __future__ import annotations

from .envelope import Event


class UndoRequested(Event, tag="undo_requested"):
    by: str
    to_version: int


class UndoAccepted(Event, tag="undo_accepted"):
    """One side's consent to a waiting request when more sides must still consent (3 or more sides,
    UMPIRE-UNDO-13); the last side's consent is the ``undone`` event itself."""

    by: str
    to_version: int


class UndoDeclined(Event, tag="undo_declined"):
    by: str
    to_version: int


class UndoLapsed(Event, tag="undo_lapsed"):
    """A waiting request lapsed because play went on (``by``: the seat that had asked)."""

    by: str
    to_version: int


class Undone(Event, tag="undone"):
    by: str
    first: int
    last: int
    #: None for a free undo; the seat that agreed otherwise.
    consented_by: str | None = None
    #: True when the undone range had draws (dice, shuffles): the next draws are an agreed re-roll.
    redraw: bool = False
