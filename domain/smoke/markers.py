"""Battle markers: membership, merging and optimal placement (SMOKE-MARK, SMOKE-GEO-14/15/21).

Placement is exact: the depth |{u : m ∈ rect(u) ⊕ disc(2)}| is piecewise constant, and changes only
across the boundaries of those rounded rectangles (four pushed-out edges and four corner arcs
each), so a maximum is attained at a unit's centre or at an intersection of two boundaries
(segment-segment, segment-arc, arc-arc), or where a boundary meets the table's edge; candidates
off the table are clamped onto it (SMOKE-GEO-15). The tests compare it with a dense grid search.
"""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations

import numpy as np

from .geometry import (
    EPS, Box, Point, box_distance, circle_circle, point_box_distance, rounded_box_boundary, segment_circle,
    segment_segment_point,
)
from .state import SmokeState, memo

#: SMOKE-MARK-2: the battle radius, UW (membership is partial and inclusive, GAP-B-18).
BATTLE_RADIUS = 2.0


def covers(m: Point, b: Box) -> bool:
    """SMOKE-GEO-14: any part of the unit within 2 UW of the marker's centre (within EPS)."""
    return point_box_distance(m, b) <= BATTLE_RADIUS + EPS + 1e-9


#: A unit whose bounding box is farther than this from a marker's centre along an axis is not covered: the box lies
#: inside its bounding box, so its distance is at least that gap (the margin is far above any rounding).
_COVER_REACH = BATTLE_RADIUS + EPS + 1e-9 + 1e-6


def marker_units(state: SmokeState, mid: str) -> list[str]:
    m = state.markers[mid]
    return list(memo(state, "marker_units", lambda: _covered(state, m.x, m.y), m.x, m.y))


def _covered(state: SmokeState, x: float, y: float) -> tuple[str, ...]:
    """The ids of the units the marker at (x, y) covers (SMOKE-GEO-14), sorted; units whose bounding box is farther
    than ``_COVER_REACH`` along an axis are not measured."""
    x0, x1, y0, y1 = x - _COVER_REACH, x + _COVER_REACH, y - _COVER_REACH, y + _COVER_REACH
    out = []
    for u in state.units.values():
        bx0, by0, bx1, by1 = u.bbox()
        if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
            continue
        if covers((x, y), u.box()):
            out.append(u.id)
    return tuple(sorted(out))


def battle_groups(state: SmokeState) -> list[tuple[str, ...]]:
    """SMOKE-MARK-5: markers sharing a unit form one battle (transitively, INFERRED)."""
    mids = sorted(state.markers)
    members = {m: set(marker_units(state, m)) for m in mids}
    parent = {m: m for m in mids}

    def find(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    for a, b in combinations(mids, 2):
        if members[a] & members[b]:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb, key=_mkey)] = min(ra, rb, key=_mkey)
    groups: dict[str, list[str]] = {}
    for m in mids:
        groups.setdefault(find(m), []).append(m)
    return sorted((tuple(sorted(v, key=_mkey)) for v in groups.values()), key=lambda g: _mkey(g[0]))


def _mkey(mid: str) -> tuple[int, str]:
    digits = "".join(c for c in mid if c.isdigit())
    return (int(digits) if digits else 0, mid)


def battle_units(state: SmokeState, markers: tuple[str, ...]) -> list[str]:
    """The units of a battle (SMOKE-MARK-3). SMOKE-MARK-7 (INFERRED): only these roll dice, deal and receive
    hits; a unit in fire contact but under no marker takes no part."""
    out: set[str] = set()
    for m in markers:
        if m in state.markers:
            out.update(marker_units(state, m))
    return sorted(out)


def units_in_battles(state: SmokeState) -> set[str]:
    out: set[str] = set()
    for m in state.markers:
        out.update(marker_units(state, m))
    return out


def nearest_marker(state: SmokeState, b: Box, markers: tuple[str, ...]) -> tuple[str, float] | None:
    """SMOKE-RET-5 / SMOKE-GEO-21: the marker (among ``markers``) nearest to the unit's rectangle."""
    best = None
    for mid in markers:
        m = state.markers.get(mid)
        if m is None:
            continue
        d = point_box_distance((m.x, m.y), b)
        if best is None or d < best[1] - 1e-12 or (abs(d - best[1]) <= 1e-12 and _mkey(mid) < _mkey(best[0])):
            best = (mid, d)
    return best


# -- optimal placement (SMOKE-GEO-15) ------------------------------------------------------------
def _pieces(b: Box, r: float):
    segs, corners = rounded_box_boundary(b, r)
    return segs, corners


