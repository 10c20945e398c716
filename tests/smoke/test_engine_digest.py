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
    ("BTL-ALL-TERRAIN", 2, 0): "864f8faaae19c28c",  # 141
    ("BTL-ALL-TERRAIN", 2, 1): "42f3af221fc9a0a5",  # 144
    ("BTL-ALL-TERRAIN", 2, 2): "b4fdcca86f8c3480",  # 131
    ("BTL-ALL-TERRAIN", 2, 3): "7c09583aba95921c",  # 80
    ("BTL-ALL-TERRAIN", 2, 4): "bee7db29e0b3d5b5",  # 100
    ("BTL-ALL-TERRAIN", 4, 0): "ce86e317a87c8ff8",  # 236
    ("BTL-ALL-TERRAIN", 4, 1): "8d09a9c82d4a35c7",  # 282
    ("BTL-ALL-TERRAIN", 4, 2): "86724278c222d1a7",  # 224
    ("BTL-ALL-TERRAIN", 4, 3): "b67fdd9e7b59f349",  # 176
    ("BTL-ALL-TERRAIN", 4, 4): "a8cd2db91f37e0b4",  # 222
    ("BTL-CROSSROADS", 2, 0): "ae91f587826f31f8",  # 178
    ("BTL-CROSSROADS", 2, 1): "5936e250fb0a06cf",  # 108
    ("BTL-CROSSROADS", 2, 2): "fdf016cb4809ea79",  # 129
    ("BTL-CROSSROADS", 2, 3): "6a6f7119df66e1da",  # 54
    ("BTL-CROSSROADS", 2, 4): "6539121b315a17ad",  # 124
    ("BTL-CROSSROADS", 3, 0): "65ad562772adffdd",  # 225
    ("BTL-CROSSROADS", 3, 1): "91e2cf76e45a8626",  # 258
    ("BTL-CROSSROADS", 3, 2): "cb578433f23986dc",  # 225
    ("BTL-CROSSROADS", 3, 3): "04c49ef518a41bc0",  # 120
    ("BTL-CROSSROADS", 3, 4): "0b5ae1327de6e249",  # 121
    ("BTL-CROSSROADS", 4, 0): "56a0e23e52295838",  # 244
    ("BTL-CROSSROADS", 4, 1): "e9017e13104fec8b",  # 378
    ("BTL-CROSSROADS", 4, 2): "49f95ff153873d44",  # 196
    ("BTL-CROSSROADS", 4, 3): "6252dd8da3cb6785",  # 223
    ("BTL-CROSSROADS", 4, 4): "b08d5bd79ce4c8f6",  # 230
    ("BTL-OPEN-FIELD", 2, 0): "6bea01f4b3330ae6",  # 122
    ("BTL-OPEN-FIELD", 2, 1): "03e414b40d627665",  # 111
    ("BTL-OPEN-FIELD", 2, 2): "2108cce721498a24",  # 135
    ("BTL-OPEN-FIELD", 2, 3): "9e1437aabe3441ee",  # 118
    ("BTL-OPEN-FIELD", 2, 4): "aa839a58b8bdbd3a",  # 119
    ("BTL-OPEN-FIELD", 4, 0): "89c9ebf7baf9c296",  # 230
    ("BTL-OPEN-FIELD", 4, 1): "e4ad30d638ef5883",  # 212
    ("BTL-OPEN-FIELD", 4, 2): "76177585783bfc73",  # 203
    ("BTL-OPEN-FIELD", 4, 3): "c4919b787ac13cb1",  # 159
    ("BTL-OPEN-FIELD", 4, 4): "214bceadb7f02198",  # 217
}


@pytest.mark.parametrize("battle,players,seed", sorted(PINNED))
def test_random_game_outputs_are_unchanged(battle, players, seed):
    digest, _ = game_digest(RS, battle, seed, players)
    assert digest[:16] == PINNED[(battle, players, seed)]
