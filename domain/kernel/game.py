"""The game aggregate (DESIGN sections 1, 3, 5): one game folded, and every decision on it.

A :class:`Game` is the ruleset's state and the kernel's own beside it: the header, the seats' holding and
readiness, the waiting undo request (:class:`~domain.kernel.header.KernelState`), the dice counters (from
every recorded draw, undone ones too: an undo never rewinds them), the undone seqs, the agreed re-roll
still to come, and the log as undo sees it (:class:`~domain.kernel.undo.Logged`, small: no payloads).

- :func:`fold` builds it from the log's :class:`Record` s (:func:`records_of` reads stored events), from
  the start or on top of a snapshot (an earlier :class:`Game`); this is the one place replay happens.
- :func:`state_at` is the ruleset state right after any seq.
- :func:`decide` routes a command: ``ready`` (UMPIRE-READY-*), ``undo``, ``undo_accept``,
  ``undo_decline`` (UMPIRE-UNDO-*) are the kernel's; a game command is checked for whose decision it is
  (UMPIRE-TURN-1, UMPIRE-READY-3), handed to the ruleset, preceded by the ``undo_lapsed`` of a waiting
  request (UMPIRE-UNDO-10) and its first draw labelled an agreed re-roll after an agreed undo of draws
  (UMPIRE-UNDO-9).
- :func:`play` applies what was decided: the next :class:`Game` and the new records.

Pure: no I/O. The service loads, locks, appends; the runner, the bots' arena and the benchmarks drive
games in memory through the same functions.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol

import msgspec

from .decider import FINISHED, Ruleset, Setup, SetupError, Status
from .dice import Dice, DryRunStop, Roll, advance
from .envelope import Command, Emitted, event_type_name, is_reveal
from .fold import event_decoder
from .fold import fold as fold_state
from .header import _KERNEL_CLASSES as KERNEL_CLASSES
from .header import KernelState, Ready, decide_ready, game_status, kernel_evolve
from .messages import Message, msg
from .rulings import NotYourDecision, RuleStep, Ruling, RuleViolation
from .sides import seat_sides
from .undo import (
    KernelCommand, Logged, Step, UndoAccept, UndoTo, Undone, agreed_reroll_step, answer_undo, boundaries, decide_undo,
    is_kernel_event, kernel_legal_commands, lapse, steps_of,
)

_rolls_decoder = msgspec.json.Decoder(tuple[Roll, ...])
_replace = msgspec.structs.replace
_KERNEL_COMMANDS: tuple[type, ...] = KernelCommand.__args__  # type: ignore[attr-defined]


class Record(msgspec.Struct, frozen=True, kw_only=True):
    """One event of the log, decoded: what the fold needs of it."""

    seq: int
    event: Any
    #: The event's type (its tag).
    type: str
    #: A kernel event (:func:`domain.kernel.undo.is_kernel_event`).
    kernel: bool
    rolls: tuple[Roll, ...] = ()
    #: First seq of the command (one append) the event belongs to.
    step: int
    actor: str | None = None
    turn: int = 0
    #: UMPIRE-REVEAL-1 (:func:`domain.kernel.envelope.is_reveal`, or the stored flag).
    revealing: bool = False

    def logged(self) -> Logged:
        return Logged(seq=self.seq, step=self.step, type=self.type, actor=self.actor, turn=self.turn,
                      revealing=self.revealing, drew=bool(self.rolls))


class StoredRecord(Protocol):
    """The fields of a stored event (:class:`domain.kernel.log.StoredEvent`) the fold reads."""

    seq: int
    type: str
    payload: str
    actor: str | None
    visibility: str
    recorded_at: str
    rolls: str
    reveals: bool
    turn: int
    step: int | None


def command_steps(stored: Sequence[StoredRecord]) -> list[int]:
    """The first seq of the command each stored event belongs to (``stored`` starts at a command: the log's
    first event, or the first after a version). A log of chain version 1 has no stored ``step``: the events
    of one append share their ``recorded_at``."""
    out: list[int] = []
    prev: Any = None
    step = 0
    for e in stored:
        if e.step is not None:
            step = e.step
        elif prev is None or prev.recorded_at != e.recorded_at or prev.step is not None:
            step = e.seq
        out.append(step)
        prev = e
    return out


def records_of(ruleset: Ruleset, stored: Sequence[StoredRecord]) -> list[Record]:
    """Stored events decoded into records (``stored`` starts at a command, :func:`command_steps`)."""
    out: list[Record] = []
    decode = event_decoder(ruleset).decode
    for e, step in zip(stored, command_steps(stored)):
        drew = e.rolls not in ("", "[]")
        event = decode(e.payload)
        out.append(Record(seq=e.seq, event=event, type=e.type, kernel=isinstance(event, KERNEL_CLASSES),
                          rolls=_rolls_decoder.decode(e.rolls) if drew else (), step=step, actor=e.actor, turn=e.turn,
                          revealing=e.reveals or is_reveal(type(event), e.visibility, drew)))
    return out


class LogChain(NamedTuple):
    """The log as undo sees it, shared between a game and the games after it: each command adds a link
    (no copy of what came before); :meth:`entries` walks it once when an undo is decided."""

    parent: "LogChain | None"
    items: tuple[Logged, ...]

    def entries(self) -> list[Logged]:
        links: list[tuple[Logged, ...]] = []
        node: LogChain | None = self
        while node is not None:
            links.append(node.items)
            node = node.parent
        return [e for items in reversed(links) for e in items]


class Refold(Exception):
    """An undo among records folded on top of a snapshot: its range may reach before the snapshot, so
    the game must be folded from the start (or from a snapshot before the range)."""


class EngineError(Exception):
    """A ruleset broke the kernel's protocol (accepted a command but emitted nothing, drew dice it did not
    record): a bug, never a player's fault."""


