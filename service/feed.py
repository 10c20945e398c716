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

A feed speaks the language asked for when it is opened (``?lang=``, then ``Accept-Language``; issue 28):
each event's ``summary``, ``by.text`` and ruling are in it, and the answer says which (``Content-Language``).

A feed opened with a seat's token closes right after that seat's ``seat_rotated``
event (UMPIRE-SEAT-4: the old token no longer acts, so whoever still holds it gets
none of the seat's later secrets; the holder reconnects with its new token). Every
event the feed reads is looked at for it, also those before ``after`` (a feed that
skips ahead still stops), and the token is checked again once the feed is registered.
"""
from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable, Mapping

import anyio
import msgspec
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.response.streaming import Stream

from . import i18n
from .feed_hub import KEEPALIVE_EVERY, GameFeeds, render
from .game_service import GameService
from .language import DEFAULT

#: Events one catch-up read of the log returns at most.
CATCH_UP_PAGE = 200
def rotation_of(records: list | tuple, seat: str | None) -> int | None:
    """The seq of ``seat``'s first ``seat_rotated`` event in ``records`` (None: none, or a spectator's feed)."""
    if seat is None:
        return None
    for e in records:
        if e.type == "seat_rotated" and msgspec.json.decode(e.payload).get("seat") == seat:
            return e.seq
    return None

#: The keep-alive: a comment line only. ``data=None``: litestar otherwise adds an empty ``data:`` line, which a
#: browser's EventSource dispatches as an empty message (the page would try to read it as an event).
KEEPALIVE_MESSAGE = ServerSentEventMessage(comment="keepalive", data=None)


class FeedResponse(ServerSentEvent):
    """The feed's answer: litestar's :class:`ServerSentEvent` (same media type and headers), its messages encoded
    by :func:`wire`. litestar's own wrapper first walks an empty list of prefix chunks in a worker thread and
    keeps the ``ValueError`` that ends it (its traceback and four frames) for the whole life of the stream: about
    20 more objects per open feed for the garbage collector to walk, and a thread hop per feed opened (issue 26)."""

    def __init__(self, source: AsyncIterator[ServerSentEventMessage], headers: Mapping[str, str] | None = None):
        Stream.__init__(self, content=wire(source), media_type="text/event-stream", headers=dict(headers or {}))
        self.headers.setdefault("Cache-Control", "no-cache")
        self.headers["Connection"] = "keep-alive"
        self.headers["X-Accel-Buffering"] = "no"


async def wire(source: AsyncIterator[ServerSentEventMessage]) -> AsyncIterator[bytes]:
    """Each message of ``source`` as the bytes of its server-sent event block."""
    async for msg in source:
        yield msg.encode()


def messages(records: list, finished: bool, g: GameFeeds, seat: str | None, lang: str) -> list[ServerSentEventMessage]:
    """The SSE messages of ``records`` as ``seat`` may see them, in ``lang`` (a function of the module, not a
    closure of each feed: an open feed holds fewer objects for the collector, issue 26)."""
    shown = render(records, g.ruleset, seat, finished=finished, undone=g.undone, bots=g.bots, names=g.names)
    if lang != DEFAULT:
        i18n.localize(shown, lang, g.names)
    return [ServerSentEventMessage(data=msgspec.json.encode(ev).decode(), event="event", id=str(ev["seq"]))
            for ev in shown]


async def stream(svc: GameService, game_id: str, seat: str | None, after: int, limit: int | None,
                 holds: Callable[[], bool] | None = None, lang: str = DEFAULT) -> AsyncIterator[ServerSentEventMessage]:
    """``holds()``: whether the caller's token still holds ``seat`` (asked once the feed is registered, so a
    rotation between the route's check and the registration is seen). ``lang``: the language of the events'
    words (each one's summary, who did it, its ruling), chosen once when the feed is opened (issue 28)."""
    hub = svc.feeds
    sub, g = await hub.subscribe(game_id)  # registered first: no commit after this point is missed
    pos, sent = after, 0

    try:
        if seat is not None and holds is not None and not await anyio.to_thread.run_sync(holds):
            return  # UMPIRE-SEAT-4: the token was rotated meanwhile
        holds = None  # asked once: not kept (nor what it holds) for the life of the feed
        # this feed's own catch-up from the log (a reconnect resumes by Last-Event-ID)
        while pos < g.version:
            records = await anyio.to_thread.run_sync(
                functools.partial(svc.store.load, game_id, after=pos, upto=g.version, limit=CATCH_UP_PAGE))
            if not records:
                break
            rotated = rotation_of(records, seat)
            for msg in messages([e for e in records if rotated is None or e.seq <= rotated], g.finished, g, seat,
                                lang):
                yield msg
                pos, sent = int(msg.id or pos), sent + 1
                if limit is not None and sent >= limit:
                    return
            if rotated is not None:
                return  # UMPIRE-SEAT-4: this feed's token is dead from the seat's rotation on
        while True:
            if g.finished and pos >= g.version:
                end = {"status": g.status, "version": g.version, "winner": g.winner}
                yield ServerSentEventMessage(data=msgspec.json.encode(end).decode(), event="end")
                return
            batch = await sub.next()
            if batch is None:
                yield KEEPALIVE_MESSAGE
                continue
            new = [e for e in batch.events if e.seq > pos]
            if new and new[0].seq > pos + 1:  # events read for the hub before this feed caught up to them
                gap = await anyio.to_thread.run_sync(
                    functools.partial(svc.store.load, game_id, after=pos, upto=new[0].seq - 1))
                new = [*gap, *new]
            # every event read, also those before ``after``: a feed that skips ahead still sees the rotation
            rotated = rotation_of([*batch.events, *new], seat)
            for msg in messages([e for e in new if rotated is None or e.seq <= rotated], batch.finished, g, seat,
                                lang):
                yield msg
                pos, sent = int(msg.id or pos), sent + 1
                if limit is not None and sent >= limit:
                    return
            if rotated is not None:
                return  # UMPIRE-SEAT-4
    finally:
        hub.unsubscribe(sub)


__all__ = ["KEEPALIVE_EVERY", "FeedResponse", "messages", "stream", "wire"]
