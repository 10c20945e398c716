#!/usr/bin/env python3
"""HTTP benchmark of the command path beside two bare handlers (issue 17, "Measure").

Three servers, each served exactly as ``umpire serve`` serves (``service.cli.run_http``: the same
stack, the same multi-process supervisor, the access log on as by default), on loopback:

- ``umpire``: the real app on a fresh data dir, with its Redis read models on a private Redis;
  ``POST /games/{id}/commands`` of the toy ruleset (``tests/service/toy_ruleset.py``: step,
  end_turn, for each seat in turn; no dice, so every command is legal and the load generator
  needs no game logic);
- ``bare constant``: a bare litestar ``POST`` handler that answers a constant;
- ``bare insert``: a bare litestar ``POST`` handler doing one durable SQLite insert per request
  (WAL, ``synchronous=FULL``, ``BEGIN IMMEDIATE``, one writer per process, a row of
  :data:`ROW_BYTES`, about an umpire event row).

The load generator is ``wrk`` (C, one thread and one keep-alive connection per game; installed by
``ops/ensure-wrk``) with a Lua script that posts each game's next command with the version the
last answer gave: it costs little next to the server. Every endpoint gets the same request body
size and the same ``--seconds`` at 1, 8 and 32 connections, with ``--workers 1`` and ``2``;
the table gives commands/s, p50, p99 and the ratios to the durable insert of the same run, and the CPU
each request cost the machine (``cpu ms``: user + system time of the server's processes over the run, from
``/proc``, per request; for umpire also its projector process and Redis, which the bare handlers do not
have). On a shared machine the CPU per request moves far less with the other load than the rates do.

Goals (issue 17), at 8 connections: umpire >= 0.6x the insert's throughput and p99 <= 3x its p99
with one worker; >= 0.9x with two.

    .venv/bin/python ops/bench_http.py [--seconds 5] [--connections 1,8,32] [--workers 1,2] [--json]

``--public`` (DESIGN 16) compares instead the umpire server with metrics and limits off, with metrics on,
and with both on (limits high enough never to refuse, loopback limited: every command spends its
address's and its seat's budgets in Redis), the three taking turns for ``--rounds`` rounds, and measures
the limiter's own cost per command on Redis (no HTTP):

    .venv/bin/python ops/bench_http.py --public [--seconds 5] [--connections 1,8] [--workers 1,2] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from service.cli import served  # noqa: E402  (the servers below are served as umpire serve serves)

SEED = "0f" * 32
#: Bytes of the row the bare insert writes (an umpire event row of the toy ruleset, with its
#: hashes, commitment and ruling, is about this size).
ROW_BYTES = 700
#: Goals of issue 17 at 8 connections (throughput ratio with 1 worker, p99 ratio, with 2 workers).
GOAL_RATIO_1, GOAL_P99_1, GOAL_RATIO_2 = 0.6, 3.0, 0.9
GOAL_CONNECTIONS = 8


# -- the apps (factories, run in the server processes) -------------------------------------
def umpire_app():
    from service.app import create_app
    from service.settings import Settings
    from tests.service.toy_ruleset import register

    register()
    return served(create_app(Settings.from_env(), projector=os.environ.get("UMPIRE_PROJECTOR", "thread")))


def bare_constant_app():
    from litestar import Litestar, post

    @post("/constant", status_code=201)
    async def constant(data: dict[str, Any]) -> dict[str, Any]:
        return {"status": "ok"}

    return served(Litestar(route_handlers=[constant], openapi_config=None))


def bare_insert_app():
    import sqlite3

    from litestar import Litestar, post

    path = os.environ["BENCH_INSERT_DB"]
    local = threading.local()
    lock = threading.Lock()
    row = "x" * ROW_BYTES

    def conn() -> sqlite3.Connection:
        c = getattr(local, "c", None)
        if c is None:
            c = local.c = sqlite3.connect(path, isolation_level=None, timeout=10)
            c.execute("PRAGMA busy_timeout=10000")
            c.execute("PRAGMA journal_mode=WAL")
            c.execute("PRAGMA synchronous=FULL")
            c.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL, payload TEXT)")
        return c

    @post("/insert", status_code=201, sync_to_thread=True)
    def insert(data: dict[str, Any]) -> dict[str, Any]:
        c = conn()
        with lock:  # one writer per process, as the event store
            c.execute("BEGIN IMMEDIATE")
            cur = c.execute("INSERT INTO rows (body, payload) VALUES (?, ?)", (row, json.dumps(data)))
            c.execute("COMMIT")
        return {"id": cur.lastrowid}

    return served(Litestar(route_handlers=[insert], openapi_config=None))


# -- servers ------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(factory: str, workers: int, env: dict[str, str], probe: tuple[str, str]) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    code = (f"from service.cli import run_http; run_http({factory!r}, '127.0.0.1', {port}, {workers})")
    proc = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, **env,
                            "PYTHONPATH": f"{ROOT / 'ops'}:{ROOT}"}, cwd=str(ROOT),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server {factory} exited with {proc.returncode}")
        try:
            r = httpx.request(probe[0], url + probe[1], json={}, timeout=2)
            if r.status_code < 500:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    stop(proc)
    raise SystemExit(f"server {factory} did not start")


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, 15)
    except ProcessLookupError:
        return
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait(5)


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of ``pid`` and its live descendants (``/proc``; 0 without one)."""
    if pid is None:
        return 0.0
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry))
    tick, total, todo = os.sysconf("SC_CLK_TCK"), 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
        todo += children.get(p, [])
    return total


