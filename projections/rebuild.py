"""Rebuilding every read model from the log (``umpire projections rebuild``).

Idempotent: every event goes through the same guarded step as live
projection, so events already in the models change nothing. Resumable: the
store rowid reached is kept in Redis (:data:`~projections.keys.REBUILD_CHECKPOINT`)
after every batch; a rebuild that was interrupted starts again from there
(``resume=True``). A final pass projects every game up to the log (games with no
events, and anything a stale checkpoint skipped), then marks the lobby ready.
``fresh=True`` deletes every projection key first (a rebuild after a change of
the view code).
"""
from __future__ import annotations

from collections.abc import Callable

import msgspec
import redis

from domain.kernel.log import EventLog, StoredEvent

from .keys import GAME_KEY_PATTERN, LOBBY_KEY_PATTERN, REBUILD_CHECKPOINT
from .read_models import ReadModels

#: Events read from the log and applied per checkpoint.
REBUILD_BATCH = 500

Progress = Callable[[int, int], None]


class RebuildReport(msgspec.Struct, frozen=True, kw_only=True):
    games: int
    events: int
    #: Events already covered by the checkpoint when this run started.
    resumed_from: int
    #: Events this run went through.
    processed: int


def clear_models(client: redis.Redis) -> int:
    """Delete every projection key (games, lobby, checkpoint); the number deleted."""
    n = 0
    for pattern in (GAME_KEY_PATTERN, LOBBY_KEY_PATTERN):
        batch: list[bytes | str] = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 500:
                n += client.delete(*batch)
                batch = []
        if batch:
            n += client.delete(*batch)
    n += client.delete(REBUILD_CHECKPOINT)
    return n


def _count(store: EventLog, after_rowid: int = 0, upto_rowid: int | None = None) -> int:
    return store.count_events(after_rowid, upto_rowid)


def _apply_batch(rm: ReadModels, batch: list[StoredEvent]) -> None:
    by_game: dict[str, list[StoredEvent]] = {}
    for ev in batch:
        by_game.setdefault(ev.game_id, []).append(ev)
    for game_id, events in by_game.items():
        rm.project(game_id, upto=events[-1].seq, events=events)


def rebuild(
    store: EventLog,
    client: redis.Redis,
    progress: Progress | None = None,
    resume: bool = True,
    *,
    fresh: bool = False,
    batch: int = REBUILD_BATCH,
    read_models: ReadModels | None = None,
) -> RebuildReport:
    """Rebuild the read models of every game in ``store`` into ``client``.

    ``progress(done, total)`` is called with events covered so far and the
    events in the log. Raises redis exceptions when Redis goes away (run it
    again: it resumes).
    """
    rm = read_models or ReadModels(client, store)
    if fresh:
        clear_models(client)
        rm.forget()
    start = 0
    if resume and not fresh:
        raw = client.get(REBUILD_CHECKPOINT)
        start = int(raw) if raw else 0
    total = _count(store)
    resumed = _count(store, 0, start) if start else 0
    done = resumed
    if progress:
        progress(done, total)
    pending: list[StoredEvent] = []
    reached = start
    for rowid, ev in store.iter_all(after_rowid=start, batch=batch):
        pending.append(ev)
        reached = rowid
        if len(pending) >= batch:
            _apply_batch(rm, pending)
            client.set(REBUILD_CHECKPOINT, reached)
            done += len(pending)
            pending = []
            if progress:
                progress(done, total)
    if pending:
        _apply_batch(rm, pending)
        client.set(REBUILD_CHECKPOINT, reached)
        done += len(pending)
        if progress:
            progress(done, total)
    games = store.games()
    for g in games:
        rm.project(g.game_id)
    rm.mark_ready()
    client.delete(REBUILD_CHECKPOINT)
    return RebuildReport(games=len(games), events=total, resumed_from=resumed, processed=done - resumed)
