"""Limits per client address and per seat token, one budget for every node (DESIGN 16).

An ASGI wrapper in front of the app: each request that spends a budget (creating a game or a campaign,
a command, a dry run, claiming or rotating a seat, opening a feed) is counted in Redis with the ``limits`` package's sliding window
counter (one Lua call per budget, two counters per key), so every node and every worker of a node
spends the same budget. A request over a budget is answered 429 (problem details, ``Retry-After``)
before it reaches the service. Creating a game is also refused (429) when the address already has
``open_games`` unfinished games it created, and (503) when the store holds ``stored_games``.

Why the sliding window counter: its cost per request is constant (two integers per key, one script
call) where the moving window keeps one list entry per request of the window (a budget of 1200 a
minute is 1200 entries per address), and unlike the fixed window it does not let a client spend two
budgets across a window's boundary: the previous window's count is weighted by how much of it still
overlaps. Its answer is an approximation of the exact moving window (it assumes the previous
window's requests were spread evenly), which is what a budget needs.

Redis down: the limiter fails open (DESIGN 7: a game goes on through a Redis outage). The request goes
through, the failure is counted (``umpire_redis_errors_total{where="limiter"}``) and logged, and the
limiter is not asked again for :data:`PAUSE_AFTER_FAILURE` seconds (no request waits for a Redis
timeout meanwhile).

Addresses: the peer's address; ``X-Forwarded-For`` only when the peer is one of ``trusted_proxies``
(then the right-most address in it that is not a trusted proxy). Loopback peers and in-process clients
are not limited unless ``loopback`` is set. A seat token is never stored: its key is a hash of it.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import ipaddress
import logging
import math
import re
import time
from typing import Any

import msgspec
import redis.asyncio as aredis
from limits import RateLimitItem, parse_many
from limits.aio.storage import RedisStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from .metrics import LIMITED, REDIS_ERRORS
from .problems import PROBLEM_JSON, TYPES, type_uri
from .settings import LIMIT_DEFAULTS, LimitSettings
from .store_contract import Store

log = logging.getLogger("umpire.limits")

#: Seconds the limiter is not asked after Redis failed (the requests go through meanwhile).
PAUSE_AFTER_FAILURE = 5.0
#: Redis timeouts of the limiter's client: a request waits at most this for its budget.
REDIS_TIMEOUT = 0.25
#: Days a creator's list of open games is kept after its last creation.
OPEN_GAMES_DAYS = 30
#: Seconds a count of the stored games is trusted.
STORED_COUNT_SECONDS = 5.0
KEY_PREFIX = "umpire:limit"

_GAME = re.compile(r"/games/[^/]+/(commands|ready|undo|undo/accept|undo/decline)")
_CAMPAIGN_READY = re.compile(r"/campaigns/[^/]+/ready")
#: Claiming and rotating a seat (UMPIRE-SEAT-2..4) lock the game and write its log like a command: they
#: spend the commands budgets (guessed invitations and tokens included).
_SEATS = re.compile(r"/(games|campaigns)/[^/]+/seats/[^/]+/(claim|rotate)")
_FEED = re.compile(r"/games/[^/]+/feed")
_DRY = re.compile(rb"(^|&)dry_run=(true|1)(&|$)", re.IGNORECASE)
_encode = msgspec.json.Encoder().encode
for _budget in (*LIMIT_DEFAULTS, "open_games", "stored_games"):  # every budget's series, from 0
    LIMITED.labels(_budget)


def token_key(token: str) -> str:
    """What stands for a seat token in Redis: a hash (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()[:24]


def bearer(headers: list[tuple[bytes, bytes]]) -> str | None:
    for k, v in headers:
        if k == b"authorization":
            scheme, _, token = v.decode("latin-1").partition(" ")
            if scheme.lower() != "bearer":
                return None
            return token.strip() or None
    return None


class ClientAddress:
    """The address a request is limited as: the peer's, or what a trusted proxy says it forwarded."""

    def __init__(self, trusted: tuple[str, ...] = ()):
        self.trusted = tuple(ipaddress.ip_network(t, strict=False) for t in trusted)

    def _is_trusted(self, addr: str) -> bool:
        try:
            ip = ipaddress.ip_address(addr)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def __call__(self, scope: Any) -> str:
        client = scope.get("client")
        peer = client[0] if client else ""
        if not self.trusted or not self._is_trusted(peer):
            return peer
        for k, v in scope.get("headers") or ():
            if k == b"x-forwarded-for":
                hops = [h.strip() for h in v.decode("latin-1").split(",") if h.strip()]
                for hop in reversed(hops):
                    if not self._is_trusted(hop):
                        return hop
        return peer


@functools.lru_cache(maxsize=4096)
def is_local(addr: str) -> bool:
    """A loopback address, or none at all (an in-process client such as a test's). Remembered per address
    (parsing one costs tens of microseconds, and every request asks)."""
    try:
        return ipaddress.ip_address(addr).is_loopback
    except ValueError:
        return True


class Budgets:
    """The parsed budgets of :class:`LimitSettings`: name -> rate items."""

    def __init__(self, settings: LimitSettings):
        self.items: dict[str, list[RateLimitItem]] = {
            name: (parse_many(spec) if spec else []) for name, spec in settings.budgets.items()}


class RateLimits:
    """ASGI wrapper that spends the budgets (see the module's docstring)."""

    def __init__(self, app: Any, settings: LimitSettings, redis_url: str, store: Store | None = None):
        self.app = app
        self.settings = settings
        self.redis_url = redis_url
        self.store = store
        self.budgets = Budgets(settings).items
        self.address = ClientAddress(settings.trusted_proxies)
        self._per_loop: dict[Any, tuple[Any, Any]] = {}
        self._paused_until = 0.0
        self._stored: tuple[float, int] = (0.0, 0)

    # -- Redis, per event loop (redis.asyncio's connections belong to the loop that made them) --------
    def _backend(self) -> tuple[Any, Any]:
        loop = asyncio.get_running_loop()
        got = self._per_loop.get(loop)
        if got is None:
            pool = aredis.ConnectionPool.from_url(self.redis_url, socket_connect_timeout=REDIS_TIMEOUT,
                                                  socket_timeout=REDIS_TIMEOUT)
            storage = RedisStorage("async+redis://", implementation="redispy", connection_pool=pool,
                                   key_prefix=KEY_PREFIX, wrap_exceptions=True)
            got = (SlidingWindowCounterRateLimiter(storage), aredis.Redis(connection_pool=pool))
            self._per_loop[loop] = got
        return got

    def _failed(self, exc: BaseException) -> None:
        REDIS_ERRORS.labels("limiter").inc()
        if time.monotonic() >= self._paused_until:
            log.warning("limits: Redis failed (%s: %s); requests go through unlimited for %.0f s",
                        type(exc).__name__, exc, PAUSE_AFTER_FAILURE)
        self._paused_until = time.monotonic() + PAUSE_AFTER_FAILURE

    # -- what a request spends -----------------------------------------------------------------------
    def spends(self, scope: Any, addr: str) -> list[tuple[str, str]]:
        """``(budget, key)`` pairs the request spends (none: it spends nothing)."""
        method, path = scope["method"], scope["path"]
        if method == "POST":
            if path in ("/games", "/campaigns"):
                return [("create", "a:" + addr)]
            if _GAME.fullmatch(path) or _CAMPAIGN_READY.fullmatch(path) or _SEATS.fullmatch(path):
                token = bearer(scope.get("headers") or [])
                dry = path.endswith("/commands") and _DRY.search(scope.get("query_string") or b"") is not None
                kind = "dry_runs" if dry else "commands"
                out = [(f"{kind}_address", "a:" + addr)]
                if token:
                    out.append((f"{kind}_seat", "t:" + token_key(token)))
                return out
        elif method == "GET" and _FEED.fullmatch(path):
            return [("feeds_address", "a:" + addr)]
        return []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not self.settings.enabled:
            await self.app(scope, receive, send)
            return
        addr = self.address(scope)
        if (not self.settings.loopback and is_local(addr)) or time.monotonic() < self._paused_until:
            await self.app(scope, receive, send)  # loopback unlimited (or Redis failed lately): nothing spent
            return
        spent = self.spends(scope, addr)
        if not spent:
            await self.app(scope, receive, send)
            return
        creating = scope["path"] == "/games"
        try:
            limiter, client = self._backend()
            checks = [(budget, key, item) for budget, key in spent for item in self.budgets.get(budget, ())]
            # the budgets of a request are spent at once (one round trip's wait, not one per budget)
            allowed = await asyncio.gather(*(limiter.hit(item, budget, key) for budget, key, item in checks))
            for (budget, key, item), ok in zip(checks, allowed):
                if not ok:
                    stats = await limiter.get_window_stats(item, budget, key)
                    wait = max(1, math.ceil(stats.reset_time - time.time()))
                    await self._refuse(send, 429, budget, f"over the {budget.replace('_', ' per ')} budget "
                                       f"({item}); try again in {wait} s", wait)
                    return
            if creating:
                refused = await self._caps(client, addr)
                if refused is not None:
                    await self._refuse(send, *refused)
                    return
        except Exception as exc:  # noqa: BLE001 - Redis down or failing: fail open (DESIGN 7)
            self._failed(exc)
            await self.app(scope, receive, send)
            return
        if creating and self.settings.open_games:
            await self._remember_created(scope, receive, send, client, addr)
        else:
            await self.app(scope, receive, send)

    # -- caps of game creation -----------------------------------------------------------------------
    def _open_key(self, addr: str) -> str:
        return f"{KEY_PREFIX}:open:{addr}"

    async def _caps(self, client: Any, addr: str) -> tuple[int, str, str, int] | None:
        cap = self.settings.stored_games
        if cap and self.store is not None:
            when, n = self._stored
            if time.monotonic() - when > STORED_COUNT_SECONDS:
                n = await asyncio.to_thread(self._count_stored)
                self._stored = (time.monotonic(), n)
            if n >= cap:
                return 503, "stored_games", f"this server holds {n} games, its cap: no game is created now", 3600
        cap = self.settings.open_games
        if cap:
            key = self._open_key(addr)
            if await client.scard(key) >= cap:
                members = [m.decode() for m in await client.smembers(key)]
                done = await asyncio.to_thread(self._finished, members)
                if done:
                    await client.srem(key, *done)
                if len(members) - len(done) >= cap:
                    return 429, "open_games", (f"this address has {len(members) - len(done)} unfinished games it "
                                               f"created (cap {cap}): finish one first"), 60
        return None

    def _count_stored(self) -> int:
        return int(self.store.rows("SELECT count(*) FROM games")[0][0])

    def _finished(self, game_ids: list[str]) -> list[str]:
        out = []
        for gid in game_ids:
            row = self.store.game(gid) if self.store is not None else None
            if row is None or row.status == "finished":
                out.append(gid)
        return out

    async def _remember_created(self, scope: Any, receive: Any, send: Any, client: Any, addr: str) -> None:
        """Forward ``POST /games``; a created game's id joins its creator's open games."""
        status = 0
        body = bytearray()

        async def watch(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and status == 201 and len(body) < 1 << 16:
                body.extend(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, watch)
        if status != 201:
            return
        try:
            gid = msgspec.json.decode(bytes(body)).get("game_id")
            if isinstance(gid, str):
                key = self._open_key(addr)
                await client.sadd(key, gid)
                await client.expire(key, OPEN_GAMES_DAYS * 86400)
        except Exception as exc:  # noqa: BLE001 - the game is created; the cap counts it once Redis answers
            self._failed(exc)

    @staticmethod
    async def _refuse(send: Any, status: int, budget: str, detail: str, retry_after: int) -> None:
        LIMITED.labels(budget).inc()
        slug = "rate-limited" if status == 429 else "unavailable"
        body = _encode({"type": type_uri(slug), "title": TYPES[slug], "status": status, "detail": detail,
                        "budget": budget, "retry_after": retry_after})
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(retry_after).encode())]})
        await send({"type": "http.response.body", "body": body})


__all__ = ["ClientAddress", "RateLimits", "is_local", "token_key"]
