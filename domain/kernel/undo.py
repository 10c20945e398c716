"""Undo as events, decided by pure functions (DESIGN section 5): the log is never edited.

These kernel events live in every game's stream beside the ruleset's events. ``Undone`` marks the
seqs ``first..last`` as undone; the state is the fold of the events that are not undone. The dice
counters are taken from every recorded draw, undone or not, so an undo never rewinds them: the first
draw after an undo is a new draw, and a card drawn again is the same card (the deck order is in the
state).

The decision (every ruleset gets it; the service only reads the log and appends):

- ``to_version`` must be a **command boundary**: the version right after a whole command
  (UMPIRE-UNDO-8), at or after the end of the game's opening (UMPIRE-UNDO-1), not behind an earlier
  undo (UMPIRE-UNDO-2);
- the undo is **free** when every command after ``to_version`` is the caller's own, of the current
  turn, and none of them revealed anything (no draw, no card drawn or looked at, no automated
  decision, no hidden choice: the stored ``reveals`` flag or recorded draws); the range and
  everything after it are checked, so nothing revealed since can be taken back either;
- otherwise it needs another seat's **consent**: ``undo_requested`` waits (shown in every view and
  in the other seats' legal commands as ``undo_accept`` / ``undo_decline``), and it **lapses** with
  an ``undo_lapsed`` event when play goes on. An accepted undo whose range had draws is marked
  ``redraw: true`` and the ruling of the new draw says it is an agreed re-roll (UMPIRE-UNDO-9).

Refusals are :class:`~domain.kernel.rulings.RuleViolation` with an ``UMPIRE-UNDO-*`` rule
(``domain/kernel/rules.md``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from .envelope import Command, Emitted, Event
from .messages import Message, msg, msg_n
from .header import GameCreated, KernelEvent, KernelState, Ready, SeatReady, UndoPending, is_kernel_event
from .rulings import NotYourDecision, RuleStep, Ruling, RuleViolation, RulingBuilder
from .sides import other_sides
from .undo_events import UndoAccepted, UndoDeclined, UndoLapsed, Undone, UndoRequested


class UndoTo(Command, tag="undo"):
    """``POST /games/{id}/undo {"to_version": n}`` (or this command through ``/commands``)."""

    to_version: int


class UndoAccept(Command, tag="undo_accept"):
    pass


class UndoDecline(Command, tag="undo_decline"):
    pass


KERNEL_EVENT_TYPES: frozenset[str] = frozenset(
    {"game_created", "seat_ready", "undo_requested", "undo_accepted", "undo_declined", "undo_lapsed", "undone",
     "seats_offered", "seat_claimed", "seat_rotated"})
KernelCommand = Ready | UndoTo | UndoAccept | UndoDecline
KERNEL_COMMAND_TYPES: frozenset[str] = frozenset({"ready", "undo", "undo_accept", "undo_decline"})
#: Events that belong to a game's opening (never undone).
OPENING_EVENT_TYPES: frozenset[str] = frozenset({"game_created", "seat_ready", "seats_offered", "seat_claimed"})

def undone_seqs(records: "Sequence[tuple[int, object]]") -> set[int]:
    """Seqs marked undone by the ``Undone`` events among ``(seq, event)`` pairs."""
    out: set[int] = set()
    for _seq, ev in records:
        if isinstance(ev, Undone):
            out.update(range(ev.first, ev.last + 1))
    return out


# -- the log as undo sees it ---------------------------------------------------------------------
class Logged(msgspec.Struct, frozen=True, kw_only=True):
    """What undo needs of one stored event."""

    seq: int
    #: First seq of the command (one append) that produced it.
    step: int
    type: str
    actor: str | None
    turn: int
    #: A reveal (UMPIRE-REVEAL-1: draws, not public, or a type that makes hidden content public).
    revealing: bool
    #: Recorded draws.
    drew: bool

    @property
    def kernel(self) -> bool:
        return self.type in KERNEL_EVENT_TYPES


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One command: the events of one append, ``first..last``."""

    first: int
    last: int
    actor: str | None
    turns: frozenset[int]
    revealing: bool
    drew: bool
    #: Only kernel bookkeeping (an undo, a request, an answer): no game event.
    kernel: bool
    #: Part of the game's opening (the header, a seat's ready).
    opening: bool


