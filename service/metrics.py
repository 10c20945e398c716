"""The service's Prometheus metrics (DESIGN 16): the metric objects, the few wrappers that feed them at the
service's edges, and the ``/metrics`` answer.

Library: the official ``prometheus_client``. With several processes (``umpire serve --workers N`` and its
projector process) it runs in its multi-process mode: ``umpire serve`` sets ``PROMETHEUS_MULTIPROC_DIR`` to
a directory under the data dir (emptied at start) before any of them imports this module, each process
writes its samples there (memory-mapped files) and a scrape of any worker sums them
(``prometheus_client.multiprocess.MultiProcessCollector``). Without it (tests, ``create_app`` in a process
of one's own) the samples stay in this process.

Nothing here is imported by ``domain/``; the store and the projector process reach it through hooks
(:data:`service.store.ON_GROUP_COMMIT`, :class:`ProjectorLag`).
"""
from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client import values as _values
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

from . import store as _store
from .store_contract import Store

#: prometheus_client's own variable: the directory of the multi-process samples (set by ``umpire serve``).
ENV_MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"
#: The node's name in the per-node metrics (default: the host name).
ENV_NODE = "UMPIRE_NODE"
NODE = os.environ.get(ENV_NODE) or socket.gethostname()

disable_created_metrics()  # no `_created` series: the same text in both modes


@functools.lru_cache(maxsize=4096)
def _child(metric: Any, *values: str) -> Any:
    """``metric.labels(*values)``, remembered: prometheus_client checks the values and takes a lock on every
    call, and the command path counts four series per command. The values come from short fixed lists
    (rulesets, command types, outcomes, rule ids, route labels, methods, statuses)."""
    return metric.labels(*values)

#: ``UMPIRE_METRICS=0``: no metric is recorded (the benchmarks' "off"; ``/metrics`` then answers zeros).
ENABLED = (os.environ.get("UMPIRE_METRICS") or "1").strip().lower() not in ("0", "false", "off", "no")

#: One record per command at INFO (on with ``UMPIRE_LOG_FORMAT=json``: :mod:`service.json_logs`).
COMMAND_LOG = logging.getLogger("umpire.commands")
COMMAND_LOG.setLevel(logging.WARNING)

#: Seconds buckets of the command path (a command is ~0.3-3 ms; a group commit waits up to a few ms).
_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: Seconds buckets of a bot's decision (a level-3 search takes up to seconds).
_SLOW = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

COMMANDS = Counter("umpire_commands", "Game and kernel commands by ruleset, command type and outcome "
                   "(accepted, or refused with the rule id, or the problem type when no rule applies)",
                   ["ruleset", "command", "outcome", "rule"])
COMMAND_SECONDS = Histogram("umpire_command_seconds", "A command's time from its checks to its answer "
                            "(the append's commit included; the wait for the game's lock not)",
                            ["ruleset"], buckets=_FAST)
APPEND_SECONDS = Histogram("umpire_append_seconds", "A command's append: from asking the store to its "
                           "committed result (the wait for the group's commit included)", buckets=_FAST)
COMMIT_SECONDS = Histogram("umpire_commit_seconds", "One group commit's transaction (BEGIN to COMMIT)",
                           buckets=_FAST)
COMMIT_GROUP = Histogram("umpire_commit_group_size", "Writes committed by one group commit",
                         buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256))
DRY_RUNS = Counter("umpire_dry_runs", "Dry runs (?dry_run=true) by ruleset and outcome", ["ruleset", "outcome"])
UNDO = Counter("umpire_undo_events", "Undo requests and their outcomes, by the kernel event a command made "
               "(undo_requested, undone, undo_declined, undo_lapsed)", ["ruleset", "event"])
PROJECTOR_LAG_EVENTS = Gauge("umpire_projector_lag_events", "Events in the log the node's projector has not "
                             "projected yet", ["node"], multiprocess_mode="livemax")
PROJECTOR_LAG_SECONDS = Gauge("umpire_projector_lag_seconds", "Seconds since the node's projector was last "
                              "level with the log (0 when it is)", ["node"], multiprocess_mode="livemax")