class OpeningFailed(Exception):
    """The ruleset could not open the game (its setup, ``field``, or a rule, ``rule``, refused)."""

    def __init__(self, detail: str, *, field: str | None = None, rule: str | None = None,
                 message: Message | None = None):
        super().__init__(detail)
        self.detail = detail
        self.field = field
        self.rule = rule
        #: ``detail`` as a message (issue 28), when the refusal was one
        self.message = message


class Game(msgspec.Struct, frozen=True, kw_only=True):
    """A game folded to ``version``: the ruleset state and the kernel's."""

    ruleset: Ruleset
    setup: Setup
    version: int
    state: Any
    #: The kernel's state: header, seats, ready seats, waiting undo request.
    kernel: KernelState = KernelState()
    #: Next index of each dice stream, from every event's rolls (undone included).
    counters: dict[str, int] = {}
    #: Seqs marked undone by the ``Undone`` events up to ``version``.
    undone: frozenset[int] = frozenset()
    #: Seq of the last ``Undone`` event (0: none).
    last_undone_seq: int = 0
    #: An agreed undo of draws whose re-roll has not happened yet: (its seq, the Undone event).
    reroll: tuple[int, Undone] | None = None
    #: Every kernel event of the log, ``(seq, event)`` (few): the kernel's state at any seq.
    kernel_log: tuple[tuple[int, Any], ...] = ()
    #: The log as undo sees it (one small entry per event).
    log: LogChain | None = None

    @property
    def status(self) -> Status:
        return game_status(self.ruleset, self.state, self.kernel)

    @property
    def finished(self) -> bool:
        return self.status.status == FINISHED

    def dice(self, seed: bytes | None) -> Dice:
        """The dice of the next command: counters after every recorded draw, the seats' client seeds mixed
        in. ``seed`` None: a dry run (the first draw raises ``DryRunStop``)."""
        return Dice(seed or b"", self.setup.game_id, self.counters, mix=self.kernel.mix, dry=seed is None)

    def steps(self) -> list[Step]:
        """The game's commands as undo sees them."""
        return steps_of(self.log.entries() if self.log is not None else [])

    def undo_targets(self) -> list[int]:
        """The command boundaries an undo may go back to now (newest last)."""
        return boundaries(self.steps())

    def sides(self) -> dict[str, str]:
        return seat_sides(self.ruleset, self.setup)

    def legal_commands(self, seat: str) -> list[Command]:
        """The kernel's commands open to ``seat`` (``ready``; the answer to a waiting undo request, for a
        seat of another side: UMPIRE-UNDO-13), then the ruleset's (none while the game waits)."""
        out = kernel_legal_commands(self.kernel, seat, self.sides())
        if not self.kernel.waiting:
            out += self.ruleset.legal_commands(self.state, seat)
        return out


def start(ruleset: Ruleset, setup: Setup) -> Game:
    """The game before its first event."""
    return Game(ruleset=ruleset, setup=setup, version=0, state=ruleset.initial_state(setup), counters={})