def steps_of(logged: Sequence[Logged]) -> list[Step]:
    """The commands of a log, in order (events grouped by their ``step``)."""
    out: list[Step] = []
    group: list[Logged] = []

    def close() -> None:
        if group:
            game = [e for e in group if not e.kernel]
            out.append(Step(first=group[0].seq, last=group[-1].seq, actor=next((e.actor for e in group), None),
                            turns=frozenset(e.turn for e in game), revealing=any(e.revealing for e in game),
                            drew=any(e.drew for e in game), kernel=not game,
                            opening=any(e.type in OPENING_EVENT_TYPES for e in group)))

    for e in logged:
        if group and e.step != group[0].step:
            close()
            group = []
        group.append(e)
    close()
    return out


def opening_end(steps: Sequence[Step]) -> int:
    """The version at which the game opened: undo never reaches before it. The last step with a
    header or ready event; in a log without a header, the leading steps that no seat made."""
    marked = [s.last for s in steps if s.opening]
    if marked:
        return max(marked)
    end = 0
    for s in steps:
        if s.actor is not None:
            break
        end = s.last
    return end


def boundaries(steps: Sequence[Step]) -> list[int]:
    """Versions an undo may go back to (command boundaries at or after the opening)."""
    start = opening_end(steps)
    return [s.last for s in steps if s.last >= start]


def _ruling(rule: str, text: str | Message, summary: str | Message, **values: Any) -> Ruling:
    return RulingBuilder().add(rule, text, **values).build(summary)


def range_reveals(steps: Sequence[Step], to_version: int, upto: int | None = None) -> bool:
    """UMPIRE-UNDO-11: whether the game commands after ``to_version`` (up to seq ``upto``) hold a reveal.
    The kernel's free-undo test, and a bot's reason to decline (UMPIRE-BOT-2)."""
    return any(s.revealing for s in steps
               if s.first > to_version and not s.kernel and (upto is None or s.last <= upto))


def range_draws(steps: Sequence[Step], to_version: int, upto: int | None = None) -> bool:
    """Whether the game commands after ``to_version`` (up to seq ``upto``) drew (the ``redraw`` test)."""
    return any(s.drew for s in steps if s.first > to_version and not s.kernel and (upto is None or s.last <= upto))


def decide_undo(steps: Sequence[Step], ks: KernelState, *, seat: str, seats: Sequence[str], to_version: int,
                version: int, turn: int, finished: bool, last_undone_seq: int,
                sides: dict[str, str] | None = None) -> Emitted:
    """An ``Undone`` (free) or an ``UndoRequested`` (consent needed); RuleViolation when refused.
    ``sides``: seat -> side (:func:`domain.kernel.sides.seat_sides`; None: each seat its own side)."""
    if finished:
        raise RuleViolation("UMPIRE-UNDO-3", msg("A finished game cannot be undone."))
    start = opening_end(steps)
    if ks.waiting or not start <= to_version < version:
        raise RuleViolation("UMPIRE-UNDO-1", msg("to_version must be between {first} (the end of the game's opening)"
                                                 " and {last}; got {version}.", first=start, last=version - 1,
                                                 version=to_version), first=start, last=version - 1)
    if to_version < last_undone_seq:
        raise RuleViolation("UMPIRE-UNDO-2", msg("An undo cannot reach back across an earlier undo (the last undo is"
                                                 " at version {version}).", version=last_undone_seq),
                            last_undo=last_undone_seq)
    if ks.undo_request is not None:
        raise RuleViolation("UMPIRE-UNDO-4", msg("An undo request of {by} (back to version {version}) is already "
                                                 "waiting for an answer.", by=ks.undo_request.by,
                                                 version=ks.undo_request.to_version))
    ends = {s.last for s in steps}
    if to_version not in ends:
        before = max((e for e in ends if e < to_version), default=start)
        after = min((e for e in ends if e > to_version), default=version)
        raise RuleViolation("UMPIRE-UNDO-8", msg("to_version {version} falls inside a command (seqs {first}-{last} "
                                                 "are one command): undo goes back to a command boundary, e.g. "
                                                 "{start}.", version=to_version, first=before + 1, last=after,
                                                 start=before), before=before, after=after)
    later = [s for s in steps if s.first > to_version and not s.kernel]
    if not later:
        raise RuleViolation("UMPIRE-UNDO-7", msg("There is nothing to undo after that version."))
    last = max(s.last for s in later)
    mine = all(s.actor == seat for s in later)
    this_turn = all(s.turns <= {turn} for s in later)
    hidden = range_reveals(steps, to_version)
    if mine and this_turn and not hidden:
        return Emitted(event=Undone(by=seat, first=to_version + 1, last=last), ruling=_ruling(
            "UMPIRE-UNDO-11", msg("{seat} takes back its own commands of this turn (seqs {first}-{last}); nothing was "
                                  "revealed by them or since, so no consent is needed.", seat=seat,
                                  first=to_version + 1, last=last),
            msg("{seat} undoes back to version {version}", seat=seat, version=to_version), first=to_version + 1,
            last=last))
    sides = sides if sides is not None else {s: s for s in seats}
    others = other_sides(sides, seat)
    if not others:
        raise RuleViolation("UMPIRE-UNDO-6", msg("This undo needs the consent of another side, and the game has no "
                                                 "other side."))
    why = (msg("something was revealed in those commands or since (a draw, a card, an automated or hidden decision)")
           if hidden else msg("they include another seat's commands") if not mine
           else msg("they reach into an earlier turn"))
    return Emitted(event=UndoRequested(by=seat, to_version=to_version), ruling=RulingBuilder().add(
        "UMPIRE-UNDO-12", msg("Undoing seqs {first}-{last} needs consent: {why}.", first=to_version + 1, last=last,
                              why=why),
        to_version=to_version, revealing=hidden).add(
        "UMPIRE-UNDO-13", msg("A seat of every other side must accept: {sides} (never a teammate of {seat}).",
                              sides=", ".join(others), seat=seat), sides=list(others)).build(
        msg("{seat} asks to undo back to version {version}", seat=seat, version=to_version)))


