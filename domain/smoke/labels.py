"""Clouds of Smoke's words for people (DESIGN 12): a label and, where a choice has a consequence to
see first, a warning for every legal command and template (``describe``, ``describe_template``), and
the printed names of the ids summaries and rulings cite (``names``).

The numbers come from the engine's own state and content: the die's face and the slot's printed text
(SMOKE-ACT-4), the commander's level and the army's morale for a risk (SMOKE-ACT-2, SMOKE-RISK-5/6),
the formation of a unit (``formations``), a move's speed (``profile.speed``, SMOKE-MOVE-3/4).
"""
from __future__ import annotations

from typing import Any

from domain.kernel import event_type_name

from . import commands as C
from .army import expanded
from .commanders import DEPUTY_MIN_LEVEL
from .formations import formations
from .movement import ROAD_BONUS
from .state import SmokeState

#: Steps the rules take by themselves, whoever's command set them off (a turn or step that starts, the
#: dice the rules roll, a unit or army lost, a phase, the end): the referee did them, not a seat.
_REFEREE_EVENTS = frozenset({
    "first_side_rolled", "turn_started", "step_started", "action_dice_rolled", "unit_destroyed", "morale_lost",
    "commander_out", "fire_contact_measured", "marker_removed", "battle_started", "battle_rolled",
    "discipline_tested", "battle_ended", "phase_advanced", "sixes_counted", "army_broken", "game_ended",
    "deployment_started", "columns_revealed", "deployment_step_done", "deployment_ended",
    "terrain_generation_started", "terrain_count_rolled", "terrain_rolled", "terrain_scattered",
    "terrain_generation_ended", "edge_choice_offered", "reinforcements_arrived", "hit_choice_offered",
    "retreat_rolled", "commander_risked", "commander_displaced",
})


def acted_by(event: Any) -> str | None:
    return "referee" if event_type_name(event) in _REFEREE_EVENTS else None


#: The chance that a risk die shows 1 (SMOKE-ACT-2: one d6).
RISK_FAIL = "1 in 6"


def roster(state: SmokeState, armies: Any = None) -> dict[str, str]:
    """Unit id -> profile id of every unit of the game, on the table, in reserve, to arrive or destroyed.

    The ids are numbered as ``SmokeRuleset.open`` numbers them: per seat ``P<n>-<i>``, the placed units
    in line-up (or army list) order, then the reinforcements. ``armies``: the content's army lists (for a
    column deployment, whose units come from the list)."""
    out = {u.id: u.profile for u in (*state.units.values(), *state.reserve.values())}
    out.update({a.unit.id: a.unit.profile for a in state.arrivals})
    b = state.battle
    if b is None:
        return out
    players = state.options.get("players", min(lu.players for lu in b.line_ups))
    lu = b.line_up(players)
    if lu is None:
        return out
    for slot in lu.armies:
        n = slot.seat.rsplit("-", 1)[-1]
        if slot.units:
            placed = [p.profile for p in slot.units]
        elif armies is not None and slot.army in armies:
            placed = expanded(armies[slot.army])
        else:
            placed = []
        later = [pl.profile for ev in lu.events if ev.kind == "reinforcements" and ev.seat == slot.seat
                 for pl in ev.units]
        for i, pid in enumerate([*placed, *later], start=1):
            out.setdefault(f"P{n}-{i:02d}", pid)
    return out


def names(state: SmokeState, armies: Any = None) -> dict[str, str]:
    """Units by their profile's printed name, commanders, action-board slots, sides (with their seats)."""
    out: dict[str, str] = {}
    for uid, pid in roster(state, armies).items():
        p = state.profiles.get(pid)
        out[uid] = p.name if p is not None else pid.replace("_", " ")
    for seat in state.seats:
        n = seat.rsplit("-", 1)[-1]
        out[f"P{n}-G"] = f"the general of {seat}"
        for j in range(1, 4):
            out[f"P{n}-C{j}"] = f"commander {j} of {seat}"
    titles = {s.id: s.name for s in state.battle.sides} if state.battle is not None else {}
    for side, seats in state.sides.items():
        out[side] = f"{titles.get(side, side.capitalize())} of {' and '.join(seats)}"
    for board in state.boards.values():
        for slot in board.slots:
            out.setdefault(slot.id, slot.name)
    return out


