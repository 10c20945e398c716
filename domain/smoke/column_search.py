"""The free places around a column marker, all tested at once (SMOKE-DEP-4's example spot).

``first_free`` answers "the first candidate place, in search order, that is on the table and overlaps
no unit" for the fixed candidate list of a marker: rings 0.1 UW apart out to 1.6 UW, points about
0.15 UW apart on each ring, four facings at each point, kept when the whole unit lies within
``radius`` of the marker. The answer is the one a one-by-one test of every candidate in order gives,
bit for bit: every number is computed with the same floating-point operations in the same order as
the scalar predicates of :mod:`domain.smoke.geometry` (``Box`` corners, ``box_overlap_depth``,
``point_box_distance``), only on arrays (NumPy's elementwise ``+ - * / abs`` are the IEEE operations
Python's floats use). The two steps that are not plain arithmetic are made exact the same way:
Python's ``round(x, 3)`` is reproduced by ``rint(x * 1000) / 1000`` except within 1e-6 of a half
(those few go through ``round``), and ``math.hypot`` is re-taken in Python for the corners whose
NumPy distance lies within 1e-9 of the radius. ``tests/smoke/test_search_oracle.py`` compares it with
the one-by-one search on every deployment of many random games.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .geometry import EPS, Box, _frame, dist

#: The rings of the search (SMOKE-DEP-4 example): radius 0.1 k for k = 0..16, about 0.15 UW between points.
RINGS = 17
RING_STEP = 0.1
POINT_STEP = 0.15


def _offsets() -> tuple[np.ndarray, np.ndarray]:
    xs: list[float] = []
    ys: list[float] = []
    for k in range(RINGS):
        r = RING_STEP * k
        steps = max(1, int(2 * math.pi * r / POINT_STEP))
        for i in range(steps):
            a = 2 * math.pi * i / steps
            xs.append(r * math.cos(a))
            ys.append(r * math.sin(a))
    return np.array(xs), np.array(ys)


_OFF_X, _OFF_Y = _offsets()


def _round3(v: np.ndarray) -> np.ndarray:
    """Python's ``round(x, 3)`` for every element (see the module's docstring)."""
    t = v * 1000.0
    k = np.rint(t)
    out = k / 1000.0
    frac = t - np.floor(t)
    for i in np.nonzero(np.abs(frac - 0.5) < 1e-6)[0]:
        out[i] = round(float(v[i]), 3)
    return out


class Candidates:
    """The candidate boxes of one marker, facing and base size, in search order (NumPy arrays)."""

    def __init__(self, mx: float, my: float, facing: float, w: float, d: float, radius: float):
        px = _round3(mx + _OFF_X)
        py = _round3(my + _OFF_Y)
        self.facings = (facing, (facing + 90) % 360, (facing + 180) % 360, (facing + 270) % 360)
        n = len(px)
        # in search order: point by point, the four facings at each point
        cx = np.repeat(px, 4)
        cy = np.repeat(py, 4)
        fi = np.tile(np.arange(4), n)
        hd, hw = d / 2, w / 2
        fr = [_frame(t) for t in self.facings]
        # the four corners as Box.corners computes them: (cx + hd*fx) -/+ hw*lx ...
        s_fx = np.array([hd * f[0][0] for f in fr])[fi]
        s_fy = np.array([hd * f[0][1] for f in fr])[fi]
        s_lx = np.array([hw * f[1][0] for f in fr])[fi]
        s_ly = np.array([hw * f[1][1] for f in fr])[fi]
        xs = np.stack([cx + s_fx - s_lx, cx + s_fx + s_lx, cx - s_fx + s_lx, cx - s_fx - s_lx])
        ys = np.stack([cy + s_fy - s_ly, cy + s_fy + s_ly, cy - s_fy + s_ly, cy - s_fy - s_ly])
        # wholly within the radius: max corner distance <= radius + EPS (math.hypot where it is close)
        far = np.hypot(mx - xs, my - ys).max(axis=0)
        limit = radius + EPS
        keep = far <= limit
        for i in np.nonzero(np.abs(far - limit) <= 1e-9)[0]:
            b = Box(float(cx[i]), float(cy[i]), self.facings[fi[i]], w, d)
            keep[i] = not max(dist((mx, my), c) for c in b.corners()) > limit
        self.cx, self.cy, self.fi = cx[keep], cy[keep], fi[keep]
        self.x0, self.x1 = xs.min(axis=0)[keep], xs.max(axis=0)[keep]
        self.y0, self.y1 = ys.min(axis=0)[keep], ys.max(axis=0)[keep]
        self.w, self.d = w, d
        self.frames = fr
        # each candidate's own forward and left axes (for the overlap test)
        self.nx0, self.ny0 = (np.array([f[0][0] for f in fr])[self.fi], np.array([f[0][1] for f in fr])[self.fi])
        self.nx1, self.ny1 = (np.array([f[1][0] for f in fr])[self.fi], np.array([f[1][1] for f in fr])[self.fi])
        self.bounds = ((float(self.x0.min()), float(self.y0.min()), float(self.x1.max()), float(self.y1.max()))
                       if len(self.cx) else (math.inf, math.inf, -math.inf, -math.inf))
        for a in (self.cx, self.cy, self.fi, self.x0, self.x1, self.y0, self.y1, self.nx0, self.ny0, self.nx1, self.ny1):
            a.flags.writeable = False  # shared by every search of this marker (and thread)

    def __len__(self) -> int:
        return len(self.cx)

    def spot(self, i: int) -> tuple[tuple[float, float], float, Box]:
        p = (float(self.cx[i]), float(self.cy[i]))
        f = self.facings[int(self.fi[i])]
        return p, f, Box(p[0], p[1], f, self.w, self.d)

    def first_free(self, boxes: list[Box], W: float, H: float, accept=None, start: int = 0) -> int | None:
        """The index of the first candidate from ``start`` on the table ([0, W] x [0, H], 1e-9 slack),
        overlapping none of ``boxes`` (SMOKE-GEO-4) and passing ``accept(index)``, if any: decided for each
        unit exactly as ``deployment._Room.fits`` does (bounding boxes apart: no overlap; the candidate's
        centre strictly inside the unit: overlap; else ``box_overlap_depth > EPS``). Chunks of candidates
        are tested against all units at once (candidates x units arrays), in order, until one is free."""
        # a unit whose bounding box misses every candidate's can overlap none of them
        bx0, by0, bx1, by1 = self.bounds
        units = [_unit_terms(ob, self.facings, self.w, self.d) for ob in boxes
                 if not (bx1 < ob.bbox()[0] or ob.bbox()[2] < bx0 or by1 < ob.bbox()[1] or ob.bbox()[3] < by0)]
        if units:
            cols = list(zip(*units))
            ox, oy, a0, b0, a1, b1, gx, gy, hx, hy, od2, ow2, ins = (np.array(c) for c in cols[:13])
            # per axis, a (facing, unit) table of ra + rb (-inf where 2 ra or 2 rb is not above EPS)
            s0, s1, s2, s3 = (np.array(c).T.copy() for c in cols[13:17])
        n = len(self.cx)
        lo = start
        size = 64
        while lo < n:
            hi = min(n, lo + size)
            size *= 4
            cx, cy, fi = self.cx[lo:hi, None], self.cy[lo:hi, None], self.fi[lo:hi]
            x0, y0, x1, y1 = self.x0[lo:hi], self.y0[lo:hi], self.x1[lo:hi], self.y1[lo:hi]
            free = ~((x0 < -1e-9) | (y0 < -1e-9) | (x1 > W + 1e-9) | (y1 > H + 1e-9))
            if units:
                near = ~((x1[:, None] < a0) | (a1 < x0[:, None]) | (y1[:, None] < b0) | (b1 < y0[:, None]))
                dx, dy = ox - cx, oy - cy
                p2 = np.abs(dx * gx + dy * gy)
                p3 = np.abs(dx * hx + dy * hy)
                # the centre strictly inside the unit: point_box_distance == 0 (its q is -(dx, dy))
                inside = ins & (a0 < cx) & (cx < a1) & (b0 < cy) & (cy < b1) & (p2 - od2 <= 0.0) & (p3 - ow2 <= 0.0)
                # box_overlap_depth > EPS: each of the four axes overlaps by more than EPS
                deep = ((np.take(s2, fi, axis=0) - p2 > EPS) & (np.take(s3, fi, axis=0) - p3 > EPS)
                        & (np.take(s0, fi, axis=0) - np.abs(dx * self.nx0[lo:hi, None] + dy * self.ny0[lo:hi, None]) > EPS)
                        & (np.take(s1, fi, axis=0) - np.abs(dx * self.nx1[lo:hi, None] + dy * self.ny1[lo:hi, None]) > EPS))
                free &= ~(near & (inside | deep)).any(axis=1)
            for i in np.nonzero(free)[0]:
                if accept is None or accept(lo + int(i)):
                    return lo + int(i)
            lo = hi
        return None


@lru_cache(maxsize=4096)
def _unit_terms(ob: Box, facings: tuple[float, ...], w: float, d: float) -> tuple:
    """What ``box_overlap_depth(candidate, ob)`` needs of unit ``ob`` for candidates of base w x d and each
    of ``facings``: per axis (the candidate's forward and left, the unit's forward and left) and facing,
    ``ra + rb``, or -inf unless ``2 ra > EPS and 2 rb > EPS`` (the same expressions, so the same floats)."""
    a0, b0, a1, b1 = ob.bbox()
    (gx, gy), (hx, hy) = _frame(ob.theta)
    sums: list[list[float]] = [[], [], [], []]
    for t in facings:
        fa, la = _frame(t)
        for axis, nv in enumerate((fa, la, (gx, gy), (hx, hy))):
            ra = d / 2 * abs(fa[0] * nv[0] + fa[1] * nv[1]) + w / 2 * abs(la[0] * nv[0] + la[1] * nv[1])
            rb = ob.d / 2 * abs(gx * nv[0] + gy * nv[1]) + ob.w / 2 * abs(hx * nv[0] + hy * nv[1])
            sums[axis].append(ra + rb if 2 * ra > EPS and 2 * rb > EPS else -math.inf)
    ins = min(w, d) > 2 * EPS and min(ob.w, ob.d) > EPS
    return (ob.cx, ob.cy, a0, b0, a1, b1, gx, gy, hx, hy, ob.d / 2, ob.w / 2, ins, *sums)


@lru_cache(maxsize=64)  # about 160 KB each
def candidates(mx: float, my: float, facing: float, w: float, d: float, radius: float) -> Candidates:
    return Candidates(mx, my, facing, w, d, radius)
