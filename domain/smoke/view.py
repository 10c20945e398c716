"""What a seat may see (everything: Clouds of Smoke keeps nothing hidden, see decider.py), one-line
summaries for the timeline, and the board picture (picture.py)."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import event_type_name

from . import events as E
from .picture import render_svg
from .state import SmokeState
from .turns import to_act


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


_QUARTER = {"sw": "south-west", "se": "south-east", "nw": "north-west", "ne": "north-east"}
_STAGE = {"columns": "columns", "forts": "fortifications", "markers": "column markers", "units": "units"}


def _element(eid: str) -> str:
    """A generated terrain element's id (``G1-ploughed_field``) as words."""
    n, _, kind = eid.partition("-")
    return f"{kind.replace('_', ' ')} {n}" if kind else eid


_SUMMARY = {
    E.GameOpened: lambda e: f"{e.battle.title}: {len(e.units)} units set up",
    E.FirstSideRolled: lambda e: f"first-player roll: {e.chooser} chooses",
    E.FirstSideChosen: lambda e: f"side {e.side} goes first",
    E.TurnStarted: lambda e: f"turn {e.turn}: side {e.side}",
    E.StepStarted: lambda e: f"{e.step.replace('_', ' ')} step",
    E.BombardmentAimed: lambda e: f"{e.unit} aims at the formation of {e.target}",
    E.BombardmentRolled: lambda e: f"{e.seat} bombards: " + ", ".join(f"{r['target']} {r['total']} -> {r['losses']} loss(es)"
                                                                      for r in e.rolls),
    E.LossTaken: lambda e: f"{e.seat} takes a loss: " + (f"{e.unit} retreats" if e.unit else "1 morale"),
    E.RetreatRolled: lambda e: f"{e.unit} retreat distance {e.distance:g}",
    E.UnitRetreated: lambda e: f"{e.unit} retreats {e.moved:.2f} UW "
                               + ("toward its table edge" if e.direction == "edge" else "straight back")
                               + (" and is destroyed" if e.outcome == "destroyed" else ""),
    E.UnitDestroyed: lambda e: f"{e.unit} destroyed ({e.reason.replace('_', ' ')})",
    E.MoraleLost: lambda e: f"{e.seat} loses {e.amount} morale ({e.reason.replace('_', ' ')}): {e.morale} left",
    E.ActionDiceRolled: lambda e: f"{e.seat} rolls action dice {', '.join(map(str, e.faces))}",
    E.RiskTaken: lambda e: f"{e.seat} risks the commander: {e.face}",
    E.CommanderOut: lambda e: f"{e.commander} out of action" + (" (removed)" if e.removed else f"; deputy level {e.new_level}"),
    E.DiePlaced: lambda e: f"{e.seat} puts a {e.face} on {e.slot}",
    E.PlacementEnded: lambda e: f"{e.seat} ends placement",
    E.FormationActivated: lambda e: f"{e.seat} activates {', '.join(e.units)} (D={e.d})",
    E.UnitMoved: lambda e: f"{e.unit} moves {e.distance:.2f} UW" + (" sideways or back" if e.kind == "complex" else "")
                           + f" to {_pose(e.end)}",
    E.ActivationEnded: lambda e: f"{e.seat} ends the activation",
    E.CommanderRode: lambda e: f"{e.commander} rides {e.distance:.2f} UW",
    E.CommanderRisked: lambda e: f"{e.commander} risked by enemy contact: {e.face}" + (" - out" if e.out else ""),
    E.CommanderDisplaced: lambda e: f"{e.commander} displaced to ({e.end[0]:.2f}, {e.end[1]:.2f})",
    E.ActionsEnded: lambda e: f"{e.seat} ends the actions phase",
    E.FireContactMeasured: lambda e: f"{len(e.eligible)} unit(s) in fire contact outside battles: {e.seat} places a marker",
    E.MarkerPlaced: lambda e: f"{e.seat} places {e.marker} at ({e.x:.2f}, {e.y:.2f})",
    E.MarkerRemoved: lambda e: f"{e.marker} removed ({e.reason.replace('_', ' ')})",
    E.BattleStarted: lambda e: f"battle of {', '.join(e.markers)} (price {e.price})",
    E.TacticPlayed: lambda e: f"{e.seat} plays tactic {e.slot} (D={e.d})",
    E.TacticsEnded: lambda e: f"{e.seat} ends tactics",
    E.BattleRolled: lambda e: "battle result " + " vs ".join(f"{s} {v['result']}" for s, v in e.sides.items())
                              + " (hits " + ", ".join(f"{s} {h}" for s, h in e.hits.items()) + ")",
    E.DisciplineTested: lambda e: f"{e.unit} discipline " + ("passed" if e.passed else "failed"),
    E.HitsResolved: lambda e: f"{e.unit}'s hits resolved",
    E.BattleEnded: lambda e: {"won": f"side {e.winner} wins the battle (price {e.price})",
                              "empty": "the battle empties", "continues": "the battle goes on"}[e.outcome],
    E.PhaseAdvanced: lambda e: f"scenario phase {e.phase}" + (" (last phase over)" if e.ending else ""),
    E.SixesCounted: lambda e: f"side {e.side}: {e.sixes} six(es) toward the phase",
    E.ArmyBroken: lambda e: f"{e.seat}'s army is broken",
    E.SideSupported: lambda e: f"side {e.side} chooses Support",
    E.ArmyAbandoned: lambda e: f"{e.seat} abandons the battle",
    E.GameEnded: lambda e: (f"{e.winner} wins a {e.kind} victory" if e.winner else "the game ends in a draw"),
    E.DeploymentStarted: lambda e: "deployment by columns",
    E.TerrainGenerationStarted: lambda e: f"terrain generation: {e.chooser} picks the quarters",
    E.QuartersChosen: lambda e: "quarters: " + "; ".join(f"{s} {' and '.join(_QUARTER.get(x, x) for x in q)}"
                                                         for s, q in e.quarters.items()),
    E.TerrainCountRolled: lambda e: f"{_QUARTER.get(e.quarter, e.quarter)} quarter: {e.count} terrain element(s)",
    E.TerrainRolled: lambda e: f"{_QUARTER.get(e.quarter, e.quarter)} quarter: 2d6 = {e.total}: "
                               + (" or ".join(k.replace("_", " ") for k in e.kinds) or "nothing"),
    E.TerrainPlaced: lambda e: f"{e.seat} places a {e.element.kind.replace('_', ' ')} in the "
                               f"{_QUARTER.get(e.quarter, e.quarter)} quarter",
    E.TerrainScattered: lambda e: f"the {_element(e.element)} " + ("is removed" if e.removed else f"moves {e.distance:g} UW"),
    E.TerrainGenerationEnded: lambda e: "terrain ready",
    E.ColumnsAssigned: lambda e: f"{e.seat} numbers its {e.count} columns in secret",
    E.FortificationPlaced: lambda e: f"{e.seat} fortifies {e.unit}",
    E.ColumnPlaced: lambda e: f"{e.seat} places the marker of column {e.number}",
    E.ColumnsRevealed: lambda e: "columns revealed: " + ", ".join(sorted(e.columns)),
    E.UnitDeployed: lambda e: f"{e.seat} deploys {e.unit} at ({e.x:.2f}, {e.y:.2f})",
    E.CommanderDeployed: lambda e: f"{e.seat} places {e.commander}",
    E.DeploymentStepDone: lambda e: f"deployment: {_STAGE.get(e.stage, e.stage)} done",
    E.DeploymentEnded: lambda e: "deployment complete",
    E.HitChoiceOffered: lambda e: f"{e.choice.seat} chooses {e.choice.count} of {', '.join(e.choice.among)} to be hit",
    E.HitsChosen: lambda e: f"{e.seat} gives the hit(s) to {', '.join(e.units)}",
    E.EdgeChoiceOffered: lambda e: f"{e.seat} chooses its table edge",
    E.EdgesChosen: lambda e: "table edges: " + ", ".join(f"{s} {x}" for s, x in sorted(e.edges.items())),
    E.ReinforcementsArrived: lambda e: (f"reinforcements arrive: {', '.join(u.id for u in e.units)}" if e.units
                                        else "reinforcements wait")
                                       + (f" ({', '.join(e.waiting)} wait)" if e.units and e.waiting else ""),
}


def summarize(event: Any) -> str:
    f = _SUMMARY.get(type(event))
    return f(event) if f else event_type_name(event)


def render(state: SmokeState, seat: str | None, recent: list[Any]) -> str:
    return render_svg(state, recent)
