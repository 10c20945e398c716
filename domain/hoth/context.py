"""Shared look-ups on a state: who is where, what blocks sight, which card bonuses apply.

Built once per decision (``Snapshot``) so that legal_commands stays cheap.
"""
from __future__ import annotations

from . import board
from .cards import Card, Effect
from .scenario import Hex
from .state import HothState, Ordered, UnitState, faction_of, terrain_map
from .terrain import BLOCKS_LOS, RIDGE, SERAC
from .units import UNIT_SPECS


#: Neighbour tables of the board (HOTH-COORD-5, HOTH-COORD-9), computed once.
NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {h: board.neighbours(h) for h in board.PLAYABLE}
TOWARDS: dict[bool, dict[Hex, tuple[Hex, ...]]] = {
    south: {h: board.towards_baseline(h, south) for h in board.PLAYABLE} for south in (True, False)}


class Snapshot:
    """Derived look-ups of one state (never stored, never mutated after build)."""

    __slots__ = ("state", "terrain", "occ", "structs", "obstacles", "ridges", "seracs", "unit_hexes")

    def __init__(self, state: HothState):
        self.state = state
        assert state.scenario is not None
        self.terrain: dict[Hex, str] = terrain_map(state.scenario.terrain)
        self.occ: dict[Hex, str] = {u.hex: u.id for u in state.units.values()}
        self.structs: dict[Hex, str] = {s.hex: s.id for s in state.structures.values() if not s.destroyed}
        self.unit_hexes = frozenset(self.occ)
        blocking = {h for h, t in self.terrain.items() if t in BLOCKS_LOS}
        self.obstacles = frozenset(blocking | set(self.occ) | set(self.structs))
        self.ridges = frozenset(h for h, t in self.terrain.items() if t == RIDGE)
        self.seracs = frozenset(h for h, t in self.terrain.items() if t == SERAC)

    def sight(self, a: Hex, b: Hex):
        from .sight import line_of_sight

        return line_of_sight(a, b, self.obstacles, ridges=self.ridges, units=self.unit_hexes, seracs=self.seracs)


def is_south(state: HothState, faction: str) -> bool:
    assert state.scenario is not None
    return state.scenario.south == faction


def unit_sections(state: HothState, u: UnitState) -> frozenset[str]:
    return board.sections(u.hex, is_south(state, u.faction))


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


def unit_classes(u: UnitState) -> frozenset[str]:
    s = UNIT_SPECS[u.unit]
    return s.classes


def seat_faction(seat: str) -> str:
    return faction_of(seat)
