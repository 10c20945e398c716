#!/usr/bin/env python3
"""Benchmark of the Redis projections (issue 7), one run, side by side:

1. projection throughput, events applied per second:
   - ``bulk``: a whole game projected in one ``project()`` call (a rebuild, a catch-up);
   - ``live``: ``project()`` after every command, as the service does;
2. the time to serve ``GET /games/{id}/states/{seq}``'s state in a 2,000-event
   game: ``ReadModels.state_at`` (nearest snapshot in Redis + a short fold of the
   log) against a full fold of the log up to ``seq``; with the ratio.

A real Redis server (a private one, or ``--redis-url``) and a real SQLite file
in a temporary directory. The game is the projection tests' ``tally`` ruleset
(seeded script with undos, hidden cards and turn boundaries).

    .venv/bin/python ops/bench_projections.py [--events 2000] [--samples 300] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402
import redis  # noqa: E402

from domain.kernel import Setup, fold  # noqa: E402
from domain.kernel.fold import decode_event  # noqa: E402
from projections import SNAPSHOT_EVERY, ReadModels  # noqa: E402
from service.redis_runtime import EmbeddedRedis  # noqa: E402
from service.store import EventStore  # noqa: E402
from tests.projections.tally import RULESET, Script, create_game  # noqa: E402


def full_fold(store: EventStore, game_id: str, seq: int):
    """What the log path does: read the prefix, decode, fold."""
    g = store.require_game(game_id)
    setup = msgspec.json.decode(g.setup, type=Setup)
    pairs = [(e.seq, decode_event(RULESET, e.payload)) for e in store.load(game_id, upto=seq)]
    return fold(RULESET, setup, pairs)


def _ms(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    return {
        "mean_ms": round(statistics.fmean(xs) * 1000, 4),
        "median_ms": round(statistics.median(xs) * 1000, 4),
        "p95_ms": round(xs[int(0.95 * (len(xs) - 1))] * 1000, 4),
    }


def run(client: redis.Redis, data_dir: Path, events: int, samples: int, seed: int) -> dict:
    store = EventStore(data_dir)
    # -- the 2,000-event game, written as the service would (bulk appends to save fsyncs)
    create_game(store, "bench")
    script = Script(store, "bench", seed)
    script.play(events, per_append=25)
    n = store.version("bench")

    # -- throughput, bulk: one project() over the whole log
    client.flushall()
    rm = ReadModels(client, store)
    t0 = time.perf_counter()
    rm.project("bench")
    bulk_s = time.perf_counter() - t0

    # -- throughput, live: project() after each command (projection time only)
    create_game(store, "live")
    live = Script(store, "live", seed + 1)
    rm.project("live")
    live_s = 0.0
    while live.version < min(events, 1000):
        live.command()
        t0 = time.perf_counter()
        rm.project("live")
        live_s += time.perf_counter() - t0
    live_n = live.version

    # -- state at seq: snapshots + short fold vs a full fold of the log
    rng = random.Random(seed)
    seqs = [rng.randint(1, n) for _ in range(samples)]
    fresh = ReadModels(client, store)  # no in-memory state: what a query sees
    snap_t: list[float] = []
    fold_t: list[float] = []
    for s in seqs:
        t0 = time.perf_counter()
        a = fresh.state_at("bench", s)
        t1 = time.perf_counter()
        b = full_fold(store, "bench", s)
        t2 = time.perf_counter()
        if a != b:
            raise SystemExit(f"state_at({s}) differs from the fold of the prefix")
        snap_t.append(t1 - t0)
        fold_t.append(t2 - t1)
    # the latest seq, where a full fold costs the most
    last_snap, last_fold = [], []
    for _ in range(max(20, samples // 10)):
        t0 = time.perf_counter()
        fresh.state_at("bench", n)
        t1 = time.perf_counter()
        full_fold(store, "bench", n)
        t2 = time.perf_counter()
        last_snap.append(t1 - t0)
        last_fold.append(t2 - t1)
    snapshots = client.zcard("{g:bench}:snaps")
    store.close()
    snap_stats, fold_stats = _ms(snap_t), _ms(fold_t)
    return {
        "game_events": n,
        "snapshot_every": SNAPSHOT_EVERY,
        "snapshots": snapshots,
        "throughput": {
            "bulk_events_per_s": round(n / bulk_s, 1),
            "bulk_seconds": round(bulk_s, 4),
            "live_events_per_s": round(live_n / live_s, 1),
            "live_events": live_n,
        },
        "state_at_random_seq": {
            "samples": samples,
            "snapshot_plus_fold": snap_stats,
            "full_fold": fold_stats,
            "ratio_mean_full_over_snapshot": round(fold_stats["mean_ms"] / snap_stats["mean_ms"], 2),
        },
        "state_at_last_seq": {
            "snapshot_plus_fold": _ms(last_snap),
            "full_fold": _ms(last_fold),
            "ratio_mean_full_over_snapshot": round(statistics.fmean(last_fold) / statistics.fmean(last_snap), 2),
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--redis-url", default=None, help="an existing Redis (it is FLUSHALLed!); default: a private one")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="umpire-bench-") as tmp:
        server = None
        url = args.redis_url
        if url is None:
            server = EmbeddedRedis(Path(tmp) / "redis")
            url = server.start()
        try:
            client = redis.Redis.from_url(url)
            out = run(client, Path(tmp) / "data", args.events, args.samples, args.seed)
            client.close()
        finally:
            if server is not None:
                server.stop()
    if args.json:
        print(json.dumps(out, indent=2))
        return
    t, r, last = out["throughput"], out["state_at_random_seq"], out["state_at_last_seq"]
    print(f"game: {out['game_events']} events, {out['snapshots']} snapshots (every {out['snapshot_every']} + turn boundaries)")
    print(f"projection throughput: bulk {t['bulk_events_per_s']:.0f} events/s, live (project per command) {t['live_events_per_s']:.0f} events/s")
    print(f"{'states/{seq}':<28}{'snapshot+fold':>16}{'full fold':>12}{'ratio':>8}")
    print(f"{'random seq, mean ms':<28}{r['snapshot_plus_fold']['mean_ms']:>16.3f}{r['full_fold']['mean_ms']:>12.3f}{r['ratio_mean_full_over_snapshot']:>8.1f}")
    print(f"{'random seq, p95 ms':<28}{r['snapshot_plus_fold']['p95_ms']:>16.3f}{r['full_fold']['p95_ms']:>12.3f}")
    print(f"{'last seq, mean ms':<28}{last['snapshot_plus_fold']['mean_ms']:>16.3f}{last['full_fold']['mean_ms']:>12.3f}{last['ratio_mean_full_over_snapshot']:>8.1f}")


if __name__ == "__main__":
    main()