FEED_SUBSCRIBERS = Gauge("umpire_feed_subscribers", "Open feed connections (GET /games/{id}/feed)", ["node"],
                         multiprocess_mode="livesum")
BOT_SECONDS = Histogram("umpire_bot_decision_seconds", "A built-in player's decision time", ["bot", "level"],
                        buckets=_SLOW)
HTTP_REQUESTS = Counter("umpire_http_requests", "HTTP requests by method, route and status",
                        ["method", "route", "status"])
HTTP_SECONDS = Histogram("umpire_http_request_seconds", "HTTP request time to the answer's end",
                         ["method", "route"], buckets=_FAST)
STORE_ERRORS = Counter("umpire_store_errors", "Event store failures answered 503 (disk full, database down)")
REDIS_ERRORS = Counter("umpire_redis_errors", "Redis failures (the service went on without Redis)", ["where"])
LIMITED = Counter("umpire_limited", "Requests refused by a limit (429/503)", ["budget"])

# the series a dashboard names exist from the start (at 0), not from their first event
FEED_SUBSCRIBERS.labels(NODE)
for _where in ("limiter", "projector", "reads"):
    REDIS_ERRORS.labels(_where)


# -- the edges -----------------------------------------------------------------------------------------
def _tag(command: Any) -> str:
    tag = getattr(getattr(type(command), "__struct_config__", None), "tag", None)
    return tag if isinstance(tag, str) else type(command).__name__


def _refusal(exc: BaseException) -> tuple[str, str]:
    extra = getattr(exc, "extra", None)
    if isinstance(extra, dict) and extra.get("rule"):
        return "refused", str(extra["rule"])
    slug = getattr(exc, "slug", None)
    return ("refused", slug) if slug else ("error", type(exc).__name__)


_UNDO_EVENTS = frozenset({"undo_requested", "undone", "undo_declined", "undo_lapsed"})


