"""Commands a Battle of Hoth seat may send (JSON ``type`` tag)."""
from __future__ import annotations

from domain.kernel import Command

from .scenario import Hex


class PlayCard(Command, tag="play_card"):
    """HOTH-CARD-1: play one command card from hand."""

    card: str


class OrderUnit(Command, tag="order_unit"):
    """HOTH-ORDER-1: order one unit through order group ``slot`` of the played card."""

    unit: str
    slot: int = 0


class EndOrders(Command, tag="end_orders"):
    """Finish ordering (HOTH-ORDER-6: fewer units than allowed is fine)."""


class Move(Command, tag="move"):
    """HOTH-MOVE-1..12: move one ordered unit along ``path`` (the hexes entered, in order)."""

    unit: str
    path: tuple[Hex, ...]


class EndMoves(Command, tag="end_moves"):
    """Finish the Move step (HOTH-TURN-4)."""


class Attack(Command, tag="attack"):
    """HOTH-ATTACK-9: attack ``target`` (a unit id or a structure id) with ``unit``."""

    unit: str
    target: str
    #: A card's special attack instead of the normal one (card effect ``special_attack``, e.g. Tow Cables).
    special: bool = False


class EndTurn(Command, tag="end_turn"):
    """Finish the Attack step: discard the card and draw (HOTH-DRAW-1)."""


class Reroll(Command, tag="reroll"):
    """Re-roll the dice at these indices once (HOTH-SPECIAL-EWEB-6, card re-rolls); () keeps the roll."""

    dice: tuple[int, ...] = ()


class IgnoreRetreat(Command, tag="ignore_retreat"):
    """HOTH-TERRAIN-TRENCH-3: the defender decides whether its trench ignores 1 retreat."""

    ignore: bool


class Retreat(Command, tag="retreat"):
    """HOTH-RETREAT-3: the defender picks the retreat path (hexes entered, in order)."""

    path: tuple[Hex, ...]


class Breakthrough(Command, tag="breakthrough"):
    """HOTH-SPECIAL-ASSAULT-1: take the vacated hex (advance) or not."""

    advance: bool


class SkipAttack(Command, tag="skip_attack"):
    """Decline the breakthrough attack (HOTH-SPECIAL-ASSAULT-6: optional)."""


class ArrangeDeck(Command, tag="arrange_deck"):
    """Put the top cards of your deck back in this order, top first (card effect ``arrange_top``)."""

    order: tuple[str, ...]


class Reinforce(Command, tag="reinforce"):
    """Place the new unit of a card on this empty hex of your baseline (card effect ``place_unit``)."""

    hex: Hex


class DiscardCards(Command, tag="discard_cards"):
    """Deploy the Fleet! and similar: discard these cards from hand (HOTH-TEAM-13)."""

    cards: tuple[str, ...] = ()


class PlaySupport(Command, tag="play_support"):
    """Play a support card in addition to the command card, at most one per turn (content 3.1, 5.3).

    ``target``: the unit the card acts on (bombard, heal, dig in); ``hex``: where a new unit is placed.
    """

    card: str
    target: str | None = None
    hex: Hex | None = None


class PassSupport(Command, tag="pass_support"):
    """Do not play a support card in this window (content 3.1: support cards are optional)."""


HothCommand = (
    PlayCard | OrderUnit | EndOrders | Move | EndMoves | Attack | EndTurn | Reroll | IgnoreRetreat | Retreat
    | Breakthrough | SkipAttack | DiscardCards | ArrangeDeck | Reinforce | PlaySupport | PassSupport
)
