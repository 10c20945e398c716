"""The table as SVG (DESIGN 8: ``GET /games/{id}/board.svg``), to scale: 30 px per UW, north up.

Terrain polygons and roads, deployment zones, units as oriented rectangles (the front edge drawn
heavy, label and state), commanders, battle markers with their 2 UW radius and price, and the last
step's measurements from its events: lines of fire (both front corners to the target points that
were found), the move's path, the retreat's path. Deterministic: the same state and events always
give the same bytes.

Every word of the picture (the header, the morale line, terrain names, markers, the hover titles) is a message
(issue 28), written by ``say`` in the reader's language (English by default); a unit's printed name goes
through ``say`` too (the reader's rulebook's name); ids, seats and numbers are data.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from domain.kernel.messages import Message, joined, msg, text_of

from . import events as E
from .commanders import COMMANDER_RADIUS
from .headline import status_words
from .markers import BATTLE_RADIUS
from .seat_words import seat_words
from .state import SmokeState
from .terrain_words import TERRAIN_WORDS

S = 30.0  # px per UW
M = 24.0  # margin, px
HEADER = 40.0

SIDE_COLOURS = ("#3b6fb6", "#b8433a", "#4f9a53", "#9a6bb8")
TERRAIN_FILL = {
    "stream": "#9cc7e8", "ravine": "#a9a18c", "swamp": "#8fb3a3", "village": "#c8a27a", "hill": "#e3d6a8",
    "overgrown_hill": "#b9c48a", "dune": "#eedc9a", "rock": "#a8a8a8", "forest": "#5f8f52", "grove": "#8fbf78",
    "vineyard": "#c9d37a", "bocage": "#a8c27a", "ploughed_field": "#d8c49a", "fortification": "#9a8f86",
    "road": "#b7aa96",
}


def _f(v: float) -> str:
    s = f"{v:.1f}"
    return "0.0" if s == "-0.0" else s


class _Frame:
    def __init__(self, width: float, height: float):
        self.w, self.h = width, height

    def x(self, x: float) -> str:
        return _f(M + x * S)

    def y(self, y: float) -> str:
        return _f(HEADER + M + (self.h - y) * S)

    def pts(self, pts) -> str:
        return " ".join(f"{self.x(p[0])},{self.y(p[1])}" for p in pts)


def render_svg(state: SmokeState, recent: list[Any], say: Callable[["str | Message"], str] = text_of) -> str:
    """The table as SVG; ``say`` writes a message in the reader's language (English by default)."""
    if state.battle is None:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="10" y="25">'
                f'{escape(say(msg("not set up")))}</text></svg>')
    b = state.battle
    fr = _Frame(b.width, b.height)
    W = M * 2 + b.width * S
    H = HEADER + M * 2 + b.height * S
    colour = {side.id: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(b.sides)}
    # the table's transform for clients (the web board maps a pointer to table UW with it):
    # svg x = origin_x + x * px_per_uw, svg y = origin_y - y * px_per_uw
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(W)}" height="{_f(H)}" '
           f'viewBox="0 0 {_f(W)} {_f(H)}" font-family="sans-serif" data-px-per-uw="{_f(S)}" '
           f'data-origin="{fr.x(0)} {fr.y(0)}" data-table="{_f(b.width)} {_f(b.height)}">',
           f'<rect x="0" y="0" width="{_f(W)}" height="{_f(H)}" fill="#f4f1e8"/>',
           f'<rect x="{fr.x(0)}" y="{fr.y(b.height)}" width="{_f(b.width * S)}" height="{_f(b.height * S)}" '
           'fill="#dfe8c9" stroke="#555" stroke-width="1.5"/>']
    # header: the battle's title; the turn, phase, who acts or the result, in words; the armies' morale
    side_name = {s.id: s.name for s in b.sides}
    out.append(f'<text x="{_f(M)}" y="16" font-size="14" font-weight="bold">{escape(say(b.title))}</text>')
    out.append(f'<text x="{_f(M)}" y="32" font-size="12" class="headline">{escape(say(status_words(state)))}</text>')
    morale = joined([msg("{seat} ({side}): morale {morale}/{start}, level {level}", seat=seat_words(a.seat),
                         side=side_name.get(a.side, a.side), morale=a.morale, start=a.start_morale, level=a.level)
                     for a in sorted(state.armies.values(), key=lambda a: a.seat)], "   ")
    out.append(f'<text x="{_f(M)}" y="47" font-size="11">{escape(say(morale))}</text>')
    # grid every 5 UW
    for gx in range(5, int(b.width), 5):
        out.append(f'<line x1="{fr.x(gx)}" y1="{fr.y(0)}" x2="{fr.x(gx)}" y2="{fr.y(b.height)}" stroke="#c9d3b2" '
                   'stroke-width="0.5"/>')
    for gy in range(5, int(b.height), 5):
        out.append(f'<line x1="{fr.x(0)}" y1="{fr.y(gy)}" x2="{fr.x(b.width)}" y2="{fr.y(gy)}" stroke="#c9d3b2" '
                   'stroke-width="0.5"/>')
    # deployment zones
    for side in b.sides:
        out.append(f'<polygon points="{fr.pts(side.zone)}" fill="none" stroke="{colour[side.id]}" '
                   'stroke-dasharray="6 4" stroke-width="1"/>')
    # terrain
    kinds = {k.id: k for k in state.kinds}
    for e in sorted(b.terrain, key=lambda e: (kinds[e.kind].road, e.id)):
        fill = TERRAIN_FILL.get(e.kind, "#cccccc")
        if kinds[e.kind].road:
            out.append(f'<polyline points="{fr.pts(e.line)}" fill="none" stroke="{fill}" '
                       f'stroke-width="{_f(e.width * S)}" stroke-linecap="round" stroke-linejoin="round" '
                       'opacity="0.9"/>')
            continue
        out.append(f'<polygon points="{fr.pts(e.polygon)}" fill="{fill}" stroke="#6b6b5a" stroke-width="1" '
                   'opacity="0.85"/>')
        cx = sum(p[0] for p in e.polygon) / len(e.polygon)
        cy = sum(p[1] for p in e.polygon) / len(e.polygon)
        out.append(f'<text x="{fr.x(cx)}" y="{fr.y(cy)}" font-size="9" text-anchor="middle" fill="#333">'
                   f'{escape(_terrain_name(kinds[e.kind], say))}</text>')
    # column markers during a deployment (SMOKE-DEP-3)
    if state.deployment is not None:
        for cm in state.deployment.markers:
            c = colour[state.armies[cm.seat].side]
            out.append(f'<circle cx="{fr.x(cm.x)}" cy="{fr.y(cm.y)}" r="{_f(2.0 * S)}" fill="none" stroke="{c}" '
                       'stroke-width="1" stroke-dasharray="2 3"/>')
            out.append(f'<rect x="{_f(float(fr.x(cm.x)) - 7)}" y="{_f(float(fr.y(cm.y)) - 7)}" width="14" height="14" '
                       f'fill="#fff" stroke="{c}" stroke-width="1.5"/>')
            out.append(f'<text x="{fr.x(cm.x)}" y="{_f(float(fr.y(cm.y)) + 4)}" font-size="10" text-anchor="middle" '
                       f'fill="{c}" font-weight="bold">{cm.number}</text>')
    # markers
    for m in sorted(state.markers.values(), key=lambda m: m.id):
        out.append(f'<circle cx="{fr.x(m.x)}" cy="{fr.y(m.y)}" r="{_f(BATTLE_RADIUS * S)}" fill="#f2c14e" '
                   'fill-opacity="0.18" stroke="#c58a00" stroke-width="1.5" stroke-dasharray="5 3"/>')
        out.append(f'<circle cx="{fr.x(m.x)}" cy="{fr.y(m.y)}" r="5" fill="#c58a00"/>')
        out.append(f'<text x="{fr.x(m.x)}" y="{_f(float(fr.y(m.y)) - 8)}" font-size="11" text-anchor="middle" '
                   f'font-weight="bold" fill="#7a5600">{escape(say(msg("{marker} price {price}", marker=m.id, price=m.price)))}</text>')
    # recent measurements under the units
    out += _measurements(state, recent, fr)
    # units
    hits = state.turn.battle.hits if state.turn is not None and state.turn.battle is not None else {}
    for u in sorted(state.units.values(), key=lambda u: u.id):
        side = state.armies[u.seat].side
        bx = u.box()
        c = colour[side]
        # the unit's pose in table UW and degrees (SMOKE-GEO-1/2), for clients to act on
        out.append(f'<g class="unit" data-unit="{escape(u.id)}" data-seat="{escape(u.seat)}" data-x="{u.x:.3f}" '
                   f'data-y="{u.y:.3f}" data-facing="{u.facing:.3f}" data-w="{u.w:.3f}" data-d="{u.d:.3f}">')
        out.append(f'<polygon points="{fr.pts(bx.corners())}" fill="{c}" fill-opacity="0.75" stroke="#222" '
                   'stroke-width="1"/>')
        fl, fr_ = bx.FL, bx.FR
        p = state.profiles[u.profile]
        for base in p.bases:  # SMOKE-UNIT-2: the bases of a multi-base unit, one rigid body
            out.append(f'<polygon points="{fr.pts(base_corners(bx, base))}" fill="none" stroke="#222" '
                       'stroke-width="0.6" data-base="1"/>')
        out.append(f'<line x1="{fr.x(fl[0])}" y1="{fr.y(fl[1])}" x2="{fr.x(fr_[0])}" y2="{fr.y(fr_[1])}" '
                   'stroke="#000" stroke-width="3"/>')
        label = u.id + (f" x{hits[u.id]}" if hits.get(u.id) else "")
        out.append(f'<text x="{fr.x(u.x)}" y="{_f(float(fr.y(u.y)) + 3)}" font-size="8" text-anchor="middle" '
                   f'fill="#fff" font-weight="bold">{escape(label)}</text>')
        out.append(f'<title>{escape(u.id)}: {escape(say(p.name))} ({escape(say(seat_words(u.seat)))})</title>')
        out.append("</g>")
    # commanders
    for cmd in sorted(state.commanders.values(), key=lambda c: c.id):
        c = colour[state.armies[cmd.seat].side]

        out.append(f'<g class="commander" data-commander="{escape(cmd.id)}" data-seat="{escape(cmd.seat)}" '
                   f'data-x="{cmd.x:.3f}" data-y="{cmd.y:.3f}" data-r="{COMMANDER_RADIUS:.3f}">')
        out.append(f'<circle cx="{fr.x(cmd.x)}" cy="{fr.y(cmd.y)}" r="{_f(COMMANDER_RADIUS * S)}" fill="#fff" '
                   f'stroke="{c}" stroke-width="2.5"/>')
        tag = "G" if cmd.general else "C"
        lvl = state.armies[cmd.seat].level if cmd.general else ""
        out.append(f'<text x="{fr.x(cmd.x)}" y="{_f(float(fr.y(cmd.y)) + 3)}" font-size="8" text-anchor="middle" '
                   f'fill="{c}" font-weight="bold">{tag}{lvl}</text>')
        who = (msg("{commander}: general ({seat})", commander=cmd.id, seat=seat_words(cmd.seat)) if cmd.general
               else msg("{commander}: commander ({seat})", commander=cmd.id, seat=seat_words(cmd.seat)))
        out.append(f'<title>{escape(say(who))}</title></g>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _terrain_name(kind: Any, say: Callable[["str | Message"], str]) -> str:
    """A terrain element's label: its kind's word (SMOKE-TERR, as the rulings write it) in the reader's language,
    capitalised as the content prints it (``Ploughed field``); a kind without a word: its content name."""
    word = TERRAIN_WORDS.get(kind.id)
    if word is None:
        return kind.name
    said = say(word)
    return said[:1].upper() + said[1:]


def base_corners(bx, base) -> list[tuple[float, float]]:
    """A base's corners on the table: ``x`` across the front from the front-left corner, ``y`` back."""
    f, l = bx.f, bx.l
    fl = bx.FL

    def at(x: float, y: float) -> tuple[float, float]:
        return (fl[0] - l[0] * x - f[0] * y, fl[1] - l[1] * x - f[1] * y)

    return [at(base.x, base.y), at(base.x + base.w, base.y), at(base.x + base.w, base.y + base.d),
            at(base.x, base.y + base.d)]


def _line(fr: _Frame, a, b, colour: str, width: float = 1.2, dash: str | None = None) -> str:
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{fr.x(a[0])}" y1="{fr.y(a[1])}" x2="{fr.x(b[0])}" y2="{fr.y(b[1])}" stroke="{colour}" '
            f'stroke-width="{width}"{d}/>')


