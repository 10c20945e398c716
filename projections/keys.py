"""Redis key names of the read models (DESIGN section 7).

Every key of one game carries the hash tag ``{g:<game_id>}`` so the game's
keys live in one Redis Cluster slot and one Lua script may touch them all.
The lobby index has its own tag ``{lobby}``: it is updated in its own atomic
step, after the game's step, idempotently (guarded by the game's version).
"""
from __future__ import annotations

from domain.kernel import ACTIVE, FINISHED, WAITING

#: The spectator's view key suffix (a request without a token).
SPECTATOR = "-"

#: Status sets the lobby knows up front (kernel statuses); a ruleset that
#: reports another status gets its set created on first use.
LOBBY_STATUSES: tuple[str, ...] = (WAITING, ACTIVE, FINISHED, "read_only")

LOBBY_TAG = "{lobby}"
LOBBY_GAMES = f"{LOBBY_TAG}:games"  # hash game_id -> lobby entry JSON
#: hash game_id -> projected version (the guard). Version 2 of the lobby index (sorted sets): a Redis
#: projected by an older umpire has none, so every game is behind and a catch-up fills the new index.
LOBBY_VERSIONS = f"{LOBBY_TAG}:versions:2"
LOBBY_CREATED = f"{LOBBY_TAG}:created"  # hash game_id -> created_at
#: Every game, in the lobby's order: a sorted set whose members are ``lobby_member(created_at, game_id)``
#: (all scores 0, so ZRANGEBYLEX pages through them from a cursor: O(log n) a page).
LOBBY_ORDER = f"{LOBBY_TAG}:order"
#: Set by a complete catch-up or rebuild; gone after FLUSHALL, so a wiped
#: Redis never answers an empty lobby as if it were the truth.
LOBBY_READY = f"{LOBBY_TAG}:ready:2"

#: Checkpoint of ``umpire projections rebuild`` (the store rowid reached).
REBUILD_CHECKPOINT = "umpire:projections:rebuild:rowid"


def lobby_member(created_at: str, game_id: str) -> str:
    """A game's member in the lobby's sorted sets: its place in the lobby's order."""
    return f"{created_at}\n{game_id}"


def lobby_status_key(status: str) -> str:
    return f"{LOBBY_TAG}:by-status:{status}"


def lobby_ruleset_key(ruleset: str) -> str:
    return f"{LOBBY_TAG}:by-ruleset:{ruleset}"


def lobby_status_ruleset_key(status: str, ruleset: str) -> str:
    return f"{LOBBY_TAG}:by-status-ruleset:{status}:{ruleset}"


class GameKeys:
    """The keys of one game's read models."""

    __slots__ = ("game_id", "tag", "meta", "timeline", "feed", "snaps", "snapdata")

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.tag = f"{{g:{game_id}}}"
        #: hash: seq (last applied), ruleset, scenario, status, winner, turn (of the last event)
        self.meta = f"{self.tag}:meta"
        #: list: one timeline entry JSON per seq (index seq-1)
        self.timeline = f"{self.tag}:timeline"
        #: stream: entry id ``<seq>-0``, field ``e`` = the stored event JSON
        self.feed = f"{self.tag}:feed"
        #: sorted set of snapshot seqs (score = member = seq)
        self.snaps = f"{self.tag}:snaps"
        #: hash seq -> msgspec JSON of the ruleset state right after seq
        self.snapdata = f"{self.tag}:snap"

    def view(self, seat: str | None) -> str:
        """The view of ``seat`` (None: the spectator)."""
        return f"{self.tag}:view:{SPECTATOR if seat is None else seat}"

    def pattern(self) -> str:
        return f"{self.tag}:*"


GAME_KEY_PATTERN = "{g:*}:*"
LOBBY_KEY_PATTERN = f"{LOBBY_TAG}:*"
