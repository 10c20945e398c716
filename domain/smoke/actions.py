"""Action dice and the action board (SMOKE-ACT, SMOKE-RISK-2, SMOKE-CMD, SMOKE-CMDR-1, SMOKE-MP-3).

The roll, the risk for extra dice on 1s, placing dice on actions and tactics, and resolving actions
one die at a time: activating a formation (each unit one simple or complex move) or riding a
commander. The board is data (SMOKE-TEST-1 ships; a real board replaces it).
"""
from __future__ import annotations

import math
from typing import Any

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import Message, msg, msg_n

from .choices import COMPLEX_PATH, GENERAL_PASS, choice, cite
from .commanders import (
    COMMANDER_RADIUS, after_commander_moves, after_unit_stops, command_distance, commander_out, passed_over, risk,
)
from .content import Activate, Ride
from .events import (
    ActionDiceRolled, ActionsEnded, ActivationEnded, CommanderRode, DiePlaced, FormationActivated, PlacementEnded,
    RiskTaken, UnitMoved,
)
from .formations import formation_of
from .geometry import box_distance, point_box_distance
from .morale import count_sixes
from .movement import plan_move, pose
from .seat_words import seat_words
from .state import SmokeState, memo
from .units import has
from .commanders import overlaps_unit


def roll_action_dice(out: Any, seat: str) -> None:
    """SMOKE-ACT-1: as many d6 as the commander's level (dice on the board do not count, FAQ-7;
    additional commanders add none, FAQ-9)."""
    army = out.state.armies[seat]
    faces = tuple(out.dice.value(6) + 1 for _ in range(army.level))
    ones, sixes = faces.count(1), faces.count(6)
    rb = RulingBuilder().add("SMOKE-ACT-1", msg("{seat} rolls {level} action dice (commander level {level}): "
                                                "{faces}.", seat=seat_words(seat), level=army.level, faces=str(list(faces))), level=army.level, faces=list(faces))
    if ones and army.can_risk:
        rb.add("SMOKE-ACT-2", msg_n("{ones} one(s): for each, the commander may be risked for one additional die.",
                                    "{ones} one(s): for each, the commander may be risked for one additional die.", "ones", ones=ones))
    elif ones:
        rb.add("SMOKE-RISK-6", msg("A deputy may not risk for additional dice."))
    out.emit(ActionDiceRolled(seat=seat, level=army.level, faces=faces, ones=ones, sixes=sixes), rb,
             summary=msg("{seat} rolls {faces}", seat=seat_words(seat), faces=', '.join(map(str, faces))))
    count_sixes(out, seat, sixes)


def _stage(state: SmokeState, seat: str):
    t = state.turn
    a = t.actions if t else None
    if a is None or a.seat != seat:
        raise RuleViolation("SMOKE-TURN-2", msg("It is not your actions phase."))
    return a


def take_risk(out: Any, seat: str) -> None:
    a = _stage(out.state, seat)
    if a.stage != "risk" or a.risk_left <= 0:
        raise RuleViolation("SMOKE-ACT-2", msg("There is no rolled 1 left to risk the commander for (the dice have "
                                               "been placed, or none was a 1)."))
    if not out.state.armies[seat].can_risk:
        raise RuleViolation("SMOKE-RISK-6", msg("A deputy may no longer risk the commander for extra dice."))
    face = out.dice.value(6) + 1
    failed = face == 1
    rb = RulingBuilder().add("SMOKE-ACT-2", msg("{seat} risks the commander for a 1: the additional die shows "
                                                "{face} (a new die, not a re-roll, FAQ-8; its own 1 allows no "
                                                "further risk).", seat=seat_words(seat), face=face),  # SMOKE-DICE-4: no re-rolls
                             face=face)
    out.emit(RiskTaken(seat=seat, face=face, out=failed), rb, summary=msg("{seat} risks: {face}",
                                                                          seat=seat_words(seat), face=face))
    if face == 6:
        count_sixes(out, seat, 1)
    if failed:
        g = out.state.general(seat)
        if g is not None:
            commander_out(out, g, msg("the additional die showed 1"), "SMOKE-RISK-2")


