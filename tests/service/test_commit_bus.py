"""The feeds' commit bus between processes (service/commit_bus.py, ``RedisCommitBus``) on a real Redis: each
commit goes out on its game's channel; the commits that queue while the sender is busy go out together, one
message per game with its newest version; the SQLite store's writer announces each group's commits itself;
and a listener subscribes only to the games followed in its process (confirmed before ``follow`` returns),
so it hears neither the others nor its own commits of games without feeds here."""
from __future__ import annotations

import asyncio
import time
from typing import Any

import redis

from domain.kernel.dice import commitment
from service.commit_bus import RedisCommitBus
from service.store import EventStore, NewEvent


class Hub:
    """What the bus needs of a hub: which games it follows, and its wake calls (recorded)."""

    def __init__(self, followed: set[str]):
        self.followed = followed
        self.woken: list[tuple[str, int | None]] = []
        #: How many times every followed game was to be read again (after the listener (re)subscribed).
        self.rewoken = 0

    def follows(self, game_id: str) -> bool:
        return game_id in self.followed

    def wake_threadsafe(self, game_id: str, version: int | None) -> None:
        self.woken.append((game_id, version))

    def wake_all_threadsafe(self) -> None:
        self.rewoken += 1


def test_queued_commits_go_out_once_per_game_with_the_newest_version(redis_url):
    channel = f"test-commits-{time.monotonic_ns()}"
    watcher, ps = _watching(redis_url, channel)
    bus = RedisCommitBus(Hub(set()), lambda: redis.Redis.from_url(redis_url), channel=channel)
    # queued before the sender starts: one drain takes them all
    for game_id, version in (("g1", 3), ("g2", 7), ("g1", 5), ("g1", 4), ("g3", None), ("g3", 9)):
        bus.publish(game_id, version)
    bus.start()
    try:
        got: list[str] = []
        deadline = time.monotonic() + 10
        while len(got) < 3 and time.monotonic() < deadline:
            msg = ps.get_message(timeout=0.5)
            if msg is not None and msg.get("type") == "pmessage":
                assert msg["channel"].decode() == f"{channel}:" + msg["data"].decode().split(" ")[0]
                got.append(msg["data"].decode())
        time.sleep(0.3)
        extra = ps.get_message(timeout=0.3)
        assert sorted(got) == ["g1 5", "g2 7", "g3 "]  # g3: one unknown version makes the game "read again"
        assert extra is None
        assert bus.published == 3
    finally:
        bus.stop()
        ps.close()
        watcher.close()


def test_a_listener_hears_only_the_games_followed_here_and_drops_a_game_unfollowed(redis_url):
    channel = f"test-commits-{time.monotonic_ns()}"
    hub = Hub({"watched"})
    listener = RedisCommitBus(hub, lambda: redis.Redis.from_url(redis_url), channel=channel)
    listener.start()
    sender = redis.Redis.from_url(redis_url)

    def subscribers(game_id: str) -> int:
        return sender.pubsub_numsub(f"{channel}:{game_id}")[0][1]

    try:
        deadline = time.monotonic() + 10
        while not listener._listening and time.monotonic() < deadline:
            time.sleep(0.02)
        assert subscribers("watched") == 0  # nothing followed yet: nothing subscribed
        asyncio.run(asyncio.wait_for(listener.follow("watched"), 5))
        assert subscribers("watched") == 1  # confirmed by Redis before follow returned
        assert subscribers("other") == 0
        for game_id, message in (("other", "other 4"), ("watched", "watched 5"), ("other", "other 6"),
                                 ("watched", "watched ")):
            sender.publish(f"{channel}:{game_id}", message)
        while len(hub.woken) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
        assert hub.woken == [("watched", 5), ("watched", None)]
        assert listener.heard == 2  # the other game's commits never reached this process
        listener.unfollow("watched")
        sender.publish(listener.wake_channel, "wake")  # its next turn (else within a second)
        while subscribers("watched") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert subscribers("watched") == 0
        assert sender.publish(f"{channel}:watched", "watched 7") == 0
    finally:
        listener.stop()
        sender.close()


def _two_games(tmp_path: Any) -> EventStore:
    """A SQLite store holding the games ``a`` and ``b``."""
    seed = bytes(range(32))
    store = EventStore(tmp_path / "data")
    for gid in ("a", "b"):
        store.create_game(game_id=gid, ruleset="test", scenario="s", setup="{}", seed=seed,
                          seed_commitment=commitment(seed), token_hashes={})
    return store


