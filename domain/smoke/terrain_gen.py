"""Default terrain generation (SMOKE-TGEN-1..4, GAP-B-20).

The table is cut into four quarters. The first player picks a diagonal pair of them (INFERRED,
GAP-B-20) and the other side takes the other pair (with several players on a side, the side's first
player does it, GAP-B-16). For each of its quarters a player rolls D3 for the number of elements,
and for each element 2d6 on the terrain table (data, SMOKE-TGEN-3); it places the element anywhere in
that quarter (its centre in it, INFERRED) and picks among the kinds a row lists. Then every element
moves D3 UW in a uniformly random direction (a 360-sided draw, GAP-B-20), or is removed when the
d6 of that D3 shows 6; an element pushed off the table is removed too (INFERRED).
"""
from __future__ import annotations

import math
from typing import Any

from shapely.geometry import Polygon

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n

from .content import TerrainElement
from .events import (
    QuartersChosen, TerrainCountRolled, TerrainGenerationEnded, TerrainGenerationStarted, TerrainPlaced, TerrainRolled,
    TerrainScattered,
)
from .geometry import Box
from .seat_words import seat_words
from .state import SmokeState

QUARTERS = {"sw_ne": ("sw", "ne"), "nw_se": ("nw", "se")}
#: SMOKE-TGEN-4 (GAP-B-20): the direction of a scatter is a draw of this many sides (whole degrees).
DIRECTIONS = 360


def quarter_box(st: SmokeState, q: str) -> tuple[float, float, float, float]:
    assert st.battle is not None
    W, H = st.battle.width, st.battle.height
    x0, x1 = (0.0, W / 2) if q[1] == "w" else (W / 2, W)
    y0, y1 = (0.0, H / 2) if q[0] == "s" else (H / 2, H)
    return x0, y0, x1, y1


def start(out: Any) -> None:
    st: SmokeState = out.state
    chooser = st.seats_of_side(st.side_order[0])[0]
    out.emit(TerrainGenerationStarted(chooser=chooser),
             RulingBuilder().add("SMOKE-TGEN-2", msg("Terrain generation: {chooser} (first player) picks a "
                                                     "diagonal pair of quarters (GAP-B-20).", chooser=seat_words(chooser))), summary=msg("terrain generation"))


def choose(out: Any, seat: str, diagonal: str) -> None:
    st: SmokeState = out.state
    g = st.generation
    if g is None or g.chooser != seat or g.queue:
        raise RuleViolation("SMOKE-TGEN-2", msg("The quarters are not yours to choose now."))
    mine = QUARTERS[diagonal]
    other = QUARTERS["nw_se" if diagonal == "sw_ne" else "sw_ne"]
    first, second = st.side_order[0], st.side_order[1]
    s1, s2 = st.seats_of_side(first)[0], st.seats_of_side(second)[0]
    queue = tuple((s1, q) for q in mine) + tuple((s2, q) for q in other)
    out.emit(QuartersChosen(quarters={s1: mine, s2: other}, queue=queue),
             RulingBuilder().add("SMOKE-TGEN-2", msg("{s1} takes quarters {mine}, {s2} {other}.",
                                                     s1=seat_words(s1), mine=' and '.join(mine), s2=seat_words(s2), other=' and '.join(other))), summary=msg("quarters chosen"))


def advance(out: Any) -> bool:
    """Roll what is rolled by itself; True once generation is over (or there is none)."""
    for _ in range(1000):
        st: SmokeState = out.state
        g = st.generation
        if g is None:
            return True
        if not g.chosen or g.options:
            return False  # the quarters are chosen / the rolled element is placed by a player
        if not g.queue:
            return _finish(out)
        seat, q = g.queue[0]
        if g.left < 0:
            face = out.dice.value(6) + 1
            n = math.ceil(face / 2)
            out.emit(TerrainCountRolled(seat=seat, quarter=q, face=face, count=n),
                     RulingBuilder().add("SMOKE-TGEN-2", msg_n("{seat} rolls D3 for quarter {q}: d6 {face} -> {n} "
                                                               "element(s).",
                                                               "{seat} rolls D3 for quarter {q}: d6 {face} -> {n} "
                                                               "element(s).", "n", seat=seat_words(seat), q=q, face=face, n=n))
                     .add("SMOKE-DICE-2", msg("D3 is a d6 halved, rounded up.")), summary=msg_n("{q} quarter: {n} element(s)",
                                                                                                "{q} quarter: {n} element(s)", "n", q=q, n=n))
            continue
        faces = (out.dice.value(6) + 1, out.dice.value(6) + 1)
        total = sum(faces)
        kinds = _row(st, total)
        rb = RulingBuilder().add("SMOKE-TGEN-3", msg("2d6 = {a} + {b} = {total}: {kinds}.", a=faces[0], b=faces[1],
                                                     total=total, kinds=joined(list(kinds), msg(" or ")) if kinds
                                                     else msg("nothing")), faces=list(faces), total=total)
        if len(kinds) > 1:
            rb.add("SMOKE-TGEN-3", msg("{seat} chooses which (GAP-B-20).", seat=seat_words(seat)))
        out.emit(TerrainRolled(seat=seat, quarter=q, faces=faces, total=total, kinds=kinds), rb,
                 summary=msg("{quarter} quarter: {total}, {kinds}", quarter=q, total=total,
                             kinds=joined([k.replace("_", " ") for k in kinds], msg(" or ")) if kinds
                             else msg("nothing")))
    return False


