"""The chord a line cuts through a convex blocks-view element, for many lines at once (SMOKE-GEO-12b).

``Terrain.view_blocker`` (the rule's test, one line at a time) cuts the line K -> q at every crossing of the
element's boundary and keeps the pieces whose midpoint is inside, farther than 1e-9 UW from the boundary; a
merged piece longer than EPS blocks the view (in the game's usual reading only when it ends farther than EPS
from q: a target seen into the element). Done on arrays (``terrain._ring_blocks``) that costs some sixty array
operations for each element a batch of lines meets.

When the element is convex its inside along a line is one interval, the chord [a, b] (clipped to the segment),
which the half-planes of its edges give directly (Cyrus-Beck): a few array operations. ``chord_blocks`` answers
from the chord only where every number it compares lies farther than ``MARGIN`` from its threshold, and leaves
every other line unanswered (``sure`` False) for the exact test:

- the chord (of the element grown by 1e-10 UW, so that it holds the exact chord whatever the rounding) shorter
  than EPS - MARGIN: every piece the one test keeps lies in the exact chord, none is longer than EPS, nothing
  blocks;
- otherwise, when the chord's midpoint lies deeper than MARGIN inside the element, the one test's pieces are the
  chord itself (the only crossings of a convex boundary are the chord's two ends; crossings the test finds just
  beyond an edge's end are within 1e-12 UW of a vertex, at an end of the chord, and a piece between two of them
  is not inside), so its merged piece is the chord within far less than MARGIN: it blocks when the chord is
  longer than EPS + MARGIN (and, in the usual reading, ends more than EPS + MARGIN before q), and does not when
  it is shorter than EPS - MARGIN (or ends within EPS - MARGIN of q).

MARGIN (1e-3 UW, a tenth of EPS) is far above the rounding of either computation: a depth is rounded by about
1e-13 UW on a table some 60 UW wide; a chord end is moved by that, and by the growth of 1e-10 UW, over the sine
of the angle between the line and the edge that ends it, and with the midpoint MARGIN deep that sine is at least
MARGIN / 60: under 1e-5 UW in all. ``tests/smoke/test_search_oracle.py`` compares the sure answers with the
one-line test on lines around convex and other elements and in random games.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .geometry import EPS

#: How far from its threshold every compared number must be for ``chord_blocks`` to answer (UW).
MARGIN = 1e-3
#: The chord is taken of the element grown by this much (UW): then it holds the exact chord whatever the rounding
#: (about 1e-13 UW in a depth), and it is longer than the exact chord by at most this over the sine of the angle of
#: the line with an edge that ends it (with the midpoint MARGIN deep, at least MARGIN / 60: under 1e-5 UW).
_GROWN = 1e-10
#: A vertex nearer than this to the line of an edge it is not on: the element is not taken as convex (UW).
_FLAT = 1e-6


@lru_cache(maxsize=1024)
def convex_edges(ring: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The inward half-planes of a strictly convex ring as arrays (GX, GY, C: the depth of a point p inside the
    edge's line is GX * p.x + GY * p.y + C, in UW), or None when the ring is not strictly convex (a vertex within
    ``_FLAT`` of another edge's line or on its outer side, or an edge of no length)."""
    n = len(ring)
    if n < 3:
        return None
    area2 = sum(ring[i][0] * ring[(i + 1) % n][1] - ring[(i + 1) % n][0] * ring[i][1] for i in range(n))
    if area2 == 0.0:
        return None
    sign = 1.0 if area2 > 0 else -1.0  # counter-clockwise: the inside is on the left of each edge
    gx, gy, c = [], [], []
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        length = math.hypot(x2 - x1, y2 - y1)
        if length <= 0.0:
            return None
        ax, ay = -sign * (y2 - y1) / length, sign * (x2 - x1) / length
        off = -(ax * x1 + ay * y1)
        if any(ax * x + ay * y + off <= _FLAT for j, (x, y) in enumerate(ring) if j != i and j != (i + 1) % n):
            return None
        gx.append(ax)
        gy.append(ay)
        c.append(off)
    out = (np.array(gx), np.array(gy), np.array(c))
    for a in out:
        a.flags.writeable = False
    return out


def chord_blocks(k, qx: np.ndarray, qy: np.ndarray, edges: tuple[np.ndarray, np.ndarray, np.ndarray],
                 strict: bool) -> tuple[np.ndarray, np.ndarray]:
    """For every line k -> (qx[i], qy[i]) and a convex element (``convex_edges``) whose inside k does not start in
    (``Terrain.view_blocker`` skips those): (blocked, sure). Where ``sure`` is set, ``blocked`` is the one-line
    test's answer for this element (see the module's text); elsewhere it is False and the line must be asked of
    the exact test."""
    gx, gy, c = edges
    kx, ky = k
    dx, dy = qx - kx, qy - ky
    depth_k = gx * kx + gy * ky + c  # per edge
    grown = depth_k + _GROWN
    rate = dx[:, None] * gx + dy[:, None] * gy  # per line and edge: the depth's change from k to q
    with np.errstate(divide="ignore", invalid="ignore"):
        cut = -grown / rate
        t_in = np.where(rate > 0.0, cut, -np.inf).max(axis=1)
        t_out = np.where(rate < 0.0, cut, np.inf).min(axis=1)
    # a line parallel to an edge, on its outer side, has no chord
    apart = ((rate == 0.0) & (grown < 0.0)).any(axis=1)
    a = np.maximum(t_in, 0.0)
    b = np.minimum(t_out, 1.0)
    length = np.hypot(dx, dy)
    chord = np.where(apart, -1.0, (b - a) * length)
    mid = ((a + b) / 2)[:, None] * rate + depth_k
    deep = ~apart & (mid.min(axis=1) > MARGIN) & (length > MARGIN)
    none = chord < EPS - MARGIN
    long = deep & (chord > EPS + MARGIN)
    if strict:
        return long, none | long
    gap = (1.0 - b) * length  # from the chord's end to q
    blocked = long & (gap > EPS + MARGIN)
    return blocked, none | blocked | (deep & (gap < EPS - MARGIN))