def place_die(out: Any, seat: str, die: int, sid: str) -> None:
    st: SmokeState = out.state
    a = _stage(st, seat)
    if a.stage not in ("risk", "place"):
        raise RuleViolation("SMOKE-ACT-4", msg("Placement is over: all dice are placed before any action is "
                                               "resolved (INFERRED)."))
    if not 0 <= die < len(a.dice) or die in a.used:
        raise RuleViolation("SMOKE-ACT-4", msg("There is no unplaced action die {die} (dice: {dice}; placed or "
                                               "discarded: {used}).",
                                               die=die, dice=str(list(a.dice)), used=str(list(a.used))), die=die)
    slot = st.board_of(seat).slot(sid)
    if slot is None:
        ids = ", ".join(s.id for s in st.board_of(seat).slots)
        raise RuleViolation("SMOKE-ACT-4", msg("{slot} is not on your action board ({ids}).", slot=repr(sid), ids=ids), slot=sid)
    face = a.dice[die]
    rb = RulingBuilder()
    replaced = None
    if slot.kind == "tactic":
        replaced = st.armies[seat].tactics.get(sid)
        rb.add("SMOKE-ACT-4", msg("Die {die} ({face}) goes on the tactic {slot_name}, replacing the {replaced} there "
                                  "(discarded).", die=die, face=face, slot_name=slot.name, replaced=replaced)
               if replaced else msg("Die {die} ({face}) goes on the tactic {slot_name}.", die=die, face=face,
                                    slot_name=slot.name),
               die=die, face=face, slot=sid)
    else:
        rb.add("SMOKE-ACT-4", msg("Die {die} ({face}) goes on the action {slot_name} (D = {face}).",
                                  die=die, face=face, slot_name=slot.name),
               die=die, face=face, slot=sid)
    out.emit(DiePlaced(seat=seat, die=die, face=face, slot=sid, tactic=slot.kind == "tactic", replaced=replaced), rb,
             summary=msg("{seat}: {face} on {slot_name}", seat=seat_words(seat), face=face, slot_name=slot.name))


def end_placement(out: Any, seat: str) -> None:
    a = _stage(out.state, seat)
    if a.stage not in ("risk", "place"):
        raise RuleViolation("SMOKE-ACT-4", msg("Placement is already over."))
    left = tuple(i for i in range(len(a.dice)) if i not in a.used)
    out.emit(PlacementEnded(seat=seat, discarded=left),
             RulingBuilder().add("SMOKE-ACT-4", msg_n("Placement ends; {count} die/dice not placed are discarded "
                                                      "(INFERRED).",
                                                      "Placement ends; {count} die/dice not placed are discarded "
                                                      "(INFERRED).", "count", count=len(left)), discarded=list(left)),
             summary=msg("{seat} ends placement", seat=seat_words(seat)))


def _resolving(state: SmokeState, seat: str):
    a = _stage(state, seat)
    if a.stage != "resolve":
        raise RuleViolation("SMOKE-ACT-4", msg("Place the dice first (end the placement), then resolve actions."))
    if a.activation is not None:
        raise RuleViolation("SMOKE-ACT-5", msg("Finish the activation in progress before the next action (FAQ-5)."))
    return a


def _take(state: SmokeState, seat: str, sid: str, die: int, kind: type):
    a = _resolving(state, seat)
    slot = state.board_of(seat).slot(sid)
    if slot is None or slot.kind != "action" or not isinstance(slot.effect, kind):
        raise RuleViolation("SMOKE-ACT-5", msg("{slot} is not such an action of your board.", slot=repr(sid)), slot=sid)
    if die not in a.placed.get(sid, ()):
        raise RuleViolation("SMOKE-ACT-5", msg("Die {die} is not on {slot_name} (there: {there}).",
                                               die=die, slot_name=slot.name, there=str(list(a.placed.get(sid, ())))), die=die, slot=sid)
    return a, slot, a.dice[die]


