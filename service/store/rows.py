"""What both store adapters share: the stored columns of events and games, a stored row as a
:class:`~domain.kernel.log.StoredEvent`, the checks of new events, token hashes and timestamps."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from domain.kernel.log import NewEvent, StoredEvent


EVENT_COLUMNS = (
    "game_id, seq, type, payload, actor, visibility, command_id, engine_version, "
    "recorded_at, ruling, rolls, reveals, turn, prev_hash, hash, public_payload, commitment, step"
)
EVENT_COLS = tuple(c.strip() for c in EVENT_COLUMNS.split(","))
GAME_COLUMNS = ("game_id, ruleset, scenario, setup, seed_commitment, status, winner, version, created_at, campaign_id,"
                 " chain_version")
#: The stored columns of a game row (:class:`GameRow` without the derived ``read_only``).
GAME_COLS = tuple(c.strip() for c in GAME_COLUMNS.split(","))


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_new_events(events: Sequence[NewEvent], allow_empty: bool = False) -> None:
    if not events and not allow_empty:
        raise ValueError("append needs at least one event")
    for ev in events:
        if not isinstance(ev.type, str) or not ev.type:
            raise ValueError(f"event type: a non-empty string is required, got {ev.type!r}")
        if not isinstance(ev.payload, str):
            raise ValueError(f"event {ev.type} payload: msgspec JSON text is required, got {type(ev.payload).__name__}")
        if not isinstance(ev.rolls, str):
            raise ValueError(f"event {ev.type} rolls: msgspec JSON text is required, got {type(ev.rolls).__name__}")


def row_event(r: Sequence[Any]) -> StoredEvent:
    d = dict(zip(EVENT_COLS, r))
    d["reveals"] = bool(d["reveals"])
    return StoredEvent(**d)
