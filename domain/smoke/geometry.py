"""Exact plane geometry of oriented rectangles, segments and discs (SMOKE-GEO, section 21).

Units are convex rectangles, commanders and markers are points or discs, so the hot predicates
(distance, contact, overlap, a line's passage through a unit, a translation's first touch) are
exact closed forms on convex polygons here: a few hundred lines of arithmetic that are both
simpler and ~10x faster than building a Shapely geometry per call (a Shapely polygon costs ~15 us
to construct, these predicates cost 1-5 us in all). Arbitrary terrain polygons (non-convex,
Minkowski-free) are handled with Shapely in :mod:`domain.smoke.terrain`.

Frame (SMOKE-GEO-1): the table is [0, W] x [0, H] in UW, y up; angles are degrees counter-clockwise
from +x. A unit facing ``theta`` has forward ``f = (cos, sin)`` and left ``l = (-sin, cos)``
(SMOKE-GEO-2); its corners are FL, FR, RL, RR (SMOKE-GEO-3). Everything is tested against an
independent computation (Shapely, or dense sampling) in ``tests/smoke/test_geometry_properties.py``.

Over 500 lines on purpose: the exact predicates share the same closed forms (projections, corner lines,
first touch); split, they would import each other's private arithmetic.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple, Sequence


Point = tuple[float, float]

#: SMOKE-GEO-4 (INFERRED): boundaries closer than this touch; overlaps shallower than this are none.
EPS = 0.01
#: SMOKE-GEO-5 (INFERRED): the shortest shared segment that makes an edge contact.
EDGE_CONTACT_MIN = 0.1
#: SMOKE-GEO-6 (INFERRED): touching edges are antiparallel within this many degrees.
PARALLEL_DEG = 5.0
#: SMOKE-GEO-11 (INFERRED): spacing of the candidate target points along the target's edges.
CANDIDATE_SPACING = 0.05
#: Rotation sweeps are unions of hulls of poses this many degrees apart; the arc a corner
#: describes bulges outside the chord by r(1 - cos(step/2)) < 0.0005 UW for r <= 1 UW (< EPS).
ROTATION_STEP_DEG = 3.0
_TINY = 1e-9


# -- vectors ---------------------------------------------------------------------------
def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def add(a: Point, b: Point) -> Point:
    return (a[0] + b[0], a[1] + b[1])


def mul(a: Point, k: float) -> Point:
    return (a[0] * k, a[1] * k)


def dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1]


def cross(a: Point, b: Point) -> float:
    return a[0] * b[1] - a[1] * b[0]


def norm(a: Point) -> float:
    return math.hypot(a[0], a[1])


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def unit_vector(deg: float) -> Point:
    r = math.radians(deg)
    return (math.cos(r), math.sin(r))


def normalize_deg(deg: float) -> float:
    d = math.fmod(deg, 360.0)
    return d + 360.0 if d < 0 else (0.0 if d == 360.0 else d)


# -- oriented rectangles (SMOKE-GEO-2/3) ---------------------------------------------------
class Box(NamedTuple):
    """A unit's footprint: centre, facing (degrees), width along the front edge, depth."""

    cx: float
    cy: float
    theta: float
    w: float
    d: float

    @property
    def c(self) -> Point:
        return (self.cx, self.cy)

    @property
    def f(self) -> Point:
        return _frame(self.theta)[0]

    @property
    def l(self) -> Point:  # noqa: E743
        return _frame(self.theta)[1]

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """FR, FL, RL, RR: counter-clockwise."""
        return _corners(self)

    @property
    def FL(self) -> Point:
        return _corners(self)[1]

    @property
    def FR(self) -> Point:
        return _corners(self)[0]

    @property
    def RL(self) -> Point:
        return _corners(self)[2]

    @property
    def RR(self) -> Point:
        return _corners(self)[3]

    def edge(self, name: str) -> tuple[Point, Point]:
        fr, fl, rl, rr = _corners(self)
        return {"front": (fl, fr), "rear": (rl, rr), "left": (fl, rl), "right": (fr, rr)}[name]

    def local(self, p: Point) -> Point:
        """(a, b): forward and left coordinates of ``p`` (SMOKE-GEO-3)."""
        f, l = _frame(self.theta)
        q = (p[0] - self.cx, p[1] - self.cy)
        return (dot(q, f), dot(q, l))

    def moved(self, dx: float, dy: float, theta: float | None = None) -> "Box":
        return Box(self.cx + dx, self.cy + dy, self.theta if theta is None else theta, self.w, self.d)

    def bbox(self) -> tuple[float, float, float, float]:
        return _bbox(self)


