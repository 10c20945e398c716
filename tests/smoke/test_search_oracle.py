"""The fast searches give the answers of the plain one-by-one searches (``tests/smoke/oracles.py``)
on every state of seeded random games: the column spot of every unit still to deploy (SMOKE-DEP-4),
with and without the resumed search, and the candidate list itself; every line of fire's corner lines
(SMOKE-GEO-11/12); the array versions of the line tests against single lines."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from domain.smoke import battle as Bt
from domain.smoke import deployment as D
from domain.smoke import fire as F
from domain.smoke import state as S
from domain.smoke.column_search import candidates
from domain.smoke.geometry import Box, candidate_points, segment_meets_interior
from domain.smoke.segments_at_once import segments_meet_interior
from domain.smoke import terrain as T
from domain.smoke.chords import chord_blocks, convex_edges
from domain.smoke.geometry import convex_hull
from domain.smoke.terrain import _ring_blocks, _ring_distance, point_in_ring

from . import oracles as O
from .play import Game, random_game, ruleset

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


@pytest.mark.parametrize("battle,players,seed", [("BTL-CROSSROADS", 2, 0), ("BTL-CROSSROADS", 3, 5),
                                                 ("BTL-CROSSROADS", 4, 100), ("BTL-CROSSROADS", 4, 103)])
def test_corner_lines_are_the_first_clear_line_in_order(monkeypatch, battle, players, seed):
    """Every line of fire measured in a random game (SMOKE-GEO-11/12), in both readings of SMOKE-GEO-12b
    (GAP-B-08), equals the one-by-one search's; some of them need the arrays (no early line clear). (In
    these random games only the crossroads' armies meet; it has blocks-view terrain.)"""
    fast = F._corner_lines
    seen = {"calls": 0, "long": 0, "stopped": 0}

    def both(out, ub, part, blockers, terrain, strict, ok_only=False):
        for s in (strict, not strict):
            want = O.corner_lines(dict(out), ub, part, blockers, terrain, s)
            got = fast(dict(out), ub, part, blockers, terrain, s)
            assert got == want
            # stopped at the first blocked corner: the same verdict, the same lines up to that corner
            until = fast(dict(out), ub, part, blockers, terrain, s, ok_only=True)
            assert until["ok"] == want["ok"]
            corners = list(want["lines"])
            stop = next((i for i, c in enumerate(corners) if "to" not in want["lines"][c]), len(corners) - 1)
            assert until["lines"] == {c: want["lines"][c] for c in corners[:stop + 1]}
            seen["stopped"] += len(until["lines"]) < len(want["lines"])
        seen["calls"] += 1
        seen["long"] += any("to" not in v or v["to"] != O._r(candidate_points(part)[0]) for v in want["lines"].values())
        return fast(out, ub, part, blockers, terrain, strict, ok_only=ok_only)

    monkeypatch.setattr(F, "_corner_lines", both)
    F.clear_caches()
    random_game(RS, battle, seed, options={"players": players})
    assert seen["calls"] >= 10 and seen["long"] >= 1 and seen["stopped"] >= 1


def _ring_points(ring, rng):
    """Points on, near and inside a ring: its vertices, points along and just beside its edges, random ones."""
    pts = list(ring)
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        for t in (0.0, 0.5, 0.25, 1 / 3):
            x, y = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            pts += [(x, y), (x + 1e-10, y), (x, y - 0.005), (x + 0.02, y + 0.02)]
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    pts += [(rng.uniform(min(xs) - 2, max(xs) + 2), rng.uniform(min(ys) - 2, max(ys) + 2)) for _ in range(60)]
    return pts


@pytest.mark.parametrize("battle", ["BTL-ALL-TERRAIN", "BTL-CROSSROADS"])
def test_view_blocked_on_arrays_is_view_blocker(battle):
    """SMOKE-GEO-12b on arrays: for lines from points around every blocks-view element to points around
    it (vertices, edges, just beside them), ``view_blocked`` is ``view_blocker`` wherever it is sure."""
    rng = random.Random(7)
    terrain = Game(RS, battle, options={"players": 2}).state.terrain()
    assert terrain.blockers
    sure = 0
    for _, _, ring in terrain.blockers:
        pts = _ring_points(ring, rng)
        qx = np.array([p[0] for p in pts])
        qy = np.array([p[1] for p in pts])
        for k in pts[::3]:
            for strict in (False, True):
                blocked, unsure = terrain.view_blocked(k, qx, qy, strict=strict)
                for i, q in enumerate(pts):
                    if not unsure[i]:
                        assert bool(blocked[i]) == (terrain.view_blocker(k, q, strict=strict) is not None), (k, q)
                        sure += 1
    assert sure > 1000


