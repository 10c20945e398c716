"""Moving units (SMOKE-MOVE, SMOKE-GEO-17, SMOKE-TERR-1/2/6, SMOKE-SR-18).

A simple move pivots about the centre to the new facing, then goes straight ahead; a complex move
translates by a vector keeping its facing, then may pivot (GAP-B-15, INFERRED both straight).
``plan_move`` measures the move and returns where it ends and everything it measured, or raises
the RuleViolation naming the rule it breaks: speed, terrain cap, passing through an enemy, ending on
a unit, a complex move into contact, the table edge. A simple move into an enemy stops at the first
touch (SMOKE-MOVE-6, SMOKE-GEO-4). The move distance is the translation; pivots are free.
"""
from __future__ import annotations

import math
from typing import Any

from domain.kernel import RuleViolation
from domain.kernel.messages import msg
from domain.kernel.choices import phrase_message

from .choices import CHOICES, COMPLEX_PATH, choice
from .geometry import (
    EPS, Box, box_distance, first_touch, in_contact, normalize_deg, overlap_depth, rotation_sweep,
    translation_sweep, unit_vector,
)
from .state import SmokeState, Unit, memo
from .terrain import Sweep
from .units import has, profile_of

#: SMOKE-TERR-1: the most a unit whose movement passes through difficult terrain moves that turn.
DIFFICULT_CAP = 2.0
#: SMOKE-TERR-2: the same through very difficult terrain.
VERY_DIFFICULT_CAP = 1.0
#: SMOKE-SR-18: an Immobile unit's speed while moving through difficult terrain.
IMMOBILE_DIFFICULT_SPEED = 1.0
#: SMOKE-TERR-6: road bonus to a simple move that starts and ends touching a road.
ROAD_BONUS = 2.0
_SLACK = 1e-9


def _r(x: float) -> float:
    return round(x, 4)


def pose(b: Box) -> tuple[float, float, float]:
    return (_r(b.cx), _r(b.cy), _r(normalize_deg(b.theta)))


def on_table(pieces: list[list[tuple[float, float]]], width: float, height: float) -> bool:
    for poly in pieces:
        for x, y in poly:
            if x < -_SLACK or y < -_SLACK or x > width + _SLACK or y > height + _SLACK:
                return False
    return True


def _check_finite(name: str, v: float | None) -> None:
    if v is not None and not math.isfinite(v):
        raise RuleViolation("SMOKE-GEO-17", msg("The {name} must be a finite number.", name=name), field=name)


#: SMOKE-CHOICE-COMPLEX-PATH "path": the most points a complex move's path may name on its way.
VIA_MAX = 8