@lru_cache(maxsize=4096)
def _frame(theta: float) -> tuple[Point, Point]:
    r = math.radians(theta)
    c, s = math.cos(r), math.sin(r)
    return (c, s), (-s, c)


@lru_cache(maxsize=65536)
def _corners(b: Box) -> tuple[Point, Point, Point, Point]:
    (fx, fy), (lx, ly) = _frame(b.theta)
    hd, hw = b.d / 2, b.w / 2
    cx, cy = b.cx, b.cy
    return (
        (cx + hd * fx - hw * lx, cy + hd * fy - hw * ly),  # FR
        (cx + hd * fx + hw * lx, cy + hd * fy + hw * ly),  # FL
        (cx - hd * fx + hw * lx, cy - hd * fy + hw * ly),  # RL
        (cx - hd * fx - hw * lx, cy - hd * fy - hw * ly),  # RR
    )


@lru_cache(maxsize=65536)
def _bbox(b: Box) -> tuple[float, float, float, float]:
    cs = _corners(b)
    xs = [p[0] for p in cs]
    ys = [p[1] for p in cs]
    return (min(xs), min(ys), max(xs), max(ys))


def box_edges(b: Box) -> dict[str, tuple[Point, Point]]:
    fr, fl, rl, rr = _corners(b)
    return {"front": (fl, fr), "rear": (rl, rr), "left": (fl, rl), "right": (fr, rr)}


#: The outward normal of each named edge in the unit's frame (f, l).
def edge_normal(b: Box, name: str) -> Point:
    f, l = _frame(b.theta)
    return {"front": f, "rear": (-f[0], -f[1]), "left": l, "right": (-l[0], -l[1])}[name]


# -- points, segments -------------------------------------------------------------------
def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    L = dx * dx + dy * dy
    if L <= 0.0:
        return dist(p, a)
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L
    t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    L = dx * dx + dy * dy
    if L <= 0.0:
        return a
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L
    t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
    return (a[0] + t * dx, a[1] + t * dy)


def segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Closed segments [a, b] and [c, d] share a point."""
    d1 = cross(sub(b, a), sub(c, a))
    d2 = cross(sub(b, a), sub(d, a))
    d3 = cross(sub(d, c), sub(a, c))
    d4 = cross(sub(d, c), sub(b, c))
    if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)):
        return True
    return (
        (abs(d1) <= _TINY and _on_seg(c, a, b)) or (abs(d2) <= _TINY and _on_seg(d, a, b))
        or (abs(d3) <= _TINY and _on_seg(a, c, d)) or (abs(d4) <= _TINY and _on_seg(b, c, d))
    )


def _on_seg(p: Point, a: Point, b: Point) -> bool:
    return (min(a[0], b[0]) - _TINY <= p[0] <= max(a[0], b[0]) + _TINY
            and min(a[1], b[1]) - _TINY <= p[1] <= max(a[1], b[1]) + _TINY)


def segment_segment_distance(a: Point, b: Point, c: Point, d: Point) -> float:
    if segments_intersect(a, b, c, d):
        return 0.0
    return min(point_segment_distance(a, c, d), point_segment_distance(b, c, d),
               point_segment_distance(c, a, b), point_segment_distance(d, a, b))


# -- convex polygons (counter-clockwise vertex lists) -------------------------------------------
def point_in_convex(p: Point, poly: Sequence[Point], margin: float = 0.0) -> bool:
    """``p`` is inside ``poly`` shrunk by ``margin`` (margin < 0: grown); the boundary counts."""
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        L = math.hypot(ex, ey)
        if L <= 0.0:
            continue
        # inward distance of p from edge a->b (CCW: interior on the left)
        if (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / L < margin - _TINY:
            return False
    return True


def point_convex_distance(p: Point, poly: Sequence[Point]) -> float:
    if len(poly) >= 3 and point_in_convex(p, poly):
        return 0.0
    n = len(poly)
    if n == 1:
        return dist(p, poly[0])
    return min(point_segment_distance(p, poly[i], poly[(i + 1) % n]) for i in range(n))


def _axes(poly: Sequence[Point]) -> list[Point]:
    if type(poly) is tuple:
        return _axes_cached(poly)
    return _axes_of(poly)


@lru_cache(maxsize=65536)
def _axes_cached(poly: tuple[Point, ...]) -> list[Point]:
    return _axes_of(poly)


def _axes_of(poly: Sequence[Point]) -> list[Point]:
    out = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        L = math.hypot(ex, ey)
        if L > _TINY:
            out.append((ey / L, -ex / L))  # outward normal of a CCW polygon
    return out


def _project(poly: Sequence[Point], ax: Point) -> tuple[float, float]:
    lo = hi = poly[0][0] * ax[0] + poly[0][1] * ax[1]
    for p in poly[1:]:
        v = p[0] * ax[0] + p[1] * ax[1]
        if v < lo:
            lo = v
        elif v > hi:
            hi = v
    return lo, hi


def overlap_depth(P: Sequence[Point], Q: Sequence[Point]) -> float:
    """Penetration depth of two convex polygons (separating axis theorem); <= 0: interiors disjoint.

    It is the smallest translation that separates them, so "depth > EPS" is "the interiors
    overlap by more than the tolerance" (SMOKE-GEO-4).
    """
    best = math.inf
    for ax in _axes(P) + _axes(Q):
        a0, a1 = _project(P, ax)
        b0, b1 = _project(Q, ax)
        o = min(a1, b1) - max(a0, b0)
        if o < best:
            best = o
            if best <= 0:
                return best
    return best


def convex_distance(P: Sequence[Point], Q: Sequence[Point]) -> float:
    """Euclidean distance between closest points of two convex polygons; 0 when they touch or
    overlap (SMOKE-GEO-9). Separated convex polygons are closest at a vertex of one of them."""
    n, m = len(P), len(Q)
    if n >= 3 and m >= 3:
        if overlap_depth(P, Q) >= 0:
            return 0.0
        best = math.inf
        for i in range(n):
            a, b = P[i], P[(i + 1) % n]
            for q in Q:
                v = point_segment_distance(q, a, b)
                if v < best:
                    best = v
        for j in range(m):
            c, d = Q[j], Q[(j + 1) % m]
            for p in P:
                v = point_segment_distance(p, c, d)
                if v < best:
                    best = v
        return best
    best = math.inf
    for i in range(n):
        a, b = P[i], P[(i + 1) % n] if n > 1 else P[i]
        for j in range(m):
            c, d = Q[j], Q[(j + 1) % m] if m > 1 else Q[j]
            v = segment_segment_distance(a, b, c, d)
            if v < best:
                best = v
    return best


def segment_convex_distance(a: Point, b: Point, Q: Sequence[Point]) -> float:
    if len(Q) >= 3 and (point_in_convex(a, Q) or point_in_convex(b, Q)):
        return 0.0
    m = len(Q)
    if m == 1:
        return point_segment_distance(Q[0], a, b)
    return min(segment_segment_distance(a, b, Q[j], Q[(j + 1) % m]) for j in range(m))


def clip_segment(a: Point, b: Point, poly: Sequence[Point], margin: float = 0.0) -> tuple[float, float] | None:
    """The parameter interval [t0, t1] of segment a->b inside ``poly`` shrunk by ``margin`` (closed), or None."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        ex, ey = q[0] - p[0], q[1] - p[1]
        L = math.hypot(ex, ey)
        if L <= 0.0:
            continue
        num = (ex * (a[1] - p[1]) - ey * (a[0] - p[0])) / L - margin
        den = (ex * dy - ey * dx) / L
        if abs(den) < 1e-15:
            if num < -1e-12:
                return None
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1 + 1e-12:
            return None
    return (t0, t1) if t0 <= t1 + 1e-12 else None


