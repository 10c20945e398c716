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
from domain.kernel.messages import Message, joined, msg, msg_n, named

from . import commands as C
from .army import expanded
from .commanders import DEPUTY_MIN_LEVEL
from .formations import formations
from .movement import ROAD_BONUS
from .seat_words import seat_words
from .state import SmokeState
from .terrain_words import edge_word, terrain_word

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
        own = (state.options.get("armies") or {}).get(slot.seat)  # the player's own list (SMOKE-ARMY-6)
        if slot.units:
            placed = [p.profile for p in slot.units]
        elif isinstance(own, dict):
            placed = [e["profile"] for e in own.get("units", ()) for _ in range(int(e.get("count", 1)))]
        elif armies is not None and slot.army in armies:
            placed = expanded(armies[slot.army])
        else:
            placed = []
        later = [pl.profile for ev in lu.events if ev.kind == "reinforcements" and ev.seat == slot.seat
                 for pl in ev.units]
        for i, pid in enumerate([*placed, *later], start=1):
            out.setdefault(f"P{n}-{i:02d}", pid)
    return out


def names(state: SmokeState, armies: Any = None) -> "dict[str, str | Message]":
    """Units by their profile's printed name, commanders, action-board slots, sides (with their seats).

    A commander's and a side's name is composed of words and seats by their names (``the general of Player 1``, ``Karl of
    Player 1 and Player 3``): a message, rendered in the reader's language like every message (the rulebook's
    полководец and командующий in Russian; the side's printed title, ``Вертумн``, from the catalog)."""
    out: "dict[str, str | Message]" = {}
    for uid, pid in roster(state, armies).items():
        p = state.profiles.get(pid)
        out[uid] = p.name if p is not None else pid.replace("_", " ")
    for seat in state.seats:
        n = seat.rsplit("-", 1)[-1]
        out[f"P{n}-G"] = msg("the general of {seat}", seat=seat_words(seat))
        for j in range(1, 4):
            out[f"P{n}-C{j}"] = msg("commander {number} of {seat}", number=j, seat=seat_words(seat))
    titles = {s.id: s.name for s in state.battle.sides} if state.battle is not None else {}
    for side, seats in state.sides.items():
        title, joint = titles.get(side, side.capitalize()), joined([seat_words(s) for s in seats], msg(" and "))
        # the count of seats chooses the form where a language declines "of" (Russian игрока / игроков)
        out[side] = msg_n("{title} of {seats}", "{title} of {seats}", "count", title=title, seats=joint,
                          count=len(seats))
    for board in state.boards.values():
        for slot in board.slots:
            out.setdefault(slot.id, slot.name)
    return out


def _pt(p: Any) -> str:
    return f"({p[0]:.2f}, {p[1]:.2f})"


def _unit(state: SmokeState, uid: str) -> "str | dict[str, str]":
    u = state.units.get(uid) or state.reserve.get(uid)
    if u is None:
        return uid
    return named(state.profiles[u.profile].name, uid)


def _units(state: SmokeState, uids: Any) -> "str | Message":
    return joined([_unit(state, u) for u in uids], ", ")


def _formation(state: SmokeState, key: str) -> "str | dict[str, str] | Message":
    members = formations(state).get(key, (key,))
    if len(members) == 1:
        return _unit(state, members[0])
    return msg_n("the formation of {unit} ({count} units)", "the formation of {unit} ({count} units)", "count",
                 unit=_unit(state, key), count=len(members))


def _commander(state: SmokeState, cid: str) -> "str | Message":
    c = state.commanders.get(cid) or state.reserve_commanders.get(cid)
    if c is None:
        return cid
    return msg("your general") if c.general else msg("your commander {number}", number=cid.rsplit('-', 1)[-1][1:])


def _slot_head(state: SmokeState, seat: str, sid: str) -> "str | Message":
    slot = state.board_of(seat).slot(sid)
    if slot is None:
        return sid
    return msg("{name} ({id}, {kind})", name=slot.name, id=slot.id, kind=_KIND.get(slot.kind, slot.kind))


_KIND = {"action": msg("action"), "tactic": msg("tactic")}


def _slot_text(state: SmokeState, seat: str, sid: str, face: int | None) -> "str | Message":
    slot = state.board_of(seat).slot(sid)
    if slot is None:
        return sid
    text = slot.text.rstrip(".")
    if face is not None:
        text = text.replace("D + ", f"{face} + ").replace("max D ", f"max {face} ").replace("Up to D ", f"Up to {face} ")
    return msg("{head}: {text}", head=_slot_head(state, seat, sid), text=text[:1].lower() + text[1:])


