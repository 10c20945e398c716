#!/usr/bin/env python3
"""Time to first answer, and to read models caught up, when ``umpire serve`` starts on a populated data dir.

One run: for 10 and 10,000 drill games (ops/drills/populate.py), ``umpire serve`` (one process, its
private Redis, its projector process) is started three times on the same data dir:

* ``first``: the very first start (the Redis in DATA_DIR/redis is empty: every game is projected);
* ``warm``: a restart (the Redis's RDB snapshot kept the read models: nothing is projected again);
* ``cold``: a restart after deleting DATA_DIR/redis (what every start was while the private Redis
  lived in a temporary directory).

Reported for each: seconds from spawn to the first 200 of ``GET /games?limit=50``, and to the
projector's "caught up with the log" line (with what it projected).

    .venv/bin/python ops/bench_restart.py [--sizes 10,10000] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from ops.drills.populate import populate  # noqa: E402


def start(data: Path) -> dict:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
    env["PYTHONPATH"] = os.pathsep.join((str(ROOT / "ops"), str(ROOT)))
    env["UMPIRE_CLI_PLUGINS"] = "drills.ruleset"
    t0 = time.monotonic()
    p = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir", str(data),
                          "--no-access-log"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    caught: dict = {}

    def read() -> None:
        for line in iter(p.stderr.readline, ""):
            if "caught up with the log" in line and "s" not in caught:
                caught["s"] = time.monotonic() - t0
                caught["line"] = line.strip().split("caught up with the log: ", 1)[1]

    threading.Thread(target=read, daemon=True).start()
    first = None
    url = f"http://127.0.0.1:{port}/games?limit=50"
    while first is None:
        if p.poll() is not None or time.monotonic() - t0 > 600:
            raise SystemExit("umpire serve did not answer")
        try:
            if httpx.get(url, timeout=5).status_code == 200:
                first = time.monotonic() - t0
        except httpx.HTTPError:
            time.sleep(0.02)
    while "s" not in caught and time.monotonic() - t0 < 900:
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGTERM)
    try:
        p.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait(10)
    return {"first_answer_s": round(first, 2), "caught_up_s": round(caught.get("s", -1), 2),
            "projected": caught.get("line", "?")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,10000")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    out = []
    with tempfile.TemporaryDirectory(prefix="umpire-bench-restart-") as tmp:
        for n in (int(x) for x in a.sizes.split(",")):
            data = Path(tmp) / f"data-{n}"
            populate(data, n)
            row: dict = {"games": n, "first": start(data)}
            time.sleep(1.5)
            row["warm"] = start(data)
            shutil.rmtree(data / "redis")
            row["cold"] = start(data)
            out.append(row)
            if not a.json:
                print(json.dumps(row), flush=True)
    if a.json:
        print(json.dumps({"benchmark": "restart", "params": vars(a), "results": out}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
