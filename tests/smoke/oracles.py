"""The engine's searches as they were written first, one candidate or one pair at a time: slow, plain
oracles for the fast versions in ``domain/smoke`` (``tests/smoke/test_search_oracle.py``).

``column_spot``: every candidate place in order, each tested with ``deployment._Room.fits``.
``fire_contacts``: every pair of enemy units, each tested with ``fire.fire_contact``.
``corner_lines``: every candidate line of a front corner in order, each tested alone (``fire._line_hit``).
``hit_groups``: every attacker's distance to every receiver (``battle._hit_groups`` skips the far ones).
``ring_blocks``: the blocks-view test of many lines against one element's ring, one edge at a time
(``terrain._ring_blocks`` takes every edge at once).
``segments_meet_interior``: many segments against one polygon, one edge at a time (``segments_at_once`` takes
every edge at once).
``ring_blocker``: the blocks-view test of one line against one element (``Terrain.view_blocker``'s test for one
element; ``chords.chord_blocks`` answers many lines at once from a convex element's chord).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from domain.smoke.battle import _dist
from domain.smoke.commanders import own_edge
from domain.smoke.deployment import COLUMN_RADIUS, FACING_TO, _column_of, _Room
from domain.smoke.fire import _line_hit, _poly_bb, _r, fire_contact
from domain.smoke.formations import touching
from domain.smoke.geometry import EPS, Box, Point, candidate_points, dist
from domain.smoke.terrain import _inside_pieces


def ring_spots(mx: float, my: float, facing: float, w: float, d: float):
    for k in range(0, 17):
        r = 0.1 * k
        steps = max(1, int(2 * math.pi * r / 0.15))
        for i in range(steps):
            a = 2 * math.pi * i / steps
            p = (round(mx + r * math.cos(a), 3), round(my + r * math.sin(a), 3))
            for f in (facing, (facing + 90) % 360, (facing + 180) % 360, (facing + 270) % 360):
                b = Box(p[0], p[1], f, w, d)
                if max(dist((mx, my), c) for c in b.corners()) > COLUMN_RADIUS + EPS:
                    continue
                yield (p, f, b)


def column_spot(st, seat: str, uid: str):
    u = st.reserve[uid]
    facing = FACING_TO[own_edge(st, seat)]
    n = _column_of(st, uid)
    marker = next((m for m in st.deployment.markers if m.seat == seat and m.number == n), None)
    if marker is None:
        return None
    room = _Room(st, [o for o in st.units.values() if abs(o.x - marker.x) < 4 and abs(o.y - marker.y) < 4])
    for p, f, b in ring_spots(marker.x, marker.y, facing, u.w, u.d):
        if room.fits(b):
            return p, f
    return None


def fire_contacts(state):
    units = sorted(state.units.values(), key=lambda u: u.id)
    out = []
    for i, a in enumerate(units):
        for b in units[i + 1:]:
            if state.enemy(a, b):
                m = fire_contact(state, a, b)
                if m is not None:
                    out.append((a.id, b.id, m))
    return out


def corner_lines(out, ub, part, blockers, terrain, strict):
    check_terrain = terrain.has_view_blockers()
    cands = candidate_points(part)
    lines = {}
    boxed = [(bid, poly, _poly_bb(poly)) for bid, poly in blockers]
    for name, k in (("FL", ub.FL), ("FR", ub.FR)):
        found = None
        why = None
        for q in cands:
            hit = _line_hit(k, q, blockers, boxed, terrain, check_terrain, strict)
            if hit is None:
                found = q
                break
            why = why or hit
        lines[name] = {"from": _r(k), "blocked_by": why} if found is None else {"from": _r(k), "to": _r(found)}
    out["lines"] = lines
    out["candidates"] = len(cands)
    if all("to" in v for v in lines.values()):
        out["ok"] = True
        out["rule"] = "SMOKE-LOF-2"
    else:
        out.update(reason="a front corner has no clear line", rule="SMOKE-GEO-11")
    return out


def hit_groups(state, receivers, attackers):
    """SMOKE-HIT-3, SMOKE-GEO-20: (key, unit, nearest enemy) grouped by key (equal within EPS), nearest first."""
    keyed = []
    for u in receivers:
        best = None
        for a in attackers:
            d = 0.0 if touching(state, u, a) else _dist(u, a)
            if best is None or d < best[0]:
                best = (d, a.id)
        keyed.append((best[0] if best else float("inf"), u.id, best[1] if best else None))
    keyed.sort()
    out = []
    i = 0
    while i < len(keyed):
        j = i
        while j + 1 < len(keyed) and keyed[j + 1][0] - keyed[i][0] <= EPS:
            j += 1
        out.append(sorted(keyed[i:j + 1], key=lambda k: k[1]))
        i = j + 1
    return out


def ring_blocks(k: Point, qx: np.ndarray, qy: np.ndarray, ring: Sequence[Point], strict: bool
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``terrain._ring_blocks`` as it was written first, one edge of the ring at a time."""
    kx, ky = k
    dx, dy = qx - kx, qy - ky
    m = len(qx)
    n = len(ring)
    with np.errstate(divide="ignore", invalid="ignore"):
        cols = [np.zeros(m), np.ones(m)]
        for i in range(n):
            a, b = ring[i], ring[(i + 1) % n]
            ex, ey = b[0] - a[0], b[1] - a[1]
            den = dx * ey - dy * ex
            t = ((a[0] - kx) * ey - (a[1] - ky) * ex) / den
            u = ((a[0] - kx) * dy - (a[1] - ky) * dx) / den
            ok = (np.abs(den) >= 1e-15) & (0.0 < t) & (t < 1.0) & (-1e-12 <= u) & (u <= 1 + 1e-12)
            if ok.any():  # an edge no line crosses adds nothing but +inf
                cols.append(np.where(ok, t, np.inf))
        ts = np.sort(np.stack(cols, axis=1), axis=1)
        t0, t1 = ts[:, :-1], ts[:, 1:]
        real = np.isfinite(t1)
        tiny = real & (t1 - t0 <= 1e-12)
        unsure = tiny.any(axis=1)
        tm = (t0 + t1) / 2
        px = kx + tm * dx[:, None]
        py = ky + tm * dy[:, None]
        # point_in_ring (even-odd) of every midpoint
        inside = np.zeros(px.shape, dtype=bool)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
            cross = (y1 > py) != (y2 > py)
            xc = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
            inside ^= cross & (xc > px)
        inside &= real
        # and _ring_distance > 1e-9: sure where the midpoint is farther than 2e-9 from every edge's line (a
        # segment is never nearer than its line); else the distance to the segments, as _ring_distance
        if inside.any():
            clear = np.ones(px.shape, dtype=bool)
            for i in range(n):
                (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
                ex, ey = x2 - x1, y2 - y1
                L = math.hypot(ex, ey)
                if L > 0.0:
                    clear &= np.abs((px - x1) * ey - (py - y1) * ex) > 2e-9 * L
                else:
                    clear &= np.hypot(px - x1, py - y1) > 2e-9
            near = inside & ~clear
            if near.any():
                rd = np.full(px.shape, np.inf)
                for i in range(n):
                    (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
                    ex, ey = x2 - x1, y2 - y1
                    L2 = ex * ex + ey * ey
                    if L2 <= 0.0:
                        d = np.hypot(px - x1, py - y1)
                    else:
                        s = ((px - x1) * ex + (py - y1) * ey) / L2
                        s = np.where(s < 0.0, 0.0, np.where(s > 1.0, 1.0, s))
                        d = np.hypot(px - x1 - s * ex, py - y1 - s * ey)
                    rd = np.minimum(rd, d)
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


def ring_blocker(k: Point, q: Point, ring: Sequence[Point], strict: bool) -> bool:
    """``Terrain.view_blocker``'s test of the line k -> q against one element's ring (SMOKE-GEO-12b), for a k that
    does not start inside it: a merged inside piece longer than EPS (in the usual reading, ending farther than EPS
    from q)."""
    for t0, t1 in _inside_pieces(k, q, ring):
        if (t1 - t0) * math.hypot(q[0] - k[0], q[1] - k[1]) <= EPS:
            continue
        if strict:
            return True
        end = (k[0] + t1 * (q[0] - k[0]), k[1] + t1 * (q[1] - k[1]))
        if (end[0] - q[0]) ** 2 + (end[1] - q[1]) ** 2 > EPS * EPS:
            return True
    return False


def segments_meet_interior(a: Point, qx, qy, poly: Sequence[Point], margin: float = EPS):
    """``segment_meets_interior(a, q, poly, margin)`` for every q = (qx[i], qy[i]) (NumPy arrays): the same
    operations elementwise, so the same answers."""
    dx, dy = qx - a[0], qy - a[1]
    t0 = np.zeros(len(qx))
    t1 = np.ones(len(qx))
    alive = np.ones(len(qx), dtype=bool)
    n = len(poly)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n):
            p, q = poly[i], poly[(i + 1) % n]
            ex, ey = q[0] - p[0], q[1] - p[1]
            L = math.hypot(ex, ey)
            if L <= 0.0:
                continue
            num = (ex * (a[1] - p[1]) - ey * (a[0] - p[0])) / L - margin
            den = (ex * dy - ey * dx) / L
            flat = np.abs(den) < 1e-15
            if num <= 0.0:
                alive &= ~flat
            t = -num / den
            enter = ~flat & (den > 0)
            leave = ~flat & ~(den > 0)
            t0 = np.where(enter & (t > t0), t, t0)
            t1 = np.where(leave & (t < t1), t, t1)
    return alive & (t1 - t0 > 1e-12)
