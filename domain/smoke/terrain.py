"""Terrain on the table (SMOKE-TERR) and terrain membership (SMOKE-GEO-13), on Shapely 2.

Terrain elements are arbitrary (possibly non-convex) polygons, so their predicates use Shapely
(prepared geometries, computed once per battle): "even partially in X" is a positive-area
intersection (the element shrunk by EPS is met), "entirely in X" is containment in X grown by
EPS, "in an element" (formation context) is the element containing the unit's centre (the
smallest when nested; roads never are, SMOKE-GEO-13, GAP-B-19). A road is its polyline widened by
its drawn width; "touching a road" is meeting that polygon (SMOKE-TERR-6).

Lines of fire through "blocks view" elements follow SMOKE-GEO-12b: a line from a corner K to a
target point q is blocked by X when K is outside X's interior and the line's part inside X has a
piece that does not end at q (it enters and leaves X before the target).
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, Point as SPoint, Polygon

from .chords import chord_blocks, convex_edges
from .content import TerrainElement, TerrainKind
from .geometry import EPS, Box, Point, overlap_depth, point_segment_distance


@dataclass(frozen=True)
class Element:
    id: str
    kind: TerrainKind
    shape: object  # shapely geometry (the road's widened polyline for roads)
    shrunk: object
    grown: object
    area: float
    bounds: tuple[float, float, float, float]
    #: the convex hull of ``shrunk`` (a prefilter: a convex piece clear of it cannot meet the element)
    hull: tuple[Point, ...] = ()


@lru_cache(maxsize=65536)
def box_polygon(b: Box) -> Polygon:
    """The unit's rectangle as a Shapely polygon (cached per pose)."""
    return Polygon(b.corners())


