"""Playing on a sampled state inside a bot: the engine's own ``decide`` (``HothRuleset.step``) with dice from
the bot's random stream (never the game's dice, DESIGN 13)."""
from __future__ import annotations

import random
from typing import Any

from domain.hoth.decider import RULESET
from domain.hoth.state import HothState
from domain.kernel import GAME_DICE, Dice, Roll


class BotDice(Dice):
    """The kernel's dice interface on a ``random.Random``: what the engine rolls inside a bot's playouts."""

    def __init__(self, rng: random.Random):
        super().__init__(b"", "bot")
        self._rand = rng.random

    def value(self, sides: int, stream: str = GAME_DICE) -> int:
        i = self._next.get(stream, 0)
        v = int(self._rand() * sides)
        self._next[stream] = i + 1
        roll = Roll(stream=stream, index=i, sides=sides, value=v)
        self._pending.append(roll)
        return v


def step(state: HothState, seat: str, command: Any, dice: BotDice) -> tuple[HothState, bool]:
    """The state after ``command``, and whether the step revealed anything (a roll, a card drawn)."""
    items, after = RULESET.step(state, seat, command, dice, explain=False)
    dice.take()
    return after, any(em.revealing for em in items)


def to_act(state: HothState) -> str | None:
    if state.winner is not None:
        return None
    if state.pending is not None:
        return state.pending.seat
    return state.turn.seat if state.turn is not None else None


def legal(state: HothState, seat: str) -> list[Any]:
    return RULESET.legal_commands(state, seat)
