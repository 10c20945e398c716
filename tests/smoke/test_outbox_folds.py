"""The kernel's fold of a decision takes the states the decision's outbox folded (``domain/smoke/outbox.py``
``folded``): each is the state a fresh fold of the same events gives, and a whole game folded so equals the
same events folded afresh."""
from __future__ import annotations

import msgspec

from domain.kernel import game as kernel_game
from domain.kernel.fold import fold
from domain.smoke.evolve import evolve
from domain.smoke.outbox import folded
from tests.smoke.play import random_game, ruleset


def test_a_decisions_folds_are_fresh_folds_and_taken_once():
    rs = ruleset()
    g = random_game(rs, "BTL-CROSSROADS", 7, options={"players": 4}, max_commands=120)
    seat = g.to_act()
    cmd = g.legal(seat)[0]
    items = kernel_game.decide(g.game, seat, cmd, g.dice(), finer=True)
    state = g.game.state
    assert folded(state, msgspec.structs.replace(items[0].event)) is None  # an equal event, not the same object
    for em in items:
        kept = folded(state, em.event)
        assert kept is not None, type(em.event).__name__
        assert kept == evolve(state, em.event)
        assert folded(state, em.event) is None  # taken once
        state = kept


def test_a_game_folded_with_the_outboxs_states_is_the_fresh_fold():
    rs = ruleset()
    for battle, seed in (("BTL-ALL-TERRAIN", 3), ("BTL-CROSSROADS", 11)):
        g = random_game(rs, battle, seed, options={"players": 4}, max_commands=400)
        assert g.commands > 100
        assert g.state == fold(rs, g.setup, enumerate(g.events, start=1)), (battle, seed)
