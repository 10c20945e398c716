"""The live feeds of one process, pushed (``GET /games/{id}/feed``, DESIGN 7 and 11).

A feed never polls and never folds a game. Each process keeps one :class:`FeedHub`: per game with at
least one open feed, the game's ruleset, its bots (the header), the seqs marked undone, whether it is
finished, and the last seq read. A commit wakes the hub:

- in this process, by :meth:`FeedHub.committed` (the command's route and the built-in players call
  ``GameService.notify`` right after the append);
- from another process or node, by the commit bus (:mod:`service.commit_bus`): each commit is published on
  its game's Redis channel, and a process subscribes to a game's channel only while it has feeds of that
  game (the subscription is confirmed before the game's first feed here reads it).

On a wake the hub reads the new events of that game from the store ONCE (the game's row and the events
after its last seq, one worker-thread call) and hands the same batch to every feed of the game; each
feed shows it to its caller (:func:`render`: private fields removed, ``"redacted": true``). While
nothing is committed nothing is read: a feed only waits on its queue, with a keep-alive comment every
:data:`KEEPALIVE_EVERY` seconds (no I/O). A feed that (re)connects reads its own catch-up from the log
(``after=`` / ``Last-Event-ID``) and then follows the hub; a gap between the two is read from the log.
If the bus loses Redis, every game with open feeds is read once when it is back (what was published
meanwhile is not lost).

Metrics: :attr:`FeedHub.subscribers` (open feeds of this process) and :attr:`FeedHub.reads` (store
reads made for feeds) are the place for a feed-subscribers gauge.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio

from domain.kernel import FINISHED, Ruleset, registry, words
from domain.kernel.fold import decode_event
from domain.kernel.header import GameCreated
from domain.kernel.log import StoredEvent
from domain.kernel.undo import Undone

from projections import views
from .commit_bus import RedisCommitBus
from .problems import Problem
from .store_contract import Store

log = logging.getLogger("umpire.feeds")

#: A comment line keeps idle connections (and proxies) alive: each open feed gets one every this many seconds.
KEEPALIVE_EVERY = 15.0
#: Seconds between two ticks of the hub's keep-alive clock. The open feeds are dealt round-robin into
#: ``KEEPALIVE_EVERY / KEEPALIVE_TICK`` slots and each tick serves one slot, so the keep-alives of many
#: feeds opened at once are spread evenly over the period instead of all falling due together.
KEEPALIVE_TICK = 0.25
#: What a feed's queue receives when its keep-alive is due.
KEEPALIVE = None
#: Event types the hub reads once per game when its first feed opens: the header (bots) and the undos.
_INFO_TYPES = ("game_created", "undone")


def render(records: Sequence[StoredEvent], ruleset: Ruleset, seat: str | None, *, finished: bool,
           undone: frozenset[int] | set[int], bots: Mapping[str, str], names: words.Names) -> list[dict[str, Any]]:
    """The log entries as ``seat`` may see them (``GET /games/{id}/events``, the feed, a command's answer).
    ``names``: the game's printed names by id (``words.names_of``)."""
    out = [views.event_view(e, ruleset, seat, finished=finished, undone=e.seq in undone) for e in records]
    for e, entry in zip(records, out):
        spec = bots.get(entry["actor"] or "")
        if spec is not None:  # UMPIRE-BOT-1: a bot seat's entries name the bot
            entry["bot"] = spec
        # DESIGN 12: the step in words and who did it (the timeline's line; never a private field)
        line = views.timeline_entry(e, ruleset, undone=False, names=names, bots=bots)
        entry["summary"], entry["by"] = line["summary"], line["by"]
        if "summary_message" in line:  # issue 28: rendered in the reader's language at the edge
            entry["summary_message"] = line["summary_message"]
    return out


@dataclass(frozen=True)
class Batch:
    """What one read of a game found: its new events, and the game's version and status after them."""

    events: tuple[StoredEvent, ...]
    version: int
    finished: bool
    status: str
    winner: str | None


class Subscription:
    """One open feed: batches (and its keep-alives, :data:`KEEPALIVE`) arrive on its queue."""

    __slots__ = ("game_id", "queue", "slot")

    def __init__(self, game_id: str, slot: int = 0):
        self.game_id = game_id
        self.queue: asyncio.Queue[Batch | None] = asyncio.Queue()
        #: The feed's slot of the hub's keep-alive clock.
        self.slot = slot

    def next(self) -> Coroutine[Any, Any, Batch | None]:
        """The next batch (await it), or None when the feed's keep-alive is due. No timer of its own: the hub's
        one clock serves every feed (:data:`KEEPALIVE_TICK`). The queue's own wait, with no coroutine of this
        method around it: a waiting feed holds one object less for the collector to walk (issue 26)."""
        return self.queue.get()


@dataclass
class GameFeeds:
    """The hub's knowledge of one game with open feeds."""

    ruleset: Ruleset
    bots: dict[str, str]
    undone: set[int]
    names: words.Names
    version: int
    finished: bool
    status: str
    winner: str | None
    subs: set[Subscription] = field(default_factory=set)
    #: The highest version a wake announced (None: unknown, read anyway); the pump reads until it has it.
    wanted: int | None = 0
    pumping: bool = False
    again: bool = False


class FeedHub:
    """The open feeds of one process (see the module's docstring). Its methods run on the event loop."""

    def __init__(self, store: Store, names: Callable[[str], words.Names] | None = None):
        """``names(game_id)``: the game's printed names by id (read once when a game's first feed opens here;
        they come from the scenario, which a game's events do not change)."""
        self.store = store
        self._names = names
        self._games: dict[str, GameFeeds] = {}
        self._loading: dict[str, asyncio.Future[GameFeeds]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.bus: RedisCommitBus | None = None
        #: Store reads made for feeds (game info when a game's first feed opens, one per wake).
        self.reads = 0
        # the keep-alive clock: the open feeds in slots, one slot served per tick (see KEEPALIVE_TICK)
        self._slots: list[set[Subscription]] = [set() for _ in range(max(1, round(KEEPALIVE_EVERY / KEEPALIVE_TICK)))]
        self._next_slot = 0
        self._clock: asyncio.Task[None] | None = None

    # -- metrics -----------------------------------------------------------
    @property
    def subscribers(self) -> int:
        """Open feeds of this process (a feed-subscribers gauge reads this)."""
        return sum(len(g.subs) for g in self._games.values())

    # -- subscribing -------------------------------------------------------
    async def subscribe(self, game_id: str) -> tuple[Subscription, GameFeeds]:
        """A new feed of ``game_id``: its queue (registered before anything is read, so no commit is
        missed) and the game's feed state."""
        self._loop = asyncio.get_running_loop()
        sub = Subscription(game_id, self._next_slot)
        self._next_slot = (self._next_slot + 1) % len(self._slots)
        g = self._games.get(game_id)
        if g is None:
            fut = self._loading.get(game_id)
            if fut is None:
                fut = self._loading[game_id] = self._loop.create_future()
                try:
                    if self.bus is not None:  # every commit after this is heard, every one before it is read
                        await self.bus.follow(game_id)
                    g = await anyio.to_thread.run_sync(self._load, game_id)
                except BaseException as exc:
                    self._loading.pop(game_id, None)
                    self._unfollow(game_id)
                    fut.set_exception(exc)
                    fut.exception()  # retrieved: the waiters (if any) get it too
                    raise
                self._games[game_id] = g
                self._loading.pop(game_id, None)
                fut.set_result(g)
            else:
                g = await asyncio.shield(fut)
        g.subs.add(sub)
        self._slots[sub.slot].add(sub)
        if self._clock is None or self._clock.done():
            self._clock = self._loop.create_task(self._keepalives(), name="umpire-feed-keepalives")
        return sub, g

    async def _keepalives(self) -> None:
        """The hub's keep-alive clock: every tick, the feeds of one slot get a keep-alive; it ends when no
        feed is open (the next subscription starts it again)."""
        tick = 0
        while any(self._slots):
            await asyncio.sleep(KEEPALIVE_TICK)
            tick = (tick + 1) % len(self._slots)
            for sub in self._slots[tick]:
                sub.queue.put_nowait(KEEPALIVE)

    def unsubscribe(self, sub: Subscription) -> None:
        self._slots[sub.slot].discard(sub)
        g = self._games.get(sub.game_id)
        if g is None:
            return
        g.subs.discard(sub)
        if not g.subs and not g.pumping:
            del self._games[sub.game_id]
            self._unfollow(sub.game_id)

    def _unfollow(self, game_id: str) -> None:
        """No feed of ``game_id`` here (and none opening): the bus stops hearing its commits."""
        if self.bus is not None and game_id not in self._games and game_id not in self._loading:
            self.bus.unfollow(game_id)

    def _load(self, game_id: str) -> GameFeeds:
        """The game's feed state: its row and its header and undo events (few), read once."""
        self.reads += 1
        row = self.store.require_game(game_id)
        rs = registry.get(row.ruleset)
        if rs is None:
            raise Problem(503, "unavailable", f"ruleset {row.ruleset!r} is not installed on this server")
        bots: dict[str, str] = {}
        undone: set[int] = set()
        for e in self.store.load(game_id, upto=row.version, types=_INFO_TYPES):
            ev = decode_event(rs, e.payload)
            if isinstance(ev, GameCreated):
                bots = dict(ev.bots)
            elif isinstance(ev, Undone):
                undone.update(range(ev.first, ev.last + 1))
        names = self._names(game_id) if self._names is not None else {}
        return GameFeeds(rs, bots, undone, names, row.version, row.status == FINISHED, row.status, row.winner)

    # -- waking --------------------------------------------------------------
    def committed(self, game_id: str, version: int | None = None) -> None:
        """A commit of this process (call on the event loop right after the append): the game's feeds
        here get the new events, and the other processes hear of it through the bus."""
        if self.bus is not None:
            self.bus.publish(game_id, version)
        self.wake(game_id, version)

    def wake(self, game_id: str, version: int | None) -> None:
        """Read the game's new events once for all its feeds (nothing when it has none here, or when
        ``version`` is already read)."""
        g = self._games.get(game_id)
        if g is None or not g.subs:
            return
        if version is not None and version <= g.version:
            return
        before = g.wanted
        g.wanted = None if version is None or g.wanted is None else max(g.wanted, version)
        if g.pumping:
            # a read under way already covers a version announced before it began (this process's own commit
            # comes back from the bus as an echo): read again only for a newer one, or an unknown one
            if version is None or before is None or version > before:
                g.again = True
            return
        g.pumping = True
        asyncio.get_running_loop().create_task(self._pump(game_id, g))

    def follows(self, game_id: str) -> bool:
        """True when this process has feeds of ``game_id``, or is opening its first (safe from any thread:
        a game not followed when a commit is heard loads its state after that commit)."""
        return game_id in self._games or game_id in self._loading

    def wake_threadsafe(self, game_id: str, version: int | None) -> None:
        """:meth:`wake` from another thread (the bus's listener)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.wake, game_id, version)

    def wake_all_threadsafe(self) -> None:
        """Read every game with feeds here once (the bus was cut off: a commit may have been missed)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(lambda: [self.wake(gid, None) for gid in list(self._games)])

    async def _pump(self, game_id: str, g: GameFeeds) -> None:
        try:
            while True:
                g.again = False
                try:
                    batch = await anyio.to_thread.run_sync(self._read, game_id, g.version)
                except Exception as exc:  # the store failed: the feeds stay; the next commit reads again
                    log.warning("feeds of game %s: the store could not be read (%s: %s)", game_id,
                                type(exc).__name__, exc)
                    return
                self._take(g, batch)
                if batch.events or batch.finished:
                    for sub in list(g.subs):
                        sub.queue.put_nowait(batch)
                if g.again:
                    continue
                if g.wanted is None or g.version >= g.wanted or not batch.events:
                    g.wanted = g.version
                    return
        finally:
            g.pumping = False
            if not g.subs and self._games.get(game_id) is g:
                del self._games[game_id]
                self._unfollow(game_id)

    def _read(self, game_id: str, after: int) -> Batch:
        """ONE read for every feed of the game: its row and its events after ``after``."""
        self.reads += 1
        row = self.store.require_game(game_id)
        events = tuple(self.store.load(game_id, after=after, upto=row.version)) if row.version > after else ()
        return Batch(events, row.version, row.status == FINISHED, row.status, row.winner)

    def _take(self, g: GameFeeds, batch: Batch) -> None:
        for e in batch.events:
            if e.type == "undone":
                ev = decode_event(g.ruleset, e.payload)
                if isinstance(ev, Undone):
                    g.undone.update(range(ev.first, ev.last + 1))
        if batch.events:
            g.version = max(g.version, batch.events[-1].seq)
        g.finished, g.status, g.winner = batch.finished, batch.status, batch.winner

    def close(self) -> None:
        clock, loop = self._clock, self._loop
        if clock is not None and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(clock.cancel)
        if self.bus is not None:
            self.bus.stop()
            self.bus = None


__all__ = ["Batch", "FeedHub", "KEEPALIVE", "KEEPALIVE_EVERY", "KEEPALIVE_TICK", "Subscription", "render"]
