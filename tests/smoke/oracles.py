"""The engine's searches as they were written first, one candidate or one pair at a time: slow, plain
oracles for the fast versions in ``domain/smoke`` (``tests/smoke/test_search_oracle.py``).

``column_spot``: every candidate place in order, each tested with ``deployment._Room.fits``.
``fire_contacts``: every pair of enemy units, each tested with ``fire.fire_contact``.
"""
from __future__ import annotations

import math

from domain.smoke.commanders import own_edge
from domain.smoke.deployment import COLUMN_RADIUS, FACING_TO, _column_of, _Room
from domain.smoke.fire import fire_contact
from domain.smoke.geometry import EPS, Box, dist


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
