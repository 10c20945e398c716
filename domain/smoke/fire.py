"""Fire sector, line of fire and fire contact (SMOKE-LOF, SMOKE-GEO-8/10/11/12, SMOKE-TERR-4/5).

``line_of_fire`` answers SMOKE-LOF-2 for one shooter and one target and returns what it measured:
the melee contact, or the part of the target in the sector, the distance from the front edge and
the range it was compared with (strictly less, SMOKE-GEO-10), and for each front corner the target
point its clear line reaches or what blocked every line (SMOKE-GEO-11/12). That dict goes into the
events and rulings as it is, so a disputed measurement can be read back without recomputing.

Over 500 lines on purpose: the table-wide contact scan (the array sweep, the pairs kept from the last layout)
and the one-pair answer must apply the very same predicates with the same floating-point operations (the
engine digests pin them), so they stay beside each other in one module.
"""
from __future__ import annotations

import math
import threading
from functools import lru_cache
from typing import Any

import numpy as np

from domain.kernel.messages import Message, joined, msg

from .choices import VIEW_INSIDE, choice
from .formations import touching
from .geometry import (
    EPS, Box, candidate_points, clip_segment, convex_hull, point_in_convex, range_distance, sector_clip,
    segment_meets_interior,
)
from .layouts import keep, recent, untouched
from .segments_at_once import segments_meet_interior
from .state import SmokeState, Unit, memo, remembered
from .units import bombardment_of, fire_range, fire_range_bound, fire_weapons, has

#: SMOKE-GEO-8 (INFERRED, GAP-B-10): half-angle of the fire sector about straight ahead, degrees.
#: A game may set option ``sector_half_angle`` (e.g. 22.5 for the less likely 45-degree total reading).
SECTOR_HALF_ANGLE = 45.0
#: SMOKE-GEO-10: "less than" the range, with a margin for rounding (1e-9 UW is far below any
#: measurement: a target placed exactly at the range is out of it).
RANGE_SLACK = 1e-9
#: SMOKE-TERR-4: range bonus of a bombarding unit entirely on an elevation.
ELEVATION_RANGE_BONUS = 2.0


def half_angle(state: SmokeState) -> float:
    return float(state.options.get("sector_half_angle", SECTOR_HALF_ANGLE))


def _r(p) -> list[float]:
    return [round(p[0], 4), round(p[1], 4)]


def on_elevation(state: SmokeState, u: Unit) -> bool:
    """SMOKE-TERR-4: the unit stands entirely on an elevation."""
    return bool(state.terrain().entirely_in(u.box(), "elevation"))


def line_of_fire(state: SmokeState, u: Unit, e: Unit, *, reach: float | None = None, mode: str = "fire",
                 melee: bool = True, view: str | None = None, ok_only: bool = False) -> dict[str, Any]:
    """SMOKE-LOF-2: is enemy ``e`` on ``u``'s line of fire? ``reach``: the range to test (default:
    the longest Fire range for mode "fire", the bombardment range for mode "bombard"). ``view``: the reading
    of SMOKE-CHOICE-VIEW-INSIDE to measure under (default: the game's). ``ok_only``: for a caller that reads
    nothing of a measurement that is not ok but that it is not: the corner lines stop at the first front
    corner with no clear line (the other corner's line is then not measured; ``ok`` is the same).

    Measured under the game's reading, a target even partly inside a view-blocking element is measured under
    the other reading too; when the two answers differ, ``view_inside`` says so (``option``, ``other_ok``),
    for the rulings to cite the choice."""
    reading = view or choice(state, VIEW_INSIDE)
    out = _line_of_fire(state, u, e, reach, mode, melee, reading == "enter", ok_only)
    if view is None and out.get("how") != "melee" and "distance" in out \
            and state.terrain().partially_in(e.box(), "blocks_view"):
        other = _line_of_fire(state, u, e, reach, mode, melee, reading != "enter", ok_only)
        if other["ok"] != out["ok"]:
            out["view_inside"] = {"option": reading, "other_ok": other["ok"]}
    return out


