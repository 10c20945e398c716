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
    ("BTL-ALL-TERRAIN", 2, 0): "b70fdb5091758e48",  # 141
    ("BTL-ALL-TERRAIN", 2, 1): "8e6f5cf7e8d00cef",  # 144
    ("BTL-ALL-TERRAIN", 2, 2): "ebf6ce00577a130b",  # 131
    ("BTL-ALL-TERRAIN", 2, 3): "d7f868f7a3c60398",  # 80
    ("BTL-ALL-TERRAIN", 2, 4): "51a71c2262448c45",  # 100
    ("BTL-ALL-TERRAIN", 4, 0): "aca785dcb632422e",  # 236
    ("BTL-ALL-TERRAIN", 4, 1): "06d980d6ea0b02ee",  # 282
    ("BTL-ALL-TERRAIN", 4, 2): "c6cdd5d2f09e2cd3",  # 224
    ("BTL-ALL-TERRAIN", 4, 3): "afb4aaef206ce7f6",  # 176
    ("BTL-ALL-TERRAIN", 4, 4): "87dbf222b34fefb7",  # 222
    ("BTL-CROSSROADS", 2, 0): "33fbbaca3629ab1a",  # 178
    ("BTL-CROSSROADS", 2, 1): "59c9d4b1f55e3fc5",  # 108
    ("BTL-CROSSROADS", 2, 2): "c5b4e07cc3a759a4",  # 129
    ("BTL-CROSSROADS", 2, 3): "9fc79c5bc3cb47bc",  # 54
    ("BTL-CROSSROADS", 2, 4): "3446b8a8b90af7c6",  # 124
    ("BTL-CROSSROADS", 3, 0): "f712651e316e5285",  # 225
    ("BTL-CROSSROADS", 3, 1): "7e341846902466f9",  # 258
    ("BTL-CROSSROADS", 3, 2): "086e66f0e64b3929",  # 225
    ("BTL-CROSSROADS", 3, 3): "5ce5fbde81ef7c14",  # 120
    ("BTL-CROSSROADS", 3, 4): "6913b906dd0aa866",  # 121
    ("BTL-CROSSROADS", 4, 0): "f10ec727860459f6",  # 244
    ("BTL-CROSSROADS", 4, 1): "81b7f000e147c25f",  # 378
    ("BTL-CROSSROADS", 4, 2): "47e58658de2aa45b",  # 196
    ("BTL-CROSSROADS", 4, 3): "1aafc6f20deb4506",  # 223
    ("BTL-CROSSROADS", 4, 4): "2b18a97171bc7399",  # 230
    ("BTL-OPEN-FIELD", 2, 0): "cff992460c2c4d53",  # 122
    ("BTL-OPEN-FIELD", 2, 1): "b16eadc6849b41a8",  # 111
    ("BTL-OPEN-FIELD", 2, 2): "89a0eb9e3c49a6b8",  # 135
    ("BTL-OPEN-FIELD", 2, 3): "1e2a45f65e392bbe",  # 118
    ("BTL-OPEN-FIELD", 2, 4): "03e8a251cc67feb4",  # 119
    ("BTL-OPEN-FIELD", 4, 0): "f227b8678bcbbd14",  # 230
    ("BTL-OPEN-FIELD", 4, 1): "250057b47b88792f",  # 212
    ("BTL-OPEN-FIELD", 4, 2): "324e26cab682a12b",  # 203
    ("BTL-OPEN-FIELD", 4, 3): "96fe0726670525c5",  # 159
    ("BTL-OPEN-FIELD", 4, 4): "855574ba9531becb",  # 217
}


@pytest.mark.parametrize("battle,players,seed", sorted(PINNED))
def test_random_game_outputs_are_unchanged(battle, players, seed):
    digest, _ = game_digest(RS, battle, seed, players)
    assert digest[:16] == PINNED[(battle, players, seed)]
