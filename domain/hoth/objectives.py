"""Objectives and victory (section 11, HOTH-WIN-*): temporary and permanent medals, sudden death."""
from __future__ import annotations

from collections.abc import Iterable

from .scenario import FACTIONS, HexesOccupied, PermanentMedal, StructuresDestroyed, SuddenDeath, TemporaryMedal, UnitsEliminated
from .state import HothState


def objective_changes(state: HothState, entered: Iterable[tuple[str, tuple[int, int]]] = ()) -> list[tuple]:
    """What changes now: ("temp", obj, held) and ("perm", obj) items (HOTH-OBJ-TEMP-*, HOTH-OBJ-PERM-*).

    ``entered``: (unit id, hex) pairs entered since the last check (moves, retreats, breakthroughs).
    """
    sc = state.scenario
    assert sc is not None
    out: list[tuple] = []
    if not sc.objectives:
        return out
    at = {u.hex: u for u in state.units.values()}
    entered = list(entered)
    for ob in sc.objectives:
        if isinstance(ob, TemporaryMedal):
            u = at.get(tuple(ob.hex))  # type: ignore[arg-type]
            occupied = u is not None and u.faction == ob.faction
            held = ob.id in state.held
            if occupied != held:
                out.append(("temp", ob, occupied))
        elif isinstance(ob, PermanentMedal):
            if ob.id in state.captured:
                continue
            for uid, h in entered:
                u = state.units.get(uid)
                if u is not None and u.faction == ob.faction and tuple(h) == tuple(ob.hex):
                    out.append(("perm", ob))
                    break
    return out


def sudden_death(state: HothState) -> SuddenDeath | None:
    """HOTH-OBJ-SUDDEN-1: the first sudden-death objective whose condition holds."""
    sc = state.scenario
    assert sc is not None
    for ob in sc.objectives:
        if not isinstance(ob, SuddenDeath):
            continue
        c = ob.condition
        if isinstance(c, StructuresDestroyed):
            if c.structures and all(state.structures.get(s) is not None and state.structures[s].destroyed
                                    for s in c.structures):
                return ob
        elif isinstance(c, HexesOccupied):
            at = {u.hex: u.faction for u in state.units.values()}
            if c.hexes and all(at.get(tuple(h)) == ob.faction for h in c.hexes):  # type: ignore[arg-type]
                return ob
        elif isinstance(c, UnitsEliminated):
            enemy = [u for u in state.units.values() if u.faction != ob.faction
                     and (not c.unit_types or u.unit in c.unit_types)]
            if not enemy:
                return ob
    return None


def medal_winner(state: HothState) -> str | None:
    """HOTH-WIN-1 / HOTH-WIN-5: a faction with at least its scenario's medal count."""
    sc = state.scenario
    assert sc is not None
    for f in FACTIONS:
        need = sc.side(f).victory_medals
        if need is not None and state.medals.get(f, 0) >= need:
            return f
    return None
