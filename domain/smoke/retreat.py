"""Retreats and failed retreats (SMOKE-RET, SMOKE-FRET, SMOKE-GEO-18, SMOKE-SR-1/5/6/16/25/27).

A retreat rolls its distance first; its owner then picks the direction (FAQ-18): straight toward
the own table edge, or straight back. The unit translates that far in a straight line and turns to
face the way it went. Touching an enemy unit or the table edge on the way destroys it; landing on
friends moves it on in the same line to the first free place (-1 army morale when the friend is of
another formation, SMOKE-FRET-2/3). Friends may be passed through.
"""
from __future__ import annotations

import math
from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, msg

from .choices import BOMB_PRICE, FAILED_PRICE, IRREGULAR, RETREAT_CONTACT, choice, cite
from .commanders import EDGE_DIRECTION, after_unit_stops, own_edge
from .events import RetreatRolled, UnitDestroyed, UnitRetreated
from .formations import enemies_touching, formation_of
from .geometry import EPS, Box, in_contact, overlap_depth, path_touches, sweep_interval
from .markers import nearest_marker
from .state import SmokeState, Unit
from .units import has, profile_of, roll_retreat
from .morale import lose_morale, reason_words

#: SMOKE-FRET-2 / SMOKE-SR-27: the morale an army loses for landing on friends / an Elite retreat.
FRIENDS_LOSS = 1
ELITE_LOSS = 1
_MAX_EXTENSIONS = 64


def retreat_refusal(state: SmokeState, u: Unit) -> "tuple[str, Message] | None":
    """SMOKE-RET-2: (rule, reason) when the unit may not retreat, else None."""
    if has(state, u, "never_retreats"):
        return "SMOKE-SR-5", msg("{unit} never retreats", unit=u.id)
    if has(state, u, "mutiny"):
        return "SMOKE-SR-25", msg("{unit} is mutinous and cannot retreat", unit=u.id)
    if has(state, u, "infantry"):
        terrain = state.terrain()
        for e in enemies_touching(state, u):
            if has(state, e, "pursuit"):
                eb = e.box()
                if not (terrain.partially_in(eb, "difficult") or terrain.partially_in(eb, "very_difficult")):
                    return "SMOKE-SR-1", msg("{unit} is infantry in contact with the pursuing unit {enemy}",
                                              unit=u.id, enemy=e.id)
    return None


def direction_vector(state: SmokeState, u: Unit, direction: str) -> tuple[float, float]:
    if direction == "edge":
        return EDGE_DIRECTION[own_edge(state, u.seat)]
    f = u.box().f
    return (-f[0], -f[1])


def _touches_edge(b: Box, width: float, height: float) -> bool:
    for x, y in b.corners():
        if x <= EPS or y <= EPS or x >= width - EPS or y >= height - EPS:
            return True
    return False


def _facing_of(v: tuple[float, float]) -> float:
    a = math.degrees(math.atan2(v[1], v[0]))
    return round(a + 360.0 if a < 0 else a, 6) % 360.0


def plan_retreat(state: SmokeState, u: Unit, distance: float, direction: str) -> dict[str, Any]:
    """SMOKE-GEO-18: the path and how it ends (measured, not applied), under the game's reading of
    SMOKE-CHOICE-RETREAT-CONTACT; when the other reading ends it otherwise (a unit that starts in contact and
    slides along the enemy), ``slide`` holds ``{"option", "other"}`` (the other reading's outcome)."""
    reading = choice(state, RETREAT_CONTACT)
    plan = _plan_retreat(state, u, distance, direction, reading == "slides")
    if distance > 0 and any(in_contact(u.box(), e.box()) for e in state.units.values()
                            if e.id != u.id and state.enemy(u, e)):
        other = _plan_retreat(state, u, distance, direction, reading != "slides")
        if other["outcome"] != plan["outcome"]:
            plan["slide"] = {"option": reading, "other": other["outcome"]}
    return plan


