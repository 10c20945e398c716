"""A scenario's board as text (``umpire scenarios show ID``).

Rows are printed North (row 6) first, as a player sitting South sees the
board; short rows are indented half a cell. Each cell shows the terrain code,
a structure, and the unit (faction letter, unit code, badge letter). Hex ids
``x,r`` (HOTH-COORD-3) head every cell column in the legend line.
"""
from __future__ import annotations

from domain.hoth import board
from domain.hoth.scenario import HexesOccupied, PermanentMedal, Scenario, SuddenDeath, TemporaryMedal

TERRAIN_CODE = {"ridge": "RG", "rocks": "RK", "serac": "SR", "buildings": "BW", "trench": "TR", "crevasse": "CV"}
STRUCTURE_CODE = {"shield_generator": "SG", "ion_cannon": "IC"}
UNIT_CODE = {"snowtroopers": "iST", "at_at": "iAT", "probe_droids": "iPD",
             "echo_troopers": "rEB", "snowspeeders": "rSS", "rebel_artillery": "rAR"}
BADGE_CODE = {"elite_squadron": "q", "assault": "a", "eweb": "w", "scouts": "s", "elite_troops": "e"}
CELL = 9  # "[RG rEBs]" is 9 wide


def render(s: Scenario) -> str:
    terrain = {t.hex: TERRAIN_CODE[t.terrain] for t in s.terrain}
    structures = {st.hex: STRUCTURE_CODE[st.kind] for st in s.structures}
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
    header = "      " + "".join(f"c{c}".center(CELL) for c in range(10))
    lines.append(header)
    for r in range(board.ROWS - 1, -1, -1):
        xs = board.LONG_ROW_X if r in board.LONG_ROWS else board.SHORT_ROW_X
        indent = " " * (CELL // 2) if r % 2 else ""
        cells = []
        for x in xs:
            h = (x, r)
            left = structures.get(h) or terrain.get(h) or "  "
            if h in structures and h in terrain:
                left = structures[h].lower()  # structure standing on terrain
            mid = units.get(h, medals.get(h, "  ") + "  ")
            cells.append(f"[{left} {mid}]")
        lines.append(f"r{r}  {indent}" + "".join(cells))
    lines.append("Cells: terrain or structure (lowercase: a structure on a terrain tile), then a unit (i/r = "
                 "imperial/rebel; badge a=assault e=elite troops q=elite squadron s=scouts w=e-web) or an "
                 "objective hex (T/P = temporary/permanent medal, S = sudden death; then i/r). "
                 "Hex id (x, r) = (2*c + r%2, r).")
    return "\n".join(lines)
