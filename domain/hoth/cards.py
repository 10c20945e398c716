"""Card data types for Battle of Hoth: the CONTRACT between the rules engine
(``domain/hoth``) and the content files (``scenarios/hoth``).

The content loader validates card files INTO :class:`Card`
(``msgspec.convert(data, Card)``); the engine reads nothing else. This module
only grows additively: new effect kinds and fields with defaults, nothing
renamed or removed.

A card is a list of ``effects``, each one member of the tagged union
:data:`Effect` (JSON field ``"effect"`` names the kind); a support card's
``conditions`` are members of :data:`Condition` (JSON field ``"condition"``). The vocabulary is
able to express every card of ``battle-of-hoth-content.md`` sections 4-5:

* ``order``: who may be ordered (HOTH-CARD-3, HOTH-ORDER-*): one or more
  :class:`OrderGroup` s, each a count of units in named sections (from the
  card owner's seat, HOTH-BOARD-3 / HOTH-GAP-33), of given unit classes or
  types, anywhere when ``sections`` is empty, "any ONE of these sections" with
  ``same_section``, and the "order 1 unit of your choice" fallback
  (``fallback``, HOTH-CARD-5 / HOTH-GAP-24: a unit ordered that way gets no
  bonus of the card).
* bonuses for the units the card ordered (not fallback ones): ``extra_dice``
  (HOTH-CARD-7, HOTH-MOD-6; ``same_target`` for Focus Fire),
  ``convert_result`` (e.g. retreat counts as explosion, HOTH-CARD-7),
  ``move_bonus`` / ``move_allowance``, ``reroll``, ``ignore_retreat``,
  ``no_terrain_retreat_ignore``, ``structure_hit_symbols``, ``special_attack``.
* card actions: ``discard_and_draw`` (Deploy the Fleet!, HOTH-TEAM-13),
  ``draw_then_discard``, ``arrange_top``, ``place_unit``, ``copy_opponent_card``
  (Counter-Attack), ``peek_hand``, ``bombard``, ``heal``, ``treat_as_terrain``,
  ``ignore_all_retreats``, ``enemy_dice_penalty``.

Ids are unique across the ruleset's content and faction-prefixed
(``EMP-``/``REB-``/``PROP-EMP-``/``PROP-REB-``/``SUP-``/``PROP-SUP-EMP-`` ...).
``text`` is the card's effect in our own words. ``kind`` "leader" cards are
tactic cards (HOTH-CARD-6); "support" cards are played in addition to the
command card, at most one per turn (content 3.1).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import msgspec

from .scenario import ContentStatus, Faction, StructureKind, Symbol, Terrain, UnitType

CardKind = Literal["section", "tactic", "leader", "support"]
Section = Literal["left", "centre", "right"]
#: Unit classes a card may name (HOTH-GLOSS-3): types and the subtypes that matter.
UnitClass = Literal["infantry", "vehicle", "special", "flying", "droid", "artillery"]
Duration = Literal["this_turn", "until_your_next_turn"]


class OrderGroup(msgspec.Struct, frozen=True, kw_only=True):
    """Up to ``count`` units (HOTH-ORDER-6: fewer is allowed)."""

    count: int
    #: Sections from the owner's seat; empty: anywhere on the board.
    sections: tuple[Section, ...] = ()
    #: All units of this group must stand in ONE of ``sections`` (e.g. "3 units in any one section").
    same_section: bool = False
    #: Allowed unit classes / unit types; both empty: any unit.
    unit_classes: tuple[UnitClass, ...] = ()
    unit_types: tuple[UnitType, ...] = ()
    #: HOTH-CARD-5: if the player has no unit this group could order, order 1 unit of
    #: their choice anywhere instead, with none of the card's bonuses.
    fallback: bool = False
    #: Do the card's bonuses apply to units of this group (False for a plain order)?
    bonus: bool = True


class Order(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="order"):
    groups: tuple[OrderGroup, ...]


class ExtraDice(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="extra_dice"):
    """Ordered units roll ``dice`` more per attack (HOTH-MOD-6)."""

    dice: int = 1
    #: Focus Fire: only when two units ordered by this card attack the same target.
    same_target: bool = False


class ConvertResult(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="convert_result"):
    """Each ``from_symbol`` the ordered units roll counts as ``to_symbol`` (HOTH-CARD-7)."""

    from_symbol: Symbol
    to_symbol: Symbol
    #: Also in an AT-AT confirmation roll (content 4.4 suggested ruling: yes).
    in_confirmation: bool = True


class MoveBonus(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="move_bonus"):
    """Ordered units may move ``extra`` hexes beyond their normal allowance."""

    extra: int = 1
    may_attack: bool = True
    #: Every step of the extra movement must go towards the own baseline.
    towards_baseline: bool = False


class MoveAllowance(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="move_allowance"):
    """Ordered units may move up to ``hexes`` and still attack (terrain stops still apply)."""

    hexes: int
    may_attack: bool = True


class Reroll(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="reroll"):
    """Once per attack, re-roll dice: ``any`` number of them, or all ``miss`` results."""

    which: Literal["any", "miss"] = "any"


class IgnoreRetreat(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="ignore_retreat"):
    """Ordered units may ignore ``count`` retreat results while the effect lasts."""

    count: int = 1
    duration: Duration = "until_your_next_turn"


class NoTerrainRetreatIgnore(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="no_terrain_retreat_ignore"):
    """Targets of the ordered units cannot use terrain to ignore retreats (HOTH-TERRAIN-TRENCH-3)."""


class StructureHitSymbols(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="structure_hit_symbols"):
    """Attacks on structures by the ordered units also succeed on these symbols."""

    symbols: tuple[Symbol, ...]


class SpecialAttack(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="special_attack"):
    """An attack made in a particular way (e.g. Tow Cables)."""

    dice: int
    target_unit_types: tuple[UnitType, ...] = ()
    adjacent_only: bool = True
    #: Symbols that destroy the target outright, skipping the AT-AT confirmation roll.
    destroys_on: tuple[Symbol, ...] = ()
    no_confirmation: bool = False


class DiscardAndDraw(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="discard_and_draw"):
    """Discard up to ``max_discard`` command cards, draw that many + ``extra``."""

    max_discard: int = 3
    extra: int = 1
    #: The draw replaces the normal end-of-turn draw (HOTH-DRAW-1).
    replaces_turn_draw: bool = True
    #: Team play: the teammate then discards up to this many and draws as many (HOTH-TEAM-13).
    teammate_max_discard: int = 3


class DrawThenDiscard(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="draw_then_discard"):
    draw: int = 1
    discard: int = 1


class ArrangeTop(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="arrange_top"):
    """Look at the top ``count`` cards of the own deck and put them back in any order."""

    count: int = 3


class PlaceUnit(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="place_unit"):
    """Place a new unit on an empty hex of the own baseline (if figures are available)."""

    unit: UnitType
    where: Literal["own_baseline"] = "own_baseline"


class CopyOpponentCard(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="copy_opponent_card"):
    """Play as a copy of the card the opponent played last turn; sections keep their board area."""


class PeekHand(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="peek_hand"):
    """Look at ``count`` cards chosen at random from the opponent's hand."""

    count: int = 2