def _bookkeep(game: Game, records: Sequence[Record]) -> dict[str, Any]:
    """The kernel's part of folding ``records`` onto ``game`` (everything but the ruleset state)."""
    counters, kernel, reroll = game.counters, game.kernel, game.reroll
    undone, last_undone = game.undone, game.last_undone_seq
    klog: list[tuple[int, Any]] = []
    for r in records:
        ev = r.event
        if r.rolls:
            counters = advance(counters, r.rolls)
        if r.kernel:
            kernel = kernel_evolve(kernel, r.seq, ev)
            klog.append((r.seq, ev))
            if isinstance(ev, Undone):
                undone = undone | frozenset(range(ev.first, ev.last + 1))
                last_undone = r.seq
                # UMPIRE-UNDO-9: an agreed undo of draws waits for its re-roll
                reroll = (r.seq, ev) if ev.consented_by is not None and ev.redraw else None
        else:
            if kernel.undo_request is not None:  # UMPIRE-UNDO-10: play went on, a waiting request lapses
                kernel = kernel_evolve(kernel, r.seq, ev)
            if reroll is not None and r.rolls:  # the first game event with draws is the re-roll
                reroll = None
    return dict(version=records[-1].seq if records else game.version, counters=counters, kernel=kernel,
                reroll=reroll, undone=undone, last_undone_seq=last_undone,
                kernel_log=(*game.kernel_log, *klog) if klog else game.kernel_log,
                log=LogChain(game.log, tuple(r.logged() for r in records)) if records else game.log)


def fold(ruleset: Ruleset, setup: Setup, records: Sequence[Record], snapshot: Game | None = None) -> Game:
    """The game after ``records`` (in seq order): from the start, or on top of ``snapshot`` (then
    ``records`` are the ones after it; :class:`Refold` when an undo is among them). Undone seqs are
    skipped; kernel events change nothing in the ruleset state."""
    base = start(ruleset, setup) if snapshot is None else snapshot
    if snapshot is not None and any(isinstance(r.event, Undone) for r in records):
        raise Refold(f"an undo among the records after version {snapshot.version}")
    kept = _bookkeep(base, records)
    skip = kept["undone"]
    state = fold_state(ruleset, setup, [(r.seq, r.event) for r in records if not r.kernel and r.seq not in skip],
                       state=base.state)
    return _replace(base, state=state, **kept)


def undoes_before(records: Iterable[Record], seq: int) -> bool:
    """Whether an undo among ``records`` undoes ``seq`` or an earlier seq (a snapshot at ``seq`` is then no
    base for folding them: :class:`Refold`)."""
    return any(isinstance(r.event, Undone) and r.event.first <= seq for r in records)


def states(ruleset: Ruleset, setup: Setup, records: Iterable[Record], snapshot: tuple[int, Any] | None = None,
           *, refold: Callable[[int], Any] | None = None) -> Iterator[tuple[Record, Any]]:
    """Each record with the ruleset state right after it (replay step by step: the views, the snapshots,
    ``states/{seq}``). From the start, or from ``snapshot`` (``(its seq, the state then)``; ``records``
    follow it): after an ``Undone`` the state is the fold of the kept events since the snapshot
    (:class:`Refold` when its range reaches back to the snapshot or before), or ``refold(seq)`` when given
    (a caller that keeps earlier snapshots: the state right after the undo at ``seq``)."""
    base_seq, base = snapshot if snapshot is not None else (0, ruleset.initial_state(setup))
    evolve = ruleset.evolve
    state = base
    seen: list[Record] = []
    undone: set[int] = set()
    for r in records:
        ev = r.event
        if isinstance(ev, Undone) and refold is not None:
            state = refold(r.seq)
        elif isinstance(ev, Undone):
            if ev.first <= base_seq:
                raise Refold(f"the undo at {r.seq} reaches back before the snapshot at {base_seq}")
            undone.update(range(ev.first, ev.last + 1))
            state = fold_state(ruleset, setup, [(p.seq, p.event) for p in seen if p.seq not in undone], state=base)
        elif not r.kernel:
            state = evolve(state, ev)
        seen.append(r)
        yield r, state


def steps(ruleset: Ruleset, setup: Setup, records: Iterable[Record], snapshot: tuple[int, Any], kernel: KernelState,
          *, refold: Callable[[int], Any] | None = None) -> Iterator[tuple[Record, Any, KernelState]]:
    """Each record with the ruleset state and the kernel state right after it: :func:`states` from
    ``snapshot`` with the kernel folded along from ``kernel`` (its state at the snapshot's seq)."""
    for r, state in states(ruleset, setup, records, snapshot, refold=refold):
        kernel = kernel_evolve(kernel, r.seq, r.event)
        yield r, state, kernel


