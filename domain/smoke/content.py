"""The content contract of Clouds of Smoke: what ``scenarios/smoke`` decodes its JSON files into.

Unit profiles (SMOKE-STAT), action boards (SMOKE-ACT, SMOKE-TAC; the seed has none, so the
PROPOSED SMOKE-TEST-1 board ships as data a real board can replace), factions and army lists
(SMOKE-ARMY), preparations (GAP-B-04), terrain kinds (SMOKE-TERR-7) and battles (SMOKE-SETUP,
GAP-B-09). Every struct is frozen; a game copies what it uses into its opening event, so a folded
game never reads content files (DESIGN 1).
"""
from __future__ import annotations

from typing import Literal

import msgspec

Pt = tuple[float, float]
Status = Literal["seed", "inferred", "proposed"]


class Weapon(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """SMOKE-STAT-1 Fire: ``name: range UW, dice``."""

    name: str
    range: float
    dice: int


class Bombardment(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """SMOKE-BOMB-1: ``Bombardment R UW - Nd6``."""

    range: float
    dice: int


#: SMOKE-SR: the traits the engine knows (ids used in profiles).
TRAITS: tuple[str, ...] = (
    "pursuit", "never_retreats", "light", "veterans", "cavalry", "infantry", "artillery", "regimental_guns",
    "untrained", "armour", "gallop_charge", "nimble", "irregular", "mounted_lancers", "immobile", "heavy",
    "scout", "use_cover", "vanguard", "do_not_block_fire", "countermarch", "mutiny", "musketeer_cover",
    "mercenary_musketeers", "elite", "expendable", "garrison",
)


class BaseRect(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One base of a multi-base unit (SMOKE-UNIT-2), in the unit's own frame: ``x`` across the front
    from its left corner, ``y`` back from the front edge, and its size ``w`` x ``d`` (UW)."""

    x: float
    y: float
    w: float
    d: float


class Profile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A unit type (SMOKE-STAT-1). ``speed`` is (simple, complex) in UW; ``retreat`` a die
    expression (``"d3"``, ``"d3+1"``, ``"0"``); ``morale_loss`` the parenthesised value."""

    id: str
    name: str
    points: int
    speed: tuple[float, float]
    retreat: str
    strength: int
    morale: int
    morale_loss: int
    discipline: int
    melee: int
    fire: tuple[Weapon, ...] = ()
    bombardment: Bombardment | None = None
    traits: tuple[str, ...] = ()
    #: Base size in UW (SMOKE-UNIT-1/4): width along the front edge, depth.
    width: float = 1.0
    depth: float = 0.5
    #: SMOKE-UNIT-2: a unit of several bases joined rigidly; the unit is their bounding rectangle
    #: (``width`` x ``depth``, SMOKE-GEO-2). Empty: one base.
    bases: tuple[BaseRect, ...] = ()
    status: Status = "proposed"
    source: str = ""

    def has(self, trait: str) -> bool:
        return trait in self.traits


class Formula(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``die * D + plus`` (SMOKE-DICE-6: D is the face of the die placed on the slot)."""

    die: int = 0
    plus: float = 0

    def value(self, d: int) -> float:
        return self.die * d + self.plus


# -- action-board effects (SMOKE-TEST-1 kinds) -------------------------------------------------
class Activate(msgspec.Struct, frozen=True, kw_only=True, tag="activate", tag_field="kind",
               forbid_unknown_fields=True):
    """Activate one formation with a unit within ``radius`` of a commander (SMOKE-ACT-6, SMOKE-CMD-6)."""

    radius: Formula
    #: Added to each unit's simple speed (March: +1).
    simple_bonus: float = 0
    #: Only simple moves (March).
    simple_only: bool = False
    #: No unit of the formation within this many UW of an enemy unit (SMOKE-ACT-8), or None.
    enemy_clearance: float | None = None


class Ride(msgspec.Struct, frozen=True, kw_only=True, tag="ride", tag_field="kind", forbid_unknown_fields=True):
    """Move one commander up to ``distance`` (SMOKE-CMD-2; GAP-B-02)."""

    distance: Formula


class DisciplineBonus(msgspec.Struct, frozen=True, kw_only=True, tag="discipline_bonus", tag_field="kind",
                      forbid_unknown_fields=True):
    """Up to ``units`` of your units in this battle get ``bonus`` to discipline tests (Steady)."""

    units: Formula
    bonus: int = 1


class Volley(msgspec.Struct, frozen=True, kw_only=True, tag="volley", tag_field="kind", forbid_unknown_fields=True):
    """+1d6 for every ``per_units`` of your units in this battle on the line of fire, at most ``max`` dice."""

    per_units: int = 2
    max: Formula = Formula(die=1)


class Providence(msgspec.Struct, frozen=True, kw_only=True, tag="providence", tag_field="kind",
                 forbid_unknown_fields=True):
    """Cancel one tactic the opponent played in this battle unless it moved units or has no unit
    targets (SMOKE-TAC-6)."""


Effect = Activate | Ride | DisciplineBonus | Volley | Providence


class Slot(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One action or tactic of an action board (SMOKE-ACT-4, SMOKE-TAC-2)."""

    id: str
    name: str
    kind: Literal["action", "tactic"]
    #: SMOKE-TAC-2: "active player" / "passive player" tactics; "any" otherwise.
    when: Literal["any", "active", "passive"] = "any"
    text: str = ""
    effect: Effect
    #: SMOKE-TAC-6: the tactic moves units (resolved at once; Providence cannot cancel it).
    moves_units: bool = False
    #: SMOKE-TAC-6: the tactic has units as targets (Providence can only cancel those).
    targets_units: bool = True
    #: Only units with this trait receive the effect (SMOKE-SR-11: regimental guns count as infantry).
    unit_filter: str | None = None


class Board(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    slots: tuple[Slot, ...]
    status: Status = "proposed"
    source: str = ""

    def slot(self, sid: str) -> Slot | None:
        for s in self.slots:
            if s.id == sid:
                return s
        return None


class Faction(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A faction list (SMOKE-ARMY-1/2): its units by class and its action board."""

    id: str
    name: str
    era: str
    board: str
    #: profile id -> "core" | "rare" | "auxiliary"
    units: dict[str, Literal["core", "rare", "auxiliary"]]
    status: Status = "proposed"


class Preparation(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An army option bought like a unit (SMOKE-ARMY-5; the list is GAP-B-04, PROPOSED)."""

    id: str
    name: str
    points: int
    #: SMOKE-ARMY-5: may be taken several times (all copies count as one against the limit).
    multiple: bool = False
    effect: Literal["additional_commander", "fortification", "deployment_bonus"]
    status: Status = "proposed"


class ArmyEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    profile: str
    count: int = 1


class ArmyList(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An army (SMOKE-ARMY): agreed size, commander skill, units and preparations."""

    id: str
    name: str
    faction: str
    points: int
    commander: Literal["mediocre", "competent", "illustrious"]
    units: tuple[ArmyEntry, ...]
    preparations: tuple[str, ...] = ()
    status: Status = "proposed"


class TerrainKind(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """SMOKE-TERR-7: an element's properties (SMOKE-TERR-1..6, 8)."""

    id: str
    name: str
    difficult: bool = False
    very_difficult: bool = False
    cover: bool = False
    blocks_view: bool = False
    elevation: bool = False
    village: bool = False
    fortification: bool = False
    road: bool = False
    #: SMOKE-TGEN-1 (PROPOSED): the size of a generated element (width, depth), UW.
    size: tuple[float, float] = (1.6, 1.6)


class TerrainRow(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """SMOKE-TGEN-3: a row of the 2d6 terrain table; several kinds: the placing player chooses."""

    low: int
    high: int
    kinds: tuple[str, ...] = ()


class TerrainElement(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A polygon (counter-clockwise or not) of a kind; a road is a polyline ``line`` of ``width``."""

    id: str
    kind: str
    polygon: tuple[Pt, ...] = ()
    line: tuple[Pt, ...] = ()
    width: float = 0.5


class Side(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A side of the table: its own table edge (SMOKE-DEP-5) and deployment zone (SMOKE-DEP-1)."""

    id: str
    name: str
    edge: Literal["south", "north", "west", "east"]
    zone: tuple[Pt, ...]


class Placed(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A unit set up by the battle (historical deployment, SMOKE-ARMY-6): centre and facing (deg)."""

    profile: str
    x: float
    y: float
    facing: float


class CommanderAt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    x: float
    y: float


class ArmySlot(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One player's army in a line-up: its seat, side, army list and (fixed) deployment."""

    seat: str
    side: str
    army: str
    #: Fixed deployment (the battle places the units); empty: columns are deployed by the player
    #: (SMOKE-SETUP-3, SMOKE-DEP-2..4).
    units: tuple[Placed, ...] = ()
    commanders: tuple[CommanderAt, ...] = ()


class PhaseEvent(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A scenario event keyed to a scenario phase, not a turn (SMOKE-TURN-4, SMOKE-PHASE-1).

    ``reinforcements``: ``seat``'s ``units`` (of its army list) arrive at these places at the start
    of that seat's side's first turn in phase ``phase`` or later (INFERRED: a unit whose place is
    taken waits for a later turn of its side)."""

    phase: int
    kind: Literal["reinforcements"] = "reinforcements"
    seat: str
    units: tuple[Placed, ...] = ()
    text: str = ""


class LineUp(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    players: int
    armies: tuple[ArmySlot, ...]
    #: Scenario events by phase (SMOKE-PHASE-1).
    events: tuple[PhaseEvent, ...] = ()


class EndCondition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """GAP-B-09 (PROPOSED default): the game ends at the end of the turn in which phase ``phase``
    ends; the side with the higher remaining morale fraction wins a marginal victory, equal is a draw."""

    kind: Literal["end_of_phase"] = "end_of_phase"
    phase: int = 6
    marginal: Literal["morale_fraction"] = "morale_fraction"


class Battle(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A scenario (SMOKE-SETUP-1). The table is [0, width] x [0, height] UW (SMOKE-GEO-1)."""

    id: str
    title: str
    width: float = 30.0
    height: float = 22.0
    sides: tuple[Side, ...]
    terrain: tuple[TerrainElement, ...] = ()
    line_ups: tuple[LineUp, ...]
    end: EndCondition = EndCondition()
    #: The side that plays first (SMOKE-SETUP-4 "unless the scenario decides it"); None: roll.
    first_side: str | None = None
    #: "fixed": the battle places the units (SMOKE-ARMY-6); "columns": the players deploy them
    #: (SMOKE-SETUP-3, SMOKE-DEP-2..6).
    deployment: Literal["fixed", "columns"] = "fixed"
    #: SMOKE-TGEN-2: the players generate the terrain (on top of ``terrain``) before deployment.
    generate_terrain: bool = False
    #: SMOKE-DEP-5, the "confusion" deployment: the first player chooses its own table edge and the
    #: opponent gets the opposite one (the sides' ``edge`` fields are then not used).
    confusion: bool = False
    #: SMOKE-TGEN-3: the 2d6 table used (a battle's own, or the content's default when empty).
    terrain_table: tuple[TerrainRow, ...] = ()
    briefing: str = ""
    status: Status = "proposed"

    def side(self, sid: str) -> Side | None:
        for s in self.sides:
            if s.id == sid:
                return s
        return None

    def line_up(self, players: int) -> LineUp | None:
        for lu in self.line_ups:
            if lu.players == players:
                return lu
        return None


class Content(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the ruleset needs, by id (what ``scenarios.smoke.load_content()`` returns)."""

    profiles: dict[str, Profile]
    boards: dict[str, Board]
    factions: dict[str, Faction]
    preparations: dict[str, Preparation]
    armies: dict[str, ArmyList]
    terrain_kinds: dict[str, TerrainKind]
    battles: dict[str, Battle]
    #: SMOKE-TGEN-3: the default 2d6 terrain table.
    terrain_table: tuple[TerrainRow, ...] = ()
