#!/usr/bin/env python3
"""HTTP benchmark of the REST service on loopback (issue 5, "Measure").

Starts two real server processes (uvicorn) on free loopback ports:

- ``umpire``: the real app (``service.app.create_app``) on a fresh data dir,
  with its Redis read models on a private Redis server (``--no-redis``: none,
  every query from the log);
- ``bare``: a bare litestar app whose one handler returns a constant.

Then a load generator (httpx, one thread per client) runs, in the same run:

1. ``GET /constant`` on the bare app;
2. games driven by bots: each client plays its own games through
   ``GET /games/{id}`` (timed), ``GET /legal-commands`` (timed) and
   ``POST /commands`` (timed), starting a new game when one ends.

Reported per endpoint: requests, requests/s, p50 and p99 latency (ms), and the
ratios to the bare handler (the figure that matters: what the service adds on
top of the framework on this machine). Bounded by ``--seconds`` per phase.

    .venv/bin/python ops/bench_http.py --seconds 10 --clients 8 [--ruleset hoth|toy] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
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

SEED = "0f" * 32
SCENARIOS = {"hoth": "SCN-TAKE-DOWN-THE-SHIELD", "toy": "duel"}


# -- the two apps (uvicorn factories; this module is imported by the server processes) --
def umpire_app():
    from service.app import create_app
    from service.settings import Settings

    if os.environ.get("UMPIRE_BENCH_TOY"):
        from tests.service.toy_ruleset import register

        register()
    return create_app(Settings.from_env())


def bare_app():
    from litestar import Litestar, get

    @get("/constant", sync_to_thread=False)
    def constant() -> dict[str, str]:
        return {"status": "ok"}

    return Litestar(route_handlers=[constant], openapi_config=None)


# -- servers ------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(factory: str, env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", factory, "--app-dir", str(ROOT / "ops"),
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "--no-access-log"],
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT),
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    probe = "/constant" if factory.endswith("bare_app") else "/health"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server {factory} exited with {proc.returncode}")
        try:
            if httpx.get(url + probe, timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"server {factory} did not start")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


# -- load ---------------------------------------------------------------------------
class Timings:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.samples: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}

    def add(self, name: str, seconds: float, ok: bool) -> None:
        with self.lock:
            self.samples.setdefault(name, []).append(seconds)
            if not ok:
                self.errors[name] = self.errors.get(name, 0) + 1


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[k]


def _timed(t: Timings, name: str, fn, *args, ok_codes=(200,), **kw) -> httpx.Response:
    t0 = time.perf_counter()
    r = fn(*args, **kw)
    t.add(name, time.perf_counter() - t0, r.status_code in ok_codes)
    return r


def run_bare(url: str, clients: int, seconds: float, t: Timings) -> float:
    stop_at = time.monotonic() + seconds

    def worker() -> None:
        with httpx.Client(base_url=url, timeout=30) as c:
            while time.monotonic() < stop_at:
                _timed(t, "GET /constant (bare)", c.get, "/constant")

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return time.monotonic() - t0


def run_games(url: str, ruleset: str, clients: int, seconds: float, t: Timings) -> tuple[float, int]:
    stop_at = time.monotonic() + seconds
    games = [0]

    def worker(i: int) -> None:
        rng = random.Random(i)
        with httpx.Client(base_url=url, timeout=30) as c:
            while time.monotonic() < stop_at:
                g = c.post("/games", json={"ruleset": ruleset, "scenario": SCENARIOS[ruleset], "seed": SEED}).json()
                games[0] += 1
                gid, tokens = g["game_id"], g["seats"]
                while time.monotonic() < stop_at:
                    v = _timed(t, "GET /games/{id}", c.get, f"/games/{gid}").json()
                    if v["status"] == "finished":
                        break
                    seat = v["to_act"][0]
                    h = {"Authorization": f"Bearer {tokens[seat]}"}
                    cmds = _timed(t, "GET /legal-commands", c.get, f"/games/{gid}/legal-commands", headers=h).json()
                    cmd = rng.choice(cmds["commands"])
                    if ruleset == "toy" and cmd["type"] in ("roll", "play", "draw", "challenge"):
                        cmd = next((x for x in cmds["commands"] if x["type"] == "step"), {"type": "end_turn"})
                    _timed(t, "POST /commands", c.post, f"/games/{gid}/commands", ok_codes=(201,),
                           json={"command": cmd, "expected_version": v["version"]}, headers=h)

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return time.monotonic() - t0, games[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="length of each phase (default 10)")
    ap.add_argument("--clients", type=int, default=8, help="concurrent clients (threads)")
    ap.add_argument("--ruleset", choices=sorted(SCENARIOS), default="hoth")
    ap.add_argument("--no-redis", action="store_true", help="no read models: every query from the log")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()

    redis_server = None
    data_dir = tempfile.mkdtemp(prefix="umpire-bench-")
    env = {"UMPIRE_DATA_DIR": data_dir}
    if args.ruleset == "toy":
        env["UMPIRE_BENCH_TOY"] = "1"
    if not args.no_redis:
        from service.redis_runtime import EmbeddedRedis

        redis_server = EmbeddedRedis(Path(data_dir) / "redis")
        redis_server.start()
        env["UMPIRE_REDIS_URL"] = redis_server.url
    procs = []
    try:
        bare, bare_url = start_server("bench_http:bare_app", {})
        procs.append(bare)
        ump, ump_url = start_server("bench_http:umpire_app", env)
        procs.append(ump)
        t = Timings()
        bare_wall = run_bare(bare_url, args.clients, args.seconds, t)
        game_wall, games = run_games(ump_url, args.ruleset, args.clients, args.seconds, t)
    finally:
        for p in procs:
            stop(p)
        if redis_server is not None:
            redis_server.stop()

    walls = {"GET /constant (bare)": bare_wall}
    rows: dict[str, Any] = {}
    for name, xs in t.samples.items():
        wall = walls.get(name, game_wall)
        rows[name] = {
            "requests": len(xs),
            "errors": t.errors.get(name, 0),
            "per_second": round(len(xs) / wall, 1),
            "p50_ms": round(_pct(xs, 0.50) * 1000, 2),
            "p99_ms": round(_pct(xs, 0.99) * 1000, 2),
            "mean_ms": round(statistics.fmean(xs) * 1000, 2),
        }
    bare_row = rows["GET /constant (bare)"]
    for name, row in rows.items():
        row["p50_vs_bare"] = round(row["p50_ms"] / bare_row["p50_ms"], 1)
    out = {
        "ruleset": args.ruleset,
        "read_models": "redis" if not args.no_redis else "none (log)",
        "clients": args.clients,
        "seconds_per_phase": args.seconds,
        "games_played": games,
        "cpus": os.cpu_count(),
        "endpoints": rows,
        "note": "POST /commands per_second is commands/s over the game phase, shared with the GETs of the bots; "
                "p50_vs_bare is the p50 latency ratio to the bare litestar handler.",
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"umpire HTTP bench: ruleset {out['ruleset']}, read models {out['read_models']}, "
          f"{args.clients} clients, {args.seconds:g}s per phase, {games} games, {out['cpus']} CPUs")
    print(f"{'endpoint':28} {'requests':>9} {'errors':>7} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'p50/bare':>9}")
    for name, r in rows.items():
        print(f"{name:28} {r['requests']:>9} {r['errors']:>7} {r['per_second']:>9} {r['p50_ms']:>8} "
              f"{r['p99_ms']:>8} {r['p50_vs_bare']:>9}")


if __name__ == "__main__":
    main()
