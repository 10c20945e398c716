"""Commanders: command radius, riding, risk and displacement (SMOKE-CMD, SMOKE-RISK, SMOKE-CMDR,
SMOKE-GEO-16/19, SMOKE-SR-22).

A commander is a disc whose centre is its head (SMOKE-GEO-16; radius GAP-B-21). Command distance
to a formation is the least distance from the head to one of its units (a formation is in radius
when any part of one unit is, FAQ-3), halved for an all-Vanguard formation. Displacement moves
the head 2 UW straight toward the own table edge (or to it), and when the disc would overlap a unit
there, to the nearest point where it overlaps none (Shapely: the table less every unit grown by the
radius; the nearest point of that region, SMOKE-CMD-5, FAQ-22).
"""
from __future__ import annotations

import math
from typing import Any

import shapely
from shapely.geometry import Point as SPoint
from shapely.geometry import box as sbox
from shapely.ops import nearest_points, unary_union

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, msg

from .events import CommanderDisplaced, CommanderOut, CommanderRisked
from .geometry import (
    EPS, Box, Point, point_box_distance, point_segment_distance, rotation_sweep, signed_distance, translation_sweep,
)
from .seat_words import seat_words
from .state import Commander, SmokeState, Unit
from .terrain import box_polygon
from .units import has
from .morale import lose_morale

#: SMOKE-GEO-16 / GAP-B-21 (INFERRED): a commander figure's radius, UW.
COMMANDER_RADIUS = 0.25
#: SMOKE-RISK-4 / GAP-B-21 (INFERRED): the displacement toward the own table edge ("up to 2 UW": 2).
DISPLACEMENT = 2.0
#: SMOKE-RISK-6: a deputy is never below this level.
DEPUTY_MIN_LEVEL = 2

EDGE_DIRECTION = {"south": (0.0, -1.0), "north": (0.0, 1.0), "west": (-1.0, 0.0), "east": (1.0, 0.0)}


#: SMOKE-DEP-5: the opposite table edge (the "confusion" deployment gives the opponent the opposite one).
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}


def own_edge(state: SmokeState, seat: str) -> str:
    """SMOKE-DEP-5: the side's table edge (chosen in a "confusion" deployment, else the battle's, which
    the content loader checks is the edge its deployment zone overlaps most)."""
    assert state.battle is not None
    sid = state.armies[seat].side
    chosen = state.edges.get(sid)
    if chosen is not None:
        return chosen
    side = state.battle.side(sid)
    assert side is not None
    return side.edge


def command_distance(state: SmokeState, c: Commander, units: list[Unit]) -> float:
    """SMOKE-RISK-1, SMOKE-CMD-1/6, SMOKE-SR-22: from the commander's head to the nearest unit of the formation
    (halved: all Vanguard)."""
    d = min(point_box_distance((c.x, c.y), u.box()) for u in units)
    if units and all(has(state, u, "vanguard") for u in units):
        d /= 2
    return d


def overlaps_unit(p: Point, u: Unit) -> bool:
    """The disc overlaps the unit ("ends on" it, SMOKE-GEO-16)."""
    k = (u.w + u.d) / 2 + COMMANDER_RADIUS  # beyond this on an axis the half-diagonal cannot reach
    if abs(p[0] - u.x) > k or abs(p[1] - u.y) > k:
        return False
    return point_box_distance(p, u.box()) < COMMANDER_RADIUS - EPS


def touches_unit(p: Point, u: Unit) -> bool:
    """The unit's rectangle meets the disc (SMOKE-GEO-16)."""
    k = (u.w + u.d) / 2 + COMMANDER_RADIUS + 2 * EPS
    if abs(p[0] - u.x) > k or abs(p[1] - u.y) > k:
        return False
    return point_box_distance(p, u.box()) <= COMMANDER_RADIUS + EPS


def free_spot(state: SmokeState, p: Point) -> bool:
    assert state.battle is not None
    r = COMMANDER_RADIUS
    if not (r - 1e-9 <= p[0] <= state.battle.width - r + 1e-9 and r - 1e-9 <= p[1] <= state.battle.height - r + 1e-9):
        return False
    return not any(overlaps_unit(p, u) for u in state.units.values())


