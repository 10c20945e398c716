"""Scenario data types for Battle of Hoth: the CONTRACT between the rules engine
(``domain/hoth``) and the content files (``scenarios/hoth``).

The content loader validates scenario files INTO these types
(``msgspec.convert(data, Scenario)``); the engine reads nothing else. This
module only grows additively: fields are added with defaults, never renamed
or removed.

Conventions
-----------
* Hex ids are board ids ``(x, r)`` in doubled-width coordinates
  (HOTH-COORD-3): row ``r`` 0..6, long rows (0, 2, 4, 6) have even ``x`` 0..18,
  short rows (1, 3, 5) odd ``x`` 1..17. Row 0 is the South edge; which faction
  sits South is ``Scenario.south`` (HOTH-COORD-1, HOTH-GAP-31). The layouts in
  ``battle-of-hoth-content.md`` are ``col,row`` with the Empire on row 0:
  convert with ``x = 2*col + (row % 2)`` and ``south = "imperial"``.
* Factions are ``"imperial"`` and ``"rebel"`` (also the seat names).
* Unit types, terrain, structures and badges use the snake_case names below
  (rulebook vocabulary; content ids in comments).
* ``objectives`` and sudden-death ``condition`` s are tagged unions on the JSON
  field ``"type"`` (``temporary_medal``, ``permanent_medal``, ``sudden_death``;
  ``structures_destroyed``, ``hexes_occupied``, ``units_eliminated``).
* ``status`` markers: ``"source"`` (stated in the sources), ``"inferred"``,
  ``"proposed"`` (invented stand-in, id starts with ``PROP-``).
"""
from __future__ import annotations

from typing import Annotated, Literal

import msgspec

#: How a hex id reads, for every schema that shows one (the OpenAPI document, HOTH-COORD-3).
HEX_DOC = ("A board hex `[x, r]` in doubled-width coordinates (HOTH-COORD-3): row `r` is 0..6 (row 0 is the South "
           "edge), column `c` is 0..9 in the long rows 0, 2, 4, 6 and 0..8 in the short rows 1, 3, 5, and "
           "`x = 2*c + r % 2` (so `x` is even in long rows, odd in short rows). Sentences name it `c4 r2 [8,2]`.")
Hex = Annotated[tuple[int, int], msgspec.Meta(description=HEX_DOC)]
Faction = Literal["imperial", "rebel"]
FACTIONS: tuple[str, str] = ("imperial", "rebel")

#: UNIT-SNOWTROOPERS, UNIT-ATAT, UNIT-PROBE-DROIDS, UNIT-ECHO-TROOPERS,
#: UNIT-SNOWSPEEDERS, UNIT-REBEL-ARTILLERY
UnitType = Literal["snowtroopers", "at_at", "probe_droids", "echo_troopers", "snowspeeders", "rebel_artillery"]
#: TER-RIDGE, TER-ROCKS, TER-SERAC, TER-BUILDINGS-WRECKAGE, TER-TRENCH, TER-CREVASSE
Terrain = Literal["ridge", "rocks", "serac", "buildings", "trench", "crevasse"]
#: STR-SHIELD-GENERATOR, STR-ION-CANNON
StructureKind = Literal["shield_generator", "ion_cannon"]
#: SF-ELITE-SQUADRON, SF-ASSAULT, SF-EWEB, SF-SCOUTS, SF-ELITE-TROOPS
Badge = Literal["elite_squadron", "assault", "eweb", "scouts", "elite_troops"]
#: Die symbols (HOTH-DICE-2)
Symbol = Literal["infantry", "vehicle", "explosion", "retreat", "miss"]
ContentStatus = Literal["source", "inferred", "proposed", "missing"]


class TerrainTile(msgspec.Struct, frozen=True, kw_only=True):
    hex: Hex
    terrain: Terrain


class Structure(msgspec.Struct, frozen=True, kw_only=True):
    """A structure piece (HOTH-STRUCT-*). Never a unit."""

    id: str  # unique within the scenario, e.g. "SG-1"
    kind: StructureKind
    hex: Hex
    #: May units attack it (scenario rule, e.g. GENERATORS-ATTACKABLE; HOTH-STRUCT-4).
    attackable: bool = True
    #: Die symbols that destroy it when rolled at least once (HOTH-STRUCT-5, HOTH-GAP-15).
    destroyed_by: tuple[Symbol, ...] = ("explosion",)
    #: Faction that gains a medal for destroying it (HOTH-STRUCT-6); None: no medal.
    medal_to: Faction | None = None
    #: Faction the structure belongs to; its own units may not attack it (HOTH-ATTACK-8, no friendly
    #: fire, HOTH-GAP-39). None: no owner. (Added by the content issue; see scenarios/hoth/README.md.)
    owner: Faction | None = None