def plan_move(state: SmokeState, u: Unit, kind: str, facing: float | None, distance: float | None,
              vector: tuple[float, float] | None, *, simple_bonus: float = 0.0, simple_only: bool = False,
              via: tuple[tuple[float, float], ...] = ()) -> tuple[Box, dict[str, Any]]:
    """Where ``u`` ends and what was measured; RuleViolation if the move is illegal. ``via``: a complex move's
    points on the way (SMOKE-CHOICE-COMPLEX-PATH "path"), offsets from the start."""
    p = profile_of(state, u)
    start = u.box()
    assert state.battle is not None
    W, H = state.battle.width, state.battle.height
    _check_finite("facing", facing)
    _check_finite("distance", distance)
    if vector is not None:
        _check_finite("vector", vector[0])
        _check_finite("vector", vector[1])
    for x, y in via:
        _check_finite("via", x)
        _check_finite("via", y)
    if len(via) > VIA_MAX:
        raise RuleViolation(COMPLEX_PATH, msg("A complex move's path has at most {via_max} points on its way "
                                              "(`via`).", via_max=VIA_MAX),
                            field="via")
    if via and kind != "complex":
        raise RuleViolation("SMOKE-MOVE-3", msg("Only a complex move has points on its way (`via`)."), field="via")
    if via and choice(state, COMPLEX_PATH) != "path":
        raise RuleViolation(COMPLEX_PATH, msg("under {choice}: a complex move is one straight `vector`; send no "
                                              "`via`.", choice=phrase_message(CHOICES, COMPLEX_PATH, 'straight')), field="via",
                            choice=COMPLEX_PATH, option="straight")
    m: dict[str, Any] = {"kind": kind}
    # only units the move could reach matter (the sweep stays within speed + half-diagonals)
    reach = max(p.speed) + 2.0 + (start.w + start.d)
    if vector is not None:
        reach = max(reach, math.hypot(vector[0], vector[1]) + start.w + start.d)
    for x, y in via:
        reach = max(reach, math.hypot(x, y) + start.w + start.d)
    if distance is not None:
        reach = max(reach, abs(distance) + start.w + start.d)
    enemies, friends = _neighbourhood(state, u, start, reach, max(p.speed) + 2.0 + (start.w + start.d) + _SPARE)
    terrain = state.terrain()
    if kind == "simple":
        if p.speed[0] <= 0:
            raise RuleViolation("SMOKE-STAT-1", msg("{id} has simple speed 0: it can only make complex moves.",
                                                    id=u.id),
                                unit=u.id)
        if vector is not None:
            raise RuleViolation("SMOKE-MOVE-3", msg("A simple move goes straight ahead after its pivot: give "
                                                    "`facing` and `distance`, not `vector`."), field="vector")
        if distance is None:
            raise RuleViolation("SMOKE-MOVE-3", msg("A simple move needs its `distance` (UW)."), field="distance")
        if distance < 0:
            raise RuleViolation("SMOKE-GEO-17", msg("A move distance is 0 or more."), field="distance")
        theta = start.theta if facing is None else normalize_deg(facing)
        pivot = rotation_sweep(start, theta)
        disc = _disc_bb(start)
        f = unit_vector(theta)
        turned = Box(start.cx, start.cy, theta, start.w, start.d)
        path = _union(turned.bbox(), turned.moved(f[0] * distance, f[1] * distance).bbox())
        enemies, friends = _within(_union(disc, path), enemies, friends)
        for e, eb, ebb in enemies:
            if _bb_apart(disc, ebb):
                continue  # the pivot stays within the disc of the half-diagonal
            if any(overlap_depth(piece, eb.corners()) > EPS for piece in pivot):
                raise RuleViolation("SMOKE-MOVE-5", msg("{id} cannot pivot through the enemy unit {id2}.",
                                                        id=u.id, id2=e.id),
                                    unit=u.id, enemy=e.id)
        travel = distance
        stopped_by = None
        for e, eb, ebb in enemies:
            if _bb_apart(path, ebb):
                continue  # never within reach of the translation
            t = first_touch(turned.corners(), f, eb.corners(), distance)
            if t is not None and t < travel - 1e-12:
                travel, stopped_by = t, e.id
        end = turned.moved(f[0] * travel, f[1] * travel)
        sweep = pivot + [translation_sweep(turned, f[0] * travel, f[1] * travel)]
        base = p.speed[0] + simple_bonus
        m.update(pivot=_r(abs(_turn(start.theta, theta))), speed=_r(base))
        if simple_bonus:
            m["action_bonus"] = simple_bonus
        if stopped_by is not None:
            m.update(stopped_by=stopped_by, rule_contact="SMOKE-MOVE-6")
        road = terrain.touches_road(start) and terrain.touches_road(end)
        if road:
            base += ROAD_BONUS
            m["road_bonus"] = ROAD_BONUS
        requested = distance
        moved = travel
    elif kind == "complex":
        if simple_only:
            raise RuleViolation("SMOKE-ACT-5", msg("This action lets its units make simple moves only."), unit=u.id)
        if distance is not None:
            raise RuleViolation("SMOKE-MOVE-4", msg("A complex move is a `vector` [dx, dy] (and an optional final "
                                                    "`facing`), not a `distance`."), field="distance")
        if vector is None:
            raise RuleViolation("SMOKE-MOVE-4", msg("A complex move needs its `vector` [dx, dy] in UW."), field="vector")
        dx, dy = float(vector[0]), float(vector[1])
        # the legs of the path: one straight vector, or (SMOKE-CHOICE-COMPLEX-PATH "path") through ``via``
        points = [(0.0, 0.0)] + [(float(x), float(y)) for x, y in via] + [(dx, dy)]
        length = sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(points, points[1:]))
        theta = start.theta if facing is None else normalize_deg(facing)
        moved_box = start.moved(dx, dy)
        legs = [(start.moved(a[0], a[1]), b[0] - a[0], b[1] - a[1]) for a, b in zip(points, points[1:])]
        slides = [translation_sweep(leg, ldx, ldy) for leg, ldx, ldy in legs]
        slide_bb = start.bbox()
        for leg, ldx, ldy in legs:
            slide_bb = _union(slide_bb, leg.moved(ldx, ldy).bbox())
        disc = _disc_bb(moved_box)
        enemies, friends = _within(_union(slide_bb, disc), enemies, friends)
        for e, eb, ebb in enemies:
            if _bb_apart(slide_bb, ebb):
                continue
            if any(overlap_depth(slide, eb.corners()) > EPS for slide in slides):
                raise RuleViolation("SMOKE-MOVE-5", msg("{id} cannot pass through the enemy unit {id2}.",
                                                        id=u.id, id2=e.id),
                                    unit=u.id, enemy=e.id)
        pivot = rotation_sweep(moved_box, theta)
        for e, eb, ebb in enemies:
            if _bb_apart(disc, ebb):
                continue
            if any(overlap_depth(piece, eb.corners()) > EPS for piece in pivot):
                raise RuleViolation("SMOKE-MOVE-5", msg("{id} cannot pivot through the enemy unit {id2}.",
                                                        id=u.id, id2=e.id),
                                    unit=u.id, enemy=e.id)
        end = Box(moved_box.cx, moved_box.cy, theta, start.w, start.d)
        end_bb = end.bbox()
        for e, eb, ebb in enemies:
            if _bb_apart(end_bb, ebb, EPS):
                continue  # in_contact is false beyond EPS
            if in_contact(end, eb) and not in_contact(start, eb):
                raise RuleViolation("SMOKE-MOVE-6", msg("A complex move may not bring {id} into contact with the "
                                                        "enemy unit {id2}.", id=u.id, id2=e.id), unit=u.id, enemy=e.id,
                                    gap=_r(box_distance(end, eb)))
        if terrain.has_fortifications():
            # SMOKE-TERR-8: touching a fortification is touching the unit inside it
            new = [f for f in terrain.fortification_touching(end) if f not in terrain.fortification_touching(start)
                   and f != terrain.fortification_of(end)]
            for f in new:
                inside = next((o for o in state.units.values() if state.enemy(u, o)
                               and terrain.fortification_of(o.box()) == f), None)
                if inside is not None:
                    raise RuleViolation("SMOKE-MOVE-6", msg("A complex move may not bring {id} into contact with "
                                                            "the enemy unit {id2}: it would touch its "
                                                            "fortification {f}, and touching a fortification is "
                                                            "touching the unit inside.", id=u.id, id2=inside.id, f=f), unit=u.id, enemy=inside.id, fortification=f)
        sweep = slides + pivot
        base = p.speed[1]
        m.update(pivot=_r(abs(_turn(start.theta, theta))), speed=_r(base), vector=[_r(dx), _r(dy)])
        if via:
            m.update(via=[[_r(x), _r(y)] for x, y in via],
                     via_points=[[_r(start.cx + x), _r(start.cy + y)] for x, y in via])
        requested = moved = length
    else:
        raise RuleViolation("SMOKE-MOVE-1", msg("A move is simple or complex, not {kind}.", kind=repr(kind)), field="kind")
    # terrain caps (SMOKE-TERR-1/2, SMOKE-SR-18): replace the speed when lower
    limit = base
    swept = Sweep(sweep)
    vd = terrain.sweep_meets(swept, "very_difficult")
    dif = terrain.sweep_meets(swept, "difficult") if not vd or has(state, u, "immobile") else []
    if vd:
        if has(state, u, "immobile"):
            raise RuleViolation("SMOKE-SR-18", msg("{id} is Immobile and cannot enter very difficult terrain "
                                                   "({vd}).", id=u.id, vd=', '.join(vd)), unit=u.id, terrain=vd)
        limit = min(limit, VERY_DIFFICULT_CAP)
        m.update(very_difficult=vd, cap=VERY_DIFFICULT_CAP, cap_rule="SMOKE-TERR-2")
    elif dif:
        cap = IMMOBILE_DIFFICULT_SPEED if has(state, u, "immobile") else DIFFICULT_CAP
        limit = min(limit, cap)
        m.update(difficult=dif, cap=cap, cap_rule="SMOKE-SR-18" if has(state, u, "immobile") else "SMOKE-TERR-1")
    m["limit"] = _r(limit)
    if moved > limit + _SLACK:
        rule = m.get("cap_rule") if limit < base else ("SMOKE-MOVE-3" if kind == "simple" else "SMOKE-MOVE-4")
        what = msg("through {elements}", elements=", ".join(m.get("very_difficult") or m.get("difficult") or [])) \
            if limit < base else ""
        raise RuleViolation(rule or "SMOKE-MOVE-1",
                            msg("{unit} may move at most {limit:g} UW ({what}); this move is {distance:.3f} UW.",
                                unit=u.id, limit=limit, what=what, distance=moved) if what else
                            msg("{unit} may move at most {limit:g} UW; this move is {distance:.3f} UW.", unit=u.id,
                                limit=limit, distance=moved),
                            unit=u.id, limit=_r(limit), distance=_r(moved))
    # the table (INFERRED: a moving unit may not leave it)
    if not on_table(sweep + [list(end.corners())], W, H):
        raise RuleViolation("SMOKE-GEO-17", msg("{id} would leave the table.", id=u.id), unit=u.id)
    # ending on a unit (SMOKE-MOVE-5): friends may be passed through, not ended on
    end_bb = end.bbox()
    for o, ob, obb in friends + enemies:
        if _bb_apart(end_bb, obb):
            continue
        if overlap_depth(end.corners(), ob.corners()) > EPS:
            raise RuleViolation("SMOKE-MOVE-5", msg("{id} may not end its move on {id2}.", id=u.id, id2=o.id), unit=u.id, other=o.id)
    fort = terrain.fortification_of(end) if terrain.has_fortifications() else None
    if fort is not None:
        for o in state.units.values():
            if o.id != u.id and terrain.fortification_of(o.box()) == fort:
                raise RuleViolation("SMOKE-TERR-8", msg("The fortification {fort} holds exactly one unit ({id} is "
                                                        "in it).", fort=fort, id=o.id), unit=u.id, fortification=fort)
    contacts = {e.id for e, eb, ebb in enemies if not _bb_apart(end_bb, ebb, EPS) and in_contact(end, eb)}
    if terrain.has_fortifications():  # SMOKE-TERR-8: touching an enemy's fortification is touching the enemy
        forts = set(terrain.fortification_touching(end)) - {terrain.fortification_of(end)}
        contacts |= {o.id for o in state.units.values() if forts and state.enemy(u, o)
                     and terrain.fortification_of(o.box()) in forts}
    m["contacts"] = sorted(contacts)
    m["requested"] = _r(requested)
    m["distance"] = _r(moved)
    return end, m


