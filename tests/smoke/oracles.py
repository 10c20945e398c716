"""The engine's searches as they were written first, one candidate or one pair at a time: slow, plain
oracles for the fast versions in ``domain/smoke`` (``tests/smoke/test_search_oracle.py``).

``column_spot``: every candidate place in order, each tested with ``deployment._Room.fits``.
``fire_contacts``: every pair of enemy units, each tested with ``fire.fire_contact``.
``corner_lines``: every candidate line of a front corner in order, each tested alone (``fire._line_hit``).
``hit_groups``: every attacker's distance to every receiver (``battle._hit_groups`` skips the far ones).
"""
from __future__ import annotations

import math

from domain.smoke.battle import _dist
from domain.smoke.commanders import own_edge
from domain.smoke.deployment import COLUMN_RADIUS, FACING_TO, _column_of, _Room
from domain.smoke.fire import _line_hit, _poly_bb, _r, fire_contact
from domain.smoke.formations import touching
from domain.smoke.geometry import EPS, Box, candidate_points, dist


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
