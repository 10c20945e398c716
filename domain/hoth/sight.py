"""Line of sight for Battle of Hoth, exact (HOTH-LOS-*, HOTH-COORD-7, Appendix A).

Geometry: every hex is a hexagon in the skewed integer frame of HOTH-COORD-7 (centre
``(x, 3r)``, vertices ``(x, 3r±2)``, ``(x±1, 3r±1)``). The line runs from the centre of the
attacker's hex to the centre of the target's hex (HOTH-LOS-2).

Each hex near the line is classified with integer side tests ("tangent classification"): the
sign of ``cross(D, V − A)`` for its six vertices V, D being the line's direction.

* vertices strictly on both sides -> the line passes through the interior; the part of the
  line inside the hexagon (entry/exit parameters, exact ``Fraction``) is intersected with the
  segment, and a positive overlap means the hex is **crossed** (HOTH-LOS-3, HOTH-GAP-44);
* two adjacent vertices on the line, the rest on one side -> the line runs **along** that edge;
  a positive overlap with the segment makes the hex *grazed*, on the side of its other
  vertices (HOTH-LOS-ALONG-1). Grazed hexes come in left/right pairs, one per edge segment;
* exactly one vertex on the line -> a **vertex-only** touch, which has no effect (HOTH-GAP-18).

No floats, no epsilon. The geometry of a pair depends only on the two hexes, so it is
computed once per ordered pair and cached; obstacles are applied per call.

Deciding (HOTH-LOS-3, HOTH-LOS-ALONG-2, HOTH-GAP-17): blocked iff a crossed hex holds an
obstruction, or grazed obstructions stand on both the left and the right of the line (anywhere
along it). The attacker's and target's hexes never block (HOTH-LOS-6). Half-hexes always
obstruct in the standard case (HOTH-LOS-4d, HOTH-LOS-EDGE-1). When both ends are units on ridges
the obstruction set is reduced to units on ridges and seracs (HOTH-LOS-RIDGE-1, -3, HOTH-GAP-16);
a structure target is never a unit (HOTH-STRUCT-1), so the standard rules apply to it.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import msgspec

from .board import HALF_HEXES, PLAYABLE, Hex, label

#: Terrain that obstructs (HOTH-LOS-4b, HOTH-TERRAIN-3, Appendix B ``blocks_los``).
LOS_BLOCKING_TERRAIN: frozenset[str] = frozenset({"ridge", "rocks", "serac", "buildings"})
#: Terrain that does not (HOTH-LOS-5).
LOS_OPEN_TERRAIN: frozenset[str] = frozenset({"trench", "crevasse"})
RIDGE, SERAC = "ridge", "serac"

_OFFSETS: tuple[tuple[int, int], ...] = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))
_ALL_HEXES: tuple[Hex, ...] = tuple(sorted(PLAYABLE | HALF_HEXES, key=lambda h: (h[1], h[0])))


class Sight(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of one line-of-sight check, with everything a ruling needs."""

    attacker: Hex
    target: Hex
    clear: bool
    #: Every hex the line crosses or runs along, in order from attacker to target (ends excluded).
    examined: tuple[Hex, ...]
    #: Hexes whose interior the line passes through (HOTH-LOS-3), in order.
    crossed: tuple[Hex, ...]
    #: (left, right) hexes of each edge segment the line runs along (HOTH-LOS-ALONG-1), in order.
    edge_pairs: tuple[tuple[Hex, Hex], ...]
    #: Hexes the line touches at a single vertex only; they never matter (HOTH-GAP-18).
    vertex_only: tuple[Hex, ...]
    #: The obstructions that blocked (crossed ones, or the grazed ones on both sides). Empty if clear.
    blocked_by: tuple[Hex, ...]
    #: True when attacker and target are both units on ridges (HOTH-LOS-RIDGE-1; never for a structure).
    ridge_mode: bool
    #: Rule ids that decided the outcome, in the order they were applied.
    rules: tuple[str, ...]


class _Geometry(msgspec.Struct, frozen=True):
    examined: tuple[Hex, ...]
    crossed: tuple[Hex, ...]
    edge_pairs: tuple[tuple[Hex, Hex], ...]
    vertex_only: tuple[Hex, ...]


