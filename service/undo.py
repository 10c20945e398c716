"""Fair undo over REST (DESIGN section 5): the I/O around the kernel's pure undo
(:mod:`domain.kernel.undo`), which every ruleset gets.

``POST /games/{id}/undo {"to_version": n}`` (or ``{"type": "undo", "to_version": n}`` through
``/commands``): 201 and an ``undone`` event when the undo is free, 202 and an ``undo_requested``
event when it needs another seat's consent, 422 with an ``UMPIRE-UNDO-*`` rule when refused (among
them UMPIRE-UNDO-8: ``to_version`` must be a command boundary). The other seat answers with
``{"type": "undo_accept"}`` / ``{"type": "undo_decline"}`` through ``/commands`` (both are listed in
its legal commands while the request waits) or ``POST /games/{id}/undo/accept`` / ``/decline``. A
waiting request is in every view (``"undo_request"``) and lapses with an ``undo_lapsed`` event as
soon as a game command is played.

The decisions are the kernel's (:func:`domain.kernel.game.decide`, on the folded game's log as undo sees
it); this module only names the routes' entrances to the one command path.
"""
from __future__ import annotations

import msgspec

from domain.kernel import KERNEL_EVENT_TYPES, PUBLIC, UndoAccept, UndoDecline, UndoTo
from domain.kernel.game import command_steps
from domain.kernel.undo import Logged

from .game_service import Answer, GameService
from .problems import Problem
from .store import StoredEvent


class UndoRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    to_version: int


class UndoAnswer(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/undo/decline`` (may be empty). ``expected_version``: the version of the game the
    answering seat saw the request in (DESIGN 5 and 8): 409 when the game has moved on, for the request may have
    lapsed and another, back further, be waiting -- an answer is to the request it was shown."""

    expected_version: int | None = None


class UndoConsent(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/undo/accept``: ``expected_version`` is required (as for every command through
    ``/commands``). A consent names the request it consents to by the version it was seen in: a request that
    lapsed and another, back further, asked meanwhile moves the game on, and the consent is refused (409)
    instead of landing on a request its seat never saw (DESIGN 5: a re-draw only with the other side's
    consent). A decline may leave it out: declining takes nothing back."""

    expected_version: int


def logged(records: list[StoredEvent]) -> list[Logged]:
    """The stored log as undo sees it, without decoding it (each event with the first seq of its command;
    a reveal when it drew or is not public, or by its stored flag). The service's own reading decodes the
    events and derives reveals from their types (:func:`domain.kernel.game.records_of`)."""
    return [Logged(seq=e.seq, step=step, type=e.type, actor=e.actor, turn=e.turn,
                   revealing=e.reveals or e.rolls not in ("", "[]") or e.visibility != PUBLIC,
                   drew=e.rolls not in ("", "[]"))
            for e, step in zip(records, command_steps(records))]


def _seat(svc: GameService, game_id: str, token: str | None) -> str:
    seat = svc.seat(game_id, token)
    if seat is None:
        raise Problem(401, "unauthorized", "a seat token is required (Authorization: Bearer <token>)"
                      if not token else "this token is not a seat of this game")
    return seat


def request_undo(svc: GameService, game_id: str, token: str | None, to_version: int) -> Answer:
    """``POST /games/{id}/undo``."""
    svc.game(game_id)
    seat = _seat(svc, game_id, token)
    return svc.run(game_id, seat, UndoTo(to_version=to_version), expected_version=None)


def answer(svc: GameService, game_id: str, token: str | None, accept: bool,
           expected_version: int | None = None) -> Answer:
    """``POST /games/{id}/undo/accept`` and ``/decline`` (``expected_version``: see :class:`UndoAnswer`)."""
    svc.game(game_id)
    seat = _seat(svc, game_id, token)
    return svc.run(game_id, seat, UndoAccept() if accept else UndoDecline(), expected_version=expected_version)


#: The name this function had before undo moved into the kernel.
answer_undo = answer


def undo_targets(svc: GameService, game_id: str) -> list[int]:
    """The command boundaries an undo may go back to now (newest last)."""
    return svc.current(game_id).folded.undo_targets()


__all__ = ["KERNEL_EVENT_TYPES", "UndoAnswer", "UndoConsent", "UndoRequest", "answer", "answer_undo", "logged", "request_undo", "undo_targets"]