def view_inside_text(m: dict[str, Any]) -> Message:
    """SMOKE-CHOICE-VIEW-INSIDE's words for a measured line whose answer depended on it."""
    t = m.get("target")
    if m["view_inside"]["option"] == "enter":
        return msg("{target} stands inside a view-blocking element and lines from outside that enter it are broken: "
                   "not seen", target=t)
    return msg("{target} stands inside a view-blocking element; only lines passing through one are broken: seen",
               target=t)


def _line_of_fire(state: SmokeState, u: Unit, e: Unit, reach: float | None, mode: str, melee: bool,
                  strict: bool, ok_only: bool = False) -> dict[str, Any]:
    if melee and touching(state, u, e):
        return {"ok": True, "shooter": u.id, "target": e.id, "how": "melee", "rule": "SMOKE-LOF-2"}
    elevated = False
    if reach is None:
        if mode == "bombard":
            b = bombardment_of(state, u)
            reach = b.range if b else 0.0
            if b and on_elevation(state, u):
                elevated = True
                reach += ELEVATION_RANGE_BONUS
        else:
            reach = fire_range(state, u)
    elif mode == "bombard" and on_elevation(state, u):
        elevated = True
    out: dict[str, Any] = {"ok": False, "shooter": u.id, "target": e.id, "how": mode, "range": round(reach, 4)}
    if reach <= 0:
        out["reason"] = "no Fire or Bombardment ability" if mode == "fire" else "no Bombardment"
        out["rule"] = "SMOKE-LOF-2"
        return out
    ub, eb = u.box(), e.box()
    if ok_only and _apart(u, e) > reach + _FAR_SLACK:
        # SMOKE-GEO-10: rect(E) ∩ S(U) lies in E's rectangle and the front edge in U's, so the range distance is at
        # least the two rectangles' distance, which is at least this bound: out of range, whatever the sector
        out.update(reason=f"out of range (more than {reach:.3f} UW apart)", rule="SMOKE-GEO-10")
        return out
    half = half_angle(state)
    part, d = _sector_and_range(ub, eb, half)
    if not part:
        out.update(reason="not in the fire sector", rule="SMOKE-GEO-8")
        return out
    out["distance"] = round(d, 4)
    if not d < reach - RANGE_SLACK:
        out.update(reason=f"out of range ({d:.3f} >= {reach:.3f} UW)", rule="SMOKE-GEO-10")
        return out
    blockers = _blockers(state, u, e, _hull_bounds(ub, eb, half, part), elevated)
    terrain = state.terrain()
    # the corner lines are a pure function of these (remembered across layouts: a move elsewhere on the
    # table does not change them)
    key = (u.id, e.id, ub, eb, reach, mode, half, tuple(blockers), terrain, strict)
    done = _LINES.get(key)
    if done is None and ok_only:
        done = _LINES.get(key + (_UNTIL_BLOCKED,))
    if done is not None:
        return dict(done)
    _corner_lines(out, ub, part, blockers, terrain, strict, ok_only=ok_only)
    with _LOCK:
        if len(_LINES) >= _LINES_MAX:
            _LINES.clear()
        # a measurement that stopped at a blocked corner is kept apart: only ok_only callers may read it
        _LINES[key if len(out["lines"]) == 2 else key + (_UNTIL_BLOCKED,)] = dict(out)
    return out


#: How far beyond the range ``_apart`` must be for a line to be out of range without measuring it (far above the
#: rounding of the corners, the bounding boxes and the clipped part).
_FAR_SLACK = 1e-6


