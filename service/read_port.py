"""The read models as the service sees them: a port (DESIGN section 7).

The service writes the log and hands each commit to the read models; its queries ask them first
and answer from the log when they answer None (Redis unreachable, wiped, behind the log). These
protocols say what it asks; :class:`projections.read_models.ReadModels` implements all three (its
write side, :mod:`projections.read_side` and :mod:`projections.catch_up_pass`). Every method raises
no redis error on the read side: None, and :meth:`ReadSidePort.read_failed` says why.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from domain.kernel.log import GameRow, StoredEvent


@runtime_checkable
class ReadSidePort(Protocol):
    """The queries: ``GET /games/{id}``, a state and view at a seq, the timeline, the lobby, the feed."""

    def begin_read(self) -> None: ...

    def read_failed(self) -> bool | None: ...

    def game_view(self, game_id: str, seat: str | None, *, version: int | None = None) -> dict[str, Any] | None: ...

    def state_at(self, game_id: str, seq: int) -> Any | None: ...

    def view_at(self, game_id: str, seq: int, seat: str | None) -> dict[str, Any] | None: ...

    def timeline(self, game_id: str, *, version: int | None = None) -> list[dict[str, Any]] | None: ...

    def last_seq(self, game_id: str) -> int | None: ...

    def lobby(self, status: str | None = None, ruleset: str | None = None, *,
              after: tuple[str, str] | None = None, limit: int | None = None) -> list[dict[str, Any]] | None: ...

    def feed_key(self, game_id: str) -> str: ...

    def read_feed(self, game_id: str, after_seq: int, block_ms: int = 0) -> list[tuple[int, str]] | None: ...


@runtime_checkable
class WriteSidePort(Protocol):
    """Projecting what the log holds (raises redis errors when Redis is down)."""

    def project(self, game_id: str, upto: int | None = None, *,
                events: Sequence[StoredEvent] | None = None) -> int: ...

    def project_batch(self, batches: dict[str, Sequence[StoredEvent]]) -> list[str]: ...

    def forget(self, game_id: str | None = None) -> None: ...


@runtime_checkable
class CatchUpPort(Protocol):
    """Catching up after an outage, a wipe or a restart."""

    def behind(self) -> list[GameRow]: ...

    def needs_catch_up(self) -> bool: ...

    def catch_up_all(self, stop: threading.Event | None = None) -> int: ...

    def mark_ready(self) -> None: ...

    def trust_shared_ready(self) -> None: ...


@runtime_checkable
class ReadModelPort(ReadSidePort, WriteSidePort, CatchUpPort, Protocol):
    """All of it: what the app holds as ``read_models`` (or None: the log answers everything)."""


__all__ = ["CatchUpPort", "ReadModelPort", "ReadSidePort", "WriteSidePort"]
