"""The campaign's support cards (CAMPAIGN-4, content 3.1): each side's own shuffled deck, the hand it keeps
from battle to battle, the discards the cards it played go to, and draws, reshuffling an empty deck."""
from __future__ import annotations

from typing import Any

from domain.kernel import Dice, RuleViolation, RulingBuilder
from domain.kernel.messages import msg, msg_n

from ..scenario import FACTIONS
from ..terms import side
from .events import SupportDrawn
from .graph import DrawSupport
from .state import CampaignState

#: Dice stream of the support-deck shuffles (DESIGN 3: every draw recorded in its event).
SUPPORT_STREAM = "support"


def draw(state: CampaignState, faction: str, count: int, dice: Dice, reason: str,
          deck: dict[str, tuple[str, ...]], discard: dict[str, tuple[str, ...]]) -> SupportDrawn:
    """Draw ``count`` support cards; an empty deck is the shuffled discards (content 3.1 Reshuffle)."""
    d = list(deck.get(faction, ()))
    drawn: list[str] = []
    reshuffled = False
    for _ in range(count):
        if not d and discard.get(faction):
            d = dice.shuffle(list(discard[faction]), SUPPORT_STREAM)
            discard[faction] = ()
            reshuffled = True
        if not d:
            break  # nothing left anywhere: the draw is lost
        drawn.append(d.pop(0))
    deck[faction] = tuple(d)
    return SupportDrawn(faction=faction, count=count, cards=tuple(drawn), deck_after=tuple(d),
                        reshuffled=reshuffled, reason=reason)


def support_played(state: CampaignState, support_left: dict[str, tuple[str, ...]] | None) -> dict[str, tuple[str, ...]]:
    """The support cards each side played in the battle: those of its kept hand it no longer holds
    (``support_left`` None: the battle used none). A side cannot end it holding a card it did not bring."""
    played: dict[str, tuple[str, ...]] = {}
    if support_left is not None:
        for f in FACTIONS:
            left = list(support_left.get(f, ()))
            gone: list[str] = []
            for card in state.support_hand.get(f, ()):
                if card in left:
                    left.remove(card)
                else:
                    gone.append(card)
            if left:
                raise RuleViolation("CAMPAIGN-4", msg("{side} cannot end the battle holding support cards not "
                                                      "brought into it: {cards}.", side=side(f), cards=left))
            if gone:
                played[f] = tuple(gone)
    return played


def drawn(e: DrawSupport) -> Any:
    """CAMPAIGN-4: the ruling of a support-card draw (the cards are in the event, seen by their side only)."""
    return RulingBuilder().add("CAMPAIGN-4", msg_n("{side}: {count} support card(s) drawn.",
                                                   "{side}: {count} support card(s) drawn.", "count",
                                                   side=side(e.faction), count=e.count)
                               ).build(msg("{side}: support cards drawn", side=side(e.faction)))