def _pt(p: Any) -> str:
    return f"({p[0]:.2f}, {p[1]:.2f})"


def _unit(state: SmokeState, uid: str) -> str:
    u = state.units.get(uid) or state.reserve.get(uid)
    if u is None:
        return uid
    return f"{state.profiles[u.profile].name} ({uid})"


def _formation(state: SmokeState, key: str) -> str:
    members = formations(state).get(key, (key,))
    if len(members) == 1:
        return _unit(state, members[0])
    return f"the formation of {_unit(state, key)} ({len(members)} units)"


def _commander(state: SmokeState, cid: str) -> str:
    c = state.commanders.get(cid) or state.reserve_commanders.get(cid)
    if c is None:
        return cid
    return "your general" if c.general else f"your commander {cid.rsplit('-', 1)[-1][1:]}"


def _slot_text(state: SmokeState, seat: str, sid: str, face: int | None) -> str:
    slot = state.board_of(seat).slot(sid)
    if slot is None:
        return sid
    text = slot.text.rstrip(".")
    if face is not None:
        text = text.replace("D + ", f"{face} + ").replace("max D ", f"max {face} ").replace("Up to D ", f"Up to {face} ")
    return f"{slot.name} ({slot.id}, {slot.kind}): {text[:1].lower() + text[1:]}"


def _risk_warning(state: SmokeState, seat: str) -> str:
    army = state.armies[seat]
    new = max(DEPUTY_MIN_LEVEL, army.level - 1)
    return (f"The extra die is a new d6: on a 1 ({RISK_FAIL}) your general is out of action (SMOKE-ACT-2, "
            f"SMOKE-RISK-2): your army loses {army.level} morale (its level, SMOKE-RISK-5; {army.morale} left now) "
            f"and a deputy of level {new} takes over, who may never risk again (SMOKE-RISK-6).")