def _apart(u: Unit, e: Unit) -> float:
    """A lower bound of the distance between any point of u's rectangle and any point of e's: the larger of their
    bounding boxes' gap along an axis and their centres' distance less both half diagonals."""
    ux0, uy0, ux1, uy1 = u.bbox()
    ex0, ey0, ex1, ey1 = e.bbox()
    gap = max(ex0 - ux1, ux0 - ex1, ey0 - uy1, uy0 - ey1)
    centres = math.hypot(u.x - e.x, u.y - e.y) - (math.hypot(u.w, u.d) + math.hypot(e.w, e.d)) / 2
    return max(gap, centres)


#: The mark of a remembered measurement that stopped at its first blocked corner (see ``line_of_fire``).
_UNTIL_BLOCKED = "until-blocked"


#: Remembered corner-line results (see ``line_of_fire``) and sector clips, bounded.
_LINES: dict[tuple, dict[str, Any]] = {}
_LINES_MAX = 8192
_SECTORS: dict[tuple, tuple[tuple, float]] = {}
_HULL_BOUNDS: dict[tuple, tuple[float, float, float, float]] = {}
_LOCK = threading.Lock()


def _xy(p) -> str:
    return f"({p[0]:.3f}, {p[1]:.3f})"


#: The reasons a measure keeps as English text (SMOKE-LOF-2: no fire ability) -> the same words as a message.
_REASONS: dict[str, Message] = {"no Fire or Bombardment ability": msg("no Fire or Bombardment ability"),
                                "no Bombardment": msg("no Bombardment"), "no line": msg("no line")}


def _reason(m: dict[str, Any]) -> str | Message:
    said = m.get("reason", "no line")
    return _REASONS.get(said, said)


def describe(m: dict[str, Any]) -> Message:
    """A measured line of fire in words, for a ruling (SMOKE-LOF-2, SMOKE-GEO-8/10/11): what was measured
    between which corners and points, and the numbers compared."""
    u, e = m.get("shooter"), m.get("target")
    if m.get("how") == "melee":
        return msg("{unit} and {target} are in base-to-base contact (melee, SMOKE-LOF-2a, SMOKE-GEO-5)", unit=u,
                   target=e)
    if "distance" not in m:
        return (msg("{target} is not in {unit}'s fire sector (SMOKE-GEO-8)", unit=u, target=e)
                if m.get("rule") == "SMOKE-GEO-8" else
                msg("{unit} cannot fire at {target} ({reason})", unit=u, target=e, reason=_reason(m)))
    said = dict(unit=u, target=e, distance=m["distance"], range=m.get("range", 0))
    text: Message = (msg("{target} is in {unit}'s fire sector (SMOKE-GEO-8), {distance:.3f} UW from its front edge < "
                         "{range:g} UW (SMOKE-GEO-10)", **said) if m["distance"] < m.get("range", 0) else
                     msg("{target} is in {unit}'s fire sector (SMOKE-GEO-8), {distance:.3f} UW from its front edge >= "
                         "{range:g} UW (SMOKE-GEO-10)", **said))
    lines = m.get("lines") or {}
    parts: list["str | Message"] = []
    for corner in ("FL", "FR"):
        ln = lines.get(corner)
        if ln is None:
            continue
        if "to" in ln:
            parts.append(msg("{corner} {start} -> {end} clear", corner=corner, start=_xy(ln["from"]), end=_xy(ln["to"])))
        else:
            parts.append(msg("{corner} {start} blocked by {element}", corner=corner, start=_xy(ln["from"]),
                             element=ln.get("blocked_by")))
    if parts:
        text = msg("{measured}; lines from both front corners (SMOKE-GEO-11/12): {lines}", measured=text,
                   lines=joined(parts, ", "))
    return text


def clear_caches() -> None:
    _LINES.clear()
    _SECTORS.clear()
    _HULL_BOUNDS.clear()
    _candidates.cache_clear()


