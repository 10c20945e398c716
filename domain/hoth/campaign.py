"""Battle of Hoth campaigns: the campaign graph (content) and the campaign aggregate.

Rules: battle-of-hoth-content.md 3.1 (SOURCE: the shared campaign rules page)
and 5.5 (PROPOSED stand-in graphs). A campaign is a graph of battles: each
node names a scenario; when its battle ends, the winner's outcome names the
next node (or ends the campaign with a winner) and the effects both sides
carry into the next battle: leader cards for that battle only, support cards
drawn into a hand kept from battle to battle, units added to or removed from
the next setup. Secret objectives are visible only to their own seat until
they are met; their reward is immediate.

The first half of this module is the content contract (the loader in
``scenarios/hoth`` validates campaign files into :class:`Campaign`); the
second half is the aggregate, a pure decider-like module: ``decide`` turns
a campaign command into events, ``evolve`` folds them. No I/O, no clock; the
support-card draws come from a :class:`~domain.kernel.dice.Dice` so that
they are recorded in the events that made them.
"""
from __future__ import annotations

from typing import Literal

import msgspec

from .scenario import Badge, ContentStatus, Faction, Hex, UnitType

#: Leaders by faction (HOTH-LEADER-1).
LEADERS: dict[str, tuple[str, ...]] = {
    "imperial": ("vader", "veers", "piett"),
    "rebel": ("leia", "luke", "han"),
}


# -- carried effects (content 3.4 effect types) -----------------------------------------

class AddLeader(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="add_leader"):
    """``faction`` adds ``leader``'s 3 cards to its deck for the next battle only (content 3.1)."""

    faction: Faction
    leader: str


class DrawSupport(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="draw_support"):
    """``faction`` draws ``count`` support cards from its own support deck into its kept hand (content 3.1)."""

    faction: Faction
    count: int = 1


class AddUnit(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="add_unit"):
    """The next battle's setup gains a unit of ``faction`` at ``hex`` (board id ``[x, r]``)."""

    faction: Faction
    unit: UnitType
    hex: Hex
    badge: Badge | None = None


class RemoveUnit(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="remove_unit"):
    """The next battle's setup loses the unit of ``faction`` and type ``unit`` at ``hex``."""

    faction: Faction
    unit: UnitType
    hex: Hex


CarriedEffect = AddLeader | DrawSupport | AddUnit | RemoveUnit


# -- secret objectives (content 3.1 rule 5; 5.5 PROPOSED ones) ---------------------------

class EnemyUnitDestroyed(msgspec.Struct, frozen=True, kw_only=True, tag_field="condition",
                         tag="enemy_unit_destroyed"):
    """Met when at least ``count`` enemy units of type ``unit`` were destroyed in the battle."""

    unit: UnitType
    count: int = 1


class HexFreeOfEnemy(msgspec.Struct, frozen=True, kw_only=True, tag_field="condition", tag="hex_free_of_enemy"):
    """Met when no enemy unit stands on ``hex`` at the end of the battle."""

    hex: Hex


SecretCondition = EnemyUnitDestroyed | HexFreeOfEnemy


class SecretObjective(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    faction: Faction
    title: str
    #: What the owner reads (never shown to the other seat until met).
    text: str = ""
    condition: SecretCondition
    #: Applied at once when met (content 5.5: "the reward is immediate").
    reward: tuple[CarriedEffect, ...] = ()
    status: ContentStatus = "proposed"


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """What the winner reads aloud (content 3.1 rule 3)."""

    #: Next node id; None ends the campaign.
    next: str | None = None
    #: Campaign winner when the campaign ends here.
    campaign_winner: Faction | None = None
    text: str = ""
    effects: tuple[CarriedEffect, ...] = ()


class Node(msgspec.Struct, frozen=True, kw_only=True):
    scenario: str
    title: str = ""
    #: Private commander instructions per faction (content 3.1 rule 4).
    briefing: dict[Faction, str] = {}
    secret_objectives: tuple[SecretObjective, ...] = ()
    #: Keyed by the battle's winner: "imperial" / "rebel".
    outcomes: dict[Faction, Outcome]


class Campaign(msgspec.Struct, frozen=True, kw_only=True):
    id: str  # "CMP-<N>-<NAME>"
    title: str
    status: ContentStatus = "proposed"
    notes: str = ""
    start: str
    nodes: dict[str, Node]


__all__ = [
    "LEADERS", "AddLeader", "DrawSupport", "AddUnit", "RemoveUnit", "CarriedEffect", "EnemyUnitDestroyed",
    "HexFreeOfEnemy", "SecretCondition", "SecretObjective", "Outcome", "Node", "Campaign",
]