def describe(state: SmokeState, seat: str, cmd: Any) -> dict[str, Any]:  # noqa: C901 - one case per command
    t = state.turn
    a = t.actions if t is not None else None
    warning = None
    if isinstance(cmd, C.TakeRisk):
        left = a.risk_left if a is not None else 0
        label = f"Take the risk: roll one extra action die for a rolled 1 ({left} left to risk)"
        warning = _risk_warning(state, seat)
    elif isinstance(cmd, C.PlaceDie):
        face = a.dice[cmd.die] if a is not None and 0 <= cmd.die < len(a.dice) else None
        label = f"Put your {face} on {_slot_text(state, seat, cmd.slot, face)}"
        slot = state.board_of(seat).slot(cmd.slot)
        if slot is not None and slot.kind == "tactic":
            there = state.armies[seat].tactics.get(cmd.slot)
            label += "; it stays there for a later battle (SMOKE-TAC-1)"
            if there:
                warning = f"The {there} already on {slot.name} is discarded (SMOKE-ACT-4)."
        if a is not None and a.stage == "risk" and a.risk_left > 0 and state.armies[seat].can_risk:
            warning = (warning + " " if warning else "") + "Placing a die ends the chance to take a risk for your 1s."
    elif isinstance(cmd, C.EndPlacement):
        left = [a.dice[i] for i in range(len(a.dice)) if i not in a.used] if a is not None else []
        label = "End placement: the dice are placed"
        if left:
            warning = f"Dice not placed ({', '.join(map(str, left))}) are discarded (SMOKE-ACT-4)."
    elif isinstance(cmd, C.Activate):
        face = a.dice[cmd.die] if a is not None else "?"
        label = (f"Activate {_formation(state, cmd.unit)} with {_commander(state, cmd.commander)}, using the {face} "
                 f"on {_slot_text(state, seat, cmd.slot, None).split(':')[0]}")
    elif isinstance(cmd, C.Move):
        u = state.units[cmd.unit]
        if cmd.kind == "simple":
            label = f"Move {_unit(state, cmd.unit)}: turn to {cmd.facing or 0:g} degrees, then {cmd.distance or 0:g} UW straight ahead"
        else:
            dx, dy = cmd.vector or (0.0, 0.0)
            label = f"Move {_unit(state, cmd.unit)} sideways or back by ({dx:g}, {dy:g}) UW, keeping its facing"
            if cmd.via:  # SMOKE-CHOICE-COMPLEX-PATH "path"
                label += " by way of " + ", ".join(f"({x:g}, {y:g})" for x, y in cmd.via)
        label += f" (from {_pt((u.x, u.y))})"
    elif isinstance(cmd, C.EndActivation):
        label = "End this activation: the units that did not move stay"
    elif isinstance(cmd, C.Ride):
        face = a.dice[cmd.die] if a is not None else "?"
        label = (f"Ride {_commander(state, cmd.commander)} to {_pt(cmd.to)}, using the {face} on "
                 f"{_slot_text(state, seat, cmd.slot, None).split(':')[0]}")
    elif isinstance(cmd, C.EndActions):
        left = sum(len(v) for v in a.placed.values()) if a is not None else 0
        label = "End the actions phase"
        if left:
            warning = f"{left} die/dice still on actions are cleared unused (SMOKE-ACT-10)."
    elif isinstance(cmd, C.Aim):
        label = f"Aim {_unit(state, cmd.unit)} at {_formation(state, cmd.target)} (SMOKE-BOMB-3)"
    elif isinstance(cmd, C.Bombard):
        n = len(t.aims) if t is not None else 0
        label = f"Roll the bombardment of your {n} aimed artillery unit(s)" if n else "No bombardment this turn"
    elif isinstance(cmd, C.TakeLoss):
        label = ("Lose 1 army morale for this 10 of the bombardment (SMOKE-BOMB-6)" if cmd.unit is None
                 else f"Retreat {_unit(state, cmd.unit)} for this 10 of the bombardment (SMOKE-BOMB-7)")
        if cmd.unit is None:
            warning = f"Your army has {state.armies[seat].morale} morale; at 0 it breaks (SMOKE-MP-6)."
    elif isinstance(cmd, C.Retreat):
        label = ("Retreat straight toward your own table edge" if cmd.direction == "edge"
                 else "Retreat straight back from the unit's facing") + " (SMOKE-RET-3)"
    elif isinstance(cmd, C.ChooseFirst):
        label = f"{cmd.side.capitalize()}'s side ({', '.join(state.sides.get(cmd.side, ()))}) plays first (SMOKE-SETUP-4)"
    elif isinstance(cmd, C.PlaceMarker):
        label = f"Put the battle marker at {_pt(cmd.at)} (SMOKE-MARK-3)"
    elif isinstance(cmd, C.Fight):
        m = state.markers.get(cmd.marker)
        label = f"Fight the battle of marker {cmd.marker}" + (f" at {_pt((m.x, m.y))}" if m is not None else "")
    elif isinstance(cmd, C.PlayTactic):
        die = state.armies[seat].tactics.get(cmd.slot)
        label = f"Play your {die} on {_slot_text(state, seat, cmd.slot, die)}"
        if cmd.units:
            label += f", for {', '.join(_unit(state, u) for u in cmd.units)}"
        if cmd.target:
            label += f", against the opponent's tactic {cmd.target}"
    elif isinstance(cmd, C.EndTactics):
        label = "No more tactics from you in this battle (SMOKE-BAT-2)"
    elif isinstance(cmd, C.AllocateHits):
        label = f"The hits go to {', '.join(_unit(state, u) for u in cmd.units)} (SMOKE-HIT-3)"
    elif isinstance(cmd, C.ResolveHits):
        label = (f"Resolve the hits on {_unit(state, cmd.unit)}, "
                 + ("cancelling one by retreating (SMOKE-RET-1)" if cmd.retreat else "without retreating (SMOKE-DISC-1)"))
    elif isinstance(cmd, C.Support):
        label = ("Support: your side shares its remaining morale with the broken army" if cmd.choice == "support"
                 else "Abandon: the broken army leaves the game") + " (SMOKE-MP-6)"
        if cmd.choice == "support":
            warning = "If another army of your side breaks later, your whole side is routed (SMOKE-MP-6)."
    elif isinstance(cmd, C.AssignColumns):
        label = "Split your army into columns: " + "; ".join(
            f"column {i}: {', '.join(_unit(state, u) for u in col) or 'empty'}" for i, col in enumerate(cmd.columns, 1))
    elif isinstance(cmd, C.PlaceFortification):
        label = f"Build a fortification at {_pt(cmd.at)} with {_unit(state, cmd.unit)} inside"
    elif isinstance(cmd, C.PlaceColumn):
        label = f"Put the marker of column {cmd.column} at {_pt(cmd.at)} (SMOKE-DEP-3)"
    elif isinstance(cmd, C.DeployUnit):
        label = f"Deploy {_unit(state, cmd.unit)} at {_pt(cmd.at)} facing {cmd.facing:g} degrees"
    elif isinstance(cmd, C.DeployCommander):
        label = f"Deploy {_commander(state, cmd.commander)} at {_pt(cmd.at)}"
    elif isinstance(cmd, C.ChooseEdge):
        label = f"Your own table edge is the {cmd.edge} one; the opponent gets the opposite (SMOKE-DEP-5)"
    elif isinstance(cmd, C.ChooseQuarters):
        pair = {"sw_ne": "south-west and north-east", "nw_se": "north-west and south-east"}[cmd.diagonal]
        label = f"Take the {pair} table quarters (SMOKE-TGEN-2)"
    elif isinstance(cmd, C.PlaceTerrain):
        label = f"Place the {cmd.kind.replace('_', ' ')} at {_pt(cmd.at)}, turned {cmd.rotation:g} degrees"
    else:
        return {}
    return {"label": label, "warning": warning}


