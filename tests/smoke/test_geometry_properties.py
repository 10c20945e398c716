"""SMOKE-GEO against independent computations (Shapely, or dense sampling), over >= 1,000 random
poses per property. The engine's own predicates are exact arithmetic on convex polygons
(domain/smoke/geometry.py); here each is recomputed another way. Cases within a hair of a
tolerance boundary are skipped (both answers are right there), and the tests count that most
cases were decided."""
from __future__ import annotations

import math
import random

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from domain.smoke import geometry as G
from domain.smoke.content import TerrainElement, TerrainKind
from domain.smoke.geometry import EPS, Box
from domain.smoke.markers import best_placements
from domain.smoke.terrain import Terrain

N = 1000
#: Random cases drawn per property: more than N, so that N remain after the undecidable ones.
TRIES = 1600


def np_point_box_distance(xs: np.ndarray, ys: np.ndarray, b: Box) -> np.ndarray:
    """Distance from many points to a rectangle (its local frame; numpy), independent of the engine."""
    f, l = b.f, b.l
    px, py = xs - b.cx, ys - b.cy
    a = np.abs(px * f[0] + py * f[1]) - b.d / 2
    c = np.abs(px * l[0] + py * l[1]) - b.w / 2
    return np.hypot(np.maximum(a, 0), np.maximum(c, 0))


def polys(boxes: list[Box]):
    return shapely.polygons(np.array([list(b.corners()) + [b.corners()[0]] for b in boxes]))


def rbox(rng: random.Random, span: float = 6.0) -> Box:
    return Box(rng.uniform(0, span), rng.uniform(0, span), rng.uniform(0, 360), rng.uniform(0.5, 1.5),
               rng.uniform(0.3, 1.3))


def poly(b: Box) -> Polygon:
    return Polygon(b.corners())


def near(b: Box, rng: random.Random, gap: float = 0.5) -> Box:
    """A box around ``b`` at a random offset: close enough to touch often."""
    ang = rng.uniform(0, 2 * math.pi)
    r = rng.uniform(0, 1.6)
    return Box(b.cx + r * math.cos(ang), b.cy + r * math.sin(ang), rng.uniform(0, 360), rng.uniform(0.5, 1.2),
               rng.uniform(0.3, 1.0))


def touching_pair(rng: random.Random, edge: bool) -> tuple[Box, Box, float]:
    """B placed against A: along one of A's edges (shared length L) or corner to edge."""
    a = rbox(rng)
    name = rng.choice(["front", "rear", "left", "right"])
    p, q = a.edge(name)
    n = G.edge_normal(a, name)
    u = G.sub(q, p)
    L = G.norm(u)
    u = G.mul(u, 1 / L)
    if edge:
        wb = rng.uniform(0.3, 1.5)
        # B's touching edge is its rear edge, facing away from A along n
        theta = math.degrees(math.atan2(n[1], n[0]))
        db = rng.uniform(0.3, 1.0)
        s = rng.uniform(-wb / 2, L + wb / 2)
        c = G.add(G.add(p, G.mul(u, s)), G.mul(n, db / 2))
        b = Box(c[0], c[1], theta, wb, db)
        lo, hi = max(0.0, s - wb / 2), min(L, s + wb / 2)
        return a, b, max(0.0, hi - lo)
    # corner contact: a corner of B touches A's edge, B rotated so nothing else touches
    theta = math.degrees(math.atan2(n[1], n[0])) + rng.choice([-1, 1]) * rng.uniform(20, 70)
    b0 = Box(0, 0, theta, rng.uniform(0.4, 1.2), rng.uniform(0.3, 1.0))
    # the corner of b0 furthest against n touches the edge point
    cs = b0.corners()
    k = min(cs, key=lambda c: G.dot(c, n))
    target = G.add(p, G.mul(u, rng.uniform(0.1, L - 0.1)))
    c = G.sub(target, k)
    return a, Box(c[0], c[1], theta, b0.w, b0.d), 0.0


