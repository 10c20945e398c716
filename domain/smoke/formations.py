"""Contacts and formations (SMOKE-FORM, SMOKE-GEO-5/6/7/13, SMOKE-TERR-8, SMOKE-MP-2).

A formation is a connected component of the graph "edge contact, same player, same terrain
context"; corner contact alone links nothing, and Irregular units are always alone
(SMOKE-SR-16). Formations are recomputed from positions whenever a rule asks (SMOKE-FORM-4).
"""
from __future__ import annotations

from functools import lru_cache

from .geometry import EPS, Box, Touch, box_distance, edge_touches, in_contact
from .layouts import changed, last, remember
from .state import SmokeState, Unit, memo


def _near(a: Box, b: Box, margin: float) -> bool:
    r = (a.w + a.d + b.w + b.d) / 2 + margin
    return abs(a.cx - b.cx) <= r and abs(a.cy - b.cy) <= r


def neighbours(state: SmokeState) -> dict[str, list[tuple[str, tuple[Touch, ...]]]]:
    """Every unit's contacts (SMOKE-GEO-5): other unit id and the edges that touch (empty: corner
    contact). Computed once per layout of the table."""
    def build() -> dict[str, list[tuple[str, tuple[Touch, ...]]]]:
        placed = sorted(((u.box(), u, u.bbox()) for u in state.units.values()), key=lambda p: p[2][0])
        rank = {u.id: i for i, (_, u, _) in enumerate(placed)}
        out = _from_last(state, placed, rank)
        if out is None:
            out = _sweep(placed)
        remember(state, "neighbours", (out, rank))
        return out

    return memo(state, "neighbours", build)


def _reversed(t: tuple[Touch, ...]) -> tuple[Touch, ...]:
    return tuple(Touch(x.edge_b, x.edge_a, x.length) for x in t)


#: More changed units than this: the whole sweep again.
_MAX_CHANGED = 6


def _from_last(state: SmokeState, placed, rank: dict[str, int]
               ) -> dict[str, list[tuple[str, tuple[Touch, ...]]]] | None:
    """The contact graph from the game's last one (domain/smoke/layouts.py), the same as ``_sweep``'s: a pair of
    unchanged units keeps its contacts (a pure function of the two poses, ``contact_pair``, taken in sweep order:
    the lower rank first); the pairs of a changed unit are measured; each list is in sweep order of the other
    unit, as the sweep appends them. None when too much changed or an unchanged pair changed its order."""
    got = last(state, "neighbours")
    if got is None:
        return None
    units_before, (before, rank_before) = got
    moved = changed(units_before, state.units)
    if len(moved) > _MAX_CHANGED:
        return None
    out: dict[str, list[tuple[str, tuple[Touch, ...]]]] = {}
    for _, u, _ in placed:
        x = u.id
        if x in moved:
            out[x] = []
            continue
        keep = []
        for o, t in before[x]:
            if o in moved:
                continue
            if (rank[x] < rank[o]) != (rank_before[x] < rank_before[o]):
                return None
            keep.append((o, t))
        out[x] = keep
    grown: set[str] = set()
    for c in moved:
        if c not in rank:
            continue  # removed
        i = rank[c]
        cb, cu, (cx0, cy0, cx1, cy1) = placed[i]
        for ob, ou, (ox0, oy0, ox1, oy1) in placed:
            o = ou.id
            if o == c or (o in moved and rank[o] < i):
                continue  # a pair of two changed units is measured once, from the lower rank
            if ox0 > cx1 + EPS or cx0 > ox1 + EPS or cy1 + EPS < oy0 or oy1 + EPS < cy0:
                continue  # apart by more than EPS on an axis (the sweep's prefilter)
            if i < rank[o]:
                t = contact_pair(cb, ob)
                if t is None:
                    continue
                out[c].append((o, t))
                out[o].append((c, _reversed(t)))
            else:
                t = contact_pair(ob, cb)
                if t is None:
                    continue
                out[o].append((c, t))
                out[c].append((o, _reversed(t)))
            grown.update((c, o))
    for x in grown:
        out[x].sort(key=lambda e: rank[e[0]])
    return out


def _sweep(placed) -> dict[str, list[tuple[str, tuple[Touch, ...]]]]:
    """Every pair in contact, by a sweep over the units in order of their bounding boxes' left edges."""
    units = [u for _, u, _ in placed]
    boxes = [b for b, _, _ in placed]
    bbs = [bb for _, _, bb in placed]
    out: dict[str, list[tuple[str, tuple[Touch, ...]]]] = {u.id: [] for u in units}
    for i, a in enumerate(units):
        _, ay0, ax1, ay1 = bbs[i]
        for j in range(i + 1, len(units)):
            if bbs[j][0] > ax1 + EPS:
                break
            if ay1 + EPS < bbs[j][1] or bbs[j][3] + EPS < ay0:
                continue  # apart along y by more than EPS: in_contact says no at once (_bb_apart)
            t = contact_pair(boxes[i], boxes[j])
            if t is None:
                continue
            out[a.id].append((units[j].id, t))
            out[units[j].id].append((a.id, _reversed(t)))
    return out


