"""Push (BASE-PUSH-1) and the Emperor's push plan (SOLO-PUSH-2..4, the normative pseudocode)."""
from __future__ import annotations

import msgspec

from domain.kernel.messages import Message, msg, msg_n

from .field import HAZARD_WOUNDS, Field
from .grid import compass_pick


def push_steps(field: Field, cell: str, target: str) -> list[str]:
    """BASE-PUSH-1: one push step goes into an orthogonally adjacent cell inside the grid with no
    location and no warrior (the target itself has left its cell)."""
    out = []
    for n in field.grid.neighbours[cell]:
        if field.is_location(n):
            continue
        occ = field.occupant(n)
        if occ is not None and occ != target:
            continue
        out.append(n)
    return out


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    """A push plan: the cells entered in order, the active hazards among them, and what it did."""

    path: tuple[str, ...]
    hazards: tuple[str, ...]
    wounds: int
    k: int
    first: str
    #: The active hazards the fewest push steps (``k``) reach: the compass chose ``first`` among them.
    candidates: tuple[str, ...] = ()
    #: The arrows the compass used for ``first`` (more than one: SOLO-TIE-3).
    arrows: tuple[str, ...] = ()
    #: (rule, words) for every later step of the plan (SOLO-PUSH-3a/3b) and its stop (SOLO-PUSH-4).
    notes: tuple[tuple[str, Message], ...] = ()


def _compass(arrows: list[str], to: str) -> Message:
    """``, compass N/E -> C4``: the arrows the compass used to pick ``to`` (SOLO-TIE-1/3)."""
    return msg(", compass {compass} -> {to}", compass="/".join(arrows), to=to)


def best_hazard_plan(field: Field, target: str, value: int, arrow: str) -> Plan | None:
    """SOLO-PUSH-2/3 for one target and push value ``value`` (pseudocode ``best_hazard_plan``).

    BFS over single push steps, never expanding beyond an active hazard; ``k`` (>= 1) is the fewest
    steps that enter one (a target standing on a hazard must leave it and re-enter, GAP-A-13); ties
    by the compass. Then the rest ``r = V - k`` is spent only while it still wounds: back and forth
    between two adjacent active hazards (a), else out to a free neighbour and back (b, 2 steps per
    wound), compass on choices; stop as soon as no further hazard wound can be produced (SOLO-PUSH-4).
    """
    w = field.state.warriors[target]
    start = w.cell
    if start is None or value < 1:
        return None
    hazards = field.active_hazard_cells()
    layers: list[set[str]] = [{start}]
    seen = {start}
    found: set[str] = set()
    for _k in range(1, value + 1):
        nxt: set[str] = set()
        for c in layers[-1]:
            for n in push_steps(field, c, target):
                if n in hazards:
                    found.add(n)
                elif n not in seen:
                    nxt.add(n)
        if found:
            break
        if not nxt:
            return None
        seen |= nxt
        layers.append(nxt)
    if not found:
        return None
    k = len(layers)
    h, arrows = compass_pick(found, arrow)
    path = _path_to(field, target, layers, h, arrow)
    notes: list[tuple[str, Message]] = []
    r = value - k
    cur = h
    entered = [h]
    cells = list(path)
    while True:
        adj_h = [n for n in push_steps(field, cur, target) if n in hazards]
        if adj_h and r >= 1:  # (a) between two hazards
            nxt_h, used = compass_pick(adj_h, arrow)
            notes.append(("SOLO-PUSH-3", msg_n("a: {value} push left; active hazard(s) next to {cell}: {hazards}{compass}: "
                                               "{cell} -> {to} ({wounds} wound(s))",
                                               "a: {value} push left; active hazard(s) next to {cell}: {hazards}{compass}: "
                                               "{cell} -> {to} ({wounds} wound(s))", "wounds", value=r, cell=cur,
                                               hazards=", ".join(sorted(adj_h)), to=nxt_h, wounds=HAZARD_WOUNDS,
                                               compass=_compass(used, nxt_h) if len(adj_h) > 1 else "")))
            cells.append(nxt_h)
            entered.append(nxt_h)
            cur = nxt_h
            r -= 1
            continue
        free = push_steps(field, cur, target)
        if r >= 2 and free:  # (b) out and back
            out, used = compass_pick(free, arrow)
            notes.append(("SOLO-PUSH-3", msg_n("b: {value} push left, no active hazard next to {cell}; free neighbours "
                                               "{free}{compass}: {cell} -> {to} -> {cell} ({wounds} wound(s) for 2 steps)",
                                               "b: {value} push left, no active hazard next to {cell}; free neighbours "
                                               "{free}{compass}: {cell} -> {to} -> {cell} ({wounds} wound(s) for 2 steps)",
                                               "wounds", value=r, cell=cur, free=", ".join(sorted(free)), to=out,
                                               wounds=HAZARD_WOUNDS,
                                               compass=_compass(used, out) if len(free) > 1 else "")))
            cells += [out, cur]
            entered.append(cur)
            r -= 2
            continue
        break
    if r:
        why = (msg("no free neighbour") if not push_steps(field, cur, target)
               else msg("no active hazard next to it and 1 step cannot go out and back"))
        notes.append(("SOLO-PUSH-4", msg("{value} push left unused on {cell}: {why}, so no further hazard wound is "
                                         "possible", value=r, cell=cur, why=why)))
    return Plan(path=tuple(cells), hazards=tuple(entered), wounds=len(entered) * HAZARD_WOUNDS, k=k, first=h,
                candidates=tuple(sorted(found)), arrows=tuple(arrows), notes=tuple(notes))


