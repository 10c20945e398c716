"""The read models on a real 3-master Redis Cluster (DESIGN 7 and 11, issue 15): every key of a game in one
hash slot, the lobby's in another; the projections on the cluster equal the fold over whole games."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis.crc import key_slot

from projections import ReadModels
from projections.keys import (
    LOBBY_CREATED, LOBBY_GAMES, LOBBY_ORDER, LOBBY_READY, LOBBY_VERSIONS, GameKeys, lobby_ruleset_key,
    lobby_status_key, lobby_status_ruleset_key,
)
from service.settings import Settings, redis_client

from .helpers import log_lobby
from .tally import Script, new_game
from .test_read_models import assert_models_match_log


@pytest.fixture
def cluster_rm(redis_cluster, store) -> Iterator[ReadModels]:
    redis_cluster.flushall()
    client = redis_client(redis_cluster.url, socket_timeout=2, socket_connect_timeout=0.5)
    try:
        yield ReadModels(client, store)
    finally:
        client.close()


def test_settings_select_the_cluster_client():
    s = Settings.from_env({"UMPIRE_REDIS_URL": "redis+cluster://127.0.0.1:7000/0"})
    assert s.redis_cluster is True
    s = Settings.from_env({"UMPIRE_REDIS_URL": "redis://127.0.0.1:7000/0", "UMPIRE_REDIS_CLUSTER": "1"})
    assert s.redis_cluster is True
    assert Settings.from_env({"UMPIRE_REDIS_URL": "redis://127.0.0.1:7000/0"}).redis_cluster is False
    with pytest.raises(ValueError, match="UMPIRE_REDIS_CLUSTER"):
        Settings.from_env({"UMPIRE_REDIS_URL": "redis://h:1/0", "UMPIRE_REDIS_CLUSTER": "maybe"})
    with pytest.raises(ValueError, match="UMPIRE_REDIS_CLUSTER"):
        Settings.from_env({"UMPIRE_REDIS_URL": "unix:///tmp/r.sock", "UMPIRE_REDIS_CLUSTER": "1"})


def test_cluster_client_on_a_real_cluster(redis_cluster):
    from redis.cluster import RedisCluster

    c = redis_client(redis_cluster.url)
    try:
        assert isinstance(c, RedisCluster)
        assert len(c.get_primaries()) == 3
    finally:
        c.close()


def test_every_key_of_a_game_shares_one_slot_and_the_lobby_another():
    for gid in ("a", "g-123", "01HZX3"):
        k = GameKeys(gid)
        keys = [k.meta, k.timeline, k.feed, k.snaps, k.snapdata, k.view(None), k.view("north")]
        assert len({key_slot(x.encode()) for x in keys}) == 1, gid
    lobby = [LOBBY_GAMES, LOBBY_VERSIONS, LOBBY_CREATED, LOBBY_ORDER, LOBBY_READY, lobby_status_key("active"),
             lobby_ruleset_key("tally"), lobby_status_ruleset_key("finished", "tally")]
    assert len({key_slot(x.encode()) for x in lobby}) == 1


def test_projections_on_the_cluster_equal_the_fold_over_whole_games(cluster_rm, store, redis_cluster):
    # games spread over every master (the test checks that it is so)
    ids = [f"c{i}" for i in range(9)]
    owners = {redis_cluster.owner(GameKeys(g).meta) for g in ids}
    assert owners == {0, 1, 2}
    for i, gid in enumerate(ids):
        new_game(store, gid, seed=i + 1, events=25 + 5 * i, win=i % 3 == 0)
    # one way: a game at a time; the other: the projector's batch of several games in one pipeline
    for gid in ids[:4]:
        cluster_rm.project(gid)
    cluster_rm.project_batch({gid: store.load(gid) for gid in ids[4:]})
    cluster_rm.catch_up_all()
    for gid in ids:
        assert_models_match_log(cluster_rm, store, gid)
    assert cluster_rm.lobby() == log_lobby(store)
    assert cluster_rm.lobby(status="finished") == log_lobby(store, status="finished")
    # more commands, projected again: still the fold, and applying twice changes nothing
    s = Script(store, ids[1], seed=99)
    s.play(store.version(ids[1]) + 10)
    cluster_rm.project(ids[1])
    cluster_rm.project(ids[1])
    assert_models_match_log(cluster_rm, store, ids[1])
    assert cluster_rm.read_feed(ids[1], 0)[-1][0] == store.version(ids[1])