def candidates(eligible: list[Box], forbidden: list[Box], width: float, height: float,
               r: float = BATTLE_RADIUS) -> list[Point]:
    """The places a best marker may be (SMOKE-GEO-15): the eligible units' centres, the crossings of the
    boundaries of the units' discs of radius ``r`` (with each other and with the table's edges), the table's
    corners, clamped onto the table, and beside the forbidden discs' boundaries. A set: the order means nothing
    (``best_placements`` sorts them). The crossings of two units' boundaries are a pure function of their two poses,
    remembered across layouts (``_crossings``)."""
    pts: list[Point] = [(b.cx, b.cy) for b in eligible]
    shapes = [_shape(_key(b), r) for b in eligible + forbidden]
    # Only points that may cover an eligible unit matter (the others have depth 0 and are never
    # chosen). A point near no eligible unit stays so when clamped onto the table (clamping onto a
    # convex table never brings a point closer... but an off-table point is moved, so regions are
    # clamped first) and when nudged by 3 EPS.
    k = r + 4 * EPS + _BB_SLACK
    near_elig = []
    for b in eligible:
        x0, y0, x1, y1 = b.bbox()
        near_elig.append((x0 - k, y0 - k, x1 + k, y1 + k))

    def relevant(bb: tuple[float, float, float, float]) -> bool:
        c = (min(max(bb[0], 0.0), width), min(max(bb[1], 0.0), height), min(max(bb[2], 0.0), width),
             min(max(bb[3], 0.0), height))
        return any(_bb_meet(c, e) for e in near_elig)

    for A, B in combinations(shapes, 2):
        if not _bb_meet(A.bb, B.bb):
            continue
        both = (max(A.bb[0], B.bb[0]), max(A.bb[1], B.bb[1]), min(A.bb[2], B.bb[2]), min(A.bb[3], B.bb[3]))
        if relevant(both):
            pts += _crossings(A.key, B.key, r)
    for A in shapes:
        if relevant(A.bb):
            pts += _edge_crossings(A.key, r, width, height)
    pts += [(0.0, 0.0), (width, 0.0), (0.0, height), (width, height)]
    out = []
    for x, y in pts:
        out.append((min(max(x, 0.0), width), min(max(y, 0.0), height)))
    # points on the boundary of a forbidden disc are themselves forbidden: offer a point just outside
    nudged = []
    if forbidden:
        for x, y in out:
            for dx, dy in ((3 * EPS, 0), (-3 * EPS, 0), (0, 3 * EPS), (0, -3 * EPS)):
                nudged.append((min(max(x + dx, 0.0), width), min(max(y + dy, 0.0), height)))
    return out + nudged


def _key(b: Box) -> tuple:
    """``b`` as a key of the remembered shapes and crossings that tells 0.0 from -0.0 (Boxes equal but for the
    sign of a zero share no key, so a remembered answer is always the one of the very same numbers)."""
    return (b,) if 0.0 not in b else (b, tuple(math.copysign(1.0, v) for v in b))


@lru_cache(maxsize=1 << 12)
def _shape(key: tuple, r: float) -> "_Shape":
    return _Shape(key[0], r, key)


@lru_cache(maxsize=1 << 14)
def _crossings(ka: tuple, kb: tuple, r: float) -> tuple[Point, ...]:
    """Where the boundaries of two units' discs of radius r cross: each intersection of a piece of A's boundary
    with one of B's (pieces whose bounding boxes miss each other have none); none when the units are farther
    apart than 2 r."""
    A, B = _shape(ka, r), _shape(kb, r)
    if box_distance(A.box, B.box) > 2 * r + 2 * EPS:
        return ()
    pts: list[Point] = []
    for (p, q), pb in zip(A.segs, A.seg_bbs):
        if not _bb_meet(pb, B.bb):
            continue
        for (s, t), sb in zip(B.segs, B.seg_bbs):
            if _bb_meet(pb, sb):
                pts += segment_segment_point(p, q, s, t)
        for c, cb in zip(B.corners, B.corner_bbs):
            if _bb_meet(pb, cb):
                pts += segment_circle(p, q, c, r)
    for c, cb in zip(A.corners, A.corner_bbs):
        if not _bb_meet(cb, B.bb):
            continue
        for (s, t), sb in zip(B.segs, B.seg_bbs):
            if _bb_meet(cb, sb):
                pts += segment_circle(s, t, c, r)
        for c2, cb2 in zip(B.corners, B.corner_bbs):
            if _bb_meet(cb, cb2):
                pts += circle_circle(c, r, c2, r)
    return tuple(pts)


@lru_cache(maxsize=1 << 12)
def _edge_crossings(key: tuple, r: float, width: float, height: float) -> tuple[Point, ...]:
    """Where the boundary of a unit's disc of radius r crosses the table's edges."""
    A = _shape(key, r)
    table = [((0.0, 0.0), (width, 0.0)), ((width, 0.0), (width, height)), ((width, height), (0.0, height)),
             ((0.0, height), (0.0, 0.0))]
    pts: list[Point] = []
    for s, t in table:
        tb = _seg_bb(s, t)
        if not _bb_meet(A.bb, tb):
            continue
        for (p, q), pb in zip(A.segs, A.seg_bbs):
            if _bb_meet(pb, tb):
                pts += segment_segment_point(p, q, s, t)
        for c, cb in zip(A.corners, A.corner_bbs):
            if _bb_meet(cb, tb):
                pts += segment_circle(s, t, c, r)
    return tuple(pts)


#: Bounding boxes are compared this much wider, far more than the intersection routines' tolerances.
_BB_SLACK = 1e-6