def _move_words(uid: str, kind: str, m: dict[str, Any], a: Any, b: Any) -> Message:
    """SMOKE-MOVE-3/4: a move in words, centre to centre, with where it stopped (SMOKE-MOVE-6) and its limit."""
    said = dict(unit=uid, distance=m["distance"], x=a[0], y=a[1], facing=a[2], x2=b[0], y2=b[1], facing2=b[2],
                limit=m["limit"])
    if m.get("stopped_by"):
        said.update(requested=m["requested"], stopped_by=m["stopped_by"])
        return (msg("{unit} makes a simple move of {distance:.3f} UW from ({x:.3f}, {y:.3f}) facing {facing:g} to "
                    "({x2:.3f}, {y2:.3f}) facing {facing2:g} (centre to centre) (asked {requested:.3f}; it stops on "
                    "touching {stopped_by}, SMOKE-MOVE-6); the limit is {limit:g} UW.", **said) if kind == "simple"
                else msg("{unit} makes a complex move of {distance:.3f} UW from ({x:.3f}, {y:.3f}) facing {facing:g} "
                         "to ({x2:.3f}, {y2:.3f}) facing {facing2:g} (centre to centre) (asked {requested:.3f}; it "
                         "stops on touching {stopped_by}, SMOKE-MOVE-6); the limit is {limit:g} UW.", **said))
    return (msg("{unit} makes a simple move of {distance:.3f} UW from ({x:.3f}, {y:.3f}) facing {facing:g} to "
                "({x2:.3f}, {y2:.3f}) facing {facing2:g} (centre to centre); the limit is {limit:g} UW.", **said)
            if kind == "simple" else
            msg("{unit} makes a complex move of {distance:.3f} UW from ({x:.3f}, {y:.3f}) facing {facing:g} to "
                "({x2:.3f}, {y2:.3f}) facing {facing2:g} (centre to centre); the limit is {limit:g} UW.", **said))


def _commander(state: SmokeState, seat: str, cid: str):
    c = state.commanders.get(cid)
    if c is None or c.seat != seat:
        mine = ", ".join(sorted(k for k, v in state.commanders.items() if v.seat == seat)) or "none"
        raise RuleViolation("SMOKE-CMDR-1", msg("{commander} is not one of your commanders ({mine}).",
                                                commander=repr(cid), mine=mine), commander=cid)
    return c


def may_command(state: SmokeState, seat: str, unit_seat: str) -> bool:
    """Your own units; an ally's by agreement (SMOKE-MP-3: option ``allied_command``)."""
    if unit_seat == seat:
        return True
    return bool(state.options.get("allied_command")) and state.armies[unit_seat].side == state.armies[seat].side


def too_close(state: SmokeState, key: str, members: tuple[str, ...], clearance: float
              ) -> tuple[str, str, float] | None:
    """SMOKE-ACT-8: the first (unit, enemy, gap) of the formation within ``clearance`` UW of an enemy
    unit, or None (per layout)."""
    def find() -> tuple[str, str, float] | None:
        for x in (state.units[m] for m in members):
            for e in state.units.values():
                if state.enemy(x, e):
                    reach = clearance + (x.w + x.d + e.w + e.d) / 2
                    if abs(x.x - e.x) > reach or abs(x.y - e.y) > reach:
                        continue
                    g = box_distance(x.box(), e.box())
                    if g <= clearance:
                        return x.id, e.id, g
        return None

    return memo(state, "too_close", find, key, members, clearance)


