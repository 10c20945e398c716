"""Every shipped scenario plays to a winner with leader cards in the decks (HOTH-SETUP-9).

Plain random play of every shipped scenario (campaign setups included) to its end is in the harness
over every ruleset (tests/harness); this adds the leader cards. Games are played by the kernel's
runner (:func:`domain.kernel.runner.random_game`) with fixed seeds, so a failure replays exactly.
``STEP_CAP`` guards against a game that never ends.
"""
from __future__ import annotations

import pytest

from domain.kernel import registry
from domain.kernel.runner import random_game
from scenarios.hoth import shipped

RULESET = registry.get("hoth")
#: Commands per game before the loop gives up (random games end within ~1,100 steps today).
STEP_CAP = 20_000


#: Leader pairs (HOTH-LEADER-1) for the games played with leader cards: every leader card of the
#: content is dealt into some game.
LEADER_PAIRS = (("vader", "leia"), ("veers", "luke"), ("piett", "han"))


def play(scenario_id: str, seed: int, options: dict | None = None) -> tuple[str | None, int, int]:
    """(winner, turn, commands) of a random game, played by the kernel's runner."""
    g = random_game(RULESET, scenario_id, seed, options=options, max_commands=STEP_CAP)
    return g.status.winner, g.status.turn, g.commands


@pytest.mark.parametrize("scenario_id", sorted(shipped().scenarios))
def test_scenario_plays_to_a_winner_with_leader_cards(scenario_id):
    """Each scenario once more, each side with a leader's 3 cards in its deck (HOTH-SETUP-9)."""
    i = sorted(shipped().scenarios).index(scenario_id)
    imperial, rebel = LEADER_PAIRS[i % len(LEADER_PAIRS)]
    winner, _turn, steps = play(scenario_id, 100 + i, {"leaders": {"imperial": imperial, "rebel": rebel}})
    assert steps < STEP_CAP, f"{scenario_id} with {imperial}/{rebel} hit the cap of {STEP_CAP} commands"
    assert winner in ("imperial", "rebel")
