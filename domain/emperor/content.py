"""The content contract of the Emperor ruleset: what ``scenarios/emperor`` hands in (as data).

Everything the base game of section 6 leaves to components is data here, so the PROPOSED model can
be replaced by the real Battlecrest components without touching the rules code: battlefields
(BASE-GRID, BASE-LOC, BASE-HAZ), heroes and helpers (BASE-WAR), action cards (BASE-CARD), hero star
abilities (BASE-STAR), solo cards (SOLO-MOVE-3, SOLO-STAR-1, SOLO-FALL-1, BASE-SOLO), order decks
(SOLO-ORD-1, BASE-ORD-1) and setups (BASE-SETUP-1). The domain never reads files: the registry hands
``scenarios.emperor.load_content`` to the ruleset (domain/kernel/registry.py).
"""
from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel.messages import Message, msg, text_of

#: Content provenance (rules README): stated by the seed, INFERRED, or PROPOSED.
Status = Literal["seed", "inferred", "proposed"]
Crest = Literal["SUN", "MOON"]
Symbol = Literal["MOVE", "PUSH", "ATTACK", "DEFENSE", "RANGE"]
RangeSymbol = Literal["MELEE", "RANGED", "AREA"]
AbilityKind = Literal["ATTACK", "PUSH", "MARCH", "HELPER_ATTACK", "STAR", "SWAP", "WOUND", "HEAL"]
StepKind = Literal["MOVE", "ACTIVATE", "REFRESH_CHECK"]
Arrow = Literal["N", "E", "S", "W"]
RequirementKind = Literal["ADJ_ENEMY_HERO", "DIST_ENEMY_HERO", "ADJ_ACTIVE_HAZARD"]

SYMBOLS: tuple[str, ...] = ("MOVE", "PUSH", "ATTACK", "DEFENSE", "RANGE")
CRESTS: tuple[str, ...] = ("SUN", "MOON")


class Boost(msgspec.Struct, frozen=True, kw_only=True):
    """``(+amount if crest)``: a crest boost on the preceding value (BASE-CARD-1, BASE-CREST-1)."""

    crest: Crest
    amount: int


