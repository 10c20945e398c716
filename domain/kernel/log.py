"""The records of the event log and the read interface every store offers (DESIGN sections 2, 9).

Pure types: the service's store (SQLite today, PostgreSQL later) writes and reads them, the
projections read them through :class:`EventLog` -- an object the service hands in -- and never
import a store module. ``service.store`` re-exports every name here under its old name.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

import msgspec

from .chain import CHAIN_V1


class StoreError(Exception):
    """A clear, one-line problem with the data dir or the database."""


class UnknownGame(StoreError):
    def __init__(self, game_id: str):
        super().__init__(f"no game with id {game_id!r}")
        self.game_id = game_id


class GameExists(StoreError):
    """``create_game``/import with a game id that is already in the store."""

    def __init__(self, game_id: str):
        super().__init__(f"a game with id {game_id!r} already exists")
        self.game_id = game_id


class SeedUnavailable(StoreError):
    """The game exists but its secret seed is not in this store (imported without secrets)."""

    def __init__(self, game_id: str):
        super().__init__(f"the seed of game {game_id!r} is not in this store (it was imported without secrets)")
        self.game_id = game_id


class VersionConflict(Exception):
    """The writer lost the race: ``expected_version`` is not the current version."""

    def __init__(self, game_id: str, expected: int, current: int):
        super().__init__(f"game {game_id}: expected version {expected}, current version is {current}")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event about to be appended (the service builds it from an ``Emitted``)."""

    type: str
    payload: str  # msgspec JSON of the event struct
    actor: str | None = None
    visibility: str = "public"
    #: JSON of the payload as a spectator sees it (private fields removed, ``"redacted": true``);
    #: required for an event that is not public, None for a public one (its payload is public).
    public_payload: str | None = None
    ruling: str | None = None  # msgspec JSON of the Ruling
    rolls: str = "[]"  # msgspec JSON list of Roll
    reveals: bool = False
    turn: int = 0
    engine_version: str = ""


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seq: int
    type: str
    payload: str
    actor: str | None
    visibility: str
    command_id: str | None
    engine_version: str
    recorded_at: str
    ruling: str | None
    rolls: str
    reveals: bool
    turn: int
    prev_hash: str
    hash: str
    #: Chain version 2 (None in games of chain version 1): the spectator payload of a non-public
    #: event, the commitment of its private part, and the first seq of the command it belongs to.
    public_payload: str | None = None
    commitment: str | None = None
    step: int | None = None


class GameRow(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    game_id: str
    ruleset: str
    scenario: str
    setup: str  # msgspec JSON of the kernel Setup
    seed_commitment: str
    status: str
    winner: str | None
    version: int
    created_at: str
    campaign_id: str | None
    #: 1: hash of every stored field (games stored before issue 10); 2: public part + commitment.
    chain_version: int = CHAIN_V1
    #: True when the store has no secret seed for the game (imported without secrets, not finished):
    #: it can be read but not played on (UMPIRE-READ-ONLY-1). Derived, never stored.
    read_only: bool = False


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    first_seq: int
    last_seq: int
    #: The game version right after this command (== ``last_seq``); for a
    #: duplicate ``command_id`` it is the same number as the first time, so
    #: the answer is the same both times.
    version: int
    #: True when ``command_id`` had been seen: nothing was appended and the
    #: seqs are those of the first time.
    duplicate: bool = False
    #: The game's version now (differs from ``version`` only for a duplicate
    #: of a command that later commands followed).
    current_version: int | None = None
    #: The hash of event ``version`` (the head a receipt signs).
    head: str = ""
    #: For a duplicate: the body hash stored with the first request (None: not recorded).
    body_hash: str | None = None
    #: The events just written, as stored (empty for a duplicate): handed to the projector and
    #: rendered in the answer, so nothing just written is read back.
    events: tuple[StoredEvent, ...] = ()


@runtime_checkable
class EventLog(Protocol):
    """What the projections (and any other reader) need of a store: games and their events.

    :class:`service.store_contract.Store` extends it (both backends implement it). Every method is
    a read; events come in seq order (``iter_all``: in commit order, with a monotonic position).
    """

    def game(self, game_id: str) -> GameRow | None: ...

    def require_game(self, game_id: str) -> GameRow:
        """The game's row; raises :class:`UnknownGame`."""
        ...

    def games(self, *, status: str | None = None, ruleset: str | None = None,
              after: tuple[str, str] | None = None, limit: int | None = None) -> list[GameRow]: ...

    def newest_game_id(self) -> str | None:
        """The game stored last (created or imported; where the store keeps no insertion order, the last
        in the lobby's order), None for none: the lobby's freshness check."""
        ...

    def load(self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None,
             types: Iterable[str] | None = None) -> list[StoredEvent]: ...

    def last_seq_not_of(self, game_id: str, types: Iterable[str], upto: int | None = None) -> int: ...

    def iter_all(self, after_rowid: int = 0, batch: int = 1000) -> Iterable[tuple[int, StoredEvent]]: ...

    def last_position(self) -> int:
        """The position of the newest event of any game (0 for none), as ``iter_all`` numbers them."""
        ...

    def count_events(self, after_rowid: int = 0, upto_rowid: int | None = None) -> int:
        """How many events lie after position ``after_rowid`` (up to ``upto_rowid``), as ``iter_all`` counts."""
        ...


__all__ = ["StoreError", "UnknownGame", "GameExists", "SeedUnavailable", "VersionConflict", "NewEvent",
           "StoredEvent", "GameRow", "AppendResult", "EventLog"]