def activation_check(state: SmokeState, seat: str, sid: str, die: int, cid: str, uid: str
                     ) -> tuple[Any, int, list[str], dict[str, Any]]:
    # SMOKE-ACT-9 (FAQ-11): units in a battle, in fire contact or in melee may be activated: nothing refuses them
    a, slot, d = _take(state, seat, sid, die, Activate)
    eff: Activate = slot.effect  # type: ignore[assignment]
    c = _commander(state, seat, cid)
    u = state.units.get(uid)
    if u is None or not may_command(state, seat, u.seat):
        raise RuleViolation("SMOKE-ACT-6", msg("{unit} is not a unit you may activate.", unit=repr(uid)), unit=uid)
    key, members = formation_of(state, uid)
    units = [state.units[m] for m in members]
    radius = eff.radius.value(d)
    # the same for every die and action on this layout: remembered per commander position and formation
    dist = memo(state, "command_distance", lambda: command_distance(state, c, units), c.x, c.y, members)
    if dist > radius + 1e-9:
        raise RuleViolation("SMOKE-CMD-6", msg("The formation of {unit} is {distance:.3f} UW from {commander}'s "
                                               "head; the radius is {radius:g} UW (D = {d}).", unit=uid,
                                               distance=dist, commander=cid, radius=radius, d=d),
                            distance=round(dist, 4), radius=radius)
    nearest = min(units, key=lambda x: (point_box_distance((c.x, c.y), x.box()), x.id)).id
    measure: dict[str, Any] = {"formation": list(members), "command_distance": round(dist, 4),
                               "radius": radius, "commander": cid, "head": [c.x, c.y], "nearest": nearest}
    if all(has(state, x, "vanguard") for x in units):
        measure["vanguard_halved"] = True
    if eff.enemy_clearance is not None:
        close = too_close(state, key, members, eff.enemy_clearance)
        if close is not None:
            x_id, e_id, g = close
            raise RuleViolation("SMOKE-ACT-8", msg("{slot_name} cannot move units close to the enemy: {x_id} is "
                                                   "{g:.3f} UW from {e_id} (limit {enemy_clearance:g} UW; FAQ-30).",
                                                   slot_name=slot.name, x_id=x_id, g=g, e_id=e_id, enemy_clearance=eff.enemy_clearance), unit=x_id, enemy=e_id, gap=round(g, 4))
        measure["clearance"] = eff.enemy_clearance
    t = state.turn
    assert t is not None
    fresh = [m for m in members if m not in t.activated]
    if not fresh:
        raise RuleViolation("SMOKE-ACT-6", msg("Every unit of the formation of {unit} has been activated this turn "
                                               "(a unit at most once per turn).", unit=uid), unit=uid)
    return slot, d, fresh, measure


def activate(out: Any, seat: str, sid: str, die: int, cid: str, uid: str) -> None:
    st: SmokeState = out.state
    slot, d, fresh, measure = activation_check(st, seat, sid, die, cid, uid)
    eff: Activate = slot.effect  # type: ignore[assignment]
    rb = RulingBuilder().add("SMOKE-ACT-5", msg("{seat} takes die {die} (D = {d}) from {slot_name}.",
                                                seat=seat_words(seat), die=die, d=d, slot_name=slot.name), slot=sid, d=d)
    said = dict(distance=measure["command_distance"], commander=cid, x=measure["head"][0], y=measure["head"][1],
                unit=measure["nearest"], radius=measure["radius"])
    rb.add("SMOKE-CMD-6", msg("The formation is {distance:.3f} UW from {commander}'s head ({x:.3f}, {y:.3f}) to the "
                              "nearest point of {unit}'s rectangle, within {radius:g} UW (part of one unit suffices, "
                              "FAQ-3), halved: all Vanguard (SMOKE-SR-22).", **said)
           if measure.get("vanguard_halved") else
           msg("The formation is {distance:.3f} UW from {commander}'s head ({x:.3f}, {y:.3f}) to the nearest point "
               "of {unit}'s rectangle, within {radius:g} UW (part of one unit suffices, FAQ-3).", **said), **measure)
    rb.add("SMOKE-ACT-6", msg("Activated: {fresh} (each one simple or complex move).", fresh=', '.join(fresh)), units=fresh)
    skipped = [m for m in measure["formation"] if m not in fresh]
    if skipped:
        rb.add("SMOKE-ACT-6", msg("Already activated this turn: {skipped}.", skipped=', '.join(skipped)))
    out.emit(FormationActivated(seat=seat, slot=sid, die=die, d=d, commander=cid, units=tuple(fresh),
                                measure=measure, simple_bonus=eff.simple_bonus, simple_only=eff.simple_only), rb,
             summary=msg("{seat} activates {fresh}", seat=seat_words(seat), fresh=', '.join(fresh)))


