"""The event store as one interface (DESIGN sections 2 and 11): what the service, the campaigns, the
projections, verification and export/import call on a store, whatever keeps the log.

Two adapters implement it, each on its own (they share the statements of :mod:`service.store.log_sql` by
composition, not by inheritance): :class:`service.store.EventStore` (one SQLite file, the default) and
:class:`service.store.postgres.PgEventStore` (PostgreSQL, chosen by ``UMPIRE_DATABASE_URL=postgresql://...``;
:func:`service.store.open_store` picks). ``tests/service/test_store*.py`` is the contract suite: every
test runs against both.

What every backend guarantees:

- **Append with an expected version**, all of one command's events or none: ``UNIQUE(game_id, seq)``
  refuses a second event at a seq, so a stale ``expected_version`` is a :class:`VersionConflict`,
  never an overwrite (SQLite: one ``BEGIN IMMEDIATE`` writer; PostgreSQL: a per-game
  transaction-scoped advisory lock, one transaction per command, READ COMMITTED).
- **Idempotent command ids per seat**: a seat's retried ``command_id`` appends nothing and answers
  the first answer, with the first request's body hash; another seat's ids never answer.
- **The chain** (:mod:`domain.kernel.chain`, versions 1 and 2) computed at append, stored byte for byte,
  verifiable by :func:`service.store.verify_chain`.
- **Seats** (token hashes only; one-time invitations by hash, retired by the claim that appends the seat's
  ``seat_claimed`` in the same transaction), **secret seeds** (revealed when a game finishes; absent for a game
  imported without secrets: read-only), **campaigns** (their own chained streams, through
  :meth:`transaction`/:meth:`rows`), the **command bodies** behind each step.
- **Migrations numbered as today** on both backends (``len(MIGRATIONS)`` steps; a database of a newer
  schema is refused with a one-line :class:`StoreError`).
- **Export/import** of a whole game as stored (:meth:`import_game`, events byte for byte).
- **Reads** by game (after a seq, up to a seq, by type), of every event in commit order
  (:meth:`iter_all`, for projection rebuilds), and the **lobby** with its ``(created_at, game_id)``
  cursor.

``rows``/``transaction`` take SQL in the subset both backends speak, with ``?`` placeholders.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from domain.kernel.log import AppendResult, EventLog, GameRow, NewEvent, StoredEvent


@runtime_checkable
class Store(EventLog, Protocol):
    """Every read of :class:`domain.kernel.log.EventLog` (games, events, positions: what the projections
    need), and the writes, seats, seeds, imports and tables below."""

    #: Opened for reading only (``umpire verify``/``export``): every write raises StoreError.
    read_only: bool
    #: The node's local state dir (the umpire's signing key); for SQLite also the database's dir.
    data_dir: Path
    #: What error messages may name as the database (a file path, or a URL without its password).
    path: Path
    #: Reads cost microseconds (a local file): the command path may run a command on the event loop.
    local_reads: bool
    #: The exception classes a unique-key violation raises inside :meth:`transaction`.
    integrity_errors: tuple[type[BaseException], ...]

    # -- games, seats, seeds ---------------------------------------------------------------------
    def create_game(self, *, game_id: str, ruleset: str, scenario: str, setup: str, seed: bytes,
                    seed_commitment: str, token_hashes: dict[str, str], campaign_id: str | None = None,
                    status: str = "active", winner: str | None = None, events: Sequence[NewEvent] = (),
                    chain_version: int = ..., invitation_hashes: dict[str, str] | None = None) -> AppendResult: ...

    def game_ids(self) -> list[str]: ...

    def version(self, game_id: str) -> int: ...

    def seat_for_token(self, game_id: str, token: str) -> str | None: ...

    def seats(self, game_id: str) -> list[str]: ...

    def seat_hashes(self, game_id: str) -> dict[str, str]: ...

    def invitation_hashes(self, game_id: str) -> dict[str, str]: ...

    def seed(self, game_id: str) -> bytes: ...

    # -- seats changing hands (DESIGN 4): the seat's change and its event in one transaction ----------
    def claim_seat(self, game_id: str, seat: str, invitation_hash: str, new_token_hash: str,
                   expected_version: int, events: Sequence[NewEvent]) -> AppendResult:
        """Retire the seat's invitation, store its token hash, append ``events``; ``SeatRefused`` (``claimed``,
        ``wrong``) or ``VersionConflict`` change nothing. Of two claims at once exactly one wins."""

    def rotate_seat(self, game_id: str, seat: str, old_token_hash: str, new_token_hash: str,
                    expected_version: int, events: Sequence[NewEvent]) -> AppendResult:
        """Replace the seat's token hash (it must be ``old_token_hash``: else ``SeatRefused("not-holder")``)."""

    def invited_seats(self, game_id: str) -> list[str]: ...

    def append_tx(self, game_id: str, expected_version: int, events: Sequence[NewEvent]) -> Callable[[Any], AppendResult]:
        """:meth:`append` as a function of a connection, run inside a :meth:`transaction` of another module."""

    def revealed_seed(self, game_id: str) -> bytes | None: ...

    # -- the log ---------------------------------------------------------------------------------
    def append(self, game_id: str, expected_version: int, events: Sequence[NewEvent], *,
               command_id: str | None = None, status: str | None = None, winner: str | None = None,
               command_body: str | None = None, command_seat: str | None = None,
               body_hash: str | None = None) -> AppendResult: ...

    async def append_async(self, game_id: str, expected_version: int, events: Sequence[NewEvent],
                           **kw: Any) -> AppendResult:
        """:meth:`append` awaited on an event loop (same arguments, same guarantees)."""

    def release_threads(self) -> None:
        """Let the threads the store started go (the app's shutdown); a later write starts them again."""

    def command_result(self, game_id: str, command_id: str, seat: str | None = None) -> AppendResult | None: ...

    def head(self, game_id: str, version: int) -> str | None: ...

    def command_body(self, game_id: str, seq: int) -> tuple[int, int, str | None, str] | None: ...

    def event(self, game_id: str, seq: int) -> StoredEvent | None: ...

    def unfinished_bot_games(self) -> list[str]:
        """The unfinished games whose header names bot seats (UMPIRE-BOT-1), without a read per stored game."""

    def import_game(self, game: GameRow, token_hashes: dict[str, str], seed: bytes | None,
                    events: Sequence[StoredEvent], invitation_hashes: dict[str, str] | None = None) -> None: ...

    # -- tables of other modules (campaigns) -----------------------------------------------------
    def transaction(self, fn: Callable[[Any], Any]) -> Any: ...

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]: ...

    def close(self) -> None: ...


__all__ = ["Store"]
