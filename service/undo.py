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

This module reads the log into :class:`~domain.kernel.undo.Logged` records (the command each event
belongs to: the stored ``step``; for games stored before it was kept, the events of one append share
their ``recorded_at``), asks the kernel, and appends what it decided.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import KERNEL_EVENT_TYPES, PUBLIC, Emitted, NotYourDecision, RuleViolation, UndoAccept, UndoDecline, UndoTo
from domain.kernel.reveals import stored_reveal
from domain.kernel.sides import seat_sides
from domain.kernel.undo import Logged, boundaries, decide_undo, opening_end, steps_of
from domain.kernel.undo import answer_undo as kernel_answer

from .game_service import Answer, Current, GameService, Steps
from .problems import Problem
from .store import StoredEvent


class UndoRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    to_version: int


def logged(records: list[StoredEvent], ruleset: Any = None) -> list[Logged]:
    """The log as undo sees it: each event with the first seq of its command, and whether it is a reveal
    (UMPIRE-REVEAL-1, derived from the event: :func:`domain.kernel.reveals.stored_reveal`)."""
    out: list[Logged] = []
    first = 0
    prev: StoredEvent | None = None
    for e in records:
        if e.step is not None:
            step = e.step
        else:  # chain version 1: one append shares its recorded_at
            if prev is None or prev.recorded_at != e.recorded_at or prev.step is not None:
                first = e.seq
            step = first
        drew = e.rolls not in ("", "[]")
        revealing = (stored_reveal(ruleset, e.type, e.visibility, drew, e.reveals) if ruleset is not None
                     else e.reveals or drew or e.visibility != PUBLIC)
        out.append(Logged(seq=e.seq, step=step, type=e.type, actor=e.actor, turn=e.turn, revealing=revealing,
                          drew=drew))
        prev = e
    return out


def opening_version(records: list[StoredEvent]) -> int:
    """The version at which the game opened (undo never reaches before it)."""
    return opening_end(steps_of(logged(records)))


def game_steps(svc: GameService, cur: Current) -> list:
    """The game's commands up to ``cur.version`` as the kernel's undo sees them."""
    return steps_of(logged(svc.store.load(cur.game.game_id, upto=cur.version), cur.ruleset))


def decide_undo_command(svc: GameService, cur: Current, seat: str, command: Any) -> Emitted:
    """The kernel's decision on an undo, or on an answer to a waiting request (nothing stored: the
    dry run asks this too)."""
    steps = game_steps(svc, cur)
    ks = cur.folded.kernel
    sides = seat_sides(cur.ruleset, cur.setup)
    try:
        if isinstance(command, UndoTo):
            return decide_undo(steps, ks, seat=seat, seats=cur.setup.seats, to_version=command.to_version,
                               version=cur.version, turn=cur.status.turn, finished=cur.finished,
                               last_undone_seq=cur.folded.last_undone_seq, sides=sides)
        if cur.finished:
            raise RuleViolation("UMPIRE-UNDO-3", "A finished game cannot be undone.")
        return kernel_answer(steps, ks, seat=seat, accept=isinstance(command, UndoAccept), sides=sides)
    except NotYourDecision as exc:
        raise Problem(403, "not-your-decision", exc.detail, rule=exc.rule, ruleset=cur.ruleset.id) from None
    except RuleViolation as exc:
        raise Problem(422, "undo-refused", exc.detail, rule=exc.rule, ruleset=cur.ruleset.id) from None


def undo_steps(svc: GameService, cur: Current, seat: str, command: Any, *, command_id: str | None = None,
               body_hash: str | None = None, note: Any = None) -> Steps:
    """Decide and append an undo, or an answer to a waiting request (``note``: a step added to its ruling);
    steps of :data:`service.game_service.Steps`."""
    from .game_service import with_note  # kernel-game: moving

    em = with_note([decide_undo_command(svc, cur, seat, command)], note)[0]
    name = type(em.event).__struct_config__.tag
    extra = {"undo": {"undone": "done", "undo_requested": "requested", "undo_declined": "declined",
                      "undo_accepted": "accepted"}[name]}
    return (yield from svc.append_steps(cur, seat, [em], expected_version=cur.version, command_id=command_id,
                                        body_hash=body_hash, status_code=202 if name in ("undo_requested", "undo_accepted") else 201,
                                        extra=extra, command_body=msgspec.json.encode(command).decode()))


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


def answer(svc: GameService, game_id: str, token: str | None, accept: bool) -> Answer:
    """``POST /games/{id}/undo/accept`` and ``/decline``."""
    svc.game(game_id)
    seat = _seat(svc, game_id, token)
    return svc.run(game_id, seat, UndoAccept() if accept else UndoDecline(), expected_version=None)


#: The name this function had before undo moved into the kernel.
answer_undo = answer


def undo_targets(svc: GameService, game_id: str) -> list[int]:
    """The command boundaries an undo may go back to now (newest last)."""
    cur = svc.current(game_id)
    return boundaries(game_steps(svc, cur))


__all__ = ["KERNEL_EVENT_TYPES", "UndoRequest", "answer", "answer_undo", "decide_undo_command", "game_steps", "logged",
           "opening_version", "request_undo", "undo_steps", "undo_targets"]