def move_check(state: SmokeState, seat: str, uid: str, kind: str, facing, distance, vector, via=()):
    """SMOKE-ACT-6 one move per activated unit; SMOKE-MOVE-2: each unit moves on its own and may leave the formation."""
    t = state.turn
    a = t.actions if t else None
    act = a.activation if a else None
    if a is None or a.seat != seat or act is None:
        raise RuleViolation("SMOKE-ACT-6", msg("Units move when an action activates their formation."), unit=uid)
    if uid not in act.units:
        raise RuleViolation("SMOKE-ACT-6", msg("{unit} is not in the activated formation ({units}).",
                                               unit=uid, units=', '.join(act.units)),
                            unit=uid)
    if uid in act.moved:
        raise RuleViolation("SMOKE-ACT-6", msg("{unit} has already moved in this activation (one move each).",
                                               unit=uid), unit=uid)
    u = state.units.get(uid)
    if u is None:
        raise RuleViolation("SMOKE-UNIT-3", msg("{unit} is no longer on the table.", unit=uid), unit=uid)
    if has(state, u, "immobile") and uid in t.bombarded:  # type: ignore[union-attr]
        raise RuleViolation("SMOKE-SR-18", msg("{unit} is Immobile and bombarded this turn: it cannot move.",
                                               unit=uid), unit=uid)
    end, m = plan_move(state, u, kind, facing, distance, vector, simple_bonus=act.simple_bonus,
                       simple_only=act.simple_only, via=via)
    return u, end, m


def move(out: Any, seat: str, uid: str, kind: str, facing, distance, vector, via=()) -> None:
    st: SmokeState = out.state
    u, end, m = move_check(st, seat, uid, kind, facing, distance, vector, via)
    a, b = pose(u.box()), pose(end)
    rb = RulingBuilder().add("SMOKE-MOVE-3" if kind == "simple" else "SMOKE-MOVE-4",
                             _move_words(uid, kind, m, a, b), **m)
    if m.get("via"):
        cite(rb, COMPLEX_PATH, "path", msg("a complex move may take any path within its length: {unit} passes "
                                           "{points} on its way.", unit=uid,
                                           points=", ".join(f"({x:.3f}, {y:.3f})" for x, y in m["via_points"])))
    rb.add("SMOKE-GEO-17", msg("Swept area checked: no enemy passed through, no unit ended on, the table not left."))
    if m.get("cap_rule"):
        rb.add(m["cap_rule"], msg("Through {items}: at most {cap:g} UW.",
                                  items=', '.join(m.get('very_difficult') or m.get('difficult') or []), cap=m['cap']), cap=m["cap"])
    if m.get("road_bonus"):
        rb.add("SMOKE-TERR-6", msg("It starts and ends touching a road: +2 UW."))
    if m.get("action_bonus"):
        rb.add("SMOKE-ACT-6", msg("The action adds +{action_bonus:g} to the simple speed.",
                                  action_bonus=m['action_bonus']))
    if has(st, u, "immobile") and (m["distance"] > 0 or m.get("pivot")):
        rb.add("SMOKE-SR-18", msg("{unit} is Immobile: it loses Fire and Bombardment for the rest of this turn.",
                                  unit=uid))
    over = passed_over(st, uid, u.box(), end, kind)
    reading = choice(st, GENERAL_PASS)
    for c in over:
        cite(rb, GENERAL_PASS, reading, msg("{unit} passes over the enemy commander {commander} without stopping: "
                                            "touching it on the way puts it at risk (SMOKE-RISK-3).", unit=uid,
                                            commander=c.id) if reading == "touch" else
             msg("{unit} passes over the enemy commander {commander} without stopping: only a unit that stops on or "
                 "touching it puts it at risk.", unit=uid, commander=c.id), commander=c.id)
    out.emit(UnitMoved(unit=uid, kind=kind, start=pose(u.box()), end=pose(end), requested=m["requested"],
                       distance=m["distance"], limit=m["limit"], measure=m), rb, summary=msg("{unit} moves {distance:.2f}",
                                                                                             unit=uid, distance=m['distance']))
    if reading == "touch":
        for c in over:
            if out.over:
                return
            if c.id in out.state.commanders:
                risk(out, out.state.commanders[c.id], msg("the enemy unit {enemy} passed over it", enemy=uid))
    after_unit_stops(out, uid)


