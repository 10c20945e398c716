"""The Emperor's targets (SOLO-TGT) and the two switching rules (SOLO-SWITCH)."""
from __future__ import annotations

from .field import Field
from .grid import compass_order, compass_pick
from .state import HERO, Warrior

SYM_NEAREST = "SYM_NEAREST"
SYM_FARTHEST = "SYM_FARTHEST"
SYM_ALL = "SYM_ALL"

#: BASE-RANGE-2 (PROPOSED, GAP-A-03): which range symbol is which targeting rule.
RANGE_RULE = {"MELEE": SYM_NEAREST, "RANGED": SYM_FARTHEST, "AREA": SYM_ALL}  # GAP-A-03


def distances(field: Field, frm: str, enemies: list[Warrior]) -> dict[str, int]:
    """SOLO-TGT-3: measured from the warrior performing the ability (BASE-GRID-3 ``dist``)."""
    return {e.id: field.dist(frm, e.cell) for e in enemies if e.cell is not None}


def _by_cell(field: Field, ids: list[str]) -> dict[str, str]:
    return {field.state.warriors[i].cell: i for i in ids}  # type: ignore[misc]


def pick(field: Field, frm: str, enemies: list[Warrior], rule: str, arrow: str) -> tuple[list[str], dict[str, int], bool]:
    """SOLO-TGT-1/2/4: the target(s) at any distance. Returns the targets in order, the distances,
    and whether the compass broke a tie (SOLO-TGT-4, SOLO-FAQ-1)."""
    d = distances(field, frm, enemies)
    if not d:
        return [], d, False
    if rule == SYM_ALL:
        # your hero first; then INFERRED: ascending distance, compass ties (SOLO-TGT-2)
        heroes = [e.id for e in enemies if e.kind == HERO and e.id in d]
        rest = [e.id for e in enemies if e.kind != HERO and e.id in d]
        ordered: list[str] = list(heroes)
        tie = False
        for dist in sorted({d[i] for i in rest}):
            same = [i for i in rest if d[i] == dist]
            tie = tie or len(same) > 1
            cells = _by_cell(field, same)
            ordered += [cells[c] for c in compass_order(cells, arrow)]
        return ordered, d, tie
    key = min(d.values()) if rule == SYM_NEAREST else max(d.values())
    same = [i for i, v in d.items() if v == key]
    if len(same) == 1:
        return same, d, False
    cells = _by_cell(field, same)
    c, _ = compass_pick(cells, arrow)
    return [cells[c]], d, True