def state_at(ruleset: Ruleset, setup: Setup, records: Iterable[Record], seq: int,
             snapshot: tuple[int, Any] | None = None) -> Any:
    """The ruleset state right after ``seq`` (0, or the snapshot's seq: the state there). ``records``: the
    log from the start, or from after ``snapshot`` (:func:`states`)."""
    state = snapshot[1] if snapshot is not None else ruleset.initial_state(setup)
    for r, after in states(ruleset, setup, (r for r in records if r.seq <= seq), snapshot):
        state = after
    return state


def play(game: Game, emitted: Sequence[Emitted], actor: str | None,
         history: Sequence[Record] | None = None) -> tuple[Game, list[Record]]:
    """``emitted`` (one command's events, as :func:`decide` returned them) applied: the next game and the
    new records (seqs from ``game.version + 1``, each with the turn after it; events of a game's opening
    are made by nobody). An undo among them needs ``history``, the records up to ``game.version``: the
    state after an undo is the fold of the kept events (:class:`Refold` without it)."""
    rs = game.ruleset
    step = game.version + 1
    fresh = [Record(seq=step + i, event=em.event, type=event_type_name(em.event), kernel=is_kernel_event(em.event),
                    rolls=tuple(em.rolls), step=step, actor=actor, revealing=em.revealing)
             for i, em in enumerate(emitted)]
    undoes = any(isinstance(r.event, Undone) for r in fresh)
    if undoes and history is None:
        raise Refold("an undo was played: fold the kept events again")
    # the one replay (:func:`steps`): after an undo from the start, else on top of the game
    replayed = steps(rs, game.setup, [*history, *fresh], (0, rs.initial_state(game.setup)), KernelState()) \
        if undoes else steps(rs, game.setup, fresh, (game.version, game.state), game.kernel)
    kernel, state, by = game.kernel, game.state, actor
    records: list[Record] = []
    for r, state, after in replayed:
        if r.seq >= step:
            records.append(msgspec.structs.replace(r, actor=by, turn=game_status(rs, state, after).turn))
            if kernel.waiting and not after.waiting:
                by = None  # UMPIRE-READY-3: the opening that follows the last seat's ready is made by nobody
        kernel = after
    return _replace(game, state=state, **_bookkeep(game, records)), records


# -- deciding -------------------------------------------------------------------------------------
def with_note(emitted: list[Emitted], note: RuleStep | None) -> list[Emitted]:
    """``emitted`` with ``note`` added to the ruling of its first event (a bot names itself, UMPIRE-BOT-1)."""
    if note is None or not emitted:
        return emitted
    first = emitted[0]
    ruling = first.ruling or Ruling(summary=note.text)
    ruling = msgspec.structs.replace(ruling, steps=(*ruling.steps, note))
    return [msgspec.structs.replace(first, ruling=ruling), *emitted[1:]]


def label_reroll(emitted: list[Emitted], reroll: tuple[int, Undone] | None) -> list[Emitted]:
    """UMPIRE-UNDO-9: the ruling of the first draw after an agreed undo of draws says it is an agreed re-roll."""
    if reroll is None:
        return emitted
    out = list(emitted)
    for i, em in enumerate(out):
        if em.rolls:
            line = agreed_reroll_step(*reroll)
            ruling = em.ruling or Ruling(summary="agreed re-roll")
            out[i] = msgspec.structs.replace(em, ruling=msgspec.structs.replace(ruling, steps=(*ruling.steps, line)))
            break
    return out


def open_game(game: Game, dice: Dice) -> list[Emitted]:
    """The ruleset's opening (shuffles, deals) of ``game`` with ``dice``; :class:`OpeningFailed` when its
    setup or a rule refuses, :class:`EngineError` for a draw it did not record."""
    try:
        opening = game.ruleset.open(game.state, dice)
    except SetupError as exc:
        raise OpeningFailed(exc.detail, field=exc.field, message=exc.message) from None
    except RuleViolation as exc:
        raise OpeningFailed(exc.detail, rule=exc.rule, message=exc.message) from None
    if dice.untaken():
        raise EngineError(f"{game.ruleset.id}.open drew dice it did not record")
    return opening


def check_turn(game: Game, seat: str) -> None:
    """UMPIRE-TURN-1 and UMPIRE-READY-3: a game command only from a seat whose decision it is, in an open
    game that is not finished (:class:`NotYourDecision`)."""
    st = game.status
    if st.status == FINISHED:
        raise NotYourDecision("the game is finished; no decision is open")
    if game.kernel.waiting:
        raise NotYourDecision(f"the game has not opened: it waits for {', '.join(game.kernel.unready())} to post "
                              f"ready (POST /games/{game.setup.game_id}/ready)", rule="UMPIRE-READY-3")
    if seat not in st.to_act:
        raise NotYourDecision(f"it is not {seat}'s decision now; waiting for {', '.join(st.to_act) or 'nobody'}")


