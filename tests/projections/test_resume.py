"""A warm start without a scan of every game (issue 26): the projector process resumes the tail at the log
position its Redis kept (:mod:`projections.resume`), so a restart reads the events committed since, never one
row (or one Redis key) per stored game; without the checkpoint (a wiped Redis) it catches up every game."""
from __future__ import annotations

import threading

import redis

from projections import ReadModels
from projections.keys import LOBBY_READY
from projections.projector import tail
from projections.resume import PROJECTED_UPTO
from service.redis_runtime import EmbeddedRedis
from service.store import EventStore

from .tally import Script, new_game


class CountingStore(EventStore):
    """The real SQLite store, counting the calls that read one row per stored game."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.game_scans = 0

    def games(self, *a, **kw):
        if not a and not kw:  # every game (the catch-up's look at what is behind)
            self.game_scans += 1
        return super().games(*a, **kw)


def _run_tail(rm: ReadModels, store: EventStore, until) -> None:
    stop = threading.Event()
    t = threading.Thread(target=tail, args=(rm, store, stop), kwargs={"poll": 0.01}, daemon=True)
    t.start()
    try:
        deadline = threading.Event()
        for _ in range(600):
            if until():
                break
            deadline.wait(0.05)
        assert until(), "the tail did not get there"
    finally:
        stop.set()
        t.join(10)


def test_a_restarted_projector_resumes_at_its_checkpoint_and_projects_only_the_new_events(tmp_path):
    store = CountingStore(tmp_path / "data")
    games = [new_game(store, f"g{i}", seed=i, events=20 + i) for i in range(8)]
    server = EmbeddedRedis(tmp_path / "redis", persistent=True)
    server.start()
    try:
        client = redis.Redis.from_url(server.url)
        rm = ReadModels(client, store)
        # the first start: no checkpoint, a catch-up of every game, then the checkpoint is the log's end
        _run_tail(rm, store, lambda: client.get(PROJECTED_UPTO) is not None)
        assert store.game_scans >= 1 and rm.events_applied == sum(g.version for g in games)
        assert int(client.get(PROJECTED_UPTO)) == store.last_position()
        client.close()
    finally:
        server.stop()

    more = Script(store, "g3", seed=3)  # the service down: one game goes on in the log
    was = more.version
    more.play(was + 6)
    end = store.last_position()

    again = EmbeddedRedis(tmp_path / "redis", persistent=True)  # a new Redis process on the same data
    again.start()
    try:
        client = redis.Redis.from_url(again.url)
        assert int(client.get(PROJECTED_UPTO)) < end
        store.game_scans = 0
        rm2 = ReadModels(client, store)
        _run_tail(rm2, store, lambda: client.exists(LOBBY_READY) and int(client.get(PROJECTED_UPTO) or 0) == end)
        assert store.game_scans == 0  # no look at every stored game
        assert rm2.events_applied == more.version - was >= 6  # only the events committed since the checkpoint
        assert rm2.game_view("g3", None)["version"] == store.version("g3")
        assert not rm2.needs_catch_up()

        client.flushall()  # a wiped Redis: no checkpoint, every game is caught up from the log again
        rm3 = ReadModels(client, store)
        _run_tail(rm3, store, lambda: client.exists(LOBBY_READY))
        assert store.game_scans >= 1 and rm3.events_applied == sum(store.version(g.game_id) for g in games)
        client.close()
    finally:
        again.stop()


def test_a_checkpoint_past_the_end_of_the_log_is_not_trusted(tmp_path, redis_client):
    store = CountingStore(tmp_path / "data")
    new_game(store, "g", seed=1, events=12)
    redis_client.set(PROJECTED_UPTO, store.last_position() + 100)  # e.g. the log restored from an older backup
    rm = ReadModels(redis_client, store)
    _run_tail(rm, store, lambda: redis_client.exists(LOBBY_READY))
    assert store.game_scans >= 1 and rm.events_applied == 12
    assert int(redis_client.get(PROJECTED_UPTO)) == store.last_position()
