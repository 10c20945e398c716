"""Events of a Clouds of Smoke game. Events carry outcomes (DESIGN 1): every die, every measured
distance, every line of fire found or blocked, every hit allocation and retreat path is in the event
that it produced, so folding never rolls, never measures and never reads content files.

Over 500 lines on purpose: one type per event of the game, declared together so the event union and its
tags are one list.
"""
from __future__ import annotations

from typing import Any, ClassVar

from domain.kernel import Event

from .content import Battle, Board, Profile, TerrainElement, TerrainKind
from .state import Army, Arrival, Commander, Formation, HitChoice, Unit

Pose = tuple[float, float, float]  # x, y, facing


class GameOpened(Event, tag="game_opened"):
    battle: Battle
    kinds: tuple[TerrainKind, ...]
    profiles: tuple[Profile, ...]
    boards: tuple[Board, ...]
    sides: dict[str, tuple[str, ...]]
    armies: tuple[Army, ...]
    units: tuple[Unit, ...]
    commanders: tuple[Commander, ...]
    #: A column deployment: the units and commanders the players will place (SMOKE-DEP-4).
    reserve: tuple[Unit, ...] = ()
    reserve_commanders: tuple[Commander, ...] = ()
    #: Reinforcements and the scenario phase they arrive in (SMOKE-PHASE-1).
    arrivals: tuple[Arrival, ...] = ()


class FirstSideRolled(Event, tag="first_side_rolled"):
    """SMOKE-SETUP-4: d6 + strategic rating per side, ties rerolled; ``chooser`` decides."""

    rounds: tuple[dict[str, Any], ...]
    chooser: str


class FirstSideChosen(Event, tag="first_side_chosen"):
    side: str
    order: tuple[str, ...]


class TurnStarted(Event, tag="turn_started"):
    turn: int
    side: str
    players: tuple[str, ...]


class StepStarted(Event, tag="step_started"):
    """The turn moves on to ``step`` (SMOKE-TURN-2) for the active side's player ``player``."""

    step: str
    player: int = 0


class BombardmentAimed(Event, tag="bombardment_aimed"):
    seat: str
    unit: str
    target: str
    formation: tuple[str, ...]
    measure: dict[str, Any]


class BombardmentRolled(Event, tag="bombardment_rolled"):
    """SMOKE-BOMB-4/5/6, SMOKE-MP-5: one roll per targeted player."""

    seat: str
    shots: tuple[dict[str, Any], ...]
    rolls: tuple[dict[str, Any], ...]
    losses: tuple[dict[str, Any], ...]
    bombarded: tuple[str, ...]


class LossTaken(Event, tag="loss_taken"):
    """SMOKE-BOMB-6: one full 10 taken as 1 morale (``unit`` None) or as a unit's retreat."""

    seat: str
    unit: str | None
    formation: str | None = None
    distance_to_artillery: float | None = None


class RetreatRolled(Event, tag="retreat_rolled"):
    """SMOKE-RET-3 step 1: the retreat distance (the direction is chosen next, FAQ-18)."""

    unit: str
    expression: str
    faces: tuple[int, ...]
    distance: float
    context: str


class UnitRetreated(Event, tag="unit_retreated"):
    """SMOKE-RET-3/4, SMOKE-FRET, SMOKE-GEO-18: the path, and how it ended."""

    unit: str
    direction: str
    vector: tuple[float, float]
    distance: float
    moved: float
    start: Pose
    end: Pose
    outcome: str  # "ok" | "destroyed" | "zero"
    touched: str | None = None
    friends: tuple[str, ...] = ()
    other_formation: bool = False
    context: str = "battle"
    price_marker: str | None = None


class UnitDestroyed(Event, tag="unit_destroyed"):
    unit: str
    seat: str
    reason: str


class MoraleLost(Event, tag="morale_lost"):
    seat: str
    amount: int
    morale: int
    reason: str


