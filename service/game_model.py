"""The command path's shapes (DESIGN sections 1, 8): the request bodies, a game as the service holds it
(:class:`Current`: its row, ruleset, setup and folded game), a command's answer, and the one I/O a command's
steps ask for (:class:`AppendCall`); the extension hooks campaigns register."""
from __future__ import annotations

import uuid
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import msgspec

from domain.kernel import (
    FINISHED,
    Ruleset,
    Setup,
    Status,
    game_status,
    registry,
)
from domain.kernel.game import Game
from domain.kernel.header import ClientSeed
from domain.kernel.seats import Seating

from .problems import Problem
from .store import AppendResult, GameRow, NewEvent

#: Extensions (campaigns: service/routes/campaigns.py). A seat resolver names the seat of a token
#: that the game's own seats do not know (a campaign's seat tokens act in every battle of it);
#: an on-finished hook hears of every game that a command just finished.
SEAT_RESOLVERS: list[Any] = []
ON_FINISHED: list[Any] = []

#: Games whose folded state is kept in memory (least recently used dropped first).
CACHE_GAMES = 256
#: Bytes of a seat token before URL-safe base64.
TOKEN_BYTES = 24

_setup_decoder = msgspec.json.Decoder(Setup)


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


#: The folded game (:class:`domain.kernel.game.Game`) under the name the service used before it moved
#: into the kernel.
Folded = Game


@dataclass
class _Entry:
    folded: Folded
    #: seq -> state after the first ``seq`` events (a prefix fold, DESIGN 5 replay).
    checkpoints: dict[int, Any] = field(default_factory=dict)
    #: The game's row as this process last read or wrote it, when at the version of ``folded`` (else None):
    #: the command path decides on it without reading the store, the append's version check its guard.
    row: GameRow | None = None


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



__all__ = ["COMMAND_ID_MAX", "CACHE_GAMES", "ON_FINISHED", "SEAT_RESOLVERS", "TOKEN_BYTES", "Answer", "AppendCall",
           "CommandRequest", "CreateGameRequest", "Current", "Folded", "ReadyRequest", "Steps", "new_game_id",
           "ruleset_for"]
