"""A bounded timeline in Redis (issue 26: Redis memory per active game bounded by a constant).

``GET /games/{id}/timeline`` has one entry per seq (about 110 bytes each for a Battle of Hoth game). Redis keeps
only the newest :data:`TIMELINE_KEEP` entries of a game: the projection's ``APPLY`` script trims the oldest
(``LTRIM``) and counts them in the game's meta (``tl_base``), so the list holds the entries of seqs
``tl_base + 1 .. seq``. The log in the store stays the truth: the older entries are built from it when asked
for (:func:`service.queries.timeline` joins the two), with the same code that builds them for Redis.
An undo whose range reaches back before the kept window changes the flag of those entries in the log's
answer only (Redis holds none of them).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The timeline entries kept in Redis per game (the newest ones). ~30 KB of Redis for a Hoth game.
TIMELINE_KEEP = 256


@dataclass(frozen=True)
class TimelineTail:
    """What Redis holds of a game's timeline: the entries of seqs ``base + 1`` .. the game's version."""

    base: int
    entries: list[dict[str, Any]]


__all__ = ["TIMELINE_KEEP", "TimelineTail"]