def run_wrk_cpu(url: str, script: str, connections: int, seconds: float,
                pids: dict[str, int | None]) -> dict[str, Any]:
    """:func:`run_wrk`, with the CPU ms per request of each process tree in ``pids`` (``cpu_ms`` the first's)."""
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    got = run_wrk(url, script, connections, seconds)
    n = max(got["requests"], 1)
    for i, (name, pid) in enumerate(pids.items()):
        got["cpu_ms" if i == 0 else f"{name}_cpu_ms"] = round((cpu_seconds(pid) - before[name]) * 1000 / n, 3)
    return got


# -- wrk ----------------------------------------------------------------------------------
DONE_LUA = r"""
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests":%d,"duration_us":%d,"non2xx":%d,"socket_errors":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
"""

#: Each wrk thread (one connection) plays its own game: north step, north end_turn, south step,
#: south end_turn, ... with the version of the last answer.
GAME_LUA = r"""
local games = {GAMES}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("idx", counter)
end
local cmds = {'{"type":"step"}', '{"type":"end_turn"}', '{"type":"step"}', '{"type":"end_turn"}'}
function init(args)
  local g = games[idx]
  gid, tokens, version, step = g[1], {g[2], g[3]}, g[4], 0
end
function request()
  local who = step < 2 and 1 or 2
  local body = '{"command":' .. cmds[step + 1] .. ',"expected_version":' .. version .. '}'
  return wrk.format("POST", "/games/" .. gid .. "/commands",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. tokens[who]}, body)
end
function response(status, headers, body)
  if status == 201 then
    version = tonumber(string.match(body, '"version":(%d+)'))
    step = (step + 1) % 4
  end
end
"""

#: The bare handlers get a body and headers of the same size as a command's.
BARE_LUA = r"""
local body = '{"command":{"type":"end_turn"},"expected_version":1234}'
local auth = "Bearer " .. string.rep("t", 32)
function request()
  return wrk.format("POST", "{PATH}", {["Content-Type"] = "application/json", ["Authorization"] = auth}, body)
end
"""


def run_wrk(url: str, script: str, connections: int, seconds: float) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script + DONE_LUA)
        lua = f.name
    try:
        out = subprocess.run(["wrk", "-t", str(connections), "-c", str(connections), "-d", f"{seconds:g}s",
                              "--timeout", "10s", "-s", lua, url], capture_output=True, text=True,
                             timeout=seconds + 60)
    finally:
        os.unlink(lua)
    m = re.search(r"^WRK (\{.*\})$", out.stdout, re.M)
    if m is None:
        raise SystemExit(f"wrk gave no figures: {out.stdout[-500:]} {out.stderr[-500:]}")
    r = json.loads(m.group(1))
    secs = r["duration_us"] / 1e6
    return {"requests": r["requests"], "errors": r["non2xx"] + r["socket_errors"],
            "per_second": round(r["requests"] / secs, 1), "p50_ms": round(r["p50_us"] / 1000, 2),
            "p99_ms": round(r["p99_us"] / 1000, 2)}