#: Extra reach (UW) of the remembered neighbourhood of a unit, so that the examples of legal-commands (an
#: action's simple-speed bonus, the road bonus) reuse one list per unit and layout.
_SPARE = 4.0


Near = list[tuple[Unit, Box, tuple[float, float, float, float]]]


def _neighbourhood(state: SmokeState, u: Unit, start: Box, reach: float, usual: float) -> tuple[Near, Near]:
    """(enemies, friends), each as (unit, box, bounding box), whose centres are within ``reach`` + their
    size of ``u`` on both axes, in the table's order (a prefilter: units further away cannot meet the
    move's swept area). Remembered per unit and layout for the usual reach (a superset of what a
    shorter move needs: the extra units are too far to touch it); a longer move filters afresh."""
    def pick(r: float) -> tuple[Near, Near]:
        side = state.armies[u.seat].side
        en: Near = []
        fr: Near = []
        cx, cy = start.cx, start.cy
        for o, ox, oy, size, oside, ob, obb in _table(state):
            k = r + size
            if abs(ox - cx) <= k and abs(oy - cy) <= k and o.id != u.id:
                (en if oside != side else fr).append((o, ob, obb))
        return en, fr

    if reach > usual:
        return pick(reach)
    return memo(state, "move_near", lambda: pick(usual), u.id, usual)


