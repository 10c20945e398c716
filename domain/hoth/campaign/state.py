"""The campaign state (content 3.1 state model) and its fold of one event, :func:`evolve`. The fold of a
stream is the kernel's (:func:`domain.kernel.campaign.fold_campaign`)."""
from __future__ import annotations

from typing import Any

import msgspec

from ..scenario import FACTIONS
from .events import (
    BattleEnded, BattleStarted, CampaignCreated, CampaignWon, NextBattleChosen, SecretObjectiveMet, SupportDrawn,
)
from .graph import Campaign, CarriedEffect

NEW, ACTIVE, FINISHED = "new", "active", "finished"


class BattleRecord(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    node: str
    scenario: str
    game_id: str
    leaders: dict[str, str] = {}
    winner: str | None = None


class CampaignState(msgspec.Struct, frozen=True, kw_only=True):
    campaign_id: str = ""
    ruleset: str = "hoth"
    campaign: Campaign | None = None
    seats: tuple[str, ...] = ()
    status: str = NEW
    winner: str | None = None
    #: The node to play now (None once the campaign ended).
    node: str | None = None
    #: The battle being played (None between battles).
    current: BattleRecord | None = None
    battles: tuple[BattleRecord, ...] = ()
    #: Effects carried into the next battle: leaders and setup changes (content 3.1).
    carried: tuple[CarriedEffect, ...] = ()
    #: (node, winner) of the last battle: names the changed setup (:func:`variant_id`).
    last_result: tuple[str, str] | None = None
    support_hand: dict[str, tuple[str, ...]] = {}
    support_deck: dict[str, tuple[str, ...]] = {}
    support_discard: dict[str, tuple[str, ...]] = {}
    secrets_met: tuple[str, ...] = ()
    #: The outcome the last winner read aloud (content 3.1 procedure 3).
    outcome_text: str = ""
    #: Seats played by the service's bots in every battle (UMPIRE-BOT-1).
    bots: dict[str, str] = {}
    #: The rule choices every battle is played under (DESIGN 14).
    choices: dict[str, str] = {}


def evolve(state: CampaignState, event: Any) -> CampaignState:
    r = msgspec.structs.replace
    if isinstance(event, CampaignCreated):
        return r(state, campaign_id=event.campaign_id, ruleset=event.ruleset, campaign=event.campaign,
                 seats=event.seats, status=ACTIVE, node=event.campaign.start, support_deck=dict(event.support_decks),
                 bots=dict(event.bots), choices=dict(event.choices),
                 support_hand={f: () for f in FACTIONS}, support_discard={f: () for f in FACTIONS})
    if isinstance(event, BattleStarted):
        rec = BattleRecord(number=event.number, node=event.node, scenario=event.scenario, game_id=event.game_id,
                           leaders=dict(event.leaders))
        return r(state, current=rec)
    if isinstance(event, BattleEnded):
        assert state.current is not None
        rec = r(state.current, winner=event.winner)
        hand = dict(state.support_hand)
        discard = dict(state.support_discard)
        for f, cards in event.support_played.items():
            kept = list(hand.get(f, ()))
            for c in cards:
                kept.remove(c)
            hand[f] = tuple(kept)
            discard[f] = discard.get(f, ()) + tuple(cards)
        return r(state, current=None, battles=state.battles + (rec,), carried=(),
                 last_result=(event.node, event.winner), support_hand=hand, support_discard=discard)
    if isinstance(event, SecretObjectiveMet):
        return r(state, secrets_met=state.secrets_met + (event.id,))
    if isinstance(event, SupportDrawn):
        hand = dict(state.support_hand)
        hand[event.faction] = hand.get(event.faction, ()) + event.cards
        deck = dict(state.support_deck)
        deck[event.faction] = event.deck_after
        discard = dict(state.support_discard)
        if event.reshuffled:
            discard[event.faction] = ()
        return r(state, support_hand=hand, support_deck=deck, support_discard=discard)
    if isinstance(event, NextBattleChosen):
        return r(state, node=event.next_node, carried=event.effects, outcome_text=event.text)
    if isinstance(event, CampaignWon):
        return r(state, status=FINISHED, winner=event.winner, node=None, outcome_text=event.text)
    return state