def _plan_retreat(state: SmokeState, u: Unit, distance: float, direction: str, slide: bool) -> dict[str, Any]:
    assert state.battle is not None
    W, H = state.battle.width, state.battle.height
    b = u.box()
    if distance <= 0:
        return {"outcome": "zero", "vector": (0.0, 0.0), "moved": 0.0, "end": b, "friends": ()}
    v = direction_vector(state, u, direction)
    enemies = [e for e in state.units.values() if e.id != u.id and state.enemy(u, e)]
    friends = [f for f in state.units.values() if f.id != u.id and not state.enemy(u, f)]
    P = b.corners()

    def fail(at: float, why: Message, what: str | None) -> dict[str, Any]:
        return {"outcome": "destroyed", "vector": v, "moved": at, "end": b.moved(v[0] * at, v[1] * at),
                "touched": what, "why": why, "friends": ()}

    for e in sorted(enemies, key=lambda e: e.id):
        if path_touches(P, v, distance, e.box().corners(), slide):
            return fail(distance, msg("touches the enemy unit {enemy}", enemy=e.id), e.id)
    moved = b.moved(v[0] * distance, v[1] * distance)
    if _touches_edge(moved, W, H):
        return fail(distance, msg("reaches the table edge"), "table edge")
    turned = Box(moved.cx, moved.cy, _facing_of(v), b.w, b.d)
    for e in enemies:
        if in_contact(turned, e.box()) or overlap_depth(turned.corners(), e.box().corners()) > 0:
            return fail(distance, msg("turning to face its way, it touches the enemy unit {enemy}", enemy=e.id), e.id)
    if _touches_edge(turned, W, H):
        return fail(distance, msg("turning to face its way, it reaches the table edge"), "table edge")
    # landing on friends (SMOKE-FRET-2/3): on in the same line to the first free place
    t = distance
    blocked: list[str] = []
    base = Box(b.cx, b.cy, turned.theta, b.w, b.d)
    for _ in range(_MAX_EXTENSIONS):
        here = base.moved(v[0] * t, v[1] * t)
        on = [f for f in friends if overlap_depth(here.corners(), f.box().corners()) > EPS]
        if not on:
            break
        nxt = t
        for f in on:
            if f.id not in blocked:
                blocked.append(f.id)
            e_, x_ = sweep_interval(base.corners(), v, f.box().corners(), EPS)
            if e_ < x_:
                nxt = max(nxt, x_)
        t = nxt + 1e-6 if nxt > t else t + EPS
    if t > distance:
        start_ext = base.moved(v[0] * distance, v[1] * distance)
        for e in sorted(enemies, key=lambda e: e.id):
            if path_touches(start_ext.corners(), v, t - distance, e.box().corners(), slide):
                r = fail(t, msg("moving on past friends, it touches the enemy unit {enemy}", enemy=e.id), e.id)
                r["friends"] = tuple(blocked)
                return r
        turned = base.moved(v[0] * t, v[1] * t)
        if _touches_edge(turned, W, H):
            r = fail(t, msg("moving on past friends, it reaches the table edge"), "table edge")
            r["friends"] = tuple(blocked)
            return r
    return {"outcome": "ok", "vector": v, "moved": t, "end": turned, "friends": tuple(blocked)}


def roll_retreat_distance(out: Any, uid: str, context: str) -> None:
    """SMOKE-RET-3 step 1 (the distance; terrain never changes it, SMOKE-MOVE-7)."""
    u = out.state.units[uid]
    p = profile_of(out.state, u)
    faces, dist = roll_retreat(p.retreat, out.dice)
    rb = RulingBuilder().add("SMOKE-RET-3", msg("{unit} retreats {expression}: {distance:g} UW (d6 {faces}).", unit=uid,
                                                expression=p.retreat, distance=dist, faces=", ".join(map(str, faces)))
                             if faces else msg("{unit} retreats {expression}: {distance:g} UW.", unit=uid,
                                               expression=p.retreat, distance=dist),
                             expression=p.retreat, faces=list(faces), distance=dist)
    if "d3" in p.retreat.lower():
        rb.add("SMOKE-DICE-2", msg("D3 is a d6 halved, rounded up."))
    rb.add("SMOKE-MOVE-7", msg("Terrain does not change a retreat's distance (FAQ-19)."))
    out.emit(RetreatRolled(unit=uid, expression=p.retreat, faces=faces, distance=dist, context=context), rb,
             summary=msg("{unit} retreat {distance:g} UW", unit=uid, distance=dist))
    if dist <= 0:
        execute_retreat(out, uid, "back", context)