def _within(zone: tuple[float, float, float, float], enemies: "Near", friends: "Near") -> tuple["Near", "Near"]:
    """The units whose bounding boxes come within EPS of ``zone``, which holds the whole move (start,
    pivots, path, end): no other unit takes part in any of its checks."""
    return ([x for x in enemies if not _bb_apart(zone, x[2], EPS)], [x for x in friends if not _bb_apart(zone, x[2], EPS)])


def _table(state: SmokeState) -> list[tuple[Unit, float, float, float, str, Box, tuple[float, float, float, float]]]:
    """Every unit with its centre, w + d, side, box and bounding box (per layout)."""
    def build() -> list:
        out = []
        for o in state.units.values():
            out.append((o, o.x, o.y, o.w + o.d, state.armies[o.seat].side, o.box(), o.bbox()))
        return out

    return memo(state, "unit_table", build)


def _bb_apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float], margin: float = 0.0
              ) -> bool:
    """Bounding boxes more than ``margin`` apart: the shapes inside cannot meet (a pure prefilter)."""
    return a[2] + margin < b[0] or b[2] + margin < a[0] or a[3] + margin < b[1] or b[3] + margin < a[1]


def _union(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
           ) -> tuple[float, float, float, float]:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _disc_bb(b: Box) -> tuple[float, float, float, float]:
    """The bounding box of the disc a rectangle sweeps pivoting about its centre (a hair wider)."""
    r = math.hypot(b.w, b.d) / 2 + 1e-9
    return (b.cx - r, b.cy - r, b.cx + r, b.cy + r)