def _seg_bb(p: Point, q: Point) -> tuple[float, float, float, float]:
    return (min(p[0], q[0]) - _BB_SLACK, min(p[1], q[1]) - _BB_SLACK, max(p[0], q[0]) + _BB_SLACK,
            max(p[1], q[1]) + _BB_SLACK)


def _bb_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


class _Shape:
    """``∂(rect ⊕ disc(r))`` as pieces with bounding boxes (a prefilter for the intersections)."""

    __slots__ = ("box", "key", "segs", "seg_bbs", "corners", "corner_bbs", "bb")

    def __init__(self, b: Box, r: float, key: tuple):
        self.box = b
        self.key = key
        self.segs, self.corners = _pieces(b, r)
        self.seg_bbs = [_seg_bb(p, q) for p, q in self.segs]
        k = r + _BB_SLACK
        self.corner_bbs = [(c[0] - k, c[1] - k, c[0] + k, c[1] + k) for c in self.corners]
        bbs = self.seg_bbs + self.corner_bbs
        self.bb = (min(x[0] for x in bbs), min(x[1] for x in bbs), max(x[2] for x in bbs), max(x[3] for x in bbs))


def depth(m: Point, eligible: list[Box]) -> int:
    return sum(1 for b in eligible if covers(m, b))


def allowed(m: Point, forbidden: list[Box], width: float, height: float) -> bool:
    """On the table (SMOKE-MARK-3) and including no unit of a forbidden opponent (SMOKE-MP-4)."""
    if not (-1e-9 <= m[0] <= width + 1e-9 and -1e-9 <= m[1] <= height + 1e-9):
        return False
    return all(point_box_distance(m, b) > BATTLE_RADIUS for b in forbidden)


#: See ``depths``: a box's bounding box farther than radius + this from every point cannot be within the radius.
_BOX_MARGIN = 1e-6


def depths(points: "np.ndarray", boxes: list[Box], radius: float) -> "np.ndarray":
    """For each point, how many boxes lie within ``radius`` (numpy; the same closed form as
    ``point_box_distance``)."""
    out = np.zeros(len(points), dtype=np.int64)
    if not len(points):
        return out
    xs, ys = points[:, 0], points[:, 1]
    # a box farther than the radius (and a margin far above any rounding) from the points' bounding box on
    # either axis is farther from every point: it adds nothing, and is not measured
    reach = radius + _BOX_MARGIN
    x0, x1, y0, y1 = float(xs.min()) - reach, float(xs.max()) + reach, float(ys.min()) - reach, float(ys.max()) + reach
    for b in boxes:
        bx0, by0, bx1, by1 = b.bbox()
        if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
            continue
        f, l = b.f, b.l
        qx, qy = xs - b.cx, ys - b.cy
        dx = np.maximum(np.abs(qx * f[0] + qy * f[1]) - b.d / 2, 0.0)
        dy = np.maximum(np.abs(qx * l[0] + qy * l[1]) - b.w / 2, 0.0)
        out += (np.hypot(dx, dy) <= radius).astype(np.int64)
    return out


def best_placements(eligible: list[Box], forbidden: list[Box], others: list[Box], width: float, height: float,
                    keep: int = 12) -> tuple[int, list[Point]]:
    """The maximal depth and up to ``keep`` maximising points, in the deterministic tie order of
    SMOKE-GEO-15 (more units of any kind within 2 UW first, then lexicographic (x, y))."""
    if not eligible:
        return 0, []  # every point covers none of them: depth 0 everywhere (no candidate need be made)
    # boundaries at the covering distance with its tolerance, so that the candidates are exact for ``covers``
    pts = np.array(sorted(set(candidates(eligible, forbidden, width, height, BATTLE_RADIUS + EPS))), dtype=float)
    if not len(pts):
        return 0, []
    ok = (pts[:, 0] >= -1e-9) & (pts[:, 0] <= width + 1e-9) & (pts[:, 1] >= -1e-9) & (pts[:, 1] <= height + 1e-9)
    if forbidden:
        ok &= depths(pts, forbidden, BATTLE_RADIUS) == 0  # SMOKE-MP-4: strictly outside their 2 UW
    pts = pts[ok]
    d = depths(pts, eligible, BATTLE_RADIUS + EPS + 1e-9)
    best = int(d.max()) if len(d) else 0
    if best == 0:
        return 0, []
    tops = pts[d == best]
    n_any = depths(tops, others, BATTLE_RADIUS + EPS + 1e-9)
    order = np.lexsort((tops[:, 1], tops[:, 0], -n_any))
    # keep spread-out representatives: skip points within 0.05 UW of one already kept
    kept: list[Point] = []
    for i in order:
        p = (float(tops[i, 0]), float(tops[i, 1]))
        if all(math.hypot(p[0] - q[0], p[1] - q[1]) > 0.05 for q in kept):
            # the exact scalar predicate agrees (the marker command re-checks with it)
            if depth(p, eligible) == best and allowed(p, forbidden, width, height):
                kept.append(p)
        if len(kept) >= keep:
            break
    return best, kept
