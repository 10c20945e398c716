"""Catching up by themselves (DESIGN section 7): after a Redis outage, restart
or wipe, a background task re-projects every game that is behind the log.

:class:`CatchUp` runs :meth:`ReadModels.catch_up_all` in a worker thread (the
event loop never blocks on Redis or SQLite) when one is due: every ``interval`` seconds it asks
:meth:`ReadModels.needs_catch_up` (no store read), and it runs a complete pass at least every
:data:`FULL_PASS_EVERY_S` seconds.
"""
from __future__ import annotations

import asyncio
import logging
import threading
import time

from .read_models import ReadModels

log = logging.getLogger("umpire.projections")

#: PROPOSED: seconds between two looks at whether a catch-up is due (two small Redis reads).
CATCH_UP_INTERVAL_S = 1.0
#: PROPOSED: seconds between two complete passes when nothing said one is due (a pass reads every game
#: row of the log: O(games), so not every second).
FULL_PASS_EVERY_S = 300.0


class CatchUp:
    """``start()`` inside a running event loop (e.g. the app's startup hook), ``await stop()`` at shutdown."""

    def __init__(self, read_models: ReadModels, interval: float = CATCH_UP_INTERVAL_S):
        self.read_models = read_models
        self.interval = interval
        self._task: asyncio.Task[None] | None = None
        self._stop = threading.Event()
        self._wake: asyncio.Event | None = None
        self._last_full = float("-inf")
        #: Passes run, passes that failed, and the last failure (for /health).
        self.passes = 0
        self.failures = 0
        self.last_error: str | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> asyncio.Task[None]:
        if self.running:
            assert self._task is not None
            return self._task
        self._stop.clear()
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="umpire-projections-catch-up")
        return self._task

    def poke(self) -> None:
        """Run a pass now (e.g. after a projection failed); call from the loop's thread."""
        if self._wake is not None:
            self._wake.set()

    async def run_once(self) -> int | None:
        """One pass in a worker thread; the number of games projected, None if it failed."""
        try:
            due = time.monotonic() - self._last_full >= FULL_PASS_EVERY_S
            if not due and not await asyncio.to_thread(self.read_models.needs_catch_up):
                return 0
            self._last_full = time.monotonic()
            n = await asyncio.to_thread(self.read_models.catch_up_all, self._stop)
        except Exception as exc:  # Redis down: try again next pass
            self.failures += 1
            msg = f"{type(exc).__name__}: {exc}"
            if msg != self.last_error:
                log.warning("projections catch-up failed: %s", msg)
            self.last_error = msg
            return None
        finally:
            self.passes += 1
        if self.last_error is not None:
            log.info("projections catch-up: Redis is back (%d games projected)", n)
        self.last_error = None
        return n

    async def _loop(self) -> None:
        assert self._wake is not None
        while not self._stop.is_set():
            await self.run_once()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=self.interval)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()

    async def stop(self) -> None:
        self._stop.set()
        if self._wake is not None:
            self._wake.set()
        task, self._task = self._task, None
        if task is not None:
            try:
                await asyncio.wait_for(task, timeout=max(5.0, self.interval * 5))
            except (asyncio.TimeoutError, asyncio.CancelledError):
                task.cancel()