def _sector_and_range(ub: Box, eb: Box, half: float) -> tuple[tuple, float]:
    """``rect(E) ∩ S(U)`` (SMOKE-GEO-8) and its distance from U's front edge (SMOKE-GEO-10; 0 when
    there is no part): a pure function of the two poses, remembered."""
    key = (ub, eb, half)
    got = _SECTORS.get(key)
    if got is None:
        part = tuple(sector_clip(ub, eb, half))
        got = (part, range_distance(ub, part) if part else 0.0)
        with _LOCK:
            if len(_SECTORS) >= _LINES_MAX:
                _SECTORS.clear()
            _SECTORS[key] = got
    return got


def _hull_bounds(ub: Box, eb: Box, half: float, part: tuple) -> tuple[float, float, float, float]:
    """(x0, x1, y0, y1): the bounds of the convex hull of U's front corners and ``part`` (the part of E in U's
    sector, ``_sector_and_range(ub, eb, half)``), where every line of fire from a front corner to a candidate
    point lies (SMOKE-GEO-11/12): a pure function of the two poses, remembered."""
    key = (ub, eb, half)
    got = _HULL_BOUNDS.get(key)
    if got is None:
        hull = convex_hull([ub.FL, ub.FR] + list(part))
        xs = [p[0] for p in hull]
        ys = [p[1] for p in hull]
        got = (min(xs), max(xs), min(ys), max(ys))
        with _LOCK:
            if len(_HULL_BOUNDS) >= _LINES_MAX:
                _HULL_BOUNDS.clear()
            _HULL_BOUNDS[key] = got
    return got


def _corner_lines(out: dict[str, Any], ub: Box, part, blockers, terrain, strict: bool, *, ok_only: bool = False
                  ) -> None:
    """SMOKE-GEO-11/12: for each front corner, the first candidate target point its line reaches clear.

    The first few lines of a corner are tested one by one (``_line_hit``); the rest, when none of those is
    clear, at once (``_first_clear``): the same answers, found with arrays. ``ok_only``: stop after the first
    corner with no clear line (the line is then not ok whatever the other corner sees)."""
    check_terrain = terrain.has_view_blockers()
    cands, arrays = _candidates(part)
    lines: dict[str, Any] = {}
    boxed = [(bid, poly, _poly_bb(poly)) for bid, poly in blockers]
    for name, k in (("FL", ub.FL), ("FR", ub.FR)):
        found = None
        why: str | None = None
        # the first lines one by one (most corners see the target at once) ...
        for q in cands[:_ONE_BY_ONE]:
            hit = _line_hit(k, q, blockers, boxed, terrain, check_terrain, strict)
            if hit is None:
                found = q
                break
            why = why or hit
        # ... the rest all at once
        if found is None and len(cands) > _ONE_BY_ONE:
            found = _first_clear(k, cands, arrays, blockers, boxed, terrain, check_terrain, strict, _ONE_BY_ONE)
        if found is None:
            lines[name] = {"from": _r(k), "blocked_by": why}
            if ok_only:
                break
        else:
            lines[name] = {"from": _r(k), "to": _r(found)}
    out["lines"] = lines
    out["candidates"] = len(cands)
    if all("to" in v for v in lines.values()):
        out["ok"] = True
        out["rule"] = "SMOKE-LOF-2"
    else:
        out.update(reason="a front corner has no clear line", rule="SMOKE-GEO-11")
    return out


@lru_cache(maxsize=2048)
def _candidates(part: tuple) -> tuple[tuple, tuple[np.ndarray, np.ndarray]]:
    """The candidate target points of a part of the target (SMOKE-GEO-11), and their x and y as arrays."""
    cands = tuple(candidate_points(part))
    qx = np.array([q[0] for q in cands])
    qy = np.array([q[1] for q in cands])
    qx.flags.writeable = False
    qy.flags.writeable = False
    return cands, (qx, qy)


#: Candidate lines tested one by one before the rest are tested at once (arrays pay off on longer runs).
_ONE_BY_ONE = 2
#: Lines near one unit tested one by one rather than on arrays (about the break-even count).
_ONE_BY_ONE_UNIT = 24


