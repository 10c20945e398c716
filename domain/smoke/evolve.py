"""Folding one event into the state: pure data application (no dice, no geometry, no content)."""
from __future__ import annotations

from msgspec.structs import replace

from . import events as E
from .state import (
    ACTIONS, BATTLES, ActionStage, Activation, Army, BattleCtx, ColumnMarker, Deployment, Formation, Losses, Marker,
    MarkerOffer, PlayedTactic, Result, RetreatPending, SmokeState, TerrainGen, TurnState,
)


def _army(state: SmokeState, seat: str, **kw) -> SmokeState:
    return replace(state, armies={**state.armies, seat: replace(state.armies[seat], **kw)})


def _turn(state: SmokeState, **kw) -> SmokeState:
    assert state.turn is not None
    return replace(state, turn=replace(state.turn, **kw))


def _actions(state: SmokeState, **kw) -> SmokeState:
    assert state.turn is not None and state.turn.actions is not None
    return _turn(state, actions=replace(state.turn.actions, **kw))


def _battle(state: SmokeState, **kw) -> SmokeState:
    assert state.turn is not None and state.turn.battle is not None
    return _turn(state, battle=replace(state.turn.battle, **kw))


def _remove_unit(state: SmokeState, uid: str) -> SmokeState:
    units = dict(state.units)
    units.pop(uid, None)
    t = state.turn
    if t is not None and t.battle is not None and uid in t.battle.hits:
        hits = dict(t.battle.hits)
        hits.pop(uid)
        t = replace(t, battle=replace(t.battle, hits=hits))
    return replace(state, units=units, destroyed=state.destroyed + (uid,), turn=t)


