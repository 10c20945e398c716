"""The calls of the :class:`service.store_contract.Store` protocol that both store adapters answer the
same way: from their :class:`~service.store.log_sql.LogSql` (``self._sql``, the statements they share), the
writes run by each adapter's own writer (``self._write``: SQLite's group commit, a PostgreSQL transaction;
``self._write_async`` on the event loop). One copy, composed into ``service.store.sqlite.EventStore`` and
``service.store.postgres.PgEventStore`` as a base class of both; neither adapter inherits from the other
(tests/kernel/test_imports.py)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from domain.kernel.chain import CHAIN_V2
from domain.kernel.log import AppendResult, GameRow, NewEvent, StoredEvent

from .log_sql import LogSql


class LogCalls:
    """Games, seats, seeds and events of the log, answered from ``self._sql``; the adapter provides
    ``_sql``, ``_write(tx)`` and ``_write_async(tx)``."""

    _sql: LogSql

    def _write(self, fn: Callable[[Any], Any]) -> Any:  # pragma: no cover - each adapter has its own
        raise NotImplementedError

    async def _write_async(self, fn: Callable[[Any], Any]) -> Any:  # pragma: no cover - each adapter has its own
        raise NotImplementedError

    # -- the log (:mod:`service.store.log_sql`: the statements both adapters share) -----------------------
    def create_game(self, *, game_id: str, ruleset: str, scenario: str, setup: str, seed: bytes,
                    seed_commitment: str, token_hashes: dict[str, str], campaign_id: str | None = None,
                    status: str = "active", winner: str | None = None, events: Sequence[NewEvent] = (),
                    chain_version: int = CHAIN_V2, invitation_hashes: dict[str, str] | None = None) -> AppendResult:
        """A game with its first ``events`` (the header and the opening) in one transaction
        (:meth:`LogSql.create_game_tx`): :class:`GameExists` for a used id, ValueError for a bad seed."""
        return self._write(self._sql.create_game_tx(
            game_id=game_id, ruleset=ruleset, scenario=scenario, setup=setup, seed=seed,
            seed_commitment=seed_commitment, token_hashes=token_hashes, campaign_id=campaign_id, status=status,
            winner=winner, events=events, chain_version=chain_version, invitation_hashes=invitation_hashes))

    def append(self, game_id: str, expected_version: int, events: Sequence[NewEvent], *,
               command_id: str | None = None, status: str | None = None, winner: str | None = None,
               command_body: str | None = None, command_seat: str | None = None,
               body_hash: str | None = None) -> AppendResult:
        """All ``events`` of one command in one transaction, or none (:meth:`LogSql.append_tx`):
        :class:`VersionConflict` for a stale ``expected_version``; a seat's used ``command_id`` answers the
        first answer and appends nothing."""
        return self._write(self._sql.append_tx(game_id, expected_version, events, command_id=command_id,
                                               status=status, winner=winner, command_body=command_body,
                                               command_seat=command_seat, body_hash=body_hash))

    async def append_async(self, game_id: str, expected_version: int, events: Sequence[NewEvent],
                           **kw: Any) -> AppendResult:
        """:meth:`append` awaited on an event loop (the command path)."""
        return await self._write_async(self._sql.append_tx(game_id, expected_version, events, **kw))

    def append_tx(self, game_id: str, expected_version: int, events: Sequence[NewEvent]) -> Callable[[Any], AppendResult]:
        """:meth:`append`'s transaction as a function of the connection, for a write of another module that
        appends to a game inside its own :meth:`transaction` (a campaign seat recorded in its battle)."""
        return self._sql.append_tx(game_id, expected_version, events)

    def claim_seat(self, game_id: str, seat: str, invitation_hash: str, new_token_hash: str,
                   expected_version: int, events: Sequence[NewEvent]) -> AppendResult:
        """Retire the seat's invitation, store its token hash, append ``events`` (:meth:`LogSql.claim_seat_tx`)."""
        return self._write(self._sql.claim_seat_tx(game_id, seat, invitation_hash, new_token_hash,
                                                   expected_version, events))

    def rotate_seat(self, game_id: str, seat: str, old_token_hash: str, new_token_hash: str,
                    expected_version: int, events: Sequence[NewEvent]) -> AppendResult:
        """Replace the seat's token hash and append ``events`` (:meth:`LogSql.rotate_seat_tx`)."""
        return self._write(self._sql.rotate_seat_tx(game_id, seat, old_token_hash, new_token_hash,
                                                    expected_version, events))

    def game(self, game_id: str) -> GameRow | None:
        return self._sql.game(game_id)

    def require_game(self, game_id: str) -> GameRow:
        return self._sql.require_game(game_id)

    def games(self, *, status: str | None = None, ruleset: str | None = None,
              after: tuple[str, str] | None = None, limit: int | None = None) -> list[GameRow]:
        return self._sql.games(status=status, ruleset=ruleset, after=after, limit=limit)

    def newest_game_id(self) -> str | None:
        return self._sql.newest_game_id()

    def game_ids(self) -> list[str]:
        return self._sql.game_ids()

    def version(self, game_id: str) -> int:
        return self._sql.version(game_id)

    def seat_for_token(self, game_id: str, token: str) -> str | None:
        return self._sql.seat_for_token(game_id, token)

    def seats(self, game_id: str) -> list[str]:
        return self._sql.seats(game_id)

    def seat_hashes(self, game_id: str) -> dict[str, str]:
        return self._sql.seat_hashes(game_id)

    def invitation_hashes(self, game_id: str) -> dict[str, str]:
        return self._sql.invitation_hashes(game_id)

    def invited_seats(self, game_id: str) -> list[str]:
        return self._sql.invited_seats(game_id)

    def seed(self, game_id: str) -> bytes:
        return self._sql.seed(game_id)

    def revealed_seed(self, game_id: str) -> bytes | None:
        return self._sql.revealed_seed(game_id)

    def command_result(self, game_id: str, command_id: str, seat: str | None = None) -> AppendResult | None:
        return self._sql.command_result(game_id, command_id, seat)

    def head(self, game_id: str, version: int) -> str | None:
        return self._sql.head(game_id, version)

    def command_body(self, game_id: str, seq: int) -> tuple[int, int, str | None, str] | None:
        return self._sql.command_body(game_id, seq)

    def load(self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None,
             types: Iterable[str] | None = None) -> list[StoredEvent]:
        return self._sql.load(game_id, after=after, upto=upto, limit=limit, types=types)

    def last_seq_not_of(self, game_id: str, types: Iterable[str], upto: int | None = None) -> int:
        return self._sql.last_seq_not_of(game_id, types, upto)

    def event(self, game_id: str, seq: int) -> StoredEvent | None:
        return self._sql.event(game_id, seq)

    def unfinished_bot_games(self) -> list[str]:
        return self._sql.unfinished_bot_games()

    def count_events(self, after_rowid: int = 0, upto_rowid: int | None = None) -> int:
        return self._sql.count_events(after_rowid, upto_rowid)


__all__ = ["LogCalls"]
