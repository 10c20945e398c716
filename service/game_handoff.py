"""The hand-off after an append (DESIGN section 7): the events just written go to the read models (the
projector, or inline), and the listeners (the built-in players) hear of the game. Best effort: a command is
acknowledged once it is in the log."""
from __future__ import annotations

import logging
from typing import Any

from .tracing import traced

log = logging.getLogger("umpire.service")


class HandOff:
    """:class:`service.game_service.GameService`'s hand-off to the read models and listeners."""

    def _appended(self, game_id: str) -> None:
        for hook in self.on_appended:
            try:
                hook(game_id)
            except Exception:  # the command is stored; a listener must not fail it
                log.exception("on-appended hook %r failed for game %s", hook, game_id)

    def appended(self, game_id: str, events: Any) -> None:
        """Events were appended outside a command (a seat claimed or rotated): hand them to the read
        models and the listeners, as a command's are."""
        self.hand_over(game_id, events)
        self._appended(game_id)

    @traced("umpire.hand_over")
    def hand_over(self, game_id: str, events: Any) -> None:
        """The events an append just wrote go to the read models: to the projector (no I/O here), or
        projected inline when there is none and the caller does not project after answering."""
        if self.read_models is None or self.project_elsewhere:
            return
        if self.projector is not None:
            self.projector.submit(game_id, events)
        elif not self.defer_projection:
            self.project(game_id)

    def project(self, game_id: str) -> None:
        """Bring the read models up to the log (best effort; errors are logged, never raised)."""
        rm = self.read_models
        if rm is None:
            return
        try:
            rm.project(game_id)
            self.projections_down = False
        except Exception as exc:  # Redis down or lagging: the command is in SQLite already
            self.projections_down = True
            log.warning("projection of game %s failed (%s); queries fall back to the log", game_id, exc)




__all__ = ["HandOff"]
