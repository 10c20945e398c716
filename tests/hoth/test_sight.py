"""Line of sight: HOTH-LOS-*, HOTH-LOS-EDGE-*, HOTH-LOS-RIDGE-*, HOTH-LOS-ALONG-*, Appendix A.

Every rulebook case (Appendix 7 = section 13) and every Appendix A test vector is a test here.
The last part cross-checks the engine against a second, independent implementation written in
this file: exact Cyrus-Beck clipping of the segment against each closed hexagon (Fractions),
for every ordered pair of playable hexes, under many random obstruction sets.
"""
from __future__ import annotations

import random
from fractions import Fraction

import msgspec
import pytest

from domain.hoth.board import HALF_HEXES, PLAYABLE, distance
from domain.hoth.sight import Sight, line_geometry, line_of_sight, sight_ruling_values, sight_sentence

EMPTY: frozenset = frozenset()


def los(a, b, obstacles=(), **kw) -> Sight:
    return line_of_sight(a, b, frozenset(obstacles), **kw)


# ---------------------------------------------------------------------------------------------
# Appendix A: test vectors on an empty board
# ---------------------------------------------------------------------------------------------

APPENDIX_A = [
    # attacker, target, distance, crossed, grazed left, grazed right, vertex-only
    ((0, 0), (4, 0), 2, [(2, 0)], [], [], []),
    ((0, 0), (3, 1), 2, [], [(1, 1)], [(2, 0)], []),
    ((0, 0), (0, 2), 2, [], [(-1, 1)], [(1, 1)], []),
    ((0, 0), (6, 2), 4, [(3, 1)], [(1, 1), (4, 2)], [(2, 0), (5, 1)], []),
    ((0, 0), (0, 4), 4, [(0, 2)], [(-1, 1), (-1, 3)], [(1, 1), (1, 3)], []),
    ((0, 0), (7, 1), 4, [(2, 0), (3, 1), (4, 0), (5, 1)], [], [], []),
    ((0, 0), (15, 1), 8, [(2, 0), (4, 0), (6, 0), (7, 1), (8, 0), (9, 1), (11, 1), (13, 1)], [], [],
     [(10, 0), (5, 1)]),
    ((8, 2), (11, 3), 2, [], [(9, 3)], [(10, 2)], []),
    ((9, 3), (9, 5), 2, [], [(8, 4)], [(10, 4)], []),
    ((2, 0), (9, 5), 6, [(3, 1), (4, 2), (5, 3), (6, 2), (7, 3), (8, 4)], [], [], []),
]


@pytest.mark.parametrize("a,b,d,crossed,left,right,vertex", APPENDIX_A,
                         ids=[f"{v[0]}->{v[1]}" for v in APPENDIX_A])
def test_appendix_a_test_vectors_empty_board(a, b, d, crossed, left, right, vertex):
    """Appendix A table: crossed (HOTH-LOS-3), grazed L/R (HOTH-LOS-ALONG-1), vertex-only (HOTH-GAP-18)."""
    assert distance(a, b) == d
    s = los(a, b)
    assert set(s.crossed) == set(crossed)
    assert [l for l, _ in s.edge_pairs] == left
    assert [r for _, r in s.edge_pairs] == right
    assert set(s.vertex_only) == set(vertex)
    assert set(s.examined) == set(crossed) | set(left) | set(right)
    # half-hexes always obstruct (HOTH-LOS-4d): clear unless a half-hex is on both sides
    assert s.clear
    assert s.blocked_by == ()


def test_appendix_a_examined_in_order_from_attacker_to_target():
    s = los((0, 0), (6, 2))
    assert s.examined == ((1, 1), (2, 0), (3, 1), (4, 2), (5, 1))
    s = los((6, 2), (0, 0))
    assert s.examined == ((5, 1), (4, 2), (3, 1), (2, 0), (1, 1))
    # reversed direction swaps left and right
    assert s.edge_pairs == (((5, 1), (4, 2)), ((2, 0), (1, 1)))


