"""What a seat may see (everything: Clouds of Smoke keeps nothing hidden, see decider.py), one-line
summaries for the timeline, and the board picture (picture.py)."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import event_type_name
from domain.kernel.messages import Message, joined, msg, msg_n

from . import events as E
from .morale import reason_words
from .picture import render_svg
from .seat_words import seat_words
from .state import SmokeState
from .terrain_words import terrain_word
from .turns import to_act


#: Where this view holds the printed words of the content (domain/kernel/printed.py): the battle's title,
#: briefing and sides, the units' profiles and their weapons, the terrain kinds, the action boards and their
#: slots.
PRINTED = (("battle", "title"), ("battle", "briefing"), ("battle", "sides", "*", "name"), ("profiles", "*", "name"),
           ("profiles", "*", "fire", "*", "name"), ("terrain_kinds", "*", "name"),
           ("boards", "*", "name"), ("boards", "*", "slots", "*", "name"), ("boards", "*", "slots", "*", "text"))


def view_of(state: SmokeState, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"battle_id": state.battle_id, "opened": state.opened, "seat": seat}
    if not state.opened or state.battle is None:
        return out
    b = state.battle
    out["battle"] = {"id": b.id, "title": b.title, "width": b.width, "height": b.height,
                     "sides": [msgspec.to_builtins(s) for s in b.sides],
                     "end": msgspec.to_builtins(b.end), "briefing": b.briefing}
    out["terrain"] = [msgspec.to_builtins(e) for e in b.terrain]
    out["terrain_kinds"] = {k.id: msgspec.to_builtins(k) for k in state.kinds}
    out["profiles"] = {k: msgspec.to_builtins(p) for k, p in sorted(state.profiles.items())}
    out["boards"] = {k: msgspec.to_builtins(v) for k, v in sorted(state.boards.items())}
    out["sides"] = {k: list(v) for k, v in state.sides.items()}
    out["armies"] = {k: msgspec.to_builtins(a) for k, a in sorted(state.armies.items())}
    out["units"] = [msgspec.to_builtins(u) for u in sorted(state.units.values(), key=lambda u: u.id)]
    out["destroyed"] = list(state.destroyed)
    out["commanders"] = [msgspec.to_builtins(c) for c in sorted(state.commanders.values(), key=lambda c: c.id)]
    out["markers"] = [msgspec.to_builtins(m) for m in sorted(state.markers.values(), key=lambda m: m.id)]
    out["phase"] = state.phase
    out["sixes"] = dict(state.sixes)
    out["ending"] = state.ending
    out["side_order"] = list(state.side_order)
    out["turn_number"] = state.turn_no
    out["turn"] = msgspec.to_builtins(state.turn) if state.turn is not None else None
    out["to_act"] = list(to_act(state))
    out["broken"] = state.broken
    out["supported"] = list(state.supported)
    out["chooser"] = state.chooser
    out["edges"] = {s: own for s, own in sorted(state.edges.items())}
    out["edge_chooser"] = state.edge_chooser
    out["arrivals"] = [msgspec.to_builtins(a) for a in state.arrivals]
    out["result"] = msgspec.to_builtins(state.result) if state.result is not None else None
    out["generation"] = msgspec.to_builtins(state.generation) if state.generation is not None else None
    out["reserve"] = [msgspec.to_builtins(u) for u in sorted(state.reserve.values(), key=lambda u: u.id)]
    out["reserve_commanders"] = sorted(state.reserve_commanders)
    d = state.deployment
    if d is None:
        out["deployment"] = None
    else:
        # SMOKE-DEP-2: a seat's columns are secret until revealed (everything is public once finished)
        shown = {s: [list(c) for c in cols] for s, cols in d.columns.items()
                 if reveal_all or state.result is not None or s == seat or s in d.revealed}
        out["deployment"] = {
            "steps": [list(x) for x in d.steps], "step": d.step, "columns": shown,
            "columns_numbered": {s: len(cols) for s, cols in d.columns.items()},
            "revealed": list(d.revealed), "markers": [msgspec.to_builtins(m) for m in d.markers],
            "fortifications_to_place": dict(d.forts),
        }
    return out


def _pose(p) -> str:
    return f"({p[0]:.2f}, {p[1]:.2f}) facing {p[2]:.0f}"


_QUARTER = {"sw": msg("south-west"), "se": msg("south-east"), "nw": msg("north-west"), "ne": msg("north-east")}
_STAGE = {"columns": msg("columns"), "forts": msg("fortifications"), "markers": msg("column markers"),
          "units": msg("units")}
_STEP = {"deploy": msg("deploy"), "bombard": msg("bombard"), "actions": msg("actions"),
         "battle_start": msg("battle start"), "battles": msg("battles")}
_MARKER_GONE = {"empty": msg("empty")}
_BATTLE_END = {"empty": msg("the battle empties"), "continues": msg("the battle goes on")}


def _quarter(q: str) -> "str | Message":
    return _QUARTER.get(q, q)


def _element(eid: str) -> "str | Message":
    """A generated terrain element's id (``G1-ploughed_field``) as words."""
    n, _, kind = eid.partition("-")
    return msg("{terrain} {number}", terrain=terrain_word(kind), number=n) if kind else eid