@pytest.mark.parametrize("battle", ["BTL-ALL-TERRAIN", "BTL-CROSSROADS"])
def test_ring_blocks_every_edge_at_once_is_edge_by_edge(battle):
    """SMOKE-GEO-12b: the blocks-view test of many lines against a ring, with every edge at once, gives the very
    arrays (blocked and unsure) of the test one edge at a time, for lines around every blocks-view element
    (vertices, on and just beside edges, inside and outside), both readings."""
    rng = random.Random(11)
    terrain = Game(RS, battle, options={"players": 2}).state.terrain()
    compared = 0
    for _, _, ring in terrain.blockers:
        pts = _ring_points(ring, rng)
        qx = np.array([p[0] for p in pts])
        qy = np.array([p[1] for p in pts])
        for k in pts[::2]:
            for strict in (False, True):
                fast = _ring_blocks(k, qx, qy, ring, strict)
                slow = O.ring_blocks(k, qx, qy, ring, strict)
                assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1]), (k, strict)
                compared += 1
    assert compared > 50


def _convex_rings(rng):
    """Strictly convex rings: rectangles (axis-aligned and turned), both orientations, random hulls."""
    rings = []
    for _ in range(12):
        b = Box(rng.uniform(3, 7), rng.uniform(3, 7), rng.choice([0.0, 90.0, 30.0, rng.uniform(0, 360)]),
                rng.uniform(0.5, 3), rng.uniform(0.5, 3))
        rings += [tuple(b.corners()), tuple(reversed(b.corners()))]
    for _ in range(12):
        hull = convex_hull([(rng.uniform(2, 8), rng.uniform(2, 8)) for _ in range(rng.randint(3, 9))])
        if len(hull) >= 3 and convex_edges(tuple(hull)) is not None:
            rings.append(tuple(hull))
    return rings


def _grazing_points(ring):
    """Points along the lines of a ring's edges, beyond its vertices and a hair beside them (grazing lines)."""
    pts = []
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        for t in (-1.5, -0.3, 1.3, 2.0):
            x, y = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            pts += [(x, y), (x + 1e-7, y - 1e-7), (x, y + 0.0105), (x - 0.0095, y)]
    return pts


def _chord_checked(k, pts, ring, edges, strict) -> tuple[int, int]:
    qx = np.array([p[0] for p in pts])
    qy = np.array([p[1] for p in pts])
    blocked, sure = chord_blocks(k, qx, qy, edges, strict)
    for i, q in enumerate(pts):
        if sure[i]:
            assert bool(blocked[i]) == O.ring_blocker(k, q, ring, strict), (k, q, ring, strict)
        else:
            assert not blocked[i]
    return int(sure.sum()), len(pts)


def _starts_inside(k, ring) -> bool:
    return point_in_ring(k, ring) and _ring_distance(k, ring) > T.EPS


def test_chord_of_a_convex_element_is_the_one_line_test():
    """SMOKE-GEO-12b from a convex element's chord (``chords.chord_blocks``): wherever it answers, the answer is the
    one-line test's (``Terrain.view_blocker`` for that element), in both readings, for lines from and to points on,
    near, inside and around convex rings (vertices, on and a hair beside edges, along the edges' lines: grazing
    lines, lines through vertices, lines ending just inside or EPS from the boundary); it answers nearly all."""
    rng = random.Random(5)
    sure = total = 0
    for ring in _convex_rings(rng):
        edges = convex_edges(ring)
        assert edges is not None
        pts = _ring_points(ring, rng) + _grazing_points(ring)
        for k in pts[::3]:
            if _starts_inside(k, ring):
                continue
            for strict in (False, True):
                s, n = _chord_checked(k, pts, ring, edges, strict)
                sure += s
                total += n
    assert total > 50_000 and sure > 0.9 * total


