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
    ("BTL-CROSSROADS", 2, 0): "9d8125e0899f2587",  # 178
    ("BTL-CROSSROADS", 2, 1): "a45d865b1c324f75",  # 108
    ("BTL-CROSSROADS", 2, 2): "c0965837502419d5",  # 129
    ("BTL-CROSSROADS", 2, 3): "9fc79c5bc3cb47bc",  # 54
    ("BTL-CROSSROADS", 2, 4): "a854ac1eb9c7221c",  # 124
    ("BTL-CROSSROADS", 3, 0): "526dc2dee6dbd6ba",  # 225
    ("BTL-CROSSROADS", 3, 1): "922cda6d0d94260e",  # 258
    ("BTL-CROSSROADS", 3, 2): "c22742dee3c139a5",  # 225
    ("BTL-CROSSROADS", 3, 3): "5ce5fbde81ef7c14",  # 120
    ("BTL-CROSSROADS", 3, 4): "dbc224cd7eab509f",  # 121
    ("BTL-CROSSROADS", 4, 0): "cc53d3f61032516f",  # 244
    ("BTL-CROSSROADS", 4, 1): "9dbbab0007344ac3",  # 378
    ("BTL-CROSSROADS", 4, 2): "d42980083d08425f",  # 196
    ("BTL-CROSSROADS", 4, 3): "6eb0f7e04f882813",  # 223
    ("BTL-CROSSROADS", 4, 4): "9ace19b8cd11cab3",  # 230
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
