"""Answers kept from a game's last measured layout of the table, for the next layout.

Most commands change the table near one or two units (a move, a retreat, a loss), yet the engine's
per-layout memo (``state.memo``) starts empty for every new layout. A pairwise measurement whose inputs
all lie near its two units (a fire contact, SMOKE-LOF-3/4; a bombardment's line, SMOKE-BOMB-3) is kept
here per pair, and used again on a later layout of the same game when the two Unit objects are the same
and no unit that was added, removed, moved or newly marked as moved this turn (SMOKE-SR-18) comes within
``NEAR`` of their bounding boxes; every other pair is measured afresh. The terrain, the profiles, the
sides and the game's options and rule choices must be the same too (else nothing is kept).

Records are kept per game id and kind (bounded) and never changed once kept: threads may share them.
"""
from __future__ import annotations

import threading
from typing import Any

from .geometry import EPS
from .state import SmokeState, Unit

#: A unit this close to a pair's bounding boxes may change its answer: a contact (a rear partner's Fire range
#: bonus, SMOKE-SR-23; touching, SMOKE-GEO-5) is within EPS, and a unit that may block a line of fire
#: (SMOKE-GEO-12a) meets the hull of the shooter's front corners and the part of the target (inside the two
#: boxes).
NEAR = 2 * EPS

_BY_KEY: dict[tuple, tuple] = {}
_MAX = 1024
_LOCK = threading.Lock()
#: More changed units than this: measure every pair again (the checks would cost more than they save).
MAX_DIRTY = 12


def _context(state: SmokeState) -> tuple:
    return (state.terrain(), state.profiles, state.options, state.choices,
            tuple((s, a.side) for s, a in state.armies.items()))


def _moved(state: SmokeState) -> tuple[str, ...]:
    return state.turn.moved if state.turn is not None else ()


class Recent:
    """The pairs kept for ``kind`` from the game's last measured layout, and the bounding boxes (old and new)
    of the units changed since. ``pair(key, a, b)``: the kept answer if still good, else None."""

    __slots__ = ("pairs", "dirty", "changed")

    def __init__(self, pairs: dict, dirty: list, changed: set) -> None:
        self.pairs = pairs
        self.dirty = dirty
        #: the ids of the units added, removed, moved or newly marked as moved since (their boxes are ``dirty``)
        self.changed = changed

    def pair(self, key: Any, a: Unit, b: Unit) -> tuple | None:
        got = self.pairs.get(key)
        if got is None or got[0] is not a or got[1] is not b or not untouched(a, b, self.dirty):
            return None
        return got


def recent(state: SmokeState, kind: Any) -> Recent | None:
    prev = _BY_KEY.get((state.game_id, kind))
    if prev is None:
        return None
    units, moved, context, pairs = prev
    now = _context(state)
    if any(x is not y and x != y for x, y in zip(now, context)):
        return None
    moved_now = _moved(state)
    dirty: list = []
    changed: set = set()
    if units is not state.units or moved != moved_now:
        for uid in units.keys() | state.units.keys():
            old, new = units.get(uid), state.units.get(uid)
            if old is new and ((uid in moved) == (uid in moved_now)):
                continue
            changed.add(uid)
            for u in (old, new):
                if u is not None:
                    dirty.append(u.bbox())
            if len(dirty) > MAX_DIRTY:
                return None
    return Recent(pairs, dirty, changed)


def keep(state: SmokeState, kind: Any, pairs: dict) -> None:
    """Keep ``pairs`` (key -> (unit a, unit b, answer...)) as ``kind``'s answers on this layout."""
    entry = (state.units, _moved(state), _context(state), pairs)
    with _LOCK:
        if len(_BY_KEY) >= _MAX:
            _BY_KEY.clear()
        _BY_KEY[(state.game_id, kind)] = entry


def untouched(a: Unit, b: Unit, dirty: list) -> bool:
    """No box of ``dirty`` comes within ``NEAR`` of the bounding boxes of a and b."""
    if not dirty:
        return True
    ab, bb = a.bbox(), b.bbox()
    x0, y0 = min(ab[0], bb[0]) - NEAR, min(ab[1], bb[1]) - NEAR
    x1, y1 = max(ab[2], bb[2]) + NEAR, max(ab[3], bb[3]) + NEAR
    for d in dirty:
        if not (d[2] < x0 or d[0] > x1 or d[3] < y0 or d[1] > y1):
            return False
    return True


def last(state: SmokeState, kind: Any) -> tuple[dict[str, Unit], Any] | None:
    """(units, value) that ``remember`` kept for ``kind`` on the game's last layout measured, or None."""
    return _LAST.get((state.game_id, kind))


def remember(state: SmokeState, kind: Any, value: Any) -> None:
    """Keep ``value`` as ``kind``'s answer on this layout (never change it afterwards)."""
    with _LOCK:
        if len(_LAST) >= _MAX:
            _LAST.clear()
        _LAST[(state.game_id, kind)] = (state.units, value)


def changed(before: dict[str, Unit], after: dict[str, Unit]) -> set[str]:
    """The ids of the units added, removed or changed (another Unit object) between two layouts."""
    if before is after:
        return set()
    return {uid for uid in before.keys() | after.keys() if before.get(uid) is not after.get(uid)}


_LAST: dict[tuple, tuple] = {}
