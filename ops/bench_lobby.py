"""Benchmark: the lobby, a page at a time (GET /games?limit=&cursor=), from Redis and from the log.

Usage: .venv/bin/python ops/bench_lobby.py [--games N] [--rounds R] [--json]

Creates N games (the drill ruleset: cheap to create) in a fresh data dir, then measures the lobby query
of the service (service.queries.lobby: what GET /games answers, without the HTTP layer), on a real SQLite
store and a real private Redis:
  * the first page (100 games), ms and bytes of JSON;
  * the whole lobby as a client now reads it (pages of 1,000 following next_cursor), ms and bytes;
both answered from the Redis read models and from the log.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from scenarios.content import hand_to_rulesets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _measure(svc, rm, rounds: int, whole: bool) -> tuple[float, int]:
    """(median ms, bytes of JSON) of reading the first page, or every page in pages of 1,000."""
    import msgspec

    from service import queries

    times, size = [], 0
    for _ in range(rounds):
        size = 0
        t0 = time.perf_counter()
        cursor = None
        while True:
            read = queries.lobby(svc, rm, None, None, cursor, 1000 if whole else queries.LOBBY_PAGE)
            size += len(msgspec.json.encode(read.body))
            cursor = read.body["next_cursor"] if whole else None
            if cursor is None:
                break
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), size


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2040, help="games in the lobby (default 2040, as issue 13 saw)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)

    from domain.kernel import registry
    from tests.rulesets.drill import RULESET, SCENARIO
    from service.game_service import CreateGameRequest, GameService
    from service.redis_runtime import EmbeddedRedis
    from service.store import EventStore

    registry.register(RULESET)
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="umpire-bench-lobby-") as tmp:
        store = EventStore(Path(tmp) / "data")
        svc = GameService(store)
        for _ in range(args.games):
            svc.create_game(CreateGameRequest(ruleset=RULESET.id, scenario=SCENARIO))
        redis = EmbeddedRedis(Path(tmp) / "redis")
        url = redis.start()
        try:
            import redis as redis_lib

            from projections import ReadModels

            rm = ReadModels(redis_lib.Redis.from_url(url), store)
            rm.catch_up_all()
            for name, models in (("redis", rm), ("log", None)):
                page_ms, page_bytes = _measure(svc, models, args.rounds, whole=False)
                whole_ms, whole_bytes = _measure(svc, models, max(3, args.rounds // 5), whole=True)
                results[name] = {"page_ms": page_ms, "page_bytes": page_bytes, "whole_ms": whole_ms,
                                 "whole_bytes": whole_bytes}
        finally:
            redis.stop()
            store.close()

    figures = []
    for name in ("redis", "log"):
        r = results[name]
        figures.append({
            "figure": f"GET /games first page (100 of {args.games:,} games, read models: {name})",
            "value": round(r["page_ms"], 2), "unit": "ms (median)",
            "vs": {"figure": "the whole lobby in pages of 1,000", "value": round(r["whole_ms"], 2)}})
    figures.append({
        "figure": f"GET /games first page, size ({args.games:,} games)", "value": round(results["redis"]["page_bytes"] / 1024, 1),
        "unit": "KiB", "vs": {"figure": "the whole lobby", "value": round(results["redis"]["whole_bytes"] / 1024, 1)}})
    if args.json:
        print(json.dumps({
            "benchmark": "lobby", "unit": "ms",
            "params": {"games": args.games, "rounds": args.rounds},
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
            "results": results, "figures": figures}, indent=2))
        return 0
    for f in figures:
        print(f"{f['figure']}: {f['value']} {f['unit']}  (vs {f['vs']['figure']}: {f['vs']['value']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