def _first_clear(k, cands, arrays, blockers, boxed, terrain, check_terrain: bool, strict: bool, start: int):
    """The first of ``cands[start:]`` whose line from k is clear (``_line_hit`` is None), testing the lines
    against the terrain and every unit at once; the seams of touching units, and terrain answers too close
    to call on arrays, one by one. The terrain is asked first: when it surely blocks every line (a target behind
    or inside woods), no unit is tested (each line's verdict is the same whichever is asked first)."""
    kx, ky = k
    qx, qy = arrays[0][start:], arrays[1][start:]
    if check_terrain:
        hit, t_unsure = terrain.view_blocked(k, qx, qy, strict=strict)
        if hit.all():
            return None
    else:
        hit = np.zeros(len(qx), dtype=bool)
    sx0, sx1 = np.minimum(kx, qx), np.maximum(kx, qx)
    sy0, sy1 = np.minimum(ky, qy), np.maximum(ky, qy)
    near = np.zeros(len(qx), dtype=bool)
    for _, poly, (x0, y0, x1, y1) in boxed:
        close = ~((sx1 < x0 - 1e-9) | (x1 + 1e-9 < sx0) | (sy1 < y0 - 1e-9) | (y1 + 1e-9 < sy0))
        idx = np.nonzero(close & ~hit)[0]
        near |= close
        if len(idx) > _ONE_BY_ONE_UNIT:
            hit[idx] = segments_meet_interior(k, qx[idx], qy[idx], poly)
        else:  # a few lines: one by one is cheaper than the arrays
            for i in idx:
                hit[i] = segment_meets_interior(k, cands[start + i], poly)
    for i in np.nonzero(~hit)[0]:
        q = cands[start + i]
        if check_terrain and t_unsure[i] and terrain.view_blocker(k, q, strict=strict):
            continue
        if near[i] and len(blockers) > 1 and through_a_seam(k, q, blockers, _near(k, q, boxed)) is not None:
            continue
        return q
    return None


def _near(k, q, boxed) -> list:
    """The blockers whose bounding box the segment k->q's meets (a segment missing a unit's box cannot meet
    its interior)."""
    kx, ky = k
    qx, qy = q
    sx0, sx1 = (kx, qx) if kx <= qx else (qx, kx)
    sy0, sy1 = (ky, qy) if ky <= qy else (qy, ky)
    return [(bid, poly) for bid, poly, (x0, y0, x1, y1) in boxed
            if not (sx1 < x0 - 1e-9 or x1 + 1e-9 < sx0 or sy1 < y0 - 1e-9 or y1 + 1e-9 < sy0)]


def _line_hit(k, q, blockers, boxed, terrain, check_terrain: bool, strict: bool) -> str | None:
    """What blocks the line k->q (SMOKE-GEO-12a/b): the first unit whose interior it crosses, the seam of two
    touching units, or a blocks-view element; None when it is clear."""
    near = _near(k, q, boxed)
    hit = next((bid for bid, poly in near if segment_meets_interior(k, q, poly)), None)
    if hit is None and len(blockers) > 1 and near:
        hit = through_a_seam(k, q, blockers, near)
    if hit is None and check_terrain:
        hit = terrain.view_blocker(k, q, strict=strict)
    return hit