def _lof(fr: _Frame, m: dict[str, Any], colour: str) -> list[str]:
    out = []
    for name, ln in sorted((m.get("lines") or {}).items()):
        if "to" in ln:
            out.append(_line(fr, ln["from"], ln["to"], colour, 1.0, "3 2"))
    return out


def _measurements(state: SmokeState, recent: list[Any], fr: _Frame) -> list[str]:
    out: list[str] = []
    for ev in recent:
        if isinstance(ev, E.UnitMoved):
            s, e = ev.start, ev.end
            out.append(_line(fr, s, e, "#222", 1.5, "4 3"))
            out.append(f'<circle cx="{fr.x(s[0])}" cy="{fr.y(s[1])}" r="3" fill="#222"/>')
        elif isinstance(ev, E.UnitRetreated):
            s, e = ev.start, ev.end
            col = "#a00" if ev.outcome == "destroyed" else "#7a3e00"
            out.append(_line(fr, s, e, col, 2.0, "6 3"))
            out.append(f'<circle cx="{fr.x(e[0])}" cy="{fr.y(e[1])}" r="3" fill="{col}"/>')
        elif isinstance(ev, E.BattleRolled):
            for side in ev.sides.values():
                for r in side.get("rolling", []):
                    if "line" in r:
                        out += _lof(fr, r["line"], "#d0342c")
        elif isinstance(ev, E.BombardmentAimed):
            out += _lof(fr, ev.measure, "#6a1b9a")
        elif isinstance(ev, E.FireContactMeasured):
            for c in ev.contacts:
                out += _lof(fr, c, "#d0342c")
        elif isinstance(ev, E.CommanderRode) or isinstance(ev, E.CommanderDisplaced):
            out.append(_line(fr, ev.start, ev.end, "#555", 1.0, "2 2"))
    return out
