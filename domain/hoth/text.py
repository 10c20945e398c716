"""The Battle of Hoth board as text: ``umpire scenarios show`` (a scenario) and ``umpire replay`` (the
board at any step, kernel protocol ``render_text``).

Rows are printed North (row 6) first, as a player sitting South sees the board; short rows are
indented half a cell. Each cell shows the terrain code or a structure, then the unit (faction letter,
unit code, figures left, badge letter) or an objective. Columns are headed ``c0``..``c9``; a hex id
is ``[x, r]`` with ``x = 2*c + r % 2`` (HOTH-COORD-3).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel.messages import Message, joined, msg

from . import board
from .cards import title_of
from .medals import win_message
from .scenario import Hex
from .terms import phase, side

TERRAIN_CODE = {"ridge": "RG", "rocks": "RK", "serac": "SR", "buildings": "BW", "trench": "TR", "crevasse": "CV"}
STRUCTURE_CODE = {"shield_generator": "SG", "ion_cannon": "IC"}
UNIT_CODE = {"snowtroopers": "iST", "at_at": "iAT", "probe_droids": "iPD",
             "echo_troopers": "rEB", "snowspeeders": "rSS", "rebel_artillery": "rAR"}
BADGE_CODE = {"elite_squadron": "q", "assault": "a", "eweb": "w", "scouts": "s", "elite_troops": "e"}
HEX_ID = msg("Hex id [x, r] = [2*c + r%2, r].")
HEX_ID_NOTE = HEX_ID.english()


def grid(left: Mapping[Hex, str], right: Mapping[Hex, str], width: int) -> list[str]:
    """The board's rows as text: each cell ``[<left 2> <right>]`` padded to ``width`` characters."""
    inner = width - 2
    lines = ["      " + "".join(f"c{c}".center(width) for c in range(10))]
    for r in range(board.ROWS - 1, -1, -1):
        xs = board.LONG_ROW_X if r in board.LONG_ROWS else board.SHORT_ROW_X
        indent = " " * (width // 2) if r % 2 else ""
        cells = []
        for x in xs:
            h = (x, r)
            body = f"{left.get(h, '  '):<2} {right.get(h, '')}"
            cells.append("[" + body[:inner].ljust(inner) + "]")
        lines.append(f"r{r}  {indent}" + "".join(cells))
    return lines


def terrain_cells(terrain: Mapping[Hex, str], structures: Mapping[Hex, str]) -> dict[Hex, str]:
    """Terrain codes, a structure's code over them (lower case when it stands on a terrain tile)."""
    out = {h: TERRAIN_CODE[t] for h, t in terrain.items()}
    for h, kind in structures.items():
        code = STRUCTURE_CODE[kind]
        out[h] = code.lower() if h in terrain else code
    return out


def render_state(state: Any, seat: str | None, reveal_all: bool = False) -> "str | Message":
    """The board of a game state as ``seat`` may see it (the board is public; hands are the seat's own). Its
    words are messages (issue 28: ``umpire replay --lang`` renders them); the grid's codes are the same in
    every language."""
    sc = state.scenario
    if sc is None or not state.opened:
        return msg("{scenario}: not opened yet", scenario=state.scenario_id)
    terrain = {tuple(t.hex): t.terrain for t in sc.terrain}
    standing = {tuple(s.hex): s.kind for s in state.structures.values() if not s.destroyed}
    units = {tuple(u.hex): f"{UNIT_CODE[u.unit]}{u.figures}{BADGE_CODE.get(u.badge or '', '')}"
             for u in state.units.values()}
    t = state.turn
    lines: list[str | Message] = [
        msg("{title}  turn {turn}, {seat} ({phase} step)", title=sc.title, turn=state.turn_no, seat=side(t.seat),
            phase=phase(t.phase)) if t else
        msg("{title}  turn {turn}", title=sc.title, turn=state.turn_no)]
    medals = [msg("{side} {medals}", side=side(f), medals=n) for f, n in sorted(state.medals.items())]
    lines.append(msg("medals: {list}; winner: {side} ({reason})", list=medals, side=side(state.winner),
                     reason=win_message(state) or state.win_reason) if state.winner else msg("medals: {list}", list=medals))
    if seat is not None and seat in state.hands:
        held = [title_of(state.cards, c) for c in state.hands[seat]]  # by printed title: {card} is a name's kind
        lines.append(msg("hand of {seat}: {card}", seat=side(seat), card=held or "-"))
    lines += grid(terrain_cells(terrain, standing), units, 10)
    destroyed = [msg("{structure} at {hex}", structure=s.id, hex=board.label(tuple(s.hex)))
                 for s in state.structures.values() if s.destroyed]
    if destroyed:
        lines.append(msg("destroyed: {list}", list=destroyed))
    lines.append(msg("Cells: terrain (RG ridge, RK rocks, SR serac, BW buildings, TR trench, CV crevasse) or structure "
                     "(SG/IC; lower case on a terrain tile), then a unit: i/r = the Empire/the Rebels, unit code, figures left, "
                     "badge (a assault, e elite troops, q elite squadron, s scouts, w e-web). {note}", note=HEX_ID))
    return joined(lines, "\n")


__all__ = ["BADGE_CODE", "HEX_ID", "HEX_ID_NOTE", "STRUCTURE_CODE", "TERRAIN_CODE", "UNIT_CODE", "grid", "render_state",
           "terrain_cells"]