def _ready(game: Game, seat: str, command: Ready, dice: Dice) -> list[Emitted]:
    """UMPIRE-READY-1..3: the seat's ``seat_ready``; the last one also opens the game, its draws mixed with
    every client seed (a dry run stops at the opening's first draw, carrying the ``seat_ready``)."""
    emitted = [decide_ready(game.kernel, seat, command)]
    kernel = kernel_evolve(game.kernel, game.version + 1, emitted[0].event)
    if kernel.waiting:
        return emitted
    opened = dice.remixed(kernel.mix)
    try:
        return [*emitted, *open_game(_replace(game, kernel=kernel), opened)]
    except DryRunStop as stop:
        raise DryRunStop([*emitted, *stop.emitted]) from None


def _undo(game: Game, seat: str, command: Any) -> Emitted:
    """UMPIRE-UNDO-*: an undo (free, or a request for consent), or an answer to a waiting request."""
    st = game.status
    if isinstance(command, UndoTo):
        return decide_undo(game.steps(), game.kernel, seat=seat, seats=game.setup.seats, to_version=command.to_version,
                           version=game.version, turn=st.turn, finished=st.status == FINISHED,
                           last_undone_seq=game.last_undone_seq, sides=game.sides())
    if st.status == FINISHED:
        raise RuleViolation("UMPIRE-UNDO-3", msg("A finished game cannot be undone."))
    return answer_undo(game.steps(), game.kernel, seat=seat, accept=isinstance(command, UndoAccept), sides=game.sides())


def is_kernel_command(command: Any) -> bool:
    return isinstance(command, _KERNEL_COMMANDS)


def _ruleset_refusal(game: Game, seat: str, command: Command) -> Exception | None:
    """The ruleset's own refusal of ``command`` (decided with dry dice, nothing kept), or None."""
    try:
        game.ruleset.decide(game.state, seat, command, game.dice(None))
    except (RuleViolation, NotYourDecision) as exc:
        return exc
    except DryRunStop:
        pass
    return None


def decide(game: Game, seat: str, command: Command, dice: Dice, *, note: RuleStep | None = None,
           finer: bool = False) -> list[Emitted]:
    """What ``command`` of ``seat`` emits now (nothing changes: :func:`play` applies it). Refusals are
    :class:`RuleViolation` (422) and :class:`NotYourDecision` (403); :class:`OpeningFailed`,
    :class:`EngineError`; a dry run's dice raise ``DryRunStop`` with what was decided before the draw.
    ``note``: a step added to the ruling of the command's own first event. ``finer``: a game command the
    kernel refuses as no decision of ``seat`` (UMPIRE-TURN-1) is refused with the ruleset's own refusal when
    it has one (in memory, where a ruleset's tests check its rule ids; the service answers 403 first,
    DESIGN 8)."""
    if isinstance(command, Ready):
        first, *opening = _ready(game, seat, command, dice)
        return [*with_note([first], note), *opening]
    if is_kernel_command(command):
        return with_note([_undo(game, seat, command)], note)
    try:
        check_turn(game, seat)
    except NotYourDecision:
        own = _ruleset_refusal(game, seat, command) if finer else None
        if own is not None:
            raise own from None
        raise
    pending = game.kernel.undo_request
    before = [lapse(pending)] if pending is not None else []  # UMPIRE-UNDO-10: play went on
    try:
        emitted = game.ruleset.decide(game.state, seat, command, dice)
    except DryRunStop as stop:
        raise DryRunStop([*before, *stop.emitted]) from None
    if not emitted:
        raise EngineError(f"{game.ruleset.id}.decide accepted the command but produced no event")
    if dice.untaken():
        raise EngineError(f"{game.ruleset.id}.decide drew dice it did not record in an event")
    return [*before, *label_reroll(with_note(emitted, note), game.reroll)]


def decide_and_play(game: Game, seat: str, command: Command, seed: bytes,
                    history: Sequence[Record] | None = None) -> tuple[Game, list[Record], list[Emitted]]:
    """:func:`decide` then :func:`play`, in memory (the runner, the bots' arena, tests)."""
    emitted = decide(game, seat, command, game.dice(seed))
    after, records = play(game, emitted, seat, history)
    return after, records, emitted


__all__ = ["command_steps", "EngineError", "Game", "OpeningFailed", "Record", "Refold", "StoredRecord", "check_turn", "decide",
           "decide_and_play", "fold", "states", "is_kernel_command", "label_reroll", "open_game", "play", "records_of", "start", "undoes_before",
           "state_at", "with_note"]
