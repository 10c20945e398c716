"""The bot protocol (DESIGN 13): a bot is an ordinary client of its seat.

A bot receives a :class:`SeatInput`: exactly what its seat receives from the REST API, as JSON
builtins -- the seat's view (``ruleset.view(state, seat)``, the ``state`` of ``GET /games/{id}``),
its legal commands (``ruleset.legal_commands(state, seat)``, the ``commands`` of
``GET /games/{id}/legal-commands``) and, when it needs history, the event log entries as this seat
sees them (``GET /games/{id}/events``: private fields of other seats' events redacted). Never the
folded state, never a deck order, never another hand. It answers with one of the legal commands and
a short explanation that reveals nothing the seat could not know.

Chance inside a bot (sampling unseen cards, playout dice, tie breaks) comes from the bot's own random
stream, never from the game's dice: draw ``i`` of a bot is a ``random.Random`` seeded with
``HMAC-SHA256(bot_seed, "umpire-bot|{game_id}|{seat}|{version}")`` (:func:`bot_random`). So a decision
depends only on (bot id, level, bot seed, the seat's input) and, for a search cut short by its time cap,
the number of playouts it made, which the :class:`Decision` records: :func:`decide` with
``playouts=decision.playouts`` makes the same choice again.

The service side (POST /games ``"bots"``) is a thin module over this one:

* ``POST /games``: :func:`bots.registry.resolve` checks each ``"<bot id>[:level]"`` (``BotSpecError`` names
  the field, e.g. ``bots.rebel``: a 400 problem); a :class:`BotSeat` (bot, level, ``new_bot_seed()``) is kept
  with the game, its seed private like the game seed until the game ends.
* Whenever a bot seat is to act: a :class:`SeatInput` from the same code the routes use (``game_view``'s
  ``state``, ``legal_commands``'s ``commands``, the seat's ``events`` from seq 1), then
  :func:`bots.registry.decide`, and the command goes through the ordinary command path with ``actor`` = the
  seat and ``"bot": decision.bot`` (and the explanation) beside the step's ruling.
* An undo request put to a bot seat: :func:`answer_undo` (UMPIRE-BOT-2). The kernel's own commands (``ready``,
  ``undo_accept``/``undo_decline``) are answered by the service by rule, never by the bot: the bot's ``legal`` holds
  the ruleset's commands only.
"""
from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import Any, ClassVar, Protocol

import msgspec


class SeatInput(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat receives over REST at one version of the game (JSON builtins only)."""

    ruleset: str
    game_id: str
    seat: str
    #: The game's version (event count) this input was read at.
    version: int
    #: ``GET /games/{id}`` -> ``state``: ``ruleset.view(state, seat)``.
    view: dict[str, Any]
    #: ``GET /games/{id}/legal-commands`` -> ``commands``.
    legal: list[dict[str, Any]]
    #: ``GET /games/{id}/events`` entries from the first (``seq``, ``type``, ``actor``, ``payload``, ``undone``;
    #: private fields of events this seat may not see are absent and ``redacted`` is true). Bots that need
    #: history read it (the hoth bots: the opening's scenario and cards, lasting effects); others ignore it.
    events: list[dict[str, Any]] = []


class Budget(msgspec.Struct, frozen=True, kw_only=True):
    """How much a decision may cost: playouts (deterministic) and a wall-clock cap (a safety net)."""

    playouts: int = 0
    seconds: float = 0.0


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """What a bot's ``choose`` returns: one legal command (JSON builtins) and why."""

    command: dict[str, Any]
    explanation: str
    #: Playouts made (search bots); what reproduces a decision cut short by the time cap.
    playouts: int | None = None


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """A bot's decision with what is needed to reproduce it."""

    command: dict[str, Any]
    explanation: str
    #: ``"<bot id>:<level>"`` (the timeline and the ruling name the bot with it).
    bot: str
    #: The label of the bot's random stream for this decision (see :func:`bot_random`).
    stream: str
    playouts: int | None = None
    #: Wall-clock seconds the decision took (not part of what is reproduced).
    seconds: float = 0.0


class BotInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of ``GET /rulesets`` -> ``bots``."""

    id: str
    title: str
    levels: tuple[int, ...]


class Bot(Protocol):
    id: ClassVar[str]
    title: ClassVar[str]
    #: Levels, weakest first; the first is the default.
    levels: ClassVar[tuple[int, ...]]

    def choose(self, seat_input: SeatInput, rng: random.Random, level: int,
               playouts: int | None = None) -> Choice:
        """One of ``seat_input.legal``; ``playouts`` replaces the level's budget (reproduction)."""
        ...


class BotSpecError(ValueError):
    """A bad ``"<bot id>[:level]"`` (POST /games ``bots``): names the field."""

    def __init__(self, field: str, detail: str):
        super().__init__(f"{field}: {detail}")
        self.field = field
        self.detail = detail


class BotSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat played by a bot: what to record with the game to reproduce the bot's decisions."""

    bot: str
    level: int
    #: 64 lowercase hex characters (32 bytes); like the game seed it is kept with the game.
    seed: str

    @property
    def spec(self) -> str:
        return f"{self.bot}:{self.level}"


def new_bot_seed() -> str:
    return secrets.token_hex(32)


def stream_label(game_id: str, seat: str, version: int) -> str:
    return f"umpire-bot|{game_id}|{seat}|{version}"


def bot_random(seed: str | bytes, game_id: str, seat: str, version: int) -> random.Random:
    """The bot's own random stream for one decision (never the game's dice, DESIGN 13)."""
    key = bytes.fromhex(seed) if isinstance(seed, str) else seed
    digest = hmac.new(key, stream_label(game_id, seat, version).encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def canonical(command: Any) -> bytes:
    """A command's identity for comparing it with the legal list (key order does not matter)."""
    return msgspec.json.encode(msgspec.to_builtins(command), order="sorted")


def legal_index(seat_input: SeatInput) -> dict[bytes, int]:
    return {canonical(c): i for i, c in enumerate(seat_input.legal)}


class UndoQuestion(msgspec.Struct, frozen=True, kw_only=True):
    """An undo request put to a bot's seat: back to ``to_version``, asked by ``by``.

    ``draws``: whether the range to undo holds a draw (dice, a shuffle): the service knows it from the stored
    events' rolls (the test the kernel uses for ``redraw``, UMPIRE-UNDO-9).
    """

    by: str
    to_version: int
    draws: bool
    #: Whether the range holds a reveal by the kernel's own rule (UMPIRE-REVEAL-1: a draw, an event hidden
    #: from some seat, a type that makes hidden content public), as the service computed it from the log.
    reveals: bool = True


def answer_undo(question: UndoQuestion) -> tuple[bool, str]:
    """UMPIRE-BOT-2: a bot declines an undo whose range holds a reveal (accepting would let the asker have a
    draw made anew, or take back a move after seeing a card or a secret: a second outcome of chance, which
    needs the opponent's consent and a bot never gives it) and accepts one without (nothing is drawn again,
    nothing seen is taken back; the asker only takes back a choice)."""
    if question.draws:
        return False, "declined: the steps to undo drew dice or shuffled, and a draw is not made twice"
    if question.reveals:
        return False, "declined: the steps to undo revealed something (a card, a secret), which is not taken back"
    return True, "accepted: nothing drawn would be drawn again, nothing seen is taken back"