def execute_retreat(out: Any, uid: str, direction: str, context: str, battle_markers: tuple[str, ...] = ()) -> bool:
    """SMOKE-RET-3/4/5, SMOKE-FRET: move (or destroy) the unit; True if it is still on the table."""
    st: SmokeState = out.state
    u = st.units[uid]
    pending = st.turn.bombard_retreat if context == "bombardment" else st.turn.battle.retreat  # type: ignore[union-attr]
    assert pending is not None
    distance = pending.distance
    _, formation = formation_of(st, uid)
    plan = plan_retreat(st, u, distance, direction)
    irregular = has(st, u, "irregular")
    other_formation = bool(plan["friends"]) and any(f not in formation for f in plan["friends"])
    start = (round(u.x, 4), round(u.y, 4), round(u.facing, 4))
    end_box: Box = plan["end"]
    end = (round(end_box.cx, 4), round(end_box.cy, 4), round(end_box.theta % 360.0, 4))
    rb = RulingBuilder()
    if plan["outcome"] == "zero":
        rb.add("SMOKE-RET-4", msg("{unit} retreats 0: it neither moves nor turns; the hit is cancelled.", unit=uid))
        end = start
    else:
        rb.add("SMOKE-RET-3", msg("{unit} retreats {moved:.3f} UW {direction} from ({from_x:.3f}, {from_y:.3f}) to "
                                  "({to_x:.3f}, {to_y:.3f}) (centre to centre) and turns to face that way "
                                  "({facing:g}).",
                                  unit=uid, moved=plan['moved'], direction=msg("toward its own table edge") if direction == 'edge' else msg("straight back"), from_x=start[0], from_y=start[1], to_x=end[0], to_y=end[1], facing=end[2]), direction=direction, vector=[round(c, 6) for c in plan["vector"]],
               rolled=distance, moved=round(plan["moved"], 4), start=list(start), end=list(end))
        rb.add("SMOKE-GEO-18", msg("The path is a straight translation; it may pass through friends."))
    price_marker = None
    survived = plan["outcome"] != "destroyed"
    if plan["friends"]:
        rb.add("SMOKE-FRET-2" if other_formation else "SMOKE-FRET-3",
               msg("It would have landed on {friends}: it moves on in the same line to the first free "
                   "place{morale_note}{irregular_note}.",
                   friends=', '.join(plan['friends']), morale_note=msg(" (another formation: -1 army morale)") if other_formation and not irregular else "",
                   irregular_note=msg(" (Irregular: no loss, SMOKE-FRET-4)") if other_formation and irregular else ""),
               friends=list(plan["friends"]))
    if plan.get("slide"):
        opt = plan["slide"]["option"]
        cite(rb, RETREAT_CONTACT, opt, msg("{unit} starts its retreat in contact with the enemy and slides along it: "
                                           "that touches the enemy, so the retreat fails.", unit=uid)
             if opt == "destroyed" else
             msg("{unit} starts its retreat in contact with the enemy and slides along it: sliding along is no new "
                 "touch, only pressing into the enemy would be.", unit=uid))
    if not survived:
        rb.add("SMOKE-FRET-1", msg("Failed retreat: it {why} and is destroyed.", why=plan['why']), touched=plan.get("touched"))
    raises = True
    if not survived:  # SMOKE-CHOICE-FAILED-PRICE: a failed retreat raises the price or not
        opt = choice(st, FAILED_PRICE)
        raises = opt == "yes"
        cite(rb, FAILED_PRICE, opt, msg("{unit} was destroyed by its failed retreat: it still raises the nearest "
                                        "marker's price.", unit=uid) if raises else
             msg("{unit} was destroyed by its failed retreat: it raises no price.", unit=uid))
        if not raises and context == "bombardment":
            rb.add("SMOKE-BOMB-8", msg("A bombardment retreat raises no battle price (GAP-B-12)."))
    if raises and context == "bombardment":  # SMOKE-CHOICE-BOMB-PRICE
        opt = choice(st, BOMB_PRICE)
        raises = opt == "yes"
        cite(rb, BOMB_PRICE, opt, msg("a retreat from a bombardment raises the price of the nearest marker on the "
                                      "table.") if raises else msg("a retreat from a bombardment raises no battle "
                                                                   "price."))
        if not raises:
            rb.add("SMOKE-BOMB-8", msg("A bombardment retreat raises no battle price (GAP-B-12)."))
    if raises and context in ("battle", "bombardment"):
        if has(st, u, "light"):
            rb.add("SMOKE-SR-6", msg("{unit} is Light: its retreat does not raise the battle price.", unit=uid))
        else:
            markers = tuple(st.markers) if context == "bombardment" else (
                battle_markers or (st.turn.battle.markers if st.turn and st.turn.battle else ()))
            near = nearest_marker(st, end_box, markers)
            if near is not None:
                price_marker = near[0]
                rb.add("SMOKE-RET-5", msg("The price of the nearest marker {marker} ({distance:.3f} UW away) rises by "
                                          "1.", marker=near[0], distance=near[1]),
                       marker=near[0], distance=round(near[1], 4))
    out.emit(UnitRetreated(unit=uid, direction=direction, vector=tuple(round(c, 6) for c in plan["vector"]),
                           distance=distance, moved=round(plan["moved"], 4), start=start, end=end,
                           outcome=plan["outcome"], touched=plan.get("touched"), friends=tuple(plan["friends"]),
                           other_formation=other_formation, context=context, price_marker=price_marker),
             rb, summary=msg("{unit} retreats", unit=uid) if survived else msg("{unit} retreats and is destroyed",
                                                                                unit=uid))
    if has(st, u, "elite"):
        lose_morale(out, u.seat, ELITE_LOSS, "SMOKE-SR-27", f"the Elite unit {uid} retreated")
    if out.over:
        return False
    if not survived:
        destroy(out, uid, "failed retreat (SMOKE-FRET-1)", failed_retreat=True)
        return False
    if other_formation and not irregular:
        lose_morale(out, u.seat, FRIENDS_LOSS, "SMOKE-FRET-2", f"{uid} retreated onto a unit of another formation")
    if out.over:
        return True
    if plan["outcome"] != "zero":
        after_unit_stops(out, uid)
    return True