@lru_cache(maxsize=1 << 16)
def contact_pair(a: Box, b: Box) -> tuple[Touch, ...] | None:
    """None when the two rectangles are not in contact (SMOKE-GEO-5), else their touching edges (empty:
    corner contact). A pure function of the two poses, remembered across layouts (a move changes
    the pairs of one unit only)."""
    if not in_contact(a, b):
        return None
    return tuple(edge_touches(a, b))


def touching(state: SmokeState, a: Unit, b: Unit) -> bool:
    """Base-to-base contact (SMOKE-GEO-5), including through a fortification: a unit in contact with
    a fortification counts as in contact with the unit inside it (SMOKE-TERR-8)."""
    if any(o == b.id for o, _ in neighbours(state).get(a.id, ())):
        return True
    if a.id not in state.units or b.id not in state.units:
        ba, bb = a.box(), b.box()
        if _near(ba, bb, EPS) and in_contact(ba, bb):
            return True
    t = state.terrain()
    if not t.has_fortifications():
        return False
    ba, bb = a.box(), b.box()
    fa, fb = t.fortification_of(ba), t.fortification_of(bb)
    if fb is not None and fb in t.fortification_touching(ba) and fa != fb:
        return True
    if fa is not None and fa in t.fortification_touching(bb) and fa != fb:
        return True
    return False


def enemies_touching(state: SmokeState, u: Unit) -> list[Unit]:
    return [e for e in state.units.values() if e.id != u.id and state.enemy(u, e) and touching(state, u, e)]


def rear_partners(state: SmokeState, u: Unit) -> list[Unit]:
    """Units in rear contact with ``u``, whichever of the two is in front (SMOKE-FORM-3)."""
    return [state.units[o] for o, ts in neighbours(state).get(u.id, ())
            if any({t.edge_a, t.edge_b} == {"rear", "front"} for t in ts)]


def in_line_with(state: SmokeState, u: Unit) -> list[Unit]:
    """SMOKE-FORM-3: units touching ``u`` edge to edge."""
    return [state.units[o] for o, ts in neighbours(state).get(u.id, ()) if ts]


def context_of(state: SmokeState, u: Unit) -> str | None:
    return state.terrain().context(u.box())


def formations(state: SmokeState, seat: str | None = None) -> dict[str, tuple[str, ...]]:
    """Formation key (its lowest unit id) -> unit ids, for one seat's units or everybody's."""
    allf = memo(state, "formations", lambda: _formations(state))
    if seat is None:
        return allf
    return {k: v for k, v in allf.items() if state.units[v[0]].seat == seat}


def _formations(state: SmokeState) -> dict[str, tuple[str, ...]]:
    """SMOKE-FORM-1: one player's units linked by edge contact in the same terrain context; SMOKE-FORM-2
    (SMOKE-SR-16, SMOKE-MP-2): an irregular unit is alone, and players never share a formation."""
    units = sorted(state.units.values(), key=lambda u: u.id)
    t = state.terrain()
    ctx: dict[str, str | None] = {}  # terrain contexts, asked only of units in edge contact with a partner

    def context(u: Unit) -> str | None:
        if u.id not in ctx:
            ctx[u.id] = t.context(u.box())
        return ctx[u.id]

    irregular = {u.id for u in units if "irregular" in state.profiles[u.profile].traits}
    parent = {u.id: u.id for u in units}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    nb = neighbours(state)
    for a in units:
        if a.id in irregular:
            continue
        for o, touches in nb.get(a.id, ()):
            b = state.units[o]
            if not touches or b.seat != a.seat or o in irregular or context(a) != context(b):
                continue
            ra, rb = find(a.id), find(o)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[str]] = {}
    for u in units:
        groups.setdefault(find(u.id), []).append(u.id)
    return {min(v): tuple(sorted(v)) for v in groups.values()}


def formation_of(state: SmokeState, uid: str) -> tuple[str, tuple[str, ...]]:
    """(key, units) of the formation ``uid`` is in (formations never mix players, SMOKE-MP-2)."""
    index = memo(state, "formation_index", lambda: {m: (k, v) for k, v in formations(state).items() for m in v})
    return index.get(uid) or (uid, (uid,))


def distance(a: Unit, b: Unit) -> float:
    return box_distance(a.box(), b.box())