def test_appendix_a_derived_checks():
    """Appendix A 'Derived checks' (HOTH-LOS-EDGE-2, HOTH-LOS-ALONG-3 cases 1-3, HOTH-LOS-3)."""
    assert not los((0, 0), (0, 2), {(1, 1)}).clear
    assert los((0, 0), (0, 2)).clear
    assert los((0, 0), (6, 2), {(1, 1), (4, 2)}).clear
    assert not los((0, 0), (6, 2), {(1, 1), (5, 1)}).clear
    assert not los((0, 0), (6, 2), {(3, 1)}).clear
    assert los((0, 0), (3, 1), {(2, 0)}).clear


# ---------------------------------------------------------------------------------------------
# 6.3: the core rule
# ---------------------------------------------------------------------------------------------

def test_hoth_los_3_crossed_obstruction_blocks():
    s = los((0, 0), (4, 0), {(2, 0)})
    assert not s.clear
    assert s.blocked_by == ((2, 0),)
    assert s.rules == ("HOTH-LOS-3",)
    assert los((0, 0), (4, 0), {(1, 1), (3, 1)}).clear  # vertex-free neighbours off the line


def test_hoth_los_3_gap_44_clipping_a_corner_counts_as_crossing():
    """(0,0)->(7,1) is distance 4 but crosses 4 hexes; any one of them blocks (HOTH-GAP-44)."""
    assert distance((0, 0), (7, 1)) - 1 < len(los((0, 0), (7, 1)).crossed)
    for h in [(2, 0), (3, 1), (4, 0), (5, 1)]:
        s = los((0, 0), (7, 1), {h})
        assert not s.clear and s.blocked_by == (h,)


def test_hoth_gap_18_vertex_only_touch_never_blocks():
    s = los((0, 0), (15, 1), {(10, 0), (5, 1)})
    assert s.clear
    assert "HOTH-GAP-18" in s.rules
    assert set(s.vertex_only) == {(10, 0), (5, 1)}


def test_hoth_los_6_attacker_and_target_hexes_never_block():
    s = los((0, 0), (4, 0), {(0, 0), (4, 0)})
    assert s.clear
    assert "HOTH-LOS-6" in s.rules
    assert (0, 0) not in s.examined and (4, 0) not in s.examined


def test_hoth_los_4_adjacent_hexes_always_see_each_other():
    """Neighbours: the line only crosses the shared edge, so nothing can block it (HOTH-LOS-3)."""
    everything = PLAYABLE | HALF_HEXES
    for a in PLAYABLE:
        for b in PLAYABLE:
            if distance(a, b) == 1:
                s = los(a, b, everything)
                assert s.clear and s.examined == (), (a, b)


# ---------------------------------------------------------------------------------------------
# 13.1 board edges
# ---------------------------------------------------------------------------------------------

def test_hoth_los_edge_2_board_edge_on_left_and_unit_on_right_blocks():
    """Rulebook example: (0,0)->(0,2) runs between half-hex (-1,1) and (1,1) (HOTH-LOS-EDGE-2)."""
    s = los((0, 0), (0, 2), {(1, 1)})
    assert not s.clear
    assert s.blocked_by == ((-1, 1), (1, 1))
    assert "HOTH-LOS-ALONG-2" in s.rules and "HOTH-LOS-EDGE-1" in s.rules
    open_ = los((0, 0), (0, 2))
    assert open_.clear
    assert open_.edge_pairs == (((-1, 1), (1, 1)),)


def test_hoth_los_edge_1_half_hexes_obstruct_on_east_edge_too():
    s = los((18, 2), (18, 0), {(17, 1)})
    assert s.edge_pairs == (((19, 1), (17, 1)),)
    assert not s.clear and set(s.blocked_by) == {(19, 1), (17, 1)}
    assert los((18, 2), (18, 0)).clear


