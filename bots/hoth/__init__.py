"""Battle of Hoth bots: ``greedy`` (rule-based, fast) and ``search`` (determinised MCTS over the engine's own
playouts, greedy playout policy). Both read only what their seat receives (``knowledge.py``)."""
from __future__ import annotations

import random
from typing import Any, ClassVar

import msgspec

from domain.hoth import commands as C

from ..protocol import Choice, SeatInput
from . import greedy
from .knowledge import Knowledge
from .search import Search


def _commands(seat_input: SeatInput) -> list[Any]:
    return [msgspec.convert(c, C.HothCommand) for c in seat_input.legal]


def _kind(cmd: Any) -> str:
    return type(cmd).__struct_config__.tag.replace("_", " ")


class GreedyBot:
    id: ClassVar[str] = "greedy"
    title: ClassVar[str] = "Greedy: the best expected hits, objectives and safe ground for this step (fast)"
    levels: ClassVar[tuple[int, ...]] = (1,)

    def choose(self, seat_input: SeatInput, rng: random.Random, level: int, playouts: int | None = None) -> Choice:
        cmds = _commands(seat_input)
        if len(cmds) == 1:
            return Choice(command=seat_input.legal[0], explanation=f"greedy: {seat_input.legal[0].get('type')}")
        state = Knowledge(seat_input).sample(rng)
        pick = greedy.choose(state, seat_input.seat, cmds)
        i = cmds.index(pick.command)
        return Choice(command=seat_input.legal[i],
                      # UMPIRE-BOT-3: the command in words, never its gain (computed from the hidden hand)
                      explanation=f"greedy: {greedy.describe(state, pick.command)}")


class SearchBot:
    id: ClassVar[str] = "search"
    title: ClassVar[str] = ("Search: Monte Carlo tree search over the engine's own playouts, unseen cards sampled "
                            "from what the seat has not seen")
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3)
    #: level -> (playouts per decision, wall-clock cap in seconds).
    BUDGETS: ClassVar[dict[int, tuple[int, float]]] = {1: (200, 1.0), 2: (1000, 3.0), 3: (3000, 8.0)}

    def choose(self, seat_input: SeatInput, rng: random.Random, level: int, playouts: int | None = None) -> Choice:
        cmds = _commands(seat_input)
        if len(cmds) == 1:
            return Choice(command=seat_input.legal[0], explanation=f"search: {seat_input.legal[0].get('type')}",
                          playouts=0)
        n, cap = self.BUDGETS[level]
        early = True
        if playouts is not None:
            n, cap, early = playouts, 0.0, False  # reproduce: exactly this many playouts, no clock
        k = Knowledge(seat_input)
        res = Search(k, rng).run(n, cap, early)
        i = cmds.index(res.command)
        return Choice(command=seat_input.legal[i], playouts=res.playouts,
                      # UMPIRE-BOT-3: no win rate nor playouts (estimated from the hidden hand and deck)
                      explanation=f"search: {_kind(res.command)} ({greedy.describe(k.base, res.command)})")


BOTS = (GreedyBot(), SearchBot())