def evolve(state: SmokeState, ev: object) -> SmokeState:  # noqa: C901 - one dispatch
    t = state.turn
    if isinstance(ev, E.GameOpened):
        return replace(
            state, opened=True, battle=ev.battle, kinds=ev.kinds, profiles={p.id: p for p in ev.profiles},
            boards={b.id: b for b in ev.boards}, sides=dict(ev.sides), armies={a.seat: a for a in ev.armies},
            units={u.id: u for u in ev.units}, commanders={c.id: c for c in ev.commanders},
            sixes={s: 0 for s in ev.sides}, reserve={u.id: u for u in ev.reserve},
            reserve_commanders={c.id: c for c in ev.reserve_commanders}, arrivals=ev.arrivals,
        )
    if isinstance(ev, E.ReinforcementsArrived):
        came = {u.id for u in ev.units}
        return replace(state, units={**state.units, **{u.id: u for u in ev.units}},
                       arrivals=tuple(a for a in state.arrivals if a.unit.id not in came))
    if isinstance(ev, (E.TerrainGenerationStarted, E.QuartersChosen, E.TerrainCountRolled, E.TerrainRolled,
                       E.TerrainPlaced, E.TerrainScattered, E.TerrainGenerationEnded)):
        return _generation(state, ev)
    if isinstance(ev, (E.DeploymentStarted, E.ColumnsAssigned, E.FortificationPlaced, E.ColumnPlaced,
                       E.ColumnsRevealed, E.UnitDeployed, E.CommanderDeployed, E.DeploymentStepDone,
                       E.DeploymentEnded)):
        return _deployment(state, ev)
    if isinstance(ev, E.EdgeChoiceOffered):
        return replace(state, edge_chooser=ev.seat)
    if isinstance(ev, E.EdgesChosen):
        return replace(state, edges=dict(ev.edges), edge_chooser=None)
    if isinstance(ev, E.FirstSideRolled):
        return replace(state, chooser=ev.chooser)
    if isinstance(ev, E.FirstSideChosen):
        return replace(state, chooser=None, side_order=ev.order)
    if isinstance(ev, E.TurnStarted):
        return replace(state, turn_no=ev.turn, turn=TurnState(side=ev.side, players=ev.players, step="bombard"))
    if isinstance(ev, E.StepStarted):
        assert t is not None
        kw: dict = {"step": ev.step, "player": ev.player, "marker_offer": None}
        if ev.step != ACTIONS:
            kw["actions"] = None
        if ev.step != BATTLES:
            kw["battle"] = None
        if ev.step == "bombard":
            kw["aims"] = {}
            kw["fired"] = False
        return _turn(state, **kw)
    if isinstance(ev, E.BombardmentAimed):
        assert t is not None
        return _turn(state, aims={**t.aims, ev.unit: ev.target})
    if isinstance(ev, E.BombardmentRolled):
        assert t is not None
        losses = tuple(
            Losses(seat=l["seat"], left=l["losses"],
                   formations=tuple(Formation(key=f["key"], units=tuple(f["units"]), artillery=tuple(f["artillery"]))
                                    for f in l["formations"]))
            for l in ev.losses if l["losses"] > 0)
        return _turn(state, aims={}, fired=True, losses=losses, bombarded=t.bombarded + ev.bombarded)
    if isinstance(ev, E.LossTaken):
        assert t is not None
        out = []
        for l in t.losses:
            if l.seat == ev.seat:
                fs = tuple(replace(f, retreated=f.retreated + (ev.unit,)) if ev.unit and f.key == ev.formation else f
                           for f in l.formations)
                l = replace(l, left=l.left - 1, formations=fs,
                            retreated=l.retreated + ((ev.unit,) if ev.unit else ()))
            if l.left > 0 or (ev.unit and l.seat == ev.seat):
                out.append(l)
        return _turn(state, losses=tuple(out))
    if isinstance(ev, E.RetreatRolled):
        assert t is not None
        pend = RetreatPending(unit=ev.unit, distance=ev.distance, context=ev.context)
        if ev.context == "bombardment":
            return _turn(state, bombard_retreat=pend)
        assert t.battle is not None
        hits = dict(t.battle.hits)
        if ev.unit in hits:
            hits[ev.unit] -= 1  # SMOKE-RET-2: the retreat cancels one hit
        return _battle(state, retreat=pend, hits=hits)
    if isinstance(ev, E.UnitRetreated):
        st = state  # SMOKE-RET-6: only the pose changes; nothing marks the unit as having retreated
        if ev.outcome != "destroyed" and ev.unit in st.units:
            u = st.units[ev.unit]
            st = replace(st, units={**st.units, ev.unit: replace(u, x=ev.end[0], y=ev.end[1], facing=ev.end[2])})
        if ev.price_marker is not None and ev.price_marker in st.markers:
            m = st.markers[ev.price_marker]
            st = replace(st, markers={**st.markers, m.id: replace(m, price=m.price + 1)})
        t2 = st.turn
        if t2 is not None:
            if ev.context == "bombardment":
                losses = tuple(l for l in t2.losses if l.left > 0)
                st = replace(st, turn=replace(t2, bombard_retreat=None, losses=losses))
            elif t2.battle is not None:
                st = replace(st, turn=replace(t2, battle=replace(t2.battle, retreat=None)))
        return st
    if isinstance(ev, E.UnitDestroyed):
        return _remove_unit(state, ev.unit)
    if isinstance(ev, E.MoraleLost):
        return _army(state, ev.seat, morale=ev.morale)
    if isinstance(ev, E.ActionDiceRolled):
        stage = "risk" if ev.ones and state.armies[ev.seat].can_risk else "place"
        return _turn(state, actions=ActionStage(seat=ev.seat, stage=stage, dice=ev.faces,
                                                risk_left=ev.ones if stage == "risk" else 0))
    if isinstance(ev, E.RiskTaken):
        assert t is not None and t.actions is not None
        a = t.actions
        left = a.risk_left - 1 if not ev.out else 0
        return _actions(state, dice=a.dice + (ev.face,), risk_left=left, stage="risk" if left > 0 else "place")
    if isinstance(ev, E.CommanderOut):
        if ev.removed:
            cs = dict(state.commanders)
            cs.pop(ev.commander, None)
            return replace(state, commanders=cs)
        st = _army(state, ev.seat, level=ev.new_level, can_risk=False)
        if st.turn is not None and st.turn.actions is not None and st.turn.actions.seat == ev.seat:
            st = _actions(st, risk_left=0, stage="place" if st.turn.actions.stage == "risk" else st.turn.actions.stage)
        return st
    if isinstance(ev, E.DiePlaced):
        assert t is not None and t.actions is not None
        a = t.actions
        if ev.tactic:
            army = state.armies[ev.seat]
            st = _army(state, ev.seat, tactics={**army.tactics, ev.slot: ev.face})
            return _actions(st, used=a.used + (ev.die,), stage="place")
        placed = dict(a.placed)
        placed[ev.slot] = placed.get(ev.slot, ()) + (ev.die,)
        return _actions(state, used=a.used + (ev.die,), placed=placed, stage="place")
    if isinstance(ev, E.PlacementEnded):
        assert t is not None and t.actions is not None
        return _actions(state, stage="resolve", used=t.actions.used + ev.discarded, risk_left=0)
    if isinstance(ev, E.FormationActivated):
        assert t is not None and t.actions is not None
        placed = _take_die(t.actions.placed, ev.slot, ev.die)
        act = Activation(slot=ev.slot, die=ev.die, d=ev.d, commander=ev.commander, units=ev.units,
                         simple_bonus=ev.simple_bonus, simple_only=ev.simple_only)
        st = _actions(state, placed=placed, activation=act)
        return _turn(st, activated=st.turn.activated + ev.units)  # type: ignore[union-attr]
    if isinstance(ev, E.UnitMoved):
        u = state.units[ev.unit]
        st = replace(state, units={**state.units, ev.unit: replace(u, x=ev.end[0], y=ev.end[1], facing=ev.end[2])})
        t2 = st.turn
        if t2 is not None:
            # SMOKE-SR-18: a unit "moved" when its place or facing changed (a move of 0 is none)
            went = tuple(ev.start) != tuple(ev.end)
            moved = t2.moved + (ev.unit,) if went and ev.unit not in t2.moved else t2.moved
            st = replace(st, turn=replace(t2, moved=moved))
            if t2.actions is not None and t2.actions.activation is not None:
                act = t2.actions.activation
                st = _actions(st, activation=replace(act, moved=act.moved + (ev.unit,)))
        return st
    if isinstance(ev, E.ActivationEnded):
        return _actions(state, activation=None)
    if isinstance(ev, E.CommanderRode):
        assert t is not None and t.actions is not None
        c = state.commanders[ev.commander]
        st = replace(state, commanders={**state.commanders, c.id: replace(c, x=ev.end[0], y=ev.end[1])})
        return _actions(st, placed=_take_die(t.actions.placed, ev.slot, ev.die))
    if isinstance(ev, E.CommanderDisplaced):
        c = state.commanders[ev.commander]
        return replace(state, commanders={**state.commanders, c.id: replace(c, x=ev.end[0], y=ev.end[1])})
    if isinstance(ev, (E.CommanderRisked, E.HitsResolved, E.SixesCounted)):
        if isinstance(ev, E.SixesCounted):
            return replace(state, sixes={**state.sixes, ev.side: state.sixes.get(ev.side, 0) + ev.sixes})
        if isinstance(ev, E.HitsResolved) and t is not None and t.battle is not None:
            hits = dict(t.battle.hits)
            hits.pop(ev.unit, None)
            return _battle(state, hits=hits)
        return state
    if isinstance(ev, E.ActionsEnded):
        assert t is not None and t.actions is not None
        return _actions(state, placed={}, activation=None, stage="done", used=tuple(range(len(t.actions.dice))))
    if isinstance(ev, E.FireContactMeasured):
        return _turn(state, marker_offer=MarkerOffer(seat=ev.seat, eligible=ev.eligible, forbidden=ev.forbidden,
                                                     best=ev.best, points=ev.points))
    if isinstance(ev, E.MarkerPlaced):
        assert t is not None
        st = replace(state, markers={**state.markers, ev.marker: Marker(id=ev.marker, x=ev.x, y=ev.y)},
                     marker_seq=state.marker_seq + 1)
        return _turn(st, marker_offer=None, marked={**t.marked, ev.seat: ev.opponents})
    if isinstance(ev, E.MarkerRemoved):
        ms = dict(state.markers)
        ms.pop(ev.marker, None)
        return replace(state, markers=ms)
    if isinstance(ev, E.BattleStarted):
        assert t is not None
        return _turn(state, battle=BattleCtx(markers=ev.markers, step="tactics", tactic_order=ev.tactic_order,
                                             units=ev.units),
                     fought=t.fought + ev.markers)
    if isinstance(ev, E.TacticPlayed):
        assert t is not None and t.battle is not None
        b = t.battle
        played = b.played
        if ev.target is not None:
            played = tuple(replace(p, cancelled=True) if p.slot == ev.target and p.seat != ev.seat else p
                           for p in played)
        played = played + (PlayedTactic(seat=ev.seat, slot=ev.slot, d=ev.d, units=ev.units, target=ev.target),)
        army = state.armies[ev.seat]
        tactics = dict(army.tactics)
        tactics.pop(ev.slot, None)
        st = _army(state, ev.seat, tactics=tactics)
        return _battle(st, played=played)
    if isinstance(ev, E.TacticsEnded):
        assert t is not None and t.battle is not None
        return _battle(state, tactics_done=t.battle.tactics_done + (ev.seat,))
    if isinstance(ev, E.BattleRolled):
        hits = {k: v - ev.ignored.get(k, 0) for k, v in ev.allocation.items() if v - ev.ignored.get(k, 0) > 0}
        assert t is not None
        return _turn(_battle(state, step="resolve", hits=hits, resolve_order=ev.resolve_order,
                             allocated=dict(ev.allocation)),
                     fort_used=t.fort_used + tuple(u for u in sorted(ev.ignored) if u not in t.fort_used))
    if isinstance(ev, E.HitChoiceOffered):
        assert t is not None and t.battle is not None
        return _battle(state, step="allocate", choices=t.battle.choices + (ev.choice,))
    if isinstance(ev, E.HitsChosen):
        assert t is not None and t.battle is not None
        b = t.battle
        hits = dict(b.hits)
        for u in ev.units:
            if u not in ev.ignored:
                hits[u] = hits.get(u, 0) + 1
        rest = b.choices[1:]
        st = _battle(state, hits=hits, choices=rest, step="allocate" if rest else "resolve")
        return _turn(st, fort_used=t.fort_used + tuple(u for u in ev.ignored if u not in t.fort_used))
    if isinstance(ev, E.DisciplineTested):
        return state
    if isinstance(ev, E.BattleEnded):
        st = state
        if ev.outcome in ("won", "empty"):
            ms = dict(st.markers)
            for m in ev.markers:
                ms.pop(m, None)
            st = replace(st, markers=ms)
        return _turn(st, battle=None)  # SMOKE-TAC-4: the battle's tactic effects end with it
    if isinstance(ev, E.PhaseAdvanced):
        return replace(state, phase=ev.phase, sixes={**state.sixes, ev.side: ev.sixes_left},
                       ending=state.ending or ev.ending)
    if isinstance(ev, E.ArmyBroken):
        return replace(state, broken=ev.seat)
    if isinstance(ev, E.SideSupported):
        armies = {s: replace(a, morale=ev.shares[s]) if s in ev.shares else a for s, a in state.armies.items()}
        return replace(state, armies=armies, broken=None, supported=state.supported + (ev.side,))
    if isinstance(ev, E.ArmyAbandoned):
        units = {k: u for k, u in state.units.items() if u.seat != ev.seat}
        cs = {k: c for k, c in state.commanders.items() if c.seat != ev.seat}
        st = replace(state, units=units, commanders=cs, broken=None,
                     destroyed=state.destroyed + ev.removed)
        st = _army(st, ev.seat, out=True)
        if st.turn is not None and ev.seat in st.turn.players:
            st = _turn(st, players=tuple(p for p in st.turn.players if p != ev.seat))
        return st
    if isinstance(ev, E.GameEnded):
        return replace(state, result=Result(kind=ev.kind, winner=ev.winner, rule=ev.rule, detail=ev.detail))
    return state


