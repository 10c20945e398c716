#!/usr/bin/env python3
"""Benchmark of the Redis projections (issue 7), one run, side by side:

1. projection throughput, events applied per second:
   - ``bulk``: a whole game projected in one ``project()`` call (a rebuild, a catch-up);
   - ``live``: ``project()`` after every command, as the service does;
2. the time to serve ``GET /games/{id}/states/{seq}``'s state in a 2,000-event
   game: ``ReadModels.state_at`` (nearest snapshot in Redis + a short fold of the
   log) against a full fold of the log up to ``seq``; with the ratio.

A real Redis server (a private one, or ``--redis-url``) and a real SQLite file
in a temporary directory. Two games: ``hoth`` (Battle of Hoth, random legal
play with undo requests through the service's command path, scenario
PROP-SCN-WALKER-HUNT, fixed seed) and ``tally`` (the projection tests' small
ruleset: seeded script with undos, hidden cards and turn boundaries).

    .venv/bin/python ops/bench_projections.py [--ruleset hoth|tally|both] [--events 2000] [--samples 300] [--json]
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

from domain.kernel import Setup, fold, registry  # noqa: E402
from domain.kernel.fold import decode_event  # noqa: E402
from projections import SNAPSHOT_EVERY, ReadModels  # noqa: E402
from projections.keys import GameKeys  # noqa: E402
from service.redis_runtime import EmbeddedRedis  # noqa: E402
from service.store import EventStore  # noqa: E402
from tests.projections.tally import Script, create_game  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402

HOTH_SCENARIO = "PROP-SCN-WALKER-HUNT"


def full_fold(store: EventStore, game_id: str, seq: int):
    """What the log path does: read the prefix, decode, fold."""
    g = store.require_game(game_id)
    rs = registry.get(g.ruleset)
    setup = msgspec.json.decode(g.setup, type=Setup)
    pairs = [(e.seq, decode_event(rs, e.payload)) for e in store.load(game_id, upto=seq)]
    return fold(rs, setup, pairs)


def tally_game(store: EventStore, game_id: str, seed: int, events: int, after_command=None) -> str:
    create_game(store, game_id)
    script = Script(store, game_id, seed)
    if after_command is None:
        script.play(events, per_append=25)
    else:
        after_command(game_id)
        while script.version < events:
            script.command()
            after_command(game_id)
    return game_id


class GameOver(Exception):
    pass


def hoth_game(store: EventStore, game_id: str, seed: int, events: int, after_command=None) -> str:
    """Random legal play (with undo requests) through the service until ``events`` events.

    Game ids are random (uuid), so the dice differ from run to run: a game that
    ends too early is played again with the next seed."""
    for attempt in range(50):
        try:
            return _hoth_game(store, seed + attempt, events, after_command)
        except GameOver:
            continue
    raise SystemExit(f"no hoth game reached {events} events in 50 tries; ask for fewer --events")


def _hoth_game(store: EventStore, seed: int, events: int, after_command=None) -> str:
    from domain.kernel import registry
    HOTH = registry.get("hoth")
    from service.game_service import CommandRequest, CreateGameRequest, GameService
    from service.problems import Problem
    from service.undo import answer_undo, request_undo

    svc = GameService(store, None)
    rng = random.Random(seed)
    created = svc.create_game(CreateGameRequest(ruleset="hoth", scenario=HOTH_SCENARIO, seed=f"{seed:064x}"))
    gid, tokens = created["game_id"], created["seats"]
    if after_command:
        after_command(gid)
    while store.version(gid) < events:
        cur = svc.current(gid)
        st = HOTH.status(cur.state)
        if st.status == "finished":
            raise GameOver()
        seat = rng.choice(st.to_act)
        if rng.random() < 0.03 and cur.version > 3:
            try:
                ans = request_undo(svc, gid, tokens[seat], rng.randint(max(0, cur.version - 4), cur.version - 1))
                if ans.status == 202:
                    answer_undo(svc, gid, tokens[next(s for s in tokens if s != seat)], rng.random() < 0.5)
            except Problem:
                pass
        else:
            cmd = rng.choice(HOTH.legal_commands(cur.state, seat))
            svc.command(gid, tokens[seat], CommandRequest(command=msgspec.to_builtins(cmd), expected_version=cur.version))
        if after_command:
            after_command(gid)
    return gid


GAMES = {"tally": tally_game, "hoth": hoth_game}


def _ms(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    return {
        "mean_ms": round(statistics.fmean(xs) * 1000, 4),
        "median_ms": round(statistics.median(xs) * 1000, 4),
        "p95_ms": round(xs[int(0.95 * (len(xs) - 1))] * 1000, 4),
    }


def run(kind: str, client: redis.Redis, data_dir: Path, events: int, samples: int, seed: int) -> dict:
    store = EventStore(data_dir)
    make = GAMES[kind]
    # -- the 2,000-event game
    gid = make(store, "bench", seed, events)
    n = store.version(gid)

    # -- throughput, bulk: one project() over the whole log
    client.flushall()
    rm = ReadModels(client, store)
    t0 = time.perf_counter()
    rm.project(gid)
    bulk_s = time.perf_counter() - t0

    # -- throughput, live: project() after each command (projection time only)
    live_s = 0.0

    def after_command(game_id: str) -> None:
        nonlocal live_s
        t0 = time.perf_counter()
        rm.project(game_id)
        live_s += time.perf_counter() - t0

    live_id = make(store, "live", seed, min(events, 1000), after_command)
    live_n = store.version(live_id)

    # -- state at seq: snapshots + short fold vs a full fold of the log
    rng = random.Random(seed)
    seqs = [rng.randint(1, n) for _ in range(samples)]
    fresh = ReadModels(client, store)  # no in-memory state: what a query sees
    snap_t: list[float] = []
    fold_t: list[float] = []
    for s in seqs:
        t0 = time.perf_counter()
        a = fresh.state_at(gid, s)
        t1 = time.perf_counter()
        b = full_fold(store, gid, s)
        t2 = time.perf_counter()
        if a != b:
            raise SystemExit(f"state_at({s}) differs from the fold of the prefix")
        snap_t.append(t1 - t0)
        fold_t.append(t2 - t1)
    # the latest seq, where a full fold costs the most
    last_snap, last_fold = [], []
    for _ in range(max(20, samples // 10)):
        t0 = time.perf_counter()
        fresh.state_at(gid, n)
        t1 = time.perf_counter()
        full_fold(store, gid, n)
        t2 = time.perf_counter()
        last_snap.append(t1 - t0)
        last_fold.append(t2 - t1)
    snapshots = client.zcard(GameKeys(gid).snaps)
    store.close()
    snap_stats, fold_stats = _ms(snap_t), _ms(fold_t)
    return {
        "ruleset": kind,
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
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", choices=["hoth", "tally", "both"], default="both")
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
            kinds = ["hoth", "tally"] if args.ruleset == "both" else [args.ruleset]
            out = {"results": [run(k, client, Path(tmp) / f"data-{k}", args.events, args.samples, args.seed)
                               for k in kinds]}
            client.close()
        finally:
            if server is not None:
                server.stop()
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for res in out["results"]:
        t, r, last = res["throughput"], res["state_at_random_seq"], res["state_at_last_seq"]
        print(f"[{res['ruleset']}] game: {res['game_events']} events, {res['snapshots']} snapshots"
              f" (every {res['snapshot_every']} + turn boundaries)")
        print(f"  projection throughput: bulk {t['bulk_events_per_s']:.0f} events/s,"
              f" live (project per command) {t['live_events_per_s']:.0f} events/s")
        print(f"  {'states/{seq}':<26}{'snapshot+fold':>16}{'full fold':>12}{'ratio':>8}")
        print(f"  {'random seq, mean ms':<26}{r['snapshot_plus_fold']['mean_ms']:>16.3f}"
              f"{r['full_fold']['mean_ms']:>12.3f}{r['ratio_mean_full_over_snapshot']:>8.1f}")
        print(f"  {'random seq, p95 ms':<26}{r['snapshot_plus_fold']['p95_ms']:>16.3f}{r['full_fold']['p95_ms']:>12.3f}")
        print(f"  {'last seq, mean ms':<26}{last['snapshot_plus_fold']['mean_ms']:>16.3f}"
              f"{last['full_fold']['mean_ms']:>12.3f}{last['ratio_mean_full_over_snapshot']:>8.1f}")


if __name__ == "__main__":
    main()