class ActionDiceRolled(Event, tag="action_dice_rolled"):
    """SMOKE-ACT-1 (level dice), SMOKE-ACT-3 (6s count toward the scenario phase)."""

    seat: str
    level: int
    faces: tuple[int, ...]
    ones: int
    sixes: int


class RiskTaken(Event, tag="risk_taken"):
    """SMOKE-ACT-2: the additional die; a 1 puts the commander out of action (SMOKE-RISK-2)."""

    seat: str
    face: int
    out: bool


class CommanderOut(Event, tag="commander_out"):
    """SMOKE-RISK-5/6 (the general: morale = level, a deputy one level lower, min 2) or
    SMOKE-CMDR-1c (an additional commander is removed from play)."""

    seat: str
    commander: str
    level: int
    new_level: int
    removed: bool


class DiePlaced(Event, tag="die_placed"):
    seat: str
    die: int
    face: int
    slot: str
    tactic: bool
    replaced: int | None = None


class PlacementEnded(Event, tag="placement_ended"):
    seat: str
    discarded: tuple[int, ...]


class FormationActivated(Event, tag="formation_activated"):
    seat: str
    slot: str
    die: int
    d: int
    commander: str
    units: tuple[str, ...]
    measure: dict[str, Any]
    simple_bonus: float = 0
    simple_only: bool = False


class UnitMoved(Event, tag="unit_moved"):
    """SMOKE-MOVE, SMOKE-GEO-17: the move as asked and as made, with every limit that applied."""

    unit: str
    kind: str
    start: Pose
    end: Pose
    requested: float
    distance: float
    limit: float
    measure: dict[str, Any]


class ActivationEnded(Event, tag="activation_ended"):
    seat: str


class CommanderRode(Event, tag="commander_rode"):
    seat: str
    commander: str
    slot: str
    die: int
    d: int
    start: tuple[float, float]
    end: tuple[float, float]
    distance: float
    limit: float


class CommanderRisked(Event, tag="commander_risked"):
    """SMOKE-RISK-3: enemy units touch the commander: d6, out on 1 (1-2 with cavalry)."""

    commander: str
    units: tuple[str, ...]
    cavalry: bool
    face: int
    out: bool


class CommanderDisplaced(Event, tag="commander_displaced"):
    """SMOKE-CMD-3/4/5, SMOKE-RISK-4, SMOKE-GEO-19."""

    commander: str
    start: tuple[float, float]
    end: tuple[float, float]
    reason: str
    nearest_free: bool = False


class ActionsEnded(Event, tag="actions_ended"):
    seat: str
    discarded: tuple[int, ...]


class FireContactMeasured(Event, tag="fire_contact_measured"):
    """SMOKE-MARK-1/3, SMOKE-LOF-3, SMOKE-GEO-15: who is in fire contact and not in a battle,
    and where the marker may go."""

    seat: str
    contacts: tuple[dict[str, Any], ...]
    eligible: tuple[str, ...]
    forbidden: tuple[str, ...]
    best: int
    points: tuple[tuple[float, float], ...]


class MarkerPlaced(Event, tag="marker_placed"):
    seat: str
    marker: str
    x: float
    y: float
    covers: tuple[str, ...]
    joins: tuple[str, ...]
    opponents: tuple[str, ...]


class MarkerRemoved(Event, tag="marker_removed"):
    marker: str
    reason: str


class BattleStarted(Event, tag="battle_started"):
    markers: tuple[str, ...]
    units: tuple[str, ...]
    price: int
    tactic_order: tuple[str, ...]


class TacticPlayed(Event, tag="tactic_played"):
    seat: str
    slot: str
    d: int
    units: tuple[str, ...] = ()
    target: str | None = None
    effect: dict[str, Any] = {}


class TacticsEnded(Event, tag="tactics_ended"):
    seat: str


class HitChoiceOffered(Event, tag="hit_choice_offered"):
    """SMOKE-HIT-3: the last round of hits reaches only ``count`` of the equally near units
    ``among``: their owner chooses (``distance``: their distance to the nearest enemy, UW)."""

    choice: HitChoice
    distance: float