def _generation(state: SmokeState, ev: object) -> SmokeState:
    g = state.generation
    if isinstance(ev, E.TerrainGenerationStarted):
        return replace(state, generation=TerrainGen(chooser=ev.chooser))
    if isinstance(ev, E.TerrainGenerationEnded):
        return replace(state, generation=None)
    assert g is not None and state.battle is not None

    def one_less(g2: TerrainGen) -> TerrainGen:
        left = g2.left - 1
        if left <= 0:
            return replace(g2, left=-1, queue=g2.queue[1:], options=())
        return replace(g2, left=left, options=())

    if isinstance(ev, E.QuartersChosen):
        return replace(state, generation=replace(g, chosen=True, queue=ev.queue, left=-1))
    if isinstance(ev, E.TerrainCountRolled):
        return replace(state, generation=replace(g, left=ev.count))
    if isinstance(ev, E.TerrainRolled):
        if ev.kinds:
            return replace(state, generation=replace(g, options=ev.kinds))
        return replace(state, generation=one_less(g))
    if isinstance(ev, E.TerrainPlaced):
        battle = replace(state.battle, terrain=state.battle.terrain + (ev.element,))
        return replace(state, battle=battle, generation=replace(one_less(g), placed=g.placed + (ev.element.id,)))
    if isinstance(ev, E.TerrainScattered):
        terrain = tuple(replace(e, polygon=ev.polygon) if e.id == ev.element else e
                        for e in state.battle.terrain if not (e.id == ev.element and ev.removed))
        return replace(state, battle=replace(state.battle, terrain=terrain))
    return state