def segment_meets_interior(a: Point, b: Point, poly: Sequence[Point], margin: float = EPS) -> bool:
    """The segment passes through ``poly`` shrunk by ``margin`` (Cyrus-Beck clipping; SMOKE-GEO-12a)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        ex, ey = q[0] - p[0], q[1] - p[1]
        L = math.hypot(ex, ey)
        if L <= 0.0:
            continue
        # inward signed distance of a point x: (e x (x - p)) / L - margin >= 0 inside the shrunk polygon
        num = (ex * (a[1] - p[1]) - ey * (a[0] - p[0])) / L - margin
        den = (ex * dy - ey * dx) / L
        if abs(den) < 1e-15:
            if num <= 0.0:
                return False
            continue
        t = -num / den
        if den > 0:  # entering
            if t > t0:
                t0 = t
        else:
            if t < t1:
                t1 = t
        if t0 >= t1:
            return False
    return t1 - t0 > 1e-12


def convex_hull(points: Sequence[Point]) -> list[Point]:
    """Monotone chain; counter-clockwise, no repeated first point."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return list(pts)

    def half(seq):
        out: list[Point] = []
        for p in seq:
            # cross(sub(out[-1], out[-2]), sub(p, out[-2])), inlined
            while len(out) >= 2:
                a, b = out[-1], out[-2]
                if (a[0] - b[0]) * (p[1] - b[1]) - (a[1] - b[1]) * (p[0] - b[0]) > 1e-12:
                    break
                out.pop()
            out.append(p)
        return out

    lower = half(pts)
    upper = half(reversed(pts))
    return lower[:-1] + upper[:-1]


