"""The fast searches give the answers of the plain one-by-one searches (``tests/smoke/oracles.py``)
on every state of seeded random games: the column spot of every unit still to deploy (SMOKE-DEP-4),
with and without the resumed search, and the candidate list itself."""
from __future__ import annotations

import math

import pytest

from domain.smoke import deployment as D
from domain.smoke import state as S
from domain.smoke.column_search import candidates

from . import oracles as O
from .play import random_game, ruleset

RS = ruleset()


@pytest.mark.parametrize("players,seed", [(2, 0), (2, 1), (4, 0), (4, 1)])
def test_column_spot_is_the_first_free_candidate_in_order(players, seed):
    seen = {"states": 0, "spots": 0, "full": 0}

    def check(g, seat, cmd, cmds):
        st = g.state
        cur = D.current(st)
        if cur is None or cur[0] != "units":
            return
        seen["states"] += 1
        for u in sorted(st.reserve.values(), key=lambda u: u.id):
            want = O.column_spot(st, u.seat, u.id)
            assert D.column_spot(st, u.seat, u.id) == want, (u.id, st.units.keys())
            S._MEMO.clear()
            D._RESUME.clear()  # the search from the first candidate on
            assert D.column_spot(st, u.seat, u.id) == want
            seen["spots"] += 1
            seen["full"] += want is None

    random_game(RS, "BTL-OPEN-FIELD", seed, options={"players": players}, check=check)
    assert seen["states"] >= 10 and seen["spots"] >= 50


@pytest.mark.parametrize("mx,my,facing,w,d", [
    (5.0, 3.0, 90.0, 1.0, 0.5), (5.1234, 18.9876, 270.0, 2.0, 1.0), (0.7, 0.3, 0.0, 1.0, 1.0),
    (15.0005, 11.0005, 180.0, 0.5, 0.5), (29.9, 21.5, 90.0, 1.5, 0.75), (12.3456, 7.0, 270.0, 3.9, 0.2),
])
def test_candidates_are_the_ring_search_in_order(mx, my, facing, w, d):
    want = [(p, f) for p, f, _ in O.ring_spots(mx, my, facing, w, d)]
    c = candidates(mx, my, facing, w, d, D.COLUMN_RADIUS)
    got = [c.spot(i)[:2] for i in range(len(c))]
    assert got == want
    assert all(math.copysign(1, a[0][0]) == math.copysign(1, b[0][0]) for a, b in zip(got, want))