def new_games(url: str, n: int) -> str:
    """``n`` fresh toy games as a Lua table {{game_id, north token, south token, version}, ...}."""
    rows = []
    with httpx.Client(base_url=url, timeout=30) as c:
        for _ in range(n):
            g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
            rows.append('{"%s","%s","%s",%d}' % (g["game_id"], g["seats"]["north"], g["seats"]["south"], g["version"]))
    return "{" + ",".join(rows) + "}"


# -- the run ------------------------------------------------------------------------------
ENDPOINTS = ("umpire POST /commands", "bare constant POST", "bare durable insert POST")


def run_workers(workers: int, connections: list[int], seconds: float, redis_url: str, tmp: Path,
                projector: str = "process", redis_pid: int | None = None) -> dict[str, Any]:
    from service.cli import Supervised, projector_command, projector_env

    data = tmp / f"umpire-w{workers}"
    env_u = {"UMPIRE_DATA_DIR": str(data), "UMPIRE_REDIS_URL": redis_url, "UMPIRE_PROJECTOR": projector}
    from service.receipts import load_or_create
    from service.store import EventStore

    EventStore(data).close()
    load_or_create(data)  # the key made once before the workers start, as umpire serve does
    servers: dict[str, tuple[subprocess.Popen, str]] = {}
    follower = None
    if projector == "process":  # as umpire serve does: a supervised projector process follows the log
        follower = Supervised(projector_command(str(data),
                                                "from tests.service.toy_ruleset import register; register()"),
                              "projector", env=projector_env(redis_url))
        follower.start()
    try:
        servers["umpire"] = start_server("bench_http:umpire_app", workers, env_u, ("GET", "/health"))
        servers["constant"] = start_server("bench_http:bare_constant_app", workers, {}, ("POST", "/constant"))
        servers["insert"] = start_server("bench_http:bare_insert_app", workers,
                                         {"BENCH_INSERT_DB": str(tmp / f"insert-w{workers}.db")}, ("POST", "/insert"))
        # warm up each server (imports, caches, the first connections)
        run_wrk(servers["umpire"][1], GAME_LUA.replace("{GAMES}", new_games(servers["umpire"][1], 2)), 2, 1)
        run_wrk(servers["constant"][1], BARE_LUA.replace("{PATH}", "/constant"), 2, 1)
        run_wrk(servers["insert"][1], BARE_LUA.replace("{PATH}", "/insert"), 2, 1)
        rows: dict[str, Any] = {}
        for c in connections:
            games = GAME_LUA.replace("{GAMES}", new_games(servers["umpire"][1], c))
            umpire_pids = {"server": servers["umpire"][0].pid,
                           "projector": follower.proc.pid if follower is not None else None, "redis": redis_pid}
            cell = {
                ENDPOINTS[0]: run_wrk_cpu(servers["umpire"][1], games, c, seconds, umpire_pids),
                ENDPOINTS[1]: run_wrk_cpu(servers["constant"][1], BARE_LUA.replace("{PATH}", "/constant"), c, seconds,
                                          {"server": servers["constant"][0].pid}),
                ENDPOINTS[2]: run_wrk_cpu(servers["insert"][1], BARE_LUA.replace("{PATH}", "/insert"), c, seconds,
                                          {"server": servers["insert"][0].pid}),
            }
            ins = cell[ENDPOINTS[2]]
            for row in cell.values():
                row["x_insert_per_s"] = round(row["per_second"] / ins["per_second"], 2) if ins["per_second"] else None
                row["x_insert_p99"] = round(row["p99_ms"] / ins["p99_ms"], 2) if ins["p99_ms"] else None
            rows[str(c)] = cell
    finally:
        for proc, _ in servers.values():
            stop(proc)
        if follower is not None:
            follower.stop()
    return rows