def test_distance_and_contact_against_shapely():
    rng = random.Random(1)
    decided = 0
    for _ in range(TRIES):
        a = rbox(rng)
        b = near(a, rng)
        d_ref = poly(a).distance(poly(b))
        assert abs(G.box_distance(a, b) - d_ref) < 1e-9
        inter = poly(a).intersection(poly(b)).area
        if inter > 1e-6 or d_ref > 1e-6:
            assert (G.box_overlap_depth(a, b) > 0) == (inter > 0)
        # contact: boundaries within EPS, interiors (essentially) disjoint
        if abs(d_ref - EPS) < 1e-6 or 0 < inter < 1e-3:
            continue
        decided += 1
        assert G.in_contact(a, b) == (d_ref <= EPS and inter < 1e-3), (a, b, d_ref, inter)
    assert decided >= N


def test_edge_versus_corner_contact_against_shapely():
    rng = random.Random(2)
    decided = 0
    for i in range(TRIES):
        a, b, shared = touching_pair(rng, edge=i % 2 == 0)
        # independent: the length of A's boundary lying within EPS of B
        along = poly(a).exterior.intersection(poly(b).buffer(EPS / 2)).length
        assert G.in_contact(a, b)
        if abs(along - G.EDGE_CONTACT_MIN) < 0.03 or (i % 2 == 0 and abs(shared - G.EDGE_CONTACT_MIN) < 0.03):
            continue
        decided += 1
        assert (G.contact_kind(a, b) == "edge") == (along >= G.EDGE_CONTACT_MIN), (a, b, along)
        if i % 2 == 0 and shared > 0.2:
            ts = G.edge_touches(a, b)
            assert any({t.edge_b} == {"rear"} for t in ts)
            assert abs(max(t.length for t in ts) - shared) < 1e-6
    assert decided >= N


def test_flank_or_rear_position_against_shapely():
    rng = random.Random(3)
    decided = 0
    for i in range(TRIES):
        e, a, _ = touching_pair(rng, edge=i % 3 != 0)
        front = LineString(e.edge("front"))
        d_front = front.distance(poly(a))
        if abs(d_front - EPS) < 1e-6:
            continue
        decided += 1
        assert G.flank_or_rear_position(a, e) == (d_front > EPS), (a, e, d_front)
        # a unit squarely behind E (touching only its rear edge) is in its rear (SMOKE-GEO-7)
    behind = Box(0, -0.75, 90, 1, 0.5)
    enemy = Box(0, 0, 90, 1, 1)
    assert G.flank_or_rear_position(behind, enemy)
    assert not G.flank_or_rear_position(Box(0, 0.75, 270, 1, 0.5), enemy)  # on its front edge
    assert decided >= N


def sector_polygon(u: Box, half: float = 45.0, far: float = 50.0) -> Polygon:
    t = math.tan(math.radians(half))
    f, l = u.f, u.l

    def at(a: float, b: float):
        return (u.cx + a * f[0] + b * l[0], u.cy + a * f[1] + b * l[1])

    a0 = u.d / 2
    return Polygon([at(a0, u.w / 2), at(a0, -u.w / 2), at(a0 + far, -u.w / 2 - far * t), at(a0 + far, u.w / 2 + far * t)])


def test_fire_sector_and_range_against_shapely():
    rng = random.Random(4)
    decided = in_sector = 0
    for i in range(TRIES):
        u = rbox(rng)
        e = Box(u.cx + rng.uniform(-4, 4), u.cy + rng.uniform(-4, 4), rng.uniform(0, 360), rng.uniform(0.5, 1.2),
                rng.uniform(0.3, 1.0))
        half = 45.0 if i % 4 else 22.5
        sec = sector_polygon(u, half)
        ref = sec.intersection(poly(e))
        part = G.sector_clip(u, e, half)
        touches_only = sec.intersects(poly(e)) and ref.area < 1e-9
        if touches_only:
            continue
        decided += 1
        assert bool(part) == (ref.area > 0), (u, e)
        if part:
            in_sector += 1
            assert abs(G.polygon_area(part) - ref.area) < 1e-6
            d_ref = LineString(u.edge("front")).distance(ref)
            assert abs(G.range_distance(u, part) - d_ref) < 1e-9
    assert decided >= N and in_sector > N / 5


