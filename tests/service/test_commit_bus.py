"""The feeds' commit bus between processes (service/feed_hub.py, ``RedisCommitBus``) on a real Redis: the
commits that queue while the sender is busy go out together, one message per game with its newest version,
and a listener wakes its hub only for games that have feeds in its process."""
from __future__ import annotations

import time

import redis

from service.feed_hub import RedisCommitBus


class Hub:
    """What the bus needs of a hub: which games it follows, and its wake calls (recorded)."""

    def __init__(self, followed: set[str]):
        self.followed = followed
        self.woken: list[tuple[str, int | None]] = []

    def follows(self, game_id: str) -> bool:
        return game_id in self.followed

    def wake_threadsafe(self, game_id: str, version: int | None) -> None:
        self.woken.append((game_id, version))

    def wake_all_threadsafe(self) -> None:
        pass


def test_queued_commits_go_out_once_per_game_with_the_newest_version(redis_url):
    channel = f"test-commits-{time.monotonic_ns()}"
    watcher = redis.Redis.from_url(redis_url)
    ps = watcher.pubsub(ignore_subscribe_messages=True)
    ps.subscribe(channel)
    ps.get_message(timeout=1)
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
            if msg is not None and msg.get("type") == "message":
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


def test_a_listener_wakes_its_hub_only_for_games_followed_here(redis_url):
    channel = f"test-commits-{time.monotonic_ns()}"
    hub = Hub({"watched"})
    listener = RedisCommitBus(hub, lambda: redis.Redis.from_url(redis_url), channel=channel)
    listener.start()
    sender = redis.Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + 10
        while sender.pubsub_numsub(channel)[0][1] < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        for message in ("other 4", "watched 5", "other 6", "watched "):
            sender.publish(channel, message)
        while listener.heard < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert listener.heard == 4
        assert hub.woken == [("watched", 5), ("watched", None)]
    finally:
        listener.stop()
        sender.close()