def _watching(redis_url: str, channel: str) -> tuple[Any, Any]:
    """A Redis client and its pub/sub, subscribed (confirmed) to every game channel under ``channel``."""
    client = redis.Redis.from_url(redis_url)
    ps = client.pubsub(ignore_subscribe_messages=True)
    ps.psubscribe(f"{channel}:*")
    ps.get_message(timeout=1)
    return client, ps


def test_the_stores_writer_announces_each_group_commit_once_per_game_without_the_sender(tmp_path, redis_url):
    store = _two_games(tmp_path)
    channel = f"test-commits-{time.monotonic_ns()}"
    watcher, ps = _watching(redis_url, channel)
    bus = RedisCommitBus(Hub(set()), lambda: redis.Redis.from_url(redis_url), channel=channel)
    assert bus.attach(store) and bus.writer_announces
    bus.start()
    try:
        deadline = time.monotonic() + 10
        while bus._fast is None and time.monotonic() < deadline:  # the sender thread makes the writer's connection
            time.sleep(0.02)
        assert bus._fast is not None
        bus.publish("a", 1)  # the hub's call: nothing to send, the writer announces
        store.append("a", 0, [NewEvent(type="Moved", payload='{"n":1}'), NewEvent(type="Moved", payload='{"n":2}')])
        store.append("b", 0, [NewEvent(type="Moved", payload='{"n":1}')])
        got: list[str] = []
        while len(got) < 2 and time.monotonic() < deadline:
            msg = ps.get_message(timeout=0.5)
            if msg is not None and msg.get("type") == "pmessage":
                got.append((msg["channel"].decode(), msg["data"].decode()))
        assert got == [(f"{channel}:a", "a 2"), (f"{channel}:b", "b 1")]
        assert ps.get_message(timeout=0.3) is None  # the hub's publish sent nothing more
        assert bus.published == 2
        assert bus.announced == 2  # by the writer, not handed to the sender thread
    finally:
        bus.stop()
        assert store.commit_listeners == []  # detached: a stopped bus is told nothing
        store.close()
        ps.close()
        watcher.close()


def test_a_listener_cut_off_subscribes_again_then_has_every_followed_game_read(redis_url):
    channel = f"test-commits-{time.monotonic_ns()}"
    hub = Hub({"watched"})
    listener = RedisCommitBus(hub, lambda: redis.Redis.from_url(redis_url), channel=channel)
    listener.start()
    admin = redis.Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + 15
        while not listener._listening and time.monotonic() < deadline:
            time.sleep(0.02)
        asyncio.run(asyncio.wait_for(listener.follow("watched"), 5))
        before = hub.rewoken
        assert admin.client_kill_filter(_type="pubsub") >= 1  # the listener's connection cut
        while hub.rewoken == before and time.monotonic() < deadline:  # back: subscribed again, then all read
            time.sleep(0.05)
        assert hub.rewoken == before + 1
        assert admin.pubsub_numsub(f"{channel}:watched")[0][1] == 1
        admin.publish(f"{channel}:watched", "watched 9")
        while not hub.woken and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hub.woken == [("watched", 9)]
    finally:
        listener.stop()
        admin.close()


def test_a_commit_announced_on_a_writers_connection_cut_off_still_reaches_the_listeners(tmp_path, redis_url):
    store = _two_games(tmp_path)
    channel = f"test-commits-{time.monotonic_ns()}"
    admin, ps = _watching(redis_url, channel)
    bus = RedisCommitBus(Hub(set()), lambda: redis.Redis.from_url(redis_url), channel=channel)
    bus.attach(store)
    bus.start()
    try:
        deadline = time.monotonic() + 10
        while bus._fast is None and time.monotonic() < deadline:
            time.sleep(0.02)
        store.append("a", 0, [NewEvent(type="Moved", payload='{"n":1}')])
        admin.client_kill_filter(_type="normal", skipme=True)  # the writer's connection (and the sender's) cut
        store.append("b", 0, [NewEvent(type="Moved", payload='{"n":1}')])
        got: set[str] = set()
        while "b 1" not in got and time.monotonic() < deadline:
            msg = ps.get_message(timeout=0.5)
            if msg is not None and msg.get("type") == "pmessage":
                got.add(msg["data"].decode())
        assert got == {"a 1", "b 1"}  # b's through the sender thread, once the writer found its connection cut
        deadline = time.monotonic() + 10
        while bus._fast is None and time.monotonic() < deadline:  # the sender made the writer a new connection
            time.sleep(0.02)
        assert bus._fast is not None
    finally:
        bus.stop()
        store.close()
        ps.close()
        admin.close()