def test_appendix_a_no_line_crosses_a_half_hex_interior():
    """Appendix A property (1) and HOTH-LOS-4d: half-hexes can only be grazed."""
    for a in PLAYABLE:
        for b in PLAYABLE:
            if a != b:
                assert not HALF_HEXES & set(line_geometry(a, b).crossed)


# ---------------------------------------------------------------------------------------------
# 13.3 along hex edges
# ---------------------------------------------------------------------------------------------

def test_hoth_los_along_3_case_1_single_rocks_hex_grazed_does_not_block():
    s = los((0, 0), (3, 1), {(2, 0)})
    assert s.clear and s.rules == ("HOTH-LOS-3", "HOTH-LOS-ALONG-2")


def test_hoth_los_along_3_case_2_two_obstructions_same_side_do_not_block():
    """Friendly unit and a ridge on the same side, distance 4 (HOTH-LOS-ALONG-4)."""
    assert los((0, 0), (6, 2), {(1, 1), (4, 2)}).clear
    assert los((0, 0), (6, 2), {(2, 0), (5, 1)}).clear


def test_hoth_los_along_3_case_3_obstructions_on_both_sides_block():
    s = los((0, 0), (3, 1), {(1, 1), (2, 0)})
    assert not s.clear
    assert s.blocked_by == ((1, 1), (2, 0))
    assert "HOTH-LOS-ALONG-2" in s.rules and "HOTH-GAP-17" not in s.rules


def test_hoth_gap_17_both_sides_need_not_share_an_edge():
    s = los((0, 0), (6, 2), {(1, 1), (5, 1)})
    assert not s.clear
    assert s.blocked_by == ((1, 1), (5, 1))
    assert "HOTH-GAP-17" in s.rules


def test_hoth_los_along_1_grazing_only_in_the_six_between_neighbour_directions():
    """Appendix A properties (2), (3): grazes come in left/right pairs, only if Δx=0 or |Δx|=3|Δr|."""
    for a in PLAYABLE:
        for b in PLAYABLE:
            if a == b:
                continue
            g = line_geometry(a, b)
            dx, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
            if g.edge_pairs:
                assert dx == 0 or dx == 3 * dr, (a, b)
            elif dx == 0 or dx == 3 * dr:
                pytest.fail(f"{a}->{b} runs between neighbours but grazes nothing")
            for left, right in g.edge_pairs:
                assert left != right


# ---------------------------------------------------------------------------------------------
# 13.2 ridges
# ---------------------------------------------------------------------------------------------

RIDGE_A, RIDGE_B = (4, 2), (10, 2)  # on one row: the line crosses (6,2) and (8,2)


def test_hoth_los_ridge_4_example_1_only_attacker_on_ridge_rocks_block():
    """Rebel infantry on a ridge, Imperial infantry not: standard rules, rocks block (HOTH-LOS-RIDGE-2)."""
    rocks = {(6, 2)}
    s = los(RIDGE_A, RIDGE_B, rocks | {RIDGE_A, RIDGE_B}, ridges=frozenset({RIDGE_A}),
            units=frozenset({RIDGE_A, RIDGE_B}), seracs=EMPTY)
    assert not s.clear and not s.ridge_mode
    assert s.rules[:2] == ("HOTH-LOS-RIDGE-2", "HOTH-LOS-3")


def test_hoth_los_ridge_4_example_2_both_on_ridges_rocks_and_ridges_between_do_not_block():
    ridges = frozenset({RIDGE_A, RIDGE_B, (8, 2)})
    obstacles = frozenset({(6, 2), (8, 2)})  # rocks and a ridge in between
    s = los(RIDGE_A, RIDGE_B, obstacles, ridges=ridges, units=frozenset({RIDGE_A, RIDGE_B}), seracs=EMPTY)
    assert s.clear and s.ridge_mode
    assert s.rules[0] == "HOTH-LOS-RIDGE-1"


