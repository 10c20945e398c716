#!/usr/bin/env python
"""Durable appends per second: umpire's EventStore against raw sqlite3.

Four configurations, interleaved round by round in the same run so that disk
and CPU drift hit all of them alike:

- ``store x1``  EventStore.append, 1 event per command (one transaction each)
- ``store x10`` EventStore.append, 10 events per command
- ``raw x1`` / ``raw x10``  plain sqlite3 doing the same inserts into the same
  schema at the same durability: WAL, ``synchronous=FULL``, ``BEGIN
  IMMEDIATE``, read the version, insert the rows, update the version, COMMIT.

The store additionally validates the events, checks ``expected_version``,
reads the previous hash, computes the sha256 chain and builds the rows in
Python; the ratio store/raw is the price of that.

    .venv/bin/python ops/bench_append.py            # table, ~25 s
    .venv/bin/python ops/bench_append.py --json     # machine-readable
    .venv/bin/python ops/bench_append.py --seconds 1 --rounds 1   # quick look

Each configuration writes to its own fresh database in a temporary directory
(``--dir`` to put it on another disk).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.kernel.dice import commitment  # noqa: E402
from service.store import DB_FILE, EventStore, NewEvent  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402

SEED = bytes(range(32))
PAYLOAD = json.dumps({"unit": "imperial-at-at-1", "from": [3, 4], "to": [4, 4], "path": [[3, 4], [4, 4]]})


def _new_store(base: Path, name: str) -> EventStore:
    store = EventStore(base / name)
    store.create_game(game_id="bench", ruleset="bench", scenario="s", setup="{}", seed=SEED,
                      seed_commitment=commitment(SEED), token_hashes={})
    return store


def run_store(base: Path, name: str, per_txn: int, seconds: float) -> tuple[int, float]:
    store = _new_store(base, name)
    events = [NewEvent(type="Moved", payload=PAYLOAD, actor="imperial") for _ in range(per_txn)]
    version = store.version("bench")
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        version = store.append("bench", version, events).version
        n += 1
        if n % 8 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - t0
    store.close()
    return n, elapsed


#: The columns a raw insert of an event writes (as the store's schema names them).
RAW_COLUMNS = ("game_id", "seq", "type", "payload", "actor", "visibility", "command_id", "engine_version",
               "recorded_at", "ruling", "rolls", "reveals", "turn", "prev_hash", "hash")


def raw_insert(placeholder: str) -> str:
    """The raw benchmarks' INSERT of one event row, with the driver's ``placeholder`` (``?``, ``%s``)."""
    return f"INSERT INTO events ({', '.join(RAW_COLUMNS)}) VALUES ({','.join([placeholder] * len(RAW_COLUMNS))})"


def run_raw(base: Path, name: str, per_txn: int, seconds: float) -> tuple[int, float]:
    _new_store(base, name).close()  # the same schema, made by the store's migrations
    conn = sqlite3.connect(base / name / DB_FILE, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    sql = raw_insert("?")
    h = "0" * 64
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        conn.execute("BEGIN IMMEDIATE")
        (version,) = conn.execute("SELECT version FROM games WHERE game_id = 'bench'").fetchone()
        conn.executemany(sql, [
            ("bench", version + i, "Moved", PAYLOAD, "imperial", "public", None, "", "2026-01-01T00:00:00",
             None, "[]", 0, 0, h, h)
            for i in range(1, per_txn + 1)
        ])
        conn.execute("UPDATE games SET version = ? WHERE game_id = 'bench'", (version + per_txn,))
        conn.execute("COMMIT")
        n += 1
        if n % 8 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - t0
    conn.close()
    return n, elapsed


CONFIGS = [
    ("store", 1, run_store), ("raw", 1, run_raw),
    ("store", 10, run_store), ("raw", 10, run_raw),
]


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per configuration per round (default 3)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds, each running all four configurations (default 2)")
    ap.add_argument("--dir", type=str, default=None, help="where the databases go (default: a temp dir)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)

    totals: dict[tuple[str, int], list[float]] = {(k, p): [0, 0.0] for k, p, _ in CONFIGS}
    with tempfile.TemporaryDirectory(prefix="umpire-bench-", dir=args.dir) as tmp:
        base = Path(tmp)
        for r in range(args.rounds):
            for kind, per_txn, fn in CONFIGS:
                n, elapsed = fn(base, f"{kind}{per_txn}-r{r}", per_txn, args.seconds)
                totals[(kind, per_txn)][0] += n
                totals[(kind, per_txn)][1] += elapsed

    results = []
    for (kind, per_txn), (n, elapsed) in totals.items():
        tps = n / elapsed
        results.append({"name": f"{kind} x{per_txn}", "impl": kind, "events_per_txn": per_txn,
                        "transactions": int(n), "seconds": round(elapsed, 3),
                        "txn_per_s": round(tps, 1), "events_per_s": round(tps * per_txn, 1)})
    by = {(r["impl"], r["events_per_txn"]): r for r in results}
    ratios = {f"store/raw x{p}": round(by[("store", p)]["txn_per_s"] / by[("raw", p)]["txn_per_s"], 3)
              for p in (1, 10)}
    out = {
        "benchmark": "append",
        "unit": "durable appends (WAL, synchronous=FULL, BEGIN IMMEDIATE)",
        "params": {"seconds": args.seconds, "rounds": args.rounds},
        "machine": {"python": platform.python_version(), "sqlite": sqlite3.sqlite_version,
                    "cpus": os.cpu_count(), "platform": platform.platform()},
        "results": results,
        "ratios": ratios,
    }
    report(out, args.json, f"sqlite {sqlite3.sqlite_version}, python {platform.python_version()}")
    return 0


#: The columns of :func:`report`'s table beside a configuration's name (heading, key of a result).
COLUMNS = (("txn/s", "txn_per_s"), ("events/s", "events_per_s"))


def report(out: dict, as_json: bool, where: str) -> None:
    """Print a durable-append benchmark's ``out`` (``params``, ``results``, ``ratios``): as JSON, or as a
    table of its results (the columns of :data:`COLUMNS` its results have, and the transactions) and its
    ratios, under a line naming the rounds and ``where`` it ran (also ``ops/bench_pg_append.py``'s)."""
    if as_json:
        print(json.dumps(out, indent=2))
        return
    results = out["results"]
    columns = [(head, key) for head, key in COLUMNS if key in results[0]]
    width = max(len("config"), *(len(r["name"]) for r in results)) + 1
    print(f"durable appends, {out['params']['rounds']} rounds x {out['params']['seconds']:g} s per configuration"
          f" ({where})")
    print(f"{'config':<{width}}" + "".join(f" {head:>10}" for head, _ in columns) + f" {'txns':>8}")
    for r in results:
        print(f"{r['name']:<{width}}" + "".join(f" {r[key]:>10.1f}" for _, key in columns)
              + f" {r['transactions']:>8}")
    for k, v in out["ratios"].items():
        print(f"{k}: {v:.2f}")


if __name__ == "__main__":
    sys.exit(main())