def counted_steps(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``GameService.run_steps`` (a generator of ``AppendCall``): count the command by ruleset, type
    and outcome, time it and its append, count the undo events it made."""

    @functools.wraps(fn)
    def run(svc: Any, game_id: str, seat: str, command: Any, **kw: Any) -> Any:
        if not ENABLED:
            return (yield from fn(svc, game_id, seat, command, **kw))
        t0 = time.perf_counter()
        game = kw.get("game")
        kind = _tag(command)
        steps = fn(svc, game_id, seat, command, **kw)
        try:
            call = next(steps)
            while True:
                t = time.perf_counter()
                try:
                    res = yield call
                except BaseException as exc:
                    APPEND_SECONDS.observe(time.perf_counter() - t)
                    call = steps.throw(exc)
                else:
                    APPEND_SECONDS.observe(time.perf_counter() - t)
                    call = steps.send(res)
        except StopIteration as stop:
            answer = stop.value
        except BaseException as exc:
            rs = _ruleset(svc, game_id, game)
            outcome, rule = _refusal(exc)
            took = time.perf_counter() - t0
            _child(COMMANDS, rs, kind, outcome, rule).inc()
            _child(COMMAND_SECONDS, rs).observe(took)
            if COMMAND_LOG.isEnabledFor(logging.INFO):
                _log_command(game_id, seat, rs, kind, outcome, rule, took)
            raise
        rs = _ruleset(svc, game_id, game)
        took = time.perf_counter() - t0
        _child(COMMANDS, rs, kind, "accepted", "").inc()
        _child(COMMAND_SECONDS, rs).observe(took)
        if COMMAND_LOG.isEnabledFor(logging.INFO):
            _log_command(game_id, seat, rs, kind, "accepted", None, took)
        body = getattr(answer, "body", None)
        if getattr(answer, "appended", False) and isinstance(body, dict):
            for ev in body.get("events") or ():
                t = ev.get("type") if isinstance(ev, dict) else None
                if t in _UNDO_EVENTS:
                    UNDO.labels(rs, t).inc()
        return answer

    return run


def _log_command(game_id: str, seat: str, ruleset: str, kind: str, outcome: str, rule: str | None,
                 took: float) -> None:
    COMMAND_LOG.info("%s %s by %s in game %s: %s%s", ruleset, kind, seat, game_id, outcome,
                     f" ({rule})" if rule else "",
                     extra={"game_id": game_id, "seat": seat, "ruleset": ruleset, "command": kind, "outcome": outcome,
                            "rule": rule, "duration_ms": round(took * 1000, 3)})


def counted_dry_run(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``GameService.dry_run``: count dry runs by ruleset and outcome (legal, or refused with the rule)."""

    @functools.wraps(fn)
    def run(svc: Any, game_id: str, *args: Any, **kw: Any) -> Any:
        if not ENABLED:
            return fn(svc, game_id, *args, **kw)
        try:
            out = fn(svc, game_id, *args, **kw)
        except BaseException as exc:
            DRY_RUNS.labels(_ruleset(svc, game_id, None), _refusal(exc)[1]).inc()
            raise
        DRY_RUNS.labels(out.get("ruleset", "") if isinstance(out, dict) else "", "legal").inc()
        return out

    return run


def _ruleset(svc: Any, game_id: str, game: Any) -> str:
    if game is not None:
        return game.ruleset
    try:
        row = svc.store.game(game_id)
    except Exception:  # an unknown game, the store down: the refusal is counted all the same
        return ""
    return row.ruleset if row is not None else ""


def group_committed(size: int, seconds: float) -> None:
    """:data:`service.store.ON_GROUP_COMMIT`: one group commit's size and transaction time."""
    COMMIT_GROUP.observe(size)
    COMMIT_SECONDS.observe(seconds)


def count_store_errors(handler: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """The app's ``StoreError`` handler, counting the 503s (a storage failure, not an unknown game)."""

    @functools.wraps(handler)
    def counted(request: Any, exc: Any) -> Any:
        resp = handler(request, exc)
        if getattr(resp, "status_code", 0) == 503:
            STORE_ERRORS.inc()
        return resp

    return counted


def timed_bot(bot: str, level: Any) -> Any:
    """``with timed_bot(name, level):`` around one decision of a built-in player."""
    return BOT_SECONDS.labels(bot, str(level)).time()


if ENABLED and group_committed not in _store.ON_GROUP_COMMIT:
    _store.ON_GROUP_COMMIT.append(group_committed)


# -- HTTP ----------------------------------------------------------------------------------------------
#: A path's segments that name one thing (a game, a campaign, a seq, a ruleset, a rule): folded into the label.
_IDS = re.compile(r"^/(games|campaigns|rulesets|languages)/[^/]+")
_NUM = re.compile(r"/\d+(?=/|$)")
_RULE = re.compile(r"^(/rulesets/\{id\}/rules)/[^/]+$")
_FEED = re.compile(r"^/games/[^/]+/feed$")
#: A seat's name in a path (``/games/{id}/seats/{seat}/claim``): a client's text, folded like an id.
_SEAT = re.compile(r"^(/(?:games|campaigns)/\{id\}/seats)/[^/]+(?=/)")
#: The routes the service serves, as labels: any other path under a known first segment is ``other`` too
#: (a made-up segment -- a scanner's, or a token pasted into a path -- names no series of its own).
_ROUTES = frozenset({
    "", "/", "/.well-known/umpire-key", "/health", "/metrics", "/games", "/campaigns", "/rulesets",
    "/campaigns/{id}", "/campaigns/{id}/ready", "/campaigns/{id}/verify", "/campaigns/{id}/seats/{seat}/claim",
    "/campaigns/{id}/seats/{seat}/rotate",
    "/games/{id}", "/games/{id}/board.svg", "/games/{id}/commands", "/games/{id}/events", "/games/{id}/feed",
    "/games/{id}/events/{n}/redecide", "/games/{id}/events/{n}/ruling", "/games/{id}/legal-commands",
    "/games/{id}/ready", "/games/{id}/seats/{seat}/claim", "/games/{id}/seats/{seat}/rotate",
    "/games/{id}/states/{n}", "/games/{id}/timeline", "/games/{id}/undo", "/games/{id}/undo/accept",
    "/games/{id}/undo/decline", "/games/{id}/verify",
    "/rulesets/{id}/rules", "/rulesets/{id}/rules/{rule}",
    "/languages", "/languages/{id}/catalog",
})
#: First path segments the service serves; any other path is ``other`` (a scanner's paths must not grow the
#: label set).
_KNOWN = frozenset({"", "games", "campaigns", "rulesets", "languages", "health", "metrics", ".well-known"})


@functools.lru_cache(maxsize=4096)
def route_of(path: str) -> str:
    """The route label of a path: ids folded (``/games/{id}/events/{n}/ruling``), ``/schema`` and ``/web`` for
    the docs and the web client's files, ``other`` for anything else. Remembered for the paths seen last (a
    game's commands ask for the same path every time)."""
    first = path.split("/", 2)[1] if path.startswith("/") and len(path) > 1 else ""
    if first in ("schema", "web"):
        return "/" + first
    if first not in _KNOWN:
        return "other"
    r = _IDS.sub(lambda m: f"/{m.group(1)}/{{id}}", path, count=1)
    r = _NUM.sub("/{n}", r)
    r = _RULE.sub(r"\1/{rule}", r)
    r = _SEAT.sub(r"\1/{seat}", r)
    return r if r in _ROUTES else "other"


class HttpMetrics:
    """ASGI wrapper: counts and times every HTTP request by route and status, and the open feeds."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        path = scope["path"]
        route = route_of(path)
        status = 500
        feed = scope["method"] == "GET" and _FEED.match(path) is not None
        if feed:
            FEED_SUBSCRIBERS.labels(NODE).inc()

        async def sent(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sent)
        finally:
            if feed:
                FEED_SUBSCRIBERS.labels(NODE).dec()
            _child(HTTP_REQUESTS, scope["method"], route, str(status)).inc()
            _child(HTTP_SECONDS, scope["method"], route).observe(time.perf_counter() - t0)


# -- the projector's lag -------------------------------------------------------------------------------
class ProjectorLag:
    """The projector process's lag, from the store it tails: :meth:`tailing` wraps the store (its
    ``iter_all`` positions are what was read), :meth:`projecting` the read models (a batch projected
    without error is done), :meth:`sample` sets the gauges (a thread calls it every second)."""

    def __init__(self, node: str = NODE):
        self.node = node
        self.done = -1  # the position projected; -1: not known yet (the start's catch-up is running)
        self.level_since = time.monotonic()

    def tailing(self, store: Any) -> Any:
        lag = self

        class Tailed:
            def __getattr__(self, name: str) -> Any:
                return getattr(store, name)

            def last_position(self) -> int:
                pos = store.last_position()
                if lag.done < 0:
                    lag.done = pos
                return pos

            def iter_all(self, after_rowid: int = 0, batch: int = 1000) -> Iterator[tuple[int, Any]]:
                for rowid, ev in store.iter_all(after_rowid=after_rowid, batch=batch):
                    lag.reading = rowid
                    yield rowid, ev

        self.reading = -1
        return Tailed()

    def projecting(self, read_models: Any) -> Any:
        lag = self

        class Projecting:
            def __getattr__(self, name: str) -> Any:
                return getattr(read_models, name)

            def project_batch(self, batch: Any) -> Any:
                try:
                    out = read_models.project_batch(batch)
                except Exception:
                    REDIS_ERRORS.labels("projector").inc()
                    raise
                lag.done = max(lag.done, lag.reading)
                return out

        return Projecting()

    def sample(self, store: Store) -> None:
        head = store.last_position()
        behind = max(0, head - self.done) if self.done >= 0 else head
        now = time.monotonic()
        if behind == 0:
            self.level_since = now
        PROJECTOR_LAG_EVENTS.labels(self.node).set(behind)
        PROJECTOR_LAG_SECONDS.labels(self.node).set(0.0 if behind == 0 else now - self.level_since)


# -- the scrape ----------------------------------------------------------------------------------------
def multiprocess() -> bool:
    """True when this process's samples are written to the multi-process directory."""
    return _values.ValueClass is not _values.MutexValue and bool(os.environ.get(ENV_MULTIPROC))


class GamesByStatus:
    """A collector: the stored games by status, counted in the store at scrape time (the store is shared,
    so any node's answer is every node's)."""

    def __init__(self, store: Store):
        self.store = store

    def collect(self) -> Iterator[Any]:
        fam = GaugeMetricFamily("umpire_games", "Stored games by status", labels=["status"])
        try:
            rows = self.store.rows("SELECT status, count(*) FROM games GROUP BY status")
        except Exception:  # the store down: no sample (the store's errors say why)
            rows = []
        for status, n in rows:
            fam.add_metric([str(status)], float(n))
        yield fam


class Merged:
    """A collector: the samples of several collectors as one set of families, each series once. A served
    process that keeps its own samples in memory (``umpire serve`` with one worker) and reads its projector
    process's from the multi-process directory has the same series in both (every metric is declared in both
    processes, the labelled ones the dashboards name created at 0): their values are combined as the metric's
    multi-process mode says (a gauge ``livemax``/``max``: the largest, ``min``: the smallest, ``mostrecent``:
    this process's; anything else summed: counters, histograms, ``livesum`` gauges). Without it ``/metrics``
    showed e.g. ``umpire_feed_subscribers{node}`` twice, which Prometheus rejects as a duplicate series."""

    def __init__(self, sources: list[Any], modes: dict[str, str]):
        """``sources``: collectors, this process's own last; ``modes``: a gauge's name -> its multi-process mode."""
        self.sources = sources
        self.modes = modes

    def collect(self) -> Iterator[Any]:
        families: dict[str, Any] = {}
        values: dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], Any]] = {}
        for source in self.sources:
            for fam in source.collect():
                have = families.setdefault(fam.name, fam)
                mine = values.setdefault(fam.name, {})
                mode = self.modes.get(fam.name, "sum") if have.type == "gauge" else "sum"
                for sample in fam.samples:
                    key = (sample.name, tuple(sorted(sample.labels.items())))
                    old = mine.get(key)
                    if old is None:
                        mine[key] = sample
                    elif "max" in mode:
                        mine[key] = old._replace(value=max(old.value, sample.value))
                    elif "min" in mode:
                        mine[key] = old._replace(value=min(old.value, sample.value))
                    elif "mostrecent" in mode:
                        mine[key] = sample
                    else:
                        mine[key] = old._replace(value=old.value + sample.value)
        for name, fam in families.items():
            fam.samples = list(values[name].values())
            yield fam


