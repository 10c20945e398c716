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
        # UMPIRE-BOT-3: not how many it had (that counts the cards of a hidden hand)
        return Choice(command=cmd, explanation="random: a legal command at random")
