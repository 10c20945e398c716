"""The catch-up of the read models: which games are behind the log, whether a complete pass is due,
and the pass itself (run in the background by :class:`projections.catch_up.CatchUp`).

:class:`CatchUpPass` is part of :class:`projections.read_models.ReadModels`."""
from __future__ import annotations

import logging
import threading
from typing import Any

from domain.kernel import FINISHED
from domain.kernel.log import EventLog, GameRow

from .keys import LOBBY_READY, LOBBY_VERSIONS, GameKeys
from .redis_io import REDIS_ERRORS, as_int

log = logging.getLogger("umpire.projections")


class CatchUpPass:
    """The catch-up of :class:`projections.read_models.ReadModels` (see there for the attributes)."""

    redis: Any
    store: EventLog
    _lobby_stale: bool
    _caught_up_run: tuple[str, ...] | None

    # -- catch-up ------------------------------------------------------------
    def behind(self) -> list[GameRow]:
        """Games whose models (or lobby entry) are not at the log's version."""
        games = self.store.games()
        if not games:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for g in games:
            pipe.hget(GameKeys(g.game_id).meta, "seq")
        pipe.hmget(LOBBY_VERSIONS, [g.game_id for g in games])
        res = pipe.execute()
        seqs, lobby_versions = res[:-1], res[-1]
        # a finished game whose models expired (UMPIRE_FINISHED_TTL) is not behind while its lobby entry
        # is at its version: its views, timeline and replay are answered from the log
        return [g for g, s, lv in zip(games, seqs, lobby_versions)
                if as_int(lv) != g.version or (as_int(s) != g.version and not (s is None and g.status == FINISHED))]

    def trust_shared_ready(self) -> None:
        """Answer the lobby from Redis whenever ``{lobby}:ready`` is set, without a catch-up of this
        process (for a process beside a projector that catches up and keeps the key)."""
        self._lobby_stale = False

    def _run_ids(self) -> tuple[str, ...]:
        info = self.redis.info("server")
        found: list[str] = []

        def walk(d: Any) -> None:
            if isinstance(d, dict):
                for k, v in d.items():
                    if k == "run_id":
                        found.append(str(v))
                    else:
                        walk(v)
        walk(info)
        return tuple(sorted(found))

    def needs_catch_up(self) -> bool:
        """Whether a complete catch-up is due: never done here, a projection failed since, the lobby's
        ready key is gone (a wipe), or Redis restarted (two small Redis reads, no store read)."""
        if self._lobby_stale or self._caught_up_run is None:
            return True
        try:
            return not self.redis.exists(LOBBY_READY) or self._run_ids() != self._caught_up_run
        except REDIS_ERRORS:
            return True

    def catch_up_all(self, stop: threading.Event | None = None) -> int:
        """Project every game that is behind the log (after an outage, a wipe, a restart).

        Returns the number of games projected. Marks the lobby ready when every
        game is caught up. Raises redis exceptions when Redis is down.
        """
        done = 0
        failed = False
        run = self._run_ids()
        for g in self.behind():
            if stop is not None and stop.is_set():
                return done
            try:
                self.project(g.game_id)
                done += 1
            except REDIS_ERRORS:
                raise
            except Exception as exc:  # one bad game must not keep the others behind
                log.warning("catch-up: game %s cannot be projected: %s: %s", g.game_id, type(exc).__name__, exc)
                failed = True
        if not failed:
            self.mark_ready()
            self._caught_up_run = run
        return done

    def mark_ready(self) -> None:
        """Every game is caught up: the lobby may be answered from Redis."""
        self.redis.set(LOBBY_READY, "1")
        self._lobby_stale = False

    def mark_caught_up(self) -> None:
        """Every game is caught up by other means than :meth:`catch_up_all` (the projector process resumed
        at its checkpoint, :mod:`projections.resume`): ready, and no complete catch-up due."""
        run = self._run_ids()
        self.mark_ready()
        self._caught_up_run = run
