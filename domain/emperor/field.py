"""Looking at the battlefield of a state: locations and their bonuses, hazards, who stands where.

A :class:`Field` is built from a state and may carry extra, hypothetical flips: the Emperor's
"can this star ability apply" tests (SOLO-STAR-5) ask what a push or a march would do after its
bonuses were used, without changing anything.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from .content import Battlefield, Hazard, Location
from .grid import Grid, grid_for
from .state import EmperorState


#: BASE-HAZ-2 (PROPOSED): wounds for each entry into an active hazard.
HAZARD_WOUNDS = 1


class _Static:
    """What never changes on a battlefield: the grid and which locations touch each cell."""

    __slots__ = ("grid", "locations", "loc_at", "adjacent", "hazards", "hazard_at")

    def __init__(self, bf: Battlefield):
        self.grid: Grid = grid_for(bf.columns, bf.rows, frozenset(lo.cell for lo in bf.locations))
        self.locations: dict[str, Location] = {lo.id: lo for lo in bf.locations}
        self.loc_at: dict[str, Location] = {lo.cell: lo for lo in bf.locations}
        # BASE-LOC-2: a location is available from the cells orthogonally adjacent to it
        self.adjacent: dict[str, tuple[Location, ...]] = {
            c: tuple(self.loc_at[n] for n in self.grid.neighbours[c] if n in self.loc_at) for c in self.grid.cells}
        self.hazards: tuple[Hazard, ...] = bf.hazards
        self.hazard_at: dict[str, Hazard] = {h.cell: h for h in bf.hazards}


@lru_cache(maxsize=64)
def static_of(bf: Battlefield) -> _Static:
    return _Static(bf)


def symbol_count(loc: Location, symbols: Iterable[str], exceptions: Iterable[str] = ()) -> int:
    """Bonus symbols of ``loc`` among ``symbols``; a double symbol counts 2 (SOLO-MOVE-6), and an
    excepted type counts 0, double or not (SOLO-MOVE-3, SOLO-FAQ-3)."""
    want = set(symbols) - set(exceptions)
    return sum(b.count for b in loc.bonuses if b.symbol in want)


class Field:
    __slots__ = ("state", "static", "grid", "flipped", "occ")

    def __init__(self, state: EmperorState, flipped: frozenset[str] | None = None):
        assert state.battlefield is not None
        self.state = state
        self.static = static_of(state.battlefield)
        self.grid = self.static.grid
        self.flipped: frozenset[str] = frozenset(state.flipped) if flipped is None else flipped
        self.occ: dict[str, str] = {w.cell: w.id for w in state.warriors.values() if w.cell is not None}

    def with_flipped(self, more: Iterable[str]) -> "Field":
        """The same battlefield with ``more`` locations flipped (a hypothetical for SOLO-STAR-5)."""
        f = Field.__new__(Field)
        f.state, f.static, f.grid, f.occ = self.state, self.static, self.grid, self.occ
        f.flipped = self.flipped | frozenset(more)
        return f

    # -- locations (BASE-LOC) -----------------------------------------------------------
    def location(self, loc_id: str) -> Location:
        return self.static.locations[loc_id]

    def is_location(self, cell: str) -> bool:
        return cell in self.static.loc_at

    def face_up(self, loc_id: str) -> bool:
        return loc_id not in self.flipped

    def available(self, cell: str) -> tuple[Location, ...]:
        """BASE-LOC-2: face-up locations orthogonally adjacent to ``cell``."""
        return tuple(lo for lo in self.static.adjacent[cell] if lo.id not in self.flipped)

    def bonus_locations(self, cell: str, symbols: Iterable[str]) -> list[tuple[Location, int]]:
        """Available locations with at least one of ``symbols``, and how many they give."""
        syms = tuple(symbols)
        out = []
        for lo in self.available(cell):
            n = symbol_count(lo, syms)
            if n:
                out.append((lo, n))
        return out

    def bonus_locations_anywhere(self, symbols: Iterable[str]) -> list[tuple[Location, int]]:
        """Every face-up location of the battlefield with at least one of ``symbols`` (SOLO-CHOICE-PUSH-BONUS
        ``anywhere``), in the battlefield's order."""
        syms = tuple(symbols)
        out = []
        for lo in self.static.locations.values():
            n = symbol_count(lo, syms) if lo.id not in self.flipped else 0
            if n:
                out.append((lo, n))
        return out

    def bonus_count(self, cell: str, exceptions: Iterable[str] = ()) -> int:
        """SOLO-MOVE-6 ``B(c)``: active location bonus symbols available in ``cell`` (doubles 2)."""
        ex = tuple(exceptions)
        return sum(sum(b.count for b in lo.bonuses if b.symbol not in ex) for lo in self.available(cell))

    # -- hazards (BASE-HAZ) -------------------------------------------------------------
    def hazard_active(self, hz: Hazard) -> bool:
        return hz.active_while is None or hz.active_while not in self.flipped

    def active_hazard(self, cell: str) -> Hazard | None:
        hz = self.static.hazard_at.get(cell)
        return hz if hz is not None and self.hazard_active(hz) else None

    def active_hazard_cells(self) -> frozenset[str]:
        return frozenset(h.cell for h in self.static.hazards if self.hazard_active(h))

    # -- warriors -----------------------------------------------------------------------
    def occupant(self, cell: str) -> str | None:
        return self.occ.get(cell)

    def dist(self, a: str, b: str) -> int:
        return self.grid.dist(a, b)
