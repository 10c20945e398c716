#!/usr/bin/env python3
"""Commands per second through REST with 1 and with 2 worker processes (``umpire serve --workers``).

A real ``umpire serve`` on loopback (fresh data dir, a Redis of the benchmark's
own via ``UMPIRE_REDIS_URL``), the ``drill`` ruleset (tests/rulesets/drill.py: one
d6 per command, so the figure is the service's cost, not a ruleset's). Each
client thread plays its own game (no version races): ``POST /commands`` with
the version it knows, sequentially, for ``--seconds``. Reported per worker
count: commands/s and p50/p99 latency; the 2-worker figures beside the
1-worker ones of the same run.

    .venv/bin/python ops/bench_workers.py [--seconds 8] [--clients 8] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

OPS = Path(__file__).resolve().parent
sys.path[:0] = [str(OPS), str(OPS.parent)]

import httpx  # noqa: E402

import tests.rulesets.drill  # noqa: E402,F401
from drills.load import create_games  # noqa: E402
from drills.server import Server  # noqa: E402
from service.redis_runtime import EmbeddedRedis  # noqa: E402


def drive(url: str | list[str], clients: int, seconds: float) -> dict[str, float]:
    """``clients`` threads, a game each, for ``seconds``; with several URLs (nodes) client i talks to the
    i-th (round robin)."""
    urls = [url] if isinstance(url, str) else list(url)
    seats = create_games(urls[0], clients, 1)
    lat: list[list[float]] = [[] for _ in seats]
    errors = [0]
    stop = threading.Event()

    def one(i: int) -> None:
        s = seats[i]
        v = 0
        with httpx.Client(base_url=urls[i % len(urls)], timeout=30) as c:
            while not stop.is_set():
                t = time.perf_counter()
                r = c.post(f"/games/{s.game_id}/commands", headers={"Authorization": f"Bearer {s.token}"},
                           json={"command": {"type": "tick", "events": 1}, "expected_version": v})
                if r.status_code != 201:
                    errors[0] += 1
                    v = int(r.json().get("current_version", v))
                    continue
                lat[i].append(time.perf_counter() - t)
                v = int(r.json()["version"])

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(len(seats))]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(timeout=30)
    elapsed = time.perf_counter() - t0
    all_lat = sorted(x for xs in lat for x in xs)
    n = len(all_lat)
    return {"commands": n, "commands_per_s": round(n / elapsed, 1), "errors": errors[0],
            "p50_ms": round(1000 * statistics.median(all_lat), 2) if n else 0.0,
            "p99_ms": round(1000 * all_lat[min(n - 1, int(n * 0.99))], 2) if n else 0.0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=8.0, help="seconds of load per worker count (default 8)")
    ap.add_argument("--clients", type=int, default=8, help="client threads, one game each (default 8)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = ap.parse_args(argv)
    results: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="umpire-bench-workers-") as tmp, EmbeddedRedis(Path(tmp) / "redis") as r:
        for workers in (1, 2):
            with Server(Path(tmp) / f"data{workers}", r.url, workers=workers,
                        log_path=Path(tmp) / f"server{workers}.log") as server:
                drive(server.url, a.clients, 1.0)  # warm up (imports, caches)
                results[workers] = drive(server.url, a.clients, a.seconds)
    one, two = results[1], results[2]
    how = f"{a.clients} clients, own game each, drill ruleset"
    out = {
        "benchmark": "workers",
        "params": {"seconds": a.seconds, "clients": a.clients},
        "results": {str(k): v for k, v in results.items()},
        "figures": [
            {"figure": f"POST /commands with umpire serve --workers 2 ({how})", "value": two["commands_per_s"],
             "unit": "commands/s", "vs": {"figure": "--workers 1", "value": one["commands_per_s"]}},
            {"figure": "POST /commands round trip, --workers 2", "value": two["p50_ms"], "unit": "ms (p50)",
             "lower_is_better": True, "vs": {"figure": "--workers 1", "value": one["p50_ms"]}},
        ],
    }
    if a.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{how}, {a.seconds:g} s each")
    for k, v in results.items():
        print(f"--workers {k}: {v['commands_per_s']:.0f} commands/s, p50 {v['p50_ms']:.1f} ms, p99 {v['p99_ms']:.1f} ms,"
              f" {v['errors']:.0f} non-201")
    return 0


if __name__ == "__main__":
    sys.exit(main())