def test_hoth_los_ridge_4_example_3_only_ridge_units_and_seracs_block():
    ridges = frozenset({RIDGE_A, RIDGE_B, (8, 2)})
    ends = {RIDGE_A, RIDGE_B}
    # a second unit standing on a ridge in between blocks
    s = los(RIDGE_A, RIDGE_B, {(8, 2)}, ridges=ridges, units=frozenset(ends | {(8, 2)}), seracs=EMPTY)
    assert not s.clear and s.blocked_by == ((8, 2),)
    # a unit on a non-ridge hex in between does not
    s = los(RIDGE_A, RIDGE_B, {(6, 2)}, ridges=ridges, units=frozenset(ends | {(6, 2)}), seracs=EMPTY)
    assert s.clear
    # a serac blocks even ridge to ridge (HOTH-TERRAIN-SERAC-2)
    s = los(RIDGE_A, RIDGE_B, {(6, 2)}, ridges=ridges, units=frozenset(ends), seracs=frozenset({(6, 2)}))
    assert not s.clear and s.blocked_by == ((6, 2),)


def test_hoth_gap_16_edge_3_ridge_to_ridge_ignores_structures_and_half_hexes():
    ridges = frozenset({(0, 0), (0, 2), (1, 1)})
    # a structure on (1,1) is in the standard obstacles, but does not block ridge to ridge
    assert los((0, 0), (0, 2), {(1, 1)}, ridges=ridges, units=frozenset({(0, 0), (0, 2)}), seracs=EMPTY).clear
    # a ridge unit on (1,1) with the half-hex on the other side: half-hex ignored -> clear
    s = los((0, 0), (0, 2), {(1, 1)}, ridges=ridges, units=frozenset({(0, 0), (0, 2), (1, 1)}), seracs=EMPTY)
    assert s.clear
    assert "HOTH-LOS-EDGE-3" in s.rules and "HOTH-LOS-RIDGE-3" in s.rules
    # the same line in the standard case is blocked by the half-hex plus the unit (HOTH-LOS-EDGE-2)
    assert not los((0, 0), (0, 2), {(1, 1)}).clear


def test_hoth_los_ridge_3_along_rule_with_reduced_obstruction_set():
    ridges = frozenset({(0, 0), (3, 1), (1, 1), (2, 0)})
    units = frozenset({(0, 0), (3, 1), (1, 1)})
    assert los((0, 0), (3, 1), {(1, 1), (2, 0)}, ridges=ridges, units=units, seracs=EMPTY).clear
    s = los((0, 0), (3, 1), set(), ridges=ridges, units=units, seracs=frozenset({(2, 0)}))
    assert not s.clear and "HOTH-LOS-RIDGE-3" in s.rules


def test_hoth_los_ridge_1_a_structure_on_a_ridge_is_seen_under_the_standard_rules():
    """HOTH-LOS-RIDGE-1 holds between two units; a structure is never a unit (HOTH-STRUCT-1)."""
    ridges = frozenset({RIDGE_A, RIDGE_B, (8, 2)})
    rocks_between = frozenset({(6, 2)})
    # the target hex RIDGE_B holds a structure, not a unit: the rocks between block as usual
    s = los(RIDGE_A, RIDGE_B, rocks_between | {RIDGE_B}, ridges=ridges, units=frozenset({RIDGE_A}), seracs=EMPTY)
    assert not s.clear and not s.ridge_mode and s.blocked_by == ((6, 2),)
    assert s.rules[0] == "HOTH-STRUCT-1"
    # the same line to a unit on that ridge: ridge to ridge, the rocks no longer block
    s = los(RIDGE_A, RIDGE_B, rocks_between | {RIDGE_B}, ridges=ridges, units=frozenset({RIDGE_A, RIDGE_B}),
            seracs=EMPTY)
    assert s.clear and s.ridge_mode


def test_hoth_los_ridge_1_needs_units_and_seracs():
    with pytest.raises(ValueError, match="HOTH-LOS-RIDGE-1"):
        los(RIDGE_A, RIDGE_B, set(), ridges=frozenset({RIDGE_A, RIDGE_B}))