def _poly_bb(poly) -> tuple[float, float, float, float]:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def through_a_seam(k, q, blockers, crossing=None) -> str | None:
    """A line running exactly along the shared edge of two touching units passes through neither
    interior but through the solid line they make (SMOKE-GEO-12a): it is blocked when points just
    beside it, on both sides, are inside units along a stretch of it. ``crossing``: the blockers the
    segment may meet at all (the others have no span along it)."""
    dx, dy = q[0] - k[0], q[1] - k[1]
    L = (dx * dx + dy * dy) ** 0.5
    if L <= 0:
        return None
    nx, ny = -dy / L * 2 * EPS, dx / L * 2 * EPS
    for bid, poly in (blockers if crossing is None else crossing):
        span = clip_segment(k, q, poly)
        if span is None or (span[1] - span[0]) * L <= EPS:
            continue
        t = (span[0] + span[1]) / 2
        m = (k[0] + t * dx, k[1] + t * dy)
        left = (m[0] + nx, m[1] + ny)
        right = (m[0] - nx, m[1] - ny)
        if any(point_in_convex(left, p2) for _, p2 in blockers) and any(point_in_convex(right, p2) for _, p2 in blockers):
            return bid
    return None


def _blockers(state: SmokeState, u: Unit, e: Unit, reach_box: tuple[float, float, float, float], elevated: bool):
    """Units whose interior a line of fire may not cross (SMOKE-GEO-12a): not U, not E, not *Do not
    block fire*; from an elevation, only units on an elevation block a bombardment (SMOKE-TERR-4). Only units
    whose bounding box meets ``reach_box`` (the bounds of the hull of U's front corners and the part of E,
    ``_hull_bounds``) are looked at."""
    x0, x1, y0, y1 = reach_box
    out = []
    terrain = state.terrain()
    for oid, ob, (bx0, by0, bx1, by1) in _may_block(state):
        if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1 or oid == u.id or oid == e.id:
            continue
        if elevated and not terrain.partially_in(ob, "elevation"):
            continue
        out.append((oid, ob.corners()))
    return out


def _may_block(state: SmokeState) -> list[tuple[str, Box, tuple[float, float, float, float]]]:
    """The units that block lines of fire (not *Do not block fire*, SMOKE-GEO-12a) in table order, with
    their boxes and bounding boxes: once per layout."""
    return memo(state, "may_block", lambda: [(o.id, o.box(), o.bbox()) for o in state.units.values()
                                             if not has(state, o, "do_not_block_fire")])


def shortest_weapon(state: SmokeState, u: Unit, targets: list[Unit]) -> tuple[Any, dict[str, Any]] | None:
    """SMOKE-RES-2: the shortest-range Fire weapon with one of ``targets`` on its line of fire."""
    for w, r in fire_weapons(state, u):
        for e in targets:
            m = line_of_fire(state, u, e, reach=r, melee=False, ok_only=True)
            if m["ok"]:
                m["weapon"] = w.name
                return w, m
    return None


def _could_reach(a: Unit, b: Unit, reach: float) -> bool:
    r = reach + (a.w + a.d + b.w + b.d) / 2 + EPS
    return abs(a.x - b.x) <= r and abs(a.y - b.y) <= r


def fire_contact(state: SmokeState, a: Unit, b: Unit) -> dict[str, Any] | None:
    """SMOKE-LOF-3/4: a and b (enemies) are in fire contact; the measurement that showed it."""
    if touching(state, a, b):
        return {"ok": True, "shooter": a.id, "target": b.id, "how": "melee", "rule": "SMOKE-LOF-2"}
    literal = bool(state.options.get("fire_contact_uses_bombardment", False))  # GAP-B-06
    for s, t in ((a, b), (b, a)):
        reach = fire_range(state, s)
        if literal:
            bo = bombardment_of(state, s)
            if bo is not None:
                reach = max(reach, bo.range)
        if reach > 0 and _could_reach(s, t, reach):
            m = line_of_fire(state, s, t, reach=reach, melee=False, ok_only=True)
            if m["ok"]:
                return m
    return None


def fire_contacts(state: SmokeState) -> list[tuple[str, str, dict[str, Any]]]:
    """Every pair of enemy units in fire contact (ids sorted within a pair)."""
    moved = state.turn.moved if state.turn is not None else ()
    return memo(state, "fire_contacts", lambda: _fire_contacts(state), moved)


