"""Shared look-ups on a state: who is where, what blocks sight, which card bonuses apply.

Built once per decision (``Snapshot``) so that legal_commands stays cheap.
"""
from __future__ import annotations

from . import board
from .cards import Card, Effect
from .scenario import Hex
from .state import HothState, Ordered, UnitState, faction_of, terrain_map
from .sight import is_clear, line_of_sight
from .terrain import BLOCKS_LOS, RIDGE, SERAC
from .units import UNIT_SPECS


#: Neighbour tables of the board (HOTH-COORD-5, HOTH-COORD-9), computed once.
NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {h: board.neighbours(h) for h in board.PLAYABLE}
TOWARDS: dict[bool, dict[Hex, tuple[Hex, ...]]] = {
    south: {h: board.towards_baseline(h, south) for h in board.PLAYABLE} for south in (True, False)}


class _Ground:
    """Look-ups of a scenario's terrain that never change during a game (built once per scenario)."""

    __slots__ = ("terrain", "blocking", "ridges", "seracs")

    def __init__(self, terrain: dict[Hex, str]):
        self.terrain = terrain
        self.blocking = frozenset(h for h, t in terrain.items() if t in BLOCKS_LOS)
        self.ridges = frozenset(h for h, t in terrain.items() if t == RIDGE)
        self.seracs = frozenset(h for h, t in terrain.items() if t == SERAC)


#: id(scenario) -> (scenario, its ground); the scenario object is kept so its id is never reused.
_GROUNDS: dict[int, tuple[object, _Ground]] = {}


def _ground(state: HothState) -> _Ground:
    sc = state.scenario
    assert sc is not None
    hit = _GROUNDS.get(id(sc))
    if hit is not None and hit[0] is sc:
        return hit[1]
    if len(_GROUNDS) > 256:
        _GROUNDS.clear()
    g = _Ground(terrain_map(sc.terrain))
    _GROUNDS[id(sc)] = (sc, g)
    return g


class Snapshot:
    """Derived look-ups of one state (never stored, never mutated after build)."""

    __slots__ = ("state", "terrain", "occ", "structs", "obstacles", "ridges", "seracs", "unit_hexes", "_clear")

    def __init__(self, state: HothState):
        self.state = state
        g = _ground(state)
        self.terrain: dict[Hex, str] = g.terrain
        self.occ: dict[Hex, str] = {u.hex: u.id for u in state.units.values()}
        self.structs: dict[Hex, str] = {s.hex: s.id for s in state.structures.values() if not s.destroyed}
        self.unit_hexes = frozenset(self.occ)
        self.obstacles = g.blocking | self.unit_hexes | frozenset(self.structs)
        self.ridges = g.ridges
        self.seracs = g.seracs
        self._clear: dict[tuple[Hex, Hex], bool] = {}

    def sight(self, a: Hex, b: Hex):
        return line_of_sight(a, b, self.obstacles, ridges=self.ridges, units=self.unit_hexes, seracs=self.seracs)

    def clear(self, a: Hex, b: Hex) -> bool:
        """``self.sight(a, b).clear``, memoised (HOTH-LOS-*; see sight.is_clear)."""
        key = (a, b)
        c = self._clear.get(key)
        if c is None:
            c = self._clear[key] = is_clear(a, b, self.obstacles, self.ridges, self.unit_hexes, self.seracs)
        return c


#: The last few snapshots by id(state); each entry keeps its state, so an id is never confused with another.
_SNAPSHOTS: dict[int, Snapshot] = {}
_SNAPSHOT_CACHE_SIZE = 64


def snapshot(state: HothState) -> Snapshot:
    """The Snapshot of ``state``, built once while the state is in use (states are immutable)."""
    snap = _SNAPSHOTS.get(id(state))
    if snap is not None and snap.state is state:
        return snap
    if len(_SNAPSHOTS) >= _SNAPSHOT_CACHE_SIZE:
        _SNAPSHOTS.clear()
    snap = _SNAPSHOTS[id(state)] = Snapshot(state)
    return snap


def is_south(state: HothState, faction: str) -> bool:
    assert state.scenario is not None
    return state.scenario.south == faction


def unit_sections(state: HothState, u: UnitState) -> frozenset[str]:
    """HOTH-BOARD-3/4 (``board.sections``); units always stand on playable hexes, so the table is read directly."""
    assert state.scenario is not None
    return (board.SECTIONS_SOUTH if state.scenario.south == u.faction else board.SECTIONS_NORTH)[u.hex]


def effects_card(state: HothState) -> Card | None:
    t = state.turn
    if t is None or t.effects_card is None:
        return None
    return state.cards.get(t.effects_card)


def ordered_entry(state: HothState, unit_id: str) -> Ordered | None:
    t = state.turn
    if t is None:
        return None
    for o in t.ordered:
        if o.unit == unit_id:
            return o
    return None


def bonus_effects(state: HothState, unit_id: str) -> tuple[Effect, ...]:
    """The card effects that apply to ``unit_id`` this turn (not for HOTH-CARD-5 fallback units)."""
    o = ordered_entry(state, unit_id)
    if o is None or not o.bonus:
        return ()
    card = effects_card(state)
    return card.effects if card is not None else ()


#: Classes of each unit type (HOTH-GLOSS-3), computed once.
_CLASSES: dict[str, frozenset[str]] = {k: spec.classes for k, spec in UNIT_SPECS.items()}


def unit_classes(u: UnitState) -> frozenset[str]:
    return _CLASSES[u.unit]


def seat_faction(seat: str) -> str:
    return faction_of(seat)