def clip_halfplane(poly: Sequence[Point], n: Point, c: float) -> list[Point]:
    """Sutherland-Hodgman: the part of ``poly`` where ``dot(n, p) >= c``."""
    out: list[Point] = []
    m = len(poly)
    if m == 0:
        return out
    for i in range(m):
        p, q = poly[i], poly[(i + 1) % m]
        vp, vq = dot(n, p) - c, dot(n, q) - c
        if vp >= -_TINY:
            out.append(p)
        if (vp > _TINY and vq < -_TINY) or (vp < -_TINY and vq > _TINY):
            t = vp / (vp - vq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    # drop consecutive duplicates
    dedup: list[Point] = []
    for p in out:
        if not dedup or dist(p, dedup[-1]) > 1e-12:
            dedup.append(p)
    if len(dedup) > 1 and dist(dedup[0], dedup[-1]) <= 1e-12:
        dedup.pop()
    return dedup


def polygon_area(poly: Sequence[Point]) -> float:
    n = len(poly)
    return 0.5 * sum(cross(poly[i], poly[(i + 1) % n]) for i in range(n)) if n >= 3 else 0.0


# -- contact (SMOKE-GEO-5/6/7) ------------------------------------------------------------
class Touch(NamedTuple):
    """Two edges that touch along a segment: edge of A, edge of B, shared length."""

    edge_a: str
    edge_b: str
    length: float


def _bb_apart(a: Box, b: Box, margin: float) -> bool:
    ax0, ay0, ax1, ay1 = a.bbox()
    bx0, by0, bx1, by1 = b.bbox()
    return ax1 + margin < bx0 or bx1 + margin < ax0 or ay1 + margin < by0 or by1 + margin < ay0


def in_contact(a: Box, b: Box) -> bool:
    """SMOKE-GEO-5: interiors disjoint (within EPS) and boundaries within EPS."""
    if _bb_apart(a, b, EPS):
        return False
    P, Q = _corners(a), _corners(b)
    depth = box_overlap_depth(a, b)
    if depth > EPS:
        return False
    if depth >= 0:
        return True
    return convex_distance(P, Q) <= EPS


def overlaps(a: Box, b: Box) -> bool:
    """The interiors overlap by more than the tolerance (SMOKE-GEO-4)."""
    return box_overlap_depth(a, b) > EPS


def box_overlap_depth(a: Box, b: Box) -> float:
    """``overlap_depth`` for two rectangles: two axes each, projections in closed form."""
    fa, la = _frame(a.theta)
    fb, lb = _frame(b.theta)
    dx, dy = b.cx - a.cx, b.cy - a.cy
    best = math.inf
    for n in (fa, la, fb, lb):
        ra = a.d / 2 * abs(fa[0] * n[0] + fa[1] * n[1]) + a.w / 2 * abs(la[0] * n[0] + la[1] * n[1])
        rb = b.d / 2 * abs(fb[0] * n[0] + fb[1] * n[1]) + b.w / 2 * abs(lb[0] * n[0] + lb[1] * n[1])
        o = ra + rb - abs(dx * n[0] + dy * n[1])
        o = min(o, 2 * ra, 2 * rb)
        if o < best:
            best = o
            if best <= 0:
                return best
    return best


@lru_cache(maxsize=65536)
def box_distance(a: Box, b: Box) -> float:
    """Distance between closest points of two rectangles (SMOKE-GEO-9), 0 when they touch or overlap; a pure
    function of the two poses, remembered (a battle's hit order and the nearest units ask it of the same pairs
    over many layouts)."""
    if box_overlap_depth(a, b) >= 0:
        return 0.0
    return convex_distance(_corners(a), _corners(b))


def point_box_distance(p: Point, b: Box) -> float:
    """Closest-point distance from ``p`` to the rectangle (SMOKE-GEO-9); 0 inside."""
    (fx, fy), (lx, ly) = _frame(b.theta)
    qx, qy = p[0] - b.cx, p[1] - b.cy
    dx = abs(qx * fx + qy * fy) - b.d / 2
    dy = abs(qx * lx + qy * ly) - b.w / 2
    if dx <= 0.0:
        return dy if dy > 0.0 else 0.0
    if dy <= 0.0:
        return dx
    return math.hypot(dx, dy)


def edge_touches(a: Box, b: Box) -> list[Touch]:
    """Pairs of edges of A and B that touch along >= EDGE_CONTACT_MIN (SMOKE-GEO-5/6)."""
    if not in_contact(a, b):
        return []
    out = []
    cos_tol = math.cos(math.radians(PARALLEL_DEG))
    ea, eb = box_edges(a), box_edges(b)
    for na, (p0, p1) in ea.items():
        nA = edge_normal(a, na)
        for nb, (q0, q1) in eb.items():
            nB = edge_normal(b, nb)
            if dot(nA, nB) > -cos_tol:
                continue
            # overlap of B's edge projected onto A's edge line
            u = sub(p1, p0)
            L = norm(u)
            if L <= _TINY:
                continue
            u = mul(u, 1 / L)
            s0, s1 = sorted((dot(sub(q0, p0), u), dot(sub(q1, p0), u)))
            lo, hi = max(0.0, s0), min(L, s1)
            if hi - lo < EDGE_CONTACT_MIN:
                continue
            # the two edges are within EPS of each other over [lo, hi] (gap is linear along it)
            x0, x1 = add(p0, mul(u, lo)), add(p0, mul(u, hi))
            if point_segment_distance(x0, q0, q1) <= EPS and point_segment_distance(x1, q0, q1) <= EPS:
                out.append(Touch(na, nb, hi - lo))
    return out


def contact_kind(a: Box, b: Box) -> str | None:
    """None (no contact), "corner" or "edge" (SMOKE-GEO-5)."""
    if not in_contact(a, b):
        return None
    return "edge" if edge_touches(a, b) else "corner"


def rear_contact(a: Box, b: Box) -> bool:
    """SMOKE-FORM-3/GEO-6: one's rear edge touches the other's front edge (a symmetric pair relation)."""
    return any({t.edge_a, t.edge_b} == {"rear", "front"} for t in edge_touches(a, b))


def flank_contact(a: Box, b: Box) -> bool:
    """SMOKE-FORM-3: a side edge of A touches a side edge of B."""
    sides = {"left", "right"}
    return any(t.edge_a in sides and t.edge_b in sides for t in edge_touches(a, b))


def in_line(a: Box, b: Box) -> bool:
    """SMOKE-FORM-3: any edge of A touches any edge of B."""
    return bool(edge_touches(a, b))


def flank_or_rear_position(attacker: Box, enemy: Box) -> bool:
    """SMOKE-GEO-7 / SMOKE-BAT-3: in contact with the enemy and touching no point of its closed
    front edge (front corners included)."""
    if not in_contact(attacker, enemy):
        return False
    fl, fr = enemy.FL, enemy.FR
    return segment_convex_distance(fl, fr, _corners(attacker)) > EPS


# -- fire sector, range, corner lines (SMOKE-GEO-8/10/11) ----------------------------------------
def sector_clip(u: Box, e: Box, half_angle_deg: float = 45.0) -> list[Point]:
    """``rect(E) ∩ S(U)`` (SMOKE-GEO-8): E's part in U's fire sector; [] when none (closed sets)."""
    f, l = _frame(u.theta)
    t = math.tan(math.radians(half_angle_deg))
    c = u.c
    # a >= d/2  <=>  f.p >= f.c + d/2
    poly: list[Point] = list(_corners(e))
    poly = clip_halfplane(poly, f, dot(f, c) + u.d / 2)
    if not poly:
        return []
    # b <= w/2 + (a - d/2) t  <=>  (t f - l).p >= (t f - l).c + t d/2 - w/2
    n1 = (t * f[0] - l[0], t * f[1] - l[1])
    poly = clip_halfplane(poly, n1, dot(n1, c) + t * u.d / 2 - u.w / 2)
    if not poly:
        return []
    n2 = (t * f[0] + l[0], t * f[1] + l[1])
    poly = clip_halfplane(poly, n2, dot(n2, c) + t * u.d / 2 - u.w / 2)
    return poly


def in_sector(p: Point, u: Box, half_angle_deg: float = 45.0) -> bool:
    """SMOKE-LOF-1, SMOKE-GEO-8: the fire sector starts at the front edge and opens outward at 45 degrees."""
    a, b = u.local(p)
    t = math.tan(math.radians(half_angle_deg))
    return a >= u.d / 2 - _TINY and abs(b) <= u.w / 2 + (a - u.d / 2) * t + _TINY


def range_distance(u: Box, part: Sequence[Point]) -> float:
    """SMOKE-GEO-10: distance from U's front edge to ``rect(E) ∩ S(U)``."""
    fl, fr = u.FL, u.FR
    if len(part) == 1:
        return point_segment_distance(part[0], fl, fr)
    if len(part) == 2:
        return segment_segment_distance(fl, fr, part[0], part[1])
    return segment_convex_distance(fl, fr, part)


def candidate_points(part: Sequence[Point], spacing: float = CANDIDATE_SPACING) -> list[Point]:
    """SMOKE-GEO-11: the vertices of ``rect(E) ∩ S(U)`` and points along its edges <= spacing apart."""
    n = len(part)
    if n == 1:
        return [part[0]]
    out: list[Point] = []
    edges = [(part[i], part[(i + 1) % n]) for i in range(n)] if n > 2 else [(part[0], part[1])]
    for a, b in edges:
        out.append(a)
        L = dist(a, b)
        k = int(math.ceil(L / spacing))
        for i in range(1, k):
            t = i / k
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    if n == 2:
        out.append(part[1])
    return out


# -- translation sweeps (SMOKE-GEO-17/18) ---------------------------------------------------
def sweep_interval(P: Sequence[Point], v: Point, Q: Sequence[Point], tol: float) -> tuple[float, float]:
    """The open interval of t where ``P + t v`` overlaps ``Q`` deeper than ``tol`` on every axis.

    Returns (t_enter, t_exit); empty when t_enter >= t_exit. Separating axes of two convex
    polygons under translation: on each axis the overlap is an interval of t, and the interiors
    overlap exactly where all of them do.
    """
    lo, hi = -math.inf, math.inf
    for ax in _axes(P) + _axes(Q):
        a0, a1 = _project(P, ax)
        b0, b1 = _project(Q, ax)
        s = v[0] * ax[0] + v[1] * ax[1]
        # overlap on this axis: min(a1 + ts, b1) - max(a0 + ts, b0) > tol
        # <=> a1 + ts > b0 + tol and a0 + ts < b1 - tol (and the sizes allow it)
        if min(a1 - a0, b1 - b0) <= tol:
            return (math.inf, -math.inf)
        if abs(s) < 1e-15:
            if not (a1 > b0 + tol and a0 < b1 - tol):
                return (math.inf, -math.inf)
            continue
        t_a = (b0 + tol - a1) / s
        t_b = (b1 - tol - a0) / s
        e, x = (t_a, t_b) if s > 0 else (t_b, t_a)
        if e > lo:
            lo = e
        if x < hi:
            hi = x
        if lo >= hi:
            return (lo, hi)
    return (lo, hi)


def first_touch(P: Sequence[Point], v: Point, Q: Sequence[Point], length: float) -> float | None:
    """The smallest t in [0, length] at which ``P + t v`` (|v| = 1) starts to overlap ``Q`` by more
    than EPS, moved back to the moment of first touch (depth 0); None if it never does."""
    e, x = sweep_interval(P, v, Q, EPS)
    if e >= x or e >= length or x <= 0:
        return None
    e0, x0 = sweep_interval(P, v, Q, 0.0)
    if e0 >= x0:
        return max(0.0, e)
    return max(0.0, e0)


def minkowski_difference(P: Sequence[Point], Q: Sequence[Point]) -> list[Point]:
    """``Q ⊖ P = {q - p}``: ``P + x`` touches ``Q`` exactly when x is on its boundary."""
    return convex_hull([(q[0] - p[0], q[1] - p[1]) for p in P for q in Q])


def signed_distance(p: Point, poly: Sequence[Point]) -> float:
    """Distance to a convex polygon, negative inside (minus the distance to its boundary)."""
    n = len(poly)
    if n >= 3 and point_in_convex(p, poly):
        return -min(point_segment_distance(p, poly[i], poly[(i + 1) % n]) for i in range(n))
    return point_convex_distance(p, poly)


def path_touches(P: Sequence[Point], v: Point, length: float, Q: Sequence[Point], slide: bool = False) -> bool:
    """SMOKE-FRET-1/GEO-18: while ``P`` translates by ``t v`` for t in [0, length] (|v| = 1), it
    comes within EPS of ``Q``.

    ``P + x`` is at signed distance ``sd(x, Q ⊖ P)`` from ``Q``, a convex function of x, so along the
    path it is convex in t. A unit that starts further than EPS away touches iff the segment comes
    within EPS of the difference; one that starts touching Q (a unit retreating out of melee) touches
    iff it does not move away at once (sliding along Q or pushing into it), or with ``slide``
    (SMOKE-CHOICE-RETREAT-CONTACT "slides") iff it pushes into Q (sliding along it is no touch).
    """
    # the bounding box of the path against that of Q: a gap of more than 2 EPS along an axis keeps every
    # point of the path further than EPS from Q (no touch), without building the Minkowski difference
    dx, dy = v[0] * length, v[1] * length
    px, py = [p[0] for p in P], [p[1] for p in P]
    qx, qy = [q[0] for q in Q], [q[1] for q in Q]
    if max(min(qx) - (max(px) + max(dx, 0.0)), (min(px) + min(dx, 0.0)) - max(qx),
           min(qy) - (max(py) + max(dy, 0.0)), (min(py) + min(dy, 0.0)) - max(qy)) > 2 * EPS:
        return False
    D = minkowski_difference(P, Q)
    origin = (0.0, 0.0)
    g0 = signed_distance(origin, D)
    if g0 > EPS:
        return segment_convex_distance(origin, (v[0] * length, v[1] * length), D) <= EPS
    if length <= 0:
        return True
    h = min(length, 1e-5)
    if slide:
        return signed_distance((v[0] * h, v[1] * h), D) - g0 < -1e-9
    return signed_distance((v[0] * h, v[1] * h), D) - g0 <= 1e-9


def rotation_poses(b: Box, to_theta: float) -> list[Box]:
    """Poses from ``b.theta`` to ``to_theta`` by the shorter way, <= ROTATION_STEP_DEG apart."""
    delta = normalize_deg(to_theta - b.theta)
    if delta > 180.0:
        delta -= 360.0
    steps = max(1, int(math.ceil(abs(delta) / ROTATION_STEP_DEG)))
    return [Box(b.cx, b.cy, b.theta + delta * i / steps, b.w, b.d) for i in range(steps + 1)]


def rotation_sweep(b: Box, to_theta: float) -> list[list[Point]]:
    """Convex pieces covering the area a rectangle sweeps pivoting about its centre (SMOKE-GEO-17)."""
    poses = rotation_poses(b, to_theta)
    if len(poses) == 2 and abs(normalize_deg(poses[0].theta - poses[1].theta)) < 1e-12:
        return [list(_corners(b))]
    return [convex_hull(list(_corners(p)) + list(_corners(q))) for p, q in zip(poses, poses[1:])]


def translation_sweep(b: Box, dx: float, dy: float) -> list[Point]:
    """The Minkowski sum of the rectangle and the translation segment (a convex hexagon)."""
    cs = _corners(b)
    return convex_hull(list(cs) + [(p[0] + dx, p[1] + dy) for p in cs])


# -- discs and rounded rectangles (SMOKE-GEO-14/15/16) ---------------------------------------------
def circle_circle(c1: Point, r1: float, c2: Point, r2: float) -> list[Point]:
    d = dist(c1, c2)
    if d <= _TINY or d > r1 + r2 + _TINY or d < abs(r1 - r2) - _TINY:
        return []
    a = (r1 * r1 - r2 * r2 + d * d) / (2 * d)
    h2 = r1 * r1 - a * a
    h = math.sqrt(h2) if h2 > 0 else 0.0
    ux, uy = (c2[0] - c1[0]) / d, (c2[1] - c1[1]) / d
    mx, my = c1[0] + a * ux, c1[1] + a * uy
    if h == 0.0:
        return [(mx, my)]
    return [(mx - h * uy, my + h * ux), (mx + h * uy, my - h * ux)]


def segment_circle(a: Point, b: Point, c: Point, r: float) -> list[Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - c[0], a[1] - c[1]
    A = dx * dx + dy * dy
    if A <= _TINY:
        return []
    B = 2 * (fx * dx + fy * dy)
    C = fx * fx + fy * fy - r * r
    disc = B * B - 4 * A * C
    if disc < 0:
        return []
    s = math.sqrt(disc)
    out = []
    for t in ((-B - s) / (2 * A), (-B + s) / (2 * A)):
        if -1e-9 <= t <= 1 + 1e-9:
            out.append((a[0] + t * dx, a[1] + t * dy))
    return out


def segment_segment_point(a: Point, b: Point, c: Point, d: Point) -> list[Point]:
    r, s = sub(b, a), sub(d, c)
    den = cross(r, s)
    if abs(den) < 1e-14:
        return []
    t = cross(sub(c, a), s) / den
    u = cross(sub(c, a), r) / den
    if -1e-9 <= t <= 1 + 1e-9 and -1e-9 <= u <= 1 + 1e-9:
        return [(a[0] + t * r[0], a[1] + t * r[1])]
    return []


def rounded_box_boundary(b: Box, radius: float) -> tuple[list[tuple[Point, Point]], list[Point]]:
    """``∂(rect ⊕ disc(radius))``: the four edges pushed out by ``radius`` and the four corner
    circles (only their outer arcs are on the boundary; a point of a corner circle is on it
    exactly when its distance to the rectangle is ``radius``)."""
    segs = []
    for name, (p, q) in box_edges(b).items():
        n = edge_normal(b, name)
        segs.append((add(p, mul(n, radius)), add(q, mul(n, radius))))
    return segs, list(_corners(b))
