"""The engine says exactly what it said before its searches were made fast: every seeded random game
below (every shipped battle and line-up, seeds 0-4) gives the digest pinned here of every command's
legal commands, command templates and emitted events with their rulings (or refusal); see
``tests/smoke/digest.py``. The pins were computed with the one-by-one searches (the code before the
deployment spot search and the fire-contact scan were vectorised and indexed); a change that moves any
measurement, ruling, listed command or template of these games by one bit fails here.

After a change that is meant to change what the engine says, print the new pins with
``PYTHONPATH=. .venv/bin/python -m tests.smoke.digest`` and replace the table (say why in the commit).

Games are played in a fresh order per test (the engine's caches carry over from one test to the next:
a cache that changed an answer would show here too).
"""
from __future__ import annotations

import pytest

from .digest import game_digest
from .play import ruleset

RS = ruleset()

#: (battle, players, seed): the first 16 hex digits of the game's digest  # commands played
PINNED = {
    ("BTL-ALL-TERRAIN", 2, 0): "32f828956f4a3c97",  # 141
    ("BTL-ALL-TERRAIN", 2, 1): "9f6270afcf9f3666",  # 144
    ("BTL-ALL-TERRAIN", 2, 2): "6ba7fa36cb593766",  # 131
    ("BTL-ALL-TERRAIN", 2, 3): "73ecf63682ee49e6",  # 80
    ("BTL-ALL-TERRAIN", 2, 4): "18de4618520a1ccb",  # 100
    ("BTL-ALL-TERRAIN", 4, 0): "3f39b4a9ba0699f0",  # 236
    ("BTL-ALL-TERRAIN", 4, 1): "2af6021a877c6d43",  # 282
    ("BTL-ALL-TERRAIN", 4, 2): "d5657251d364c78e",  # 224
    ("BTL-ALL-TERRAIN", 4, 3): "799d8a349dc38c23",  # 176
    ("BTL-ALL-TERRAIN", 4, 4): "ef2fb3bb3dc299d3",  # 222
    ("BTL-CROSSROADS", 2, 0): "3f07108f94c59b81",  # 178
    ("BTL-CROSSROADS", 2, 1): "30e85ca9c796b842",  # 108
    ("BTL-CROSSROADS", 2, 2): "4fd615aba132036b",  # 129
    ("BTL-CROSSROADS", 2, 3): "d283def1506b8543",  # 54
    ("BTL-CROSSROADS", 2, 4): "cf74acc2c7f5b704",  # 124
    ("BTL-CROSSROADS", 3, 0): "b99b2d2dfaf77f3d",  # 225
    ("BTL-CROSSROADS", 3, 1): "ec1f730f248719ad",  # 258
    ("BTL-CROSSROADS", 3, 2): "e24ebae65e1d4fe0",  # 225
    ("BTL-CROSSROADS", 3, 3): "b88997817d3af5cf",  # 120
    ("BTL-CROSSROADS", 3, 4): "d2efb7ddf4942728",  # 121
    ("BTL-CROSSROADS", 4, 0): "c7909ffd7d6a54bd",  # 244
    ("BTL-CROSSROADS", 4, 1): "c72ec89922d2ba42",  # 378
    ("BTL-CROSSROADS", 4, 2): "bbb4b806cd9a6ee0",  # 196
    ("BTL-CROSSROADS", 4, 3): "530f55b112821f42",  # 223
    ("BTL-CROSSROADS", 4, 4): "c52ce240b3fc0cf6",  # 230
    ("BTL-OPEN-FIELD", 2, 0): "09445dc902eef19c",  # 122
    ("BTL-OPEN-FIELD", 2, 1): "728cc89185a34570",  # 111
    ("BTL-OPEN-FIELD", 2, 2): "de743b58d4f540d2",  # 135
    ("BTL-OPEN-FIELD", 2, 3): "3f2e4644ab2546d0",  # 118
    ("BTL-OPEN-FIELD", 2, 4): "fa55898cc64ee5ad",  # 119
    ("BTL-OPEN-FIELD", 4, 0): "a27033e845c80291",  # 230
    ("BTL-OPEN-FIELD", 4, 1): "388ac2b75e7aa217",  # 212
    ("BTL-OPEN-FIELD", 4, 2): "224197a3e5f94fd9",  # 203
    ("BTL-OPEN-FIELD", 4, 3): "ff8f421e8d0c1643",  # 159
    ("BTL-OPEN-FIELD", 4, 4): "7e7e64796ce62902",  # 217
}


@pytest.mark.parametrize("battle,players,seed", sorted(PINNED))
def test_random_game_outputs_are_unchanged(battle, players, seed):
    digest, _ = game_digest(RS, battle, seed, players)
    assert digest[:16] == PINNED[(battle, players, seed)]
