"""The commit bus: commits between processes and nodes over Redis pub/sub, for the live feeds (DESIGN 7 and 11).

Each game has its own channel, ``<prefix>:<game_id>`` (:data:`COMMITS_CHANNEL` is the prefix); a commit is
the message ``"<game_id> <version>"`` (the version empty when unknown: "read again") on its game's channel.
Pub/sub works unchanged on a Redis Cluster (a ``PUBLISH`` reaches the subscribers on every node), with either
event store.

Sending. With the SQLite store, the thread that commits a group (the store's committer) announces the group's
games itself, right after the group's fsync and answers, in one round trip on a connection of its own
(:meth:`RedisCommitBus.attach`): no thread hop per command. With another store (PostgreSQL), or while that
connection is not there (not made yet, lost; a Redis Cluster, whose pipelines refuse ``PUBLISH``), the bus's
sender thread sends: the commits that queued while it was sending go out together, one per game with its
newest version. Sending never blocks the event loop.

Hearing. A process subscribes to a game's channel only while it has feeds of that game
(:meth:`RedisCommitBus.follow`, awaited before the hub reads the game: every commit after the subscription is
heard, every one before it is in what the hub reads), and drops it when the game's last feed closes. So a
process hears no commit of a game it does not follow, its own included: with no feed open, the listener thread
sleeps. Redis down: commits are still stored and shown by this process's feeds; when the listener is back, it
subscribes again to every followed game and then has each read once (what was published meanwhile is not
lost).
"""
from __future__ import annotations

import asyncio
import logging
import queue
import threading
import uuid
from collections.abc import Callable
from typing import Any, Protocol

import redis

from domain.kernel.log import AppendResult

log = logging.getLogger("umpire.feeds")

#: The prefix of the games' Redis pub/sub channels: ``umpire:commits:<game_id>``.
COMMITS_CHANNEL = "umpire:commits"
#: Seconds the bus's listener waits for a message before it looks at its stop flag (one Redis read, no store).
BUS_WAIT_S = 1.0
#: Seconds before the bus tries Redis again after losing it.
BUS_RETRY_S = 1.0
#: Seconds a game's first feed in a process waits at most for the listener's subscription to the game's
#: channel (normally one round trip to Redis; a listener without Redis is not waited for at all).
FOLLOW_WAIT_S = 2.0
#: What the sender thread sends to the listener's own channel to make it subscribe now.
_WAKE = ""


class Hub(Protocol):
    """What the bus needs of the feeds' hub (:class:`service.feed_hub.FeedHub`); safe from any thread."""

    def follows(self, game_id: str) -> bool: ...

    def wake_threadsafe(self, game_id: str, version: int | None) -> None: ...

    def wake_all_threadsafe(self) -> None: ...


def _pipelines_publish(client: Any) -> bool:
    """True for a client whose pipelines carry ``PUBLISH`` (a plain Redis; a Redis Cluster's pipelines refuse it)."""
    return isinstance(client, redis.Redis)


