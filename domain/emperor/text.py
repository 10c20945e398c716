"""The Emperor's battlefield as text (``umpire replay``, kernel protocol ``render_text``).

Rows are printed north (the Emperor's edge) first. A cell shows a location (``L`` and its number,
lower case ``l`` once flipped), an active hazard (``~``; ``.`` when inactive), and a warrior (``Y`` your
hero, ``y`` your helper, ``E`` the Emperor's hero, ``e`` its helper). A list follows with every
warrior's health, the action rows, and the order card in force.
"""
from __future__ import annotations

from .field import Field
from .grid import label
from .state import EMPEROR, HERO, HUMAN, EmperorState

_MARK = {(HUMAN, True): "Y", (HUMAN, False): "y", (EMPEROR, True): "E", (EMPEROR, False): "e"}


def render_state(state: EmperorState, seat: str | None) -> str:
    bf = state.battlefield
    if bf is None or not state.opened:
        return f"{state.scenario_id}: not opened yet"
    f = Field(state)
    cells: dict[str, str] = {}
    for lo in bf.locations:
        cells[lo.cell] = ("L" if f.face_up(lo.id) else "l") + lo.id.lstrip("L")[:1]
    for hz in bf.hazards:
        cells[hz.cell] = "~ " if f.hazard_active(hz) else ". "
    for w in state.warriors.values():
        if w.cell is not None:
            cells[w.cell] = (cells.get(w.cell, "  ")[0].strip() or " ") + _MARK[(w.side, w.kind == HERO)]
    t = state.turn
    who = "" if t is None else (", your turn" if t.side == HUMAN else ", the Emperor's turn")
    lines = [f"{state.setup_title}  turn {state.turn_no}{who}"]
    if state.winner is not None:
        lines.append(("you win" if state.winner == HUMAN else "the Emperor wins") + f": {state.win_reason}")
    lines.append("    " + "".join(f"{chr(65 + c):^4}" for c in range(bf.columns)))
    for r in range(bf.rows, 0, -1):
        lines.append(f"{r:>2}  " + "".join(f"[{cells.get(label(c + 1, r), '  '):<2}]" for c in range(bf.columns)))
    lines.append("Cells: L<n> location face up (l flipped), ~ active hazard (. inactive), Y/y your hero/helper, "
                 "E/e the Emperor's hero/helper. Row 1 is your edge.")
    for lo in bf.locations:
        lines.append(f"  {lo.id} {lo.name} on {lo.cell}" + ("" if f.face_up(lo.id) else " (flipped)"))
    for hz in bf.hazards:
        lines.append(f"  {hz.id} {hz.name} (hazard) on {hz.cell}" + ("" if f.hazard_active(hz) else " (inactive)"))
    for w in sorted(state.warriors.values(), key=lambda w: (w.side != HUMAN, w.kind != HERO, w.id)):
        side = "yours" if w.side == HUMAN else "the Emperor's"
        where = f"on {w.cell}" if w.cell else "dead"
        lines.append(f"  {w.name} ({side}, {w.kind}) {where}, health {w.left} of {w.health}")
    for s in (HUMAN, EMPEROR):
        h = state.heroes.get(s)
        if h is None:
            continue
        ex = state.exhausted.get(s, ())
        row = ", ".join(f"{c.id} {c.name}" + (" (exhausted)" if c.id in ex else "") for c in h.cards)
        lines.append(("Your" if s == HUMAN else "The Emperor's") + f" action row: {row}")
    oc = state.current_order()
    if oc is not None:
        lines.append(f"Order card {oc.id}: steps {', '.join(x.replace('_', ' ').lower() for x in oc.steps)}; refresh "
                     f"value {oc.refresh_value}")
    return "\n".join(lines)


__all__ = ["render_state"]
