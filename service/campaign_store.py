"""The campaign tables of the event store (store migration 2): one stream per campaign.

Campaign rows, seat token hashes and campaign events live in the same SQLite file as the games; every
write is one ``BEGIN IMMEDIATE`` transaction of the store, with an optimistic version check.
"""
from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from typing import Any

import msgspec

from domain.hoth import campaign as C
from domain.kernel import Emitted, commitment
from domain.kernel.dice import Roll

from .store import EventStore, token_hash

_decoder = msgspec.json.Decoder(C.CampaignEvents)
_rolls = msgspec.json.Decoder(list[Roll])


class CampaignConflict(Exception):
    """Another writer appended to the same campaign first."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


class CampaignStore:
    """The campaign tables of the event store (one SQLite file, migration 2)."""

    def __init__(self, store: EventStore):
        self.store = store

    def row(self, campaign_id: str) -> dict[str, Any] | None:
        r = self.store.rows("SELECT campaign_id, ruleset, campaign, seed, seed_commitment, status, winner, version,"
                       " created_at FROM campaigns WHERE campaign_id = ?", (campaign_id,))
        if not r:
            return None
        keys = ("campaign_id", "ruleset", "campaign", "seed", "seed_commitment", "status", "winner", "version",
                "created_at")
        return dict(zip(keys, r[0]))

    def seat(self, campaign_id: str, token: str) -> str | None:
        r = self.store.rows("SELECT seat FROM campaign_seats WHERE campaign_id = ? AND token_hash = ?",
                       (campaign_id, token_hash(token)))
        return r[0][0] if r else None

    def is_battle(self, campaign_id: str, game_id: str) -> bool:
        """Was ``game_id`` recorded as a battle of the campaign (not a game another writer orphaned)?"""
        for (payload,) in self.store.rows("SELECT payload FROM campaign_events WHERE campaign_id = ? AND type = ?",
                                     (campaign_id, "battle_started")):
            if msgspec.json.decode(payload).get("game_id") == game_id:
                return True
        return False

    def events(self, campaign_id: str) -> list[tuple[Any, list[Roll]]]:
        rows = self.store.rows("SELECT payload, rolls FROM campaign_events WHERE campaign_id = ? ORDER BY seq",
                          (campaign_id,))
        return [(_decoder.decode(p), _rolls.decode(r)) for p, r in rows]

    @staticmethod
    def _insert(conn: Any, campaign_id: str, first: int, emitted: list[Emitted]) -> None:
        now = _now()
        for i, em in enumerate(emitted, start=first):
            conn.execute(
                "INSERT INTO campaign_events (campaign_id, seq, type, payload, visibility, ruling, rolls,"
                " recorded_at) VALUES (?,?,?,?,?,?,?,?)",
                (campaign_id, i, type(em.event).__struct_config__.tag, msgspec.json.encode(em.event).decode(),
                 em.visibility, msgspec.json.encode(em.ruling).decode() if em.ruling else None,
                 msgspec.json.encode(list(em.rolls)).decode(), now),
            )

    def create(self, campaign_id: str, ruleset: str, campaign: str, seed: bytes, tokens: dict[str, str],
               emitted: list[Emitted], status: str) -> None:
        def tx(conn: Any) -> None:
            conn.execute(
                "INSERT INTO campaigns (campaign_id, ruleset, campaign, seed, seed_commitment, status, winner,"
                " version, created_at) VALUES (?,?,?,?,?,?,NULL,?,?)",
                (campaign_id, ruleset, campaign, seed.hex(), commitment(seed), status, len(emitted), _now()),
            )
            for seat, tok in tokens.items():
                conn.execute("INSERT INTO campaign_seats (campaign_id, seat, token_hash) VALUES (?,?,?)",
                             (campaign_id, seat, token_hash(tok)))
            self._insert(conn, campaign_id, 1, emitted)

        self.store.transaction(tx)

    def append(self, campaign_id: str, expected: int, emitted: list[Emitted], status: str,
               winner: str | None) -> int:
        def tx(conn: Any) -> int:
            cur = conn.execute("SELECT version FROM campaigns WHERE campaign_id = ?", (campaign_id,)).fetchone()[0]
            if cur != expected:
                raise CampaignConflict()
            try:
                self._insert(conn, campaign_id, cur + 1, emitted)
            except sqlite3.IntegrityError:
                raise CampaignConflict() from None
            conn.execute("UPDATE campaigns SET version = ?, status = ?, winner = ? WHERE campaign_id = ?",
                         (cur + len(emitted), status, winner, campaign_id))
            return cur + len(emitted)

        return self.store.transaction(tx)