def _turn(a: float, b: float) -> float:
    d = normalize_deg(b - a)
    return d - 360.0 if d > 180.0 else d


def example_moves(state: SmokeState, u: Unit, simple_bonus: float = 0.0, simple_only: bool = False
                  ) -> list[tuple[str, float | None, float | None, tuple[float, float] | None]]:
    """One legal move of each kind for ``u`` (the listed examples of legal-commands): the longest of a
    few straight-ahead (simple) or straight-back (complex) moves that is legal."""
    moved = state.turn.moved if state.turn is not None else ()
    return memo(state, "example_moves", lambda: _example_moves(state, u, simple_bonus, simple_only),
                u.id, simple_bonus, simple_only, moved)


def _example_moves(state: SmokeState, u: Unit, simple_bonus: float, simple_only: bool
                   ) -> list[tuple[str, float | None, float | None, tuple[float, float] | None]]:
    p = profile_of(state, u)
    out = []
    b = u.box()
    if p.speed[0] > 0:
        top = p.speed[0] + simple_bonus
        for s in (top, top / 2, 0.5, 0.25, 0.0):
            try:
                plan_move(state, u, "simple", b.theta, s, None, simple_bonus=simple_bonus, simple_only=simple_only)
            except RuleViolation:
                continue
            out.append(("simple", _r(b.theta), _r(s), None))
            break
    if not simple_only and p.speed[1] > 0:
        top = p.speed[1]
        f = unit_vector(b.theta)
        done = False
        for direction in (f, (-f[0], -f[1]), (-f[1], f[0]), (f[1], -f[0])):
            for s in (top, top / 2, 0.25):
                v = (_r(direction[0] * s), _r(direction[1] * s))
                if math.hypot(*v) > top:
                    continue
                try:
                    plan_move(state, u, "complex", None, None, v)
                except RuleViolation:
                    continue
                out.append(("complex", None, None, v))
                done = True
                break
            if done:
                break
        if not done:
            out.append(("complex", None, None, (0.0, 0.0)))
    return out