def _fire_contacts(state: SmokeState) -> list[tuple[str, str, dict[str, Any]]]:
    units = sorted(state.units.values(), key=lambda u: u.id)
    deepest = max((u.d for u in units), default=0.0)
    reach: dict[str, float] = {}

    def reach_of(u: Unit) -> float:
        r = reach.get(u.id)
        if r is None:
            r = reach[u.id] = fire_range(state, u)
        return r

    # the candidate pairs (enemies whose bounds of Fire range may reach, ``_could_reach`` with the larger bound) as
    # entries (a, b in the sweep's x order, reachable with the ranges themselves, the measurement), by ids in order:
    # from the game's last measured layout when the deepest base is the same (domain/smoke/layouts.py), else swept
    kept = recent(state, "fire_contacts")
    if kept is not None and kept.pairs.get(_DEEPEST) == deepest:
        pairs_now = _pairs_near_changes(state, kept, deepest, reach_of)
    else:
        pairs_now = _pairs_swept(state, units, deepest, kept, reach_of)
    out = []
    for key in sorted(k for k, got in pairs_now.items() if got[2]):
        got = pairs_now[key]
        m = got[3]
        if m is _UNMEASURED:
            m = fire_contact(state, state.units[key[0]], state.units[key[1]])
            pairs_now[key] = (got[0], got[1], got[2], m)
        if m is not None:
            out.append((key[0], key[1], m))
    pairs_now[_DEEPEST] = deepest
    keep(state, "fire_contacts", pairs_now)
    return out


def _pairs_swept(state: SmokeState, units: list[Unit], deepest: float, kept, reach_of) -> dict:
    """Every candidate pair of the table: the sweep's pairs, all at once, in x order (a before b),
    ``_could_reach(a, b, max of the bounds)`` computed elementwise with the same operations; a pair's entry kept
    from the last layout when nothing changed near it."""
    codes: dict[str, int] = {}
    side = [codes.setdefault(state.armies[u.seat].side, len(codes)) for u in units]  # sides as numbers
    # a bound of each unit's range that needs no contacts (``fire_range_bound``); the ranges themselves are asked
    # only of the units in such a pair
    top = [fire_range_bound(state, u, deepest) for u in units]
    pairs_now: dict[tuple[str, str], tuple] = {}
    order = np.argsort(np.array([u.x for u in units]), kind="stable")
    xs = np.array([u.x for u in units])[order]
    ys = np.array([u.y for u in units])[order]
    ws = np.array([u.w for u in units])[order]
    ds = np.array([u.d for u in units])[order]
    tops = np.array(top)[order]
    sides = np.array(side)[order]
    r = np.maximum(tops[:, None], tops[None, :]) + (((ws + ds)[:, None] + ws[None, :]) + ds[None, :]) / 2 + EPS
    cand = ((np.abs(xs[:, None] - xs[None, :]) <= r) & (np.abs(ys[:, None] - ys[None, :]) <= r)
            & (sides[:, None] != sides[None, :]))
    for p, q in zip(*np.nonzero(np.triu(cand, 1))):
        a, b = units[int(order[p])], units[int(order[q])]
        key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        got = kept.pair(key, a, b) if kept is not None else None
        if got is None:
            # the x-ordered pair as it was always asked (an entry: the two units, reachable, the measurement)
            got = (a, b, _could_reach(a, b, max(reach_of(a), reach_of(b))), _UNMEASURED)
        pairs_now[key] = got
    return pairs_now


