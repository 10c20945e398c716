"""The game's header and its opening (DESIGN sections 2 and 3): kernel events every game has.

- ``game_created`` is event 1 of every game stored under chain version 2: the ruleset, scenario,
  options, seats, engine version, seed commitment and start mode. Everything the games table says
  about a game is derived from its log (this header and the fold); the table is a cache that
  verification checks.
- ``"start": "when_ready"`` leaves a game ``waiting`` until every seat has posted ``ready``
  (a ``seat_ready`` event each, with an optional client seed); the opening (shuffles, deals) is
  decided only then, with the client seeds mixed into every draw
  (:func:`domain.kernel.dice.client_mix`). The server committed to its seed before it saw them.

:class:`KernelState` is the kernel's own small fold beside the ruleset state: the header, the seats
that are ready, and the undo request waiting for an answer (:mod:`domain.kernel.undo`). It is folded
from the kernel events alone (plus, for logs written before undo lapses were events, the seq of the
last game event), so read models can keep it without folding the whole game.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

import msgspec

from .decider import Status
from .dice import client_mix
from .envelope import Command, Emitted, Event
from .messages import msg
from .rulings import RuleViolation, RulingBuilder
from .seats import SeatClaimed, SeatHolding, SeatRotated, SeatsOffered, holding_evolve
from .undo_events import UndoAccepted, UndoDeclined, UndoLapsed, Undone, UndoRequested

START_NOW = "now"
START_WHEN_READY = "when_ready"
STARTS = (START_NOW, START_WHEN_READY)
WAITING = "waiting"

#: A client seed (CONTRACTS): 1-64 characters of ``[A-Za-z0-9_-]``.
CLIENT_SEED_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
ClientSeed = Annotated[str, msgspec.Meta(pattern=CLIENT_SEED_PATTERN)]


class GameCreated(Event, tag="game_created", kw_only=True):
    """Event 1: the game's header. ``client_seeds`` is set when the seeds were given at creation
    (the battles of a ``when_ready`` campaign inherit the campaign's); then draws mix them at once."""

    game_id: str
    ruleset: str
    scenario: str
    options: dict[str, Any] = {}
    seats: tuple[str, ...]
    engine_version: str
    seed_commitment: str
    start: str = START_NOW
    campaign_id: str | None = None
    chain_version: int = 2
    client_seeds: dict[str, str | None] | None = None
    #: True when the game's creator gave the seed (reproducible games, tests): the creator can then
    #: compute every draw, so every seat can see it (``/verify``) and decide not to play such a game.
    seed_given: bool = False
    #: Seats played by the service's built-in bots (DESIGN 13, UMPIRE-BOT-1): seat -> ``"<bot id>:<level>"``.
    #: In the header so that a restarted service goes on playing them.
    bots: dict[str, str] = {}
    #: The rule choices in force (DESIGN 14), every one of the ruleset's with defaults filled in; None in a
    #: header written before choices existed (that game folds under each choice's recorded reading).
    choices: dict[str, str] | None = None
    #: UMPIRE-SEAL-2: ``{"<event type>.<key>": sha256}``, the commitment of each side's secret setup handed in
    #: by a campaign and dealt in a sealed event (domain/kernel/seals.py); absent (not encoded) otherwise.
    sealed: dict[str, str] | msgspec.UnsetType = msgspec.UNSET


class SeatReady(Event, tag="seat_ready"):
    seat: str
    client_seed: str | None = None


class Ready(Command, tag="ready"):
    """``POST /games/{id}/ready`` (or this command through ``/commands``) while the game waits."""

    client_seed: ClientSeed | None = None


class UndoPending(msgspec.Struct, frozen=True, kw_only=True):
    """An undo request waiting for another seat's answer (shown in every view)."""

    seq: int
    by: str
    to_version: int
    #: Seats that accepted for their side while other sides must still answer (UMPIRE-UNDO-13).
    accepted: tuple[str, ...] = ()


class KernelState(msgspec.Struct, frozen=True, kw_only=True):
    header: GameCreated | None = None
    #: seat -> its client seed (None: ready without one), in the order the seats became ready.
    ready: dict[str, str | None] = {}
    undo_request: UndoPending | None = None
    #: Who was handed which seat (:mod:`domain.kernel.seats`).
    seats: SeatHolding = SeatHolding()

    @property
    def waiting(self) -> bool:
        """True while a ``when_ready`` game waits for a seat's ``ready``."""
        h = self.header
        return h is not None and h.start == START_WHEN_READY and any(s not in self.ready for s in h.seats)

    def unready(self) -> tuple[str, ...]:
        h = self.header
        return () if h is None else tuple(s for s in h.seats if s not in self.ready)

    @property
    def client_seeds(self) -> dict[str, str | None] | None:
        """The seats' client seeds once they enter the draws (None: a game without them)."""
        h = self.header
        if h is None:
            return None
        if h.client_seeds is not None:
            return dict(h.client_seeds)
        if h.start == START_WHEN_READY:
            return {s: self.ready.get(s) for s in h.seats}
        return None

    @property
    def mix(self) -> str | None:
        """:func:`domain.kernel.dice.client_mix` for the draws of this game (None: plain labels)."""
        seeds = self.client_seeds
        if seeds is None or self.header is None:
            return None
        return client_mix(self.header.seats, seeds)


#: Every event of the kernel (the header, the opening, seats, undo), beside any ruleset's events.
KernelEvent = (GameCreated | SeatReady | UndoRequested | UndoAccepted | UndoDeclined | UndoLapsed | Undone | SeatsOffered
               | SeatClaimed | SeatRotated)

_KERNEL_CLASSES = (GameCreated, SeatReady, UndoRequested, UndoAccepted, UndoDeclined, UndoLapsed, Undone, SeatsOffered,
                   SeatClaimed, SeatRotated)


def is_kernel_event(event: object) -> bool:
    return isinstance(event, _KERNEL_CLASSES)


def kernel_evolve(ks: KernelState, seq: int, event: Any) -> KernelState:
    """The kernel state after ``event`` (any event of the log: game events lapse a waiting
    undo request, as the rule was before lapses were events of their own)."""
    r = msgspec.structs.replace
    if isinstance(event, GameCreated):
        return r(ks, header=event)
    if isinstance(event, SeatReady):
        ready = dict(ks.ready)
        ready[event.seat] = event.client_seed
        return r(ks, ready=ready)
    if isinstance(event, (SeatsOffered, SeatClaimed, SeatRotated)):
        return r(ks, seats=holding_evolve(ks.seats, seq, event))
    if isinstance(event, UndoRequested):
        return r(ks, undo_request=UndoPending(seq=seq, by=event.by, to_version=event.to_version))
    if isinstance(event, UndoAccepted) and ks.undo_request is not None:
        req = ks.undo_request
        return r(ks, undo_request=r(req, accepted=(*req.accepted, event.by)))
    if isinstance(event, (UndoDeclined, Undone, UndoLapsed)):
        return r(ks, undo_request=None)
    if not is_kernel_event(event) and ks.undo_request is not None:
        return r(ks, undo_request=None)
    return ks


def fold_kernel(pairs: Iterable[tuple[int, Any]], last_game_seq: int = 0, ks: KernelState | None = None) -> KernelState:
    """The kernel state after ``(seq, event)`` pairs. When only the kernel events are given,
    ``last_game_seq`` (the seq of the last game event) lapses a request older than it."""
    ks = KernelState() if ks is None else ks
    for seq, ev in pairs:
        ks = kernel_evolve(ks, seq, ev)
    if ks.undo_request is not None and last_game_seq > ks.undo_request.seq:
        ks = msgspec.structs.replace(ks, undo_request=None)
    return ks


def game_status(ruleset: Any, state: Any, ks: KernelState | None) -> Status:
    """The game's status: ``waiting`` (and the seats that must post ``ready``) before a
    ``when_ready`` game opens, else the ruleset's."""
    if ks is not None and ks.waiting:
        return Status(status=WAITING, to_act=ks.unready(), winner=None, turn=0, turn_seat=None)
    return ruleset.status(state)


def decide_ready(ks: KernelState, seat: str, command: Ready) -> Emitted:
    """``ready`` of ``seat`` (UMPIRE-READY-1: only while the game waits; UMPIRE-READY-2: once)."""
    if not ks.waiting:
        raise RuleViolation("UMPIRE-READY-1", msg("The game is not waiting for its seats: it has opened already")
                            if ks.header is None or ks.header.start == START_WHEN_READY
                            else msg("This game was not created with \"start\": \"when_ready\"; it opened at once."))
    if seat in ks.ready:
        raise RuleViolation("UMPIRE-READY-2", msg("{seat} is ready already (a client seed is given once).", seat=seat))
    left = [s for s in ks.unready() if s != seat]
    said = (msg("{seat} is ready with client seed {client_seed}; it enters every draw.", seat=seat,
                client_seed=repr(command.client_seed)) if command.client_seed
            else msg("{seat} is ready without a client seed; it enters every draw.", seat=seat))
    rb = RulingBuilder().add("UMPIRE-READY-3", said, client_seed=command.client_seed)
    summary = (msg("{seat} is ready; waiting for {seats}", seat=seat, seats=", ".join(left)) if left
               else msg("{seat} is ready; the game opens", seat=seat))
    return Emitted(event=SeatReady(seat=seat, client_seed=command.client_seed), ruling=rb.build(summary))


__all__ = ["CLIENT_SEED_PATTERN", "GameCreated", "KernelState", "Ready", "START_NOW", "START_WHEN_READY", "STARTS",
           "KernelEvent", "SeatReady", "UndoPending", "WAITING", "decide_ready", "fold_kernel", "game_status",
           "is_kernel_event", "kernel_evolve"]