def _row(st: SmokeState, total: int) -> tuple[str, ...]:
    assert st.battle is not None
    for r in st.battle.terrain_table:
        if r.low <= total <= r.high:
            return r.kinds
    return ()


def element_polygon(st: SmokeState, kind: str, x: float, y: float, rotation: float) -> tuple[tuple[float, float], ...]:
    k = next(k for k in st.kinds if k.id == kind)
    b = Box(x, y, rotation, k.size[1], k.size[0])
    return tuple((round(px, 4), round(py, 4)) for px, py in b.corners())


def place_check(st: SmokeState, seat: str, kind: str, at, rotation: float) -> tuple[str, tuple]:
    g = st.generation
    if g is None or not g.options or not g.queue or g.queue[0][0] != seat:
        raise RuleViolation("SMOKE-TGEN-2", msg("No terrain element is yours to place now."))
    if kind not in g.options:
        raise RuleViolation("SMOKE-TGEN-3", msg("The roll allows {options}, not {kind}.",
                                                options=' or '.join(g.options), kind=repr(kind)), kind=kind)
    x, y, r = float(at[0]), float(at[1]), float(rotation)
    if not all(math.isfinite(v) for v in (x, y, r)):
        raise RuleViolation("SMOKE-TGEN-2", msg("The place must be finite numbers."), field="at")
    q = g.queue[0][1]
    x0, y0, x1, y1 = quarter_box(st, q)
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        raise RuleViolation("SMOKE-TGEN-2", msg("The element goes in quarter {q} (its centre in [{x0:g}, {x1:g}] x "
                                                "[{y0:g}, {y1:g}], INFERRED).", q=q, x0=x0, x1=x1, y0=y0, y1=y1), at=[x, y])
    poly = element_polygon(st, kind, x, y, r)
    assert st.battle is not None
    if not all(0 <= px <= st.battle.width and 0 <= py <= st.battle.height for px, py in poly):
        raise RuleViolation("SMOKE-TGEN-2", msg("The element lies on the table."), at=[x, y])
    return q, poly


def place(out: Any, seat: str, kind: str, at, rotation: float) -> None:
    st: SmokeState = out.state
    q, poly = place_check(st, seat, kind, at, rotation)
    n = len(st.generation.placed) + 1  # type: ignore[union-attr]
    el = TerrainElement(id=f"G{n}-{kind}", kind=kind, polygon=poly)
    out.emit(TerrainPlaced(seat=seat, quarter=q, element=el),
             RulingBuilder().add("SMOKE-TGEN-2", msg("{seat} places a {kind} in quarter {q}.",
                                                     seat=seat_words(seat), kind=kind, q=q)), summary=msg("{kind} placed",
                                                                                                         kind=kind.replace('_', ' ')))


def _finish(out: Any) -> bool:
    st: SmokeState = out.state
    g = st.generation
    assert g is not None and st.battle is not None
    W, H = st.battle.width, st.battle.height
    for eid in g.placed:
        el = next(e for e in out.state.battle.terrain if e.id == eid)
        face = out.dice.value(6) + 1
        angle = out.dice.value(DIRECTIONS)
        d = float(math.ceil(face / 2))
        removed = face == 6
        poly = el.polygon
        why: "str | Message" = msg("the d6 of its D3 shows 6") if removed else ""
        if not removed:
            dx, dy = d * math.cos(math.radians(angle)), d * math.sin(math.radians(angle))
            poly = tuple((round(x + dx, 4), round(y + dy, 4)) for x, y in el.polygon)
            if not Polygon([(0, 0), (W, 0), (W, H), (0, H)]).buffer(1e-9).contains(Polygon(poly)):
                removed, why = True, msg("it is pushed off the table (INFERRED)")
        said: "str | Message" = msg("{element} scatters: d6 {face} -> D3 = {distance:g} UW at {angle} degrees",
                                    element=eid, face=face, distance=d, angle=angle)
        if face != 6:
            x0, y0 = el.polygon[0]
            said = msg("{scatter}; every corner moves by ({dx:.3f}, {dy:.3f}), e.g. ({x:.3f}, {y:.3f}) to ({x2:.3f}, "
                       "{y2:.3f})", scatter=said, dx=dx, dy=dy, x=x0, y=y0, x2=x0 + dx, y2=y0 + dy)
        rb = RulingBuilder().add("SMOKE-TGEN-4", msg("{scatter}; removed: {why}.", scatter=said, why=why) if removed
                                 else msg("{scatter}.", scatter=said), face=face, angle=angle)
        out.emit(TerrainScattered(element=eid, face=face, distance=d, angle=angle, removed=removed,
                                  polygon=() if removed else poly), rb, summary=msg("the {kind} {element} scatters",
                                                                                    kind=eid.partition('-')[2].replace('_', ' '), element=eid.partition('-')[0]))
    out.emit(TerrainGenerationEnded(), RulingBuilder().add("SMOKE-TGEN-4", msg("Terrain generation is over.")),
             summary=msg("terrain ready"))
    return True