def _risk_warning(state: SmokeState, seat: str) -> Message:
    army = state.armies[seat]
    new = max(DEPUTY_MIN_LEVEL, army.level - 1)
    return msg("The extra die is a new d6: on a 1 ({chance}) your general is out of action (SMOKE-ACT-2, "
               "SMOKE-RISK-2): your army loses {level} morale (its level, SMOKE-RISK-5; {morale} left now) and a deputy "
               "of level {new} takes over, who may never risk again (SMOKE-RISK-6).", chance=RISK_FAIL,
               level=army.level, morale=army.morale, new=new)


def _then(first: "str | Message | None", second: Message) -> Message:
    """Two sentences of a warning, one after the other."""
    return second if first is None else msg("{a} {b}", a=first, b=second)


def describe(state: SmokeState, seat: str, cmd: Any) -> dict[str, Any]:  # noqa: C901 - one case per command
    t = state.turn
    a = t.actions if t is not None else None
    warning: "Message | None" = None
    label: "str | Message"
    if isinstance(cmd, C.TakeRisk):
        left = a.risk_left if a is not None else 0
        label = msg("Take the risk: roll one extra action die for a rolled 1 ({count} left to risk)", count=left)
        warning = _risk_warning(state, seat)
    elif isinstance(cmd, C.PlaceDie):
        face = a.dice[cmd.die] if a is not None and 0 <= cmd.die < len(a.dice) else None
        label = msg("Put your {face} on {slot}", face=face, slot=_slot_text(state, seat, cmd.slot, face))
        slot = state.board_of(seat).slot(cmd.slot)
        if slot is not None and slot.kind == "tactic":
            there = state.armies[seat].tactics.get(cmd.slot)
            label = msg("{label}; it stays there for a later battle (SMOKE-TAC-1)", label=label)
            if there:
                warning = msg("The {face} already on {name} is discarded (SMOKE-ACT-4).", face=there, name=slot.name)
        if a is not None and a.stage == "risk" and a.risk_left > 0 and state.armies[seat].can_risk:
            warning = _then(warning, msg("Placing a die ends the chance to take a risk for your 1s."))
    elif isinstance(cmd, C.EndPlacement):
        left = [a.dice[i] for i in range(len(a.dice)) if i not in a.used] if a is not None else []
        label = msg("End placement: the dice are placed")
        if left:
            warning = msg("Dice not placed ({faces}) are discarded (SMOKE-ACT-4).", faces=", ".join(map(str, left)))
    elif isinstance(cmd, C.Activate):
        face = a.dice[cmd.die] if a is not None else "?"
        label = msg("Activate {formation} with {commander}, using the {face} on {slot}",
                    formation=_formation(state, cmd.unit), commander=_commander(state, cmd.commander), face=face,
                    slot=_slot_head(state, seat, cmd.slot))
    elif isinstance(cmd, C.Move):
        u = state.units[cmd.unit]
        if cmd.kind == "simple":
            label = msg("Move {unit}: turn to {facing:g} degrees, then {distance:g} UW straight ahead (from {at})",
                        unit=_unit(state, cmd.unit), facing=cmd.facing or 0, distance=cmd.distance or 0,
                        at=_pt((u.x, u.y)))
        else:
            dx, dy = cmd.vector or (0.0, 0.0)
            said = dict(unit=_unit(state, cmd.unit), dx=dx, dy=dy, at=_pt((u.x, u.y)))
            label = (msg("Move {unit} sideways or back by ({dx:g}, {dy:g}) UW, keeping its facing by way of {via} "
                         "(from {at})", via=", ".join(f"({x:g}, {y:g})" for x, y in cmd.via), **said)
                     if cmd.via else  # SMOKE-CHOICE-COMPLEX-PATH "path"
                     msg("Move {unit} sideways or back by ({dx:g}, {dy:g}) UW, keeping its facing (from {at})", **said))
    elif isinstance(cmd, C.EndActivation):
        label = msg("End this activation: the units that did not move stay")
    elif isinstance(cmd, C.Ride):
        face = a.dice[cmd.die] if a is not None else "?"
        label = msg("Ride {commander} to {to}, using the {face} on {slot}", commander=_commander(state, cmd.commander),
                    to=_pt(cmd.to), face=face, slot=_slot_head(state, seat, cmd.slot))
    elif isinstance(cmd, C.EndActions):
        left = sum(len(v) for v in a.placed.values()) if a is not None else 0
        label = msg("End the actions phase")
        if left:
            warning = msg_n("{count} die/dice still on actions are cleared unused (SMOKE-ACT-10).",
                            "{count} die/dice still on actions are cleared unused (SMOKE-ACT-10).", "count", count=left)
    elif isinstance(cmd, C.Aim):
        label = msg("Aim {unit} at {formation} (SMOKE-BOMB-3)", unit=_unit(state, cmd.unit),
                    formation=_formation(state, cmd.target))
    elif isinstance(cmd, C.Bombard):
        n = len(t.aims) if t is not None else 0
        label = (msg_n("Roll the bombardment of your {count} aimed artillery unit(s)",
                       "Roll the bombardment of your {count} aimed artillery unit(s)", "count", count=n) if n
                 else msg("No bombardment this turn"))
    elif isinstance(cmd, C.TakeLoss):
        label = (msg("Lose 1 army morale for this 10 of the bombardment (SMOKE-BOMB-6)") if cmd.unit is None
                 else msg("Retreat {unit} for this 10 of the bombardment (SMOKE-BOMB-7)", unit=_unit(state, cmd.unit)))
        if cmd.unit is None:
            warning = msg("Your army has {morale} morale; at 0 it breaks (SMOKE-MP-6).",
                          morale=state.armies[seat].morale)
    elif isinstance(cmd, C.Retreat):
        label = (msg("Retreat straight toward your own table edge (SMOKE-RET-3)") if cmd.direction == "edge"
                 else msg("Retreat straight back from the unit's facing (SMOKE-RET-3)"))
    elif isinstance(cmd, C.ChooseFirst):
        label = msg("{side}'s side ({seats}) plays first (SMOKE-SETUP-4)", side=cmd.side.capitalize(),
                    seats=joined([seat_words(s) for s in state.sides.get(cmd.side, ())], ", "))
    elif isinstance(cmd, C.PlaceMarker):
        label = msg("Put the battle marker at {at} (SMOKE-MARK-3)", at=_pt(cmd.at))
    elif isinstance(cmd, C.Fight):
        m = state.markers.get(cmd.marker)
        label = (msg("Fight the battle of marker {marker} at {at}", marker=cmd.marker, at=_pt((m.x, m.y)))
                 if m is not None else msg("Fight the battle of marker {marker}", marker=cmd.marker))
    elif isinstance(cmd, C.PlayTactic):
        die = state.armies[seat].tactics.get(cmd.slot)
        label = msg("Play your {face} on {slot}", face=die, slot=_slot_text(state, seat, cmd.slot, die))
        if cmd.units:
            label = msg("{label}, for {units}", label=label, units=_units(state, cmd.units))
        if cmd.target:
            label = msg("{label}, against the opponent's tactic {target}", label=label, target=cmd.target)
    elif isinstance(cmd, C.EndTactics):
        label = msg("No more tactics from you in this battle (SMOKE-BAT-2)")
    elif isinstance(cmd, C.AllocateHits):
        label = msg("The hits go to {units} (SMOKE-HIT-3)", units=_units(state, cmd.units))
    elif isinstance(cmd, C.ResolveHits):
        label = (msg("Resolve the hits on {unit}, cancelling one by retreating (SMOKE-RET-1)",
                     unit=_unit(state, cmd.unit)) if cmd.retreat else
                 msg("Resolve the hits on {unit}, without retreating (SMOKE-DISC-1)", unit=_unit(state, cmd.unit)))
    elif isinstance(cmd, C.Support):
        if cmd.choice == "support":
            label = msg("Support: your side shares its remaining morale with the broken army (SMOKE-MP-6)")
            warning = msg("If another army of your side breaks later, your whole side is routed (SMOKE-MP-6).")
        else:
            label = msg("Abandon: the broken army leaves the game (SMOKE-MP-6)")
    elif isinstance(cmd, C.AssignColumns):
        label = msg("Split your army into columns: {columns}", columns=joined(
            [msg("column {number}: {units}", number=i, units=_units(state, col) if col else msg("empty"))
             for i, col in enumerate(cmd.columns, 1)], "; "))
    elif isinstance(cmd, C.PlaceFortification):
        label = msg("Build a fortification at {at} with {unit} inside", at=_pt(cmd.at), unit=_unit(state, cmd.unit))
    elif isinstance(cmd, C.PlaceColumn):
        label = msg("Put the marker of column {number} at {at} (SMOKE-DEP-3)", number=cmd.column, at=_pt(cmd.at))
    elif isinstance(cmd, C.DeployUnit):
        label = msg("Deploy {unit} at {at} facing {facing:g} degrees", unit=_unit(state, cmd.unit), at=_pt(cmd.at),
                    facing=cmd.facing)
    elif isinstance(cmd, C.DeployCommander):
        label = msg("Deploy {commander} at {at}", commander=_commander(state, cmd.commander), at=_pt(cmd.at))
    elif isinstance(cmd, C.ChooseEdge):
        label = msg("Your own table edge is the {edge} one; the opponent gets the opposite (SMOKE-DEP-5)",
                    edge=edge_word(cmd.edge))
    elif isinstance(cmd, C.ChooseQuarters):
        label = (msg("Take the south-west and north-east table quarters (SMOKE-TGEN-2)") if cmd.diagonal == "sw_ne"
                 else msg("Take the north-west and south-east table quarters (SMOKE-TGEN-2)"))
    elif isinstance(cmd, C.PlaceTerrain):
        label = msg("Place the {terrain} at {at}, turned {rotation:g} degrees", terrain=terrain_word(cmd.kind),
                    at=_pt(cmd.at), rotation=cmd.rotation)
    else:
        return {}
    return {"label": label, "warning": warning}



