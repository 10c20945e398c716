"""The projector: the read models follow the log off the command path (DESIGN section 7, issue 17).

A command is acknowledged once its events are in the store; the service then hands the events it
just wrote to :meth:`Projector.submit` (no Redis, no I/O: a dict insert under a lock) and answers.
One thread per process drains what was handed over: everything submitted since its last pass,
coalesced per game, goes to :meth:`ReadModels.project_batch` -- one Redis round trip for the whole
batch, each game's views built once for its last seq.

Nothing depends on the projector for correctness: a read whose read model is behind the store
answers from the log (so the sender reads its own write at once), and the catch-up
(:class:`projections.CatchUp`) re-projects from the store whatever was handed over but never
projected (Redis down, a crash of the process between the commit and the projection).
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from domain.kernel.log import EventLog, StoredEvent

from .keys import LOBBY_READY
from .resume import save_position, saved_position

log = logging.getLogger("umpire.projections")

#: Seconds :meth:`Projector.stop` waits for the last batch to be projected.
STOP_DRAIN_S = 5.0


class Projector:
    """``start()`` once, ``submit(game_id, events)`` after each append, ``stop()`` at shutdown.

    ``on_failure`` is called (from the projector's thread) when a batch could not be projected
    (Redis down): the catch-up repairs it once Redis is back.
    """

    def __init__(self, read_models: Any, *, on_failure: Callable[[BaseException], None] | None = None):
        self.read_models = read_models
        self.on_failure = on_failure
        self._pending: dict[str, list[StoredEvent]] = {}
        self._cv = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._paused = False
        self._busy = False
        #: Batches projected, and batches that failed (for /health and the tests).
        self.batches = 0
        self.failures = 0
        #: True when the last batch failed (Redis unreachable).
        self.down = False

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name="umpire-projector", daemon=True)
        self._thread.start()

    def submit(self, game_id: str, events: Sequence[StoredEvent]) -> None:
        """Hand over the events just written to ``game_id`` (in seq order). Never blocks on I/O."""
        if not events:
            return
        with self._cv:
            self._pending.setdefault(game_id, []).extend(events)
            self._cv.notify()
            if self._thread is None and not self._stopping:
                self.start()  # an app whose startup hook did not run (e.g. a test client without ``with``)

    def pause(self) -> None:
        """Hold every batch until :meth:`resume` (tests: a command acknowledged before its projection)."""
        with self._cv:
            self._paused = True
            while self._busy:
                self._cv.wait(0.05)

    def resume(self) -> None:
        with self._cv:
            self._paused = False
            self._cv.notify_all()

    def discard(self) -> int:
        """Drop what was handed over and not projected yet (tests: a crash between the two);
        returns the number of events dropped."""
        with self._cv:
            n = sum(len(v) for v in self._pending.values())
            self._pending.clear()
            return n

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until everything handed over is projected (or failed); False on timeout."""
        with self._cv:
            return self._cv.wait_for(lambda: not self._pending and not self._busy, timeout)

    def _loop(self) -> None:
        while True:
            with self._cv:
                self._cv.wait_for(lambda: self._stopping or (self._pending and not self._paused))
                if not self._pending or (self._paused and not self._stopping):
                    return
                batch, self._pending = self._pending, {}
                self._busy = True
            try:
                self._project(batch)
            finally:
                with self._cv:
                    self._busy = False
                    self._cv.notify_all()

    def _project(self, batch: dict[str, list[StoredEvent]]) -> None:
        try:
            self.read_models.project_batch(batch)
            self.down = False
        except Exception as exc:  # Redis down: the commands are in the store; the catch-up repairs
            self.failures += 1
            if not self.down:
                log.warning("projection of %d game(s) failed (%s: %s); queries fall back to the log",
                            len(batch), type(exc).__name__, exc)
            self.down = True
            if self.on_failure is not None:
                try:
                    self.on_failure(exc)
                except Exception:  # pragma: no cover
                    log.exception("projector on_failure hook failed")
        finally:
            self.batches += 1

    def stop(self, timeout: float = STOP_DRAIN_S) -> None:
        """Project what is pending (bounded by ``timeout``), then end the thread."""
        with self._cv:
            self._stopping = True
            self._paused = False
            self._cv.notify_all()
        t, self._thread = self._thread, None
        if t is not None:
            t.join(timeout)


__all__ = ["Projector", "STOP_DRAIN_S", "TAIL_POLL_S", "main", "tail"]


# -- the projector process (``umpire serve`` starts and supervises it) ------------------------
#: PROPOSED: seconds the projector process sleeps when the log has nothing new.
TAIL_POLL_S = 0.01
#: Events read from the log per pass at most.
TAIL_BATCH = 2000
#: Seconds between two looks at whether Redis was wiped or restarted (no store read).
CHECK_EVERY_S = 1.0


def tail(read_models: Any, store: EventLog, stop: threading.Event, poll: float = TAIL_POLL_S) -> None:
    """Follow the log in commit order (rowid) and project each pass's new events in one batch
    (:meth:`ReadModels.project_batch`), until ``stop``. It starts at the checkpoint its Redis kept
    (:mod:`projections.resume`: the events since are projected, nothing else), or without one with a catch-up
    of every game (so whatever a crash left unprojected converges); it catches up again after a Redis outage."""
    last = store.last_position()
    behind = True
    resumed_to: int | None = None  # a warm start: ready once the tail has reached the log's end of now
    #: whether every event up to ``last`` is projected (then each batch's position is saved as the checkpoint)
    trusted = False
    try:
        at = saved_position(read_models.redis, last, stop)
        if at is not None:
            read_models.redis.delete(LOBBY_READY)  # the lobby from the log until the tail reaches the end
            log.info("projector: resuming at log position %d (the log ends at %d)", at, last)
            last, resumed_to, behind, trusted = at, last, False, True
    except Exception as exc:  # a Redis error: the catch-up below retries until Redis answers
        log.info("projector: no checkpoint read (%s: %s); catching up every game", type(exc).__name__, exc)
    checked = time.monotonic()
    while not stop.is_set():
        if resumed_to is not None and last >= resumed_to:
            read_models.mark_caught_up()
            log.info("caught up with the log: 0 game(s) projected, %d event(s) applied (resumed at the checkpoint)",
                     getattr(read_models, "events_applied", 0))
            resumed_to = None
            checked = time.monotonic()
        if not behind and resumed_to is None and time.monotonic() - checked >= CHECK_EVERY_S:
            checked = time.monotonic()
            behind = read_models.needs_catch_up()  # a wipe or a restart of Redis
        if behind:
            try:
                # until this process has caught up, the lobby is answered from the log (a ready key of a
                # Redis that kept its data across a restart says nothing about the log of now)
                read_models.redis.delete(LOBBY_READY)
                before = getattr(read_models, "events_applied", 0)
                upto = store.last_position()  # everything up to here is projected once the catch-up is done
                n = read_models.catch_up_all(stop)
                behind, resumed_to = False, None
                # a game that could not be projected leaves the models incomplete: no checkpoint then
                trusted = not stop.is_set() and not read_models.needs_catch_up()
                if trusted:
                    save_position(read_models.redis, min(last, upto))
                log.info("caught up with the log: %d game(s) projected, %d event(s) applied", n,
                         getattr(read_models, "events_applied", 0) - before)
            except Exception as exc:
                log.warning("projector: catch-up failed (%s: %s); trying again", type(exc).__name__, exc)
                stop.wait(1.0)
                continue
        batch: dict[str, list[StoredEvent]] = {}
        n = 0
        for rowid, ev in store.iter_all(after_rowid=last, batch=TAIL_BATCH):
            last = rowid
            batch.setdefault(ev.game_id, []).append(ev)
            n += 1
            if n >= TAIL_BATCH:
                break
        if not batch:
            stop.wait(poll)
            continue
        try:
            read_models.project_batch(batch)
            if trusted:
                save_position(read_models.redis, last)
        except Exception as exc:  # Redis down: catch up from the store once it is back
            log.warning("projector: projection failed (%s: %s); catching up from the log", type(exc).__name__, exc)
            behind, trusted = True, False
            stop.wait(0.5)
