"""Fair undo (DESIGN section 5): the log is never edited.

``POST /games/{id}/undo {"to_version": n}`` asks to undo every step after
version ``n``:

- **free** (201, appends ``Undone``): every game event after ``n`` is the
  caller's own, of the current turn (``Status.turn``), and none revealed
  anything (no roll, no card drawn, no automated decision: ``reveals`` or
  recorded ``rolls``);
- otherwise it **needs consent** (202, appends ``UndoRequested``); another
  seat answers with ``/undo/accept`` (201, appends ``Undone`` with
  ``consented_by``) or ``/undo/decline`` (201, appends ``UndoDeclined``).
  A request lapses as soon as another game event is appended after it
  (playing on is declining).

The dice counters are taken from every recorded roll, undone ones included
(:mod:`service.game_service`), so the first roll after an undo is a new roll:
undo can never be used to re-roll.

Refusals are 422 problems whose ``rule`` is one of :data:`UNDO_RULES`.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import KERNEL_EVENT_TYPES, Emitted, UndoDeclined, Undone, UndoRequested
from domain.kernel.fold import decode_event

from .game_service import Answer, GameService
from .problems import Problem
from .store import StoredEvent

#: The service's own rule ids for undo (documented here and in the problem bodies).
UNDO_RULES: dict[str, str] = {
    "UMPIRE-UNDO-1": "to_version must lie between the end of the game's opening and the version before the current one",
    "UMPIRE-UNDO-2": "an undo cannot reach back across an earlier undo",
    "UMPIRE-UNDO-3": "a finished game cannot be undone",
    "UMPIRE-UNDO-4": "an undo request is already waiting for an answer",
    "UMPIRE-UNDO-5": "there is no undo request waiting for an answer",
    "UMPIRE-UNDO-6": "this undo needs another seat's consent, and the game has no other seat",
    "UMPIRE-UNDO-7": "there is nothing to undo after that version",
}


class UndoRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    to_version: int


def _refuse(rule: str, detail: str | None = None, ruleset: str | None = None) -> Problem:
    return Problem(422, "undo-refused", detail or UNDO_RULES[rule], rule=rule, ruleset=ruleset)


def opening_version(records: list[StoredEvent]) -> int:
    """Seqs appended when the game was created (no actor): never undone."""
    n = 0
    for e in records:
        if e.actor is not None:
            break
        n = e.seq
    return n


def pending_request(svc: GameService, ruleset: Any, records: list[StoredEvent]) -> tuple[int, UndoRequested] | None:
    """The open ``UndoRequested`` (its seq and event), if any."""
    for e in reversed(records):
        if e.type == "undo_requested":
            return e.seq, decode_event(ruleset, e.payload)
        return None
    return None


def _seat(svc: GameService, game_id: str, token: str | None) -> str:
    seat = svc.seat(game_id, token)
    if seat is None:
        raise Problem(401, "unauthorized", "a seat token is required (Authorization: Bearer <token>)"
                      if not token else "this token is not a seat of this game")
    return seat


def is_free(records_after: list[StoredEvent], seat: str, turn: int) -> bool:
    """DESIGN 5: own commands of the current turn with nothing revealed since."""
    for e in records_after:
        if e.type in KERNEL_EVENT_TYPES:
            continue
        if e.actor != seat or e.turn != turn or e.reveals or e.rolls not in ("", "[]"):
            return False
    return True


def request_undo(svc: GameService, game_id: str, token: str | None, to_version: int) -> Answer:
    game = svc.game(game_id)
    seat = _seat(svc, game_id, token)
    svc.require_playable(game)
    cur = svc.current(game_id)
    rs = cur.ruleset
    if cur.finished:
        raise _refuse("UMPIRE-UNDO-3", ruleset=cur.ruleset.id)
    records = svc.store.load(game_id, upto=cur.version)
    first_allowed = opening_version(records)
    if not first_allowed <= to_version < cur.version:
        raise _refuse("UMPIRE-UNDO-1", f"to_version must be between {first_allowed} and {cur.version - 1}; got {to_version}",
                      rs.id)
    if to_version < cur.folded.last_undone_seq:
        raise _refuse("UMPIRE-UNDO-2", f"{UNDO_RULES['UMPIRE-UNDO-2']} (the last undo is at version "
                                      f"{cur.folded.last_undone_seq})", rs.id)
    if pending_request(svc, rs, records) is not None:
        raise _refuse("UMPIRE-UNDO-4", ruleset=cur.ruleset.id)
    after = [e for e in records if e.seq > to_version]
    if not any(e.type not in KERNEL_EVENT_TYPES for e in after):
        raise _refuse("UMPIRE-UNDO-7", ruleset=cur.ruleset.id)
    st = rs.status(cur.state)
    if is_free(after, seat, st.turn):
        last = max(e.seq for e in after if e.type not in KERNEL_EVENT_TYPES)
        ev = Undone(by=seat, first=to_version + 1, last=last)
        return svc.append(cur, seat, [Emitted(event=ev)], expected_version=cur.version, extra={"undo": "done"})
    if not [s for s in cur.setup.seats if s != seat]:
        raise _refuse("UMPIRE-UNDO-6", ruleset=cur.ruleset.id)
    ev_req = UndoRequested(by=seat, to_version=to_version)
    return svc.append(cur, seat, [Emitted(event=ev_req)], expected_version=cur.version, status_code=202,
                      extra={"undo": "requested"})


def answer_undo(svc: GameService, game_id: str, token: str | None, accept: bool) -> Answer:
    game = svc.game(game_id)
    seat = _seat(svc, game_id, token)
    svc.require_playable(game)
    cur = svc.current(game_id)
    if cur.finished:
        raise _refuse("UMPIRE-UNDO-3", ruleset=cur.ruleset.id)
    records = svc.store.load(game_id, upto=cur.version)
    pending = pending_request(svc, cur.ruleset, records)
    if pending is None:
        raise _refuse("UMPIRE-UNDO-5", ruleset=cur.ruleset.id)
    req_seq, req = pending
    if req.by == seat:
        raise Problem(403, "not-your-decision", f"{seat} asked for this undo; another seat must accept or decline it")
    if accept:
        # the range ends at the last game event before the request (the undo bookkeeping stays kept)
        last = max(e.seq for e in records if e.seq < req_seq and e.type not in KERNEL_EVENT_TYPES)
        ev: Any = Undone(by=req.by, first=req.to_version + 1, last=last, consented_by=seat)
        return svc.append(cur, seat, [Emitted(event=ev)], expected_version=cur.version, extra={"undo": "done"})
    ev = UndoDeclined(by=seat, to_version=req.to_version)
    return svc.append(cur, seat, [Emitted(event=ev)], expected_version=cur.version, extra={"undo": "declined"})


__all__ = ["UNDO_RULES", "UndoRequest", "answer_undo", "request_undo", "is_free", "opening_version"]
