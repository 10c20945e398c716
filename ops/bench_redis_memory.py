#!/usr/bin/env python3
"""Redis memory of the read models: per game, and for 1,000 games with a quarter finished.

One run, one private Redis, side by side:

1. per game (``MEMORY USAGE`` summed over the game's keys ``{g:<id>}:*``, by kind): a fresh Battle of Hoth
   game, a 500-event and a 3,000-event one (random legal play through the service, scenario
   PROP-SCN-WALKER-HUNT, as ops/bench_projections.py plays it), projected with the bounded read models
   (snapshots thinned by cost, feed stream MAXLEN ~100, the newest 256 timeline entries) and with the
   earlier settings (every snapshot kept, feed MAXLEN ~1,000, the whole timeline);
2. ``used_memory`` of 1,000 tally games of 100 events (the projection tests' small ruleset), 250 of them
   finished: with ``UMPIRE_FINISHED_TTL`` = 1 s, measured after it passed, and with no TTL.
3. ``--scales 1000,10000``: the same at each size with the bounded settings and ``UMPIRE_FINISHED_TTL`` = 1 s,
   the games made fast (eight tally games of 100 events played through the store, two of them won, their
   rows copied under new ids as ops/drills/populate.py does): ``used_memory`` per active game, and the keys
   left by the finished games once the time passed.

    .venv/bin/python ops/bench_redis_memory.py [--events 0,500,3000] [--games 1000] [--scales 1000,10000] [--json]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from scenarios.content import hand_to_rulesets

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "ops")]


def game_memory(client, game_id: str) -> dict[str, int]:
    from projections.keys import GameKeys

    k = GameKeys(game_id)
    out: dict[str, int] = {}
    for key in client.scan_iter(match=k.pattern(), count=1000):
        name = key.decode().split("}:", 1)[1]
        kind = "views" if name.startswith("view:") else name
        out[kind] = out.get(kind, 0) + int(client.memory_usage(key, samples=0) or 0)
    out["total"] = sum(out.values())
    return out


def copy_games(data: Path, sources: list[str], n: int) -> list[str]:
    """``n`` games in the SQLite store of ``data``: ``sources`` and copies of their rows under new ids."""
    import sqlite3

    ids = list(sources)
    conn = sqlite3.connect(data / "umpire.db")
    with conn:
        for i in range(n - len(sources)):
            src, new = sources[i % len(sources)], f"c{i:07d}"
            conn.execute("INSERT INTO games SELECT ?, ruleset, scenario, setup, seed_commitment, status, winner, "
                         "version, created_at, campaign_id, chain_version FROM games WHERE game_id = ?", (new, src))
            conn.execute("INSERT INTO events SELECT ?, seq, type, payload, actor, visibility, command_id, "
                         "engine_version, recorded_at, ruling, rolls, reveals, turn, prev_hash, hash, "
                         "public_payload, commitment, step FROM events WHERE game_id = ?", (new, src))
            conn.execute("INSERT INTO secrets SELECT ?, seed, revealed FROM secrets WHERE game_id = ?", (new, src))
            ids.append(new)
    conn.close()
    return ids


def at_scale(client, root: Path, n: int) -> dict:
    """Bounded read models of ``n`` tally games (a quarter won), finished ones past a 1 s TTL."""
    from projections import ReadModels
    from service.store import EventStore
    from tests.projections.tally import new_game

    store = EventStore(root / f"scale-{n}")
    sources = [new_game(store, f"s{i}", seed=i, events=100, win=i % 4 == 0, per_append=10).game_id for i in range(8)]
    store.close()
    ids = copy_games(root / f"scale-{n}", sources, n)
    store = EventStore(root / f"scale-{n}")
    finished = [g for g in ids if store.game(g).status == "finished"]
    client.flushall()
    base = int(client.info("memory")["used_memory"])
    t = time.monotonic()
    ReadModels(client, store, finished_ttl=1).catch_up_all()
    projected_s = time.monotonic() - t
    time.sleep(2.5)
    for _ in range(20):  # let the active expiry cycle take the expired keys
        client.scan(0, count=10000)
        time.sleep(0.1)
    used = int(client.info("memory")["used_memory"]) - base
    done = set(finished)
    left = sum(1 for key in client.scan_iter(match="{g:*", count=5000)
               if key.decode().split("{g:", 1)[1].split("}", 1)[0] in done)
    active = n - len(finished)
    lobby = sum(int(client.memory_usage(k, samples=0) or 0) for k in client.scan_iter(match="{lobby}:*", count=1000))
    store.close()
    return {"games": n, "finished": len(finished), "active": active, "projected_s": round(projected_s, 1),
            "used_memory_bytes": used, "keys": int(client.dbsize()), "keys_of_finished_games": left,
            "lobby_bytes": lobby, "per_active_game_bytes": round((used - lobby) / active),
            "per_game_bytes_with_lobby": round(used / n)}


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", default="0,500,3000", help="hoth game lengths (0: fresh)")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--scales", default="", help="e.g. 1000,10000: copies of tally games at each size")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)

    import redis as redis_lib
    from bench_projections import hoth_game

    from projections import ReadModels
    from service.redis_runtime import EmbeddedRedis
    from service.store import EventStore
    from tests.projections.tally import new_game

    result: dict = {"per_game": [], "thousand": {}}
    with tempfile.TemporaryDirectory(prefix="umpire-bench-memory-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis")
        url = server.start()
        try:
            client = redis_lib.Redis.from_url(url)
            store = EventStore(Path(tmp) / "hoth")
            for i, n in enumerate(int(x) for x in a.events.split(",")):
                gid = hoth_game(store, f"h{n}", 7 + 100 * i, n) if n else hoth_game(store, "h0", 7, 1)
                row = {"events": store.version(gid)}
                for name, kw in (("bounded", {}), ("before", {"thin_snapshots": False, "feed_maxlen": 1000,
                                                               "timeline_keep": 0, "feed_ttl": 0})):
                    client.flushall()
                    ReadModels(client, store, finished_ttl=0, **kw).project(gid)
                    row[name] = game_memory(client, gid)
                result["per_game"].append(row)
                if not a.json:
                    print(json.dumps(row), flush=True)
            store.close()

            result["scales"] = []
            for n in (int(x) for x in a.scales.split(",") if x):
                result["scales"].append(at_scale(client, Path(tmp), n))
                if not a.json:
                    print(json.dumps(result["scales"][-1]), flush=True)
            tstore = EventStore(Path(tmp) / "tally")
            for i in range(a.games):
                new_game(tstore, f"t{i}", seed=i, events=100, win=i % 4 == 0, per_append=10)
            for name, kw in (("ttl_1s_after_it", {"finished_ttl": 1}),
                             ("no_ttl_before", {"finished_ttl": 0, "thin_snapshots": False, "feed_maxlen": 1000,
                                                "timeline_keep": 0, "feed_ttl": 0})):
                client.flushall()
                base = int(client.info("memory")["used_memory"])
                rm = ReadModels(client, tstore, **kw)
                rm.catch_up_all()
                time.sleep(2.5)
                for _ in range(20):  # let the active expiry cycle take the expired keys
                    client.scan(0, count=10000)
                    time.sleep(0.1)
                used = int(client.info("memory")["used_memory"]) - base
                result["thousand"][name] = {"used_memory_bytes": used, "keys": int(client.dbsize())}
            tstore.close()
            if not a.json:
                print(json.dumps(result["thousand"]), flush=True)
            client.flushall()
        finally:
            server.stop()
    if a.json:
        print(json.dumps({"benchmark": "redis_memory", "params": vars(a), "results": result}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
