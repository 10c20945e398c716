"""Movement: the human's (BASE-MOVE-1, BASE-HAZ-2) and the Emperor's decision procedure (SOLO-MOVE).

Both are pure functions of a :class:`~domain.emperor.field.Field`; the decision returns every set
it looked at so the event (and its ruling) can show them.
"""
from __future__ import annotations

from collections import deque

import msgspec

from .content import Requirement
from .field import Field
from .grid import INF, compass_pick
from .state import Warrior

#: GAP-A-08, SOLO-CHOICE-STEP4: step 4 picks the preferred *candidate cell* (``nearest``, reading A) or the
#: preferred target direction first, then the reachable cell nearest it (``preferred``, reading B).
STEP4_READINGS = ("nearest", "preferred")
# GAP-A-07: "preferred" is computed over PR; SOLO-MOVE-10 shows the other reading (over P, then
# reachable) gives the same destination in every case, so there is nothing to configure.


def _enemy_side(w: Warrior) -> str:
    return "human" if w.side == "emperor" else "emperor"


def passable(field: Field, mover: Warrior, cell: str) -> bool:
    """BASE-MOVE-1: a path may cross allies, never enemies or locations."""
    if field.is_location(cell):
        return False
    occ = field.occupant(cell)
    if occ is None or occ == mover.id:
        return True
    return field.state.warriors[occ].side == mover.side


def free_for(field: Field, mover: Warrior, cell: str) -> bool:
    """A move may end only in a cell with no other warrior and no location (BASE-MOVE-1)."""
    occ = field.occupant(cell)
    return not field.is_location(cell) and (occ is None or occ == mover.id)


# -- the human's movement ------------------------------------------------------------------

def human_destinations(field: Field, mover: Warrior, movement: int) -> dict[str, tuple[str, ...]]:
    """Every cell ``mover`` can end in (not its own) with a shortest path: BASE-MOVE-1, and
    BASE-HAZ-2 -- entering an active hazard ends the movement there (the path never crosses one)."""
    start = mover.cell
    assert start is not None
    parent: dict[str, str] = {start: ""}
    depth = {start: 0}
    q = deque([start])
    while q:
        c = q.popleft()
        if depth[c] >= movement:
            continue
        if c != start and field.active_hazard(c) is not None:
            continue  # the movement ends on the hazard
        for n in field.grid.neighbours[c]:
            if n in depth or not passable(field, mover, n):
                continue
            depth[n] = depth[c] + 1
            parent[n] = c
            q.append(n)
    out: dict[str, tuple[str, ...]] = {}
    for c in depth:
        if c == start or not free_for(field, mover, c):
            continue
        path = [c]
        while parent[path[-1]] != start:
            path.append(parent[path[-1]])
        out[c] = tuple(reversed(path))
    return out


# -- the Emperor's movement (SOLO-MOVE) ----------------------------------------------------

def possible_cells(field: Field, mover: Warrior, req: Requirement) -> frozenset[str]:
    """SOLO-MOVE-4: cells without a location that satisfy the requirement (BASE-SOLO-1); whether a
    warrior stands there does not matter."""
    st = field.state
    grid = field.grid
    if req.kind in ("ADJ_ENEMY_HERO", "DIST_ENEMY_HERO"):
        hero = st.hero_of(_enemy_side(mover))
        if hero is None or hero.cell is None:
            return frozenset()
        if req.kind == "ADJ_ENEMY_HERO":
            cells = grid.neighbours[hero.cell]
        else:
            d = grid.from_(hero.cell)
            cells = tuple(c for c, k in d.items() if k == req.distance)
    else:  # ADJ_ACTIVE_HAZARD
        cells = tuple(n for h in sorted(field.active_hazard_cells()) for n in grid.neighbours[h])
    return frozenset(c for c in cells if not field.is_location(c))


def emperor_reach(field: Field, mover: Warrior, movement: int) -> dict[str, int]:
    """SOLO-MOVE-5: free cells reachable within ``movement`` under BASE-MOVE-1, hazards ignored
    (SOLO-MOVE-1); the starting cell always counts. Value: the steps needed."""
    start = mover.cell
    assert start is not None
    depth = {start: 0}
    q = deque([start])
    while q:
        c = q.popleft()
        if depth[c] >= movement:
            continue
        for n in field.grid.neighbours[c]:
            if n not in depth and passable(field, mover, n):
                depth[n] = depth[c] + 1
                q.append(n)
    return {c: k for c, k in depth.items() if c == start or free_for(field, mover, c)}


def preferred(field: Field, cells: frozenset[str] | set[str], exceptions: tuple[str, ...]) -> tuple[set[str], dict[str, int]]:
    """SOLO-MOVE-6: ``Pref(X)``, every cell of X with the most active bonus symbols (doubles 2,
    excepted types not counted), and the counts."""
    b = {c: field.bonus_count(c, exceptions) for c in sorted(cells)}
    if not b:
        return set(), b
    top = max(b.values())
    return {c for c, v in b.items() if v == top}, b


