"""The one command path (DESIGN section 1), used by REST, the CLI and benchmarks.

load events (store) -> fold (skipping undone) -> ``ruleset.decide`` with dice
whose counters come from *every* recorded roll (undone ones too, so undo never
re-rolls, DESIGN 3/5) -> ``store.append(expected_version, command_id)`` in one
transaction -> project into Redis (best effort: a command is acknowledged once
it is in SQLite).

The checks of ``POST /games/{id}/commands`` run in the order DESIGN section 8
fixes: token (401), a ``command_id`` this seat already used answers the first
answer again (422 ``UMPIRE-IDEMPOTENCY`` for another command), ``expected_version``
(409 with ``current_version``), whose decision (403), legality (422 with
``rule``). A malformed command is 400 naming the field.

Kernel commands share the path (``ready``, ``undo``, ``undo_accept``,
``undo_decline``: :mod:`domain.kernel.header`, :mod:`domain.kernel.undo`). A game
command played while an undo request waits is preceded by the request's
``undo_lapsed`` event; the first draw after an agreed undo of draws is labelled
an agreed re-roll in its ruling. Event 1 of a new game is its ``game_created``
header; a ``when_ready`` game opens with the last seat's ``ready``. Every answer
that appended carries a signed receipt (:mod:`service.receipts`).

Everything here is blocking (SQLite); the async routes call it in a worker
thread, one command per game at a time inside a process (:meth:`GameService.lock`),
and the store's ``UNIQUE(game_id, seq)`` settles races across processes.

A small in-process cache keeps the folded state of each recently used game
keyed by version; a newer version in the store extends it by folding only the
new events (or refolds when one of them is an ``Undone``), so the cache can
never serve a state of another version.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import anyio
import msgspec

from domain.kernel import (
    FINISHED,
    KERNEL_COMMAND_TYPES,
    PUBLIC,
    START_NOW,
    START_WHEN_READY,
    Dice,
    DryRunStop,
    Emitted,
    GameCreated,
    KernelState,
    NotYourDecision,
    Ready,
    Ruleset,
    RuleViolation,
    Setup,
    SetupError,
    Status,
    Undone,
    advance,
    commitment,
    event_type_name,
    game_status,
    is_kernel_event,
    kernel_evolve,
    redact,
    registry,
)
from domain.kernel import choices as rule_choices
from domain.kernel.dice import Roll, new_seed, seed_from_hex
from domain.kernel.fold import decode_event
from domain.kernel.header import ClientSeed, decide_ready
from domain.kernel import words
from domain.kernel.rulings import RuleStep, Ruling
from domain.kernel.seats import Seating, SeatsOffered
from domain.kernel.sides import seat_sides
from domain.kernel.undo import KernelCommand, agreed_reroll_step, kernel_legal_commands, lapse

from domain.kernel import chain
from projections import views

from . import sealing
from .seating import claimed_emitted, offered_emitted, plan_seats
from .metrics import counted_dry_run, counted_steps
from .feed_hub import FeedHub, render
from .problems import Problem, field_path
from .receipts import Signer
from .store import AppendResult, EventStore, GameRow, NewEvent, StoredEvent, UnknownGame, VersionConflict, token_hash
from .tracing import traced, traced_steps

log = logging.getLogger("umpire.service")

#: Extensions (campaigns: service/routes/campaigns.py). A seat resolver names the seat of a token
#: that the game's own seats do not know (a campaign's seat tokens act in every battle of it);
#: an on-finished hook hears of every game that a command just finished.
SEAT_RESOLVERS: list[Any] = []
ON_FINISHED: list[Any] = []

#: Games whose folded state is kept in memory (least recently used dropped first).
CACHE_GAMES = 256
#: A prefix state is remembered every this many seqs for ``states/{seq}``.
CHECKPOINT_EVERY = 32
#: Bytes of a seat token before URL-safe base64.
TOKEN_BYTES = 24

_setup_decoder = msgspec.json.Decoder(Setup)
_rolls_decoder = msgspec.json.Decoder(list[Roll])
_kernel_command_decoder = msgspec.json.Decoder(KernelCommand)


#: Longest client-chosen ``command_id``.
COMMAND_ID_MAX = 200
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class CommandRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/commands``. ``command`` is one of the ruleset's commands or a
    kernel command (``ready``, ``undo``, ``undo_accept``, ``undo_decline``)."""

    command: dict[str, Any]
    expected_version: int
    command_id: Annotated[str, msgspec.Meta(min_length=1, max_length=COMMAND_ID_MAX)] | None = None


Start = Literal["now", "when_ready"]


class CreateGameRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games``. ``start``: ``now`` (default: the game opens at once) or
    ``when_ready`` (DESIGN 3: it waits until every seat has posted ``ready``, with its client seed)."""

    ruleset: Name
    scenario: Name
    seed: str | None = None
    options: dict[str, Any] = {}
    start: Start = "now"
    #: DESIGN 13: seats played by the service's bots, ``{"<seat>": "<bot id>[:level]"}`` (GET /rulesets lists them).
    bots: dict[str, str] = {}
    #: DESIGN 14: rule choices, ``{"<choice id>": "<option>"}`` (GET /rulesets lists them); the rest take defaults.
    choices: dict[str, str] = {}
    #: DESIGN 4 (UMPIRE-SEAT-1): ``tokens`` (every seat's token to the caller) or ``invitations`` (the kept
    #: seats' tokens and a one-time invitation for every other human seat).
    seating: Seating = "tokens"
    #: With invitations: the seats whose tokens the caller keeps.
    keep: list[Name] | None = None


class ReadyRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/ready`` (may be empty)."""

    client_seed: ClientSeed | None = None


@dataclass(frozen=True)
class Folded:
    """A game folded to ``version``."""

    version: int
    state: Any
    #: Next index of each dice stream, from every event's rolls (undone included).
    counters: dict[str, int]
    #: Seqs marked undone by the ``Undone`` events up to ``version``.
    undone: frozenset[int]
    #: Seq of the last ``Undone`` event (0: none).
    last_undone_seq: int
    #: The kernel's state: header, ready seats, waiting undo request.
    kernel: KernelState = KernelState()
    #: An agreed undo of draws whose re-roll has not happened yet: (its seq, the Undone event).
    reroll: tuple[int, Undone] | None = None
    #: Every kernel event of the log, ``(seq, event)`` (few): the kernel's state at any seq without I/O.
    kernel_log: tuple[tuple[int, Any], ...] = ()


