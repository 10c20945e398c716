"""The state of one Clouds of Smoke game (folded from events; never read from content files)."""
from __future__ import annotations

import threading
from typing import Any

import msgspec

from .content import Battle, Board, Profile, TerrainKind
from .geometry import Box
from .terrain import Terrain, terrain_of

# turn steps (SMOKE-TURN-2)
DEPLOY = "deploy"
BOMBARD = "bombard"
ACTIONS = "actions"
BATTLE_START = "battle_start"
BATTLES = "battles"


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    """A unit on the table: an oriented rectangle (SMOKE-GEO-2) of its player."""

    id: str
    seat: str
    profile: str
    x: float
    y: float
    facing: float
    w: float
    d: float

    def box(self) -> Box:
        """Its rectangle; the same Box for the same Unit object (remembered, bounded)."""
        hit = _BOXES.get(id(self))
        if hit is None or hit[0] is not self:
            hit = _boxed(self)
        return hit[1]

    def bbox(self) -> tuple[float, float, float, float]:
        """``self.box().bbox()``, remembered with the box."""
        hit = _BOXES.get(id(self))
        if hit is None or hit[0] is not self:
            hit = _boxed(self)
        return hit[2]


#: Unit object id -> (the unit, its box, the box's bounding box); see ``Unit.box``.
_BOXES: dict[int, tuple[Unit, Box, tuple[float, float, float, float]]] = {}
_BOXES_MAX = 8192


def _boxed(u: Unit) -> tuple[Unit, Box, tuple[float, float, float, float]]:
    b = Box(u.x, u.y, u.facing, u.w, u.d)
    if len(_BOXES) >= _BOXES_MAX:
        _BOXES.clear()
    hit = _BOXES[id(u)] = (u, b, b.bbox())  # the entry keeps the unit alive: its id is not reused while remembered
    return hit


class Commander(msgspec.Struct, frozen=True, kw_only=True):
    """A commander figure (SMOKE-GEO-16): the general, or an additional commander (SMOKE-CMDR-1)."""

    id: str
    seat: str
    x: float
    y: float
    general: bool = True


class Army(msgspec.Struct, frozen=True, kw_only=True):
    """One player's army: morale (SMOKE-VIC-1), its general's level (SMOKE-ARMY-3), tactic dice."""

    seat: str
    side: str
    army: str
    faction: str
    board: str
    morale: int
    start_morale: int
    level: int
    skill: str
    #: SMOKE-RISK-6: a deputy may no longer risk the commander for an extra die.
    can_risk: bool = True
    #: Dice lying on tactics: slot id -> D (SMOKE-ACT-4, SMOKE-ACT-10: they stay).
    tactics: dict[str, int] = {}
    strategic_rating: int = 0
    #: SMOKE-MP-6: the army left the game (Abandon), or its side was routed.
    out: bool = False
    #: The effects of its preparations (SMOKE-ARMY-5): "additional_commander", "fortification", ...
    preparations: tuple[str, ...] = ()


class Marker(msgspec.Struct, frozen=True, kw_only=True):
    """A battle marker (SMOKE-MARK): centre and price."""

    id: str
    x: float
    y: float
    price: int = 1


class Activation(msgspec.Struct, frozen=True, kw_only=True):
    """The action being resolved (SMOKE-ACT-5: finished before the next one starts)."""

    slot: str
    die: int
    d: int
    commander: str
    units: tuple[str, ...]
    moved: tuple[str, ...] = ()
    simple_bonus: float = 0
    simple_only: bool = False


class ActionStage(msgspec.Struct, frozen=True, kw_only=True):
    """One player's action dice (SMOKE-ACT): rolled, risked, placed, resolved."""

    seat: str
    stage: str  # "risk" | "place" | "resolve"
    #: Faces by die index (the risk dice of SMOKE-ACT-2 are appended).
    dice: tuple[int, ...]
    #: Die indices no longer in hand (placed on the board or discarded).
    used: tuple[int, ...] = ()
    #: SMOKE-ACT-2: 1s of the roll not yet used for a risk.
    risk_left: int = 0
    #: Dice on actions: slot id -> die indices (SMOKE-ACT-4).
    placed: dict[str, tuple[int, ...]] = {}
    activation: Activation | None = None


class RetreatPending(msgspec.Struct, frozen=True, kw_only=True):
    """A retreat whose distance is rolled and whose direction its owner now picks (SMOKE-RET-3, FAQ-18)."""

    unit: str
    distance: float
    context: str  # "battle" | "bombardment"


