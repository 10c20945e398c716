"""The ``random`` bot of every ruleset: one legal command, uniformly, from the bot's own stream."""
from __future__ import annotations

import random
from typing import ClassVar

from .protocol import Choice, SeatInput


class RandomBot:
    id: ClassVar[str] = "random"
    title: ClassVar[str] = "Random: any legal command, uniformly at random"
    levels: ClassVar[tuple[int, ...]] = (1,)

    def choose(self, seat_input: SeatInput, rng: random.Random, level: int, playouts: int | None = None) -> Choice:
        n = len(seat_input.legal)
        cmd = seat_input.legal[rng.randrange(n)]
        return Choice(command=cmd, explanation=f"random: one of {n} legal command(s)")