class Terrain:
    """The terrain of one battle, indexed for the rules' questions."""

    def __init__(self, elements: Sequence[TerrainElement], kinds: dict[str, TerrainKind]):
        els = []
        for e in elements:
            kind = kinds[e.kind]
            if kind.road:
                shape = LineString(e.line).buffer(e.width / 2, quad_segs=8)
            else:
                shape = Polygon(e.polygon)
                if not shape.is_valid:
                    shape = shape.buffer(0)
            shrunk = shape.buffer(-EPS, join_style="mitre")
            grown = shape.buffer(EPS, join_style="mitre")
            for g in (shape, shrunk, grown):
                shapely.prepare(g)
            ch = shrunk.convex_hull
            hull = tuple(ch.exterior.coords)[:-1] if ch.geom_type == "Polygon" else ()
            els.append(Element(e.id, kind, shape, shrunk, grown, shape.area, shape.bounds, hull))
        self.elements: tuple[Element, ...] = tuple(els)
        self.by_id = {e.id: e for e in els}
        self.blockers = tuple((e.id, e.bounds, tuple(ed.polygon)) for e, ed in zip(els, elements)
                              if e.kind.blocks_view and not e.kind.road)
        self.forts = any(e.kind.fortification for e in els)
        #: answers per (question, unit pose, property): the terrain never changes under a Terrain
        self._memo: dict[tuple, object] = {}

    def _remember(self, key: tuple, fn):
        got = self._memo.get(key, _MISSING)
        if got is _MISSING:
            if len(self._memo) >= _MEMO_MAX:
                self._memo.clear()
            got = self._memo[key] = fn()
        return got

    # -- membership (SMOKE-GEO-13) --------------------------------------------------------
    def partially_in(self, b: Box, prop: str) -> list[str]:
        """Elements with property ``prop`` that the unit is even partially in (positive area)."""
        return list(self._remember(("partially", b, prop), lambda: self._partially_in(b, prop)))

    def _partially_in(self, b: Box, prop: str) -> list[str]:
        bb = b.bbox()
        near = [e for e in self.elements if getattr(e.kind, prop) and _bb_hit(bb, e.bounds) and not e.kind.road]
        if not near:
            return []  # no element's bounds meet the unit's: no polygon to make
        poly = box_polygon(b)
        return [e.id for e in near if e.shrunk.intersects(poly)]

    def entirely_in(self, b: Box, prop: str) -> list[str]:
        """Elements with property ``prop`` that contain the whole unit (within EPS)."""
        return list(self._remember(("entirely", b, prop), lambda: self._entirely_in(b, prop)))

    def _entirely_in(self, b: Box, prop: str) -> list[str]:
        bb = b.bbox()
        near = [e for e in self.elements if getattr(e.kind, prop) and _bb_hit(bb, e.bounds) and not e.kind.road]
        if not near:
            return []
        poly = box_polygon(b)
        return [e.id for e in near if e.grown.contains(poly)]

    def entirely_in_element(self, b: Box, eid: str) -> bool:
        return self.by_id[eid].grown.contains(box_polygon(b))

    def context(self, b: Box) -> str | None:
        """The element containing the unit's centre, the smallest when nested; None: open ground."""
        return self._remember(("context", b), lambda: self._context(b))  # type: ignore[return-value]

    def _context(self, b: Box) -> str | None:
        best: Element | None = None
        for e in self.elements:
            if e.kind.road or not _bb_hit((b.cx, b.cy, b.cx, b.cy), e.bounds):
                continue
            if shapely.contains_xy(e.shape, b.cx, b.cy) and (best is None or e.area < best.area):
                best = e
        return best.id if best else None

    def has_fortifications(self) -> bool:
        return self.forts

    def touches_road(self, b: Box) -> bool:
        return self._remember(("road", b), lambda: self._touches_road(b))  # type: ignore[return-value]

    def _touches_road(self, b: Box) -> bool:
        bb = b.bbox()
        near = [e for e in self.elements if e.kind.road and _bb_hit(bb, e.bounds)]
        if not near:
            return False
        poly = box_polygon(b)
        return any(e.shape.intersects(poly) for e in near)

    def sweep_meets(self, pieces: "Iterable[Sequence[Point]] | Sweep", prop: str) -> list[str]:
        """Elements with ``prop`` whose interior the swept area meets (SMOKE-TERR-1/2, GEO-17).

        A piece is turned into a Shapely polygon only when its bounding box meets an element's (a
        polygon outside an element's bounds cannot meet its interior)."""
        cand = [e for e in self.elements if getattr(e.kind, prop) and not e.kind.road]
        if not cand:
            return []
        sw = pieces if isinstance(pieces, Sweep) else Sweep(pieces)
        if not sw.pieces:
            return []
        bb = sw.bb
        hit = []
        for e in cand:
            if not _bb_hit(bb, e.bounds):
                continue
            if any(_bb_hit(pbb, e.bounds) and not _clear_of(sw.pieces[i], e.hull)
                   and e.shrunk.intersects(sw.polygon(i)) for i, pbb in enumerate(sw.bbs)):
                hit.append(e.id)
        return hit

    def fortification_of(self, b: Box) -> str | None:
        """The fortification the unit is in (its centre inside; SMOKE-TERR-8)."""
        if not self.forts:
            return None
        return self._remember(("fort", b), lambda: self._fortification_of(b))  # type: ignore[return-value]

    def _fortification_of(self, b: Box) -> str | None:
        for e in self.elements:
            if e.kind.fortification and shapely.contains_xy(e.shape, b.cx, b.cy):
                return e.id
        return None

    def fortification_touching(self, b: Box) -> list[str]:
        poly = box_polygon(b)
        return [e.id for e in self.elements if e.kind.fortification and e.grown.intersects(poly)]

    # -- lines of fire (SMOKE-GEO-12b, SMOKE-TERR-5) -------------------------------------------
    def view_blocker(self, k: Point, q: Point, strict: bool = False) -> str | None:
        """The blocks-view element that interrupts the line K -> q, if any. ``strict`` (GAP-B-08,
        the literal reading): any line from outside that enters X is blocked.

        Exact on the element's polygon: the segment is cut at every crossing of X's boundary, and each
        piece is inside X's interior when its midpoint is (a piece running along the boundary is not).
        """
        bb = (min(k[0], q[0]), min(k[1], q[1]), max(k[0], q[0]), max(k[1], q[1]))
        for e in self.blockers:
            if not _bb_hit(bb, e[1]):
                continue
            eid, _, ring = e
            if self._starts_inside(k, eid, ring):
                continue  # lines that start inside X are never blocked by X
            for t0, t1 in _inside_pieces(k, q, ring):
                length = (t1 - t0) * math.hypot(q[0] - k[0], q[1] - k[1])
                if length <= EPS:
                    continue
                if strict:
                    return eid
                end = (k[0] + t1 * (q[0] - k[0]), k[1] + t1 * (q[1] - k[1]))
                if _d2(end, q) > EPS * EPS:
                    return eid
        return None

    def _starts_inside(self, k: Point, eid: str, ring: Sequence[Point]) -> bool:
        return self._remember(("inside", k, eid),  # type: ignore[return-value]
                              lambda: point_in_ring(k, ring) and _ring_distance(k, ring) > EPS)

    def view_blocked(self, k: Point, qx: np.ndarray, qy: np.ndarray, strict: bool = False
                     ) -> tuple[np.ndarray, np.ndarray]:
        """``view_blocker(k, q, strict) is not None`` for every q = (qx[i], qy[i]) at once: (blocked, unsure).
        Where ``unsure`` is set the answer is not given (a crossing within 1e-12 of another, or a length or
        distance within 1e-12 of its threshold, where NumPy's ``hypot`` might differ from ``math.hypot`` in
        the last bit): ask ``view_blocker`` for those. Elsewhere the answer is ``view_blocker``'s."""
        kx, ky = k
        bx0, bx1 = np.minimum(kx, qx), np.maximum(kx, qx)
        by0, by1 = np.minimum(ky, qy), np.maximum(ky, qy)
        blocked = np.zeros(len(qx), dtype=bool)
        unsure = np.zeros(len(qx), dtype=bool)
        if not len(qx):
            return blocked, unsure
        # the box of all the lines: an element missing it misses every line's box
        every = (float(bx0.min()), float(by0.min()), float(bx1.max()), float(by1.max()))
        for eid, b, ring in self.blockers:
            if not _bb_hit(every, b):
                continue
            hit = (bx0 <= b[2] + EPS) & (b[0] <= bx1 + EPS) & (by0 <= b[3] + EPS) & (b[1] <= by1 + EPS) & ~blocked
            if not hit.any() or self._starts_inside(k, eid, ring):
                continue
            idx = np.nonzero(hit)[0]
            edges = convex_edges(ring)
            if edges is not None:  # a convex element: its chord answers most lines (domain/smoke/chords.py)
                blk, sure = chord_blocks(k, qx[idx], qy[idx], edges, strict)
                blocked[idx] |= blk
                idx = idx[~sure]
                if not len(idx):
                    continue
            blk, uns = _ring_blocks(k, qx[idx], qy[idx], ring, strict)
            blocked[idx] |= blk & ~uns
            unsure[idx] |= uns
        return blocked, unsure & ~blocked

    def has_view_blockers(self) -> bool:
        return any(e.kind.blocks_view for e in self.elements)


