"""Talking to Redis from the read models: which exceptions mean "Redis cannot answer", the client's
socket timeout, a script call queued in a pipeline, and the decoding of raw replies."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import redis
from redis.exceptions import RedisClusterException

#: The JSON encoder the read models write their bodies with.
encoder = msgspec.json.Encoder()


#: What a redis-py client raises when Redis cannot answer: a cluster client also raises
#: ``RedisClusterException`` (no node for a slot, the cluster's layout unknown), which is no RedisError.
REDIS_ERRORS: tuple[type[BaseException], ...] = (redis.RedisError, RedisClusterException)


def socket_timeout(client: Any) -> float | None:
    """The client's socket timeout (a cluster client keeps it per node)."""
    if hasattr(type(client), "socket_timeout"):  # service.settings.LazyCluster: without connecting
        return client.socket_timeout
    try:
        pool = getattr(client, "connection_pool", None)
    except REDIS_ERRORS:
        return None
    if pool is not None:
        return pool.connection_kwargs.get("socket_timeout")
    nodes = getattr(client, "nodes_manager", None)
    kwargs = getattr(nodes, "connection_kwargs", None) or {}
    return kwargs.get("socket_timeout")


def evalsha(pipe: Any, sha: str, keys: Sequence[Any], args: Sequence[Any]) -> None:
    """Queue EVALSHA in a pipeline, plain or cluster (redis-py's cluster pipeline blocks its ``evalsha``
    method, not the command: every key of one call is in one slot, which routes it)."""
    pipe.execute_command("EVALSHA", sha, len(keys), *keys, *args)


def as_text(v: Any) -> Any:
    return v.decode() if isinstance(v, bytes) else v


def as_int(v: Any, default: int | None = None) -> int | None:
    if v is None or v == b"" or v == "":
        return default
    return int(v)
