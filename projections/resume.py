"""Where the projector process resumes after a restart (issue 26: a warm start).

The projector process records in Redis, after each batch it projected, the log position (the store's
rowid, or ``gpos`` on PostgreSQL) it has projected up to: :data:`PROJECTED_UPTO`, in the lobby's hash tag,
so a wipe, ``FLUSHALL`` or ``umpire projections rebuild --fresh`` (which deletes the lobby's keys) takes it
with the models. The key is written after the batch's own writes, so a Redis snapshot (the private Redis's
RDB in ``DATA_DIR/redis``) that holds it holds everything projected before it.

A starting projector whose Redis still holds the key (and the key is not ahead of the log: a log restored
from an older backup) resumes the tail there: it projects the events committed since, and nothing else. The
start then costs the events since the checkpoint, not one read per stored game. Without the key it catches
up every game from the log, as before (:meth:`ReadModels.catch_up_all`).
"""
from __future__ import annotations

import threading
from typing import Any

import redis as redis_lib

from .keys import LOBBY_TAG

#: The log position the read models in this Redis were projected up to by the projector process.
PROJECTED_UPTO = f"{LOBBY_TAG}:projected-upto"
#: Seconds a starting projector waits for its Redis to load its snapshot (or to accept connections)
#: before it gives up on the checkpoint and catches up every game from the log.
LOAD_WAIT_S = 60.0


def saved_position(redis: Any, log_end: int, stop: threading.Event | None = None,
                   wait_s: float = LOAD_WAIT_S) -> int | None:
    """The position to resume at, or None when a complete catch-up is needed (no checkpoint in this Redis, an
    unreadable one, one past the end of the log, or a Redis that did not answer within ``wait_s``)."""
    stop = stop or threading.Event()
    waited = 0.0
    while True:
        try:
            raw = redis.get(PROJECTED_UPTO)
            break
        except (redis_lib.BusyLoadingError, redis_lib.ConnectionError, redis_lib.TimeoutError):
            if waited >= wait_s or stop.is_set():
                return None
            stop.wait(0.1)
            waited += 0.1
    try:
        pos = int(raw)
    except (TypeError, ValueError):
        return None
    return pos if 0 <= pos <= log_end else None


def save_position(redis: Any, position: int) -> None:
    """Record that every event up to ``position`` is projected."""
    redis.set(PROJECTED_UPTO, position)


__all__ = ["PROJECTED_UPTO", "save_position", "saved_position"]