def _publish_command(channel: str, message: str) -> bytes:
    """``PUBLISH channel message`` in Redis's protocol (RESP), as redis-py's ``pack_command`` writes it."""
    c, m = channel.encode(), message.encode()
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(c), c, len(m), m)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisCommitBus:
    """The commit bus of one process (see the module's docstring)."""

    def __init__(self, hub: Hub, connect: Any, channel: str = COMMITS_CHANNEL):
        """``connect()``: a new redis-py client (plain or cluster) for the bus's own connections.
        ``channel``: the prefix of the games' channels."""
        self.hub = hub
        self.connect = connect
        self.channel = channel
        #: The listener's own channel: the sender wakes it there when a game is to be subscribed.
        self.wake_channel = f"{channel}.listener.{uuid.uuid4().hex}"
        self._out: queue.SimpleQueue[tuple[str, int | None] | None] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        #: Commits published and heard (for the tests and a gauge).
        self.published = 0
        self.heard = 0
        #: Of those published, the ones the store's writer sent itself (:meth:`group_committed`).
        self.announced = 0
        #: True once :meth:`attach` made the store's writer announce the commits (then :meth:`publish` is not
        #: needed: every append of this process is announced by the thread that committed it).
        self.writer_announces = False
        #: The writer's own connection to a plain Redis (made by the sender thread; None: not yet, or lost,
        #: and the writer hands its commits to the sender thread, which makes a new one).
        self._fast: Any = None
        self._fast_lock = threading.Lock()
        self._detach: Callable[[], None] | None = None
        # the listener's subscriptions (under _subs): the games followed here, those subscribed on its
        # connection, those whose subscription Redis confirmed, SUBSCRIBEs not yet confirmed, and the feeds
        # waiting for a confirmation
        self._subs = threading.Lock()
        self._wanted: set[str] = set()
        self._subscribed: set[str] = set()
        self._confirmed: set[str] = set()
        self._pending: dict[str, int] = {}
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._listening = False

    def channel_of(self, game_id: str) -> str:
        return f"{self.channel}:{game_id}"

    def start(self) -> None:
        if self._threads:
            return
        self._stop.clear()
        for target, name in ((self._send, "umpire-feed-publish"), (self._listen, "umpire-feed-listen")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)

    # -- sending -----------------------------------------------------------
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
                    conn.send_packed_command([b"".join(
                        _publish_command(self.channel_of(game_id), f"{game_id} {version}")
                        for game_id, version in commits.items())], check_health=False)
                    for _ in commits:
                        conn.read_response()
                    self.published += len(commits)
                    self.announced += len(commits)
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
                messages = [(self.wake_channel, "wake") if game_id == _WAKE else
                            (self.channel_of(game_id), f"{game_id} {'' if version is None else version}")
                            for game_id, version in commits.items()]
                if len(messages) == 1 or not _pipelines_publish(client):
                    for channel, message in messages:
                        client.publish(channel, message)
                else:  # the commits that queued meanwhile in one round trip
                    pipe = client.pipeline(transaction=False)
                    for channel, message in messages:
                        pipe.publish(channel, message)
                    pipe.execute()
                self.published += sum(1 for game_id in commits if game_id != _WAKE)
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

    # -- hearing -------------------------------------------------------------
    async def follow(self, game_id: str) -> None:
        """Hear the commits of ``game_id`` from now on (call on the event loop before the game's first feed
        here reads it): returns once Redis confirmed the subscription, at once when it already had, or when
        the listener has no Redis (it subscribes when it is back, then has every followed game read)."""
        with self._subs:
            self._wanted.add(game_id)
            if game_id in self._confirmed or not self._listening:
                return
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.setdefault(game_id, []).append(fut)
        self._out.put((_WAKE, None))  # the listener subscribes at once
        try:
            await asyncio.wait_for(fut, FOLLOW_WAIT_S)
        except TimeoutError:
            log.warning("feed bus: no subscription to game %s after %.1f s; its feeds read it when Redis is back",
                        game_id, FOLLOW_WAIT_S)

    def unfollow(self, game_id: str) -> None:
        """No feed of ``game_id`` here any more: the listener drops its channel (at its next turn)."""
        with self._subs:
            self._wanted.discard(game_id)

    def _apply(self, pubsub: Any) -> None:
        """Subscribe to the games followed and not subscribed, drop the others (one command each way)."""
        with self._subs:
            add = self._wanted - self._subscribed
            drop = self._subscribed - self._wanted
            self._confirmed -= drop
            self._subscribed = (self._subscribed | add) - drop
            for game_id in add:
                self._pending[game_id] = self._pending.get(game_id, 0) + 1
        if drop:
            pubsub.unsubscribe(*[self.channel_of(g) for g in drop])
        if add:
            pubsub.subscribe(*[self.channel_of(g) for g in add])

    def _confirm(self, game_id: str) -> None:
        """Redis confirmed a SUBSCRIBE of ``game_id``: once its last is confirmed, commits are heard."""
        with self._subs:
            left = self._pending.get(game_id, 0) - 1
            if left > 0:
                self._pending[game_id] = left
                return
            self._pending.pop(game_id, None)
            if game_id not in self._subscribed:
                return
            self._confirmed.add(game_id)
            waiters = self._waiters.pop(game_id, [])
        for fut in waiters:
            fut.get_loop().call_soon_threadsafe(_settle, fut)

    def _listen(self) -> None:
        prefix = self.channel + ":"
        while not self._stop.is_set():
            client = pubsub = None
            try:
                client = self.connect()
                pubsub = client.pubsub()
                pubsub.subscribe(self.wake_channel)
                with self._subs:
                    self._subscribed, self._confirmed, self._pending = set(), set(), {}
                    self._listening = True
                rewake = True  # once every followed game is subscribed again: each is read once
                while not self._stop.is_set():
                    self._apply(pubsub)
                    if rewake and self._subscribed <= self._confirmed:
                        rewake = False
                        self.hub.wake_all_threadsafe()
                    got = pubsub.get_message(timeout=BUS_WAIT_S)
                    if got is None:
                        continue
                    kind, channel = got.get("type"), _text(got.get("channel"))
                    if not channel.startswith(prefix):
                        continue  # the listener's own channel: it was woken to subscribe
                    if kind == "subscribe":
                        self._confirm(channel[len(prefix):])
                    elif kind == "message":
                        game_id, _, raw = _text(got["data"]).partition(" ")
                        self.heard += 1
                        if not self.hub.follows(game_id):  # its last feed closed meanwhile
                            continue
                        self.hub.wake_threadsafe(game_id, int(raw) if raw.isascii() and raw.isdigit() else None)
            except Exception as exc:
                if not self._stop.is_set():
                    log.warning("feed bus: lost Redis (%s: %s); trying again", type(exc).__name__, exc)
                    self._stop.wait(BUS_RETRY_S)
            finally:
                with self._subs:
                    self._listening = False
                    self._confirmed.clear()
                    waiters, self._waiters = self._waiters, {}
                for futs in waiters.values():  # they go on: the game is read once Redis is back
                    for fut in futs:
                        fut.get_loop().call_soon_threadsafe(_settle, fut)
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


def _settle(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


__all__ = ["BUS_RETRY_S", "BUS_WAIT_S", "COMMITS_CHANNEL", "FOLLOW_WAIT_S", "Hub", "RedisCommitBus"]
