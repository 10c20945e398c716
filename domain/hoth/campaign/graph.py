"""The campaign graph, the content contract of a Battle of Hoth campaign (battle-of-hoth-content.md 3.1,
3.4; 5.5 PROPOSED stand-in graphs): nodes naming scenarios, the outcomes the winner reads aloud, the effects
carried into the next battle, and the secret objectives. The loader in ``scenarios/hoth`` validates campaign
files into :class:`Campaign`."""
from __future__ import annotations

import msgspec

from ..scenario import Badge, ContentStatus, Faction, Hex, UnitType

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
