"""Seats that their players own (DESIGN section 4): seating at creation, claims, rotation.

``POST /games`` (and ``POST /campaigns``) with ``"seating": "invitations"`` hands its caller the token of
each seat it keeps (``"keep"``) and a one-time invitation for every other human seat (bot seats are
seated by the service, UMPIRE-BOT-1). ``POST /games/{id}/seats/{seat}/claim`` with the invitation (in the
body or as ``Authorization: Bearer <invitation>``, never in a URL) answers the seat's token to the
claimant only: the store retires the invitation, stores the token's hash and appends the public
``seat_claimed`` event in one transaction (:meth:`service.store.EventStore.claim_seat`), so of two claims
at once exactly one wins. ``POST /games/{id}/seats/{seat}/rotate`` with the seat's token replaces it
(``seat_rotated``). Rule ids: UMPIRE-SEAT-* (``domain/kernel/rules.md``).

Only hashes are stored (sha256, ``token_hash``); secrets are answered once and never logged.
Default ``"seating": "tokens"`` keeps the old answer: every human seat's token to the caller.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from domain.kernel import Emitted
from domain.kernel.rulings import Ruling, RuleStep
from domain.kernel.seats import (
    INVITATIONS, TOKENS, SeatClaimed, SeatHolding, SeatRotated, SeatsOffered, creator_holds, seat_report,
)

from .problems import Problem
from .store import SeatRefused

#: Bytes of a seat token or an invitation before URL-safe base64 (192 bits: never guessed).
SECRET_BYTES = 24


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


@dataclass(frozen=True)
class SeatPlan:
    """What a creation hands out: tokens (seat -> token, bots' included: they are never answered),
    invitations (seat -> one-time code) and the public ``seats_offered`` event (None: seated with tokens)."""

    tokens: dict[str, str]
    invitations: dict[str, str]
    offered: SeatsOffered | None


def plan_seats(seats: tuple[str, ...], bots: dict[str, str], seating: str, keep: list[str] | None) -> SeatPlan:
    """UMPIRE-SEAT-1: the seats the creator keeps and those offered by invitation (422 naming ``keep``)."""
    if seating == TOKENS:
        if keep is not None:
            raise Problem(422, "bad-setup", '"keep" goes with "seating": "invitations" (with tokens the caller gets '
                          "every seat's token)", field="keep", rule="UMPIRE-SEAT-1")
        return SeatPlan({s: new_secret() for s in seats}, {}, None)
    kept = list(keep or [])
    for i, s in enumerate(kept):
        if s not in seats:
            raise Problem(422, "bad-setup", f"keep names {s!r}, not a seat of this game (seats: {', '.join(seats)})",
                          field=f"keep[{i}]", rule="UMPIRE-SEAT-1")
        if s in bots:
            raise Problem(422, "bad-setup", f"{s} is played by the bot {bots[s]}: the service seats it",
                          field=f"keep[{i}]", rule="UMPIRE-SEAT-1")
        if s in kept[:i]:
            raise Problem(422, "bad-setup", f"keep names {s} twice", field=f"keep[{i}]", rule="UMPIRE-SEAT-1")
    invited = [s for s in seats if s not in bots and s not in kept]
    tokens = {s: new_secret() for s in seats if s not in invited}
    return SeatPlan(tokens, {s: new_secret() for s in invited},
                    SeatsOffered(kept=tuple(s for s in seats if s in kept), invited=tuple(invited)))


def offered_emitted(offered: SeatsOffered) -> Emitted:
    kept = ", ".join(offered.kept) or "no seat"
    invited = ", ".join(offered.invited) or "no seat"
    text = f"The creator keeps {kept}; {invited} {'is' if len(offered.invited) == 1 else 'are'} offered by " \
           "one-time invitation."
    if len(offered.kept) > 1:
        text += f" The creator holds {kept}: it can read each of those hands and act for each of those seats."
    return Emitted(event=offered, ruling=Ruling(summary="seats offered", steps=(
        RuleStep(rule="UMPIRE-SEAT-1", text=text, values={"kept": list(offered.kept), "invited": list(offered.invited)}),
    )))


def claimed_emitted(seat: str) -> Emitted:
    return Emitted(event=SeatClaimed(seat=seat, by_invitation=True), ruling=Ruling(summary=f"{seat} is claimed", steps=(
        RuleStep(rule="UMPIRE-SEAT-2", text=f"{seat} was claimed with its one-time invitation; its token went to the "
                 "claimant only and the invitation is spent.", values={"seat": seat}),)))


def rotated_emitted(seat: str) -> Emitted:
    return Emitted(event=SeatRotated(seat=seat), ruling=Ruling(summary=f"{seat}'s token is replaced", steps=(
        RuleStep(rule="UMPIRE-SEAT-4", text=f"The holder of {seat} replaced its token; the old one no longer acts.",
                 values={"seat": seat}),)))


def seats_report(h: SeatHolding, seats: tuple[str, ...], bots: dict[str, str]) -> dict[str, Any]:
    """UMPIRE-SEAT-5: ``{"seating", "seats", "creator_holds"}`` (nothing says who holds a seat)."""
    return {"seating": INVITATIONS if h.offered is not None else TOKENS, "seats": seat_report(h, seats, bots),
            "creator_holds": creator_holds(h, seats, bots)}


def seats_public(kernel: Any) -> dict[str, Any] | None:
    """:func:`seats_report` of a game's folded kernel state, for ``/verify`` and views (None: no header)."""
    header = kernel.header if kernel is not None else None
    if header is None:
        return None
    return seats_report(kernel.seats, header.seats, header.bots)


def invitation_of(body_invitation: str | None, header_token: str | None) -> str:
    """The invitation of a claim: the body's ``invitation``, else the Authorization header's."""
    code = body_invitation or header_token
    if not code:
        raise Problem(401, "unauthorized", "a claim needs the seat's invitation: {\"invitation\": ...} or "
                      "Authorization: Bearer <invitation>", rule="UMPIRE-SEAT-2")
    return code


def refused(exc: SeatRefused, seat: str) -> Problem:
    if exc.reason == "claimed":
        return Problem(410, "seat-taken", f"{seat} was claimed already: its invitation is spent", rule="UMPIRE-SEAT-2",
                       field="seat")
    if exc.reason == "wrong":
        return Problem(403, "invitation-refused", f"this is not {seat}'s invitation", rule="UMPIRE-SEAT-3")
    return Problem(401, "unauthorized", f"this token is not {seat}'s current token", rule="UMPIRE-SEAT-4")


def check_claimable(h: SeatHolding, seats: tuple[str, ...], seat: str, *, where: str) -> None:
    """The refusals of a claim decided from the log: unknown seat (404), a seat not offered by invitation
    (409 UMPIRE-SEAT-3), a seat claimed already (410 UMPIRE-SEAT-2)."""
    if seat not in seats:
        raise Problem(404, "not-found", f"{where} has no seat {seat!r}", field="seat")
    offered = h.offered
    if offered is None or seat not in offered.invited:
        raise Problem(409, "rule-violation", f"{seat} was not offered by invitation (its token went to the creator, "
                      "or a bot plays it): there is nothing to claim", rule="UMPIRE-SEAT-3", field="seat")
    if seat in h.claimed:
        raise Problem(410, "seat-taken", f"{seat} was claimed already: its invitation is spent",
                      rule="UMPIRE-SEAT-2", field="seat")


__all__ = ["SeatPlan", "check_claimable", "claimed_emitted", "invitation_of", "new_secret", "offered_emitted", "plan_seats",
           "refused", "rotated_emitted", "seats_public", "seats_report"]