def test_convex_edges_only_of_strictly_convex_rings():
    assert convex_edges(((0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0))) is not None
    assert convex_edges(((0.0, 0.0), (0.0, 1.0), (2.0, 1.0), (2.0, 0.0))) is not None  # clockwise
    assert convex_edges(((0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 0.5), (0.0, 1.0))) is None  # a notch
    assert convex_edges(((0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0))) is None  # a flat vertex
    assert convex_edges(((0.0, 0.0), (2.0, 0.0), (2.0, 0.0), (0.0, 1.0))) is None  # an edge of no length
    assert convex_edges(((0.0, 0.0), (2.0, 1.0), (2.0, 0.0), (0.0, 1.0))) is None  # crossed


@pytest.mark.parametrize("battle,players,seed", [("BTL-CROSSROADS", 4, 100), ("BTL-CROSSROADS", 4, 102),
                                                 ("BTL-CROSSROADS", 3, 5)])
def test_chord_answers_in_random_games_are_the_one_line_test(monkeypatch, battle, players, seed):
    """Every line the engine asks of a convex blocks-view element's chord in a random game: wherever the chord
    answers, the answer is the one-line test's; and the lines of fire found are the one-by-one search's."""
    seen = {"sure": 0, "lines": 0}
    fast = T.chord_blocks

    def checked(k, qx, qy, edges, strict):
        ring = next(r for _, _, r in T._terrains.last[2].blockers if convex_edges(r) is edges)
        s, n = _chord_checked(k, list(zip(qx.tolist(), qy.tolist())), ring, edges, strict)
        seen["sure"] += s
        seen["lines"] += n
        return fast(k, qx, qy, edges, strict)

    monkeypatch.setattr(T, "chord_blocks", checked)
    F.clear_caches()
    random_game(RS, battle, seed, options={"players": players})
    assert seen["lines"] >= 100 and seen["sure"] > 0.9 * seen["lines"]


def test_segments_meet_interior_on_arrays():
    """SMOKE-GEO-12a on arrays, every edge at once: the one-line test's answers, and the very array of the edge-by-edge
    version, for segments from random points, the corners and the centre of turned and axis-aligned units, to random
    points, the unit's corners, its centre and points just beside its edges."""
    rng = random.Random(11)
    for _ in range(300):
        b = Box(rng.uniform(2, 8), rng.uniform(2, 8), rng.choice([0.0, 90.0, rng.uniform(0, 360)]),
                rng.uniform(0.3, 2), rng.uniform(0.3, 2))
        poly = b.corners()
        qs = [(rng.uniform(0, 10), rng.uniform(0, 10)) for _ in range(30)] + list(poly) + [b.c]
        qs += [((p[0] + r[0]) / 2 + dx, (p[1] + r[1]) / 2 + dy) for p, r in zip(poly, poly[1:] + poly[:1])
               for dx, dy in ((0.0, 0.0), (0.01, 0.0), (0.0, -0.01), (1e-12, 1e-12))]
        qx, qy = np.array([q[0] for q in qs]), np.array([q[1] for q in qs])
        for k in [(rng.uniform(0, 10), rng.uniform(0, 10)), b.FL, b.RR, b.c, poly[0]]:
            got = segments_meet_interior(k, qx, qy, poly)
            assert np.array_equal(got, O.segments_meet_interior(k, qx, qy, poly))
            assert [bool(g) for g in got] == [segment_meets_interior(k, q, poly) for q in qs]


@pytest.mark.parametrize("battle,players,seed", [("BTL-CROSSROADS", 4, 100), ("BTL-CROSSROADS", 4, 102)])
def test_segments_meet_interior_in_random_games_is_edge_by_edge(monkeypatch, battle, players, seed):
    """Every batch of lines of fire tested against a unit on arrays in a random game: the edge-by-edge answers."""
    seen = {"calls": 0}
    fast = F.segments_meet_interior

    def checked(a, qx, qy, poly, margin=F.EPS):
        got = fast(a, qx, qy, poly, margin)
        assert np.array_equal(got, O.segments_meet_interior(a, qx, qy, poly, margin))
        seen["calls"] += 1
        return got

    monkeypatch.setattr(F, "segments_meet_interior", checked)
    F.clear_caches()
    random_game(RS, battle, seed, options={"players": players})
    assert seen["calls"] >= 5


