"""The fast line-of-sight test (``sight.is_clear``, used by legal_commands and the bots) decides exactly as
``line_of_sight`` (HOTH-LOS-3, HOTH-LOS-ALONG-2, HOTH-LOS-RIDGE-1, HOTH-LOS-4d, HOTH-LOS-6)."""
from __future__ import annotations

import random

from domain.hoth.board import ALL_PLAYABLE
from domain.hoth.sight import is_clear, line_of_sight


def test_is_clear_agrees_with_line_of_sight_on_every_pair():
    rng = random.Random(16)
    hexes = list(ALL_PLAYABLE)
    checked = blocked = ridge_pairs = 0
    for _ in range(3):
        # a random board: a third of the hexes obstruct, some of them ridges with units, a few seracs
        obstacles = frozenset(h for h in hexes if rng.random() < 0.33)
        ridges = frozenset(h for h in hexes if rng.random() < 0.2)
        units = frozenset(h for h in obstacles if rng.random() < 0.5)
        seracs = frozenset(h for h in obstacles - ridges if rng.random() < 0.1)
        for a in hexes:
            for b in hexes:
                if a == b:
                    continue
                full = line_of_sight(a, b, obstacles, ridges=ridges, units=units, seracs=seracs)
                assert is_clear(a, b, obstacles, ridges, units, seracs) == full.clear, (a, b)
                checked += 1
                blocked += not full.clear
                ridge_pairs += full.ridge_mode
    assert checked == 3 * len(hexes) * (len(hexes) - 1)
    assert 0 < blocked < checked and ridge_pairs > 0
