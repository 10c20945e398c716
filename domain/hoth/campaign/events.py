"""The campaign's events (content 3.1): what :func:`~domain.hoth.campaign.decider.decide` emits and
:func:`~domain.hoth.campaign.state.evolve` folds."""
from __future__ import annotations

from typing import ClassVar

from domain.kernel import Event

from ..scenario import Faction
from .graph import AddUnit, Campaign, CarriedEffect, RemoveUnit


class CampaignEvent(Event, frozen=True, kw_only=True):
    pass


class CampaignCreated(CampaignEvent, frozen=True, kw_only=True, tag="campaign_created"):
    private: ClassVar[frozenset[str]] = frozenset({"campaign", "support_decks"})
    campaign_id: str
    ruleset: str
    campaign: Campaign
    seats: tuple[str, ...]
    #: Each faction's shuffled support deck (content 3.1: "shuffles the support cards of their own faction").
    support_decks: dict[str, tuple[str, ...]]
    #: Seats played by the service's bots in every battle (UMPIRE-BOT-1): seat -> ``"<bot id>:<level>"``.
    bots: dict[str, str] = {}
    #: The rule choices every battle is played under (DESIGN 14).
    choices: dict[str, str] = {}


class BattleStarted(CampaignEvent, frozen=True, kw_only=True, tag="battle_started"):
    number: int
    node: str
    scenario: str
    game_id: str
    #: Leader whose 3 cards each faction adds for this battle only (content 3.1).
    leaders: dict[str, str] = {}
    setup_changes: tuple[AddUnit | RemoveUnit, ...] = ()


class BattleEnded(CampaignEvent, frozen=True, kw_only=True, tag="battle_result"):
    number: int
    node: str
    game_id: str
    winner: Faction
    #: Support cards each side played in the battle (face up, so public): they go to its support
    #: discard; the others stay in its hand (content 3.1).
    support_played: dict[str, tuple[str, ...]] = {}


class SecretObjectiveMet(CampaignEvent, frozen=True, kw_only=True, tag="secret_objective_met"):
    """Revealed when met (content 3.1 rule 5); the reward is immediate (content 5.5)."""

    id: str
    faction: Faction
    title: str
    text: str = ""


class SupportDrawn(CampaignEvent, frozen=True, kw_only=True, tag="support_drawn"):
    """``faction`` draws support cards into the hand it keeps between battles (content 3.1)."""

    private: ClassVar[frozenset[str]] = frozenset({"cards", "deck_after"})
    faction: Faction
    count: int
    cards: tuple[str, ...]
    #: The deck after the draw (after a reshuffle of the discards when it ran out).
    deck_after: tuple[str, ...]
    reshuffled: bool = False
    reason: str = ""


class NextBattleChosen(CampaignEvent, frozen=True, kw_only=True, tag="next_battle_chosen"):
    from_node: str
    winner: Faction
    next_node: str
    scenario: str
    text: str = ""
    effects: tuple[CarriedEffect, ...] = ()


class CampaignWon(CampaignEvent, frozen=True, kw_only=True, tag="campaign_won"):
    winner: Faction
    text: str = ""


CampaignEvents = (CampaignCreated | BattleStarted | BattleEnded | SecretObjectiveMet | SupportDrawn
                  | NextBattleChosen | CampaignWon)
