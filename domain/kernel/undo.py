"""Undo as events (DESIGN section 5): the log is never edited.

These kernel events live in every game's stream beside the ruleset's events.
``Undone`` marks the seqs ``first..last`` as undone; the state is the fold of
the events that are not undone. The dice counter is taken from every event,
undone or not, so undo can never re-roll.
"""
from __future__ import annotations

from .envelope import Event


class UndoRequested(Event, tag="undo_requested"):
    by: str
    to_version: int


class UndoDeclined(Event, tag="undo_declined"):
    by: str
    to_version: int


class Undone(Event, tag="undone"):
    by: str
    first: int
    last: int
    #: None for a free undo; the seat that agreed otherwise.
    consented_by: str | None = None


KernelEvent = UndoRequested | UndoDeclined | Undone
KERNEL_EVENT_TYPES: frozenset[str] = frozenset({"undo_requested", "undo_declined", "undone"})


def is_kernel_event(event: object) -> bool:
    return isinstance(event, (UndoRequested, UndoDeclined, Undone))


def undone_seqs(records: "list[tuple[int, object]]") -> set[int]:
    """Seqs marked undone by the ``Undone`` events among ``(seq, event)`` pairs."""
    out: set[int] = set()
    for _seq, ev in records:
        if isinstance(ev, Undone):
            out.update(range(ev.first, ev.last + 1))
    return out


__all__ = [
    "UndoRequested",
    "UndoDeclined",
    "Undone",
    "KernelEvent",
    "KERNEL_EVENT_TYPES",
    "is_kernel_event",
    "undone_seqs",
]
