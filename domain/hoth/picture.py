"""A picture of the Battle of Hoth board as SVG (DESIGN 8: ``GET /games/{id}/board.svg``).

Pure and deterministic: the same ``BoardPicture`` always gives the same bytes (no clock, no
random, integer coordinates, sorted drawing order). The engine fills a ``BoardPicture`` from its
state; this module knows nothing about the state.

Clients find things on the picture by stable attributes: every hex polygon (and half-hex) has
``data-hex="x,r"`` (the hex id of commands, HOTH-COORD-3), every unit group ``data-unit`` (its id)
and ``data-hex``, every structure ``data-structure`` (its id) and ``data-hex``.

Layout: the skewed LOS frame of HOTH-COORD-7 scaled by (26, 15) px is a regular pointy-top hex
grid (26/15 ≈ √3), so every coordinate is an integer. North (row 6) is at the top, South (row 0)
at the bottom. The dashed section lines (HOTH-BOARD-3, HOTH-COORD-8) and the half-hexes
(HOTH-BOARD-6) are drawn from the board data in ``board.py``.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from xml.sax.saxutils import escape

import msgspec

from domain.kernel.messages import Message, msg, msg_n, text_of

from .board import (
    EAST_EDGE_X, HALF_HEXES, PLAYABLE, ROWS, SECTION_LINES_X, WEST_EDGE_X, Hex,
)
from .terms import badge as badge_words
from .terms import faces as face_words
from .terms import hex_text, side
from .terms import terrain as terrain_words


class UnitMark(msgspec.Struct, frozen=True):
    """One unit on the picture: hex, faction ("imperial"/"rebel"), unit type, figures left, badges."""

    hex: Hex
    faction: str
    unit_type: str
    figures: int
    badges: tuple[str, ...] = ()
    #: The unit's id as commands name it (``data-unit`` on the picture, for clients to act on).
    id: str = ""
    #: The unit's printed name (``Snowtroopers``; the hover title names it in the reader's language).
    name: str = ""


class MedalMark(msgspec.Struct, frozen=True):
    """An objective medal token on a hex (HOTH-OBJ-*): kind "temporary" or "permanent"."""

    hex: Hex
    kind: str
    faction: str | None = None


class LastAttack(msgspec.Struct, frozen=True):
    """The last attack, drawn as an arrow from attacker to target, with its dice faces."""

    attacker: Hex
    target: Hex
    faces: tuple[str, ...] = ()


class BoardPicture(msgspec.Struct, frozen=True, kw_only=True):
    #: The heading: a message (issue 28, in the reader's language) or a plain string
    title: "str | Message" = ""
    #: The faction sitting South (row 0, HOTH-COORD-1); shown in the caption.
    south_faction: str = "rebel"
    #: Terrain type per hex ("ridge", "rocks", "serac", "buildings", "trench", "crevasse").
    terrain: dict[Hex, str] = {}
    #: Structure kind per hex ("shield_generator", "ion_cannon").
    structures: dict[Hex, str] = {}
    #: Structure id per hex, as attack commands name it (``data-structure`` on the picture).
    structure_ids: dict[Hex, str] = {}
    medals: tuple[MedalMark, ...] = ()
    units: tuple[UnitMark, ...] = ()
    last_attack: LastAttack | None = None


# ---- look ------------------------------------------------------------------------------------

SX, SY = 26, 15          # px per unit of the skewed frame (HOTH-COORD-7)
MARGIN_X, MARGIN_TOP = 20, 50
BOARD_W = (EAST_EDGE_X - WEST_EDGE_X) * SX
BOARD_H = (3 * (ROWS - 1) + 4) * SY
CAPTION_H = 70
#: The hexes' coordinate and terrain labels (px of the picture: about 11 px on the screen at 1x on a 1280 px
#: page, where the picture is drawn 1.4 times larger) and the halo that keeps them legible over lines and fills.
LABEL_SIZE, LABEL_HALO = 8, 3

TERRAIN_STYLE: dict[str, tuple[str, str]] = {  # type -> (fill, short label)
    "ridge": ("#b8a27a", "RDG"),
    "rocks": ("#8d8d8d", "ROC"),
    "serac": ("#9fd3e6", "SER"),
    "buildings": ("#a66f52", "BLD"),
    "trench": ("#d8cfa8", "TRN"),
    "crevasse": ("#5b8fb0", "CRV"),
}
OPEN_FILL = "#f4f7fa"
HALF_HEX_FILL = "#c9ced4"
STRUCTURE_STYLE: dict[str, tuple[str, str]] = {
    "shield_generator": ("#6a5acd", "SG"),
    "ion_cannon": ("#2e7d32", "IC"),
}
FACTION_STYLE: dict[str, tuple[str, str, str]] = {  # faction -> (fill, stroke, text)
    "imperial": ("#37474f", "#101820", "#ffffff"),
    "rebel": ("#eceff1", "#b71c1c", "#202020"),
}
UNIT_CODE: dict[str, str] = {
    "snowtroopers": "ST", "at_at": "AT", "probe_droids": "PD",
    "echo_troopers": "EB", "snowspeeders": "SP", "rebel_artillery": "AR",
    "infantry": "I", "vehicle": "V", "special": "S",
}
BADGE_CODE: dict[str, str] = {
    "elite_squadron": "ES", "assault": "AS", "eweb": "EW", "eweb_set": "EW", "eweb_moved": "EW~",
    "scouts": "SC", "elite_troops": "ET",
}


def _px(x: int, y: int) -> tuple[int, int]:
    """Skewed-frame point (X, Y) -> SVG pixel. North (large Y) at the top."""
    return MARGIN_X + (x - WEST_EDGE_X) * SX, MARGIN_TOP + (3 * (ROWS - 1) + 2 - y) * SY


def _centre(h: Hex) -> tuple[int, int]:
    return _px(h[0], 3 * h[1])


def _points(pts: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{x},{y}" for x, y in (_px(*p) for p in pts))


def _hexagon(h: Hex) -> list[tuple[int, int]]:
    x, y = h[0], 3 * h[1]
    return [(x, y + 2), (x + 1, y + 1), (x + 1, y - 1), (x, y - 2), (x - 1, y - 1), (x - 1, y + 1)]


def _half(h: Hex) -> list[tuple[int, int]]:
    """The on-board half of a half-hex: the board edge X = -1 / X = 19 cuts it (HOTH-COORD-7)."""
    x, y = h[0], 3 * h[1]
    if x == WEST_EDGE_X:
        return [(x, y + 2), (x + 1, y + 1), (x + 1, y - 1), (x, y - 2)]
    return [(x, y + 2), (x, y - 2), (x - 1, y - 1), (x - 1, y + 1)]


def _shorten(p: tuple[int, int], towards: tuple[int, int], by: int) -> tuple[int, int]:
    """Move ``p`` ``by`` px towards ``towards`` (so the arrow head stops at the target's rim).

    Rounded to whole pixels: ``math.hypot`` is IEEE-exact enough that the output is reproducible.
    """
    dx, dy = towards[0] - p[0], towards[1] - p[1]
    length = math.hypot(dx, dy)
    if length <= by:
        return p
    return p[0] + round(dx * by / length), p[1] + round(dy * by / length)


def _short(code: str, table: dict[str, str], n: int) -> str:
    return table.get(code, code[:n].upper())


def _text(x: int, y: int, s: str, size: int, fill: str = "#202020", weight: str = "normal",
          anchor: str = "middle") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
            f'text-anchor="{anchor}">{escape(s)}</text>')


def _order(h: Hex) -> tuple[int, int]:
    return (-h[1], h[0])  # draw North to South, West to East


def _check(h: Hex, field: str) -> None:
    if h not in PLAYABLE:
        raise ValueError(f"HOTH-COORD-4: picture {field} {h!r} is not a playable hex")


def _medal(m: MedalMark) -> Message:
    """A medal's hover title (HOTH-OBJ-TEMP-*, HOTH-OBJ-PERM-*)."""
    if m.kind == "temporary":
        return msg("temporary medal ({side})", side=side(m.faction)) if m.faction else msg("temporary medal")
    return msg("permanent medal ({side})", side=side(m.faction)) if m.faction else msg("permanent medal")


def _unit_title(u: UnitMark) -> Message:
    """A unit's hover title: ``E1 imperial Snowtroopers, 3 figures, c4 r2 [8,2]``."""
    name = u.name or u.unit_type.replace("_", " ")
    if u.id:
        return msg_n("{unit} {name} ({side}), {count} figure, {hex}", "{unit} {name} ({side}), {count} figures, {hex}",
                     "count", unit=u.id, side=side(u.faction), name=name, count=u.figures, hex=hex_text(u.hex))
    return msg_n("{name} ({side}), {count} figure, {hex}", "{name} ({side}), {count} figures, {hex}", "count",
                 side=side(u.faction), name=name, count=u.figures, hex=hex_text(u.hex))


def render_board(picture: BoardPicture, say: Callable[["str | Message"], str] = text_of) -> str:
    """The board as a standalone SVG document (deterministic text). ``say`` writes its words (a message)
    in the reader's language, and a plain string as a printed name; English by default. Every word is one:
    the heading, the captions and the hover titles (hexes, structures, medals, units, badges); the short codes
    drawn on the board (``RDG``, ``ST``, ``T``/``P``) and the coordinates are the same in every language."""
    for h in picture.terrain:
        _check(h, "terrain")
    for h in picture.structures:
        _check(h, "structure")
    for m in picture.medals:
        _check(m.hex, "medal")
    for u in picture.units:
        _check(u.hex, "unit")
    if picture.last_attack is not None:
        _check(picture.last_attack.attacker, "last_attack.attacker")
        _check(picture.last_attack.target, "last_attack.target")

    width = BOARD_W + 2 * MARGIN_X
    height = MARGIN_TOP + BOARD_H + CAPTION_H
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" '
        'markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#d32f2f"/>'
        '</marker></defs>',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    title = say(picture.title) if picture.title else say(msg("Battle of Hoth"))
    out.append(_text(width // 2, 22, title, 16, weight="bold"))
    north = "imperial" if picture.south_faction == "rebel" else "rebel"
    out.append(_text(width // 2, 40, say(msg("North (row 6): {side}", side=side(north))), 11, fill="#555555"))

    # hexes with terrain (HOTH-BOARD-8: no tile = open ground)
    out.append('<g id="hexes" stroke="#7a8794" stroke-width="1">')
    for h in sorted(PLAYABLE, key=_order):
        terrain = picture.terrain.get(h)
        fill = TERRAIN_STYLE.get(terrain, ("#bdbdbd", ""))[0] if terrain else OPEN_FILL
        out.append(f'<polygon data-hex="{h[0]},{h[1]}" points="{_points(_hexagon(h))}" fill="{fill}">'
                   f'<title>{escape(say(hex_text(h)))}{escape(" " + say(terrain_words(terrain))) if terrain else ""}</title>'
                   '</polygon>')
    out.append("</g>")
    # half-hexes shaded (HOTH-BOARD-6)
    out.append('<g id="half-hexes" stroke="#7a8794" stroke-width="1">')
    for h in sorted(HALF_HEXES, key=_order):
        out.append(f'<polygon data-hex="{h[0]},{h[1]}" points="{_points(_half(h))}" fill="{HALF_HEX_FILL}">'
                   f'<title>{escape(say(hex_text(h)))}</title></polygon>')
    out.append("</g>")
    # the two dashed section lines (HOTH-BOARD-3, HOTH-COORD-8)
    out.append('<g id="sections" stroke="#d32f2f" stroke-width="2" stroke-dasharray="6,4">')
    for sx in SECTION_LINES_X:
        x1, y1 = _px(sx, 3 * (ROWS - 1) + 2)
        x2, y2 = _px(sx, -2)
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>')
    out.append("</g>")
    # coordinates and terrain labels, over the section lines and the terrain on a light halo (legible on any
    # fill); the coordinate sits between the figure count's disc and the hex's lower corner
    out.append(f'<g id="labels" stroke="{OPEN_FILL}" stroke-width="{LABEL_HALO}" stroke-linejoin="round" '
               'paint-order="stroke">')
    for h in sorted(PLAYABLE, key=_order):
        cx, cy = _centre(h)
        out.append(_text(cx, cy + 26, f"{h[0] // 2},{h[1]}", LABEL_SIZE, fill="#4f5b66"))
        terrain = picture.terrain.get(h)
        if terrain:
            short = TERRAIN_STYLE.get(terrain, ("", terrain[:3].upper()))[1]
            out.append(_text(cx, cy - 17, short, LABEL_SIZE, weight="bold", fill="#303030"))
    out.append("</g>")
    # structures (HOTH-STRUCT-*)
    out.append('<g id="structures">')
    for h, kind in sorted(picture.structures.items(), key=lambda kv: _order(kv[0])):
        fill, short = STRUCTURE_STYLE.get(kind, ("#555555", kind[:2].upper()))
        cx, cy = _centre(h)
        sid = picture.structure_ids.get(h, "")
        out.append(f'<g class="structure" data-structure="{escape(sid)}" data-hex="{h[0]},{h[1]}">'
                   f'<rect x="{cx - 13}" y="{cy - 13}" width="26" height="26" fill="{fill}" '
                   f'stroke="#101010"><title>{escape(say(kind.replace("_", " ")) + (" " + sid if sid else "") + ", " + say(hex_text(h)))}'
                   f'</title></rect>')
        out.append(_text(cx, cy + 4, short, 10, fill="#ffffff", weight="bold"))
        out.append("</g>")
    out.append("</g>")
    # objective medals (HOTH-OBJ-TEMP-*, HOTH-OBJ-PERM-*)
    out.append('<g id="medals">')
    for m in sorted(picture.medals, key=lambda m: (_order(m.hex), m.kind)):
        cx, cy = _centre(m.hex)
        dash = ' stroke-dasharray="2,2"' if m.kind == "temporary" else ""
        ring = FACTION_STYLE.get(m.faction or "", ("", "#8d6e00", ""))[1]
        out.append(f'<circle cx="{cx + 14}" cy="{cy - 12}" r="7" fill="#f9c80e" stroke="{ring}" '
                   f'stroke-width="2"{dash}><title>{escape(say(_medal(m)))}</title></circle>')
        out.append(_text(cx + 14, cy - 9, "T" if m.kind == "temporary" else "P", 8, weight="bold"))
    out.append("</g>")
    # units: faction colour, type code, figure count, badges
    out.append('<g id="units">')
    for u in sorted(picture.units, key=lambda u: (_order(u.hex), u.faction, u.unit_type)):
        fill, stroke, ink = FACTION_STYLE.get(u.faction, ("#ffeb3b", "#000000", "#000000"))
        cx, cy = _centre(u.hex)
        code = _short(u.unit_type, UNIT_CODE, 2)
        out.append(f'<g class="unit" data-unit="{escape(u.id)}" data-faction="{escape(u.faction)}" '
                   f'data-hex="{u.hex[0]},{u.hex[1]}">'
                   f'<title>{escape(say(_unit_title(u)))}</title>')
        out.append(f'<circle cx="{cx}" cy="{cy}" r="13" fill="{fill}" stroke="{stroke}" stroke-width="2"/>')
        out.append(_text(cx, cy + 4, code, 10, fill=ink, weight="bold"))
        out.append(f'<circle cx="{cx + 11}" cy="{cy + 11}" r="7" fill="#ffffff" stroke="{stroke}"/>')
        out.append(_text(cx + 11, cy + 14, str(u.figures), 9, weight="bold"))
        if u.badges:
            for i, badge in enumerate(u.badges):  # badge chips on the left of the unit (HOTH-SPECIAL-*)
                by = cy - 6 + 11 * i
                out.append(f'<rect x="{cx - 25}" y="{by}" width="14" height="10" rx="2" fill="#ffd54f" '
                           f'stroke="#8d6e00"><title>{escape(say(badge_words(badge)))}</title></rect>')
                out.append(_text(cx - 18, by + 8, _short(badge, BADGE_CODE, 2), 7, weight="bold"))
        out.append("</g>")
    out.append("</g>")
    # last attack arrow and dice faces
    caption_y = MARGIN_TOP + BOARD_H + 20
    if picture.last_attack is not None:
        la = picture.last_attack
        x1, y1 = _centre(la.attacker)
        x2, y2 = _shorten(_centre(la.target), (x1, y1), 16)
        out.append(f'<g id="last-attack"><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#d32f2f" '
                   f'stroke-width="3" stroke-opacity="0.8" marker-end="url(#arrow)"/></g>')
        faces = face_words(la.faces) if la.faces else msg("no dice")
        out.append(_text(MARGIN_X, caption_y,
                         say(msg("Last attack {attacker} -> {target}: {faces}", attacker=hex_text(la.attacker),
                                 target=hex_text(la.target), faces=faces)), 12,
                         anchor="start"))
    out.append(_text(MARGIN_X, caption_y + 22, say(msg("South (row 0): {side}", side=side(picture.south_faction))),
                     11, fill="#555555", anchor="start"))
    out.append("</svg>")
    return "\n".join(out) + "\n"

