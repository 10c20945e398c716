"""Many segments from one point against one convex polygon's interior, at once (SMOKE-GEO-12a on arrays).

``segments_meet_interior(a, qx, qy, poly)`` is ``geometry.segment_meets_interior(a, q, poly)`` for every
q = (qx[i], qy[i]): the Cyrus-Beck clip of the segment against the polygon shrunk by ``margin``. Every edge is taken
at once (a last axis of edges): each element is the same floating-point operations on the same operands as in the
one-line loop, and the entering and leaving parameters are the maximum and minimum over the edges, which is what
the loop's running ``t0`` and ``t1`` end as (a maximum and a minimum are exact). The loop's early "no" (``t0 >= t1``,
or a segment parallel to an edge and outside it) leaves ``t1 - t0 > 1e-12`` false or is kept as ``parallel_out``,
so the answers are the same. ``tests/smoke/test_search_oracle.py`` compares it with the edge-by-edge version and
with the one-line test.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from .geometry import EPS, Point


@lru_cache(maxsize=4096)
def _edges(poly: tuple) -> tuple[np.ndarray, ...]:
    """A polygon's edges as arrays, in its order: start x, start y, x2 - x1, y2 - y1, length (``math.hypot``), and
    whether the edge has a length (an edge of none is skipped, as in the loop)."""
    n = len(poly)
    px = np.array([poly[i][0] for i in range(n)])
    py = np.array([poly[i][1] for i in range(n)])
    ex = np.array([poly[(i + 1) % n][0] - poly[i][0] for i in range(n)])
    ey = np.array([poly[(i + 1) % n][1] - poly[i][1] for i in range(n)])
    length = np.array([math.hypot(poly[(i + 1) % n][0] - poly[i][0], poly[(i + 1) % n][1] - poly[i][1])
                       for i in range(n)])
    out = (px, py, ex, ey, length, length > 0.0)
    for a in out:
        a.flags.writeable = False
    return out


def segments_meet_interior(a: Point, qx: np.ndarray, qy: np.ndarray, poly: Sequence[Point], margin: float = EPS
                           ) -> np.ndarray:
    """``segment_meets_interior(a, q, poly, margin)`` for every q = (qx[i], qy[i]) (NumPy arrays)."""
    px, py, ex, ey, length, edge = _edges(tuple(poly))
    dx, dy = (qx - a[0])[:, None], (qy - a[1])[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        num = (ex * (a[1] - py) - ey * (a[0] - px)) / length - margin  # per edge
        den = (ex * dy - ey * dx) / length  # per segment and edge
        flat = edge & (np.abs(den) < 1e-15)
        t = -num / den
        enter = edge & ~flat & (den > 0)
        leave = edge & ~flat & ~(den > 0)
        t0 = np.maximum(np.where(enter, t, -np.inf).max(axis=1), 0.0)
        t1 = np.minimum(np.where(leave, t, np.inf).min(axis=1), 1.0)
    parallel_out = (flat & (num <= 0.0)).any(axis=1)
    return ~parallel_out & (t1 - t0 > 1e-12)