@dataclass
class _Entry:
    folded: Folded
    #: seq -> state after the first ``seq`` events (a prefix fold, DESIGN 5 replay).
    checkpoints: dict[int, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Current:
    game: GameRow
    ruleset: Ruleset
    setup: Setup
    folded: Folded

    @property
    def version(self) -> int:
        return self.folded.version

    @property
    def state(self) -> Any:
        return self.folded.state

    @property
    def status(self) -> Status:
        return game_status(self.ruleset, self.folded.state, self.folded.kernel)

    @property
    def finished(self) -> bool:
        return self.status.status == FINISHED


@dataclass(frozen=True)
class Answer:
    """What a command produced: HTTP status and JSON body."""

    status: int
    body: dict[str, Any]
    appended: bool = False


@dataclass(frozen=True)
class AppendCall:
    """The one I/O a command's steps ask for: ``store.append(game_id, expected_version, events, **kwargs)``."""

    game_id: str
    expected_version: int
    events: list[NewEvent]
    kwargs: dict[str, Any]


#: A command's work as a generator: it yields its :class:`AppendCall`, gets the store's result back (or
#: the store's exception thrown in) and returns the :class:`Answer`. :meth:`GameService.drive` runs it
#: blocking (a worker thread, a bot); :meth:`GameService.drive_async` on the event loop (the command path).
Steps = Generator[AppendCall, AppendResult, Answer]


def _resume(steps: Steps, res: AppendResult | None = None, exc: Exception | None = None) -> AppendCall | Answer:
    """Advance a command's steps with the store's result (or its exception; nothing: the start): the next
    :class:`AppendCall`, or the :class:`Answer` they return."""
    try:
        if exc is not None:
            return steps.throw(exc)
        return steps.send(res)  # send(None) starts a generator
    except StopIteration as stop:
        return stop.value


def new_game_id() -> str:
    """A fresh game id (16 hex characters)."""
    return uuid.uuid4().hex[:16]


def ruleset_for(ruleset_id: str) -> Ruleset:
    rs = registry.get(ruleset_id)
    if rs is None:
        raise Problem(503, "unavailable", f"ruleset {ruleset_id!r} is not installed on this server")
    return rs


def public_payload(event: Any, payload: str, visibility: str) -> str | None:
    """The spectator payload of an event that is not public (DESIGN 8: private fields removed,
    ``"redacted": true``), as the chain covers it; None for a public event."""
    if visibility == chain.PUBLIC:
        return None
    return msgspec.json.encode(chain.spectator_payload(msgspec.json.decode(payload), event.private)).decode()


def encode_emitted(ruleset: Ruleset, state: Any, emitted: list[Emitted], actor: str | None,
                   kernel: KernelState | None = None) -> tuple[list[NewEvent], Any]:
    """``Emitted`` -> ``NewEvent`` rows, evolving the state as it goes (turn from the new state)."""
    out: list[NewEvent] = []
    for em in emitted:
        if is_kernel_event(em.event):
            if kernel is not None:
                kernel = kernel_evolve(kernel, 0, em.event)
        else:
            state = ruleset.evolve(state, em.event)
        st = game_status(ruleset, state, kernel)
        payload = msgspec.json.encode(em.event).decode()
        out.append(
            NewEvent(
                type=event_type_name(em.event),
                payload=payload,
                actor=actor,
                visibility=em.visibility,
                public_payload=public_payload(em.event, payload, em.visibility),
                ruling=msgspec.json.encode(em.ruling).decode() if em.ruling is not None else None,
                rolls=msgspec.json.encode(list(em.rolls)).decode(),
                reveals=em.revealing,
                turn=st.turn,
                engine_version=ruleset.engine_version,
            )
        )
    return out, state


def _track_reroll(reroll: tuple[int, Undone] | None, seq: int, ev: Any, rolls: str) -> tuple[int, Undone] | None:
    """An agreed undo of draws waits for its re-roll; the first game event with draws is it."""
    if isinstance(ev, Undone):
        return (seq, ev) if ev.consented_by is not None and ev.redraw else None
    if reroll is not None and not is_kernel_event(ev) and rolls not in ("", "[]"):
        return None
    return reroll


def _fold_records(ruleset: Ruleset, setup: Setup, records: list[StoredEvent]) -> Folded:
    pairs = [(e.seq, decode_event(ruleset, e.payload)) for e in records]
    undone: set[int] = set()
    last_undone = 0
    counters: dict[str, int] = {}
    kernel = KernelState()
    reroll: tuple[int, Undone] | None = None
    kernel_log: list[tuple[int, Any]] = []
    for e, (seq, ev) in zip(records, pairs):
        if isinstance(ev, Undone):
            undone.update(range(ev.first, ev.last + 1))
            last_undone = seq
        counters = advance(counters, _rolls_decoder.decode(e.rolls))
        kernel = kernel_evolve(kernel, seq, ev)
        reroll = _track_reroll(reroll, seq, ev, e.rolls)
        if is_kernel_event(ev):
            kernel_log.append((seq, ev))
    state = ruleset.initial_state(setup)
    for seq, ev in pairs:
        if seq in undone or is_kernel_event(ev):
            continue
        state = ruleset.evolve(state, ev)
    version = records[-1].seq if records else 0
    return Folded(version=version, state=state, counters=counters, undone=frozenset(undone), last_undone_seq=last_undone,
                  kernel=kernel, reroll=reroll, kernel_log=tuple(kernel_log))


class GameService:
    def __init__(self, store: EventStore, read_models: Any = None, *, cache_games: int = CACHE_GAMES,
                 defer_projection: bool = False, signer: Signer | None = None, projector: Any = None):
        self.store = store
        self.read_models = read_models
        #: The process's projector (``projections.Projector``): the events each append wrote are handed
        #: to it and projected off the command path. None: projected inline (or by the caller).
        self.projector = projector
        #: True: another process (the projector process of ``umpire serve``) projects; this one never does.
        self.project_elsewhere = False
        #: Signs receipts (DESIGN 2); None: answers carry no receipt (library use without a key).
        self.signer = signer
        #: True: the caller projects after answering (the REST routes do it in a
        #: background task, so Redis work is not in a command's latency); False: inline.
        self.defer_projection = defer_projection
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._cache_games = cache_games
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        #: The live feeds of this process (pushed: :meth:`notify` wakes them).
        self.feeds = FeedHub(store, names=self._names)
        #: What never changes once a game exists, looked up once: the games known to exist, the seat of
        #: a (game, token hash), a game's seed. Bounded; a miss asks the store. (Games are never
        #: deleted and tokens, seats and seeds never change, so nothing here can go stale.)
        self._known_games: OrderedDict[str, None] = OrderedDict()
        #: (game, token hash) -> (seat, the game's version when that was last checked): a seat's token can
        #: change (a claim, a rotation: kernel events of the log), so a hit is trusted only while the game's
        #: log shows no change of that seat since (:meth:`seat`).
        self._seats: OrderedDict[tuple[str, str], tuple[str, int]] = OrderedDict()
        self._seeds: OrderedDict[str, bytes] = OrderedDict()
        #: Set when the last ``project`` call failed (Redis unreachable).
        self.projections_down = False
        #: Called with the game id after every append and every new game (from the thread that wrote it):
        #: the built-in players (service/bot_players.py) hear that a bot seat may have a decision.
        self.on_appended: list[Any] = []

    def _appended(self, game_id: str) -> None:
        for hook in self.on_appended:
            try:
                hook(game_id)
            except Exception:  # the command is stored; a listener must not fail it
                log.exception("on-appended hook %r failed for game %s", hook, game_id)

    # -- per-game serialisation and change notification ---------------
    def lock(self, game_id: str) -> asyncio.Lock:
        lk = self._locks.get(game_id)
        if lk is None:
            lk = asyncio.Lock()
            self._locks[game_id] = lk
        return lk

    def _names(self, game_id: str) -> dict[str, str]:
        """The game's printed names by id (DESIGN 12), for its feeds (from the cached fold when there is one)."""
        cur = self.current(game_id)
        return words.names_of(cur.ruleset, cur.state)

    def notify(self, game_id: str, version: int | None = None) -> None:
        """Wake the feeds of ``game_id`` here and on the other processes (call on the event loop right
        after an append; ``version``: the game's version after it)."""
        self.feeds.committed(game_id, version)

    # -- reading -------------------------------------------------------
    def game(self, game_id: str) -> GameRow:
        try:
            return self.store.require_game(game_id)
        except UnknownGame:
            raise Problem(404, "not-found", f"no game with id {game_id!r}") from None

    @staticmethod
    def require_playable(game: GameRow) -> None:
        """409 for a game that cannot be played on here (imported without its seed: UMPIRE-READ-ONLY-1)."""
        if game.read_only:
            raise Problem(409, "read-only", f"game {game.game_id} was imported without its secret seed, so no "
                          "command can be applied here; it can still be read, replayed and verified",
                          rule="UMPIRE-READ-ONLY-1", ruleset=game.ruleset)

    def _cache_put(self, cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        with self._cache_lock:
            cache[key] = value
            cache.move_to_end(key)
            while len(cache) > self._cache_games * 8:
                cache.popitem(last=False)

    def exists(self, game_id: str) -> None:
        """404 for an unknown game; a game seen once is known without I/O (games are never deleted)."""
        if game_id in self._known_games:
            return
        self.game(game_id)
        self._cache_put(self._known_games, game_id, None)

    def seed(self, game_id: str) -> bytes:
        """The game's secret seed (looked up once)."""
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self.store.seed(game_id)
            self._cache_put(self._seeds, game_id, seed)
        return seed

    def cached_seat(self, game_id: str, token: str | None) -> str | None | bool:
        """The seat of ``token`` in ``game_id`` if it was looked up before; False: not known here."""
        if not token:
            return None
        hit = self._seats.get((game_id, token_hash(token)))
        return False if hit is None else hit[0]

    def seat(self, game_id: str, token: str | None, game: GameRow | None = None) -> str | None:
        """The seat of ``token`` in ``game_id`` (None: not a seat of it). A remembered answer stands while the
        game is at the version it was checked at, or while this process's fold of the game shows no claim or
        rotation of that seat since; else the store is asked again (a token replaced on another node is
        dead here too: the rotation is an event of the log)."""
        if not token:
            return None
        key = (game_id, token_hash(token))
        game = game or self.game(game_id)
        hit = self._seats.get(key)
        if hit is not None:
            seat, seen = hit
            if seen == game.version:
                return seat
            entry = self._cache.get(game_id)
            folded = entry.folded if entry is not None else None
            if folded is not None and folded.version == game.version and \
                    folded.kernel.seats.changed.get(seat, 0) <= seen:
                self._cache_put(self._seats, key, (seat, game.version))
                return seat
        seat = self._seat(game_id, token)
        if seat is not None:
            self._cache_put(self._seats, key, (seat, game.version))
        else:
            self.forget_token(game_id, token)
        return seat

    def forget_token(self, game_id: str, token: str) -> None:
        """Drop what this process remembers of ``token`` (it was just replaced)."""
        with self._cache_lock:
            self._seats.pop((game_id, token_hash(token)), None)

    def appended(self, game_id: str, events: Any) -> None:
        """Events were appended outside a command (a seat claimed or rotated): hand them to the read
        models and the listeners, as a command's are."""
        self.hand_over(game_id, events)
        self._appended(game_id)

    def with_receipt(self, game_id: str, body: dict[str, Any], version: int, head: str | None = None) -> dict[str, Any]:
        return self._with_receipt(game_id, body, version, head)

    def _seat(self, game_id: str, token: str) -> str | None:
        seat = self.store.seat_for_token(game_id, token)
        if seat is None and SEAT_RESOLVERS:
            row = self.store.game(game_id)
            if row is not None:
                for resolve in SEAT_RESOLVERS:
                    seat = resolve(self, row, token)
                    if seat is not None:
                        break
        return seat

    def current(self, game_id: str, game: GameRow | None = None) -> Current:
        """The game folded to the store's current version (from the cache when it can)."""
        game = game or self.game(game_id)
        rs = ruleset_for(game.ruleset)
        setup = _setup_decoder.decode(game.setup)
        with self._cache_lock:
            entry = self._cache.get(game_id)
            if entry is not None:
                self._cache.move_to_end(game_id)
        folded = entry.folded if entry is not None else None
        if folded is not None and folded.version == game.version:
            return Current(game, rs, setup, folded)
        if folded is not None and folded.version < game.version:
            new = self.store.load(game_id, after=folded.version, upto=game.version)
            decoded = [decode_event(rs, e.payload) for e in new]
            if any(isinstance(ev, Undone) for ev in decoded):
                folded = None
            else:
                state, counters, kernel, reroll = folded.state, folded.counters, folded.kernel, folded.reroll
                klog = list(folded.kernel_log)
                for e, ev in zip(new, decoded):
                    counters = advance(counters, _rolls_decoder.decode(e.rolls))
                    kernel = kernel_evolve(kernel, e.seq, ev)
                    reroll = _track_reroll(reroll, e.seq, ev, e.rolls)
                    if not is_kernel_event(ev):
                        state = rs.evolve(state, ev)
                    else:
                        klog.append((e.seq, ev))
                folded = Folded(version=new[-1].seq if new else folded.version, state=state, counters=counters,
                                undone=folded.undone, last_undone_seq=folded.last_undone_seq, kernel=kernel,
                                reroll=reroll, kernel_log=tuple(klog))
        else:
            folded = None
        if folded is None:
            folded = _fold_records(rs, setup, self.store.load(game_id, upto=game.version))
        self._remember(game_id, folded)
        return Current(game, rs, setup, folded)

    def without_bots(self, game_id: str) -> bool:
        """True when ``game_id`` is known here (folded in this process) to have no bot seat: its header,
        which never changes, names none (DESIGN 13). False when it has bots or is not known here."""
        entry = self._cache.get(game_id)
        if entry is None:
            return False
        header = entry.folded.kernel.header
        return header is not None and not header.bots

    def _remember(self, game_id: str, folded: Folded) -> None:
        with self._cache_lock:
            entry = self._cache.get(game_id)
            if entry is None:
                self._cache[game_id] = _Entry(folded)
            elif folded.version >= entry.folded.version:
                entry.folded = folded
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_games:
                self._cache.popitem(last=False)

    def state_at(self, game_id: str, seq: int, cur: Current | None = None) -> Any:
        """The state right after ``seq`` (``0``: the initial state): the fold of the first ``seq`` events."""
        cur = cur or self.current(game_id)
        if seq < 0 or seq > cur.version:
            raise Problem(404, "not-found", f"seq {seq} is outside 0..{cur.version}", field="seq")
        if seq == cur.version:
            return cur.state
        rs = cur.ruleset
        with self._cache_lock:
            entry = self._cache.get(game_id)
            cps = dict(entry.checkpoints) if entry is not None else {}
        base = max((c for c in cps if c <= seq), default=0)
        state = cps[base] if base else rs.initial_state(cur.setup)
        records = self.store.load(game_id, after=base, upto=seq)
        decoded = [(e.seq, decode_event(rs, e.payload)) for e in records]
        if base and any(isinstance(ev, Undone) for _, ev in decoded):
            base = 0
            state = rs.initial_state(cur.setup)
            records = self.store.load(game_id, upto=seq)
            decoded = [(e.seq, decode_event(rs, e.payload)) for e in records]
        undone: set[int] = set()
        for _, ev in decoded:
            if isinstance(ev, Undone):
                undone.update(range(ev.first, ev.last + 1))
        new_cps: dict[int, Any] = {}
        if undone:
            # An Undone inside the prefix can reach back to any seq: fold it whole.
            for s, ev in decoded:
                if s not in undone and not is_kernel_event(ev):
                    state = rs.evolve(state, ev)
        else:
            for s, ev in decoded:
                if not is_kernel_event(ev):
                    state = rs.evolve(state, ev)
                if s % CHECKPOINT_EVERY == 0:
                    new_cps[s] = state
        if new_cps:
            with self._cache_lock:
                entry = self._cache.get(game_id)
                if entry is not None:
                    entry.checkpoints.update(new_cps)
        return state

    def undone_seqs(self, cur: Current) -> frozenset[int]:
        return cur.folded.undone

    def render_events(self, cur: Current, records: list[StoredEvent], seat: str | None,
                      *, finished: bool | None = None, undone: frozenset[int] | None = None) -> list[dict[str, Any]]:
        fin = cur.finished if finished is None else finished
        und = cur.folded.undone if undone is None else undone
        header = cur.folded.kernel.header
        return render(records, cur.ruleset, seat, finished=fin, undone=und, bots=header.bots if header else {},
                      names=words.names_of(cur.ruleset, cur.state))

    def kernel_at(self, game_id: str, seq: int, cur: Current | None = None) -> KernelState:
        """The kernel's state right after ``seq`` (from the kernel events alone)."""
        cur = cur or self.current(game_id)
        if seq >= cur.version:
            return cur.folded.kernel
        from domain.kernel import fold_kernel  # kernel-game: moving

        pairs = [(s, e) for s, e in cur.folded.kernel_log if s <= seq]
        kernel_seqs = {s for s, _ in pairs}
        last_game = seq
        while last_game > 0 and last_game in kernel_seqs:
            last_game -= 1
        return fold_kernel(pairs, last_game)

    # -- receipts ------------------------------------------------------
    def receipt(self, game_id: str, version: int, head: str | None = None) -> dict[str, Any] | None:
        """The signed receipt of ``(game_id, version, head)`` (CONTRACTS), or None without a signer."""
        if self.signer is None:
            return None
        if head is None:
            head = self.store.head(game_id, version)
            if head is None:
                return None
        return self.signer.receipt(game_id, version, head)

    def _with_receipt(self, game_id: str, body: dict[str, Any], version: int, head: str | None = None) -> dict[str, Any]:
        r = self.receipt(game_id, version, head)
        if r is not None:
            body["receipt"] = r
        return body

    # -- creating a game ---------------------------------------------
    def create_game(self, req: CreateGameRequest, *, campaign_id: str | None = None,
                    client_seeds: dict[str, str | None] | None = None, seed_given: bool | None = None,
                    seated: tuple[SeatsOffered, tuple[str, ...]] | None = None,
                    sealed: dict[str, Any] | None = None) -> dict[str, Any]:
        """``POST /games``. Event 1 is the ``game_created`` header; with ``"seating": "invitations"`` event 2
        is ``seats_offered`` (DESIGN 4); the opening follows at once (``start: now``) or once every seat is
        ready (``start: when_ready``). ``client_seeds``: seeds given at creation (a campaign's battles), mixed
        into every draw from the opening on. A campaign's battle: ``seed_given`` is the campaign's (its
        seed is derived from the campaign's), ``seated`` the campaign's offer and the seats claimed so far
        (its seats' tokens are the campaign's), ``sealed`` its sides' secret setup (UMPIRE-SEAL-1)."""
        rs = registry.get(req.ruleset)
        if rs is None:
            known = ", ".join(r.id for r in registry.all_rulesets())
            raise Problem(422, "bad-setup", f"unknown ruleset {req.ruleset!r}; known: {known}", field="ruleset")
        if req.seed is None:
            seed = new_seed()
        else:
            try:
                seed = seed_from_hex(req.seed)
            except ValueError as exc:
                raise Problem(400, "malformed", str(exc), field="seed") from None
        game_id = new_game_id()
        try:
            seats = rs.seats(req.scenario, dict(req.options))
            bots = check_bots(rs.id, tuple(seats), req.bots)
            plan = plan_seats(tuple(seats), bots, req.seating, req.keep)
            choices = rule_choices.resolve(rule_choices.declared(rs), req.choices)
            setup = Setup(game_id=game_id, ruleset=rs.id, scenario=req.scenario, seats=tuple(seats),
                          options=dict(req.options), choices=choices)
            state = rs.initial_state(setup)
            if sealed and req.start != START_NOW:
                raise SetupError("start", "a game with a sealed setup opens at once")
            opening = rs.initial_state(sealing.opening_setup(rs, setup, sealed)) if sealed else state
            header = GameCreated(game_id=game_id, ruleset=rs.id, scenario=req.scenario, options=dict(req.options),
                                 choices=choices,
                                 seats=tuple(seats), engine_version=rs.engine_version, seed_commitment=commitment(seed),
                                 start=req.start, campaign_id=campaign_id, chain_version=chain.CHAIN_V2,
                                 client_seeds=dict(client_seeds) if client_seeds is not None else None,
                                 seed_given=req.seed is not None if seed_given is None else seed_given, bots=bots)
            kernel = kernel_evolve(KernelState(), 1, header)
            emitted: list[Emitted] = [Emitted(event=header, ruling=Ruling(
                summary=f"{rs.id} game created", steps=()))]
            offered, claimed = seated if seated is not None else (plan.offered, ())
            if offered is not None:
                emitted += [offered_emitted(offered), *(claimed_emitted(s) for s in claimed)]
            dice = Dice(seed, game_id, {}, mix=kernel.mix)
            if req.start == START_NOW:
                emitted += rs.open(opening, dice)
            if sealed:
                emitted = sealing.seal(emitted)
        except SetupError as exc:
            raise Problem(422, "bad-setup", exc.detail, field=exc.field) from None
        except RuleViolation as exc:
            raise Problem(422, "bad-setup", exc.detail, rule=exc.rule, ruleset=rs.id) from None
        if dice.untaken():
            raise Problem(500, "engine-error", f"{rs.id}.open drew dice it did not record")
        new, state = encode_emitted(rs, state, emitted, None, KernelState())
        st = game_status(rs, state, kernel)
        tokens = plan.tokens
        res = self.store.create_game(
            game_id=game_id, ruleset=rs.id, scenario=req.scenario,
            setup=msgspec.json.encode(setup).decode(), seed=seed, seed_commitment=commitment(seed),
            token_hashes={s: token_hash(t) for s, t in tokens.items()}, campaign_id=campaign_id,
            status=st.status, winner=st.winner, events=new,
            invitation_hashes={s: token_hash(c) for s, c in plan.invitations.items()},
        )
        self.hand_over(game_id, res.events)
        self._appended(game_id)
        body = {
            "game_id": game_id,
            "ruleset": rs.id,
            "scenario": req.scenario,
            "version": res.version,
            "status": st.status,
            "start": req.start,
            # UMPIRE-BOT-1: no token for a bot seat (nobody else may act as the bot)
            "seats": {s: t for s, t in tokens.items() if s not in bots},
            "seed_commitment": commitment(seed),
            "seating": req.seating,
        }
        if plan.offered is not None:
            body["invitations"] = dict(plan.invitations)
        if bots:
            body["bots"] = dict(bots)
        return self._with_receipt(game_id, body, res.version, res.head)

    # -- commands ----------------------------------------------------
    def decode_command(self, rs: Ruleset, raw: dict[str, Any]) -> Any:
        """A ruleset command, or a kernel command (``ready``, ``undo``, ``undo_accept``,
        ``undo_decline``); unknown fields are refused naming the field (400)."""
        kind = raw.get("type") if isinstance(raw, dict) else None
        try:
            if isinstance(kind, str) and kind in KERNEL_COMMAND_TYPES:
                return msgspec.convert(raw, KernelCommand)
            return msgspec.convert(raw, rs.command_type)
        except msgspec.ValidationError as exc:
            raise Problem(400, "malformed", f"not a {rs.id} command: {exc}",
                          field=field_path(str(exc), "command")) from None

    @staticmethod
    def body_hash(command: Any, expected_version: int | None = None) -> str:
        """What a ``command_id`` is bound to: the command as decoded (defaults filled in), canonical
        JSON, sha256 (DESIGN 2: the same id with another command is 422). ``expected_version`` is the
        request's precondition, not its meaning: a retry that learnt the new version and sends the
        same command with the same id gets the first answer (DESIGN 8 checks the id first)."""
        return hashlib.sha256(chain.canonical({"command": msgspec.to_builtins(command)})).hexdigest()

    def command(self, game_id: str, token: str | None, req: CommandRequest) -> Answer:
        """``POST /games/{id}/commands`` (blocking; hold :meth:`lock` around it)."""
        return self.drive(self.command_steps(game_id, token, req))

    def command_steps(self, game_id: str, token: str | None, req: CommandRequest) -> Steps:
        """:meth:`command` as steps (:data:`Steps`: the command path drives them on the event loop)."""
        game = self.game(game_id)
        seat = self.seat(game_id, token, game)
        if seat is None:
            raise Problem(401, "unauthorized", "a seat token is required (Authorization: Bearer <token>)"
                          if not token else "this token is not a seat of this game")
        rs = ruleset_for(game.ruleset)
        command = self.decode_command(rs, req.command)
        return (yield from self.run_steps(game_id, seat, command, expected_version=req.expected_version,
                                          command_id=req.command_id, game=game))

    def run(self, game_id: str, seat: str, command: Any, *, expected_version: int | None,
            command_id: str | None = None, game: GameRow | None = None, note: RuleStep | None = None) -> Answer:
        """:meth:`run_steps`, blocking (hold :meth:`lock` around it)."""
        return self.drive(self.run_steps(game_id, seat, command, expected_version=expected_version,
                                         command_id=command_id, game=game, note=note))

    def drive(self, steps: Steps) -> Answer:
        """Run a command's steps here, blocking on the store's append."""
        out = _resume(steps)
        while isinstance(out, AppendCall):
            try:
                res = self.store.append(out.game_id, out.expected_version, out.events, **out.kwargs)
            except Exception as exc:  # noqa: BLE001 - the steps answer the store's refusal (or re-raise it)
                out = _resume(steps, exc=exc)
            else:
                out = _resume(steps, res)
        return out

    async def drive_async(self, steps: Steps) -> Answer:
        """Run a command's steps on the event loop; only the append's commit leaves it
        (``store.append_async``: the loop serves other requests while the group commits)."""
        out = _resume(steps)
        while isinstance(out, AppendCall):
            try:
                res = await self.store.append_async(out.game_id, out.expected_version, out.events, **out.kwargs)
            except Exception as exc:  # noqa: BLE001 - the steps answer the store's refusal (or re-raise it)
                out = _resume(steps, exc=exc)
            else:
                out = _resume(steps, res)
        return out

    async def perform(self, steps: Steps) -> Answer:
        """Drive a command's steps where they cost least (hold :meth:`lock` around it): on the event loop
        when the store's reads are local (:meth:`drive_async`: only the commit leaves the loop), else on a
        worker thread (:meth:`drive`: PostgreSQL, whose every read is a round trip)."""
        if self.store.local_reads:
            return await self.drive_async(steps)
        return await anyio.to_thread.run_sync(self.drive, steps)

    @counted_steps  # DESIGN 16: commands by outcome and rule, their time (service.metrics), their spans
    @traced_steps
    def run_steps(self, game_id: str, seat: str, command: Any, *, expected_version: int | None,
                  command_id: str | None = None, game: GameRow | None = None, note: RuleStep | None = None) -> Steps:
        """Every command of a seat, in DESIGN 8's order: a ``command_id`` this seat used answers the
        first answer (422 ``UMPIRE-IDEMPOTENCY`` for another body), ``expected_version`` (409; None:
        not checked, for ``/undo`` and ``/ready``), whose decision (403), legality (422). ``note``: a
        step added to the ruling of the command's first event (a bot names itself, UMPIRE-BOT-1)."""
        body_hash = self.body_hash(command, expected_version)
        if command_id is not None:
            prior = self.store.command_result(game_id, command_id, seat)
            if prior is not None:
                return self._repeat(game_id, seat, command_id, prior.first_seq, prior.last_seq, prior.body_hash,
                                    body_hash)
        self.require_playable(game or self.game(game_id))
        cur = self.current(game_id, game)
        if expected_version is not None and expected_version != cur.version:
            raise Problem(409, "stale-version",
                          f"expected_version is {expected_version} but the game is at version {cur.version}",
                          current_version=cur.version)
        if isinstance(command, Ready):
            return (yield from self._ready(cur, seat, command, command_id, body_hash, note))
        if isinstance(command, KernelCommand.__args__):  # type: ignore[attr-defined]
            from .undo import undo_steps  # kernel-game: moving

            return (yield from undo_steps(self, cur, seat, command, command_id=command_id, body_hash=body_hash,
                                          note=note))
        rs = cur.ruleset
        self._check_turn(cur, seat)
        dice = Dice(self.seed(game_id), game_id, cur.folded.counters, mix=cur.folded.kernel.mix)
        emitted = self._decide(cur, seat, command, dice)
        if not emitted:
            raise Problem(500, "engine-error", f"{rs.id}.decide accepted the command but produced no event")
        if dice.untaken():
            raise Problem(500, "engine-error", f"{rs.id}.decide drew dice it did not record in an event")
        emitted = _label_reroll(with_note(emitted, note), cur.folded.reroll)
        pending = cur.folded.kernel.undo_request
        if pending is not None:
            emitted = [lapse(pending), *emitted]  # DESIGN 5: a waiting request lapses when play goes on
        return (yield from self.append_steps(cur, seat, emitted, expected_version=cur.version, command_id=command_id,
                                             command_body=msgspec.json.encode(command).decode(), body_hash=body_hash))

    @staticmethod
    def _check_turn(cur: Current, seat: str) -> None:
        """The 403s of a game command: the game is finished, has not opened (UMPIRE-READY-3), or the
        decision is another seat's."""
        st = cur.status
        if st.status == FINISHED:
            raise Problem(403, "not-your-decision", "the game is finished; no decision is open")
        if cur.folded.kernel.waiting:
            raise Problem(403, "not-your-decision", "the game has not opened: it waits for "
                          f"{', '.join(cur.folded.kernel.unready())} to post ready "
                          f"(POST /games/{cur.game.game_id}/ready)", rule="UMPIRE-READY-3", ruleset=cur.ruleset.id)
        if seat not in st.to_act:
            raise Problem(403, "not-your-decision",
                          f"it is not {seat}'s decision now; waiting for {', '.join(st.to_act) or 'nobody'}")

    @staticmethod
    @traced("umpire.decide")
    def _decide(cur: Current, seat: str, command: Any, dice: Dice) -> list[Emitted]:
        """The ruleset's decision, its refusals as problems (a dry run's ``DryRunStop`` passes through)."""
        rs = cur.ruleset
        try:
            return rs.decide(cur.state, seat, command, dice)
        except NotYourDecision as exc:
            raise Problem(403, "not-your-decision", exc.detail, rule=exc.rule, ruleset=rs.id) from None
        except RuleViolation as exc:
            raise Problem(422, "rule-violation", exc.detail, rule=exc.rule, ruleset=rs.id,
                          values=msgspec.to_builtins(exc.values) if exc.values else None) from None

    def _repeat(self, game_id: str, seat: str, command_id: str, first: int, last: int, stored: str | None,
                body_hash: str) -> Answer:
        if stored is not None and stored != body_hash:
            raise Problem(422, "idempotency", f"command_id {command_id!r} was used by {seat} for another request "
                          f"(seqs {first}-{last}); a command_id names one request only", rule="UMPIRE-IDEMPOTENCY",
                          field="command_id")
        return self.first_answer(game_id, seat, first, last)

    def _ready(self, cur: Current, seat: str, command: Ready, command_id: str | None, body_hash: str,
               note: RuleStep | None = None) -> Steps:
        """``ready``: the seat's ``seat_ready``; the last one also opens the game (the ruleset's
        ``open`` with every client seed mixed into the draws)."""
        emitted, opening = self._decide_ready(cur, seat, command, self.seed(cur.game.game_id))
        emitted = with_note(emitted, note)
        return (yield from self.append_steps(cur, seat, emitted, expected_version=cur.version, command_id=command_id,
                                             body_hash=body_hash, opening=opening))

    @staticmethod
    def _decide_ready(cur: Current, seat: str, command: Ready, seed: bytes | None) -> tuple[list[Emitted], list[Emitted]]:
        """The ``seat_ready`` event and, for the last seat, the opening. ``seed`` None: a dry run (the
        opening's first draw raises ``DryRunStop``, carrying the ``seat_ready`` event)."""
        rs = cur.ruleset
        game_id = cur.game.game_id
        try:
            emitted = [decide_ready(cur.folded.kernel, seat, command)]
        except RuleViolation as exc:
            raise Problem(422, "rule-violation", exc.detail, rule=exc.rule, ruleset=rs.id) from None
        kernel = kernel_evolve(cur.folded.kernel, cur.version + 1, emitted[0].event)
        opening: list[Emitted] = []
        if not kernel.waiting:
            dice = Dice(seed or b"", game_id, cur.folded.counters, mix=kernel.mix, dry=seed is None)
            try:
                opening = rs.open(cur.state, dice)
            except DryRunStop as stop:
                raise DryRunStop([*emitted, *stop.emitted]) from None
            except (SetupError, RuleViolation) as exc:
                raise Problem(422, "bad-setup", getattr(exc, "detail", str(exc))) from None
            if dice.untaken():
                raise Problem(500, "engine-error", f"{rs.id}.open drew dice it did not record")
        return emitted, opening

    @counted_dry_run
    def dry_run(self, game_id: str, token: str | None, req: CommandRequest) -> dict[str, Any]:
        """``POST /games/{id}/commands?dry_run=true``: would the command be legal, and what would it
        measure? Nothing is stored, no die is drawn (the dice raise ``DryRunStop`` at the first draw,
        domain/kernel/decider.py), nothing revealing is shown, no receipt is signed. Checks as for a
        command (401, 409 read-only or stale, 403, 422); ``command_id`` is not looked up or kept.

        Kernel commands too: ``ready`` shows the seat's ``seat_ready`` (the last seat's stops at the
        opening's first draw), ``undo`` whether it would be free (``undone``) or a request
        (``undo_requested``), ``undo_accept``/``undo_decline`` the answer; a game command played while
        an undo request waits shows the request's ``undo_lapsed`` first, as the command would."""
        game = self.game(game_id)
        seat = self.seat(game_id, token, game)
        if seat is None:
            raise Problem(401, "unauthorized", "a seat token is required (Authorization: Bearer <token>)"
                          if not token else "this token is not a seat of this game")
        self.require_playable(game)
        rs = ruleset_for(game.ruleset)
        command = self.decode_command(rs, req.command)
        cur = self.current(game_id, game)
        if req.expected_version != cur.version:
            raise Problem(409, "stale-version",
                          f"expected_version is {req.expected_version} but the game is at version {cur.version}",
                          current_version=cur.version)
        stopped: str | None = None
        before: list[Emitted] = []
        try:
            if isinstance(command, Ready):
                first, opening = self._decide_ready(cur, seat, command, None)
                emitted = [*first, *opening]
            elif isinstance(command, KernelCommand.__args__):  # type: ignore[attr-defined]
                from .undo import decide_undo_command  # kernel-game: moving

                emitted = [decide_undo_command(self, cur, seat, command)]
            else:
                self._check_turn(cur, seat)
                pending = cur.folded.kernel.undo_request
                before = [lapse(pending)] if pending is not None else []
                dice = Dice(b"", game_id, cur.folded.counters, mix=cur.folded.kernel.mix, dry=True)
                emitted = [*before, *self._decide(cur, seat, command, dice)]
        except DryRunStop as stop:
            emitted, stopped = [*before, *stop.emitted], "draw"
        shown = []
        for em in emitted:
            if em.revealing:
                stopped = "reveal"
                break
            shown.append(em)
        events = []
        for em in shown:
            payload = msgspec.to_builtins(em.event)
            visible = em.visibility == PUBLIC or em.visibility == seat
            if not visible:
                payload = redact(em.event, payload)
            entry = {"type": event_type_name(em.event), "payload": payload}
            if visible and em.ruling is not None:
                entry["ruling"] = views.linked_ruling(msgspec.to_builtins(em.ruling), rs.id)
            events.append(entry)
        return {"ruleset": rs.id, "legal": True, "version": cur.version, "seat": seat, "events": events,
                "stopped_at": stopped}

    def append_steps(self, cur: Current, actor: str | None, emitted: list[Emitted], *, expected_version: int,
                     command_id: str | None = None, status_code: int = 201, extra: dict[str, Any] | None = None,
                     command_body: str | None = None, body_hash: str | None = None,
                     opening: list[Emitted] | None = None) -> Steps:
        """Append one command's events (``opening``: events of the game's opening that follow, made
        by nobody) and answer with them and a receipt: the store's append is the one step yielded."""
        rs = cur.ruleset
        game_id = cur.game.game_id
        new, state_after = encode_emitted(rs, cur.state, emitted, actor, cur.folded.kernel)
        kernel = cur.folded.kernel
        for i, em in enumerate(emitted):
            kernel = kernel_evolve(kernel, cur.version + 1 + i, em.event)
        if opening:
            more, state_after = encode_emitted(rs, state_after, opening, None, kernel)
            new += more
        st = game_status(rs, state_after, kernel)
        try:
            res = yield AppendCall(game_id, expected_version, new,
                                   {"command_id": command_id, "status": st.status, "winner": st.winner,
                                    "command_body": command_body, "command_seat": actor, "body_hash": body_hash})
        except VersionConflict as exc:
            raise Problem(409, "stale-version",
                          f"expected_version is {exc.expected} but the game is at version {exc.current}",
                          current_version=exc.current) from None
        if res.duplicate:
            return self._repeat(game_id, actor or "", command_id or "", res.first_seq, res.last_seq, res.body_hash,
                                body_hash or "")
        everything = [*emitted, *(opening or [])]
        counters = cur.folded.counters
        reroll = cur.folded.reroll
        for i, em in enumerate(everything):
            counters = advance(counters, em.rolls)
            reroll = _track_reroll(reroll, res.first_seq + i, em.event, "[1]" if em.rolls else "[]")
        undone = cur.folded.undone
        last_undone = cur.folded.last_undone_seq
        for i, em in enumerate(emitted):
            if isinstance(em.event, Undone):
                undone = undone | frozenset(range(em.event.first, em.event.last + 1))
                last_undone = res.first_seq + i
        if any(isinstance(em.event, Undone) for em in emitted):
            # The state after an undo is the fold of the kept events: recompute it from the log.
            folded = _fold_records(rs, cur.setup, self.store.load(game_id, upto=res.version))
        else:
            klog = cur.folded.kernel_log + tuple((res.first_seq + i, em.event) for i, em in enumerate(everything)
                                                 if is_kernel_event(em.event))
            folded = Folded(version=res.version, state=state_after, counters=counters, undone=undone,
                            last_undone_seq=last_undone, kernel=kernel, reroll=reroll, kernel_log=klog)
        self._remember(game_id, folded)
        self.hand_over(game_id, res.events)
        self._appended(game_id)
        if st.status == FINISHED:
            for hook in ON_FINISHED:
                try:
                    hook(self, game_id)
                except Exception:  # the command is stored; an extension must not fail it
                    log.exception("on-finished hook %r failed for game %s", hook, game_id)
        new_cur = Current(cur.game, rs, cur.setup, folded)
        body = {"ruleset": rs.id, "version": res.version,
                "events": self.render_events(new_cur, list(res.events), actor, finished=st.status == FINISHED,
                                             undone=frozenset())}
        if extra:
            body.update(extra)
        return Answer(status_code, self._with_receipt(game_id, body, res.version, res.head), appended=True)

    def first_answer(self, game_id: str, seat: str | None, first: int, last: int) -> Answer:
        """The answer a command gave the first time (a retry with the same ``command_id``)."""
        cur = self.current(game_id)
        then = self.state_at(game_id, last, cur)
        finished_then = game_status(cur.ruleset, then, self.kernel_at(game_id, last, cur)).status == FINISHED
        records = self.store.load(game_id, after=first - 1, upto=last)
        body = {"ruleset": cur.ruleset.id, "version": last,
                "events": self.render_events(cur, records, seat, finished=finished_then, undone=frozenset())}
        return Answer(201, self._with_receipt(game_id, body, last, records[-1].hash if records else None))

    def legal_commands(self, cur: Current, seat: str | None) -> list[dict[str, Any]]:
        """The kernel's commands open to ``seat`` (``ready``; the answer to a waiting undo request)
        followed by the ruleset's (none while the game waits for its seats)."""
        if seat is None:
            return []
        sides = seat_sides(cur.ruleset, cur.setup)  # UMPIRE-UNDO-13: only another side answers an undo
        out = [msgspec.to_builtins(c) for c in kernel_legal_commands(cur.folded.kernel, seat, sides)]
        if not cur.folded.kernel.waiting:
            out += [msgspec.to_builtins(c) for c in cur.ruleset.legal_commands(cur.state, seat)]
        return out

    # -- projections -------------------------------------------------
    @traced("umpire.hand_over")
    def hand_over(self, game_id: str, events: Any) -> None:
        """The events an append just wrote go to the read models: to the projector (no I/O here), or
        projected inline when there is none and the caller does not project after answering."""
        if self.read_models is None or self.project_elsewhere:
            return
        if self.projector is not None:
            self.projector.submit(game_id, events)
        elif not self.defer_projection:
            self.project(game_id)

    def project(self, game_id: str) -> None:
        """Bring the read models up to the log (best effort; errors are logged, never raised)."""
        rm = self.read_models
        if rm is None:
            return
        try:
            rm.project(game_id)
            self.projections_down = False
        except Exception as exc:  # Redis down or lagging: the command is in SQLite already
            self.projections_down = True
            log.warning("projection of game %s failed (%s); queries fall back to the log", game_id, exc)


def with_note(emitted: list[Emitted], note: RuleStep | None) -> list[Emitted]:
    """``emitted`` with ``note`` added to the ruling of its first event (UMPIRE-BOT-1)."""
    if note is None or not emitted:
        return emitted
    first = emitted[0]
    ruling = first.ruling or Ruling(summary=note.text)
    ruling = msgspec.structs.replace(ruling, steps=(*ruling.steps, note))
    return [msgspec.structs.replace(first, ruling=ruling), *emitted[1:]]


def check_bots(ruleset_id: str, seats: tuple[str, ...], bots: dict[str, str]) -> dict[str, str]:
    """``POST /games`` ``bots`` checked (known seat, known bot of the ruleset, known level; 422 naming the
    field) -> seat -> ``"<bot id>:<level>"``."""
    if not bots:
        return {}
    from .bot_players import check_bots as check  # kernel-game: moving

    return check(ruleset_id, seats, bots)


def _label_reroll(emitted: list[Emitted], reroll: tuple[int, Undone] | None) -> list[Emitted]:
    """DESIGN 5: the ruling of the first draw after an agreed undo of draws says it is an agreed re-roll."""
    if reroll is None:
        return emitted
    out = list(emitted)
    for i, em in enumerate(out):
        if em.rolls:
            step = agreed_reroll_step(*reroll)
            ruling = em.ruling or Ruling(summary="agreed re-roll")
            out[i] = msgspec.structs.replace(em, ruling=msgspec.structs.replace(ruling, steps=(*ruling.steps, step)))
            break
    return out


__all__ = ["Answer", "CommandRequest", "CreateGameRequest", "Current", "Folded", "GameService", "ReadyRequest",
           "encode_emitted", "public_payload", "ruleset_for"]