def describe_template(state: SmokeState, seat: str, template: dict[str, Any]) -> dict[str, Any]:
    c = template.get("command", {})
    b = template.get("bounds", {})
    kind = c.get("type")
    if kind == "move":
        uid = c.get("unit", "")
        if c.get("kind") == "simple":
            d = b.get("distance", {})
            road = f", {ROAD_BONUS:g} more along a road (SMOKE-TERR-6)" if d.get("road_bonus") else ""
            label = (f"Move {_unit(state, uid)}: turn to any facing, then straight ahead up to "
                     f"{d.get('speed', d.get('max', 0)):g} UW{road}")
        else:
            label = (f"Move {_unit(state, uid)} in any direction up to {b.get('vector', {}).get('max_length', 0):g} UW "
                     "keeping its facing (a complex move, SMOKE-MOVE-4)")
        return {"label": label, "warning": None}
    if kind == "ride":
        to = b.get("to", {})
        return {"label": f"Ride {_commander(state, c.get('commander', ''))} up to {to.get('max_distance', 0):g} UW",
                "warning": None}
    if kind == "place_marker":
        return {"label": "Put the battle marker where it covers the most units in fire contact (SMOKE-MARK-3)",
                "warning": None}
    if kind == "allocate_hits":
        u = b.get("units", {})
        return {"label": f"Choose {u.get('items')} of {', '.join(_unit(state, x) for x in u.get('subset_of', []))} "
                         "to take the hits (SMOKE-HIT-3)", "warning": None}
    if kind == "play_tactic":
        return {"label": f"Play {_slot_text(state, seat, c.get('slot', ''), None)}", "warning": None}
    if kind == "deploy_unit":
        return {"label": f"Deploy {_unit(state, c.get('unit', ''))} near its column's marker (SMOKE-DEP-4)",
                "warning": None}
    if kind == "deploy_commander":
        return {"label": f"Deploy {_commander(state, c.get('commander', ''))} anywhere not on a unit (SMOKE-DEP-4)",
                "warning": None}
    if kind == "place_column":
        return {"label": f"Put the marker of column {c.get('column')} in your deployment zone (SMOKE-DEP-3)",
                "warning": None}
    if kind == "place_fortification":
        return {"label": "Build a fortification in your deployment zone with a unit inside (SMOKE-DEP-6)",
                "warning": None}
    if kind == "assign_columns":
        return {"label": f"Split your army into {b.get('columns', {}).get('count')} columns (SMOKE-DEP-2)",
                "warning": None}
    if kind == "place_terrain":
        return {"label": "Place the rolled terrain element in your quarter (SMOKE-TGEN-2)", "warning": None}
    return {}


__all__ = ["acted_by", "describe", "describe_template", "names", "roster"]