def test_range_is_strictly_less_than():
    """SMOKE-GEO-10 / SMOKE-LOF-2(b)3: a target exactly at the range is out of range; a hair closer is in."""
    from tests.smoke.fixtures import table_state

    from domain.smoke.fire import line_of_fire

    rng = random.Random(5)
    for _ in range(N):
        u = Box(rng.uniform(8, 12), rng.uniform(8, 12), rng.uniform(0, 360), 1.0, 0.5)
        r = 2.0  # the musket of line infantry
        gap = rng.choice([r, r - 1e-7, r + 1e-7, rng.uniform(0.1, 3.9)])
        f = u.f
        c = (u.cx + f[0] * (u.d / 2 + gap + 0.25), u.cy + f[1] * (u.d / 2 + gap + 0.25))
        e = Box(c[0], c[1], u.theta + rng.choice([0, 180]), 1.0, 0.5)
        st = table_state([("player-1", u), ("player-2", e)])
        m = line_of_fire(st, st.units["P1-01"], st.units["P2-01"], melee=False)
        assert abs(m["distance"] - gap) < 1e-4
        assert m["ok"] == (gap < r), (gap, m)
        if not m["ok"]:
            assert m["rule"] == "SMOKE-GEO-10"


def test_clear_segments_against_shapely():
    rng = random.Random(6)
    decided = 0
    for _ in range(TRIES):
        b = rbox(rng)
        k = (rng.uniform(-2, 8), rng.uniform(-2, 8))
        q = (rng.uniform(-2, 8), rng.uniform(-2, 8))
        shrunk = poly(b).buffer(-EPS, join_style="mitre")
        line = LineString([k, q])
        inside = line.intersection(shrunk).length
        if 0 < inside < 1e-7 or line.distance(shrunk) < 1e-7 and inside == 0:
            continue
        decided += 1
        assert G.segment_meets_interior(k, q, b.corners()) == (inside > 0), (k, q, b)
    assert decided >= N


def _shadow(k, corners, far: float = 200.0) -> Polygon:
    pts = list(corners)
    for c in corners:
        d = G.sub(c, k)
        n = G.norm(d) or 1.0
        pts.append(G.add(c, G.mul(d, far / n)))
    return shapely.convex_hull(shapely.MultiPoint(pts))


def test_corner_lines_against_exact_shadows():
    """SMOKE-GEO-11: a corner has a clear line to the target's part in the sector exactly when that
    part is not entirely in the shadows of the blocking units (computed with Shapely)."""
    rng = random.Random(7)
    decided = visible_n = 0
    for _ in range(TRIES):
        u = Box(0, 0, 90, 1, 0.5)
        e = Box(rng.uniform(-3, 3), rng.uniform(2, 5), rng.uniform(0, 360), rng.uniform(0.6, 1.2), 0.5)
        part = G.sector_clip(u, e)
        if len(part) < 3:
            continue
        blockers = []
        for _ in range(rng.randint(1, 3)):
            b = Box(rng.uniform(-2.5, 2.5), rng.uniform(0.9, 2.5), rng.uniform(0, 360), rng.uniform(0.4, 1.0),
                    rng.uniform(0.3, 0.8))
            if G.box_overlap_depth(b, e) > 0 or G.box_overlap_depth(b, u) > 0:
                continue
            blockers.append(b)
        for k in (u.FL, u.FR):
            found = None
            for q in G.candidate_points(part):
                if not any(G.segment_meets_interior(k, q, b.corners()) for b in blockers):
                    found = q
                    break
            shadows = unary_union([_shadow(k, Polygon(b.corners()).buffer(-EPS, join_style="mitre").exterior.coords[:-1])
                                   for b in blockers]) if blockers else Polygon()
            visible = Polygon(part).difference(shadows)
            if visible.is_empty:
                ref = False
            elif visible.buffer(-0.03).is_empty:
                continue  # a sliver narrower than the candidate spacing: either answer is a fair measurement
            else:
                ref = True
            decided += 1
            visible_n += ref
            assert (found is not None) == ref, (k, e, blockers)
    assert decided >= N and visible_n > 0.2 * decided


def _terrain(polygons: list[list[tuple[float, float]]]) -> Terrain:
    kinds = {"rough": TerrainKind(id="rough", name="Rough", difficult=True, blocks_view=True)}
    els = [TerrainElement(id=f"T{i}", kind="rough", polygon=tuple(p)) for i, p in enumerate(polygons)]
    return Terrain(els, kinds)


def _star(rng: random.Random, cx: float, cy: float) -> list[tuple[float, float]]:
    n = rng.randint(5, 9)
    return [(cx + rng.uniform(0.8, 2.0) * math.cos(2 * math.pi * i / n),
             cy + rng.uniform(0.8, 2.0) * math.sin(2 * math.pi * i / n)) for i in range(n)]