def scrape(store: Store | None = None) -> bytes:
    """The text of ``GET /metrics``: every process's samples in multi-process mode, else this process's (with
    its projector process's, when ``umpire serve`` runs one, merged into them: :class:`Merged`);
    ``store``: the games by status."""
    registry = CollectorRegistry()
    if multiprocess():
        MultiProcessCollector(registry)
    else:
        own = list(REGISTRY._collector_to_names)  # noqa: SLF001 - the process's own metrics
        if os.environ.get(ENV_MULTIPROC):  # the projector's samples (this process keeps its own in memory)
            modes = {c._name: c._multiprocess_mode for c in own if isinstance(c, Gauge)}  # noqa: SLF001
            registry.register(Merged([MultiProcessCollector(None), *own], modes))
        else:
            for collector in own:
                registry.register(collector)
    if store is not None:
        registry.register(GamesByStatus(store))
    return generate_latest(registry)


def prepare_dir(path: str) -> str:
    """Empty (or create) the multi-process directory: ``umpire serve`` calls it before any process starts."""
    p = Path(path)
    if p.exists():
        shutil.rmtree(p)
    p.mkdir(parents=True, mode=0o700)
    return str(p)


def process_dead(pid: int) -> None:
    """Drop a dead process's live gauges (a restarted projector, a worker that died)."""
    if os.environ.get(ENV_MULTIPROC):
        mark_process_dead(pid)


__all__ = ["COMMANDS", "CONTENT_TYPE_LATEST", "ENV_MULTIPROC", "HttpMetrics", "Merged", "ProjectorLag", "counted_dry_run",
           "counted_steps", "group_committed", "prepare_dir", "process_dead", "route_of", "scrape", "timed_bot"]
