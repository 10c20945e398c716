"""The campaign's commands (content 3.1): create it, start the battle of the node, record the battle's result
(with the units at its start and end, which the secret objectives judge)."""
from __future__ import annotations

import msgspec

from domain.kernel import Command

from ..scenario import FACTIONS, Faction, Hex, UnitType
from .graph import Campaign


class UnitFact(msgspec.Struct, frozen=True, kw_only=True):
    faction: Faction
    unit: UnitType
    hex: Hex



class CreateCampaign(Command, frozen=True, kw_only=True, tag="create_campaign"):
    campaign_id: str
    ruleset: str = "hoth"
    campaign: Campaign
    seats: tuple[str, ...] = FACTIONS
    #: Each faction's support cards (content 3.1), shuffled into its support deck.
    support: dict[str, tuple[str, ...]] = {}
    #: Seats played by the service's bots in every battle (UMPIRE-BOT-1).
    bots: dict[str, str] = {}
    #: The rule choices every battle is played under (DESIGN 14).
    choices: dict[str, str] = {}


class StartBattle(Command, frozen=True, kw_only=True, tag="start_battle"):
    game_id: str
    scenario: str


class RecordResult(Command, frozen=True, kw_only=True, tag="record_result"):
    """The battle ``game_id`` ended; ``start_units``/``end_units`` are what the secret objectives judge."""

    game_id: str
    winner: Faction
    start_units: tuple[UnitFact, ...] = ()
    end_units: tuple[UnitFact, ...] = ()
    #: Support cards each side still holds when the battle ends (None: the battle used none).
    support_left: dict[str, tuple[str, ...]] | None = None


CampaignCommand = CreateCampaign | StartBattle | RecordResult
