"""Shared fixtures: a real Redis server for the session and a real SQLite store per test.

Fixture names are a contract other tests rely on:

- ``redis_server`` (session): a running :class:`service.redis_runtime.EmbeddedRedis`
  (``.url``, ``.pid``, ``.kill()``, ``.restart()``). A test that kills it must
  ``restart()`` it (the URL stays the same); ``redis_client`` also brings it
  back if it finds it down.
- ``redis_url`` (session): its URL.
- ``redis_client`` (function): ``redis.Redis`` on that URL, FLUSHALL before the test.
- ``redis_cluster`` (session, started on first use): a real 3-master Redis Cluster
  (:class:`tests.service.redis_cluster.EmbeddedCluster`; ``.url`` is a ``redis+cluster://`` URL).
  A test that kills a master must ``restart()`` it; ``flushall()`` empties every master.
- ``store`` (function): an :class:`service.store.EventStore` in ``tmp_path / "data"``.
- ``pg_server`` (session, started on first use): a real PostgreSQL
  (:class:`tests.service.pg.EmbeddedPostgres`; ``.new_database()`` gives a fresh database's URL).
  The store contract suite (``tests/service/store_backends.py``) runs the store tests on both.
"""
from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from scenarios.content import hand_to_rulesets
from service.redis_runtime import EmbeddedRedis
from service.store import EventStore


def pytest_configure(config: pytest.Config) -> None:
    """The test session is a composition root: the rulesets get their content (scenarios/content.py)."""
    hand_to_rulesets()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server: EmbeddedRedis) -> str:
    return redis_server.url


@pytest.fixture
def redis_client(redis_server: EmbeddedRedis) -> Iterator[redis.Redis]:
    if not redis_server.running:
        redis_server.restart()
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator["EmbeddedPostgres"]:
    from tests.service.pg import EmbeddedPostgres

    server = EmbeddedPostgres()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator["EmbeddedCluster"]:
    from tests.service.redis_cluster import EmbeddedCluster

    cluster = EmbeddedCluster(tmp_path_factory.mktemp("redis-cluster"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def store(tmp_path) -> Iterator[EventStore]:
    s = EventStore(tmp_path / "data")
    try:
        yield s
    finally:
        s.close()