def _check_end(h: Any, what: str) -> None:
    if isinstance(h, tuple) and h in PLAYABLE:
        return
    if isinstance(h, tuple) and h in HALF_HEXES:
        raise ValueError(f"HOTH-COORD-4: the {what} hex {h} is a half-hex, which is not playable")
    raise ValueError(f"HOTH-COORD-3: the {what} hex {h!r} is not a playable board hex")


@lru_cache(maxsize=None)
def line_geometry(a: Hex, b: Hex) -> _Geometry:
    """Exact classification of every hex the centre-to-centre segment a->b touches (Appendix A)."""
    _check_end(a, "attacker")
    _check_end(b, "target")
    if a == b:
        raise ValueError(f"HOTH-LOS-2: attacker and target are the same hex {a}")
    ax, ay = a[0], 3 * a[1]
    dx, dy = b[0] - a[0], 3 * (b[1] - a[1])
    # Parameter of a point along the line: an affine functional that is 0 at A and 1 at B.
    if dx != 0:
        def t_of(px: int, py: int) -> Fraction:
            return Fraction(px - ax, dx)
    else:
        def t_of(px: int, py: int) -> Fraction:
            return Fraction(py - ay, dy)

    lo_x, hi_x = min(a[0], b[0]) - 1, max(a[0], b[0]) + 1
    lo_r, hi_r = min(a[1], b[1]), max(a[1], b[1])
    crossed: list[tuple[Fraction, Hex]] = []
    grazed: dict[tuple[Fraction, Fraction], list[tuple[int, Hex]]] = {}
    vertex_only: list[tuple[Fraction, Hex]] = []
    for h in _ALL_HEXES:
        hx, hr = h
        if h == a or h == b or not (lo_r <= hr <= hi_r and lo_x <= hx <= hi_x):
            continue
        cy = 3 * hr
        verts = [(hx + ox, cy + oy) for ox, oy in _OFFSETS]
        sides = [dx * (vy - ay) - dy * (vx - ax) for vx, vy in verts]
        pos = any(s > 0 for s in sides)
        neg = any(s < 0 for s in sides)
        zeros = [i for i, s in enumerate(sides) if s == 0]
        if pos and neg:
            ts: list[Fraction] = []
            for i in range(6):
                j = (i + 1) % 6
                si, sj = sides[i], sides[j]
                ti = t_of(*verts[i])
                if si == 0:
                    ts.append(ti)
                elif si * sj < 0:
                    tj = t_of(*verts[j])
                    ts.append(ti + Fraction(si, si - sj) * (tj - ti))
            lo, hi = max(min(ts), Fraction(0)), min(max(ts), Fraction(1))
            if lo < hi:
                crossed.append(((lo + hi) / 2, h))
        elif len(zeros) == 2:
            t1, t2 = sorted(t_of(*verts[i]) for i in zeros)
            lo, hi = max(t1, Fraction(0)), min(t2, Fraction(1))
            if lo < hi:
                grazed.setdefault((lo, hi), []).append((1 if pos else -1, h))
            elif lo == hi:
                vertex_only.append((lo, h))
        elif len(zeros) == 1:
            t = t_of(*verts[zeros[0]])
            if 0 <= t <= 1:
                vertex_only.append((t, h))
    pairs: list[tuple[Fraction, tuple[Hex, Hex]]] = []
    for (lo, hi), members in grazed.items():
        lefts = [h for s, h in members if s > 0]
        rights = [h for s, h in members if s < 0]
        if len(lefts) != 1 or len(rights) != 1:  # impossible on a hex tiling; guard the invariant
            raise AssertionError(f"HOTH-LOS-ALONG-1: edge run {a}->{b} at {lo}..{hi} has {members}")
        pairs.append(((lo + hi) / 2, (lefts[0], rights[0])))
    crossed.sort()
    pairs.sort()
    vertex_only.sort()
    order = sorted([(k, 0, (h,)) for k, h in crossed] + [(k, 1, p) for k, p in pairs])
    examined = tuple(h for _, _, hs in order for h in hs)
    return _Geometry(
        examined=examined,
        crossed=tuple(h for _, h in crossed),
        edge_pairs=tuple(p for _, p in pairs),
        vertex_only=tuple(h for _, h in vertex_only),
    )