def _retreated(e: Any) -> Message:
    edge = e.direction == "edge"
    if e.outcome == "destroyed":
        return (msg("{unit} retreats {moved:.2f} UW toward its table edge and is destroyed", unit=e.unit, moved=e.moved)
                if edge else msg("{unit} retreats {moved:.2f} UW straight back and is destroyed", unit=e.unit,
                                 moved=e.moved))
    return (msg("{unit} retreats {moved:.2f} UW toward its table edge", unit=e.unit, moved=e.moved) if edge
            else msg("{unit} retreats {moved:.2f} UW straight back", unit=e.unit, moved=e.moved))


def _rolls(e: Any) -> "str | Message":
    parts = [msg_n("{target} {total} -> {losses} loss(es)", "{target} {total} -> {losses} loss(es)", "losses",
                   target=seat_words(r["target"]), total=r["total"], losses=r["losses"]) for r in e.rolls]
    return joined(parts, ", ")


_SUMMARY = {
    E.GameOpened: lambda e: msg("{title}: {count} units set up", title=e.battle.title, count=len(e.units)),
    E.FirstSideRolled: lambda e: msg("first-player roll: {chooser} chooses", chooser=seat_words(e.chooser)),
    E.FirstSideChosen: lambda e: msg("side {side} goes first", side=e.side),
    E.TurnStarted: lambda e: msg("turn {turn}: side {side}", turn=e.turn, side=e.side),
    E.StepStarted: lambda e: msg("{step} step", step=_STEP.get(e.step, e.step.replace('_', ' '))),
    E.BombardmentAimed: lambda e: msg("{unit} aims at the formation of {target}", unit=e.unit, target=e.target),
    E.BombardmentRolled: lambda e: msg("{seat} bombards: {rolls}", seat=seat_words(e.seat), rolls=_rolls(e)),
    E.LossTaken: lambda e: (msg("{seat} takes a loss: {unit} retreats", seat=seat_words(e.seat), unit=e.unit) if e.unit
                            else msg("{seat} takes a loss: 1 morale", seat=seat_words(e.seat))),
    E.RetreatRolled: lambda e: msg("{unit} retreat distance {distance:g}", unit=e.unit, distance=e.distance),
    E.UnitRetreated: lambda e: _retreated(e),
    E.UnitDestroyed: lambda e: msg("{unit} destroyed ({reason})", unit=e.unit, reason=reason_words(e.reason.replace('_', ' '))),
    E.MoraleLost: lambda e: msg("{seat} loses {amount} morale ({reason}): {morale} left",
                                seat=seat_words(e.seat), amount=e.amount, reason=reason_words(e.reason.replace('_', ' ')), morale=e.morale),
    E.ActionDiceRolled: lambda e: msg("{seat} rolls action dice {faces}",
                                      seat=seat_words(e.seat), faces=', '.join(map(str, e.faces))),
    E.RiskTaken: lambda e: msg("{seat} risks the commander: {face}", seat=seat_words(e.seat), face=e.face),
    E.CommanderOut: lambda e: (msg("{commander} out of action (removed)", commander=e.commander) if e.removed
                               else msg("{commander} out of action; deputy level {level}", commander=e.commander,
                                        level=e.new_level)),
    E.DiePlaced: lambda e: msg("{seat} puts a {face} on {slot}", seat=seat_words(e.seat), face=e.face, slot=e.slot),
    E.PlacementEnded: lambda e: msg("{seat} ends placement", seat=seat_words(e.seat)),
    E.FormationActivated: lambda e: msg("{seat} activates {units} (D={d})",
                                        seat=seat_words(e.seat), units=', '.join(e.units), d=e.d),
    E.UnitMoved: lambda e: (msg("{unit} moves {distance:.2f} UW sideways or back to ({x:.2f}, {y:.2f}) facing "
                                "{facing:.0f}", unit=e.unit, distance=e.distance, x=e.end[0], y=e.end[1],
                                facing=e.end[2]) if e.kind == "complex" else
                            msg("{unit} moves {distance:.2f} UW to ({x:.2f}, {y:.2f}) facing {facing:.0f}",
                                unit=e.unit, distance=e.distance, x=e.end[0], y=e.end[1], facing=e.end[2])),
    E.ActivationEnded: lambda e: msg("{seat} ends the activation", seat=seat_words(e.seat)),
    E.CommanderRode: lambda e: msg("{commander} rides {distance:.2f} UW", commander=e.commander, distance=e.distance),
    E.CommanderRisked: lambda e: (msg("{commander} risked by enemy contact: {face} - out", commander=e.commander,
                                      face=e.face) if e.out else
                                  msg("{commander} risked by enemy contact: {face}", commander=e.commander, face=e.face)),
    E.CommanderDisplaced: lambda e: msg("{commander} displaced to ({x:.2f}, {y:.2f})",
                                        commander=e.commander, x=e.end[0], y=e.end[1]),
    E.ActionsEnded: lambda e: msg("{seat} ends the actions phase", seat=seat_words(e.seat)),
    E.FireContactMeasured: lambda e: msg_n("{count} unit(s) in fire contact outside battles: {seat} places a marker",
                                           "{count} unit(s) in fire contact outside battles: {seat} places a marker", "count",
                                         count=len(e.eligible), seat=seat_words(e.seat)),
    E.MarkerPlaced: lambda e: msg("{seat} places {marker} at ({x:.2f}, {y:.2f})",
                                  seat=seat_words(e.seat), marker=e.marker, x=e.x, y=e.y),
    E.MarkerRemoved: lambda e: msg("{marker} removed ({reason})", marker=e.marker,
                                                reason=_MARKER_GONE.get(e.reason, e.reason.replace('_', ' '))),
    E.BattleStarted: lambda e: msg("battle of {markers} (price {price})", markers=', '.join(e.markers), price=e.price),
    E.TacticPlayed: lambda e: msg("{seat} plays tactic {slot} (D={d})", seat=seat_words(e.seat), slot=e.slot, d=e.d),
    E.TacticsEnded: lambda e: msg("{seat} ends tactics", seat=seat_words(e.seat)),
    E.BattleRolled: lambda e: msg("battle result {results} (hits {hits})",
                                  results=" vs ".join(f"{s} {v['result']}" for s, v in e.sides.items()),
                                  hits=", ".join(f"{s} {h}" for s, h in e.hits.items())),
    E.DisciplineTested: lambda e: (msg("{unit} discipline passed", unit=e.unit) if e.passed
                                   else msg("{unit} discipline failed", unit=e.unit)),
    E.HitsResolved: lambda e: msg("{unit}'s hits resolved", unit=e.unit),
    E.BattleEnded: lambda e: (msg("side {side} wins the battle (price {price})", side=e.winner, price=e.price)
                              if e.outcome == "won" else _BATTLE_END[e.outcome]),
    E.PhaseAdvanced: lambda e: (msg("scenario phase {phase} (last phase over)", phase=e.phase) if e.ending
                                else msg("scenario phase {phase}", phase=e.phase)),
    E.SixesCounted: lambda e: msg_n("side {side}: {count} six(es) toward the phase",
                                             "side {side}: {count} six(es) toward the phase", "count", side=e.side,
                                             count=e.sixes),
    E.ArmyBroken: lambda e: msg("{seat}'s army is broken", seat=seat_words(e.seat)),
    E.SideSupported: lambda e: msg("side {side} chooses Support", side=e.side),
    E.ArmyAbandoned: lambda e: msg("{seat} abandons the battle", seat=seat_words(e.seat)),
    E.GameEnded: lambda e: ((msg("{winner} wins a decisive victory", winner=e.winner) if e.kind == "decisive"
                             else msg("{winner} wins a marginal victory", winner=e.winner)) if e.winner
                            else msg("the game ends in a draw")),
    E.DeploymentStarted: lambda e: msg("deployment by columns"),
    E.TerrainGenerationStarted: lambda e: msg("terrain generation: {chooser} picks the quarters", chooser=seat_words(e.chooser)),
    E.QuartersChosen: lambda e: msg("quarters: {quarters}", quarters=joined(
        [msg("{seat} {quarters}", seat=seat_words(s), quarters=joined([_quarter(x) for x in q], msg(" and "))) for s, q in
         e.quarters.items()], "; ")),
    E.TerrainCountRolled: lambda e: msg_n("{quarter} quarter: {count} terrain element(s)", "{quarter} quarter: {count} terrain element(s)",
                                          "count", quarter=_quarter(e.quarter), count=e.count),
    E.TerrainRolled: lambda e: msg("{quarter} quarter: 2d6 = {total}: {kinds}", quarter=_quarter(e.quarter),
                                   total=e.total, kinds=joined([terrain_word(k) for k in e.kinds], msg(" or "))
                                   if e.kinds else msg("nothing")),
    E.TerrainPlaced: lambda e: msg("{seat} places a {terrain} in the {quarter} quarter",
                                   seat=seat_words(e.seat), terrain=terrain_word(e.element.kind), quarter=_quarter(e.quarter)),
    E.TerrainScattered: lambda e: (msg("the {element} is removed", element=_element(e.element)) if e.removed
                                   else msg("the {element} moves {distance:g} UW", element=_element(e.element),
                                            distance=e.distance)),
    E.TerrainGenerationEnded: lambda e: msg("terrain ready"),
    E.ColumnsAssigned: lambda e: msg("{seat} numbers its {count} columns in secret", seat=seat_words(e.seat), count=e.count),
    E.FortificationPlaced: lambda e: msg("{seat} fortifies {unit}", seat=seat_words(e.seat), unit=e.unit),
    E.ColumnPlaced: lambda e: msg("{seat} places the marker of column {number}", seat=seat_words(e.seat), number=e.number),
    E.ColumnsRevealed: lambda e: msg("columns revealed: {seats}", seats=joined([seat_words(s) for s in sorted(e.columns)], ", ")),
    E.UnitDeployed: lambda e: msg("{seat} deploys {unit} at ({x:.2f}, {y:.2f})",
                                  seat=seat_words(e.seat), unit=e.unit, x=e.x, y=e.y),
    E.CommanderDeployed: lambda e: msg("{seat} places {commander}", seat=seat_words(e.seat), commander=e.commander),
    E.DeploymentStepDone: lambda e: msg("deployment: {stage} done", stage=_STAGE.get(e.stage, e.stage)),
    E.DeploymentEnded: lambda e: msg("deployment complete"),
    E.HitChoiceOffered: lambda e: msg("{seat} chooses {count} of {among} to be hit",
                                      seat=seat_words(e.choice.seat), count=e.choice.count, among=', '.join(e.choice.among)),
    E.HitsChosen: lambda e: msg_n("{seat} gives the hit(s) to {units}", "{seat} gives the hit(s) to {units}", "count",
                                      seat=seat_words(e.seat), units=', '.join(e.units), count=len(e.units)),
    E.EdgeChoiceOffered: lambda e: msg("{seat} chooses its table edge", seat=seat_words(e.seat)),
    E.EdgesChosen: lambda e: msg("table edges: {edges}", edges=", ".join(f"{s} {x}" for s, x in sorted(e.edges.items()))),
    E.ReinforcementsArrived: lambda e: (msg("reinforcements wait") if not e.units else
                                        msg("reinforcements arrive: {units} ({waiting} wait)",
                                            units=", ".join(u.id for u in e.units), waiting=", ".join(e.waiting))
                                        if e.waiting else
                                        msg("reinforcements arrive: {units}", units=", ".join(u.id for u in e.units))),
}


def summarize(event: Any) -> "str | Message":
    f = _SUMMARY.get(type(event))
    return f(event) if f else event_type_name(event)


def render(state: SmokeState, seat: str | None, recent: list[Any], say: Any = None) -> str:
    """``board.svg``; ``say``: a message in the reader's language (English when not given)."""
    return render_svg(state, recent) if say is None else render_svg(state, recent, say)