# -- metrics and limits on and off (DESIGN 16) ---------------------------------------------
#: The umpire server's configurations compared by ``--public``: (name, environment).
PUBLIC_MODES: tuple[tuple[str, dict[str, str]], ...] = (
    ("metrics off, limits off", {"UMPIRE_METRICS": "0", "UMPIRE_LIMITS": "0"}),
    ("metrics on, limits off", {"UMPIRE_METRICS": "1", "UMPIRE_LIMITS": "0"}),
    # every command spends two budgets (its address's and its seat's): limits that are never reached
    ("metrics on, limits on", {"UMPIRE_METRICS": "1", "UMPIRE_LIMITS": "1", "UMPIRE_LIMIT_LOOPBACK": "1",
                               "UMPIRE_LIMIT_COMMANDS_SEAT": "100000000/minute",
                               "UMPIRE_LIMIT_COMMANDS_ADDRESS": "100000000/minute",
                               "UMPIRE_LIMIT_CREATE": "100000/minute"}),
)


def run_public(workers: int, connections: list[int], seconds: float, redis_url: str, tmp: Path,
               rounds: int) -> dict[str, Any]:
    """Commands/s and latencies of the umpire server in each of :data:`PUBLIC_MODES`, the modes taking turns
    in each of ``rounds`` (the machine's other load falls on all of them alike); the best round of each."""
    from service.receipts import load_or_create
    from service.store import EventStore

    best: dict[str, dict[str, Any]] = {}
    for r in range(rounds):
        for name, env in PUBLIC_MODES:
            data = tmp / f"public-w{workers}-{r}-{len(best)}-{name.replace(' ', '').replace(',', '')}"
            EventStore(data).close()
            load_or_create(data)
            env_u = {"UMPIRE_DATA_DIR": str(data), "UMPIRE_REDIS_URL": redis_url, "UMPIRE_PROJECTOR": "thread", **env}
            if env.get("UMPIRE_METRICS") == "1":  # as umpire serve does (one worker too: its projector process)
                mp = tmp / f"metrics-{data.name}"
                mp.mkdir()
                env_u["PROMETHEUS_MULTIPROC_DIR"] = str(mp)
            proc, url = start_server("bench_http:umpire_app", workers, env_u, ("GET", "/health"))
            try:
                run_wrk(url, GAME_LUA.replace("{GAMES}", new_games(url, 2)), 2, 1)  # warm up
                for c in connections:
                    got = run_wrk(url, GAME_LUA.replace("{GAMES}", new_games(url, c)), c, seconds)
                    key = f"{name}|{c}"
                    if key not in best or got["per_second"] > best[key]["per_second"]:
                        best[key] = got
            finally:
                stop(proc)
    out: dict[str, Any] = {}
    for c in connections:
        base = best[f"{PUBLIC_MODES[0][0]}|{c}"]
        cell = {}
        for name, _ in PUBLIC_MODES:
            row = dict(best[f"{name}|{c}"])
            row["x_off_per_s"] = round(row["per_second"] / base["per_second"], 3) if base["per_second"] else None
            row["x_off_p99"] = round(row["p99_ms"] / base["p99_ms"], 2) if base["p99_ms"] else None
            cell[name] = row
        out[str(c)] = cell
    return out


