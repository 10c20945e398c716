"""Hypothesis: any sequence of legal choices (team play and leaders included) keeps the engine sound.

The strategy draws a seed and a list of choice numbers; the game picks ``cmds[k % len(cmds)]``.
Properties: no crash, every chosen listed command is accepted, and folding the events (through
their JSON form) gives the live state.
"""
from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.hoth.decider import HothRuleset
from domain.kernel import fold
from domain.kernel.fold import event_decoder

from .fixtures import FixtureCatalog
from .play import Game

RS = HothRuleset(FixtureCatalog())
OPTIONS = [None, {"team": True}, {"team": "rebel"}, {"leaders": {"imperial": "vader", "rebel": "leia"}}]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), option=st.sampled_from(range(len(OPTIONS))),
       choices=st.lists(st.integers(0, 10_000), min_size=20, max_size=250))
def test_any_choice_sequence_is_sound(seed, option, choices):
    g = Game(RS, "SCN-TAKE-DOWN-THE-SHIELD", seed=seed.to_bytes(32, "big"), options=OPTIONS[option],
             game_id=f"h{seed}")
    for k in choices:
        if g.state.winner is not None:
            break
        seat = g.to_act()
        cmds = RS.legal_commands(g.state, seat)
        assert cmds
        g.do(seat, cmds[k % len(cmds)])
    dec = event_decoder(RS)
    folded = fold(RS, g.setup, [(i, dec.decode(msgspec.json.encode(e))) for i, e in enumerate(g.events, 1)])
    assert msgspec.json.encode(folded) == msgspec.json.encode(g.state)