def destroy(out: Any, uid: str, reason: str, failed_retreat: bool = False) -> None:
    """Remove the unit; its army loses the parenthesised Morale (SMOKE-DISC-3), except for an
    Irregular unit's failed retreat (SMOKE-FRET-4, GAP-B-13)."""
    st = out.state
    u = st.units[uid]
    p = profile_of(st, u)
    rb = RulingBuilder().add("SMOKE-DISC-3" if not failed_retreat else "SMOKE-FRET-1",
                             msg("{unit} ({p_name}) is destroyed: {reason}.", unit=uid, p_name=p.name, reason=reason_words(reason)))
    irregular_free = False
    if failed_retreat and has(st, u, "irregular"):  # SMOKE-FRET-4 under SMOKE-CHOICE-IRREGULAR
        opt = choice(st, IRREGULAR)
        irregular_free = opt == "all"
        cite(rb, IRREGULAR, opt, f"{uid} is Irregular and destroyed by its failed retreat: " + (
            "its army loses no morale for it, the destruction included." if irregular_free else
            "only the -1 for landing on friends is waived; its destruction costs its morale as usual."))
        if irregular_free:
            rb.add("SMOKE-FRET-4", msg("An Irregular unit's failed retreat costs no army morale (GAP-B-13: the "
                                       "destruction loss too)."))
    if not irregular_free and has(st, u, "expendable"):
        rb.add("SMOKE-SR-28", msg("Expendable: the loss ({morale_loss}) already includes the 1 less.",
                                  morale_loss=p.morale_loss))
    out.emit(UnitDestroyed(unit=uid, seat=u.seat, reason=reason), rb, summary=msg("{unit} destroyed", unit=uid))
    if not irregular_free:
        lose_morale(out, u.seat, p.morale_loss, "SMOKE-DISC-3", f"{uid} destroyed")