def waiting_sides(ks: KernelState, sides: dict[str, str]) -> tuple[str, ...]:
    """UMPIRE-UNDO-13: the sides that must still answer the waiting request (none: no request)."""
    req = ks.undo_request
    if req is None:
        return ()
    done = {sides.get(a, a) for a in req.accepted}
    return tuple(s for s in other_sides(sides, req.by) if s not in done)


def may_answer(ks: KernelState, sides: dict[str, str], seat: str) -> bool:
    """Whether ``seat`` may accept or decline the waiting request: its side is another side than the
    asker's, and has not accepted yet (UMPIRE-UNDO-13)."""
    return sides.get(seat, seat) in waiting_sides(ks, sides)


def answer_undo(steps: Sequence[Step], ks: KernelState, *, seat: str, accept: bool,
                sides: dict[str, str] | None = None) -> Emitted:
    """An answer to the waiting request: ``UndoDeclined``, ``UndoAccepted`` (other sides must still
    consent) or ``Undone`` (every other side agreed). ``sides``: seat -> side (None: each seat its own)."""
    req = ks.undo_request
    if req is None:
        raise RuleViolation("UMPIRE-UNDO-5", msg("There is no undo request waiting for an answer."))
    if req.by == seat:
        raise NotYourDecision(msg("{seat} asked for this undo; another side must accept or decline it", seat=seat),
                              rule="UMPIRE-UNDO-9")
    sides = sides if sides is not None else {s: s for s in {seat, req.by, *req.accepted}}
    mine, theirs = sides.get(seat, seat), sides.get(req.by, req.by)
    if mine == theirs:
        raise NotYourDecision(msg("{seat} is on {by}'s side ({side}): a teammate cannot consent to its undo; a "
                                  "seat of every other side must answer", seat=seat, by=req.by, side=mine),
                              rule="UMPIRE-UNDO-13")
    left = waiting_sides(ks, sides)
    if mine not in left:
        raise NotYourDecision(msg("{seat}'s side ({side}) has accepted this undo already; waiting for {sides}",
                                  seat=seat, side=mine, sides=", ".join(left)), rule="UMPIRE-UNDO-13")
    if not accept:
        return Emitted(event=UndoDeclined(by=seat, to_version=req.to_version), ruling=_ruling(
            "UMPIRE-UNDO-9", msg("{seat} declines {by}'s undo: the game stays as it is.", seat=seat, by=req.by),
            msg("{seat} declines the undo", seat=seat)))
    still = tuple(s for s in left if s != mine)
    if still:
        return Emitted(event=UndoAccepted(by=seat, to_version=req.to_version), ruling=_ruling(
            "UMPIRE-UNDO-13", msg("{seat} accepts {by}'s undo for {side}; still waiting for {sides}.", seat=seat,
                                  by=req.by, side=mine, sides=", ".join(still)),
            msg("{seat} accepts the undo; waiting for {sides}", seat=seat, sides=", ".join(still)),
            waiting=list(still)))
    # the range ends at the last game event before the request (the undo bookkeeping stays kept)
    later = [s for s in steps if s.first > req.to_version and s.last < req.seq and not s.kernel]
    if not later:  # cannot happen: the request was checked when it was made
        raise RuleViolation("UMPIRE-UNDO-7", msg("There is nothing to undo after that version."))
    last = max(s.last for s in later)
    redraw = any(s.drew for s in later)
    agreed = [*req.accepted, seat]
    text = msg_n("{seats} agrees to undo {by}'s seqs {first}-{last} (every other side: UMPIRE-UNDO-13).",
                 "{seats} agree to undo {by}'s seqs {first}-{last} (every other side: UMPIRE-UNDO-13).", "count",
                 seats=", ".join(agreed), count=len(agreed), by=req.by, first=req.to_version + 1, last=last)
    if redraw:
        text = msg("{text} The undone range had draws: the next draws are new ones, an agreed re-roll.", text=text)
    return Emitted(event=Undone(by=req.by, first=req.to_version + 1, last=last, consented_by=seat, redraw=redraw),
                   ruling=_ruling("UMPIRE-UNDO-9", text, msg("{seat} accepts the undo", seat=seat), redraw=redraw,
                                  agreed=agreed))