class MoveDecision(msgspec.Struct, frozen=True, kw_only=True):
    possible: tuple[str, ...]
    reachable: tuple[str, ...]
    candidates: tuple[str, ...]
    bonus: dict[str, int]
    preferred: tuple[str, ...]
    step: int
    nearest: tuple[str, ...] = ()
    distances: dict[str, int] = {}
    compass: str = ""
    arrows: tuple[str, ...] = ()
    to: str
    path: tuple[str, ...] = ()


def decide_move(field: Field, mover: Warrior, movement: int, req: Requirement, exceptions: tuple[str, ...],
                arrow: str, step4: str = "nearest") -> MoveDecision:
    """SOLO-MOVE-4..9 for one warrior whose movement bonuses are already applied (SOLO-MOVE-2); ``step4``: the
    reading of step 4 (SOLO-CHOICE-STEP4)."""
    start = mover.cell
    assert start is not None
    P = possible_cells(field, mover, req)
    reach = emperor_reach(field, mover, movement)
    R = frozenset(reach)
    PR = P & R
    common = dict(possible=tuple(sorted(P)), reachable=tuple(sorted(R)), candidates=tuple(sorted(PR)))
    if len(PR) == 1:  # SOLO-MOVE-7 step 1
        (to,) = PR
        return _with_path(field, mover, arrow, MoveDecision(**common, bonus={}, preferred=(), step=1, to=to))
    if len(PR) >= 2:
        pref, b = preferred(field, PR, exceptions)
        if len(pref) == 1:  # step 2
            (to,) = pref
            return _with_path(field, mover, arrow, MoveDecision(**common, bonus=b, preferred=tuple(sorted(pref)),
                                                                step=2, to=to))
        to, arrows = compass_pick(pref, arrow)  # step 3
        return _with_path(field, mover, arrow, MoveDecision(**common, bonus=b, preferred=tuple(sorted(pref)), step=3,
                                                            to=to, compass=arrow, arrows=tuple(arrows)))
    # step 4: nearest-cell fallback (SOLO-MOVE-8)
    if not P:  # SOLO-MOVE-8f (INFERRED): nothing to move towards
        return MoveDecision(**common, bonus={}, preferred=(), step=0, to=start)
    grid = field.grid
    if step4 == "preferred":  # GAP-A-08 reading B: the preferred target cell first
        pref_p, _ = preferred(field, P, exceptions)
        aim, _ = compass_pick(pref_p, arrow)
        D = {c: grid.dist(c, aim) for c in sorted(R)}
    else:
        D = {c: min(grid.dist(c, p) for p in P) for c in sorted(R)}
    best = min(D.values())
    if best >= INF:  # SOLO-MOVE-8f
        return MoveDecision(**common, bonus={}, preferred=(), step=0, to=start, distances=D)
    N = frozenset(c for c, d in D.items() if d == best)
    if len(N) == 1:  # 8c
        (to,) = N
        return _with_path(field, mover, arrow, MoveDecision(**common, bonus={}, preferred=(), step=4,
                                                            nearest=tuple(sorted(N)), distances=D, to=to))
    pref, b = preferred(field, N, exceptions)
    if len(pref) == 1:  # 8d
        (to,) = pref
        return _with_path(field, mover, arrow, MoveDecision(**common, bonus=b, preferred=tuple(sorted(pref)), step=4,
                                                            nearest=tuple(sorted(N)), distances=D, to=to))
    to, arrows = compass_pick(pref, arrow)  # 8e
    return _with_path(field, mover, arrow, MoveDecision(**common, bonus=b, preferred=tuple(sorted(pref)), step=4,
                                                        nearest=tuple(sorted(N)), distances=D, to=to, compass=arrow,
                                                        arrows=tuple(arrows)))


def _with_path(field: Field, mover: Warrior, arrow: str, d: MoveDecision) -> MoveDecision:
    """SOLO-MOVE-9 with SOLO-TIE-1: the path's ties are broken by the current order card's compass,
    whichever step of the decision list chose the destination."""
    return msgspec.structs.replace(d, path=emperor_path(field, mover, d.to, arrow))


def emperor_path(field: Field, mover: Warrior, to: str, arrow: str) -> tuple[str, ...]:
    """SOLO-MOVE-9 (PROPOSED): a shortest legal path (allies crossed, hazards ignored); remaining
    ties broken by the compass on the first differing step. Empty when the warrior stays."""
    start = mover.cell
    assert start is not None
    if to == start:
        return ()
    back = {to: 0}
    q = deque([to])
    while q:
        c = q.popleft()
        for n in field.grid.neighbours[c]:
            if n not in back and passable(field, mover, n):
                back[n] = back[c] + 1
                q.append(n)
    path: list[str] = []
    cur = start
    while cur != to:
        steps = [n for n in field.grid.neighbours[cur] if back.get(n, INF) == back[cur] - 1]
        cur, _ = compass_pick(steps, arrow)
        path.append(cur)
    return tuple(path)