class Ability(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One ability of the grammar of BASE-CARD-1.

    ``ATTACK n <range>``, ``PUSH n <range>``, ``MARCH n``, ``HELPER_ATTACK n`` (MELEE, resolved by
    the helper), ``STAR`` (one star ability, BASE-STAR-1), ``SWAP`` (swap places with the warrior
    just attacked, optional: SOLO-FAQ-4), and for fallback abilities ``WOUND n`` (the enemy hero
    suffers n wounds, no defense) and ``HEAL n`` (the hero heals n wounds).
    """

    kind: AbilityKind
    value: int = 0
    range: RangeSymbol | None = None
    boost: Boost | None = None


def ability_words(a: Ability) -> "str | Message":
    """``ATTACK 2 AREA (+1 if SUN)``: the ability as the card prints it, a crest boost's words a message. The whole
    notation is a printed word of the catalogs (its English text, context ``name``: domain/emperor/view.py
    ``NOTATION``), written in the reader's language at the edge."""
    parts = [a.kind.replace("_", " ")]
    if a.kind not in ("STAR", "SWAP"):
        parts.append(str(a.value))
    if a.range is not None and a.kind != "HELPER_ATTACK":
        parts.append(a.range)
    if a.kind == "HELPER_ATTACK":
        parts.append("MELEE")
    text = " ".join(parts)
    if a.boost is not None:
        return msg("{ability} (+{amount} if {crest})", ability=text, amount=a.boost.amount, crest=a.boost.crest)
    return text


def ability_text(a: Ability) -> str:
    """``ATTACK 2 AREA (+1 if SUN)``: the ability as the card prints it, in English (the words the log keeps)."""
    return text_of(ability_words(a))


class Bonus(msgspec.Struct, frozen=True, kw_only=True):
    """Bonus symbols of a location: ``count`` 2 is one double symbol (counts 2, SOLO-MOVE-6)."""

    symbol: Symbol
    count: int = 1


class NamedAbility(msgspec.Struct, frozen=True, kw_only=True):
    """A named star ability (BASE-STAR-1) or location ability (BASE-LOC-1)."""

    name: str
    ability: Ability


class Location(msgspec.Struct, frozen=True, kw_only=True):
    """BASE-LOC-1: a location card on one cell; it cannot be entered or crossed."""

    id: str
    name: str
    cell: str
    bonuses: tuple[Bonus, ...] = ()
    ability: NamedAbility | None = None


class Hazard(msgspec.Struct, frozen=True, kw_only=True):
    """BASE-HAZ-1: a hazard on an ordinary cell, active always or while a location is face up."""

    id: str
    name: str
    cell: str
    #: None: always active; else the id of the location that must be face up.
    active_while: str | None = None


class Battlefield(msgspec.Struct, frozen=True, kw_only=True):
    """BASE-GRID-1..4: a grid of ``columns`` x ``rows`` cells (A1 south-west), locations, hazards."""

    id: str
    title: str
    status: Status = "proposed"
    columns: int = 5
    rows: int = 5
    locations: tuple[Location, ...] = ()
    hazards: tuple[Hazard, ...] = ()
    notes: str = ""


class ActionCard(msgspec.Struct, frozen=True, kw_only=True):
    """BASE-CARD-1: abilities resolved in printed order, a defense value, a crest."""

    id: str
    name: str
    crest: Crest
    defense: int
    defense_boost: Boost | None = None
    abilities: tuple[Ability, ...] = ()


class Helper(msgspec.Struct, frozen=True, kw_only=True):
    """BASE-WAR-1: a hero's helper (fixed defense, BASE-DEF-1)."""

    id: str
    name: str
    health: int
    movement: int
    defense: int


class Hero(msgspec.Struct, frozen=True, kw_only=True):
    """BASE-WAR-1, BASE-CARD-2/3, BASE-STAR-1: a hero, its action row (in row order) and star list."""

    id: str
    name: str
    status: Status = "proposed"
    health: int
    movement: int
    cards: tuple[ActionCard, ...]
    stars: tuple[NamedAbility, ...] = ()
    helper: Helper | None = None
    notes: str = ""


class Requirement(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A movement-direction requirement (BASE-SOLO-1 vocabulary, SOLO-MOVE-3)."""

    kind: RequirementKind
    distance: int = 0


def requirement_text(r: Requirement) -> str:
    return f"{r.kind}({r.distance})" if r.kind == "DIST_ENEMY_HERO" else r.kind


class CrestOverride(msgspec.Struct, frozen=True, kw_only=True):
    """"If crest T is applied, use requirement X" (BASE-SOLO-1; a unique crest matches, SOLO-CREST-1)."""

    crest: Crest
    requirement: Requirement


class Direction(msgspec.Struct, frozen=True, kw_only=True):
    requirement: Requirement
    overrides: tuple[CrestOverride, ...] = ()


class StarEntry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One line of a solo card's star priority list (SOLO-STAR-1).

    ``hero_star``: the hero's star ability ``name``; ``location``: the ability of location ``name``
    (a location id); ``any_location``: any available location ability.
    """

    kind: Literal["hero_star", "location", "any_location"]
    name: str = ""


class SoloCard(msgspec.Struct, frozen=True, kw_only=True):
    """Per-hero card for the Emperor (SOLO-GAME-3): directions, exceptions, star list, fallback."""

    hero: str
    status: Status = "proposed"
    direction: Direction
    #: SOLO-MOVE-11: None means the helper uses the hero's direction (INFERRED).
    helper_direction: Direction | None = None
    #: SOLO-MOVE-3 / SOLO-FAQ-3: bonus types that do not count for preference (doubles included).
    exceptions: tuple[Symbol, ...] = ()
    star_priority: tuple[StarEntry, ...] = ()
    #: SOLO-FALL-1: the fallback ability (WOUND n on the enemy hero, or HEAL n).
    fallback: NamedAbility
    notes: str = ""


class OrderCard(msgspec.Struct, frozen=True, kw_only=True):
    """SOLO-ORD-1 (a)-(e)."""

    id: str
    steps: tuple[StepKind, ...]
    refresh_value: int
    defense_modifier: int
    compass: Arrow
    unique_crest: bool = False


class OrderDeck(msgspec.Struct, frozen=True, kw_only=True):
    """The Emperor's order deck (BASE-ORD-1) and its card-choice policy (SOLO-CARD-3)."""

    id: str
    title: str
    status: Status = "proposed"
    cards: tuple[OrderCard, ...]
    #: SOLO-CARD-3: the name of the card-choice policy (domain/emperor/cards.py CARD_POLICIES).
    card_policy: str = "compass_scan"


class Placement(msgspec.Struct, frozen=True, kw_only=True):
    """Where one side's warriors start (BASE-SETUP-1)."""

    hero: str
    cell: str
    helper_cell: str | None = None


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """A game's setup: battlefield, order deck, the human's and the Emperor's heroes (BASE-SETUP-1)."""

    id: str
    title: str
    status: Status = "proposed"
    battlefield: str
    order_deck: str
    human: Placement
    emperor: Placement
    notes: str = ""


class Catalog(msgspec.Struct, frozen=True, kw_only=True):
    """All content, by id; ``sources`` maps ``<kind>:<id>`` to the file it came from."""

    heroes: dict[str, Hero] = {}
    solo: dict[str, SoloCard] = {}
    decks: dict[str, OrderDeck] = {}
    battlefields: dict[str, Battlefield] = {}
    setups: dict[str, Setup] = {}
    sources: dict[str, str] = {}
