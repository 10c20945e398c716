"""The live feeds of one process, pushed (``GET /games/{id}/feed``, DESIGN 7 and 11).

A feed never polls and never folds a game. Each process keeps one :class:`FeedHub`: per game with at
least one open feed, the game's ruleset, its bots (the header), the seqs marked undone, whether it is
finished, and the last seq read. A commit wakes the hub:

- in this process, by :meth:`FeedHub.committed` (the command's route and the built-in players call
  ``GameService.notify`` right after the append);
- from another process or node, by the :class:`RedisCommitBus`: every process publishes each commit
  (``"<game_id> <version>"``) on one Redis channel and listens to it (pub/sub works unchanged on Redis
  Cluster, and with either event store).

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
import queue
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
import redis

from domain.kernel import FINISHED, Ruleset, registry, words
from domain.kernel.fold import decode_event
from domain.kernel.header import GameCreated
from domain.kernel.log import AppendResult, StoredEvent
from domain.kernel.undo import Undone

from projections import views
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
#: The Redis pub/sub channel every process publishes its commits on.
COMMITS_CHANNEL = "umpire:commits"
#: Seconds the bus's listener waits for a message before it looks at its stop flag (one Redis read, no store).
BUS_WAIT_S = 1.0
#: Seconds before the bus tries Redis again after losing it.
BUS_RETRY_S = 1.0
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
                    g = await anyio.to_thread.run_sync(self._load, game_id)
                except BaseException as exc:
                    self._loading.pop(game_id, None)
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


def _pipelines_publish(client: Any) -> bool:
    """True for a client whose pipelines carry ``PUBLISH`` (a plain Redis; a Redis Cluster's pipelines refuse it)."""
    return isinstance(client, redis.Redis)


class RedisCommitBus:
    """Commits between processes and nodes over one Redis pub/sub channel (:data:`COMMITS_CHANNEL`).

    ``publish`` never blocks the caller (a thread sends: the commits that queued while it sent go out
    together, one message per game with its newest version, in one round trip on a plain Redis); a
    listener thread wakes the hub for each commit of a game that has feeds here. Redis down: commits are
    still stored and shown by this process's feeds; when the listener reconnects, every game with feeds
    here is read once."""

    def __init__(self, hub: FeedHub, connect: Any, channel: str = COMMITS_CHANNEL):
        """``connect()``: a new redis-py client (plain or cluster) for the bus's own connections."""
        self.hub = hub
        self.connect = connect
        self.channel = channel
        self._out: queue.SimpleQueue[tuple[str, int | None] | None] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        #: True once :meth:`attach` made the store's writer announce the commits (then :meth:`publish` is not
        #: needed: every append of this process is announced by the thread that committed it).
        self.writer_announces = False
        #: The writer's own connection to a plain Redis (made by the sender thread; None: not yet, or lost,
        #: and the writer hands its commits to the sender thread, which makes a new one).
        self._fast: Any = None
        self._fast_lock = threading.Lock()
        self._detach: Callable[[], None] | None = None
        #: Commits published and heard (for the tests and a gauge).
        self.published = 0
        self.heard = 0

    def start(self) -> None:
        if self._threads:
            return
        self._stop.clear()
        for target, name in ((self._send, "umpire-feed-publish"), (self._listen, "umpire-feed-listen")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)

    def attach(self, store: Any) -> bool:
        """Announce the commits of ``store`` from the thread that commits them (its ``commit_listeners``, the
        SQLite store's group commit: after each group's fsync and answers, one round trip for the group, no
        thread hop). False for a store without commit listeners (then :meth:`publish` sends, from the bus's
        sender thread)."""
        listeners = getattr(store, "commit_listeners", None)
        if listeners is None:
            return False
        listeners.append(self.group_committed)
        self._detach = lambda: listeners.remove(self.group_committed)
        self.writer_announces = True
        return True

    def publish(self, game_id: str, version: int | None) -> None:
        """A commit of this process (the hub calls it on the event loop). Nothing to do when the store's
        writer announces its commits itself (:meth:`attach`); else the sender thread sends it."""
        if not self.writer_announces:
            self._out.put((game_id, version))

    def group_committed(self, outs: list[Any]) -> None:
        """The kept results of one group commit (on the committing thread): each game appended to, once,
        with its newest version, in one round trip on the writer's connection; without it (not made yet,
        lost, a Redis Cluster), handed to the sender thread."""
        commits: dict[str, int | None] = {}
        for out in outs:
            if isinstance(out, AppendResult) and out.events:
                game_id = out.events[-1].game_id
                had = commits.get(game_id)
                commits[game_id] = out.version if had is None else max(had, out.version)
        if not commits:
            return
        conn = self._fast
        if conn is not None and self._fast_lock.acquire(blocking=False):
            try:
                if self._fast is conn:
                    conn.send_packed_command(conn.pack_commands(
                        [("PUBLISH", self.channel, f"{game_id} {version}") for game_id, version in commits.items()]),
                        check_health=False)
                    for _ in commits:
                        conn.read_response()
                    self.published += len(commits)
                    return
            except Exception as exc:  # the sender thread sends them, and makes a new connection
                log.debug("feed bus: the writer's publish failed (%s)", exc)
                self._fast = None
                try:
                    conn.disconnect()
                except Exception:
                    pass
            finally:
                self._fast_lock.release()
        for item in commits.items():
            self._out.put(item)

    def _ready_fast(self, client: Any) -> None:
        """The writer's connection, made on the sender thread (never on the writer's: a Redis that is down
        must not hold a commit group), for a plain Redis."""
        if not self.writer_announces or self._fast is not None or not _pipelines_publish(client):
            return
        try:
            conn = client.connection_pool.make_connection()
            conn.connect()
        except Exception as exc:
            log.debug("feed bus: no writer's connection (%s)", exc)
            return
        self._fast = conn

    def _send(self) -> None:
        client = None
        if self.writer_announces:
            try:
                client = self.connect()
                self._ready_fast(client)
            except Exception as exc:  # the first commit handed over tries again
                log.debug("feed bus: no connection yet (%s)", exc)
                client = None
        while not self._stop.is_set():
            item = self._out.get()
            if item is None:
                return
            commits, stopping = self._drain(item)
            try:
                if client is None:
                    client = self.connect()
                messages = [f"{game_id} {'' if version is None else version}" for game_id, version in commits.items()]
                if len(messages) == 1 or not _pipelines_publish(client):
                    for message in messages:
                        client.publish(self.channel, message)
                else:  # the commits that queued meanwhile in one round trip
                    pipe = client.pipeline(transaction=False)
                    for message in messages:
                        pipe.publish(self.channel, message)
                    pipe.execute()
                self.published += len(messages)
                self._ready_fast(client)
            except Exception as exc:  # Redis down: the other processes read again once it is back
                log.debug("feed bus: publish failed (%s)", exc)
                client = None
            if stopping:
                return

    def _drain(self, first: tuple[str, int | None]) -> tuple[dict[str, int | None], bool]:
        """``first`` and every commit queued behind it, one per game: its newest version (None, "read
        again", when any of them was unknown). True when the stop came meanwhile."""
        commits: dict[str, int | None] = {}
        item: tuple[str, int | None] | None = first
        while item is not None:
            game_id, version = item
            if game_id in commits:
                had = commits[game_id]
                version = None if had is None or version is None else max(had, version)
            commits[game_id] = version
            try:
                item = self._out.get_nowait()
            except queue.Empty:
                return commits, False
        return commits, True

    def _listen(self) -> None:
        first = True
        while not self._stop.is_set():
            client = pubsub = None
            try:
                client = self.connect()
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.channel)
                if not first:
                    self.hub.wake_all_threadsafe()
                first = False
                while not self._stop.is_set():
                    msg = pubsub.get_message(timeout=BUS_WAIT_S)
                    if msg is None or msg.get("type") != "message":
                        continue
                    data = msg["data"]
                    text = data.decode() if isinstance(data, bytes) else str(data)
                    game_id, _, raw = text.partition(" ")
                    self.heard += 1
                    if not self.hub.follows(game_id):  # no feed of it here: nothing to wake (no loop round)
                        continue
                    self.hub.wake_threadsafe(game_id, int(raw) if raw.isascii() and raw.isdigit() else None)
            except Exception as exc:
                if not self._stop.is_set():
                    log.warning("feed bus: lost Redis (%s: %s); trying again", type(exc).__name__, exc)
                    first = False
                    self._stop.wait(BUS_RETRY_S)
            finally:
                for c in (pubsub, client):
                    try:
                        if c is not None:
                            c.close()
                    except Exception:
                        pass

    def stop(self) -> None:
        if self._detach is not None:
            self._detach()
            self._detach, self.writer_announces = None, False
        self._stop.set()
        self._out.put(None)
        for t in self._threads:
            t.join(BUS_WAIT_S + 1.0)
        self._threads.clear()
        with self._fast_lock:
            conn, self._fast = self._fast, None
        if conn is not None:
            try:
                conn.disconnect()
            except Exception:
                pass


__all__ = ["Batch", "COMMITS_CHANNEL", "FeedHub", "KEEPALIVE", "KEEPALIVE_EVERY", "KEEPALIVE_TICK", "RedisCommitBus",
           "Subscription", "render"]
