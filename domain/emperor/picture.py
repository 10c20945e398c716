"""The battlefield as SVG (``GET /games/{id}/board.svg``): grid, locations (face up or flipped),
hazards (active or not), warriors with their wounds, the current order card with its compass, and
the last Emperor move with the cells it considered (SOLO-MOVE-4/5/7).

Pure and deterministic: integer coordinates, sorted drawing order, no clock. Every word is a message (issue 28)
written by ``say`` in the reader's language (English by default); a printed name (a warrior's, a card's, a
location's, an ability's) goes through ``say`` as a plain string (the reader's rulebook's name), and so does the
notation of the cards' abilities (``ATTACK 2 MELEE``: the Ukrainian rulebook names abilities in words). Crests
named on their own, compass letters, cell names and the ids stay as they are.
"""
from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape

from domain.kernel.messages import Message, joined, msg, text_of

from .content import ability_text
from .field import Field
from .grid import xy
from .state import EMPEROR, HERO, HUMAN, EmperorState
from .terms import BONUS_SYMBOLS, ORDER_STEPS

CELL = 84
MARGIN = 36
TOP = 54
PANEL = 250

HUMAN_FILL = "#3f6fb5"
EMPEROR_FILL = "#b5403f"
ARROWS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
#: The most characters of a location's bonus symbols on one line of its card (font 9); longer: one a line.
BONUS_LINE = 12


def _xy(state: EmperorState, cell: str) -> tuple[int, int]:
    """Top-left corner of ``cell`` (row 1 at the bottom: the human's edge, BASE-GRID-1)."""
    assert state.battlefield is not None
    x, y = xy(cell)
    return MARGIN + (x - 1) * CELL, TOP + (state.battlefield.rows - y) * CELL


def _center(state: EmperorState, cell: str) -> tuple[int, int]:
    x, y = _xy(state, cell)
    return x + CELL // 2, y + CELL // 2


def _name(state: EmperorState, wid: str) -> str:
    """A warrior's printed name (its id when it is unknown)."""
    w = state.warriors.get(wid)
    return w.name if w is not None else wid


def _t(x: int, y: int, text: str, size: int = 11, anchor: str = "middle", weight: str = "normal",
       fill: str = "#222", cls: str = "") -> str:
    """A text; ``cls``: what it is for a client (``order-line``, ``order-deck``), whatever the language."""
    klass = f' class="{cls}"' if cls else ""
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}"{klass}>{escape(text)}</text>')


#: The most characters of a card's abilities the panel shows; the rest is cut at an ability's end.
ABILITIES_WIDTH = 34


def _abilities(abilities, say: Callable[["str | Message"], str]) -> str:
    """A card's abilities in the panel, ``ATTACK 2 MELEE; PUSH 1 MELEE``: the whole abilities that fit
    :data:`ABILITIES_WIDTH` (at least one), then ``…`` when some are left out; each in the reader's language (its
    whole notation is a printed word of the catalog, as the view's, domain/emperor/view.py ``NOTATION``), measured
    as it is written."""
    said = [say(ability_text(a)) for a in abilities]
    shown = 1
    while shown < len(said) and len("; ".join(said[:shown + 1])) <= ABILITIES_WIDTH:
        shown += 1
    return "; ".join(said[:shown]) + ("…" if shown < len(said) else "")


def warrior_words(wr) -> Message:
    """A warrior's hover title: ``Akhena (the Emperor's hero) on C4: 5 of 6 health``."""
    p = dict(name=wr.name, cell=wr.cell, left=wr.left, health=wr.health)
    if wr.side == HUMAN:
        return (msg("{name} (your hero) on {cell}: {left} of {health} health", **p) if wr.kind == HERO
                else msg("{name} (your helper) on {cell}: {left} of {health} health", **p))
    return (msg("{name} (the Emperor's hero) on {cell}: {left} of {health} health", **p) if wr.kind == HERO
            else msg("{name} (the Emperor's helper) on {cell}: {left} of {health} health", **p))


