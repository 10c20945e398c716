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
    counts = {"contacts": 0, "targets": 0, "graphs": 0, "kept_pairs": 0, "kept_graphs": 0, "near_changes": 0}
    fire_contacts, targets, from_last, pair = F._fire_contacts, B._targets, Fm._from_last, L.Recent.pair
    near_changes = F._pairs_near_changes

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

    def counted_pair(self, key, a, b):
        got = pair(self, key, a, b)
        counts["kept_pairs"] += got is not None
        return got

    monkeypatch.setattr(F, "_fire_contacts", checked_contacts)
    monkeypatch.setattr(B, "_targets", checked_targets)
    monkeypatch.setattr(Fm, "_from_last", checked_graph)
    monkeypatch.setattr(L.Recent, "pair", counted_pair)
    monkeypatch.setattr(F, "_pairs_near_changes", counted_near_changes)
    rs = ruleset()
    for battle in BATTLES:
        for seed in SEEDS:
            random_game(rs, battle, seed, options={"players": 4})
    assert counts["contacts"] > 100 and counts["targets"] > 100 and counts["graphs"] > 100, counts
    assert counts["kept_pairs"] > 100, counts
    assert counts["kept_graphs"] > counts["graphs"] // 2, counts
    assert counts["near_changes"] > counts["contacts"] // 4, counts


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
