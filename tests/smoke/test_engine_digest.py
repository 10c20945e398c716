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
    ("BTL-ALL-TERRAIN", 2, 0): "36261972f4070866",  # 141
    ("BTL-ALL-TERRAIN", 2, 1): "b124498dceb66abf",  # 144
    ("BTL-ALL-TERRAIN", 2, 2): "5186cac41c4411b5",  # 131
    ("BTL-ALL-TERRAIN", 2, 3): "3659fb2000088f2a",  # 80
    ("BTL-ALL-TERRAIN", 2, 4): "94722cda62fc5fce",  # 100
    ("BTL-ALL-TERRAIN", 4, 0): "b7b93e0b0d2ef8d6",  # 236
    ("BTL-ALL-TERRAIN", 4, 1): "b9d9d735741c04c0",  # 282
    ("BTL-ALL-TERRAIN", 4, 2): "56b7ac88447a382a",  # 224
    ("BTL-ALL-TERRAIN", 4, 3): "1315dd8b45fd6f01",  # 176
    ("BTL-ALL-TERRAIN", 4, 4): "42b1cd24dfc4cda6",  # 222
    ("BTL-CROSSROADS", 2, 0): "b71f200dcf5556d9",  # 178
    ("BTL-CROSSROADS", 2, 1): "48cc3ba4ca8565db",  # 108
    ("BTL-CROSSROADS", 2, 2): "f0f26b56e7ffecbe",  # 129
    ("BTL-CROSSROADS", 2, 3): "5667c5b0bfa5861f",  # 54
    ("BTL-CROSSROADS", 2, 4): "0172ad42889eda45",  # 124
    ("BTL-CROSSROADS", 3, 0): "50e4dcfabe9c5955",  # 225
    ("BTL-CROSSROADS", 3, 1): "d08ff15bf933e3d7",  # 258
    ("BTL-CROSSROADS", 3, 2): "b05b5923b66c94a3",  # 225
    ("BTL-CROSSROADS", 3, 3): "d55f83e54a2d52d0",  # 120
    ("BTL-CROSSROADS", 3, 4): "cc6a6aa1234f1db1",  # 121
    ("BTL-CROSSROADS", 4, 0): "d3bc89cf5ee9df6f",  # 244
    ("BTL-CROSSROADS", 4, 1): "1096aedac967d094",  # 378
    ("BTL-CROSSROADS", 4, 2): "6e723316a0678914",  # 196
    ("BTL-CROSSROADS", 4, 3): "e9181dbc4a6b6506",  # 223
    ("BTL-CROSSROADS", 4, 4): "71f67e43e9db2ae3",  # 230
    ("BTL-OPEN-FIELD", 2, 0): "eeb6dc12ed36d98a",  # 122
    ("BTL-OPEN-FIELD", 2, 1): "42fe4aa95bd98db1",  # 111
    ("BTL-OPEN-FIELD", 2, 2): "3705f81a8cb4e68b",  # 135
    ("BTL-OPEN-FIELD", 2, 3): "7c0ff97a7cce2340",  # 118
    ("BTL-OPEN-FIELD", 2, 4): "cd0cd7bf48671062",  # 119
    ("BTL-OPEN-FIELD", 4, 0): "9608381c09feaca3",  # 230
    ("BTL-OPEN-FIELD", 4, 1): "2ee4a4b4da19f779",  # 212
    ("BTL-OPEN-FIELD", 4, 2): "5246fc9bd2b2bfbb",  # 203
    ("BTL-OPEN-FIELD", 4, 3): "ce1c0977ce9f674f",  # 159
    ("BTL-OPEN-FIELD", 4, 4): "d2fd4162de840ce9",  # 217
}


@pytest.mark.parametrize("battle,players,seed", sorted(PINNED))
def test_random_game_outputs_are_unchanged(battle, players, seed):
    digest, _ = game_digest(RS, battle, seed, players)
    assert digest[:16] == PINNED[(battle, players, seed)]