class HitsChosen(Event, tag="hits_chosen"):
    """SMOKE-HIT-3: the owner's choice; ``ignored``: a fortified unit's ignored first hit (SMOKE-HIT-5)."""

    seat: str
    units: tuple[str, ...]
    ignored: tuple[str, ...] = ()


class BattleRolled(Event, tag="battle_rolled"):
    """SMOKE-RES, SMOKE-ADV, SMOKE-HIT: dice, results, hits and their allocation."""

    markers: tuple[str, ...]
    sides: dict[str, dict[str, Any]]
    hits: dict[str, int]
    allocation: dict[str, int]
    ignored: dict[str, int]
    order: dict[str, tuple[dict[str, Any], ...]]
    resolve_order: tuple[str, ...]


class DisciplineTested(Event, tag="discipline_tested"):
    """SMOKE-DISC-1/2/3: one d6 per remaining hit until the first failure."""

    unit: str
    seat: str
    hits: int
    tests: tuple[dict[str, Any], ...]
    modifiers: tuple[dict[str, Any], ...]
    passed: bool


class HitsResolved(Event, tag="hits_resolved"):
    unit: str
    retreated: bool


class BattleEnded(Event, tag="battle_ended"):
    """SMOKE-END: one side left (it wins; the loser pays the price), none left, or it goes on."""

    markers: tuple[str, ...]
    outcome: str  # "won" | "empty" | "continues"
    winner: str | None = None
    price: int = 0
    payer: str | None = None
    remaining: dict[str, tuple[str, ...]] = {}


class PhaseAdvanced(Event, tag="phase_advanced"):
    """SMOKE-PHASE-2: the side's 6s reached its number of players."""

    side: str
    phase: int
    sixes_left: int
    ending: bool = False


class SixesCounted(Event, tag="sixes_counted"):
    side: str
    sixes: int


class ArmyBroken(Event, tag="army_broken"):
    """SMOKE-MP-6: an army of a side with several armies reached 0 morale."""

    seat: str
    side: str


class SideSupported(Event, tag="side_supported"):
    side: str
    shares: dict[str, int]


class ArmyAbandoned(Event, tag="army_abandoned"):
    seat: str
    removed: tuple[str, ...]


class GameEnded(Event, tag="game_ended"):
    """SMOKE-VIC-2 (decisive), SMOKE-VIC-3 / GAP-B-09 (marginal or draw)."""

    kind: str
    winner: str | None
    rule: str
    detail: str
    fractions: dict[str, float] = {}


class DeploymentStarted(Event, tag="deployment_started"):
    """SMOKE-SETUP-3, SMOKE-DEP-2..6: the steps in order (stage, seat); columns first, in secret."""

    steps: tuple[tuple[str, str], ...]
    forts: dict[str, int] = {}


class ColumnsAssigned(Event, tag="columns_assigned"):
    """SMOKE-DEP-2: a seat's secret columns (only that seat sees them until they are revealed).

    ``salt`` is secret too: 124 bits drawn from the game's seed, so that the event's public hash
    (the log's hash chain covers the whole event) cannot be matched against guessed columns."""

    private: ClassVar[frozenset[str]] = frozenset({"columns", "salt"})
    seat: str
    count: int
    columns: tuple[tuple[str, ...], ...] = ()
    salt: str = ""


class FortificationPlaced(Event, tag="fortification_placed"):
    seat: str
    element: TerrainElement
    unit: str
    x: float
    y: float
    facing: float


class ColumnPlaced(Event, tag="column_placed"):
    seat: str
    number: int
    x: float
    y: float


class ColumnsRevealed(Event, tag="columns_revealed"):
    """SMOKE-DEP-3: which column each number is (each seat's secret until now: UMPIRE-REVEAL-1)."""

    reveals_hidden = True

    columns: dict[str, tuple[tuple[str, ...], ...]]


class UnitDeployed(Event, tag="unit_deployed"):
    seat: str
    unit: str
    x: float
    y: float
    facing: float
    measure: dict[str, Any] = {}