def _pairs_near_changes(state: SmokeState, kept, deepest: float, reach_of) -> dict:
    """The candidate pairs of ``_pairs_swept`` from the last layout's: a pair of two unchanged units (the same Unit
    objects, the same profiles, sides and deepest base) is a candidate exactly when it was, and keeps its entry
    when nothing changed near it (else its reach is asked again and it is measured again); the pairs of each
    changed unit are tested with the sweep's bound, the same floating-point operations in the same x order."""
    changed = kept.changed
    pairs_now: dict[tuple[str, str], tuple] = {}
    for key, got in kept.pairs.items():
        if key is _DEEPEST or key[0] in changed or key[1] in changed:
            continue
        a, b = got[0], got[1]
        if not untouched(a, b, kept.dirty):
            got = (a, b, _could_reach(a, b, max(reach_of(a), reach_of(b))), _UNMEASURED)
        pairs_now[key] = got
    units = state.units
    side = {seat: army.side for seat, army in state.armies.items()}
    top: dict[str, float] = {}

    def top_of(u: Unit) -> float:
        t = top.get(u.id)
        if t is None:
            t = top[u.id] = fire_range_bound(state, u, deepest)
        return t

    for cid in changed:
        c = units.get(cid)
        if c is None:
            continue  # removed: its pairs went with it
        sc = side[c.seat]
        for o in units.values():
            if o is c or side[o.seat] == sc or (o.id in changed and o.id < cid):
                continue  # a pair of two changed units is tested once, from the higher id
            # the sweep's x order: by x, equal x in id order (a stable sort of the units in id order)
            a, b = (c, o) if c.x < o.x or (c.x == o.x and cid < o.id) else (o, c)
            r = max(top_of(a), top_of(b)) + (((a.w + a.d) + b.w) + b.d) / 2 + EPS
            if abs(a.x - b.x) <= r and abs(a.y - b.y) <= r:
                key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
                pairs_now[key] = (a, b, _could_reach(a, b, max(reach_of(a), reach_of(b))), _UNMEASURED)
    return pairs_now


#: The key of the deepest base on the table among a layout's kept pairs (a candidate's bound depends on it).
_DEEPEST = "deepest base"


#: A pair whose fire contact was not measured yet (see ``_fire_contacts``).
_UNMEASURED = object()


def in_fire_contact(state: SmokeState, u: Unit) -> bool:
    return bool(contact_enemies(state, u))


def contact_enemies(state: SmokeState, u: Unit) -> list[str]:
    """The enemies in fire contact with ``u`` (SMOKE-LOF-3/4), in id order: the other unit of each pair of
    ``fire_contacts(state)`` that holds u, in that list's order (its pairs are sorted by the units' ids). Taken from
    that list when this layout's is known; else only u's pairs are measured, with the same candidates (enemies,
    ``_could_reach`` with the larger of the two Fire ranges, the two units in x order as the sweep takes them) and
    the same measurement (``fire_contact`` of the two units in id order)."""
    moved = state.turn.moved if state.turn is not None else ()
    known = remembered(state, "fire_contacts", moved)
    if known is not None:
        return [b if a == u.id else a for a, b, _ in known if u.id in (a, b)]
    return memo(state, "contact_enemies", lambda: _contact_enemies(state, u), u.id, moved)


def _contact_enemies(state: SmokeState, u: Unit) -> list[str]:
    units = sorted(state.units.values(), key=lambda x: x.id)
    deepest = max((x.d for x in units), default=0.0)
    side = state.armies[u.seat].side
    top_u = fire_range_bound(state, u, deepest)
    out = []
    before = True  # e comes before u in id order
    for e in units:
        if e.id == u.id:
            before = False
            continue
        if state.armies[e.seat].side == side:
            continue
        # the sweep's x order: by x, equal x in id order (a stable sort of the id-sorted units)
        a, b = (e, u) if e.x < u.x or (e.x == u.x and before) else (u, e)
        if not _could_reach(a, b, max(top_u, fire_range_bound(state, e, deepest))):
            continue  # the bounds are at least the ranges: the ranges cannot reach either
        if not _could_reach(a, b, max(fire_range(state, a), fire_range(state, b))):
            continue
        if fire_contact(state, *((e, u) if before else (u, e))) is not None:
            out.append(e.id)
    return out