class Bombard(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="bombard"):
    """Roll ``dice`` against one enemy unit, ignoring range and line of sight."""

    dice: int
    target_unit_types: tuple[UnitType, ...] = ()
    terrain_protection: bool = True
    confirmation: bool = True


class Heal(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="heal"):
    """Return figures to a damaged unit (never above its starting size)."""

    figures: int = 1
    unit_classes: tuple[UnitClass, ...] = ("infantry",)
    not_adjacent_to_enemy: bool = True


class TreatAsTerrain(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="treat_as_terrain"):
    """One own unit of these classes counts as standing in ``terrain``."""

    terrain: Terrain
    unit_classes: tuple[UnitClass, ...] = ("infantry",)
    duration: Duration = "until_your_next_turn"


class IgnoreAllRetreats(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="ignore_all_retreats"):
    """Ignore all retreat results of one attack against an own unit."""


class EnemyDicePenalty(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="enemy_dice_penalty"):
    """The declared enemy attack on an own unit rolls ``dice`` fewer."""

    dice: int = 1


Effect = (
    Order | ExtraDice | ConvertResult | MoveBonus | MoveAllowance | Reroll | IgnoreRetreat
    | NoTerrainRetreatIgnore | StructureHitSymbols | SpecialAttack | DiscardAndDraw | DrawThenDiscard
    | ArrangeTop | PlaceUnit | CopyOpponentCard | PeekHand | Bombard | Heal | TreatAsTerrain
    | IgnoreAllRetreats | EnemyDicePenalty
)


