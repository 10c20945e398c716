"""The app factory: ``create_app(settings) -> Litestar`` (``umpire serve`` runs it).

Wires the rulesets' content (:func:`scenarios.content.hand_to_rulesets`), the event store, the command
service (:mod:`service.game_service`),
the Redis read models when the ``projections`` package provides
``ReadModels`` and a Redis URL is configured (otherwise every query is
answered from the log), problem-details error handling for every error, the
routers listed in :data:`service.routes.ROUTERS` and the OpenAPI document
with its docs pages.
"""
from __future__ import annotations

import asyncio
import logging
from importlib import metadata
from typing import Any

import anyio
from litestar import Litestar
from litestar import Response as _Response
from litestar.datastructures import State

from .auth import install_log_redaction
from .bot_players import BotPlayers
from .campaigns import install_hooks as install_campaign_hooks
from .command_path import CommandPath
from projections import CatchUp, Projector, ReadModels
from scenarios.content import hand_to_rulesets

from .edges import public_edges
from .commit_bus import BUS_WAIT_S, RedisCommitBus
from .game_service import GameService
from .metrics import count_store_errors
from .openapi.serving import docs_static_router, openapi_config
from .problems import EXCEPTION_HANDLERS, Problem, problem_response, without_server_paths
from .receipts import Signer, load_or_create
from .strict_input import StrictInput, raise_body_problem
from .routes import ROUTERS
from .settings import Settings
from .settings import redis_client as connect
from .store import SeedUnavailable, StoreError, UnknownGame
from .store_contract import Store
from .store import open_store

log = logging.getLogger("umpire.service")

_AUTO: Any = object()

#: Redis timeouts of the service's client: a Redis outage must not stall requests.
REDIS_CONNECT_TIMEOUT = 0.5
REDIS_SOCKET_TIMEOUT = 2.0


def _version() -> str:
    try:
        return metadata.version("umpire")
    except metadata.PackageNotFoundError:  # pragma: no cover
        return "0"


def projections_class() -> Any:
    """``projections.ReadModels`` if the projections package provides it, else None."""
    return ReadModels


def _projector(read_models: Any) -> Any:
    """The process's projector (``projections.Projector``), when there are read models."""
    if read_models is None or not hasattr(read_models, "project_batch"):
        return None
    return Projector(read_models)


def _catch_up(read_models: Any) -> Any:
    """The projections' background catch-up (after a Redis outage or wipe), when there are read models."""
    if read_models is None:
        return None
    return CatchUp(read_models)


def _commit_bus(games: GameService, settings: Settings) -> Any:
    """The live feeds' bus between processes and nodes (:class:`service.commit_bus.RedisCommitBus`) on
    the service's Redis, or None without one."""
    if not settings.redis_url:
        return None
    url, cluster = settings.redis_url, settings.redis_cluster
    bus = RedisCommitBus(games.feeds, lambda: connect(url, cluster=cluster, socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
                                                      socket_timeout=BUS_WAIT_S + REDIS_SOCKET_TIMEOUT))
    bus.attach(games.store)  # the store's writer announces its commits (no thread hop per command)
    games.feeds.bus = bus
    return bus


def store_errors(store: Store) -> Any:
    """The handler of :class:`StoreError` for an app on ``store``."""
    db_files = {str(store.path), str(store.path.resolve())}
    dirs = {str(store.data_dir), str(store.data_dir.resolve())}

    def handler(_: Any, exc: StoreError) -> Any:
        if isinstance(exc, UnknownGame):
            return problem_response(Problem(404, "not-found", str(exc)))
        if isinstance(exc, SeedUnavailable):
            return problem_response(Problem(503, "unavailable", str(exc)))
        # A storage failure (e.g. a full disk): the server log keeps the whole message with the
        # database path; the client is told what happened, without the server's paths.
        log.error("event store error (answered 503): %s", exc)
        detail = without_server_paths(str(exc), db_files, dirs)
        return problem_response(Problem(503, "unavailable", f"{detail}; the request was not applied"))

    return handler