def _clear_of(piece: Sequence[Point], hull: Sequence[Point]) -> bool:
    """A convex piece is separated from a convex hull by a visible gap (a prefilter only)."""
    return len(hull) >= 3 and overlap_depth(piece, hull) < -1e-9


class Sweep:
    """The convex pieces of a swept area with their bounding boxes; Shapely polygons made on demand."""

    __slots__ = ("pieces", "bbs", "bb", "_polys")

    def __init__(self, pieces: Iterable[Sequence[Point]]):
        self.pieces = [p for p in pieces if len(p) >= 3]
        self.bbs = [_points_bb(p) for p in self.pieces]
        self.bb = _union_bb(self.bbs) if self.bbs else (0.0, 0.0, 0.0, 0.0)
        self._polys: dict[int, Polygon] = {}

    def polygon(self, i: int) -> Polygon:
        p = self._polys.get(i)
        if p is None:
            p = self._polys[i] = Polygon(self.pieces[i])
        return p


def _points_bb(pts: Sequence[Point]) -> tuple[float, float, float, float]:
    x0 = x1 = pts[0][0]
    y0 = y1 = pts[0][1]
    for x, y in pts:
        if x < x0:
            x0 = x
        elif x > x1:
            x1 = x
        if y < y0:
            y0 = y
        elif y > y1:
            y1 = y
    return (x0, y0, x1, y1)


_MISSING = object()
_MEMO_MAX = 1 << 16