def line_of_sight(
    a: Hex,
    b: Hex,
    obstacles: Collection[Hex],
    *,
    ridges: Collection[Hex] = frozenset(),
    units: Collection[Hex] | None = None,
    seracs: Collection[Hex] | None = None,
) -> Sight:
    """Decide whether the unit on ``a`` can see ``b`` (HOTH-LOS-1..8, HOTH-LOS-EDGE/ALONG/RIDGE-*).

    ``obstacles``: the hexes that obstruct in the standard case, chosen by the caller: units,
    ridges/rocks/seracs/buildings, structures (HOTH-LOS-4 a-c). Half-hexes are always added
    (HOTH-LOS-4d). Entries on ``a`` or ``b`` are ignored (HOTH-LOS-6).

    ``ridges``: the ridge hexes. When ``a`` and ``b`` are both ridges and ``b`` holds a unit
    (HOTH-LOS-RIDGE-1: between two units; a structure is never a unit, HOTH-STRUCT-1) the
    obstructions become ``(units ∩ ridges) ∪ seracs`` instead; ``units`` (every hex holding a
    unit, either faction) and ``seracs`` (serac hexes) are required whenever both ends are ridges.
    """
    geo = line_geometry(a, b)
    both_ridges = a in ridges and b in ridges
    if both_ridges and (units is None or seracs is None):
        raise ValueError("HOTH-LOS-RIDGE-1: attacker and target are both on ridges; "
                         "line_of_sight needs units= and seracs= to decide")
    # HOTH-LOS-RIDGE-1 holds between two *units*; a structure is never a unit (HOTH-STRUCT-1), so a
    # structure on a ridge is targeted under the standard rules (Appendix A: ``is_unit(t)``).
    ridge_mode = both_ridges and b in units  # type: ignore[operator]
    rules: list[str] = []
    if both_ridges and not ridge_mode:
        rules.append("HOTH-STRUCT-1")
    if ridge_mode:
        rules.append("HOTH-LOS-RIDGE-1")

        def blocks(h: Hex) -> bool:
            return (h in units and h in ridges) or h in seracs
    else:
        if a in ridges or b in ridges:
            rules.append("HOTH-LOS-RIDGE-2")

        def blocks(h: Hex) -> bool:
            return h in obstacles or h in HALF_HEXES

    crossed_blockers = tuple(h for h in geo.crossed if blocks(h))
    left = tuple(l for l, _ in geo.edge_pairs if blocks(l))
    right = tuple(r for _, r in geo.edge_pairs if blocks(r))
    both_sides = bool(left) and bool(right)

    if crossed_blockers:
        rules.append("HOTH-LOS-3")
    if both_sides:
        rules.append("HOTH-LOS-ALONG-2")
        if ridge_mode:
            rules.append("HOTH-LOS-RIDGE-3")
        if any(h in HALF_HEXES for h in left + right):
            rules.append("HOTH-LOS-EDGE-1")
        if not any(blocks(l) and blocks(r) for l, r in geo.edge_pairs):
            rules.append("HOTH-GAP-17")  # the two sides' obstructions are on different edges
    clear = not crossed_blockers and not both_sides
    if clear:
        rules.append("HOTH-LOS-3")  # no crossed hex holds an obstruction
        if left or right:
            rules.append("HOTH-LOS-ALONG-2")  # obstructions along the line on one side only
            if ridge_mode:
                rules.append("HOTH-LOS-RIDGE-3")
        if ridge_mode and any(l in HALF_HEXES or r in HALF_HEXES for l, r in geo.edge_pairs):
            rules.append("HOTH-LOS-EDGE-3")
        if any(blocks(h) for h in geo.vertex_only):
            rules.append("HOTH-GAP-18")
    if (a in obstacles or b in obstacles) or (ridge_mode and (a in seracs or b in seracs)):  # type: ignore[operator]
        rules.append("HOTH-LOS-6")

    blocked_by: tuple[Hex, ...] = ()
    if not clear:
        chosen = set(crossed_blockers)
        if both_sides:
            chosen.update(left)
            chosen.update(right)
        blocked_by = tuple(h for h in geo.examined if h in chosen)
    return Sight(
        attacker=a,
        target=b,
        clear=clear,
        examined=geo.examined,
        crossed=geo.crossed,
        edge_pairs=geo.edge_pairs,
        vertex_only=geo.vertex_only,
        blocked_by=blocked_by,
        ridge_mode=ridge_mode,
        rules=tuple(dict.fromkeys(rules)),
    )


