"""The battlefield grid (BASE-GRID-1..3) and the compass (SOLO-TIE-1..3).

Cells are named like a chessboard: column letter west to east (``A`` = x 1), row number south to
north (``1`` = y 1). The human sits at the south edge, the Emperor at the north (BASE-GRID-1).
Adjacency is orthogonal (BASE-GRID-2). ``dist`` is the shortest orthogonal path through cells
without a location, ignoring warriors and hazards (BASE-GRID-3; GAP-A-09); it is static for a
battlefield (locations never move), so it is computed once per battlefield and cached.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import lru_cache

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: An unreachable distance (BASE-GRID-3: "∞ if there is no such path").
INF = 10**6

#: SOLO-TIE-3 (PROPOSED, GAP-A-10): on a tie, turn the arrow 90° clockwise and repeat.
CLOCKWISE = {"N": "E", "E": "S", "S": "W", "W": "N"}  # GAP-A-10


def label(x: int, y: int) -> str:
    return f"{COLUMNS[x - 1]}{y}"


def xy(cell: str) -> tuple[int, int]:
    return COLUMNS.index(cell[0]) + 1, int(cell[1:])


def valid_label(cell: object, columns: int, rows: int) -> bool:
    if not isinstance(cell, str) or len(cell) < 2 or cell[0] not in COLUMNS[:columns] or not cell[1:].isdigit():
        return False
    return 1 <= int(cell[1:]) <= rows and str(int(cell[1:])) == cell[1:]


class Grid:
    """Static geometry of one battlefield: cells, neighbours, location cells, distances."""

    __slots__ = ("columns", "rows", "cells", "neighbours", "blocked", "_dist")

    def __init__(self, columns: int, rows: int, blocked: frozenset[str]):
        self.columns = columns
        self.rows = rows
        self.cells: tuple[str, ...] = tuple(label(x, y) for y in range(1, rows + 1) for x in range(1, columns + 1))
        self.blocked = blocked
        nb: dict[str, tuple[str, ...]] = {}
        for c in self.cells:
            x, y = xy(c)
            out = []
            for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                nx, ny = x + dx, y + dy
                if 1 <= nx <= columns and 1 <= ny <= rows:
                    out.append(label(nx, ny))
            nb[c] = tuple(out)
        self.neighbours = nb
        self._dist: dict[str, dict[str, int]] = {}

    def from_(self, a: str) -> dict[str, int]:
        """BASE-GRID-3 distances from ``a`` to every cell it can reach (locations block)."""
        d = self._dist.get(a)
        if d is None:
            d = {a: 0}
            q = deque([a])
            while q:
                c = q.popleft()
                for n in self.neighbours[c]:
                    if n not in d and n not in self.blocked:
                        d[n] = d[c] + 1
                        q.append(n)
            self._dist[a] = d
        return d

    def dist(self, a: str, b: str) -> int:
        """BASE-GRID-3: orthogonal path length through cells without locations; INF if none."""
        return self.from_(a).get(b, INF)


@lru_cache(maxsize=64)
def grid_for(columns: int, rows: int, blocked: frozenset[str]) -> Grid:
    return Grid(columns, rows, blocked)


def _key(cell: str, arrow: str) -> int:
    """Bigger is more extreme in the direction of ``arrow`` (SOLO-TIE-2)."""
    x, y = xy(cell)
    return {"N": y, "S": -y, "E": x, "W": -x}[arrow]


def compass_pick(cells: Iterable[str], arrow: str) -> tuple[str, list[str]]:
    """SOLO-TIE-2/3: the candidate most extreme in the arrow's direction of the whole battlefield;
    on a tie rotate the arrow 90° clockwise and repeat. Returns the cell and the arrows used."""
    cand = sorted(set(cells))
    if not cand:
        raise ValueError("compass over no candidates")
    used = []
    a = arrow
    for _ in range(4):
        used.append(a)
        best = max(_key(c, a) for c in cand)
        cand = [c for c in cand if _key(c, a) == best]
        if len(cand) == 1:
            return cand[0], used
        a = CLOCKWISE[a]
    return cand[0], used  # two distinct cells never tie on both axes (SOLO-TIE-3)


def compass_order(cells: Iterable[str], arrow: str) -> list[str]:
    """The candidates ordered by repeated compass picks (first = the compass choice)."""
    rest = sorted(set(cells))
    out = []
    while rest:
        c, _ = compass_pick(rest, arrow)
        out.append(c)
        rest.remove(c)
    return out