def render(state: EmperorState, seat: str | None, recent: list,
           say: Callable[["str | Message"], str] = text_of) -> str:
    """The battlefield as SVG; ``say`` writes a message in the reader's language (English by default)."""
    if not state.opened or state.battlefield is None:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="320" height="60">'
                + _t(160, 34, say(msg("{scenario}: not set up", scenario=state.scenario_id)), 14) + "</svg>")
    bf = state.battlefield
    field = Field(state)
    w = MARGIN * 2 + bf.columns * CELL + PANEL
    h = TOP + bf.rows * CELL + MARGIN + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           'font-family="sans-serif">',
           '<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="6" refY="4" orient="auto">'
           '<path d="M0,0 L8,4 L0,8 z" fill="#6a3d9a"/></marker>'
           '<pattern id="off" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
           '<line x1="0" y1="0" x2="0" y2="8" stroke="#b9b9b9" stroke-width="3"/></pattern></defs>',
           f'<rect x="0" y="0" width="{w}" height="{h}" fill="#fbfaf6"/>']
    title = (msg("{title} - turn {turn}", title=state.setup_title, turn=state.turn_no) if not state.winner else
             msg("{title} - turn {turn} - you win", title=state.setup_title, turn=state.turn_no)
             if state.winner == HUMAN else
             msg("{title} - turn {turn} - the Emperor wins", title=state.setup_title, turn=state.turn_no))
    out.append(_t(MARGIN, 30, say(title), 16, "start", "bold"))
    # cells and coordinates
    for cell in field.grid.cells:
        x, y = _xy(state, cell)
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f1efe6" stroke="#8c8c8c"/>')
        out.append(_t(x + 4, y + 12, cell, 9, "start", fill="#777"))
    # the last Emperor move: the cells it considered
    lm = state.last_move
    if lm is not None:
        for cell in sorted(lm.reachable):
            x, y = _xy(state, cell)
            out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="#f6e79a" '
                       'fill-opacity="0.55"/>')
        for cell in sorted(lm.possible):
            x, y = _xy(state, cell)
            out.append(f'<rect x="{x + 6}" y="{y + 6}" width="{CELL - 12}" height="{CELL - 12}" fill="none" '
                       'stroke="#6a3d9a" stroke-width="2" stroke-dasharray="5,4"/>')
        for cell in sorted(lm.candidates):
            x, y = _xy(state, cell)
            out.append(f'<rect x="{x + 6}" y="{y + 6}" width="{CELL - 12}" height="{CELL - 12}" fill="none" '
                       'stroke="#6a3d9a" stroke-width="3"/>')
    # hazards
    for hz in sorted(bf.hazards, key=lambda z: z.id):
        x, y = _xy(state, hz.cell)
        on = field.hazard_active(hz)
        fill = "#e9826f" if on else "url(#off)"
        out.append(f'<rect x="{x + 10}" y="{y + 16}" width="{CELL - 20}" height="{CELL - 26}" rx="6" fill="{fill}" '
                   f'fill-opacity="0.8" stroke="{"#a33" if on else "#999"}"'
                   + ('' if on else ' stroke-dasharray="3,3"') + '/>')
        out.append(_t(x + CELL // 2, y + CELL - 14, f"{hz.id} {say(hz.name)}" + ("" if on else say(msg(" (off)"))), 9))
    # locations
    for lo in sorted(bf.locations, key=lambda z: z.id):
        x, y = _xy(state, lo.cell)
        up = field.face_up(lo.id)
        out.append(f'<rect x="{x + 4}" y="{y + 4}" width="{CELL - 8}" height="{CELL - 8}" rx="4" '
                   f'fill="{"#d8c08a" if up else "#a3a3a3"}" stroke="#5a4a2a"/>')
        out.append(_t(x + CELL // 2, y + 26, f"{lo.id} {say(lo.name)}", 10, weight="bold"))
        bon = [say(BONUS_SYMBOLS.get(b.symbol, b.symbol)) + ("x2" if b.count == 2 else "") for b in lo.bonuses]
        if len(" ".join(bon)) <= BONUS_LINE:
            out.append(_t(x + CELL // 2, y + 42, " ".join(bon), 9))
        else:  # words too long for one line of the card (ПЕРЕМІЩЕННЯ ПОШТОВХ): one symbol a line, smaller
            out += [_t(x + CELL // 2, y + 38 + 8 * i, word, 8) for i, word in enumerate(bon[:2])]
        if lo.ability is not None:
            out.append(_t(x + CELL // 2, y + 56, say(lo.ability.name), 9))
        if not up:
            out.append(_t(x + CELL // 2, y + 72, say(msg("flipped")), 9, fill="#333", weight="bold"))
    # the last Emperor move's path
    if lm is not None and lm.path:
        pts = [_center(state, c) for c in (lm.frm, *lm.path)]
        d = " ".join(f"{px},{py}" for px, py in pts)
        out.append(f'<polyline points="{d}" fill="none" stroke="#6a3d9a" stroke-width="3" marker-end="url(#arrow)"/>')
    # one transparent target per cell over the terrain (a client highlights and clicks it: data-cell)
    hazard_at = {hz.cell: hz for hz in bf.hazards}
    location_at = {lo.cell: lo for lo in bf.locations}
    for cell in field.grid.cells:
        x, y = _xy(state, cell)
        what: list[str | Message] = [cell]
        if cell in location_at:
            lo = location_at[cell]
            what.append(msg("location {location} {name}", location=lo.id, name=lo.name) if field.face_up(lo.id)
                        else msg("location {location} {name} (flipped)", location=lo.id, name=lo.name))
        hz = hazard_at.get(cell)
        if hz is not None:
            what.append(msg("hazard {hazard} {name}", hazard=hz.id, name=hz.name) if field.hazard_active(hz)
                        else msg("hazard {hazard} {name} (off)", hazard=hz.id, name=hz.name))
        attrs = f' data-cell="{cell}"'
        if hz is not None and field.hazard_active(hz):
            attrs += f' data-hazard="{hz.id}"'
        if cell in location_at:
            attrs += f' data-location="{location_at[cell].id}"'
        out.append(f'<rect class="cell-hit" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#ffffff" '
                   f'fill-opacity="0"{attrs}><title>{escape(say(joined(what, ", ")))}</title></rect>')
    # warriors
    for wr in sorted(state.warriors.values(), key=lambda z: z.id):
        if wr.cell is None:
            continue
        cx, cy = _center(state, wr.cell)
        r = 22 if wr.kind == "hero" else 16
        fill = HUMAN_FILL if wr.side == HUMAN else EMPEROR_FILL
        out.append(f'<g data-warrior="{wr.id}" data-cell="{wr.cell}" data-side="{wr.side}">'
                   f'<title>{escape(say(warrior_words(wr)))}</title>')
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="#111" stroke-width="2"/>')
        out.append(_t(cx, cy - 1, say(wr.name)[:7], 9, fill="#fff", weight="bold"))
        out.append(_t(cx, cy + 11, f"{wr.left}/{wr.health}", 9, fill="#fff"))
        out.append("</g>")
    # panel: order card and compass
    px = MARGIN * 2 + bf.columns * CELL - 10
    out.append(_t(px, TOP + 6, say(msg("Order card")), 13, "start", "bold", cls="order-title"))
    oc = state.current_order()
    if oc is None:
        out.append(_t(px, TOP + 26, say(msg("none yet")), 11, "start", cls="order-line"))
    else:
        steps = joined([ORDER_STEPS.get(x, x.replace("_", " ")) for x in oc.steps], ", ")
        lines = [f"{oc.id}: {say(steps)}",
                 say(msg("refresh {refresh}   defense {defense}", refresh=oc.refresh_value,
                         defense=format(oc.defense_modifier, "+d"))),
                 say(msg("unique crest: yes") if oc.unique_crest else msg("unique crest: no")),
                 say(msg("compass: {compass}", compass=oc.compass))]
        for i, line in enumerate(lines):
            out.append(_t(px, TOP + 26 + 16 * i, line, 11, "start", cls="order-line"))
        cx, cy = px + 60, TOP + 135
        out.append(f'<circle cx="{cx}" cy="{cy}" r="32" fill="#fff" stroke="#444"/>')
        out.append(_t(cx, cy - 36, "N", 10))
        dx, dy = ARROWS[oc.compass]
        tip = (cx + dx * 26, cy + dy * 26)
        base = (cx + dx * 12, cy + dy * 12)
        wing = (-dy * 8, dx * 8)
        out.append(f'<line x1="{cx - dx * 22}" y1="{cy - dy * 22}" x2="{base[0]}" y2="{base[1]}" '
                   'stroke="#6a3d9a" stroke-width="4"/>')
        out.append(f'<polygon points="{tip[0]},{tip[1]} {base[0] + wing[0]},{base[1] + wing[1]} '
                   f'{base[0] - wing[0]},{base[1] - wing[1]}" fill="#6a3d9a"/>')
    out.append(_t(px, TOP + 190, say(msg("deck {deck}  discard {discard}", deck=len(state.order_deck),
                                         discard=len(state.order_discard))), 11, "start", cls="order-deck"))
    y0 = TOP + 214
    for side in (EMPEROR, HUMAN):
        hero = state.heroes.get(side)
        if hero is None:
            continue
        crest = state.crest.get(side)
        if side == EMPEROR:
            who = (msg("Emperor: {name} (crest {crest})", name=hero.name, crest=crest) if crest
                   else msg("Emperor: {name}", name=hero.name))
        else:
            who = (msg("You: {name} (crest {crest})", name=hero.name, crest=crest) if crest
                   else msg("You: {name}", name=hero.name))
        out.append(_t(px, y0, say(who), 11, "start", "bold"))
        y0 += 15
        ex = state.exhausted.get(side, ())
        for c in hero.cards:
            mark = "x" if c.id in ex else "o"
            out.append(_t(px, y0, f"{mark} {c.id} {say(c.name)}: " + _abilities(c.abilities, say),
                          9, "start", fill="#888" if c.id in ex else "#222"))
            y0 += 12
        y0 += 8
    if lm is not None:
        ly = TOP + state.battlefield.rows * CELL + 22
        move = say(msg("Last Emperor move: {name} {frm} -> {to} (SOLO-MOVE-7 step {step})", name=_name(state, lm.warrior),
                       frm=lm.frm, to=lm.to, step=lm.step))
        legend = say(msg("dashed: possible P, tinted: reachable R, bold: P∩R"))
        out.append(f'<text x="{MARGIN}" y="{ly}" font-size="10" text-anchor="start" font-weight="normal" fill="#222">'
                   f'<tspan class="last-move">{escape(move)}</tspan>; {escape(legend)}</text>')
    out.append("</svg>")
    return "\n".join(out)
