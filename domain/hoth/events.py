"""Events of a Battle of Hoth game. Events carry outcomes (DESIGN 1): every die
face, card order and automated choice is in the event, so folding never rolls
and never reads content files."""
from __future__ import annotations

from typing import ClassVar

from domain.kernel import Event

from .cards import Card
from .scenario import Hex, Scenario
from .state import AttackCtx, Pending, Slot

#: Deck order is seen by nobody until the game ends (DESIGN 4: never a deck order).
NOBODY = "umpire"


class GameOpened(Event, tag="game_opened"):
    scenario: Scenario
    cards: tuple[Card, ...]
    seats: tuple[str, ...]
    turn_order: tuple[str, ...]
    #: unit id -> (unit setup index); ids are "<faction>-<n>" unless the scenario names them.
    unit_ids: tuple[str, ...]


class DeckShuffled(Event, tag="deck_shuffled"):
    """A seat's draw pile in order, top first (HOTH-SETUP-9, HOTH-DRAW-2)."""

    private: ClassVar[frozenset[str]] = frozenset({"deck"})
    seat: str
    size: int
    deck: tuple[str, ...]
    reshuffle: bool = False


class CardsDrawn(Event, tag="cards_drawn"):
    """Cards taken from the top of the seat's draw pile (HOTH-SETUP-9, HOTH-DRAW-1)."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: str
    count: int
    cards: tuple[str, ...]


class TurnStarted(Event, tag="turn_started"):
    seat: str
    turn: int


class CardPlayed(Event, tag="card_played"):
    seat: str
    card: str
    effects_card: str
    mirrored: bool = False
    slots: tuple[Slot, ...] = ()


class UnitOrdered(Event, tag="unit_ordered"):
    unit: str
    slot: int
    bonus: bool


class OrdersEnded(Event, tag="orders_ended"):
    pass


class UnitMoved(Event, tag="unit_moved"):
    unit: str
    path: tuple[Hex, ...]
    stopped: bool = False


class MovesEnded(Event, tag="moves_ended"):
    """End of the Move step; E-Web tokens set for ordered E-Webs (HOTH-SPECIAL-EWEB-7)."""

    eweb: dict[str, bool] = {}


class AttackRolled(Event, tag="attack_rolled"):
    attack: AttackCtx
    dice: int
    attacker_hex: Hex
    target_hex: Hex
    sight_blocked: bool = False
    examined: tuple[Hex, ...] = ()


class DecisionMade(Event, tag="decision_made"):
    """A pending decision answered with no other effect (e.g. no support card played)."""

    seat: str
    kind: str
    choice: str


class AttackDeclared(Event, tag="attack_declared"):
    """An attack announced before its roll (a reaction window opens for the defender)."""

    attack: AttackCtx
    dice: int


class DiceRerolled(Event, tag="dice_rerolled"):
    indices: tuple[int, ...]
    faces: tuple[str, ...]


class AttackResolved(Event, tag="attack_resolved"):
    """Hits and losses of the attack in progress (HOTH-HIT-*)."""

    attacker: str
    target: str
    hits: int
    losses: int
    confirmation: tuple[str, ...] = ()
    eliminated: bool = False
    structure_destroyed: bool = False
    retreats: int = 0


class UnitEliminated(Event, tag="unit_eliminated"):
    unit: str
    by: str


class MedalsAwarded(Event, tag="medals_awarded"):
    faction: str
    count: int
    total: int
    reason: str
    objective: str | None = None


class ObjectiveChanged(Event, tag="objective_changed"):
    objective: str
    faction: str
    held: bool
    permanent: bool = False


class DecisionPending(Event, tag="decision_pending"):
    """A decision that must be made next, and by which seat. ``cards``: cards only that seat may see."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    pending: Pending
    cards: tuple[str, ...] = ()


class RetreatIgnored(Event, tag="retreat_ignored"):
    unit: str
    count: int
    reason: str


class UnitRetreated(Event, tag="unit_retreated"):
    unit: str
    path: tuple[Hex, ...]
    losses: int = 0


class BreakthroughMade(Event, tag="breakthrough_made"):
    unit: str
    to: Hex | None = None
    stopped: bool = False


class AttackFinished(Event, tag="attack_finished"):
    attacker: str


class CardsDiscarded(Event, tag="cards_discarded"):
    seat: str
    cards: tuple[str, ...]


class DeckArranged(Event, tag="deck_arranged"):
    """The top of a seat's deck, rearranged by the seat (card effect ``arrange_top``)."""

    private: ClassVar[frozenset[str]] = frozenset({"top"})
    seat: str
    count: int
    top: tuple[str, ...]


class UnitPlaced(Event, tag="unit_placed"):
    """A new unit enters the battlefield (card effect ``place_unit``)."""

    unit: str
    faction: str
    unit_type: str
    hex: Hex
    figures: int


class SupportDealt(Event, tag="support_dealt", omit_defaults=True):
    """The support cards a faction brings into this battle (content 3.1), seen by that faction only.

    UMPIRE-SEAL-1..3: a campaign's battle gets them sealed (``salt`` set by the service, their
    commitment in the header); they stay hidden after the battle ends, as the campaign goes on."""

    private: ClassVar[frozenset[str]] = frozenset({"cards", "salt"})
    sealed_part: ClassVar[bool] = True
    sealed_key: ClassVar[str] = "faction"
    faction: str
    count: int
    cards: tuple[str, ...]
    salt: str = ""


class SupportPlayed(Event, tag="support_played"):
    seat: str
    card: str
    target: str | None = None
    hex: Hex | None = None


class HandPeeked(Event, tag="hand_peeked"):
    """Cards of another hand, chosen at random, shown to ``seat`` only (card effect ``peek_hand``)."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: str
    of: str
    cards: tuple[str, ...]


class UnitHealed(Event, tag="unit_healed"):
    unit: str
    figures: int


class EffectAdded(Event, tag="effect_added"):
    """A lasting effect on a unit (e.g. treated as in a trench until the next turn of ``until_seat``)."""

    unit: str
    effect: str
    until_seat: str
    count: int = 1


class Bombarded(Event, tag="bombarded"):
    """A card's roll against a unit, ignoring range and line of sight (card effect ``bombard``)."""

    seat: str
    target: str
    dice: int
    faces: tuple[str, ...]
    hits: int
    losses: int
    confirmation: tuple[str, ...] = ()
    eliminated: bool = False


class TurnEnded(Event, tag="turn_ended"):
    seat: str
    card: str | None


class GameWon(Event, tag="game_won"):
    winner: str
    reason: str
    rule: str


HothEvent = (
    GameOpened | DeckShuffled | CardsDrawn | TurnStarted | CardPlayed | UnitOrdered | OrdersEnded | UnitMoved
    | MovesEnded | AttackRolled | DiceRerolled | AttackResolved | UnitEliminated | MedalsAwarded | ObjectiveChanged
    | DecisionPending | RetreatIgnored | UnitRetreated | BreakthroughMade | AttackFinished | CardsDiscarded
    | TurnEnded | GameWon | DeckArranged | UnitPlaced | SupportDealt | SupportPlayed | HandPeeked | UnitHealed
    | EffectAdded | Bombarded | AttackDeclared | DecisionMade
)