def displacement_target(state: SmokeState, c: Commander) -> tuple[Point, bool]:
    """SMOKE-GEO-19: (where the head goes, whether the nearest free spot was needed)."""
    assert state.battle is not None
    W, H = state.battle.width, state.battle.height
    r = COMMANDER_RADIUS
    dx, dy = EDGE_DIRECTION[own_edge(state, c.seat)]
    room = {(0.0, -1.0): c.y - r, (0.0, 1.0): H - r - c.y, (-1.0, 0.0): c.x - r, (1.0, 0.0): W - r - c.x}[(dx, dy)]
    step = max(0.0, min(DISPLACEMENT, room))
    target = (c.x + dx * step, c.y + dy * step)
    if free_spot(state, target):
        return (round(target[0], 4), round(target[1], 4)), False
    table = sbox(r, r, W - r, H - r)
    blocked = unary_union([box_polygon(u.box()).buffer(r, quad_segs=16) for u in state.units.values()])
    region = table.difference(blocked)
    if region.is_empty:
        return (round(target[0], 4), round(target[1], 4)), True
    q = nearest_points(region, SPoint(target))[0]
    # step a hair into the free region so that rounding never lands on a unit's edge
    x, y = q.x, q.y
    if not free_spot(state, (x, y)):
        inner = region.buffer(-0.002)
        if not inner.is_empty:
            q = nearest_points(inner, SPoint(target))[0]
            x, y = q.x, q.y
    return (round(x, 4), round(y, 4)), True


def displace(out: Any, c: Commander, reason: str, rule: str) -> None:
    end, nearest = displacement_target(out.state, c)
    rb = RulingBuilder().add(rule, msg("{id} is displaced toward its own table edge ({reason}): its head goes from "
                                       "({x:.3f}, {y:.3f}) to ({to_x:.3f}, {to_y:.3f}).",
                                       id=c.id, reason=reason, x=c.x, y=c.y, to_x=end[0], to_y=end[1]),
                             start=[c.x, c.y], end=list(end))
    rb.add("SMOKE-GEO-19", msg("The head moves {displacement:g} UW straight toward the {edge} edge (or to it).",
                               displacement=DISPLACEMENT, edge=own_edge(out.state, c.seat)), distance=DISPLACEMENT)
    if nearest:
        rb.add("SMOKE-CMD-5", msg("There is no room toward the own edge: the nearest free spot is used (FAQ-22)."))
    out.emit(CommanderDisplaced(commander=c.id, start=(c.x, c.y), end=end, reason=reason, nearest_free=nearest), rb,
             summary=msg("{id} displaced", id=c.id))


def commander_out(out: Any, c: Commander, why: Message, rule: str) -> None:
    """SMOKE-RISK-5/6 for the general; SMOKE-CMDR-1c for an additional commander."""
    army = out.state.armies[c.seat]
    if not c.general:
        out.emit(CommanderOut(seat=c.seat, commander=c.id, level=army.level, new_level=army.level, removed=True),
                 RulingBuilder().add("SMOKE-CMDR-1", msg("The additional commander {id} failed a risk ({why}): it "
                                                         "is removed from play, with no loss of army morale "
                                                         "(INFERRED).", id=c.id, why=why)),
                 summary=msg("{id} removed from play", id=c.id))
        return
    level = army.level
    new = max(DEPUTY_MIN_LEVEL, level - 1)
    out.emit(CommanderOut(seat=c.seat, commander=c.id, level=level, new_level=new, removed=False),
             RulingBuilder().add(rule, msg("The commander of {seat} is out of action ({why}).", seat=seat_words(c.seat), why=why))
             .add("SMOKE-RISK-6", msg("A deputy of level {new} takes over (one lower, never below "
                                      "{deputy_min_level}); it may no longer risk for extra dice.",
                                      new=new, deputy_min_level=DEPUTY_MIN_LEVEL),
                  level=level, new_level=new),
             summary=msg("{seat}'s commander out of action", seat=seat_words(c.seat)))
    lose_morale(out, c.seat, level, "SMOKE-RISK-5", f"commander out of action (level {level})")


def after_unit_stops(out: Any, uid: str) -> None:
    """SMOKE-CMD-3/4, SMOKE-RISK-3/4: a unit ended its movement on or touching commanders."""
    st = out.state
    u = st.units.get(uid)
    if u is None:
        return
    for c in sorted(st.commanders.values(), key=lambda c: c.id):
        if out.over:
            return
        c = out.state.commanders.get(c.id)
        if c is None:
            continue
        head = (c.x, c.y)
        friendly = out.state.armies[c.seat].side == out.state.armies[u.seat].side
        if friendly:
            if overlaps_unit(head, u):
                displace(out, c, f"the friendly unit {u.id} ended its movement on it", "SMOKE-CMD-3")
            continue
        if touches_unit(head, u):
            risk(out, c, msg("the enemy unit {enemy} ended its movement on or touching it", enemy=u.id))


