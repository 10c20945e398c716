#!/usr/bin/env python3
"""The lobby's first and next page (``GET /games?limit=50``) at 10, 10,000 and 100,000 games.

One run: for each size a fresh data dir filled with drill games (ops/drills/populate.py: real games
copied row for row), then ``service.queries.lobby`` (what ``GET /games`` answers, without the HTTP
layer) timed, median of ``--rounds``:

Each first page is timed with ``limit=50`` and with ``limit=10`` (at 10 games a page of 50 holds only 10
entries, so the 10-entry page compares equal work at every size).

* ``log``: answered from the SQLite store (the lobby-order index, a keyset page);
* ``redis``: answered from the Redis read models as a worker beside a projector process does (the
  shared ready key; only for sizes up to ``--redis-max``: projecting 100,000 games into a Redis on a
  shared 2-core machine takes minutes and hundreds of MB).

    .venv/bin/python ops/bench_lobby_scale.py [--sizes 10,10000,100000] [--redis-max 10000] [--rounds 30] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

OPS = Path(__file__).resolve().parent
sys.path[:0] = [str(OPS.parent)]

from ops.drills.populate import populate  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402


def _time(fn, rounds: int) -> float:
    xs = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        xs.append((time.perf_counter() - t) * 1000)
    return statistics.median(xs)


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,10000,100000")
    ap.add_argument("--redis-max", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)

    import redis as redis_lib

    from projections import ReadModels
    from service import queries
    from service.game_service import GameService
    from service.redis_runtime import EmbeddedRedis
    from service.store import EventStore

    out = []
    with tempfile.TemporaryDirectory(prefix="umpire-bench-lobby-scale-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis")
        url = server.start()
        try:
            client = redis_lib.Redis.from_url(url)
            for n in (int(x) for x in a.sizes.split(",")):
                data = Path(tmp) / f"data-{n}"
                t = time.perf_counter()
                populate(data, n)
                fill_s = time.perf_counter() - t
                store = EventStore(data)
                svc = GameService(store)
                row = {"games": n, "populate_s": round(fill_s, 1)}
                modes: list[tuple[str, object]] = [("log", None)]
                if n <= a.redis_max:
                    client.flushall()
                    rm = ReadModels(client, store)
                    t = time.perf_counter()
                    rm.catch_up_all()
                    row["project_s"] = round(time.perf_counter() - t, 1)
                    rm.trust_shared_ready()
                    modes.append(("redis", rm))
                for name, models in modes:
                    first = queries.lobby(svc, models, None, None, None, 50)
                    assert len(first.body["games"]) == min(n, 50), (name, n)
                    cursor = first.body["next_cursor"]
                    row[f"{name}_first_ms"] = round(_time(lambda m=models: queries.lobby(svc, m, None, None, None, 50),
                                                          a.rounds), 3)
                    # the same page size at every size (a first page of 10 games holds at most 10 entries)
                    row[f"{name}_first10_ms"] = round(_time(
                        lambda m=models: queries.lobby(svc, m, None, None, None, 10), a.rounds), 3)
                    if cursor:
                        row[f"{name}_next_ms"] = round(_time(
                            lambda m=models, c=cursor: queries.lobby(svc, m, None, None, c, 50), a.rounds), 3)
                store.close()
                out.append(row)
                if not a.json:
                    print(json.dumps(row), flush=True)
            client.flushall()
        finally:
            server.stop()
    if a.json:
        print(json.dumps({"benchmark": "lobby_scale", "params": vars(a), "results": out}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