def point_in_ring(p: Point, ring: Sequence[Point]) -> bool:
    """Even-odd rule (the boundary may go either way)."""
    x, y = p
    inside = False
    n = len(ring)
    for i in range(n):
        x1, y1 = ring[i]
        x2, y2 = ring[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xc > x:
                inside = not inside
    return inside


def _ring_distance(p: Point, ring: Sequence[Point]) -> float:
    n = len(ring)
    return min(point_segment_distance(p, ring[i], ring[(i + 1) % n]) for i in range(n))


def _inside_pieces(k: Point, q: Point, ring: Sequence[Point]) -> list[tuple[float, float]]:
    """The parameter intervals of segment k->q lying in the polygon's interior."""
    dx, dy = q[0] - k[0], q[1] - k[1]
    ts = [0.0, 1.0]
    n = len(ring)
    for i in range(n):
        a, b = ring[i], ring[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        den = dx * ey - dy * ex
        if abs(den) < 1e-15:
            continue
        t = ((a[0] - k[0]) * ey - (a[1] - k[1]) * ex) / den
        u = ((a[0] - k[0]) * dy - (a[1] - k[1]) * dx) / den
        if 0.0 < t < 1.0 and -1e-12 <= u <= 1 + 1e-12:
            ts.append(t)
    ts.sort()
    out: list[tuple[float, float]] = []
    for t0, t1 in zip(ts, ts[1:]):
        if t1 - t0 <= 1e-12:
            continue
        tm = (t0 + t1) / 2
        m = (k[0] + tm * dx, k[1] + tm * dy)
        if point_in_ring(m, ring) and _ring_distance(m, ring) > 1e-9:
            if out and abs(out[-1][1] - t0) <= 1e-12:
                out[-1] = (out[-1][0], t1)
            else:
                out.append((t0, t1))
    return out


@lru_cache(maxsize=1024)
def _ring_edges(ring: tuple) -> tuple[np.ndarray, ...]:
    """A ring's edges as arrays (start x, start y, end x, end y, and their differences x2 - x1, y2 - y1), in the
    ring's order: the numbers ``_ring_blocks`` reads edge by edge, read at once."""
    n = len(ring)
    x1 = np.array([ring[i][0] for i in range(n)])
    y1 = np.array([ring[i][1] for i in range(n)])
    x2 = np.array([ring[(i + 1) % n][0] for i in range(n)])
    y2 = np.array([ring[(i + 1) % n][1] for i in range(n)])
    out = (x1, y1, x2, y2, x2 - x1, y2 - y1)
    for a in out:
        a.flags.writeable = False
    return out


@lru_cache(maxsize=1024)
def _ring_lengths(ring: tuple) -> np.ndarray:
    """The length of each edge of a ring (``math.hypot``), in the ring's order."""
    n = len(ring)
    out = np.array([math.hypot(ring[(i + 1) % n][0] - ring[i][0], ring[(i + 1) % n][1] - ring[i][1])
                    for i in range(n)])
    out.flags.writeable = False
    return out


def _ring_blocks(k: Point, qx: np.ndarray, qy: np.ndarray, ring: Sequence[Point], strict: bool
                 ) -> tuple[np.ndarray, np.ndarray]:
    """For every q: does a piece of k->q inside the ring block the view (``view_blocker``'s test for one
    element, with ``_inside_pieces`` done on arrays: the same operations elementwise), and is the answer
    unsure (see ``Terrain.view_blocked``). Every edge of the ring is taken at once (a last axis of edges):
    each element is still the same floating-point operations as the one-edge-at-a-time loop."""
    kx, ky = k
    dx, dy = qx - kx, qy - ky
    m = len(qx)
    X1, Y1, _, Y2, EX, EY = _ring_edges(tuple(ring))
    with np.errstate(divide="ignore", invalid="ignore"):
        # the crossings of every line with every edge (rows: lines, columns: edges)
        den = dx[:, None] * EY - dy[:, None] * EX
        ax, ay = X1 - kx, Y1 - ky
        t = (ax * EY - ay * EX) / den
        u = (ax * dy[:, None] - ay * dx[:, None]) / den
        ok = (np.abs(den) >= 1e-15) & (0.0 < t) & (t < 1.0) & (-1e-12 <= u) & (u <= 1 + 1e-12)
        crossed = ok.any(axis=0)  # an edge no line crosses adds nothing but +inf
        ts = np.sort(np.concatenate([np.zeros((m, 1)), np.ones((m, 1)), np.where(ok, t, np.inf)[:, crossed]], axis=1),
                     axis=1)
        t0, t1 = ts[:, :-1], ts[:, 1:]
        real = np.isfinite(t1)
        tiny = real & (t1 - t0 <= 1e-12)
        unsure = tiny.any(axis=1)
        tm = (t0 + t1) / 2
        px = kx + tm * dx[:, None]
        py = ky + tm * dy[:, None]
        # point_in_ring (even-odd) of every midpoint: the parity of the edges crossed (a last axis of edges)
        P, Q = px[..., None], py[..., None]
        cross = (Y1 > Q) != (Y2 > Q)
        xc = X1 + (Q - Y1) * EX / EY
        inside = np.logical_xor.reduce(cross & (xc > P), axis=2)
        inside &= real
        # and _ring_distance > 1e-9: sure where the midpoint is farther than 2e-9 from every edge's line (a
        # segment is never nearer than its line); else the distance to the segments, as _ring_distance
        if inside.any():
            Px, Qy = P - X1, Q - Y1
            LEN = _ring_lengths(tuple(ring))
            clear = np.where(LEN > 0.0, np.abs(Px * EY - Qy * EX) > 2e-9 * LEN, np.hypot(Px, Qy) > 2e-9).all(axis=2)
            near = inside & ~clear
            if near.any():
                L2 = EX * EX + EY * EY
                s = (Px * EX + Qy * EY) / L2
                s = np.where(s < 0.0, 0.0, np.where(s > 1.0, 1.0, s))
                d = np.where(L2 <= 0.0, np.hypot(Px, Qy), np.hypot(Px - s * EX, Qy - s * EY))
                rd = np.minimum(np.inf, d.min(axis=2))
                unsure |= (near & (np.abs(rd - 1e-9) <= 1e-12)).any(axis=1)
                inside &= clear | (rd > 1e-9)
        is_in = inside & ~tiny
        # merged pieces: runs of inside intervals; each ends where the next interval is not inside
        nxt = np.zeros_like(is_in)
        nxt[:, :-1] = is_in[:, 1:]
        prv = np.zeros_like(is_in)
        prv[:, 1:] = is_in[:, :-1]
        ends = is_in & ~nxt
        first = np.where(is_in & ~prv, np.arange(is_in.shape[1]), 0)
        start = np.take_along_axis(t0, np.maximum.accumulate(first, axis=1), axis=1)
        length = (t1 - start) * np.hypot(dx, dy)[:, None]
        unsure |= (ends & (np.abs(length - EPS) <= 1e-12)).any(axis=1)
        long = ends & (length > EPS)
        if strict:
            return long.any(axis=1), unsure
        d2 = (kx + t1 * dx[:, None] - qx[:, None]) ** 2 + (ky + t1 * dy[:, None] - qy[:, None]) ** 2
        unsure |= (long & (np.abs(d2 - EPS * EPS) <= 1e-15)).any(axis=1)
        return (long & (d2 > EPS * EPS)).any(axis=1), unsure


def _d2(a, b) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _bb_hit(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] <= b[2] + EPS and b[0] <= a[2] + EPS and a[1] <= b[3] + EPS and b[1] <= a[3] + EPS


def _union_bb(bbs) -> tuple[float, float, float, float]:
    bbs = list(bbs)
    return (min(b[0] for b in bbs), min(b[1] for b in bbs), max(b[2] for b in bbs), max(b[3] for b in bbs))


class _ThreadTerrains(threading.local):
    """The terrains built in one thread. GEOS's prepared geometries are not thread-safe (their indexes are built
    lazily on first use, and Shapely releases the GIL while GEOS runs: libgeos/geos#825), so a prepared
    geometry never crosses threads: each thread (the event loop, a request's worker thread, a bot seat) indexes
    a terrain layout for itself."""

    def __init__(self) -> None:
        self.cache: dict[tuple, Terrain] = {}
        #: The last (elements, kinds, terrain) asked for: the states of one game share their terrain tuples, so
        #: most calls are answered by identity, without hashing every element.
        self.last: tuple = (None, None, None)


_terrains = _ThreadTerrains()


def terrain_of(elements: tuple[TerrainElement, ...], kinds: tuple[TerrainKind, ...]) -> Terrain:
    """The indexed terrain of a battle (built once per terrain layout in each thread)."""
    mine = _terrains
    last = mine.last
    if last[0] is elements and last[1] is kinds:
        return last[2]
    key = (elements, kinds)
    t = mine.cache.get(key)
    if t is None:
        if len(mine.cache) > 64:
            mine.cache.clear()
        t = mine.cache[key] = Terrain(elements, {k.id: k for k in kinds})
    mine.last = (elements, kinds, t)
    return t


__all__ = ["Terrain", "terrain_of", "box_polygon", "SPoint"]
