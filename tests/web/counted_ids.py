"""``umpire`` whose game ids count up (web-game-1, web-game-2, ...) instead of being random.

A game's dice are drawn from HMAC(seed, game id | ...) (DESIGN 4), so a browser test that
needs a given course of the dice (tests/web/test_army_builder.py: the armies must meet before the game ends)
runs its own server through this module: the seed typed in the lobby and the counted id fix every roll.
Test-only: the service's ids stay random.
"""
from __future__ import annotations

import itertools

import service.game_service
from service.cli import main

_ids = itertools.count(1)
service.game_service.new_game_id = lambda: f"web-game-{next(_ids)}"

if __name__ == "__main__":
    main()
