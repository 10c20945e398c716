"""Fixtures of the projection tests: the shared real Redis and store (tests/conftest.py),
ReadModels over them, and a private Redis server for the tests that kill it."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from projections import ReadModels
from service.redis_runtime import EmbeddedRedis
from service.store import EventStore

from . import tally  # noqa: F401  (registers the test ruleset)


def quick_client(url: str) -> redis.Redis:
    """A client that fails fast while the server is down (one retry, no backoff)."""
    return redis.Redis.from_url(url, retry=Retry(NoBackoff(), 1), socket_timeout=5, socket_connect_timeout=1)


@pytest.fixture
def rm(redis_client: redis.Redis, store: EventStore) -> ReadModels:
    return ReadModels(redis_client, store)


@pytest.fixture
def private_redis(tmp_path) -> Iterator[EmbeddedRedis]:
    """A Redis server of this test alone (it will be killed and restarted)."""
    server = EmbeddedRedis(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()