# ---------------------------------------------------------------------------------------------
# Input, ruling
# ---------------------------------------------------------------------------------------------

def test_bad_ends_raise_clear_errors():
    with pytest.raises(ValueError, match="HOTH-COORD-4"):
        los((-1, 1), (4, 0))
    with pytest.raises(ValueError, match="HOTH-COORD-3"):
        los((0, 0), (1, 0))
    with pytest.raises(ValueError, match="HOTH-LOS-2"):
        los((0, 0), (0, 0))


def test_sight_ruling_values_use_labels():
    s = los((0, 0), (6, 2), {(1, 1), (5, 1)})
    v = sight_ruling_values(s)
    assert v == {
        "attacker": "c0 r0 [0,0]", "target": "c3 r2 [6,2]", "clear": False, "ridge_to_ridge": False,
        "examined": ["c0 r1 [1,1]", "c1 r0 [2,0]", "c1 r1 [3,1]", "c2 r2 [4,2]", "c2 r1 [5,1]"],
        "crossed": ["c1 r1 [3,1]"],
        "along_edges": [{"left": "c0 r1 [1,1]", "right": "c1 r0 [2,0]"}, {"left": "c2 r2 [4,2]", "right": "c2 r1 [5,1]"}],
        "vertex_only": [],
        "blocked_by": ["c0 r1 [1,1]", "c2 r1 [5,1]"],
        "rules": ["HOTH-LOS-ALONG-2", "HOTH-GAP-17"],
    }
    msgspec.json.encode(v)  # serialisable as a ruling value
    assert sight_sentence(s) == "Line of sight from c0 r0 [0,0] to c3 r2 [6,2] is blocked by c0 r1 [1,1], c2 r1 [5,1]."
    assert sight_sentence(los((0, 0), (4, 0))) == "Line of sight from c0 r0 [0,0] to c2 r0 [4,0] is clear."


# ---------------------------------------------------------------------------------------------
# Independent reference: Cyrus-Beck clipping of the segment against each closed hexagon
# ---------------------------------------------------------------------------------------------

def _polygon(h):
    x, r = h
    y = 3 * r
    return [(x, y + 2), (x + 1, y + 1), (x + 1, y - 1), (x, y - 2), (x - 1, y - 1), (x - 1, y + 1)]  # clockwise


def _cross(u, v):
    return u[0] * v[1] - u[1] * v[0]


def ref_classify(a, b, h):
    """NONE / POINT / CROSS / GRAZE of hex h for the segment between centres of a and b (Appendix A)."""
    A = (Fraction(a[0]), Fraction(3 * a[1]))
    D = (Fraction(b[0] - a[0]), Fraction(3 * (b[1] - a[1])))
    poly = _polygon(h)
    t0, t1 = Fraction(0), Fraction(1)
    for i in range(6):
        V, W = poly[i], poly[(i + 1) % 6]
        E = (W[0] - V[0], W[1] - V[1])
        # inside the closed clockwise polygon: cross(E, P - V) <= 0, P = A + tD
        c0 = _cross(E, (A[0] - V[0], A[1] - V[1]))
        c1 = _cross(E, D)
        if c1 == 0:
            if c0 > 0:
                return "NONE"
        elif c1 > 0:
            t1 = min(t1, -c0 / c1)
        else:
            t0 = max(t0, -c0 / c1)
        if t0 > t1:
            return "NONE"
    if t0 == t1:
        return "POINT"
    tm = (t0 + t1) / 2
    M = (A[0] + tm * D[0], A[1] + tm * D[1])
    inside = all(_cross((poly[(i + 1) % 6][0] - poly[i][0], poly[(i + 1) % 6][1] - poly[i][1]),
                        (M[0] - poly[i][0], M[1] - poly[i][1])) < 0 for i in range(6))
    return "CROSS" if inside else "GRAZE"