class UnitSetup(msgspec.Struct, frozen=True, kw_only=True):
    hex: Hex
    faction: Faction
    unit: UnitType
    badge: Badge | None = None
    #: Optional stable id; the engine makes "<faction>-<n>" ids otherwise.
    id: str | None = None


class StructuresDestroyed(msgspec.Struct, frozen=True, kw_only=True, tag="structures_destroyed"):
    """Sudden death when these structures (ids) are all destroyed (HOTH-OBJ-SUDDEN-2)."""

    structures: tuple[str, ...]


class HexesOccupied(msgspec.Struct, frozen=True, kw_only=True, tag="hexes_occupied"):
    """Sudden death when units of the faction occupy all these hexes at once."""

    hexes: tuple[Hex, ...]


class UnitsEliminated(msgspec.Struct, frozen=True, kw_only=True, tag="units_eliminated"):
    """Sudden death when the enemy has no units of these types left (empty: no units at all)."""

    unit_types: tuple[UnitType, ...] = ()


SuddenDeathCondition = StructuresDestroyed | HexesOccupied | UnitsEliminated


class TemporaryMedal(msgspec.Struct, frozen=True, kw_only=True, tag="temporary_medal"):
    """OBJ-TEMP-MEDAL (HOTH-OBJ-TEMP-*): held while a unit of ``faction`` occupies ``hex``."""

    id: str
    hex: Hex
    faction: Faction
    medals: int = 1


class PermanentMedal(msgspec.Struct, frozen=True, kw_only=True, tag="permanent_medal"):
    """OBJ-PERM-MEDAL (HOTH-OBJ-PERM-*): won for good when a unit of ``faction`` enters ``hex``."""

    id: str
    hex: Hex
    faction: Faction
    medals: int = 1


class SuddenDeath(msgspec.Struct, frozen=True, kw_only=True, tag="sudden_death"):
    """OBJ-SUDDEN-DEATH (HOTH-OBJ-SUDDEN-*): ``faction`` wins at once when ``condition`` holds."""

    id: str
    faction: Faction
    condition: SuddenDeathCondition


Objective = TemporaryMedal | PermanentMedal | SuddenDeath


class SideSetup(msgspec.Struct, frozen=True, kw_only=True):
    """One faction's panel of the briefing."""

    #: Opening hand size (HOTH-SETUP-9).
    hand_size: int = 4
    #: Medals needed to win (HOTH-WIN-1); None: this faction cannot win on medals.
    victory_medals: int | None = 5
    #: Medal-award switch: does this faction earn medals for eliminating enemy
    #: units (HOTH-ELIM-4, e.g. NO-IMPERIAL-KILL-MEDALS)?
    elimination_medals: bool = True
    #: Per enemy unit type, the medals this faction earns for eliminating it,
    #: overriding HOTH-ELIM-3 / HOTH-WIN-2 (e.g. {"rebel_artillery": 1}).
    unit_medal_values: dict[str, int] = {}
    #: Leaders allowed / prescribed (HOTH-LEADER-2); empty: the optional standard rule.
    leaders: tuple[str, ...] = ()


class Scenario(msgspec.Struct, frozen=True, kw_only=True):
    id: str  # "SCN-..." or "PROP-SCN-..."
    title: str
    status: ContentStatus = "source"
    layout_status: ContentStatus = "proposed"
    #: Free notes (sources, what is missing).
    notes: str = ""
    #: Which faction sits South, at row 0 (HOTH-COORD-1, HOTH-GAP-31).
    south: Faction = "rebel"
    #: Faction that plays first (HOTH-TURN-1, HOTH-SETUP-11).
    first: Faction = "imperial"
    imperial: SideSetup = SideSetup()
    rebel: SideSetup = SideSetup()
    terrain: tuple[TerrainTile, ...] = ()
    structures: tuple[Structure, ...] = ()
    units: tuple[UnitSetup, ...] = ()
    objectives: tuple[Objective, ...] = ()
    #: Named special rules of the briefing (for display and rulings; their
    #: effects are expressed by the fields above).
    special_rules: tuple[str, ...] = ()

    def side(self, faction: str) -> SideSetup:
        return self.imperial if faction == "imperial" else self.rebel


__all__ = [
    "Hex", "Faction", "FACTIONS", "UnitType", "Terrain", "StructureKind", "Badge", "Symbol", "ContentStatus",
    "TerrainTile", "Structure", "UnitSetup", "StructuresDestroyed", "HexesOccupied", "UnitsEliminated",
    "SuddenDeathCondition", "TemporaryMedal", "PermanentMedal", "SuddenDeath", "Objective", "SideSetup",
    "Scenario",
]