def move_sweep(start: Box, end: Box, kind: str) -> list[list[Point]]:
    """Convex pieces covering the area a unit sweeps on its move (SMOKE-GEO-17): a simple move pivots about
    its centre, then goes straight; a complex move goes straight, then may pivot."""
    dx, dy = end.cx - start.cx, end.cy - start.cy
    if kind == "simple":
        turned = Box(start.cx, start.cy, end.theta, start.w, start.d)
        return rotation_sweep(start, end.theta) + [translation_sweep(turned, dx, dy)]
    there = Box(end.cx, end.cy, start.theta, start.w, start.d)
    return [translation_sweep(start, dx, dy)] + rotation_sweep(there, end.theta)


def passed_over(state: SmokeState, uid: str, start: Box, end: Box, kind: str) -> list[Commander]:
    """The enemy commanders the unit's move passed over without ending on or touching them
    (SMOKE-CHOICE-GENERAL-PASS): the disc meets the swept area but not the unit where it stopped."""
    u = state.units[uid]
    side = state.armies[u.seat].side
    pieces: list[list[Point]] | None = None
    got = []
    for c in sorted(state.commanders.values(), key=lambda c: c.id):
        if state.armies[c.seat].side == side:
            continue
        head = (c.x, c.y)
        if point_box_distance(head, end) <= COMMANDER_RADIUS + EPS:
            continue  # ends on or touching it: SMOKE-CMD-4 under both readings
        reach = math.hypot(start.w, start.d) / 2 + COMMANDER_RADIUS + EPS  # the sweep is within this of the path
        if point_segment_distance(head, (start.cx, start.cy), (end.cx, end.cy)) > reach:
            continue
        if pieces is None:
            pieces = move_sweep(start, end, kind)
        if any(signed_distance(head, piece) <= COMMANDER_RADIUS + EPS for piece in pieces):
            got.append(c)
    return got


def after_commander_moves(out: Any, cid: str) -> None:
    """A commander that ends its ride touching enemy units is exposed to risk (SMOKE-RISK-3)."""
    c = out.state.commanders.get(cid)
    if c is None:
        return
    side = out.state.armies[c.seat].side
    if any(touches_unit((c.x, c.y), u) for u in out.state.units.values() if out.state.armies[u.seat].side != side):
        risk(out, c, msg("it ended its ride touching enemy units"))


def risk(out: Any, c: Commander, why: Message) -> None:
    """SMOKE-RISK-3/4: roll d6 (out on 1, or 1-2 in contact with enemy cavalry), then displace."""
    st = out.state
    side = st.armies[c.seat].side
    touching = [u for u in st.units.values() if st.armies[u.seat].side != side and touches_unit((c.x, c.y), u)]
    cavalry = any(has(st, u, "cavalry") for u in touching)
    face = out.dice.value(6) + 1
    failed = face == 1 or (cavalry and face <= 2)
    rb = RulingBuilder().add("SMOKE-RISK-3", msg("{id} is exposed to risk ({why}; touching its disc of "
                                                 "{commander_radius:g} UW at ({x:.3f}, {y:.3f}): {touching}): d6 = "
                                                 "{face}; out of action on {out_on}.",
                                                 id=c.id, why=why, commander_radius=COMMANDER_RADIUS, x=c.x, y=c.y, touching=', '.join(sorted(u.id for u in touching)) or msg("none"), face=face, out_on=msg("1-2 (enemy cavalry in contact)") if cavalry else '1'),
                             face=face, cavalry=cavalry, units=sorted(u.id for u in touching))
    out.emit(CommanderRisked(commander=c.id, units=tuple(sorted(u.id for u in touching)), cavalry=cavalry, face=face,
                             out=failed), rb, summary=msg("{id} risked: {face}", id=c.id, face=face))
    if failed:
        commander_out(out, c, msg("risk roll {face}", face=face), "SMOKE-RISK-5")
        if out.over:
            return
    c2 = out.state.commanders.get(c.id)
    if c2 is not None:
        displace(out, c2, "after a risk from enemy contact (FAQ-21: a failed commander stays on the table)",
                 "SMOKE-RISK-4")


__all__ = ["COMMANDER_RADIUS", "DISPLACEMENT", "command_distance", "after_unit_stops", "after_commander_moves",
           "move_sweep", "passed_over",
           "risk", "commander_out", "displace", "displacement_target", "free_spot", "own_edge", "shapely"]
