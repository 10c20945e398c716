"""The service's built-in players (DESIGN 13; UMPIRE-BOT-1, UMPIRE-BOT-2): bot seats played through the
ordinary command path by a background worker of each process.

- ``POST /games`` ``"bots": {"<seat>": "<bot id>[:level]"}`` is checked by :func:`check_bots` (422 naming
  ``bots.<seat>``) and recorded in the game's ``game_created`` header (``bots``), so every process, and a
  restarted one, knows the bot seats from the log alone. No token is handed out for a bot seat.
- :class:`BotPlayers` (one per app, started and stopped with it) hears of every append and every new game
  (``GameHost.on_appended``, handed the game service by ``service.app.create_app``) and of every unfinished game with bots when it starts (a restart resumes).
  For a game whose decision is a bot seat's it builds the seat's input with the code the routes use (the
  seat's ``GET /games/{id}`` state, its ``legal-commands``, its ``events``: never the folded state, a deck or
  another hand), lets the bot decide in a worker thread (never on the event loop, never inside a request),
  and posts the command with ``svc.run`` under the game's lock and the ``expected_version`` the input was
  read at: when a person (or another process's worker) moved first, the store answers 409 and the worker
  reads again. With several processes or nodes exactly one append wins.
- The kernel's own decisions of a bot seat are answered by rule, not by the bot: ``ready`` without a client
  seed (a ``when_ready`` game), and an undo request is declined when its range holds a reveal (UMPIRE-REVEAL-1) and accepted
  otherwise (:func:`bots.protocol.answer_undo`).
- The step's ruling names the bot (a ``UMPIRE-BOT-1`` step with ``"bot": "<id>:<level>"`` and the bot's
  explanation) and the event entries of a bot seat carry ``"bot"`` (``GameService.render_events``).
- A bot's own random stream is seeded per game and seat from the game's secret seed
  (:func:`bot_seed`), so it is kept and revealed like the seed, and a finished game's bot decisions can be
  reproduced with :func:`bots.decide` from the inputs.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Protocol

import anyio
import msgspec

from bots import BotSeat, Decision, SeatInput, UndoQuestion, answer_undo, decide
from bots.random_bot import RandomBot
from domain.kernel import KERNEL_COMMAND_TYPES, Ready, UndoAccept, UndoDecline
from domain.kernel.sides import seat_sides
from domain.kernel.undo import may_answer, range_draws, range_reveals
from domain.kernel.rulings import RuleStep

from projections import views
from .bot_seats import bot_seed, check_bots
from .game_model import Answer, Current, Steps, ruleset_for
from .metrics import timed_bot
from .problems import Problem
from .store import GameRow, StoredEvent
from .store_contract import Store

log = logging.getLogger("umpire.bots")


class GameHost(Protocol):
    """What the built-in players ask of the game service (the port :class:`BotPlayers` is handed by the
    composition root, ``service.app.create_app``): read a game as a seat sees it, and play a command through
    the ordinary command path. :class:`service.game_service.GameService` implements it."""

    store: Store
    read_models: Any
    projector: Any
    defer_projection: bool
    project_elsewhere: bool
    #: Called with the game id after every append and every new game.
    on_appended: list[Any]

    def current(self, game_id: str, game: GameRow | None = None) -> Current: ...

    def without_bots(self, game_id: str) -> bool: ...

    def seed(self, game_id: str) -> bytes: ...

    def legal_commands(self, cur: Current, seat: str | None) -> list[dict[str, Any]]: ...

    def render_events(self, cur: Current, records: list[StoredEvent], seat: str | None) -> list[dict[str, Any]]: ...

    def decode_command(self, rs: Any, raw: dict[str, Any]) -> Any: ...

    def lock(self, game_id: str) -> asyncio.Lock: ...

    def run_steps(self, game_id: str, seat: str, command: Any, *, expected_version: int | None,
                  note: RuleStep | None = None) -> Steps: ...

    def perform(self, steps: Steps) -> Awaitable[Answer]: ...

    def notify(self, game_id: str, version: int | None = None) -> None: ...

    def project(self, game_id: str) -> None: ...


#: Games played at once by one process's bots (each in its own worker thread while it decides).
WORKERS = 2


@dataclass(frozen=True)
class Job:
    """One decision of a bot seat, read at ``version``."""

    game_id: str
    seat: str
    spec: str
    version: int
    #: ``play`` (a game command), ``ready`` or ``undo`` (answered by rule).
    kind: str
    seat_input: SeatInput | None = None
    seed: str = ""
    #: ``undo``: the question put to the bot.
    question: UndoQuestion | None = None


def seat_input(svc: GameHost, cur: Current, seat: str) -> SeatInput:
    """What ``seat`` receives over REST at ``cur.version``, built by the routes' own code: the ``state`` of
    ``GET /games/{id}``, the ruleset's commands of ``GET /games/{id}/legal-commands`` (the kernel's are
    answered by rule) and ``GET /games/{id}/events`` from seq 1, all as that seat."""
    gid = cur.game.game_id
    view = views.game_view(cur.game, cur.ruleset, cur.state, seat, cur.version, kernel=cur.folded.kernel)
    legal = [c for c in svc.legal_commands(cur, seat) if c.get("type") not in KERNEL_COMMAND_TYPES]
    events = svc.render_events(cur, svc.store.load(gid, upto=cur.version), seat)
    return SeatInput(ruleset=cur.ruleset.id, game_id=gid, seat=seat, version=cur.version, view=view["state"],
                     legal=legal, events=events)


def undo_question(svc: GameHost, cur: Current) -> UndoQuestion | None:
    """The waiting undo request, with whether its range holds a draw (the kernel's ``redraw`` test)."""
    req = cur.folded.kernel.undo_request
    if req is None:
        return None
    steps = cur.folded.steps()  # the kernel's own reading of the log: its reveal rule, not a list of the bot's
    return UndoQuestion(by=req.by, to_version=req.to_version, draws=range_draws(steps, req.to_version, req.seq - 1),
                        reveals=range_reveals(steps, req.to_version, req.seq - 1))


def next_job(svc: GameHost, game_id: str) -> Job | None:
    """The bot decision open in ``game_id`` now, or None (blocking: SQLite)."""
    game = svc.store.game(game_id)
    if game is None or game.read_only:
        return None
    cur = svc.current(game_id, game)
    header = cur.folded.kernel.header
    if header is None or not header.bots or cur.finished:
        return None
    bots = header.bots
    ks = cur.folded.kernel
    if ks.waiting:
        for seat in ks.unready():
            if seat in bots:
                return Job(game_id, seat, bots[seat], cur.version, "ready")
        return None
    req = ks.undo_request
    if req is not None:
        sides = seat_sides(cur.ruleset, cur.setup)
        for seat in sorted(bots):
            if may_answer(ks, sides, seat):  # UMPIRE-UNDO-13: a bot of a side that must still answer
                return Job(game_id, seat, bots[seat], cur.version, "undo", question=undo_question(svc, cur))
    for seat in cur.status.to_act:
        if seat in bots:
            inp = seat_input(svc, cur, seat)
            if not inp.legal:
                return None
            return Job(game_id, seat, bots[seat], cur.version, "play", seat_input=inp,
                       seed=bot_seed(svc.seed(game_id), game_id, seat, bots[seat]))
    return None


def bot_decision(job: Job) -> Decision:
    """The bot's decision on ``job`` (CPU work: call it in a worker thread). A bot that fails is replaced for
    this decision by the random bot (logged), so a game never stalls on a bot's error."""
    assert job.seat_input is not None
    bot, _, level = job.spec.partition(":")
    seat = BotSeat(bot=bot, level=int(level), seed=job.seed)
    try:
        with timed_bot(bot, level):  # DESIGN 16: bot decision time by bot and level
            return decide(seat, job.seat_input)
    except Exception:
        log.exception("bot %s failed on game %s at version %s; a random legal command is played instead",
                      job.spec, job.game_id, job.version)
        d = decide(BotSeat(bot=RandomBot.id, level=1, seed=job.seed), job.seat_input)
        return msgspec.structs.replace(d, explanation=f"{job.spec} failed here; {d.explanation}", bot=job.spec)


def by_rule(job: Job) -> tuple[Any, RuleStep]:
    """The kernel command a bot seat gives by rule (UMPIRE-BOT-2), not by its bot: ``ready`` without a
    client seed, or its answer to an undo request (:func:`bots.protocol.answer_undo`); with its ruling note."""
    if job.kind == "ready":
        return Ready(), note_of(job.spec, "ready without a client seed (UMPIRE-BOT-2)")
    assert job.kind == "undo" and job.question is not None
    accept, why = answer_undo(job.question)
    return (UndoAccept() if accept else UndoDecline(),
            note_of(job.spec, f"undo request {why} (UMPIRE-BOT-2)", draws=job.question.draws,
                    reveals=job.question.reveals))


def note_of(spec: str, explanation: str, **values: Any) -> RuleStep:
    """The ruling step that names the bot (UMPIRE-BOT-1)."""
    return RuleStep(rule="UMPIRE-BOT-1", text=f"Played by the bot {spec}. {explanation}",
                    values={"bot": spec, **{k: v for k, v in values.items() if v is not None}})


class BotPlayers:
    """The background worker of one process (see the module docstring)."""

    def __init__(self, svc: GameHost, workers: int = WORKERS):
        self.svc = svc
        self.workers = workers
        #: Called with every :class:`SeatInput` handed to a bot (tests record them; nothing else uses it).
        self.on_input: list[Any] = []
        #: Called with (job, decision) after a bot decided (tests, logs).
        self.on_decision: list[Any] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[str] | None = None
        self._queued: set[str] = set()
        self._busy: set[str] = set()
        self._again: set[str] = set()
        #: game -> the version at which its bot's command was refused (not retried before the game moves on).
        self._stuck: dict[str, int] = {}
        self._tasks: list[asyncio.Task[Any]] = []
        self._thread: int | None = None
        svc.on_appended.append(self.poke)

    # -- hearing of games -------------------------------------------------------------------------
    def poke(self, game_id: str) -> None:
        """A game changed or was created (any thread): look at it soon (a game known to have no bot seat
        is nothing to look at: no thread hop, no read, per command)."""
        if self.svc.without_bots(game_id):
            return
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._thread:
            self._enqueue(game_id)
        else:
            try:
                loop.call_soon_threadsafe(self._enqueue, game_id)
            except RuntimeError:  # the loop closed meanwhile
                pass

    def _enqueue(self, game_id: str) -> None:
        if self._queue is None:
            return
        if game_id in self._busy:
            self._again.add(game_id)
        elif game_id not in self._queued:
            self._queued.add(game_id)
            self._queue.put_nowait(game_id)

    def unfinished_with_bots(self) -> list[str]:
        """Every game here that is not finished and has bot seats (a starting process resumes them): the
        store's index of bot headers, so a start costs the games with bots, not every stored game."""
        return self.svc.store.unfinished_bot_games()

    # -- the worker -------------------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._queue = asyncio.Queue()
        self._tasks = [asyncio.create_task(self._work(), name=f"umpire-bots-{i}") for i in range(self.workers)]
        self._tasks.append(asyncio.create_task(self._resume(), name="umpire-bots-resume"))

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass
        self._tasks = []
        self._loop = None

    async def _resume(self) -> None:
        try:
            ids = await anyio.to_thread.run_sync(self.unfinished_with_bots)
        except Exception:
            log.exception("could not list the unfinished games with bots; they resume at their next command")
            return
        for gid in ids:
            self._enqueue(gid)

    async def _work(self) -> None:
        assert self._queue is not None
        while True:
            gid = await self._queue.get()
            self._queued.discard(gid)
            self._busy.add(gid)
            try:
                await self.play(gid)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot turn of game %s failed", gid)
            finally:
                self._busy.discard(gid)
                if gid in self._again:
                    self._again.discard(gid)
                    self._enqueue(gid)

    async def play(self, game_id: str) -> None:
        """Play the bot decisions of ``game_id`` until it is nobody's or a person's."""
        svc = self.svc
        while True:
            job = await anyio.to_thread.run_sync(next_job, svc, game_id)
            if job is None or self._stuck.get(game_id) == job.version:
                return
            self._again.discard(game_id)
            if job.kind in ("ready", "undo"):
                command, note = by_rule(job)
            else:
                assert job.seat_input is not None
                for hook in self.on_input:
                    hook(job.seat_input)
                decision = await anyio.to_thread.run_sync(bot_decision, job)
                for hook in self.on_decision:
                    hook(job, decision)
                command = svc.decode_command(ruleset_for(job.seat_input.ruleset), decision.command)
                # UMPIRE-BOT-3: the public ruling names the bot and its command in words; its playouts and
                # thinking time (which grow with its hidden options) go to the operator's log only
                note = note_of(job.spec, decision.explanation)
                log.debug("bot %s in game %s at version %s: %s playouts, %.3f s", job.spec, game_id, job.version,
                          decision.playouts, decision.seconds)
            try:
                async with svc.lock(game_id):
                    answer = await svc.perform(svc.run_steps(game_id, job.seat, command, expected_version=job.version,
                                                             note=note))
            except Problem as exc:
                if exc.status == 409:  # somebody moved first (a person, another process): read again
                    continue
                log.warning("the command of bot %s in game %s at version %s was refused: %s", job.spec, game_id,
                            job.version, getattr(exc, "detail", exc))
                self._stuck[game_id] = job.version
                return
            self._stuck.pop(game_id, None)
            if answer.appended:  # as a route's command_response does
                svc.notify(game_id, answer.body.get("version"))
                if (svc.defer_projection and svc.read_models is not None and svc.projector is None
                        and not svc.project_elsewhere):
                    await anyio.to_thread.run_sync(svc.project, game_id)


__all__ = ["BotPlayers", "GameHost", "Job", "bot_decision", "by_rule", "bot_seed", "check_bots", "next_job", "seat_input", "undo_question"]
