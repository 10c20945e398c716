"""Retreat (HOTH-RETREAT-*): paths towards the owner's baseline, losses for blocked steps."""
from __future__ import annotations

from . import board
from .context import TOWARDS, Snapshot, is_south
from .scenario import Hex
from .state import HothState, UnitState
from .terrain import retreat_refusal
from .units import UNIT_SPECS


def retreat_paths(state: HothState, snap: Snapshot, u: UnitState, steps: int) -> tuple[int, list[tuple[Hex, ...]]]:
    """The longest possible retreat (at most ``steps``) and every path of that length.

    HOTH-RETREAT-2 / HOTH-COORD-9 / HOTH-GAP-8: each step goes to one of the two hexes in the next
    row towards the owner's baseline. HOTH-RETREAT-4: only impassable terrain stops it.
    HOTH-RETREAT-5: no unit may be entered. HOTH-RETREAT-7 / HOTH-GAP-9: go as far as possible.
    """
    south = is_south(state, u.faction)
    flying = UNIT_SPECS[u.unit].flying
    best: list[tuple[Hex, ...]] = []
    best_len = 0

    def free(h: Hex) -> bool:
        if h in snap.occ:
            return False
        return retreat_refusal(snap.terrain.get(h), h in snap.structs, flying) is None

    def walk(cur: Hex, path: list[Hex]) -> None:
        nonlocal best, best_len
        if len(path) > best_len:
            best_len, best = len(path), []
        if len(path) == best_len:
            best.append(tuple(path))
        if len(path) >= steps:
            return
        for h in TOWARDS[south][cur]:
            if free(h):
                path.append(h)
                walk(h, path)
                path.pop()

    walk(u.hex, [])
    return best_len, best
