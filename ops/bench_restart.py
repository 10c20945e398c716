#!/usr/bin/env python3
"""Time to first answer, and to read models caught up, when ``umpire serve`` starts on a populated data dir.

One run: for 10 and 10,000 drill games (ops/drills/populate.py), ``umpire serve`` (one process, its
private Redis, its projector process) is started three times on the same data dir:

* ``first``: the very first start (the Redis in DATA_DIR/redis is empty: every game is projected);
* ``warm``: a restart (the Redis's RDB snapshot kept the read models: nothing is projected again);
* ``cold``: a restart after deleting DATA_DIR/redis (what every start was while the private Redis
  lived in a temporary directory).

Reported for each: seconds from spawn to the first 200 of ``GET /health``, of ``GET /games?limit=50`` (a
lobby page) and of ``GET /games/{id}`` (one game's view, a copied game never touched), each polled on its
own from the spawn; and to the projector's "caught up with the log" line (with what it projected).

    .venv/bin/python ops/bench_restart.py [--sizes 10,10000] [--json]

``--sizes`` takes a ``k`` suffix (``10,100k``). Populating is the fast path of ``ops/drills/populate.py``
(five real drill games, their rows copied under new ids).

Paired (two checkouts, same run): ``--vs DIR --warm N`` populates a second data dir alike for DIR's code,
starts each once (``first``, ``first_vs``), then N warm restarts alternating DIR's code and this one's
(``warm_vs`` / ``warm``), then this one's cold start; the ratio is of the medians of the first answers.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import sqlite3
import statistics
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


def populate_with(code: Path, data: Path, n: int) -> None:
    """:func:`populate` run by another checkout's code (its store writes its own schema)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(code / "ops"), str(code)))}
    script = f"from pathlib import Path; from ops.drills.populate import populate; populate(Path({str(data)!r}), {n})"
    subprocess.run([sys.executable, "-c", script], cwd=code, env=env, check=True)


def a_game(data: Path) -> str:
    """The id of the newest copied game (never read by a test before the starts)."""
    conn = sqlite3.connect(data / "umpire.db")
    try:
        return conn.execute("SELECT game_id FROM games ORDER BY created_at DESC, game_id DESC LIMIT 1").fetchone()[0]
    finally:
        conn.close()


def _first_200(url: str, t0: float, p: subprocess.Popen, out: dict, key: str) -> None:
    while key not in out:
        if p.poll() is not None or time.monotonic() - t0 > 3600:
            out[key] = -1.0
            return
        try:
            if httpx.get(url, timeout=5).status_code == 200:
                out[key] = round(time.monotonic() - t0, 2)
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.02)


def start(data: Path, code: Path = ROOT, wait_caught_up: float = 900) -> dict:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
    env["PYTHONPATH"] = os.pathsep.join((str(code / "ops"), str(code)))
    env["UMPIRE_CLI_PLUGINS"] = "tests.rulesets.drill"
    t0 = time.monotonic()
    p = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir", str(data),
                          "--no-access-log"], cwd=code, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    caught: dict = {}

    def read() -> None:
        for line in iter(p.stderr.readline, ""):
            if "caught up with the log" in line and "s" not in caught:
                caught["s"] = time.monotonic() - t0
                caught["line"] = line.strip().split("caught up with the log: ", 1)[1]

    threading.Thread(target=read, daemon=True).start()
    base, game = f"http://127.0.0.1:{port}", a_game(data)
    probes: dict = {}
    polls = [threading.Thread(target=_first_200, args=(base + path, t0, p, probes, key), daemon=True)
             for key, path in (("health_s", "/health"), ("lobby_s", "/games?limit=50"), ("view_s", f"/games/{game}"))]
    for t in polls:
        t.start()
    for t in polls:
        t.join()
    if min(probes.values()) < 0:
        raise SystemExit(f"umpire serve did not answer: {probes}")
    first = probes["lobby_s"]
    while "s" not in caught and time.monotonic() - t0 < wait_caught_up:
        time.sleep(0.05)
    t1 = time.monotonic()
    os.killpg(p.pid, signal.SIGTERM)
    try:
        p.wait(300)  # the private Redis writes its snapshot (hundreds of MB at 100,000 games)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait(10)
    stop_s = round(time.monotonic() - t1, 2)
    return {"first_answer_s": round(first, 2), **probes, "caught_up_s": round(caught.get("s", -1), 2),
            "projected": caught.get("line", "?"), "stop_s": stop_s}


