"""Bots per ruleset (``GET /rulesets`` -> ``bots``) and the one entry point that makes a bot decide.

Every ruleset of the kernel registry has the generic bots (``random``); a package ``bots/<ruleset>/``
exporting ``BOTS`` (instances) adds that ruleset's own. Adding a ruleset's bots is adding a package.
"""
from __future__ import annotations

import importlib
import importlib.util
import time

from domain.kernel import registry as rulesets

from .protocol import Bot, BotInfo, BotSeat, BotSpecError, Decision, SeatInput, bot_random, canonical, stream_label
from .random_bot import RandomBot

GENERIC: tuple[Bot, ...] = (RandomBot(),)
_OWN: dict[str, tuple[Bot, ...]] = {}


def _own(ruleset_id: str) -> tuple[Bot, ...]:
    if ruleset_id not in _OWN:
        found: tuple[Bot, ...] = ()
        try:
            spec = importlib.util.find_spec(f"bots.{ruleset_id}")
        except ModuleNotFoundError:
            spec = None
        if spec is not None:
            found = tuple(getattr(importlib.import_module(f"bots.{ruleset_id}"), "BOTS", ()))
        _OWN[ruleset_id] = found
    return _OWN[ruleset_id]


def bots_for(ruleset_id: str) -> list[Bot]:
    """The bots that can play a seat of ``ruleset_id`` (empty for an unknown ruleset)."""
    if rulesets.get(ruleset_id) is None:
        return []
    return [*GENERIC, *_own(ruleset_id)]


def infos(ruleset_id: str) -> list[BotInfo]:
    return [BotInfo(id=b.id, title=b.title, levels=tuple(b.levels)) for b in bots_for(ruleset_id)]


#: The most digits a bot level is read with (every level is small; a longer one is refused unread).
MAX_LEVEL_DIGITS = 6


def resolve(ruleset_id: str, spec: str, field: str = "bots") -> tuple[Bot, int]:
    """``"<bot id>[:level]"`` -> (bot, level); BotSpecError naming ``field`` otherwise."""
    if not isinstance(spec, str) or not spec:
        raise BotSpecError(field, 'a bot is named "<bot id>" or "<bot id>:<level>"')
    name, _, lvl = spec.partition(":")
    by_id = {b.id: b for b in bots_for(ruleset_id)}
    bot = by_id.get(name)
    if bot is None:
        known = ", ".join(sorted(by_id)) or "none"
        raise BotSpecError(field, f"unknown bot {name!r} for ruleset {ruleset_id!r} (known: {known})")
    if not lvl:
        return bot, bot.levels[0]
    # ASCII digits only, and no more of them than a level has (int() of "²" or of 5,000 digits raises)
    if not (lvl.isascii() and lvl.isdigit()) or len(lvl) > MAX_LEVEL_DIGITS or int(lvl) not in bot.levels:
        shown = lvl if len(lvl) <= MAX_LEVEL_DIGITS else f"{lvl[:MAX_LEVEL_DIGITS]}... ({len(lvl)} characters)"
        raise BotSpecError(field, f"bot {name!r} has levels {', '.join(map(str, bot.levels))}, not {shown!r}")
    return bot, int(lvl)


def decide(seat: BotSeat, seat_input: SeatInput, playouts: int | None = None) -> Decision:
    """The bot's command for ``seat_input``; reproducible from (seat, seat_input[, playouts])."""
    bot, level = resolve(seat_input.ruleset, seat.spec)
    if not seat_input.legal:
        raise ValueError(f"{seat_input.seat} has no legal command at version {seat_input.version}")
    rng = bot_random(seat.seed, seat_input.game_id, seat_input.seat, seat_input.version)
    t0 = time.perf_counter()
    choice = bot.choose(seat_input, rng, level, playouts)
    dt = time.perf_counter() - t0
    legal = {canonical(c) for c in seat_input.legal}
    if canonical(choice.command) not in legal:
        raise AssertionError(f"bot {seat.spec} chose a command that is not legal: {choice.command!r}")
    return Decision(command=choice.command, explanation=choice.explanation, bot=seat.spec,
                    stream=stream_label(seat_input.game_id, seat_input.seat, seat_input.version),
                    playouts=choice.playouts, seconds=dt)