def lapse(req: UndoPending) -> Emitted:
    """The event that ends a waiting request when play goes on."""
    return Emitted(event=UndoLapsed(by=req.by, to_version=req.to_version), ruling=_ruling(
        "UMPIRE-UNDO-10", msg("Play went on: {by}'s undo request (back to version {version}) lapses.", by=req.by,
                              version=req.to_version),
        msg("the undo request lapses")))


def lapse_on_rotation(req: UndoPending | None, seat: str) -> Emitted | None:
    """UMPIRE-UNDO-10 with UMPIRE-SEAT-4: a waiting request that ``seat`` asked or accepted for lapses when
    ``seat``'s token is rotated (the new holder did not agree to it); None when it does not involve ``seat``."""
    if req is None or (seat != req.by and seat not in req.accepted):
        return None
    text = (msg("{seat}'s token was replaced (UMPIRE-SEAT-4): the undo request it asked for (back to version "
                "{version}) lapses; its new holder may ask again.", seat=seat, version=req.to_version)
            if seat == req.by else
            msg("{seat}'s token was replaced (UMPIRE-SEAT-4): the undo request it accepted (back to version "
                "{version}) lapses; its new holder may ask again.", seat=seat, version=req.to_version))
    return Emitted(event=UndoLapsed(by=req.by, to_version=req.to_version), ruling=_ruling(
        "UMPIRE-UNDO-10", text, msg("the undo request lapses")))


def agreed_reroll_step(undone_seq: int, undone: Undone) -> RuleStep:
    """The line added to the ruling of the first draw after an agreed undo of draws."""
    said = msg("Agreed re-roll: {by} agreed (seq {seq}) to undo seqs {first}-{last}, which had draws; these draws "
               "replace them.", by=undone.consented_by, seq=undone_seq, first=undone.first, last=undone.last)
    return RuleStep(rule="UMPIRE-UNDO-9", text=said.english(), message=said,
                    values={"undo_seq": undone_seq, "consented_by": undone.consented_by,
                            "first": undone.first, "last": undone.last})


def kernel_legal_commands(ks: KernelState, seat: str, sides: dict[str, str] | None = None) -> list[Command]:
    """The kernel's commands open to ``seat`` now: ``ready`` while the game waits for it, and the
    answer to a waiting undo request when ``seat``'s side must still answer it (UMPIRE-UNDO-13;
    ``sides`` None: each seat its own side)."""
    out: list[Command] = []
    if ks.waiting and seat in ks.unready():
        out.append(Ready())
    req = ks.undo_request
    if req is not None and req.by != seat:
        sd = sides if sides is not None else {s: s for s in {seat, req.by, *req.accepted}}
        if may_answer(ks, sd, seat):
            out += [UndoAccept(), UndoDecline()]
    return out


__all__ = [
    "KERNEL_COMMAND_TYPES", "KERNEL_EVENT_TYPES", "KernelCommand", "KernelEvent", "Logged", "OPENING_EVENT_TYPES",
    "Step", "UndoAccept", "UndoAccepted", "UndoDecline", "UndoLapsed", "UndoRequested", "UndoDeclined", "UndoTo", "Undone",
    "agreed_reroll_step", "answer_undo", "boundaries", "decide_undo", "is_kernel_event", "kernel_legal_commands",
    "lapse", "lapse_on_rotation", "may_answer", "opening_end", "range_draws", "range_reveals", "steps_of", "undone_seqs", "waiting_sides",
]
