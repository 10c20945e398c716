"""The Emperor's battlefield as text (``umpire replay``, kernel protocol ``render_text``).

Rows are printed north (the Emperor's edge) first. A cell shows a location (``L`` and its number,
lower case ``l`` once flipped), an active hazard (``~``; ``.`` when inactive), and a warrior (``Y`` your
hero, ``y`` your helper, ``E`` the Emperor's hero, ``e`` its helper). A list follows with every
warrior's health, the action rows, and the order card in force.

Its words are messages (issue 28: ``umpire replay --lang`` renders them), the same the picture's (board.svg,
domain/emperor/picture.py) and the rulings' where they say the same thing; the grid's letters are the same in every
language.
"""
from __future__ import annotations

from domain.kernel.messages import Message, joined, msg

from .ending import hero_died, win_message
from .field import Field
from .grid import label
from .picture import warrior_words
from .state import EMPEROR, HERO, HUMAN, EmperorState
from .terms import ORDER_STEPS, word

_MARK = {(HUMAN, True): "Y", (HUMAN, False): "y", (EMPEROR, True): "E", (EMPEROR, False): "e"}


def render_state(state: EmperorState, seat: str | None) -> "str | Message":
    bf = state.battlefield
    if bf is None or not state.opened:
        return msg("{scenario}: not opened yet", scenario=state.scenario_id)
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
    head = msg("{scenario}: {title}  turn {turn}", scenario=state.scenario_id, title=state.setup_title,
               turn=state.turn_no)
    if t is not None:
        head = joined([head, msg("your turn") if t.side == HUMAN else msg("the Emperor's turn")], ", ")
    lines: list[str | Message] = [head]
    if state.winner is not None:
        reason = win_message(state) or state.win_reason
        lines.append(msg("you win: {reason}", reason=reason) if state.winner == HUMAN
                     else msg("the Emperor wins: {reason}", reason=reason))
    lines.append("    " + "".join(f"{chr(65 + c):^4}" for c in range(bf.columns)))
    for r in range(bf.rows, 0, -1):
        lines.append(f"{r:>2}  " + "".join(f"[{cells.get(label(c + 1, r), '  '):<2}]" for c in range(bf.columns)))
    lines.append(msg("Cells: L<n> location face up (l flipped), ~ active hazard (. inactive), Y/y your hero/helper, "
                     "E/e the Emperor's hero/helper. Row 1 is your edge."))
    for lo in bf.locations:
        what = (msg("location {location} {name}", location=lo.id, name=lo.name) if f.face_up(lo.id)
                else msg("location {location} {name} (flipped)", location=lo.id, name=lo.name))
        lines.append(joined(["  ", msg("{location} on {cell}", location=what, cell=lo.cell)], ""))
    for hz in bf.hazards:
        what = (msg("hazard {hazard} {name}", hazard=hz.id, name=hz.name) if f.hazard_active(hz)
                else msg("hazard {hazard} {name} (off)", hazard=hz.id, name=hz.name))
        lines.append(joined(["  ", msg("{location} on {cell}", location=what, cell=hz.cell)], ""))
    for w in sorted(state.warriors.values(), key=lambda w: (w.side != HUMAN, w.kind != HERO, w.id)):
        lines.append(joined(["  ", warrior_words(w) if w.cell else hero_died(w.name)], ""))
    for s in (HUMAN, EMPEROR):
        h = state.heroes.get(s)
        if h is None:
            continue
        ex = state.exhausted.get(s, ())
        row = joined([msg("{card} {card_text}", card=c.id, card_text=c.name) if c.id not in ex else
                      msg("{card} {card_text} (exhausted)", card=c.id, card_text=c.name) for c in h.cards], ", ")
        lines.append(msg("Your action row: {cards}", cards=row) if s == HUMAN
                     else msg("The Emperor's action row: {cards}", cards=row))
    oc = state.current_order()
    if oc is not None:
        lines.append(msg("Order card {card}: steps {steps}; refresh value {refresh}", card=oc.id,
                         steps=joined([word(ORDER_STEPS, x) for x in oc.steps], ", "), refresh=oc.refresh_value))
    return joined(lines, "\n")


__all__ = ["render_state"]
