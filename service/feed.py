"""``GET /games/{id}/feed``: server-sent events of each new event the caller may see.

Every event of the log is sent once, in seq order, as the caller may see it
(private fields removed and ``"redacted": true`` otherwise, DESIGN 8), with
``id: <seq>`` so a reconnecting client resumes with ``Last-Event-ID``.
``?after=`` starts after that seq; ``?limit=`` closes the stream after that
many events (bounded clients and tests).

A feed is pushed, never polled (:mod:`service.feed_hub`): it reads its own
catch-up from the log once, then waits for the batches the process's hub reads
once per commit for every feed of the game (commits of this process at once,
those of other processes and nodes through the hub's Redis bus). An idle feed
costs no store read; a comment line every :data:`KEEPALIVE_EVERY` seconds keeps
the connection (and proxies) alive.

A finished game gets no more events (its commands are refused, UMPIRE-UNDO-3: it
cannot be undone): once the caller has every event of it, the feed sends one
``event: end`` message (``{"status": "finished", "version": .., "winner": ..}``,
no ``id``: it is not an event of the log) and closes, instead of staying open
for events that cannot come. A client resuming after the last seq gets the
``end`` at once.

A feed opened with a seat's token closes right after that seat's ``seat_rotated``
event (UMPIRE-SEAT-4: the old token no longer acts, so whoever still holds it gets
none of the seat's later secrets; the holder reconnects with its new token).
"""
from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
import msgspec
from litestar.response import ServerSentEventMessage

from .feed_hub import KEEPALIVE_EVERY, render
from .game_service import GameService

#: Events one catch-up read of the log returns at most.
CATCH_UP_PAGE = 200
#: Marks the end of what a feed whose seat's token was rotated may get (never sent).
ROTATED = ServerSentEventMessage(comment="rotated")


async def stream(svc: GameService, game_id: str, seat: str | None, after: int, limit: int | None) -> AsyncIterator[ServerSentEventMessage]:
    hub = svc.feeds
    sub, g = await hub.subscribe(game_id)  # registered first: no commit after this point is missed
    pos, sent = after, 0

    def messages(records: list, finished: bool) -> list[ServerSentEventMessage]:
        out = []
        for ev in render(records, g.ruleset, seat, finished=finished, undone=g.undone, bots=g.bots, names=g.names):
            out.append(ServerSentEventMessage(data=msgspec.json.encode(ev).decode(), event="event", id=str(ev["seq"])))
            if seat is not None and ev["type"] == "seat_rotated" and ev["payload"].get("seat") == seat:
                out.append(ROTATED)  # UMPIRE-SEAT-4: this feed's token is dead from here on
                break
        return out

    try:
        # this feed's own catch-up from the log (a reconnect resumes by Last-Event-ID)
        while pos < g.version:
            records = await anyio.to_thread.run_sync(
                lambda p=pos: svc.store.load(game_id, after=p, upto=g.version, limit=CATCH_UP_PAGE))
            if not records:
                break
            for msg in messages(records, g.finished):
                if msg is ROTATED:
                    return
                yield msg
                pos, sent = int(msg.id or pos), sent + 1
                if limit is not None and sent >= limit:
                    return
        while True:
            if g.finished and pos >= g.version:
                end = {"status": g.status, "version": g.version, "winner": g.winner}
                yield ServerSentEventMessage(data=msgspec.json.encode(end).decode(), event="end")
                return
            batch = await sub.next(KEEPALIVE_EVERY)
            if batch is None:
                yield ServerSentEventMessage(comment="keepalive")
                continue
            new = [e for e in batch.events if e.seq > pos]
            if new and new[0].seq > pos + 1:  # events read for the hub before this feed caught up to them
                gap = await anyio.to_thread.run_sync(
                    lambda p=pos, upto=new[0].seq - 1: svc.store.load(game_id, after=p, upto=upto))
                new = [*gap, *new]
            for msg in messages(new, batch.finished):
                if msg is ROTATED:
                    return
                yield msg
                pos, sent = int(msg.id or pos), sent + 1
                if limit is not None and sent >= limit:
                    return
    finally:
        hub.unsubscribe(sub)


__all__ = ["KEEPALIVE_EVERY", "stream"]