def describe_template(state: SmokeState, seat: str, template: dict[str, Any]) -> dict[str, Any]:
    c = template.get("command", {})
    b = template.get("bounds", {})
    kind = c.get("type")
    label: "str | Message | None" = None
    if kind == "move":
        uid = c.get("unit", "")
        if c.get("kind") == "simple":
            d = b.get("distance", {})
            said = dict(unit=_unit(state, uid), speed=d.get("speed", d.get("max", 0)))
            label = (msg("Move {unit}: turn to any facing, then straight ahead up to {speed:g} UW, {road:g} more along "
                         "a road (SMOKE-TERR-6)", road=ROAD_BONUS, **said) if d.get("road_bonus") else
                     msg("Move {unit}: turn to any facing, then straight ahead up to {speed:g} UW", **said))
        else:
            label = msg("Move {unit} in any direction up to {length:g} UW keeping its facing (a complex move, "
                        "SMOKE-MOVE-4)", unit=_unit(state, uid), length=b.get("vector", {}).get("max_length", 0))
    elif kind == "ride":
        label = msg("Ride {commander} up to {distance:g} UW", commander=_commander(state, c.get("commander", "")),
                    distance=b.get("to", {}).get("max_distance", 0))
    elif kind == "place_marker":
        label = msg("Put the battle marker where it covers the most units in fire contact (SMOKE-MARK-3)")
    elif kind == "allocate_hits":
        u = b.get("units", {})
        label = msg("Choose {count} of {units} to take the hits (SMOKE-HIT-3)", count=u.get("items"),
                    units=_units(state, u.get("subset_of", [])))
    elif kind == "play_tactic":
        label = msg("Play {slot}", slot=_slot_text(state, seat, c.get("slot", ""), None))
    elif kind == "deploy_unit":
        label = msg("Deploy {unit} near its column's marker (SMOKE-DEP-4)", unit=_unit(state, c.get("unit", "")))
    elif kind == "deploy_commander":
        label = msg("Deploy {commander} anywhere not on a unit (SMOKE-DEP-4)",
                    commander=_commander(state, c.get("commander", "")))
    elif kind == "place_column":
        label = msg("Put the marker of column {number} in your deployment zone (SMOKE-DEP-3)", number=c.get("column"))
    elif kind == "place_fortification":
        label = msg("Build a fortification in your deployment zone with a unit inside (SMOKE-DEP-6)")
    elif kind == "assign_columns":
        label = msg("Split your army into {count} columns (SMOKE-DEP-2)", count=b.get("columns", {}).get("count"))
    elif kind == "place_terrain":
        label = msg("Place the rolled terrain element in your quarter (SMOKE-TGEN-2)")
    return {} if label is None else {"label": label, "warning": None}


def seat_names(players: int) -> "dict[str, Message]":
    """The seats ``player-1..players`` in words (kernel words.py ``seat_names``, docs/seat-names.md): the rulebook
    numbers its players (Russian: игрок), ``Player 2``."""
    return {f"player-{n}": seat_words(f"player-{n}") for n in range(1, players + 1)}


__all__ = ["acted_by", "describe", "describe_template", "names", "roster", "seat_names"]