# -- support-card play conditions (content 3.1, 5.3) ---------------------------------

class OwnUnitsLost(msgspec.Struct, frozen=True, kw_only=True, tag_field="condition", tag="own_units_lost"):
    """At least ``count`` own units have been destroyed this battle."""

    count: int = 1


class NoStructure(msgspec.Struct, frozen=True, kw_only=True, tag_field="condition", tag="no_structure"):
    """No structure of ``kind`` is on the board."""

    kind: StructureKind


class FewerUnits(msgspec.Struct, frozen=True, kw_only=True, tag_field="condition", tag="fewer_units"):
    """Fewer than ``count`` own units of ``unit`` are on the board."""

    unit: UnitType
    count: int


class DamagedUnit(msgspec.Struct, frozen=True, kw_only=True, tag_field="condition", tag="damaged_unit"):
    """An own unit of these classes is missing figures (and, if set, is not next to an enemy)."""

    unit_classes: tuple[UnitClass, ...] = ("infantry",)
    not_adjacent_to_enemy: bool = True


Condition = OwnUnitsLost | NoStructure | FewerUnits | DamagedUnit

#: When a support card may be played.
Timing = Literal["start_of_turn", "own_turn", "on_own_attack", "on_own_retreat", "on_enemy_attack"]


class Card(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    faction: Faction
    kind: CardKind
    status: ContentStatus = "source"
    title: str
    #: The effect in our own words.
    text: str = ""
    effects: tuple[Effect, ...] = ()
    #: Leader cards: "vader", "veers", "piett", "leia", "luke", "han" (HOTH-LEADER-1).
    leader: str | None = None
    #: Physical copies in the deck.
    copies: int = 1
    #: Print code, e.g. "E105".
    code: str | None = None
    #: Support cards only.
    timing: Timing | None = None
    conditions: tuple[Condition, ...] = ()


class CardSet(msgspec.Struct, frozen=True, kw_only=True):
    """A faction's standard command deck (HOTH-SETUP-9): card ids, copies expanded by ``Card.copies``."""

    faction: Faction
    cards: tuple[str, ...]


def title_of(cards: "Mapping[str, Card] | None", cid: str) -> str:
    """A card as a sentence names it: its printed title (the id only when ``cards`` does not know it)."""
    c = (cards or {}).get(cid)
    return c.title if c is not None else cid


__all__ = [
    "title_of", "CardKind", "Section", "UnitClass", "Duration", "OrderGroup", "Order", "ExtraDice", "ConvertResult",
    "MoveBonus", "MoveAllowance", "Reroll", "IgnoreRetreat", "NoTerrainRetreatIgnore", "StructureHitSymbols",
    "SpecialAttack", "DiscardAndDraw", "DrawThenDiscard", "ArrangeTop", "PlaceUnit", "CopyOpponentCard",
    "PeekHand", "Bombard", "Heal", "TreatAsTerrain", "IgnoreAllRetreats", "EnemyDicePenalty", "Effect",
    "OwnUnitsLost", "NoStructure", "FewerUnits", "DamagedUnit", "Condition", "Timing", "Card", "CardSet",
]