class Formation(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    units: tuple[str, ...]
    artillery: tuple[str, ...] = ()
    retreated: tuple[str, ...] = ()


class Losses(msgspec.Struct, frozen=True, kw_only=True):
    """A targeted player's bombardment losses still to take (SMOKE-BOMB-6/7)."""

    seat: str
    left: int
    formations: tuple[Formation, ...]
    retreated: tuple[str, ...] = ()


class PlayedTactic(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    slot: str
    d: int
    units: tuple[str, ...] = ()
    target: str | None = None
    cancelled: bool = False


class HitChoice(msgspec.Struct, frozen=True, kw_only=True):
    """SMOKE-HIT-3: ``count`` more hits of this round go to units of ``among``, equally near the
    enemy; their owner ``seat`` chooses which."""

    side: str
    seat: str
    among: tuple[str, ...]
    count: int


class BattleCtx(msgspec.Struct, frozen=True, kw_only=True):
    """The battle being fought (SMOKE-BAT-2 steps)."""

    markers: tuple[str, ...]
    step: str  # "tactics" | "resolve"
    #: Seats in the order they play tactics (active side first, SMOKE-BAT-2) and who has ended.
    tactic_order: tuple[str, ...] = ()
    tactics_done: tuple[str, ...] = ()
    played: tuple[PlayedTactic, ...] = ()
    #: Hits still to resolve per unit (SMOKE-HIT), and the seats in resolution order (SMOKE-RET-1).
    hits: dict[str, int] = {}
    resolve_order: tuple[str, ...] = ()
    retreat: RetreatPending | None = None
    #: The units in the battle when it started (who pays its price, SMOKE-END-2).
    units: tuple[str, ...] = ()
    #: SMOKE-HIT-3: allocations waiting for their owner's choice (the active side's first), and the
    #: hits every unit surely received before them.
    choices: tuple[HitChoice, ...] = ()
    allocated: dict[str, int] = {}


class TurnState(msgspec.Struct, frozen=True, kw_only=True):
    side: str
    players: tuple[str, ...]
    step: str
    #: The player of the active side now bombarding / acting / placing a marker (GAP-B-16).
    player: int = 0
    aims: dict[str, str] = {}
    #: The current player has rolled its bombardment (SMOKE-BOMB-4/5).
    fired: bool = False
    losses: tuple[Losses, ...] = ()
    bombard_retreat: RetreatPending | None = None
    actions: ActionStage | None = None
    #: SMOKE-ACT-6: units activated this turn; SMOKE-SR-18: units that moved / bombarded this turn.
    activated: tuple[str, ...] = ()
    moved: tuple[str, ...] = ()
    bombarded: tuple[str, ...] = ()
    #: SMOKE-MARK-1 / GAP-B-16: the marker placement offered to the current player.
    marker_offer: "MarkerOffer | None" = None
    #: SMOKE-MP-4: seat -> the opponents whose units its marker included this turn.
    marked: dict[str, tuple[str, ...]] = {}
    #: Markers whose battle was fought this turn (SMOKE-BAT-1: each battle once).
    fought: tuple[str, ...] = ()
    battle: BattleCtx | None = None
    #: SMOKE-HIT-5: units whose fortification has ignored its hit this turn.
    fort_used: tuple[str, ...] = ()


class MarkerOffer(msgspec.Struct, frozen=True, kw_only=True):
    """Where the current player may put the battle marker (SMOKE-MARK-3, SMOKE-GEO-15)."""

    seat: str
    eligible: tuple[str, ...]
    #: Units of these seats may not be included (SMOKE-MP-4).
    forbidden: tuple[str, ...] = ()
    best: int
    points: tuple[tuple[float, float], ...]


class ColumnMarker(msgspec.Struct, frozen=True, kw_only=True):
    """A numbered column marker (SMOKE-DEP-3)."""

    seat: str
    number: int
    x: float
    y: float


class Deployment(msgspec.Struct, frozen=True, kw_only=True):
    """A column deployment in progress (SMOKE-SETUP-3, SMOKE-DEP-2..6).

    ``steps`` is the order of the deployment steps ((stage, seat), DEP-6); ``columns`` each seat's
    secret columns (unit ids by column number, SMOKE-DEP-2), shown to others only once revealed.
    """

    steps: tuple[tuple[str, str], ...]
    step: int = 0
    columns: dict[str, tuple[tuple[str, ...], ...]] = {}
    revealed: tuple[str, ...] = ()
    markers: tuple[ColumnMarker, ...] = ()
    #: fortifications each seat still places (SMOKE-DEP-6, SMOKE-TERR-8).
    forts: dict[str, int] = {}


class TerrainGen(msgspec.Struct, frozen=True, kw_only=True):
    """Terrain generation in progress (SMOKE-TGEN-2..4)."""

    chooser: str
    chosen: bool = False
    #: (seat, quarter) to fill, in order (the first is being filled); quarters are "sw", "se", "nw", "ne".
    queue: tuple[tuple[str, str], ...] = ()
    #: elements still to roll for in the current quarter (-1: its D3 is not rolled yet)
    left: int = -1
    #: the kinds the current 2d6 allows (the placing player picks one), or ()
    options: tuple[str, ...] = ()
    placed: tuple[str, ...] = ()


class Arrival(msgspec.Struct, frozen=True, kw_only=True):
    """A unit that enters the table in scenario phase ``phase`` (SMOKE-PHASE-1, reinforcements)."""

    phase: int
    unit: Unit


class Result(msgspec.Struct, frozen=True, kw_only=True):
    kind: str  # "decisive" | "marginal" | "draw"
    winner: str | None
    rule: str
    detail: str = ""


class SmokeState(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    battle_id: str
    seats: tuple[str, ...]
    options: dict[str, Any] = {}
    #: The rule choices in force (DESIGN 14, domain/smoke/choices.py), every one filled in.
    choices: dict[str, str] = {}
    opened: bool = False
    battle: Battle | None = None
    kinds: tuple[TerrainKind, ...] = ()
    profiles: dict[str, Profile] = {}
    boards: dict[str, Board] = {}
    sides: dict[str, tuple[str, ...]] = {}
    armies: dict[str, Army] = {}
    units: dict[str, Unit] = {}
    commanders: dict[str, Commander] = {}
    markers: dict[str, Marker] = {}
    marker_seq: int = 0
    #: SMOKE-PHASE: the scenario phase and each side's 6s not yet counted.
    phase: int = 1
    sixes: dict[str, int] = {}
    #: The last phase has ended: the game ends with this turn (GAP-B-09).
    ending: bool = False
    #: SMOKE-MP-6: sides that chose Support (their next broken army routs the side).
    supported: tuple[str, ...] = ()
    #: SMOKE-MP-6: an army at 0 whose side must choose Support or Abandon.
    broken: str | None = None
    #: SMOKE-SETUP-4: the seat that chooses which side goes first.
    chooser: str | None = None
    side_order: tuple[str, ...] = ()
    turn_no: int = 0
    turn: TurnState | None = None
    result: Result | None = None
    #: Units destroyed so far (for the picture and summaries).
    destroyed: tuple[str, ...] = ()
    #: A column deployment: units and commanders not on the table yet, and its progress.
    reserve: dict[str, Unit] = {}
    reserve_commanders: dict[str, Commander] = {}
    deployment: Deployment | None = None
    generation: TerrainGen | None = None
    #: SMOKE-PHASE-1: reinforcements still to arrive.
    arrivals: tuple[Arrival, ...] = ()
    #: SMOKE-DEP-5 "confusion": the own table edge of each side once chosen, and who chooses it now.
    edges: dict[str, str] = {}
    edge_chooser: str | None = None

    # -- helpers ---------------------------------------------------------------------
    def terrain(self) -> Terrain:
        assert self.battle is not None
        return terrain_of(self.battle.terrain, self.kinds)

    def side_of(self, seat: str) -> str:
        return self.armies[seat].side

    def profile(self, unit: Unit | str) -> Profile:
        u = self.units[unit] if isinstance(unit, str) else unit
        return self.profiles[u.profile]

    def enemies_of(self, seat: str) -> list[Unit]:
        side = self.armies[seat].side
        return [u for u in self.units.values() if self.armies[u.seat].side != side]

    def friends_of(self, seat: str) -> list[Unit]:
        side = self.armies[seat].side
        return [u for u in self.units.values() if self.armies[u.seat].side == side]

    def enemy(self, a: Unit, b: Unit) -> bool:
        return self.armies[a.seat].side != self.armies[b.seat].side

    def board_of(self, seat: str) -> Board:
        return self.boards[self.armies[seat].board]

    def active_side(self) -> str | None:
        return self.turn.side if self.turn else None

    def passive_sides(self) -> list[str]:
        a = self.active_side()
        return [s for s in self.sides if s != a]

    def seats_of_side(self, side: str) -> tuple[str, ...]:
        return tuple(s for s in self.sides.get(side, ()) if not self.armies[s].out)

    def general(self, seat: str) -> Commander | None:
        for c in self.commanders.values():
            if c.seat == seat and c.general:
                return c
        return None


# -- derived values, remembered per table layout ---------------------------------------------
_MEMO: dict[tuple, tuple[object, Any]] = {}
_MEMO_LOCK = threading.Lock()
_MEMO_MAX = 4096


def memo(state: SmokeState, name: str, fn: Any, *extra: Any) -> Any:
    """``fn()`` remembered for this layout of units (``state.units`` is a new dict whenever a unit
    moves, appears or goes; the memo keeps a reference to it, so its id is never reused while
    remembered)."""
    key = (name, id(state.units), extra)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is state.units:
        return hit[1]
    value = fn()
    with _MEMO_LOCK:
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        _MEMO[key] = (state.units, value)
    return value


def remembered(state: SmokeState, name: str, *extra: Any) -> Any:
    """What ``memo(state, name, fn, *extra)`` holds for this layout, or None when nothing is held (fn not run)."""
    hit = _MEMO.get((name, id(state.units), extra))
    if hit is not None and hit[0] is state.units:
        return hit[1]
    return None