@pytest.mark.parametrize("battle,players,seed", [("BTL-CROSSROADS", 2, 0), ("BTL-CROSSROADS", 3, 1),
                                                 ("BTL-CROSSROADS", 4, 101), ("BTL-ALL-TERRAIN", 4, 2),
                                                 ("BTL-OPEN-FIELD", 2, 3)])
def test_fire_contacts_are_every_pair_in_contact(battle, players, seed):
    """SMOKE-LOF-3/4: the swept, bounded pair search finds the pairs in fire contact that testing every
    pair of enemy units finds, with the same measurements, on every state of a random game; and the search of
    one unit's pairs alone (``contact_enemies``, SMOKE-BOMB-2's refusal) finds that unit's enemies in those
    pairs, in their order."""
    seen = {"states": 0, "contacts": 0, "units_in_contact": 0}

    def check(g, seat, cmd, cmds):
        st = g.state
        if not st.units:
            return
        want = O.fire_contacts(st)
        assert F._fire_contacts(st) == want
        for u in st.units.values():
            of_u = [b if a == u.id else a for a, b, _ in want if u.id in (a, b)]
            assert F._contact_enemies(st, u) == of_u, u.id
            seen["units_in_contact"] += bool(of_u)
        seen["states"] += 1
        seen["contacts"] += len(want)

    random_game(RS, battle, seed, options={"players": players}, check=check)
    assert seen["states"] >= 50
    if battle == "BTL-CROSSROADS":
        assert seen["contacts"] >= 10 and seen["units_in_contact"] >= 20


def test_hit_order_is_every_attacker_measured(monkeypatch):
    """SMOKE-HIT-3, SMOKE-GEO-20: the hit order of every battle fought in random games (the nearest attacker
    found skipping the attackers whose boxes are farther apart along an axis than the nearest so far) is the
    order found by measuring every attacker."""
    fast = Bt._hit_groups
    seen = {"calls": 0, "receivers": 0}

    def checked(state, receivers, attackers):
        got = fast(state, receivers, attackers)
        assert got == O.hit_groups(state, receivers, attackers)
        seen["calls"] += 1
        seen["receivers"] += len(receivers)
        return got

    monkeypatch.setattr(Bt, "_hit_groups", checked)
    for battle, seed in (("BTL-CROSSROADS", 100), ("BTL-CROSSROADS", 103), ("BTL-ALL-TERRAIN", 101)):
        random_game(RS, battle, seed, options={"players": 4})
    assert seen["calls"] >= 20 and seen["receivers"] >= 60, seen


@pytest.mark.parametrize("battle,players,seed", [("BTL-CROSSROADS", 4, 100), ("BTL-ALL-TERRAIN", 4, 2)])
def test_far_pairs_are_out_of_range_unmeasured(battle, players, seed):
    """SMOKE-GEO-10: for a caller that reads only ``ok``, a pair whose rectangles are farther apart than the range
    (``fire._apart``) is out of range without the sector clip. On every tenth state of a random game, for every
    ordered pair of enemy units and both kinds of range (Fire, bombardment), that answer is the full measurement's;
    and ``_apart`` is never more than the range distance measured (rect(E) ∩ S(U) from U's front edge)."""
    seen = {"states": 0, "far": 0, "measured": 0}

    def check(g, seat, cmd, cmds):
        st = g.state
        seen["states"] += 1
        if not st.units or st.battle is None or seen["states"] % 10:
            return
        half = F.half_angle(st)
        for u in st.units.values():
            for e in st.units.values():
                if not st.enemy(u, e):
                    continue
                for mode in ("fire", "bombard"):
                    quick = F._line_of_fire(st, u, e, None, mode, False, False, ok_only=True)
                    full = F._line_of_fire(st, u, e, None, mode, False, False, ok_only=False)
                    assert quick["ok"] == full["ok"], (u.id, e.id, mode)
                    part, d = F._sector_and_range(u.box(), e.box(), half)
                    if part:
                        assert F._apart(u, e) <= d + 1e-12, (u.id, e.id)
                        seen["measured"] += 1
                    seen["far"] += "distance" not in quick and "distance" in full

    random_game(RS, battle, seed, options={"players": players}, check=check)
    assert seen["far"] >= 50 and seen["measured"] >= 50, seen