def ref_side(a, b, h):
    return _cross((b[0] - a[0], 3 * (b[1] - a[1])), (h[0] - a[0], 3 * (h[1] - a[1])))


ALL_HEXES = sorted(PLAYABLE | HALF_HEXES)
PAIRS = [(a, b) for a in sorted(PLAYABLE) for b in sorted(PLAYABLE) if a != b]


@pytest.fixture(scope="module")
def reference_geometry():
    """Per ordered pair: (crossed, grazed-left, grazed-right, point-touched), by the reference."""
    out = {}
    for a, b in PAIRS:
        crossed, left, right, point = set(), set(), set(), set()
        for h in ALL_HEXES:
            if h == a or h == b:
                continue
            k = ref_classify(a, b, h)
            if k == "CROSS":
                crossed.add(h)
            elif k == "GRAZE":
                (left if ref_side(a, b, h) > 0 else right).add(h)
            elif k == "POINT":
                point.add(h)
        out[(a, b)] = (frozenset(crossed), frozenset(left), frozenset(right), frozenset(point))
    return out


def test_reference_agrees_with_engine_geometry_for_every_pair(reference_geometry):
    """Crossed / grazed / vertex-only hexes identical for all 67x66 ordered pairs (HOTH-LOS-3, -ALONG-1)."""
    corner_clips = 0
    for (a, b), (crossed, left, right, point) in reference_geometry.items():
        g = line_geometry(a, b)
        assert set(g.crossed) == crossed, (a, b)
        assert {l for l, _ in g.edge_pairs} == left, (a, b)
        assert {r for _, r in g.edge_pairs} == right, (a, b)
        assert len(g.edge_pairs) == len(left) == len(right), (a, b)  # Appendix A property (2)
        assert set(g.vertex_only) == point, (a, b)
        assert len(g.examined) == len(set(g.examined)) == len(crossed) + len(left) + len(right)
        corner_clips += len(crossed) > distance(a, b) - 1
    assert corner_clips > 0  # Appendix A property (4): sampling would miss these


def ref_clear(geo, a, b, blocks):
    crossed, left, right, _ = geo
    if any(blocks(h) for h in crossed if h not in (a, b)):
        return False
    return not (any(blocks(h) for h in left) and any(blocks(h) for h in right))


def _random_board(rng, density):
    """Random units, terrain and structures; ends of the line are whatever the draw gives them."""
    units, ridges, rocks, seracs, structures = set(), set(), set(), set(), set()
    for h in PLAYABLE:
        if rng.random() < density:
            units.add(h)
        roll = rng.random()
        if roll < density * 0.6:
            ridges.add(h)
        elif roll < density * 0.8:
            rocks.add(h)
        elif roll < density * 0.9:
            seracs.add(h)
        elif roll < density:
            structures.add(h)
    return (frozenset(units), frozenset(ridges), frozenset(rocks), frozenset(seracs), frozenset(structures))


DENSITIES = [0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.55, 0.7, 0.85]


def test_cross_check_all_pairs_under_60_random_obstruction_sets(reference_geometry):
    """Engine == reference for every ordered pair under 60 seeded boards (HOTH-LOS-3/4, ALONG-2, RIDGE-1)."""
    rng = random.Random(20261122)
    outcomes = {True: 0, False: 0}
    ridge_checks = 0
    for n in range(60):
        units, ridges, rocks, seracs, structures = _random_board(rng, DENSITIES[n % len(DENSITIES)])
        obstacles = units | ridges | rocks | seracs | structures

        def standard(h):
            return h in obstacles or h in HALF_HEXES

        def ridge_to_ridge(h):
            return (h in units and h in ridges) or h in seracs

        for a, b in PAIRS:
            s = line_of_sight(a, b, obstacles, ridges=ridges, units=units, seracs=seracs)
            ridge_mode = a in ridges and b in ridges and b in units  # HOTH-LOS-RIDGE-1: between two units
            expected = ref_clear(reference_geometry[(a, b)], a, b, ridge_to_ridge if ridge_mode else standard)
            assert s.clear == expected, (n, a, b, s)
            assert s.ridge_mode == ridge_mode
            assert bool(s.blocked_by) == (not s.clear)
            assert (a not in s.blocked_by) and (b not in s.blocked_by)
            outcomes[s.clear] += 1
            ridge_checks += ridge_mode
    # the sample exercised both outcomes and the ridge rule
    assert outcomes[True] > 10_000 and outcomes[False] > 10_000, outcomes
    assert ridge_checks > 1_000