def _deployment(state: SmokeState, ev: object) -> SmokeState:
    d = state.deployment
    if isinstance(ev, E.DeploymentStarted):
        return replace(state, deployment=Deployment(steps=ev.steps, forts=dict(ev.forts)))
    assert d is not None
    if isinstance(ev, E.ColumnsAssigned):
        return replace(state, deployment=replace(d, columns={**d.columns, ev.seat: ev.columns}))
    if isinstance(ev, E.DeploymentStepDone):
        return replace(state, deployment=replace(d, step=d.step + 1))
    if isinstance(ev, E.ColumnPlaced):
        m = ColumnMarker(seat=ev.seat, number=ev.number, x=ev.x, y=ev.y)
        return replace(state, deployment=replace(d, markers=d.markers + (m,)))
    if isinstance(ev, E.ColumnsRevealed):
        return replace(state, deployment=replace(d, revealed=d.revealed + tuple(s for s in ev.columns
                                                                                 if s not in d.revealed)))
    if isinstance(ev, (E.UnitDeployed, E.FortificationPlaced)):
        reserve = dict(state.reserve)
        u = reserve.pop(ev.unit)
        u = replace(u, x=ev.x, y=ev.y, facing=ev.facing)
        st = replace(state, reserve=reserve, units={**state.units, u.id: u})
        if isinstance(ev, E.FortificationPlaced):
            assert st.battle is not None
            st = replace(st, battle=replace(st.battle, terrain=st.battle.terrain + (ev.element,)),
                         deployment=replace(d, forts={**d.forts, ev.seat: d.forts.get(ev.seat, 1) - 1}))
        return st
    if isinstance(ev, E.CommanderDeployed):
        rc = dict(state.reserve_commanders)
        c = replace(rc.pop(ev.commander), x=ev.x, y=ev.y)
        return replace(state, reserve_commanders=rc, commanders={**state.commanders, c.id: c})
    return replace(state, deployment=None)  # DeploymentEnded


def _take_die(placed: dict[str, tuple[int, ...]], slot: str, die: int) -> dict[str, tuple[int, ...]]:
    out = dict(placed)
    rest = tuple(d for d in out.get(slot, ()) if d != die)
    if rest:
        out[slot] = rest
    else:
        out.pop(slot, None)
    return out


__all__ = ["evolve", "Army", "Result"]
