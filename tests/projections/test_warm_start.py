"""A warm start: the private Redis keeps its data in its directory (an RDB snapshot), so a restart
with a populated data dir projects nothing Redis already holds -- only what the log gained meanwhile."""
from __future__ import annotations

import os
import time

import redis

from projections import ReadModels
from projections.keys import LOBBY_READY
from service import redis_runtime
from service.redis_runtime import EmbeddedRedis

from .tally import Script, new_game


def test_a_restarted_persistent_redis_keeps_the_models_and_the_catch_up_projects_only_what_is_new(tmp_path, store):
    games = [new_game(store, f"g{i}", seed=i, events=40 + i) for i in range(12)]
    total = sum(g.version for g in games)
    server = EmbeddedRedis(tmp_path / "redis", persistent=True)
    server.start()
    try:
        client = redis.Redis.from_url(server.url)
        rm = ReadModels(client, store)
        assert rm.catch_up_all() == 12 and rm.events_applied == total
        client.close()
    finally:
        server.stop()
    # meanwhile (the service down) one game goes on in the log
    more = Script(store, "g3", seed=3)
    was = more.version
    more.play(was + 5)

    again = EmbeddedRedis(tmp_path / "redis", persistent=True)  # a new process, a new password, same data
    again.start()
    try:
        client = redis.Redis.from_url(again.url)
        assert client.exists(LOBBY_READY)  # the data survived the restart
        rm2 = ReadModels(client, store)
        assert rm2.behind() and [g.game_id for g in rm2.behind()] == ["g3"]
        assert rm2.catch_up_all() == 1
        assert rm2.events_applied == more.version - was >= 5  # only the new events: nothing Redis held is projected again
        assert rm2.game_view("g3", None)["version"] == store.version("g3")
        assert not rm2.needs_catch_up()
        client.close()
    finally:
        again.stop()


def test_a_redis_without_persistence_starts_empty(tmp_path, store):
    new_game(store, "g", seed=1, events=10)
    server = EmbeddedRedis(tmp_path / "redis")
    server.start()
    try:
        client = redis.Redis.from_url(server.url)
        ReadModels(client, store).catch_up_all()
        client.close()
        server.restart()
        client = redis.Redis.from_url(server.url)
        assert not client.exists(LOBBY_READY)
        rm = ReadModels(client, store)
        rm.catch_up_all()
        assert rm.events_applied == 10
        client.close()
    finally:
        server.stop()


def test_a_stopped_persistent_redis_is_given_the_time_to_write_its_snapshot(tmp_path, monkeypatch):
    """A stop of a non-persistent server kills it after STOP_TIMEOUT_S; a persistent one's final save (the read
    models of many games: seconds) is waited for, else the next start loads an older snapshot, maybe one
    without the projector's checkpoint. STOP_TIMEOUT_S is made tiny here so that only that wait can save it."""
    monkeypatch.setattr(redis_runtime, "STOP_TIMEOUT_S", 0.001)
    server = EmbeddedRedis(tmp_path / "redis", persistent=True)
    server.start()
    client = redis.Redis.from_url(server.url)
    for i in range(8):  # 64 MB that do not compress: a save of a noticeable time
        client.set(f"big:{i}", os.urandom(8 << 20))
    client.set("last", "written")
    client.close()
    server.stop()
    again = EmbeddedRedis(tmp_path / "redis", persistent=True)
    again.start()
    try:
        client = redis.Redis.from_url(again.url)
        for _ in range(600):  # start() returns while the server loads its snapshot
            try:
                client.ping()
                break
            except redis.BusyLoadingError:
                time.sleep(0.05)
        assert client.get("last") == b"written" and client.dbsize() == 9
        client.close()
    finally:
        again.stop()
