"""Where reinforcements may enter (HOTH-FORCE-3, HOTH-CARD-4): a faction's empty baseline hexes its unit
may enter, while the box still holds such a unit. Asked by a support card's targets
(:mod:`domain.hoth.support`) and by the reinforce command (:mod:`domain.hoth.turns`)."""
from __future__ import annotations

from . import board
from .context import is_south, snapshot
from .scenario import Hex
from .terrain import enter_refusal
from .units import UNIT_SPECS


#: HOTH-FORCE-3: units the box holds per type (figures / figures per unit).
BOX_UNITS: dict[str, int] = {"snowtroopers": 8, "at_at": 3, "probe_droids": 2, "echo_troopers": 8,
                             "snowspeeders": 3, "rebel_artillery": 2}


def reinforcement_hexes(state, faction: str, unit_type: str) -> list[Hex]:
    """Empty, enterable hexes of the faction's baseline, if the box still holds such a unit (HOTH-FORCE-3)."""
    on_board = sum(1 for u in state.units.values() if u.unit == unit_type)
    if on_board >= BOX_UNITS.get(unit_type, 0):
        return []
    snap = snapshot(state)
    row = board.baseline_row(is_south(state, faction))
    s = UNIT_SPECS[unit_type]
    return [h for h in board.ALL_PLAYABLE if h[1] == row and h not in snap.occ
            and enter_refusal(snap.terrain.get(h), h in snap.structs, s.flying, s.cannot_enter) is None]