def limiter_cost(redis_url: str, n: int = 4000) -> dict[str, Any]:
    """Microseconds the limiter adds to one command on this Redis: a command (its two budgets) through
    :class:`service.rate_limits.RateLimits` in front of an ASGI app that answers at once, against the same
    app alone, on one event loop (no HTTP)."""
    import asyncio

    from service.rate_limits import RateLimits
    from service.settings import LimitSettings

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 201, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    settings = msgspec_replace(LimitSettings(), loopback=True,
                               budgets={**LimitSettings().budgets, "commands_seat": "100000000/minute",
                                        "commands_address": "100000000/minute"})
    limited = RateLimits(app, settings, redis_url)
    scope = {"type": "http", "method": "POST", "path": "/games/g1/commands", "query_string": b"",
             "client": ("127.0.0.9", 5555), "headers": [(b"authorization", b"Bearer " + b"t" * 32)]}

    async def receive() -> Any:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(_: Any) -> None:
        return None

    async def run(handler: Any) -> float:
        for _ in range(200):  # warm up (the connection, the script's load)
            await handler(scope, receive, send)
        t0 = time.perf_counter()
        for _ in range(n):
            await handler(scope, receive, send)
        return (time.perf_counter() - t0) / n

    async def both() -> tuple[float, float]:
        return await run(app), await run(limited)

    bare, with_limits = asyncio.run(both())
    return {"requests": n, "bare_us": round(bare * 1e6, 1), "limited_us": round(with_limits * 1e6, 1),
            "limiter_us_per_command": round((with_limits - bare) * 1e6, 1), "budgets_per_command": 2}


def msgspec_replace(struct: Any, **changes: Any) -> Any:
    import msgspec

    return msgspec.structs.replace(struct, **changes)


