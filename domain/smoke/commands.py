"""Commands a Clouds of Smoke seat may send (JSON ``type`` tag). Distances in UW, angles in degrees
counter-clockwise from the table's +x axis (east), positions in table coordinates (SMOKE-GEO-1)."""
from __future__ import annotations

from typing import Literal

from domain.kernel import Command


class ChooseFirst(Command, tag="choose_first"):
    """SMOKE-SETUP-4: the higher roll chooses which side plays first."""

    side: str


class Aim(Command, tag="aim"):
    """SMOKE-BOMB-3: one of your artillery units bombards the formation of ``target`` (any unit of it)."""

    unit: str
    target: str


class Bombard(Command, tag="bombard"):
    """SMOKE-BOMB-4/5: roll the bombardment of every aimed unit (none aimed: no bombardment this turn)."""


class TakeLoss(Command, tag="take_loss"):
    """SMOKE-BOMB-6: for one full 10 of the bombardment, lose 1 army morale (``unit`` null) or retreat
    ``unit`` (SMOKE-BOMB-7: the nearest eligible unit of its formation)."""

    unit: str | None = None


class Retreat(Command, tag="retreat"):
    """SMOKE-RET-3: the retreat direction, chosen after the distance is rolled (FAQ-18): straight
    toward your own table edge, or straight back from the unit's facing."""

    direction: Literal["edge", "back"]


class TakeRisk(Command, tag="take_risk"):
    """SMOKE-ACT-2: for one rolled 1, expose the commander and roll one additional action die."""


class PlaceDie(Command, tag="place_die"):
    """SMOKE-ACT-4: put action die ``die`` (its index in the roll) on action or tactic ``slot``."""

    die: int
    slot: str


class EndPlacement(Command, tag="end_placement"):
    """SMOKE-ACT-4: placement is over; dice not placed are discarded (INFERRED)."""


class Activate(Command, tag="activate"):
    """SMOKE-ACT-5/6: take die ``die`` from action ``slot`` and activate the formation of ``unit``
    within the radius of ``commander`` (SMOKE-CMDR-1b)."""

    slot: str
    die: int
    commander: str
    unit: str


class Move(Command, tag="move"):
    """SMOKE-MOVE-3/4, SMOKE-GEO-17. ``simple``: pivot to ``facing``, then go ``distance`` straight
    ahead. ``complex``: translate by ``vector`` [dx, dy] keeping the facing, then pivot to
    ``facing`` (omitted: keep it). ``via`` (complex, under SMOKE-CHOICE-COMPLEX-PATH "path" only): the
    points [dx, dy] from the start the centre passes through, in order, before it ends at ``vector``."""

    unit: str
    kind: Literal["simple", "complex"]
    facing: float | None = None
    distance: float | None = None
    vector: tuple[float, float] | None = None
    via: tuple[tuple[float, float], ...] | None = None


class EndActivation(Command, tag="end_activation"):
    """The activated units that have not moved stay where they are; the action is complete."""


class Ride(Command, tag="ride"):
    """SMOKE-CMD-2 via a ride action: take die ``die`` from ``slot`` and move ``commander`` to ``to``."""

    slot: str
    die: int
    commander: str
    to: tuple[float, float]


class EndActions(Command, tag="end_actions"):
    """SMOKE-ACT-10: clear the dice left on actions; the actions phase is over."""


class PlaceMarker(Command, tag="place_marker"):
    """SMOKE-MARK-1/3: the battle marker's centre, covering as many eligible units as possible."""

    at: tuple[float, float]


class Fight(Command, tag="fight"):
    """SMOKE-BAT-1: fight the battle of ``marker`` next (the active player chooses the order)."""

    marker: str


class PlayTactic(Command, tag="play_tactic"):
    """SMOKE-TAC-1: play the die on tactic ``slot`` in this battle, on ``units`` (up to the tactic's
    limit) or, for Providence, against the opponent's tactic ``target`` (its slot id)."""

    slot: str
    units: tuple[str, ...] = ()
    target: str | None = None


class EndTactics(Command, tag="end_tactics"):
    """SMOKE-BAT-2: no more tactics from this player in this battle."""


class AllocateHits(Command, tag="allocate_hits"):
    """SMOKE-HIT-3: which of your equally near units take the hits of the last round (exactly as many
    as the choice offers)."""

    units: tuple[str, ...]


class ResolveHits(Command, tag="resolve_hits"):
    """SMOKE-RET-1/2, SMOKE-DISC-1: resolve the hits on ``unit`` now, cancelling one by retreating or not."""

    unit: str
    retreat: bool


class Support(Command, tag="support"):
    """SMOKE-MP-6: the side of the broken army shares its remaining morale (Support) or the broken
    army leaves the game (Abandon)."""

    choice: Literal["support", "abandon"]


class AssignColumns(Command, tag="assign_columns"):
    """SMOKE-SETUP-3 / SMOKE-DEP-2: secretly split your army into columns numbered 1..n (n = your
    commander's level; a column may be empty)."""

    columns: tuple[tuple[str, ...], ...]


class PlaceFortification(Command, tag="place_fortification"):
    """SMOKE-DEP-6 / SMOKE-TERR-8: a fortification of a preparation, in your deployment zone, with
    ``unit`` inside it (centred, facing ``facing``)."""

    at: tuple[float, float]
    facing: float
    unit: str


class PlaceColumn(Command, tag="place_column"):
    """SMOKE-DEP-3: the marker of column ``column`` in your deployment zone."""

    column: int
    at: tuple[float, float]


class DeployUnit(Command, tag="deploy_unit"):
    """SMOKE-DEP-4: a unit, wholly within 2 UW of its column's marker (Scouts: or anywhere 3 UW from
    the enemy, SMOKE-SR-20)."""

    unit: str
    at: tuple[float, float]
    facing: float


class DeployCommander(Command, tag="deploy_commander"):
    """SMOKE-DEP-4: commanders may be placed anywhere (not on a unit)."""

    commander: str
    at: tuple[float, float]


class ChooseEdge(Command, tag="choose_edge"):
    """SMOKE-DEP-5, the "confusion" deployment: the first player's own table edge (the opponent gets
    the opposite one)."""

    edge: Literal["south", "north", "west", "east"]


class ChooseQuarters(Command, tag="choose_quarters"):
    """SMOKE-TGEN-2 (GAP-B-20): the first player picks its diagonal pair of table quarters
    ("sw_ne" or "nw_se"); the other side takes the other pair."""

    diagonal: Literal["sw_ne", "nw_se"]


class PlaceTerrain(Command, tag="place_terrain"):
    """SMOKE-TGEN-2/3: place the rolled element (``kind``, one the roll allows) with its centre in the
    quarter, turned by ``rotation`` degrees."""

    kind: str
    at: tuple[float, float]
    rotation: float = 0.0


SmokeCommand = (
    ChooseFirst | Aim | Bombard | TakeLoss | Retreat | TakeRisk | PlaceDie | EndPlacement | Activate | Move
    | EndActivation | Ride | EndActions | PlaceMarker | Fight | PlayTactic | EndTactics | ResolveHits | Support
    | AssignColumns | PlaceFortification | PlaceColumn | DeployUnit | DeployCommander | ChooseQuarters | PlaceTerrain
    | ChooseEdge | AllocateHits
)