def end_activation(out: Any, seat: str) -> None:
    a = _stage(out.state, seat)
    if a.activation is None:
        raise RuleViolation("SMOKE-ACT-5", msg("No activation is in progress."))
    still = [u for u in a.activation.units if u not in a.activation.moved]
    out.emit(ActivationEnded(seat=seat),
             RulingBuilder().add("SMOKE-ACT-5", msg("The action is complete; {units} stay where they are.",
                                                    units=", ".join(still)) if still
                                 else msg("The action is complete."), stay=still),
             summary=msg("{seat} ends the activation", seat=seat_words(seat)))


def ride_check(state: SmokeState, seat: str, sid: str, die: int, cid: str, to) -> tuple[Any, int, float, float]:
    """SMOKE-CMD-2; SMOKE-ACT-7: a commander is not bound by SMOKE-ACT-6 (it may ride any number of times)."""
    _, slot, d = _take(state, seat, sid, die, Ride)
    c = _commander(state, seat, cid)
    x, y = float(to[0]), float(to[1])
    if not (math.isfinite(x) and math.isfinite(y)):
        raise RuleViolation("SMOKE-CMD-2", msg("The destination must be finite coordinates."), field="to")
    limit = slot.effect.distance.value(d)  # type: ignore[union-attr]
    dist = math.hypot(x - c.x, y - c.y)
    if dist > limit + 1e-9:
        raise RuleViolation("SMOKE-CMD-2", msg("{commander} may ride at most {limit:g} UW (D = {d}); "
                                               "{distance:.3f} UW asked.",
                                               commander=cid, limit=limit, d=d, distance=dist),
                            limit=limit, distance=round(dist, 4))
    assert state.battle is not None
    r = COMMANDER_RADIUS
    if not (r <= x <= state.battle.width - r and r <= y <= state.battle.height - r):
        raise RuleViolation("SMOKE-GEO-16", msg("{commander}'s figure must stay on the table.", commander=cid), to=[x, y])

    on = [u.id for u in state.units.values() if overlaps_unit((x, y), u)]
    if on:
        raise RuleViolation("SMOKE-CMD-2", msg("A commander may not end its movement on a unit ({on}).",
                                               on=', '.join(on)),
                            units=on)
    return slot, d, limit, dist


def ride(out: Any, seat: str, sid: str, die: int, cid: str, to) -> None:
    st: SmokeState = out.state
    slot, d, limit, dist = ride_check(st, seat, sid, die, cid, to)
    c = st.commanders[cid]
    end = (round(float(to[0]), 4), round(float(to[1]), 4))
    rb = RulingBuilder().add("SMOKE-ACT-5", msg("{seat} takes die {die} (D = {d}) from {slot_name}.",
                                                seat=seat_words(seat), die=die, d=d, slot_name=slot.name), slot=sid, d=d)
    rb.add("SMOKE-CMD-2", msg("{commander} rides {distance:.3f} UW (at most {limit:g}) from ({x:.3f}, {y:.3f}) to "
                              "({to_x:.3f}, {to_y:.3f}), head to head, passing freely over units and terrain "
                              "(FAQ-6).",
                              commander=cid, distance=dist, limit=limit, x=c.x, y=c.y, to_x=end[0], to_y=end[1]),
           start=[c.x, c.y], end=list(end), distance=round(dist, 4), limit=limit)
    out.emit(CommanderRode(seat=seat, commander=cid, slot=sid, die=die, d=d, start=(c.x, c.y), end=end,
                           distance=round(dist, 4), limit=limit), rb, summary=msg("{commander} rides", commander=cid))
    after_commander_moves(out, cid)


def end_actions(out: Any, seat: str) -> None:
    a = _stage(out.state, seat)
    if a.activation is not None:
        raise RuleViolation("SMOKE-ACT-5", msg("Finish the activation in progress first (FAQ-5)."))
    left = tuple(i for ds in a.placed.values() for i in ds)
    out.emit(ActionsEnded(seat=seat, discarded=left),
             RulingBuilder().add("SMOKE-ACT-10", msg_n("The actions are cleared ({count} die/dice left on them); "
                                                       "dice on tactics stay (FAQ-16).",
                                                       "The actions are cleared ({count} die/dice left on them); "
                                                       "dice on tactics stay (FAQ-16).", "count", count=len(left)), discarded=list(left)),
             summary=msg("{seat} ends the actions phase", seat=seat_words(seat)))