def test_terrain_membership_against_sampling():
    """SMOKE-GEO-13: partially in (positive area), entirely in, context (the centre), on non-convex elements."""
    rng = random.Random(8)
    decided = 0
    for _ in range(2 * TRIES):
        star = _star(rng, 3, 3)
        t = _terrain([star])
        b = Box(rng.uniform(0.5, 5.5), rng.uniform(0.5, 5.5), rng.uniform(0, 360), 1.0, 0.5)
        x = Polygon(star)
        # sampling: points of the rectangle on a 21 x 11 grid
        pts = [G.add(G.add(b.c, G.mul(b.f, (i / 5 - 0.5) * b.d)), G.mul(b.l, (j / 10 - 0.5) * b.w))
               for i in range(6) for j in range(11)]
        ins = shapely.contains_xy(x, [p[0] for p in pts], [p[1] for p in pts])
        frac = sum(bool(v) for v in ins) / len(pts)
        border = x.exterior.distance(poly(b))
        if border < 0.12:  # the edge is near the unit's boundary: a 0.1 grid cannot tell
            continue
        decided += 1
        assert bool(t.partially_in(b, "difficult")) == (frac > 0), (b, frac)
        assert bool(t.entirely_in(b, "difficult")) == (frac == 1.0), (b, frac)
        assert (t.context(b) == "T0") == bool(shapely.contains_xy(x, b.cx, b.cy))
    assert decided >= N


def test_view_blocking_through_but_not_into_an_element():
    """SMOKE-GEO-12b (GAP-B-08): a line that enters X and leaves it again before the target is
    blocked; one that ends inside X or at its edge is not; one that starts inside X never is."""
    rng = random.Random(9)
    decided = 0
    for _ in range(TRIES):
        star = _star(rng, 3, 3)
        t = _terrain([star])
        k = (rng.uniform(-1, 7), rng.uniform(-1, 7))
        q = (rng.uniform(-1, 7), rng.uniform(-1, 7))
        x = Polygon(star)
        line = LineString([k, q])
        inter = line.intersection(x)
        pieces = [g for g in getattr(inter, "geoms", [inter]) if g.geom_type == "LineString" and g.length > EPS]
        starts_inside = x.contains(Point(k)) and x.exterior.distance(Point(k)) > EPS
        if any(abs(Point(p.coords[0]).distance(Point(q)) - EPS) < 1e-3 or abs(Point(p.coords[-1]).distance(Point(q)) - EPS) < 1e-3
               for p in pieces) or x.exterior.distance(Point(k)) < 2 * EPS:
            continue
        decided += 1
        blocked = not starts_inside and any(min(Point(c).distance(Point(q)) for c in (p.coords[0], p.coords[-1])) > EPS
                                            for p in pieces)
        assert (t.view_blocker(k, q) is not None) == blocked, (k, q, star)
    assert decided >= N


def test_translation_sweep_and_first_touch_against_sampled_poses():
    """SMOKE-GEO-17: the swept area of a translation meets an obstacle exactly when some pose along
    the way does; a simple move stops at the first touch."""
    rng = random.Random(10)
    decided = hits = 0
    for _ in range(TRIES):
        a = rbox(rng)
        ang = rng.uniform(0, 2 * math.pi)
        v = (math.cos(ang), math.sin(ang))
        length = rng.uniform(0, 4)
        o = Box(a.cx + v[0] * rng.uniform(0, 4) + rng.uniform(-1, 1), a.cy + v[1] * rng.uniform(0, 4) + rng.uniform(-1, 1),
                rng.uniform(0, 360), rng.uniform(0.5, 1.2), rng.uniform(0.3, 1.0))
        if G.box_overlap_depth(a, o) > 0:
            continue
        steps = 150
        depths = [G.box_overlap_depth(a.moved(v[0] * length * i / steps, v[1] * length * i / steps), o)
                  for i in range(steps + 1)]
        sampled = max(depths)
        if abs(sampled - EPS) < length / steps + 0.005:
            continue
        decided += 1
        swept = G.overlap_depth(G.translation_sweep(a, v[0] * length, v[1] * length), o.corners()) > EPS
        assert swept == (sampled > EPS), (a, v, length, o, sampled)
        t = G.first_touch(a.corners(), v, o.corners(), length)
        assert (t is not None) == (sampled > EPS)
        if t is not None:
            hits += 1
            # at t the unit touches (depth ~0) and before it there is no overlap
            assert abs(G.box_overlap_depth(a.moved(v[0] * t, v[1] * t), o)) < 1e-6
            i_first = next(i for i, d in enumerate(depths) if d > 0)
            assert abs(t - length * i_first / steps) <= length / steps + 1e-9
    assert decided >= N and hits > N / 10


