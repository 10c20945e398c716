"""Who holds each seat (DESIGN section 4, "a seat belongs to the person who claimed it"): kernel events.

A game created with ``"seating": "invitations"`` records, right after its header, a public
``seats_offered`` event: the seats its creator kept (``kept``: the creator got their tokens) and the
seats offered by a one-time invitation (``invited``). Claiming an invited seat appends a public
``seat_claimed`` event (``by_invitation: true``); a holder that rotates its token appends
``seat_rotated``. None of them carries a secret: the tokens and invitations live only as hashes in the
store, and the events say which seat changed hands, never who holds it.

A game created with ``"seating": "tokens"`` (the default, and every game stored before invitations)
has no ``seats_offered`` event: its creator was handed every seat's token.

The events are kernel events (they change nothing in the ruleset's state) and non-undoable:
``seats_offered`` and ``seat_claimed`` belong to the game's opening for undo (an undo never reaches
back across a seat changing hands); ``seat_rotated`` is bookkeeping that any undo leaves alone.
"""
from __future__ import annotations

from typing import Literal

import msgspec

from .envelope import Event

TOKENS = "tokens"
INVITATIONS = "invitations"
SEATINGS = (TOKENS, INVITATIONS)
Seating = Literal["tokens", "invitations"]

#: How a seat came to be held, as ``/verify`` and views say it.
BY_CREATOR = "creator"
BY_INVITATION = "invitation"
UNCLAIMED = "unclaimed"
BY_BOT = "bot"


class SeatsOffered(Event, tag="seats_offered"):
    """Event 2 of a game (or a campaign) created with invitations: what the creator kept, what it offered."""

    kept: tuple[str, ...] = ()
    invited: tuple[str, ...] = ()


class SeatClaimed(Event, tag="seat_claimed"):
    """``seat`` was claimed (with its one-time invitation: ``by_invitation``); its token went to the claimant only."""

    seat: str
    by_invitation: bool = True


class SeatRotated(Event, tag="seat_rotated"):
    """The holder of ``seat`` replaced its token: the old one is dead from this event on."""

    seat: str


class SeatHolding(msgspec.Struct, frozen=True, kw_only=True):
    """The kernel's fold of the seat events: who was handed what, and when a seat's token last changed."""

    #: None: a game seated with tokens (every seat's token went to its creator).
    offered: SeatsOffered | None = None
    #: seat -> seq of its ``seat_claimed`` event.
    claimed: dict[str, int] = {}
    #: seat -> seq of the last event that changed its token (a claim or a rotation); 0: never.
    changed: dict[str, int] = {}


def holding_evolve(h: SeatHolding, seq: int, event: object) -> SeatHolding:
    r = msgspec.structs.replace
    if isinstance(event, SeatsOffered):
        return r(h, offered=event)
    if isinstance(event, SeatClaimed):
        return r(h, claimed={**h.claimed, event.seat: seq}, changed={**h.changed, event.seat: seq})
    if isinstance(event, SeatRotated):
        return r(h, changed={**h.changed, event.seat: seq})
    return h


def seat_report(h: SeatHolding, seats: tuple[str, ...], bots: dict[str, str] | None = None) -> dict[str, dict]:
    """``{seat: {"claimed": "creator" | "invitation" | "unclaimed" | "bot", "rotated": bool}}``: public,
    for ``/verify`` and every view (DESIGN 4). ``rotated``: the holder replaced its token at least once."""
    bots = bots or {}
    invited = set(h.offered.invited) if h.offered is not None else set()
    out: dict[str, dict] = {}
    for s in seats:
        if s in bots:
            how = BY_BOT
        elif s in invited:
            how = BY_INVITATION if s in h.claimed else UNCLAIMED
        else:
            how = BY_CREATOR
        out[s] = {"claimed": how, "rotated": h.changed.get(s, 0) != h.claimed.get(s, 0)}
    return out


def creator_holds(h: SeatHolding, seats: tuple[str, ...], bots: dict[str, str] | None = None) -> list[str]:
    """The human seats whose tokens went to the game's creator (more than one: the creator can read
    every one of those hands and act for every one of those seats; the game says so publicly)."""
    rep = seat_report(h, seats, bots)
    return [s for s, r in rep.items() if r["claimed"] == BY_CREATOR]


SEAT_EVENT_TYPES: frozenset[str] = frozenset({"seats_offered", "seat_claimed", "seat_rotated"})

__all__ = ["BY_BOT", "BY_CREATOR", "BY_INVITATION", "INVITATIONS", "SEATINGS", "SEAT_EVENT_TYPES", "SeatClaimed",
           "SeatHolding", "SeatRotated", "Seating", "SeatsOffered", "TOKENS", "UNCLAIMED", "creator_holds",
           "holding_evolve", "seat_report"]