def public_table(out: dict[str, Any]) -> list[str]:
    lines = ["| workers | connections | server | commands/s | p50 ms | p99 ms | x off (rate) | x off (p99) | errors |",
             "|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    for w, per_c in out["public"].items():
        for c, cell in per_c.items():
            for name, r in cell.items():
                lines.append(f"| {w} | {c} | {name} | {r['per_second']:,.0f} | {r['p50_ms']} | {r['p99_ms']} | "
                             f"{r['x_off_per_s']} | {r['x_off_p99']} | {r['errors']} |")
    return lines


def figures(out: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``ops/bench`` shape: each umpire figure beside the durable insert of the same run."""
    figs = []
    for w, per_c in out["workers"].items():
        for c, cell in per_c.items():
            u, ins = cell[ENDPOINTS[0]], cell[ENDPOINTS[2]]
            how = f"{c} connections, --workers {w}"
            figs.append({"figure": f"POST /commands ({how})", "value": u["per_second"], "unit": "commands/s",
                         "vs": {"figure": "bare durable insert, requests/s", "value": ins["per_second"]}})
            figs.append({"figure": f"POST /commands p99 ({how})", "value": u["p99_ms"], "unit": "ms (p99)",
                         "lower_is_better": True, "vs": {"figure": "bare durable insert p99", "value": ins["p99_ms"]}})
            if u.get("cpu_ms") is not None and ins.get("cpu_ms"):
                whole = round(u["cpu_ms"] + (u.get("projector_cpu_ms") or 0) + (u.get("redis_cpu_ms") or 0), 3)
                figs.append({"figure": f"POST /commands CPU per command, server + projector + Redis ({how})",
                             "value": whole, "unit": "CPU ms", "lower_is_better": True,
                             "vs": {"figure": "bare durable insert CPU per request", "value": ins["cpu_ms"]}})
    return figs


def table(out: dict[str, Any]) -> list[str]:
    lines = [("| workers | connections | endpoint | commands/s | p50 ms | p99 ms | x insert (rate) | x insert (p99) | "
              "cpu ms: server (+ projector, redis) | errors |"),
             "|---:|---:|---|---:|---:|---:|---:|---:|---|---:|"]
    for w, per_c in out["workers"].items():
        for c, cell in per_c.items():
            for name, r in cell.items():
                cpu = f"{r.get('cpu_ms')}"
                if "projector_cpu_ms" in r:
                    cpu += f" (+ {r['projector_cpu_ms']}, {r.get('redis_cpu_ms')})"
                lines.append(f"| {w} | {c} | {name} | {r['per_second']:,.0f} | {r['p50_ms']} | {r['p99_ms']} | "
                             f"{r['x_insert_per_s']} | {r['x_insert_p99']} | {cpu} | {r['errors']} |")
    return lines


def goals(out: dict[str, Any]) -> list[str]:
    lines = []
    c = str(GOAL_CONNECTIONS)
    one = out["workers"].get("1", {}).get(c)
    two = out["workers"].get("2", {}).get(c)
    if one:
        u = one[ENDPOINTS[0]]
        lines.append(f"goal, 1 worker, {c} connections: rate {u['x_insert_per_s']}x insert (goal >= {GOAL_RATIO_1}), "
                     f"p99 {u['x_insert_p99']}x insert (goal <= {GOAL_P99_1})")
    if two:
        u = two[ENDPOINTS[0]]
        lines.append(f"goal, 2 workers, {c} connections: rate {u['x_insert_per_s']}x insert (goal >= {GOAL_RATIO_2})")
    return lines


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:  # pragma: no cover
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="length of each measurement (default 5)")
    ap.add_argument("--connections", default="1,8,32", help="connection counts, comma-separated (default 1,8,32)")
    ap.add_argument("--workers", default="1,2", help="worker counts, comma-separated (default 1,2)")
    ap.add_argument("--projector", choices=["process", "thread"], default="process",
                    help="umpire's projector: a supervised process (umpire serve's default) or a thread per worker")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--public", action="store_true",
                    help="instead: umpire with metrics and limits off, metrics on, both on (ratios to off), and the "
                         "limiter's cost per command on Redis")
    ap.add_argument("--rounds", type=int, default=3, help="--public: rounds of the three servers (default 3)")
    args = ap.parse_args()
    os.chdir(ROOT)
    if shutil.which("wrk") is None:
        subprocess.run(["bash", str(ROOT / "ops" / "ensure-wrk")], check=True)
    connections = [int(x) for x in args.connections.split(",") if x]
    workers = [int(x) for x in args.workers.split(",") if x]

    from service.redis_runtime import EmbeddedRedis

    tmp = Path(tempfile.mkdtemp(prefix="umpire-bench-http-"))
    redis_server = EmbeddedRedis(tmp / "redis")
    redis_server.start()
    load_before = load_average()
    t0 = time.monotonic()
    if args.public:
        try:
            pub: dict[str, Any] = {"ruleset": "toy", "seconds": args.seconds, "rounds": args.rounds,
                                   "cpus": os.cpu_count(), "load_average_before": load_before, "public": {}}
            for w in workers:
                redis_server_flush(redis_server.url)
                pub["public"][str(w)] = run_public(w, connections, args.seconds, redis_server.url, tmp, args.rounds)
            pub["limiter"] = limiter_cost(redis_server.url)
        finally:
            redis_server.stop()
            shutil.rmtree(tmp, ignore_errors=True)
        pub["load_average_after"] = load_average()
        pub["took_s"] = round(time.monotonic() - t0, 1)
        if args.json:
            print(json.dumps(pub, indent=2))
            return
        print(f"umpire HTTP bench (wrk), metrics and limits: toy ruleset, projector thread, {args.seconds:g}s per cell, "
              f"best of {args.rounds} rounds, {pub['cpus']} CPUs, load average {load_before} before, "
              f"{pub['load_average_after']} after")
        print("\n".join(public_table(pub)))
        lim = pub["limiter"]
        print(f"limiter on Redis: {lim['limiter_us_per_command']} us per command ({lim['budgets_per_command']} budgets; "
              f"{lim['bare_us']} us bare, {lim['limited_us']} us limited, {lim['requests']} requests, one event loop)")
        return
    try:
        out: dict[str, Any] = {"ruleset": "toy", "projector": args.projector, "seconds": args.seconds, "cpus": os.cpu_count(),
                               "load_average_before": load_before, "workers": {}}
        for w in workers:
            redis_server_flush(redis_server.url)
            out["workers"][str(w)] = run_workers(w, connections, args.seconds, redis_server.url, tmp, args.projector,
                                                 redis_server.pid)
    finally:
        redis_server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    out["load_average_after"] = load_average()
    out["took_s"] = round(time.monotonic() - t0, 1)
    out["goals"] = goals(out)
    out["figures"] = figures(out)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"umpire HTTP bench (wrk): toy ruleset, projector {args.projector}, {args.seconds:g}s per cell, {out['cpus']} CPUs, "
          f"load average {load_before} before, {out['load_average_after']} after")
    print("\n".join(table(out)))
    print("\n".join(out["goals"]))


def redis_server_flush(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushall()


if __name__ == "__main__":
    main()