def test_rotation_sweep_against_sampled_angles():
    rng = random.Random(11)
    decided = 0
    for _ in range(3 * TRIES):
        if decided >= N:
            break
        a = rbox(rng)
        to = rng.uniform(0, 360)
        o = near(a, rng)
        if G.box_overlap_depth(a, o) > 0:
            continue
        delta = G.normalize_deg(to - a.theta)
        if delta > 180:
            delta -= 360
        # poses half a degree apart at most: the depth changes by < 0.01 UW between two of them
        sampled = max(G.box_overlap_depth(Box(a.cx, a.cy, a.theta + delta * i / 360, a.w, a.d), o) for i in range(361))
        if abs(sampled - EPS) < 0.011:
            continue
        decided += 1
        swept = any(G.overlap_depth(p, o.corners()) > EPS for p in G.rotation_sweep(a, to))
        assert swept == (sampled > EPS), (a, to, o, sampled)
    assert decided >= N


def test_retreat_path_touching_against_sampling():
    """SMOKE-FRET-1 / SMOKE-GEO-18: a retreat path touches an enemy (within EPS) at some point."""
    rng = random.Random(12)
    decided = touched = 0
    for _ in range(2 * TRIES):
        if decided >= N:
            break
        a = rbox(rng)
        ang = rng.uniform(0, 2 * math.pi)
        v = (math.cos(ang), math.sin(ang))
        length = rng.uniform(0.5, 3.5)
        o = Box(a.cx + v[0] * rng.uniform(0, 4) + rng.uniform(-1.5, 1.5),
                a.cy + v[1] * rng.uniform(0, 4) + rng.uniform(-1.5, 1.5), rng.uniform(0, 360), 1.0, 0.6)
        d0 = G.box_distance(a, o)
        if d0 < 2 * EPS:
            continue
        poses = [a.moved(v[0] * length * i / 150, v[1] * length * i / 150) for i in range(151)]
        m = float(shapely.distance(polys(poses), poly(o)).min())
        if abs(m - EPS) < length / 150 + 0.002:
            continue
        decided += 1
        res = G.path_touches(a.corners(), v, length, o.corners())
        touched += res
        assert res == (m <= EPS), (a, v, length, o, m)
    assert decided >= N and touched > N / 20
    # starting in melee: moving straight away is no touch, sliding along or pushing in is
    u, e = Box(0, 0, 90, 1, 0.5), Box(0, 0.5, 270, 1, 0.5)  # front to front
    assert not G.path_touches(u.corners(), (0, -1), 2, e.corners())
    assert G.path_touches(u.corners(), (1, 0), 2, e.corners())
    assert G.path_touches(u.corners(), (0, 1), 2, e.corners())


def test_commander_displacement_against_grid():
    """SMOKE-GEO-19 / SMOKE-CMD-5: the displaced head is free, and when the straight 2 UW spot was
    taken no free spot (on a 0.02 UW grid, numpy) is nearer to it than the one chosen."""
    from tests.smoke.fixtures import table_state

    from domain.smoke.commanders import COMMANDER_RADIUS, displacement_target, free_spot

    rng = random.Random(13)
    checked = cases = 0
    for i in range(N):
        units = []
        cx, cy = rng.uniform(2, 10), rng.uniform(4, 8)
        for _ in range(rng.randint(0, 5)):
            units.append(("player-1" if rng.random() < 0.5 else "player-2",
                          Box(cx + rng.uniform(-1.5, 1.5), cy - 2 + rng.uniform(-1.5, 1.5), rng.choice([0, 90, 45, 30]),
                              1.0, 0.5)))
        st = table_state(units, commanders=[("player-1", cx, cy)], width=12, height=12)
        c = next(iter(st.commanders.values()))
        end, nearest = displacement_target(st, c)
        cases += 1
        assert free_spot(st, end)
        target = (cx, max(COMMANDER_RADIUS, cy - 2.0))
        if not nearest:
            assert math.hypot(end[0] - target[0], end[1] - target[1]) < 1e-3
            continue
        checked += 1
        d = math.hypot(end[0] - target[0], end[1] - target[1])
        g = np.arange(-d, d + 1e-9, 0.02)
        xs, ys = np.meshgrid(target[0] + g, target[1] + g)
        xs, ys = xs.ravel(), ys.ravel()
        inside = np.hypot(xs - target[0], ys - target[1]) < d - 0.02
        free = inside & (xs >= COMMANDER_RADIUS) & (ys >= COMMANDER_RADIUS) & (xs <= 12 - COMMANDER_RADIUS) \
            & (ys <= 12 - COMMANDER_RADIUS)
        # the engine keeps the full radius clear (the figure touches, never overlaps); Shapely's
        # polygonal buffer is exact to 0.0003 UW
        for u in st.units.values():
            free &= np_point_box_distance(xs, ys, u.box()) >= COMMANDER_RADIUS - 0.001
        assert not free.any(), (end, target, xs[free][:3], ys[free][:3])
    assert cases >= N and checked > 100


