"""The state of one Battle of Hoth game (folded from events; never read from content files)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from .cards import Card
from .scenario import Hex, Scenario, TerrainTile

PLAY, ORDER, MOVE, ATTACK = "play", "order", "move", "attack"


class UnitState(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    faction: str
    unit: str
    hex: Hex
    figures: int
    start: int
    badge: str | None = None
    #: E-Web token side (HOTH-SPECIAL-EWEB-1/2): True = "Set".
    eweb_set: bool = True


class StructureState(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    kind: str
    hex: Hex
    destroyed: bool = False


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """One order group of the played card, as resolved on the board (HOTH-ORDER-*)."""

    count: int
    sections: tuple[str, ...] = ()
    same_section: bool = False
    unit_classes: tuple[str, ...] = ()
    unit_types: tuple[str, ...] = ()
    bonus: bool = True
    #: True when HOTH-CARD-5 turned this group into "1 unit of your choice".
    fallback: bool = False


class Ordered(msgspec.Struct, frozen=True, kw_only=True):
    unit: str
    slot: int
    bonus: bool


class TurnState(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    faction: str
    phase: str = PLAY
    card: str | None = None
    #: The card whose effects apply (differs from ``card`` for Counter-Attack).
    effects_card: str | None = None
    #: Mirror sections (a copied opponent card keeps its board area).
    mirrored: bool = False
    slots: tuple[Slot, ...] = ()
    ordered: tuple[Ordered, ...] = ()
    moved: dict[str, int] = {}
    #: Units that entered rocks or buildings this turn (HOTH-MOVE-10).
    stopped: tuple[str, ...] = ()
    attacked: tuple[str, ...] = ()
    #: unit -> target id of its attacks this turn (Focus Fire).
    targets: dict[str, str] = {}
    breakthroughs: tuple[str, ...] = ()
    #: The normal end-of-turn draw was replaced by a card (Deploy the Fleet!).
    draw_replaced: bool = False


class AttackCtx(msgspec.Struct, frozen=True, kw_only=True):
    attacker: str
    target: str
    structure: bool = False
    distance: int
    faces: tuple[str, ...]
    bonus: bool = False
    breakthrough: bool = False
    rerolled: bool = False
    special: bool = False


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """A decision that must be made before play goes on, and the seat that makes it."""

    kind: str  # reroll | trench | retreat | breakthrough | breakthrough_attack | discard
    seat: str
    unit: str | None = None
    steps: int = 0
    options: tuple[tuple[Hex, ...], ...] = ()
    which: str = "any"
    vacated: Hex | None = None
    max: int = 0
    #: place_unit: the unit type to place; arrange: the cards seen.
    unit_type: str | None = None
    cards: tuple[str, ...] = ()


class LastAttack(msgspec.Struct, frozen=True, kw_only=True):
    attacker: Hex
    target: Hex
    blocked: bool = False
    examined: tuple[Hex, ...] = ()
    faces: tuple[str, ...] = ()


class Lasting(msgspec.Struct, frozen=True, kw_only=True):
    """An effect that lasts beyond the turn (e.g. ignore 1 retreat until your next turn)."""

    unit: str
    effect: str
    count: int = 1
    until_seat: str = ""


class HothState(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    scenario_id: str
    seats: tuple[str, ...]
    options: dict[str, Any] = {}
    #: The rule choices in force (DESIGN 14, domain/hoth/choices.py), every one filled in.
    choices: dict[str, str] = {}
    opened: bool = False
    scenario: Scenario | None = None
    cards: dict[str, Card] = {}
    units: dict[str, UnitState] = {}
    structures: dict[str, StructureState] = {}
    medals: dict[str, int] = {}
    #: Temporary objectives held now, permanent objectives captured (HOTH-OBJ-*).
    held: tuple[str, ...] = ()
    captured: tuple[str, ...] = ()
    hands: dict[str, tuple[str, ...]] = {}
    decks: dict[str, tuple[str, ...]] = {}
    discards: dict[str, tuple[str, ...]] = {}
    turn_order: tuple[str, ...] = ()
    turn_index: int = 0
    turn_no: int = 0
    turn: TurnState | None = None
    pending: Pending | None = None
    attack: AttackCtx | None = None
    last_attack: LastAttack | None = None
    #: Last command card each faction played (Counter-Attack).
    last_card: dict[str, str] = {}
    lost_units: dict[str, int] = {}
    lasting: tuple[Lasting, ...] = ()
    #: Support cards held per faction (content 3.1; dealt from the campaign), and the turn each was last used.
    support: dict[str, tuple[str, ...]] = {}
    support_turn: dict[str, int] = {}
    winner: str | None = None
    win_reason: str | None = None


def faction_of(seat: str) -> str:
    return seat.split("-", 1)[0]


#: Pending decisions whose offered cards are a side's support cards (content 5.3 windows), by kind and which:
#: the timing of the cards they offer.
SUPPORT_WINDOWS = {("support", "on_enemy_attack"): "on_enemy_attack", ("support", "on_own_retreat"): "on_own_retreat",
                   ("reroll", "support"): "on_own_attack"}


def support_cards_for(state: HothState, faction: str, timing: str) -> tuple[str, ...]:
    """The support cards ``faction`` holds with this reactive ``timing`` (content 5.3), once each."""
    return tuple(dict.fromkeys(cid for cid in state.support.get(faction, ())
                               if state.cards.get(cid) is not None and state.cards[cid].timing == timing))


@lru_cache(maxsize=64)
def terrain_map(tiles: tuple[TerrainTile, ...]) -> dict[Hex, str]:
    return {tuple(t.hex): t.terrain for t in tiles}  # type: ignore[misc]


def terrain_at(state: HothState, h: Hex) -> str | None:
    assert state.scenario is not None
    return terrain_map(state.scenario.terrain).get(h)


def occupancy(state: HothState) -> dict[Hex, str]:
    return {u.hex: u.id for u in state.units.values()}


def structure_hexes(state: HothState) -> dict[Hex, str]:
    return {s.hex: s.id for s in state.structures.values() if not s.destroyed}
