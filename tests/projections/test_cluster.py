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
        assert len(c.get_primaries()) == 3
        assert isinstance(c._real(), RedisCluster)
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


def test_rebuild_on_the_cluster_equals_the_fold(cluster_rm, store, redis_cluster):
    from projections.rebuild import clear_models, rebuild

    for i, gid in enumerate(("r1", "r2", "r3", "r4")):
        new_game(store, gid, seed=i + 40, events=20, win=i == 0)
    cluster_rm.catch_up_all()
    assert clear_models(cluster_rm.redis) > 0  # keys of every master (scan and delete per slot)
    assert cluster_rm.last_seq("r1") is None
    report = rebuild(store, cluster_rm.redis, fresh=True)
    assert report.games == 4
    rm = ReadModels(cluster_rm.redis, store)
    for gid in ("r1", "r2", "r3", "r4"):
        assert_models_match_log(rm, store, gid)
    assert rm.catch_up_all() == 0  # nothing left behind; a new process answers the lobby from Redis after it
    assert rm.lobby() == log_lobby(store)


def test_the_projector_process_on_postgresql_and_the_cluster(tmp_path, redis_cluster, request):
    """``umpire serve``'s projector process follows the store the nodes use (PostgreSQL here, not the data
    dir's SQLite file) into the cluster (the URL says cluster)."""
    import os
    import subprocess

    from service.game_service import CreateGameRequest, GameService
    from service.store import open_store
    from tests.service.toy_ruleset import register

    from tests.polling import until as _until
    from .test_projector_process import ROOT, _play
    from service.cli import projector_command, projector_env
    from .test_projector_process import TOY

    register()
    pg = request.getfixturevalue("pg_server")
    url = pg.new_database()
    redis_cluster.flushall()
    store = open_store(tmp_path / "data", database_url=url)
    client = redis_client(redis_cluster.url, socket_timeout=2)
    proc = subprocess.Popen(projector_command(str(tmp_path / "node"), TOY), cwd=str(ROOT),
                            env={**projector_env(redis_cluster.url), "PYTHONPATH": str(ROOT), "UMPIRE_DATABASE_URL": url})
    try:
        svc = GameService(store, None)  # the serving side writes only
        rm = ReadModels(client, store)
        games = [svc.create_game(CreateGameRequest(ruleset="toy", scenario="duel", seed="0f" * 32)) for _ in range(4)]
        for g in games:
            _play(svc, g, 6)
        for g in games:
            assert _until(lambda: rm.last_seq(g["game_id"]) == g["version"]), "the projector follows PostgreSQL"
            assert rm.game_view(g["game_id"], None)["version"] == g["version"]
    finally:
        proc.terminate()
        proc.wait(15)
        client.close()
        store.close()
        pg.drop_database(url)