def test_optimal_marker_placement_against_grid():
    """SMOKE-GEO-15: the exact candidate points reach the best depth a dense grid (numpy, 0.08 UW)
    finds, and the chosen point really covers that many units (Shapely distance)."""
    rng = random.Random(14)
    xs, ys = np.meshgrid(np.arange(1.5, 11.5, 0.08), np.arange(1.5, 11.5, 0.08))
    xs, ys = xs.ravel(), ys.ravel()
    for i in range(N):
        boxes = [Box(rng.uniform(4, 9), rng.uniform(4, 9), rng.uniform(0, 360), 1.0, 0.5) for _ in range(rng.randint(1, 6))]
        best, pts = best_placements(boxes, [], boxes, 14, 14)
        p0 = pts[0]
        covered = sum(1 for b in boxes if poly(b).distance(Point(p0)) <= 2 + EPS + 1e-9)
        assert covered == best
        depth = sum((np_point_box_distance(xs, ys, b) <= 2 + EPS).astype(int) for b in boxes)
        assert best >= int(depth.max()), (boxes, best, int(depth.max()))


def _path_touches_by_difference(P, v, length, Q, slide=False):
    """``path_touches`` answered from the Minkowski difference alone (no bounding-box shortcut)."""
    D = G.minkowski_difference(P, Q)
    g0 = G.signed_distance((0.0, 0.0), D)
    if g0 > EPS:
        return G.segment_convex_distance((0.0, 0.0), (v[0] * length, v[1] * length), D) <= EPS
    if length <= 0:
        return True
    h = min(length, 1e-5)
    step = G.signed_distance((v[0] * h, v[1] * h), D) - g0
    return step < -1e-9 if slide else step <= 1e-9


def test_retreat_path_bounding_box_shortcut_agrees():
    """SMOKE-FRET-1 / SMOKE-GEO-18: the bounding-box shortcut of ``path_touches`` never changes its answer,
    for enemies placed all around the 2 EPS gap it uses (and paths that start in contact, slid or not)."""
    rng = random.Random(26)
    near = far = 0
    for _ in range(3000):
        a = rbox(rng)
        ang = rng.uniform(0, 2 * math.pi)
        v = (math.cos(ang), math.sin(ang))
        length = rng.choice([0.0, rng.uniform(0, 3.5)])
        o = Box(a.cx + rng.uniform(-4, 4), a.cy + rng.uniform(-4, 4), rng.choice([0, 90, rng.uniform(0, 360)]),
                1.0, 0.6)
        # slide it along one axis so that the bounding boxes' gap lands near 2 EPS
        gap = max(min(p[0] for p in o.corners()) - max(p[0] for p in a.corners()),
                  min(p[1] for p in o.corners()) - max(p[1] for p in a.corners()))
        if rng.random() < 0.5 and gap > 0:
            shift = gap - rng.uniform(0, 4 * EPS)
            o = o.moved(-shift, 0.0) if gap == min(p[0] for p in o.corners()) - max(p[0] for p in a.corners()) \
                else o.moved(0.0, -shift)
        slide = rng.random() < 0.5
        got = G.path_touches(a.corners(), v, length, o.corners(), slide)
        want = _path_touches_by_difference(a.corners(), v, length, o.corners(), slide)
        assert got == want, (a, v, length, o, slide)
        near += want
        far += not want
    assert near > 100 and far > 100