def _path_to(field: Field, target: str, layers: list[set[str]], h: str, arrow: str) -> list[str]:
    """A shortest step path to hazard ``h`` (entered at step ``len(layers)``); the compass chooses at
    the first differing step."""
    k = len(layers)
    # cells of each layer from which h is reachable in the remaining steps
    ok: list[set[str]] = [set() for _ in range(k)]
    ok[k - 1] = {c for c in layers[k - 1] if h in push_steps(field, c, target)}
    for i in range(k - 2, -1, -1):
        ok[i] = {c for c in layers[i] if any(n in ok[i + 1] for n in push_steps(field, c, target))}
    path: list[str] = []
    cur = next(iter(layers[0]))
    for i in range(1, k):
        nxt, _ = compass_pick([n for n in push_steps(field, cur, target) if n in ok[i]], arrow)
        path.append(nxt)
        cur = nxt
    path.append(h)
    return path


def truncate(path: tuple[str, ...], hazards: frozenset[str], left: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """SOLO-PUSH-4 / BASE-WAR-2: a push stops when the target dies (``left`` health). Returns the path
    walked and the active hazards entered on it (one wound each, BASE-HAZ-2)."""
    walked: list[str] = []
    entries: list[str] = []
    for c in path:
        walked.append(c)
        if c in hazards:
            entries.append(c)
            if len(entries) * HAZARD_WOUNDS >= left:
                break
    return tuple(walked), tuple(entries)


def human_push_paths(field: Field, target: str, value: int, left: int) -> list[tuple[str, ...]]:
    """Every push path of 1..``value`` steps the human may choose (BASE-PUSH-1: any direction each
    step, stop early allowed); a path ends where the target dies (``left`` wounds)."""
    w = field.state.warriors[target]
    assert w.cell is not None
    hazards = field.active_hazard_cells()
    out: list[tuple[str, ...]] = []

    def walk(cell: str, path: tuple[str, ...], wounds: int) -> None:
        if len(path) >= value:
            return
        for n in push_steps(field, cell, target):
            p = path + (n,)
            wd = wounds + (HAZARD_WOUNDS if n in hazards else 0)
            out.append(p)
            if wd < left:
                walk(n, p, wd)

    walk(w.cell, (), 0)
    return out


def path_hazards(field: Field, start: str, path: tuple[str, ...], target: str) -> tuple[str, ...] | None:
    """The active hazards entered along a human push ``path`` (None if a step is not legal)."""
    hazards = field.active_hazard_cells()
    cur = start
    out = []
    for n in path:
        if n not in push_steps(field, cur, target):
            return None
        if n in hazards:
            out.append(n)
        cur = n
    return tuple(out)
