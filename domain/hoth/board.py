"""The Battle of Hoth board: hex ids, neighbours, distance, sections, baselines.

Coordinates follow HOTH-COORD-3: a hex is ``(x, r)`` in doubled-width form, ``r = 0..6``
(row 0 is the South edge), long rows ``x = 0, 2, .., 18`` and short rows ``x = 1, 3, .., 17``
with non-playable half-hexes at ``x = -1`` and ``x = 19``.

The whole row layout (HOTH-COORD-2, HOTH-GAP-5) and the section membership (HOTH-COORD-8,
HOTH-GAP-6) are INFERRED: they live in the named constants below, never scattered in code,
so that they can be corrected once a printed board has been checked.
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

Hex = tuple[int, int]

# ---------------------------------------------------------------------------------------------
# Board data (INFERRED as a whole: HOTH-COORD-2, HOTH-GAP-5). Change these, not the code.
# ---------------------------------------------------------------------------------------------

#: Number of rows (HOTH-BOARD-1: "7 high"). Row 0 is South, row 6 North (HOTH-COORD-1).
ROWS = 7
#: Rows of 10 full hexes, x = 0, 2, .., 18 (HOTH-COORD-2, INFERRED).
LONG_ROWS: tuple[int, ...] = (0, 2, 4, 6)
#: Rows of 9 full hexes, x = 1, 3, .., 17, with a half-hex at each end (HOTH-COORD-2, INFERRED).
SHORT_ROWS: tuple[int, ...] = (1, 3, 5)
#: Doubled-width x of the first and last full hex of each kind of row (HOTH-COORD-3).
LONG_ROW_X = range(0, 19, 2)
SHORT_ROW_X = range(1, 18, 2)
#: x of the two half-hexes that end every short row (HOTH-COORD-3, HOTH-BOARD-6).
HALF_HEX_X: tuple[int, int] = (-1, 19)
#: The board edges in the skewed LOS frame, X = -1 and X = 19 (HOTH-COORD-7).
WEST_EDGE_X = -1
EAST_EDGE_X = 19

#: Section membership seen from the player sitting South (HOTH-COORD-8, HOTH-GAP-6: INFERRED,
#: dashed lines assumed straight at X = 5 and X = 13). Per kind of row, the x values of each
#: section. A hex listed under two sections is a split hex (HOTH-BOARD-4).
SECTIONS_SOUTH_INFERRED: Mapping[str, Mapping[str, tuple[int, ...]]] = MappingProxyType({
    "long": MappingProxyType({
        "left": (0, 2, 4),
        "centre": (6, 8, 10, 12),
        "right": (14, 16, 18),
    }),
    "short": MappingProxyType({
        "left": (1, 3, 5),
        "centre": (5, 7, 9, 11, 13),
        "right": (13, 15, 17),
    }),
})
#: The dashed section lines in the skewed frame (HOTH-COORD-8, INFERRED); used by the picture.
SECTION_LINES_X: tuple[int, int] = (5, 13)

#: Section names. "left"/"right" are as seen from the seat concerned (HOTH-BOARD-3).
LEFT, CENTRE, RIGHT = "left", "centre", "right"
SECTION_NAMES: tuple[str, str, str] = (LEFT, CENTRE, RIGHT)

# ---------------------------------------------------------------------------------------------
# Derived sets
# ---------------------------------------------------------------------------------------------


def _row_xs(r: int) -> range:
    return LONG_ROW_X if r in LONG_ROWS else SHORT_ROW_X


PLAYABLE: frozenset[Hex] = frozenset((x, r) for r in range(ROWS) for x in _row_xs(r))
HALF_HEXES: frozenset[Hex] = frozenset((x, r) for r in SHORT_ROWS for x in HALF_HEX_X)
#: Every hex in board order: South to North, West to East.
ALL_PLAYABLE: tuple[Hex, ...] = tuple(sorted(PLAYABLE, key=lambda h: (h[1], h[0])))


def _build_sections() -> Mapping[Hex, frozenset[str]]:
    table: dict[Hex, set[str]] = {h: set() for h in PLAYABLE}
    for kind, rows in (("long", LONG_ROWS), ("short", SHORT_ROWS)):
        for name, xs in SECTIONS_SOUTH_INFERRED[kind].items():
            for r in rows:
                for x in xs:
                    if (x, r) not in table:
                        raise ValueError(f"HOTH-COORD-8: section table names ({x}, {r}), not a board hex")
                    table[(x, r)].add(name)
    missing = [h for h, names in table.items() if not names]
    if missing:
        raise ValueError(f"HOTH-COORD-8: section table leaves hexes without a section: {sorted(missing)}")
    return MappingProxyType({h: frozenset(v) for h, v in table.items()})


#: Per-hex sections as seen from South (derived from SECTIONS_SOUTH_INFERRED).
SECTIONS_SOUTH: Mapping[Hex, frozenset[str]] = _build_sections()
_MIRROR = {LEFT: RIGHT, RIGHT: LEFT, CENTRE: CENTRE}
SECTIONS_NORTH: Mapping[Hex, frozenset[str]] = MappingProxyType(
    {h: frozenset(_MIRROR[s] for s in names) for h, names in SECTIONS_SOUTH.items()})

_STEPS: tuple[Hex, ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))

# ---------------------------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------------------------


def is_playable(h: Any) -> bool:
    """True for the 67 playable hexes (HOTH-COORD-2/3); False for half-hexes and anything else."""
    return isinstance(h, tuple) and h in PLAYABLE


def is_half_hex(h: Any) -> bool:
    """True for the six half-hexes along the side edges (HOTH-BOARD-6, HOTH-COORD-4)."""
    return isinstance(h, tuple) and h in HALF_HEXES


def _require(h: Hex, what: str = "hex") -> None:
    if not is_playable(h):
        if is_half_hex(h):
            raise ValueError(f"HOTH-COORD-4: {what} {h} is a half-hex, which is not playable")
        raise ValueError(f"HOTH-COORD-3: {what} {h!r} is not a playable board hex")


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """Playable neighbours of ``h``: (x±2, r) and (x±1, r±1) (HOTH-COORD-5), East first, anticlockwise."""
    _require(h)
    x, r = h
    return tuple(n for n in ((x + dx, r + dr) for dx, dr in _STEPS) if n in PLAYABLE)


def distance(a: Hex, b: Hex) -> int:
    """Hex steps between ``a`` and ``b``: |Δr| + max(0, (|Δx| − |Δr|) / 2) (HOTH-COORD-6)."""
    dx = abs(a[0] - b[0])
    dr = abs(a[1] - b[1])
    return dr + max(0, (dx - dr) // 2)


#: distance(a, b) for every pair of playable hexes, looked up as ``DISTANCES[a][b]`` (hot loops, bots).
DISTANCES: Mapping[Hex, Mapping[Hex, int]] = MappingProxyType(
    {a: {b: distance(a, b) for b in PLAYABLE} for a in PLAYABLE})


def sections(h: Hex, south: bool) -> frozenset[str]:
    """Sections of ``h`` ("left", "centre", "right") as seen by the South or North player.

    HOTH-BOARD-3/4, HOTH-COORD-8 (INFERRED membership), HOTH-GAP-33 (North mirrors South).
    A split hex returns two names.
    """
    _require(h)
    return (SECTIONS_SOUTH if south else SECTIONS_NORTH)[h]


def hexes_in_section(name: str, south: bool) -> frozenset[Hex]:
    """All playable hexes of one section for one seat (split hexes included, HOTH-BOARD-4)."""
    if name not in SECTION_NAMES:
        raise ValueError(f"HOTH-BOARD-3: unknown section {name!r}; expected one of {SECTION_NAMES}")
    table = SECTIONS_SOUTH if south else SECTIONS_NORTH
    return frozenset(h for h, names in table.items() if name in names)


def baseline_row(south: bool) -> int:
    """The baseline row of the player sitting South (row 0) or North (row 6) (HOTH-BOARD-5, HOTH-COORD-1)."""
    return 0 if south else ROWS - 1


def towards_baseline(h: Hex, south: bool) -> tuple[Hex, ...]:
    """Playable hexes one step towards the baseline of a South (row 0) or North (row 6) faction.

    HOTH-COORD-9 (INFERRED, HOTH-GAP-8): (x−1, r∓1) and (x+1, r∓1), West first. Empty on the
    baseline itself or when both are off the board (the caller applies HOTH-RETREAT-6).
    """
    _require(h)
    x, r = h
    nr = r - 1 if south else r + 1
    return tuple(n for n in ((x - 1, nr), (x + 1, nr)) if n in PLAYABLE)


def from_col_row(col: int, row: int) -> Hex:
    """Convert the content documents' ``col,row`` (odd rows shifted East) to ``(x, r)``.

    battle-of-hoth-content.md 1.1: x = 2*col + (row % 2). Raises ValueError off the board.
    """
    if not (isinstance(col, int) and isinstance(row, int)) or isinstance(col, bool) or isinstance(row, bool):
        raise ValueError(f"HOTH-COORD-3: col,row must be integers, got {col!r},{row!r}")
    h = (2 * col + (row % 2), row)
    if h not in PLAYABLE:
        raise ValueError(f"HOTH-COORD-3: col {col}, row {row} is not a playable hex "
                         f"(cols 0-9 on rows 0,2,4,6; cols 0-8 on rows 1,3,5)")
    return h


def to_col_row(h: Hex) -> tuple[int, int]:
    """Human-readable column and row: c = floor(x/2), r (HOTH-COORD-3)."""
    return (h[0] // 2, h[1])


def label(h: Hex) -> str:
    """How sentences name a hex: the human column and row, then the id the API uses, e.g.
    ``"c4 r2 [8,2]"``; half-hexes read ``"half-hex c-1 r1 [-1,1]"`` (HOTH-COORD-3)."""
    text = coords(h)
    return f"half-hex {text}" if h in HALF_HEXES else text


def coords(h: Hex, with_id: bool = True) -> str:
    """``c4 r2 [8,2]`` (``with_id``) or ``c4 r2``, without saying whether it is a half-hex (HOTH-COORD-3)."""
    c, r = to_col_row(h)
    return f"c{c} r{r} [{h[0]},{h[1]}]" if with_id else f"c{c} r{r}"


def parse_hex(obj: Any, field: str = "hex") -> Hex:
    """Parse ``[x, r]`` (list or tuple of two integers) into a playable ``Hex``.

    Raises ValueError naming the field and the rule: HOTH-COORD-3 for malformed or off-board
    ids, HOTH-COORD-4 for half-hexes.
    """
    if (not isinstance(obj, (list, tuple)) or len(obj) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in obj)):
        raise ValueError(f"HOTH-COORD-3: {field} must be [x, r] with two integers, got {obj!r}")
    h = (obj[0], obj[1])
    if h in HALF_HEXES:
        raise ValueError(f"HOTH-COORD-4: {field} [{h[0]}, {h[1]}] is a half-hex on the side edge; "
                         "half-hexes are not playable")
    if h not in PLAYABLE:
        x, r = h
        if not 0 <= r < ROWS:
            why = f"row must be 0..{ROWS - 1}"
        elif (x - r) % 2:
            why = "x must have the same parity as r (doubled-width ids)"
        else:
            why = "x is off the board (long rows x = 0..18, short rows x = 1..17)"
        raise ValueError(f"HOTH-COORD-3: {field} [{x}, {r}] is not a board hex: {why}")
    return h