class CommanderDeployed(Event, tag="commander_deployed"):
    seat: str
    commander: str
    x: float
    y: float


class DeploymentStepDone(Event, tag="deployment_step_done"):
    stage: str
    seat: str


class DeploymentEnded(Event, tag="deployment_ended"):
    """SMOKE-DEP-4: the column markers are removed; the first turn begins."""


class TerrainGenerationStarted(Event, tag="terrain_generation_started"):
    chooser: str


class QuartersChosen(Event, tag="quarters_chosen"):
    """SMOKE-TGEN-2: each side's two diagonally opposite quarters, and the order they are filled."""

    quarters: dict[str, tuple[str, ...]]
    queue: tuple[tuple[str, str], ...]


class TerrainCountRolled(Event, tag="terrain_count_rolled"):
    """SMOKE-TGEN-2: D3 elements for a quarter."""

    seat: str
    quarter: str
    face: int
    count: int


class TerrainRolled(Event, tag="terrain_rolled"):
    """SMOKE-TGEN-3: 2d6 on the terrain table."""

    seat: str
    quarter: str
    faces: tuple[int, ...]
    total: int
    kinds: tuple[str, ...]


class TerrainPlaced(Event, tag="terrain_placed"):
    seat: str
    quarter: str
    element: TerrainElement


class TerrainScattered(Event, tag="terrain_scattered"):
    """SMOKE-TGEN-4: D3 UW in a random direction, removed on a 6."""

    element: str
    face: int
    distance: float
    angle: int
    removed: bool
    polygon: tuple[tuple[float, float], ...] = ()


class TerrainGenerationEnded(Event, tag="terrain_generation_ended"):
    pass


class EdgeChoiceOffered(Event, tag="edge_choice_offered"):
    """SMOKE-DEP-5, the "confusion" deployment: ``seat`` (the first player) chooses its table edge."""

    seat: str


class EdgesChosen(Event, tag="edges_chosen"):
    """SMOKE-DEP-5: each side's own table edge (the opponent's is the opposite one)."""

    seat: str
    edges: dict[str, str]


class ReinforcementsArrived(Event, tag="reinforcements_arrived"):
    """SMOKE-PHASE-1: reinforcements due by this phase enter the table; ``waiting``: those whose
    place is taken (by ``blocked_by``), which try again at their side's next turn (INFERRED)."""

    phase: int
    units: tuple[Unit, ...] = ()
    waiting: tuple[str, ...] = ()
    blocked_by: dict[str, str] = {}


SmokeEvent = (
    GameOpened | FirstSideRolled | FirstSideChosen | TurnStarted | StepStarted | BombardmentAimed
    | BombardmentRolled | LossTaken | RetreatRolled | UnitRetreated | UnitDestroyed | MoraleLost
    | ActionDiceRolled | RiskTaken | CommanderOut | DiePlaced | PlacementEnded | FormationActivated | UnitMoved
    | ActivationEnded | CommanderRode | CommanderRisked | CommanderDisplaced | ActionsEnded | FireContactMeasured
    | MarkerPlaced | MarkerRemoved | BattleStarted | TacticPlayed | TacticsEnded | BattleRolled
    | DisciplineTested | HitsResolved | BattleEnded | PhaseAdvanced | SixesCounted | ArmyBroken | SideSupported
    | ArmyAbandoned | GameEnded | DeploymentStarted | ColumnsAssigned | FortificationPlaced | ColumnPlaced
    | ColumnsRevealed | UnitDeployed | CommanderDeployed | DeploymentStepDone | DeploymentEnded
    | TerrainGenerationStarted | QuartersChosen | TerrainCountRolled | TerrainRolled | TerrainPlaced | TerrainScattered
    | TerrainGenerationEnded | EdgeChoiceOffered | EdgesChosen | ReinforcementsArrived | HitChoiceOffered | HitsChosen
)

__all__ = [n for n in dir() if n[0].isupper()] + ["Formation", "Arrival", "HitChoice"]
