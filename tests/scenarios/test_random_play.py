"""Every shipped scenario (campaign setups included) plays to a winner under random legal play.

A seeded loop: open the game, then repeatedly pick a random command from
``legal_commands`` of a seat in ``status().to_act`` and apply it with
``decide``/``evolve``, until the game is finished. Fixed seeds, so a failure
replays exactly. ``STEP_CAP`` guards against a game that never ends: a game
hitting it fails the test, naming the scenario and the seed.
"""
from __future__ import annotations

import hashlib
import random

import pytest

from domain.kernel import registry

RULESET = registry.get("hoth")
from domain.kernel import FINISHED, Dice, Setup
from scenarios.hoth import shipped

SEEDS = (0, 1)
#: Commands per game before the loop gives up (random games end within ~1,100 steps today).
STEP_CAP = 20_000


#: Leader pairs (HOTH-LEADER-1) for the games played with leader cards: every leader card of the
#: content is dealt into some game.
LEADER_PAIRS = (("vader", "leia"), ("veers", "luke"), ("piett", "han"))


def play(scenario_id: str, seed: int, options: dict | None = None) -> tuple[str | None, int, int]:
    rs = RULESET
    options = options or {}
    game_id = f"random-{seed}"
    seats = rs.seats(scenario_id, options)
    state = rs.initial_state(Setup(game_id=game_id, ruleset="hoth", scenario=scenario_id, seats=seats,
                                   options=options))
    dice = Dice(hashlib.sha256(f"content-{seed}".encode()).digest(), game_id)
    for em in rs.open(state, dice):
        state = rs.evolve(state, em.event)
    rng = random.Random(seed)
    steps = 0
    while rs.status(state).status != FINISHED and steps < STEP_CAP:
        st = rs.status(state)
        seat = rng.choice(st.to_act)
        commands = rs.legal_commands(state, seat)
        assert commands, f"{scenario_id} seed {seed}: {seat} must act but has no legal command"
        for em in rs.decide(state, seat, rng.choice(commands), dice):
            state = rs.evolve(state, em.event)
        steps += 1
    st = rs.status(state)
    return st.winner, st.turn, steps


@pytest.mark.parametrize("scenario_id", sorted(shipped().scenarios))
def test_scenario_plays_to_a_winner(scenario_id):
    results = {seed: play(scenario_id, seed) for seed in SEEDS}
    capped = [seed for seed, (_w, _t, steps) in results.items() if steps >= STEP_CAP]
    assert not capped, f"{scenario_id}: seeds {capped} hit the cap of {STEP_CAP} commands: {results}"
    for seed, (winner, turn, _steps) in results.items():
        assert winner in ("imperial", "rebel"), (scenario_id, seed, results)
        assert turn >= 1


@pytest.mark.parametrize("scenario_id", sorted(shipped().scenarios))
def test_scenario_plays_to_a_winner_with_leader_cards(scenario_id):
    """Each scenario once more, each side with a leader's 3 cards in its deck (HOTH-SETUP-9)."""
    i = sorted(shipped().scenarios).index(scenario_id)
    imperial, rebel = LEADER_PAIRS[i % len(LEADER_PAIRS)]
    winner, _turn, steps = play(scenario_id, 100 + i, {"leaders": {"imperial": imperial, "rebel": rebel}})
    assert steps < STEP_CAP, f"{scenario_id} with {imperial}/{rebel} hit the cap of {STEP_CAP} commands"
    assert winner in ("imperial", "rebel")
