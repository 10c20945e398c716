"""``GET /games/{id}/feed``: server-sent events of each new event the caller may see.

Every event of the log is sent once, in seq order, as the caller may see it
(private fields removed and ``"redacted": true`` otherwise, DESIGN 8), with
``id: <seq>`` so a reconnecting client resumes with ``Last-Event-ID``.
Commands handled by this process wake the feed at once; events appended by
another process are picked up by polling the store every
:data:`POLL_SECONDS`. ``?after=`` starts after that seq; ``?limit=`` closes
the stream after that many events (bounded clients and tests).

A finished game gets no more events (its commands are refused, UMPIRE-UNDO-3: it
cannot be undone): once the caller has every event of it, the feed sends one
``event: end`` message (``{"status": "finished", "version": .., "winner": ..}``,
no ``id``: it is not an event of the log) and closes, instead of staying open
for events that cannot come. A client resuming after the last seq gets the
``end`` at once.
"""
from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
import msgspec
from litestar.response import ServerSentEventMessage

from domain.kernel import FINISHED

from .game_service import GameService

#: How often a feed looks for events appended by another process.
POLL_SECONDS = 1.0
#: A comment line keeps idle connections (and proxies) alive.
KEEPALIVE_EVERY = 15.0


async def stream(svc: GameService, game_id: str, seat: str | None, after: int, limit: int | None) -> AsyncIterator[ServerSentEventMessage]:
    pos, sent, idle = after, 0, 0.0

    def page(p: int) -> tuple[list[dict], dict | None]:
        """The caller's next events after seq ``p``, and the end message once ``p`` is a finished game's last."""
        cur = svc.current(game_id)
        if p >= cur.version:
            st = cur.status
            done = st.status == FINISHED
            return [], ({"status": st.status, "version": cur.version, "winner": st.winner} if done else None)
        records = svc.store.load(game_id, after=p, upto=cur.version, limit=200)
        return svc.render_events(cur, records, seat), None

    while True:
        batch, end = await anyio.to_thread.run_sync(page, pos)
        if end is not None:
            yield ServerSentEventMessage(data=msgspec.json.encode(end).decode(), event="end")
            return
        for ev in batch:
            yield ServerSentEventMessage(data=msgspec.json.encode(ev).decode(), event="event", id=str(ev["seq"]))
            pos = ev["seq"]
            sent += 1
            if limit is not None and sent >= limit:
                return
        if batch:
            idle = 0.0
            continue
        await svc.wait_change(game_id, POLL_SECONDS)
        idle += POLL_SECONDS
        if idle >= KEEPALIVE_EVERY:
            idle = 0.0
            yield ServerSentEventMessage(comment="keepalive")


__all__ = ["POLL_SECONDS", "stream"]