_CLEAR_GEOMETRY: dict[tuple[Hex, Hex], tuple[tuple[Hex, ...], tuple[Hex, ...], tuple[Hex, ...]]] = {}


def is_clear(
    a: Hex,
    b: Hex,
    obstacles: Collection[Hex],
    ridges: Collection[Hex],
    units: Collection[Hex],
    seracs: Collection[Hex],
) -> bool:
    """``line_of_sight(a, b, ...).clear`` without building the ruling's details (legal_commands, bots).

    The same decision as :func:`line_of_sight` (HOTH-LOS-3, HOTH-LOS-ALONG-2, HOTH-LOS-RIDGE-1,
    HOTH-LOS-4d, HOTH-LOS-6) on the same cached geometry; tests/hoth/test_sight_fast.py checks that
    both agree on every pair of hexes.
    """
    geo = _CLEAR_GEOMETRY.get((a, b))
    if geo is None:
        g = line_geometry(a, b)
        geo = (g.crossed, tuple(l for l, _ in g.edge_pairs), tuple(r for _, r in g.edge_pairs))
        _CLEAR_GEOMETRY[(a, b)] = geo
    crossed, lefts, rights = geo
    if a in ridges and b in ridges and b in units:  # HOTH-LOS-RIDGE-1 between two units (HOTH-STRUCT-1)
        for h in crossed:
            if (h in units and h in ridges) or h in seracs:
                return False
        if not lefts:
            return True
        return not (any((h in units and h in ridges) or h in seracs for h in lefts)
                    and any((h in units and h in ridges) or h in seracs for h in rights))
    for h in crossed:
        if h in obstacles or h in HALF_HEXES:
            return False
    if not lefts:
        return True
    return not (any(h in obstacles or h in HALF_HEXES for h in lefts)
                and any(h in obstacles or h in HALF_HEXES for h in rights))


def board_line_of_sight(
    a: Hex,
    b: Hex,
    *,
    units: Collection[Hex],
    terrain: Mapping[Hex, str],
    structures: Collection[Hex] = frozenset(),
) -> Sight:
    """``line_of_sight`` with the obstruction sets built from the board as it stands (HOTH-LOS-8).

    ``units``: hexes holding a unit of either faction (HOTH-LOS-4a); ``terrain``: terrain type
    per hex, open ground omitted (HOTH-LOS-4b/5); ``structures``: hexes with a standing
    structure (HOTH-LOS-4c, HOTH-STRUCT-3). Unknown terrain types are refused.
    """
    unknown = {t for t in terrain.values() if t not in LOS_BLOCKING_TERRAIN | LOS_OPEN_TERRAIN}
    if unknown:
        raise ValueError(f"HOTH-TERRAIN-3: unknown terrain type(s) {sorted(unknown)}")
    units = frozenset(units)
    blocking = frozenset(h for h, t in terrain.items() if t in LOS_BLOCKING_TERRAIN)
    return line_of_sight(
        a, b, units | blocking | frozenset(structures),
        ridges=frozenset(h for h, t in terrain.items() if t == RIDGE),
        units=units,
        seracs=frozenset(h for h, t in terrain.items() if t == SERAC),
    )


def sight_ruling_values(sight: Sight) -> dict[str, Any]:
    """The numbers of a line-of-sight check for a ruling step, hexes as labels (DESIGN 6)."""
    return {
        "attacker": label(sight.attacker),
        "target": label(sight.target),
        "clear": sight.clear,
        "ridge_to_ridge": sight.ridge_mode,
        "examined": [label(h) for h in sight.examined],
        "crossed": [label(h) for h in sight.crossed],
        "along_edges": [{"left": label(l), "right": label(r)} for l, r in sight.edge_pairs],
        "vertex_only": [label(h) for h in sight.vertex_only],
        "blocked_by": [label(h) for h in sight.blocked_by],
        "rules": list(sight.rules),
    }


def sight_sentence(sight: Sight) -> str:
    """One sentence a player understands, e.g. for a ruling step's text."""
    a, b = label(sight.attacker), label(sight.target)
    if sight.clear:
        return f"Line of sight from {a} to {b} is clear."
    return f"Line of sight from {a} to {b} is blocked by {', '.join(label(h) for h in sight.blocked_by)}."