def create_app(
    settings: Settings | None = None,
    *,
    store: Store | None = None,
    read_models: Any = _AUTO,
    debug: bool = False,
    projector: str = "thread",
) -> Litestar:
    """The REST service. ``read_models``: leave out to use ``projections.ReadModels`` on
    ``settings.redis_url`` when both exist; pass None to answer everything from the log.
    ``projector``: ``thread`` (a projector thread in this process) or ``process`` (a projector process
    follows the log, ``umpire serve`` starts and supervises it: this process never projects)."""
    settings = settings or Settings.from_env()
    hand_to_rulesets()  # the rulesets' content (scenarios/): the domain never imports it
    install_log_redaction()
    install_campaign_hooks()  # campaign seat tokens act in battles; a finished battle starts the next
    store = store or open_store(settings.data_dir, database_url=settings.database_url or "")
    redis_client = None
    if read_models is _AUTO:
        read_models = None
        cls = projections_class()
        if cls is not None and settings.redis_url:
            redis_client = connect(settings.redis_url, cluster=settings.redis_cluster,
                                   socket_connect_timeout=REDIS_CONNECT_TIMEOUT, socket_timeout=REDIS_SOCKET_TIMEOUT)
            read_models = cls(redis_client, store)
    elif read_models is not None:
        redis_client = getattr(read_models, "redis", None) or getattr(read_models, "client", None)
    signer = Signer(load_or_create(store.data_dir)) if not store.read_only else None
    elsewhere = projector == "process"
    projector = None if elsewhere else _projector(read_models)
    games = GameService(store, read_models, defer_projection=read_models is not None, signer=signer,
                        projector=projector)
    games.project_elsewhere = elsewhere and read_models is not None
    if games.project_elsewhere and hasattr(read_models, "trust_shared_ready"):
        read_models.trust_shared_ready()  # the projector process keeps {lobby}:ready for every worker
    catch_up = None if elsewhere else _catch_up(read_models)
    bus = _commit_bus(games, settings) if read_models is not None else None
    players = BotPlayers(games) if not store.read_only else None

    async def start() -> None:
        if bus is not None:
            bus.start()
        if catch_up is not None:
            catch_up.start()
        if projector is not None:
            if catch_up is not None:  # a batch Redis refused: the catch-up repairs it (from the store)
                loop = asyncio.get_running_loop()
                projector.on_failure = lambda _exc: loop.call_soon_threadsafe(catch_up.poke)
            projector.start()
        if players is not None:
            await players.start()

    async def close() -> None:
        if players is not None:
            await players.stop()
        if projector is not None:
            await anyio.to_thread.run_sync(projector.stop)
        if catch_up is not None:
            await catch_up.stop()
        if bus is not None:  # after the players: nothing is committed any more
            await anyio.to_thread.run_sync(games.feeds.close)
        if redis_client is not None:
            try:
                redis_client.close()
            except Exception:  # pragma: no cover
                pass

    allowed: dict[str, str] = {}

    async def options_allow(request: Any) -> Any:
        """``OPTIONS``: the ``Allow`` header of every method of the path. (litestar's own OPTIONS handler
        of a path whose methods come from separate handlers lists only the first one's.)"""
        if request.method != "OPTIONS" or getattr(request.route_handler, "handler_name", "") != "options_handler":
            return None
        if not allowed:
            allowed.update({r.path: ", ".join(sorted(r.methods)) for r in request.app.routes
                            if isinstance(getattr(r, "methods", None), set)})
        for path in request.route_handler.paths:
            if path in allowed:
                return _Response(content=None, status_code=204, headers={"Allow": allowed[path]})
        return None

    async def before_request(request: Any) -> Any:
        await raise_body_problem(request)  # strict input: the body's problem, after the guards
        return await options_allow(request)

    handlers = {**EXCEPTION_HANDLERS, StoreError: count_store_errors(store_errors(store))}
    app = Litestar(
        before_request=before_request,
        route_handlers=[*ROUTERS, docs_static_router()],
        state=State({"games": games, "read_models": read_models, "redis": redis_client, "settings": settings,
                     "catch_up": catch_up, "projector": projector, "bots": players}),
        exception_handlers=handlers,
        openapi_config=openapi_config(_version()),
        on_startup=[start],
        on_shutdown=[close],
        middleware=[StrictInput],
        debug=debug,
    )
    # issue 17: a game command goes from the door to the service without litestar's per-request machinery
    app.asgi_handler = CommandPath(app.asgi_handler, games, handlers)
    app.asgi_handler = public_edges(app.asgi_handler, settings, store)  # DESIGN 16: traces, metrics, limits
    app.on_shutdown.append(store.release_threads)
    return app


__all__ = ["create_app", "projections_class"]
