"""Answers kept from a game's last layout (domain/smoke/layouts.py) are the answers measured afresh.

Seeded random games of every shipped battle; on every state, the contact graph, the fire contacts and every
artillery unit's bombardment targets computed with the kept answers of the game's earlier layouts are compared
with the same computed with nothing kept (the plain sweep and measurement of every pair). The games must reuse
kept answers often, or the test would show nothing."""
from __future__ import annotations

from domain.smoke import bombardment as B
from domain.smoke import fire as F
from domain.smoke import formations as Fm
from domain.smoke import layouts as L
from tests.smoke.play import random_game, ruleset

BATTLES = ("BTL-OPEN-FIELD", "BTL-ALL-TERRAIN", "BTL-CROSSROADS")
SEEDS = (100, 101, 102)


def _fresh(fn, *args):
    """``fn(*args)`` with no kept answers (and the kept ones put back afterwards)."""
    saved_pairs, saved_last = dict(L._BY_KEY), dict(L._LAST)
    L._BY_KEY.clear()
    L._LAST.clear()
    try:
        return fn(*args)
    finally:
        L._BY_KEY.clear()
        L._LAST.clear()
        L._BY_KEY.update(saved_pairs)
        L._LAST.update(saved_last)


def test_kept_answers_are_the_fresh_ones(monkeypatch):
    counts = {"contacts": 0, "targets": 0, "graphs": 0, "kept_pairs": 0, "kept_graphs": 0, "near_changes": 0,
              "apart_from_hull": 0}
    fire_contacts, targets, from_last, pair = F._fire_contacts, B._targets, Fm._from_last, L.Recent.pair
    near_changes, meets = F._pairs_near_changes, L._meets

    def checked_contacts(state):
        got = fire_contacts(state)
        assert got == _fresh(fire_contacts, state)
        counts["contacts"] += 1
        return got

    def checked_targets(state, u):
        got = targets(state, u)
        assert got == _fresh(targets, state, u)
        counts["targets"] += 1
        return got

    def checked_graph(state, placed, rank):
        got = from_last(state, placed, rank)
        if got is not None:
            full = Fm._sweep(placed)
            assert got == full and list(got) == list(full)
            counts["kept_graphs"] += 1
        counts["graphs"] += 1
        return got

    def counted_near_changes(*args):
        counts["near_changes"] += 1  # the candidate pairs from the last layout's (compared above with the sweep's)
        return near_changes(*args)

    def counted_meets(hull, d):
        got = meets(hull, d)
        counts["apart_from_hull"] += not got  # in the pair's bounding box, away from its hull: still kept
        return got

    def counted_pair(self, key, a, b):
        got = pair(self, key, a, b)
        counts["kept_pairs"] += got is not None
        return got

    monkeypatch.setattr(F, "_fire_contacts", checked_contacts)
    monkeypatch.setattr(B, "_targets", checked_targets)
    monkeypatch.setattr(Fm, "_from_last", checked_graph)
    monkeypatch.setattr(L.Recent, "pair", counted_pair)
    monkeypatch.setattr(F, "_pairs_near_changes", counted_near_changes)
    monkeypatch.setattr(L, "_meets", counted_meets)
    rs = ruleset()
    for battle in BATTLES:
        for seed in SEEDS:
            random_game(rs, battle, seed, options={"players": 4})
    assert counts["contacts"] > 100 and counts["targets"] > 100 and counts["graphs"] > 100, counts
    assert counts["kept_pairs"] > 100, counts
    assert counts["kept_graphs"] > counts["graphs"] // 2, counts
    assert counts["near_changes"] > counts["contacts"] // 4, counts
    assert counts["apart_from_hull"] > 50, counts


def test_a_change_near_a_pair_is_seen():
    """A unit moved next to a pair's boxes makes the pair measured again; one far away does not."""
    from domain.smoke.state import Unit

    a = Unit(id="A", seat="p1", profile="x", x=5.0, y=5.0, facing=0.0, w=1.0, d=0.5)
    b = Unit(id="B", seat="p2", profile="x", x=9.0, y=5.0, facing=180.0, w=1.0, d=0.5)
    near = Unit(id="C", seat="p1", profile="x", x=7.0, y=5.3, facing=0.0, w=1.0, d=0.5)
    far = Unit(id="D", seat="p1", profile="x", x=20.0, y=15.0, facing=0.0, w=1.0, d=0.5)
    assert not L.untouched(a, b, [near.bbox()])
    assert L.untouched(a, b, [far.bbox()])
    assert L.untouched(a, b, [])


def test_a_change_beside_the_hull_of_a_diagonal_pair_is_not_near():
    """Two units far apart on a diagonal: a unit inside their bounding box but far from the convex hull of their
    boxes changes nothing of theirs (no contact, no line of fire passes there); one on the diagonal, or within
    NEAR of the hull, does."""
    from domain.smoke.state import Unit

    a = Unit(id="A", seat="p1", profile="x", x=2.0, y=2.0, facing=45.0, w=1.0, d=0.5)
    b = Unit(id="B", seat="p2", profile="x", x=12.0, y=12.0, facing=225.0, w=1.0, d=0.5)
    corner = Unit(id="C", seat="p1", profile="x", x=11.0, y=3.0, facing=0.0, w=1.0, d=0.5)
    on_line = Unit(id="D", seat="p1", profile="x", x=7.0, y=7.2, facing=0.0, w=1.0, d=0.5)
    hull = L.convex_hull(list(a.box().corners()) + list(b.box().corners()))
    # just outside the hull beside an edge: within NEAR is near, beyond NEAR + slack is not
    p, q = hull[0], hull[1]
    ex, ey = q[0] - p[0], q[1] - p[1]
    n = (ey / (ex * ex + ey * ey) ** 0.5, -ex / (ex * ex + ey * ey) ** 0.5)  # outward (counter-clockwise hull)
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)

    def dot_at(k):
        x, y = mid[0] + n[0] * k, mid[1] + n[1] * k
        return (x, y, x, y)

    assert L.untouched(a, b, [corner.bbox()])
    assert not L.untouched(a, b, [on_line.bbox()])
    assert not L.untouched(a, b, [dot_at(L.NEAR * 0.99)])
    assert L.untouched(a, b, [dot_at(L.NEAR * 1.5 + 0.01)])