def _sizes(spec: str) -> list[int]:
    return [int(x[:-1]) * 1000 if x.endswith("k") else int(x) for x in spec.split(",")]


def interleaved(a: argparse.Namespace) -> int:
    sizes, keys = _sizes(a.sizes), ("health_s", "lobby_s", "view_s", "caught_up_s")
    with tempfile.TemporaryDirectory(prefix="umpire-bench-restart-") as tmp:
        data = {n: Path(a.root or tmp) / f"data-{n}" for n in sizes}
        for n in sizes:
            if (data[n] / "first-start-done").exists():  # --root: populated and caught up once already
                continue
            if not (data[n] / "umpire.db").exists():
                t = time.monotonic()
                populate(data[n], n)
                print(json.dumps({"games": n, "populated_s": round(time.monotonic() - t, 1)}), flush=True)
            first = start(data[n], wait_caught_up=3600)
            print(json.dumps({"games": n, "first": first}), flush=True)
            if first["caught_up_s"] > 0:
                (data[n] / "first-start-done").touch()
            time.sleep(1.5)
        warm: dict[int, list[dict]] = {n: [] for n in sizes}
        for i in range(a.warm):
            for n in (sizes if i % 2 == 0 else sizes[::-1]):
                warm[n].append(start(data[n]))
                print(json.dumps({"games": n, "warm": warm[n][-1]}), flush=True)
                time.sleep(1.5)
        med = {n: {k: statistics.median(r[k] for r in warm[n]) for k in keys} for n in sizes}
        print(json.dumps({"median_warm_s": med, "ratio_to_smallest": {
            n: {k: round(med[n][k] / med[sizes[0]][k], 2) for k in keys} for n in sizes}}), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,10000")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--vs", default=None, help="another checkout whose warm restarts alternate with this one's")
    ap.add_argument("--warm", type=int, default=1, help="warm restarts (of each checkout with --vs)")
    ap.add_argument("--no-cold", action="store_true", help="skip the start after deleting DATA_DIR/redis")
    ap.add_argument("--root", default=None, help="with --interleave: keep the data dirs here; those already"
                                                  " there (populated and started once) are reused")
    ap.add_argument("--interleave", action="store_true",
                    help="populate and first-start every size, then warm restarts alternating the sizes (a same-run"
                         " comparison under the same load); reports medians per size and the ratio to the smallest")
    a = ap.parse_args(argv)
    if a.interleave:
        return interleaved(a)
    out = []
    with tempfile.TemporaryDirectory(prefix="umpire-bench-restart-") as tmp:
        for n in (int(x[:-1]) * 1000 if x.endswith("k") else int(x) for x in a.sizes.split(",")):
            data = Path(tmp) / f"data-{n}"
            t = time.monotonic()
            populate(data, n)
            print(json.dumps({"games": n, "populated_s": round(time.monotonic() - t, 1)}), flush=True)
            row: dict = {"games": n, "first": start(data)}
            time.sleep(1.5)
            warm, other = [], []
            if a.vs:  # its own data dir (populated alike: the two checkouts' schemas may differ)
                vs, vs_data = Path(a.vs).resolve(), Path(tmp) / f"data-{n}-vs"
                populate_with(vs, vs_data, n)
                row["first_vs"] = start(vs_data, vs)
                time.sleep(1.5)
            for _ in range(a.warm):
                if a.vs:
                    other.append(start(vs_data, vs))
                    time.sleep(1.5)
                warm.append(start(data))
                time.sleep(1.5)
            row["warm"] = warm[0] if len(warm) == 1 else warm
            if a.vs:
                row["warm_vs"] = other
                med = {k: statistics.median(r["first_answer_s"] for r in rs) for k, rs in (("vs", other), ("this", warm))}
                row["first_answer_median_s"] = med
                row["first_answer_ratio_this_vs"] = round(med["this"] / med["vs"], 3)
            if not a.no_cold:
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
