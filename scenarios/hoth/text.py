"""A scenario's board as text (``umpire scenarios show ID``).

Rows are printed North (row 6) first, as a player sitting South sees the
board; short rows are indented half a cell. Each cell shows the terrain code,
a structure, and the unit (faction letter, unit code, badge letter). Hex ids
``x,r`` (HOTH-COORD-3) head every cell column in the legend line.
"""
from __future__ import annotations

from domain.hoth.scenario import HexesOccupied, PermanentMedal, Scenario, SuddenDeath, TemporaryMedal
from domain.hoth.text import BADGE_CODE, HEX_ID_NOTE, UNIT_CODE, grid, terrain_cells

CELL = 9  # "[RG rEBs]" is 9 wide


def render(s: Scenario) -> str:
    left = terrain_cells({t.hex: t.terrain for t in s.terrain}, {st.hex: st.kind for st in s.structures})
    units = {u.hex: UNIT_CODE[u.unit] + (BADGE_CODE[u.badge] if u.badge else " ") for u in s.units}
    medals = {o.hex: ("T" if isinstance(o, TemporaryMedal) else "P") + o.faction[0]
              for o in s.objectives if isinstance(o, (TemporaryMedal, PermanentMedal))}
    for o in s.objectives:
        if isinstance(o, SuddenDeath) and isinstance(o.condition, HexesOccupied):
            medals.update({tuple(h): "S" + o.faction[0] for h in o.condition.hexes})
    lines = [f"{s.id}: {s.title}  [status: {s.status}, layout: {s.layout_status}]",
             f"South (row 0): {s.south}; first player: {s.first}"]
    for f in ("imperial", "rebel"):
        side = s.side(f)
        win = f"{side.victory_medals} medals" if side.victory_medals is not None else "no medal victory"
        extra = "" if side.elimination_medals else ", no medals for eliminations"
        lines.append(f"  {f}: {side.hand_size} cards, {win}{extra}")
    for o in s.objectives:
        if isinstance(o, SuddenDeath):
            lines.append(f"  sudden death ({o.faction}): {o.id} [{type(o.condition).__name__}]")
        else:
            lines.append(f"  {type(o).__name__} ({o.faction}) {o.id} at {list(o.hex)}")
    lines += grid(left, {h: units.get(h, medals.get(h, "  ") + "  ") for h in set(units) | set(medals)}, CELL)
    lines.append("Cells: terrain or structure (lowercase: a structure on a terrain tile), then a unit (i/r = "
                 "imperial/rebel; badge a=assault e=elite troops q=elite squadron s=scouts w=e-web) or an "
                 "objective hex (T/P = temporary/permanent medal, S = sudden death; then i/r). "
                 + HEX_ID_NOTE)
    return "\n".join(lines)
