"""The Battle of Hoth content once loaded and checked: scenarios, cards and campaigns by id, and the
decks built from the cards. Built by :mod:`scenarios.hoth.checks` from what :mod:`scenarios.hoth.catalog`
decoded."""
from __future__ import annotations

import msgspec

from domain.hoth.campaign.graph import Campaign
from domain.hoth.cards import Card, CardSet
from domain.hoth.scenario import Scenario


class Catalog(msgspec.Struct, frozen=True, kw_only=True):
    """Everything loaded, by id. ``sources`` maps each id to the file it came from."""

    root: str
    scenarios: dict[str, Scenario] = {}
    cards: dict[str, Card] = {}
    campaigns: dict[str, Campaign] = {}
    #: Scenario id -> part ("layout", "briefing", ...) -> "source" / "proposed" / ...
    provenance: dict[str, dict[str, str]] = {}
    sources: dict[str, str] = {}

    def deck(self, faction: str) -> CardSet:
        """The faction's standard command deck (HOTH-SETUP-9), copies expanded."""
        ids: list[str] = []
        for c in self.cards.values():
            if c.faction == faction and c.kind in ("section", "tactic"):
                ids.extend([c.id] * c.copies)
        return CardSet(faction=faction, cards=tuple(ids))  # type: ignore[arg-type]

    def leader_cards(self, leader: str) -> tuple[str, ...]:
        """The leader's 3 cards (HOTH-LEADER-1, HOTH-SETUP-9)."""
        return tuple(c.id for c in self.cards.values() if c.kind == "leader" and c.leader == leader)

    def support_cards(self, faction: str) -> tuple[str, ...]:
        """The faction's support deck (content 3.1), copies expanded."""
        ids: list[str] = []
        for c in self.cards.values():
            if c.faction == faction and c.kind == "support":
                ids.extend([c.id] * c.copies)
        return tuple(ids)
