"""The engine's speed work changes no outcome: seeded random games (engine digests of every command's legal
commands, templates and events) and seeded bot games (random and greedy; the hash of the whole event log)
give exactly the pins recorded from the engine before that work (``tests/smoke/replays.py`` says what is
hashed and how to write the pins again after an intended change)."""
from __future__ import annotations

import json

import pytest

from .replays import FIXTURE, cases, compute, key

PINS: dict[str, str] = json.loads(FIXTURE.read_text())


def test_every_case_is_pinned():
    assert sorted(PINS) == sorted(key(c) for c in cases())


@pytest.mark.parametrize("case", cases(), ids=key)
def test_seeded_game_is_unchanged(case):
    assert compute(case) == PINS[key(case)]