def test_symmetry_a_to_b_equals_b_to_a_on_random_boards():
    """The rule is symmetric: reversing the line swaps left and right, nothing else (HOTH-LOS-2)."""
    rng = random.Random(7)
    for density in (0.1, 0.3, 0.5):
        obstacles = frozenset(h for h in PLAYABLE if rng.random() < density)
        for a, b in PAIRS:
            s, t = los(a, b, obstacles), los(b, a, obstacles)
            assert s.clear == t.clear, (a, b)
            assert s.examined == tuple(reversed(t.examined))
            assert set(s.blocked_by) == set(t.blocked_by)


# ---------------------------------------------------------------------------------------------
# board_line_of_sight: obstruction sets from the board (HOTH-LOS-4, -5, HOTH-STRUCT-3, 10.x)
# ---------------------------------------------------------------------------------------------

def test_hoth_los_4_and_5_terrain_that_blocks_and_terrain_that_does_not():
    from domain.hoth.sight import board_line_of_sight
    a, b = (0, 0), (4, 0)  # crosses (2, 0)
    for t in ("ridge", "rocks", "serac", "buildings"):
        assert not board_line_of_sight(a, b, units=(), terrain={(2, 0): t}).clear, t
    for t in ("trench", "crevasse"):  # HOTH-LOS-5
        assert board_line_of_sight(a, b, units=(), terrain={(2, 0): t}).clear, t
    assert not board_line_of_sight(a, b, units={(2, 0)}, terrain={}).clear  # HOTH-LOS-4a
    assert not board_line_of_sight(a, b, units=(), terrain={}, structures={(2, 0)}).clear  # HOTH-STRUCT-3
    # HOTH-LOS-6: terrain and structures in the attacker's and target's hexes never block
    s = board_line_of_sight(a, b, units={a, b}, terrain={a: "rocks", b: "buildings"}, structures={b})
    assert s.clear
    with pytest.raises(ValueError, match="HOTH-TERRAIN-3"):
        board_line_of_sight(a, b, units=(), terrain={(2, 0): "lava"})


def test_hoth_los_ridge_4_rulebook_sequence_on_a_board():
    """Ridge unit vs non-ridge unit: rocks block; once both on ridges, rocks and ridges do not."""
    from domain.hoth.sight import board_line_of_sight
    terrain = {(4, 2): "ridge", (6, 2): "rocks", (8, 2): "ridge"}
    units = {(4, 2), (10, 2)}
    s = board_line_of_sight((4, 2), (10, 2), units=units, terrain=terrain)
    assert not s.clear and s.blocked_by == ((6, 2), (8, 2))
    terrain[(10, 2)] = "ridge"
    s = board_line_of_sight((4, 2), (10, 2), units=units, terrain=terrain, structures={(6, 2)})
    assert s.clear and s.ridge_mode  # HOTH-GAP-16: the structure does not block either
    s = board_line_of_sight((4, 2), (10, 2), units=units | {(8, 2)}, terrain=terrain)
    assert not s.clear and s.blocked_by == ((8, 2),)  # a second unit on a ridge blocks
    terrain[(6, 2)] = "serac"
    s = board_line_of_sight((4, 2), (10, 2), units=units, terrain=terrain)
    assert not s.clear and s.blocked_by == ((6, 2),)  # HOTH-TERRAIN-SERAC-2
