#!/usr/bin/env python3
"""Idle CPU and command latency of one ``umpire serve`` with 0, 400 and 2,000 open live feeds.

One run, one machine, one fresh server per feed count: ``umpire serve`` (one process, its private
Redis and projector process, the ``drill`` ruleset: tests/rulesets/drill.py) on loopback. For ``F``
feeds, ``F`` drill games are created and one spectator feed (``GET /games/{id}/feed``) is held open
on each (a game per feed: the case where a polling feed missed every cache). Then:

* idle CPU: the CPU time the serving process (and, separately, the whole process group: projector
  and Redis included) used during ``--idle`` seconds with nothing committed, as % of one core;
* command latency: ``--commands`` sequential ``POST /games/{id}/commands`` (one drill tick each) on
  another game, p50 and p99, with the feeds still open.

``--code DIR`` serves another checkout (e.g. the code before a change) with the same client.

The feeds are held by a child process of their own (``--feeds-in-thread``: by a thread of the timing process,
as before; the keep-alives the feeds receive then take the GIL from the timing client and show in its p99).

    .venv/bin/python ops/bench_feeds.py [--feeds 0,400,2000] [--idle 10] [--commands 300] [--code DIR] [--json]

``--one-server``: every feed count on ONE server instead (``--rounds`` rounds, the counts' order reversed every
other round; latencies pooled per count; the server's ``umpire_feed_subscribers`` gauge checked at each phase);
``--gc-probe`` adds the served process's garbage-collection pauses per phase (ops/gc_pauses.py).

    .venv/bin/python ops/bench_feeds.py --one-server [--rounds 3] [--gc-probe] [--feeds 0,400,2000] [--commands 1500]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


def _cpu_ticks(pid: int) -> int:
    f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(f[11]) + int(f[12])  # utime + stime


def _idle_cpu(pid: int, idle: float) -> tuple[float, float]:
    """Percent of a core the server process, and its whole process group, used over ``idle`` seconds."""
    group = _group(pid)
    t0, s0, a0 = time.monotonic(), _ticks([pid]), _ticks(group)
    time.sleep(idle)
    wall = time.monotonic() - t0
    return 100.0 * (_ticks([pid]) - s0) / TICK / wall, 100.0 * (_ticks(group) - a0) / TICK / wall


def _group(pid: int) -> list[int]:
    """``pid`` and its descendants (the projector process, the private Redis)."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                parent[int(d)] = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    out, todo = [pid], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def _ticks(pids: list[int]) -> int:
    n = 0
    for p in pids:
        try:
            n += _cpu_ticks(p)
        except OSError:
            pass
    return n


class Serve:
    def __init__(self, code: Path, data: Path, gc_dir: Path | None = None, gc_off: bool = False,
                 extra_env: dict[str, str] | None = None):
        """``extra_env``: variables set in the served process's environment (``--arm``)."""
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
        env.update(extra_env or {})
        env["PYTHONPATH"] = os.pathsep.join((str(code / "ops"), str(code)))
        env["UMPIRE_CLI_PLUGINS"] = "tests.rulesets.drill"
        if gc_dir is not None:  # ops/gc_pauses.py times the served process's collections
            env["PYTHONPATH"] = os.pathsep.join((env["PYTHONPATH"], str(ROOT / "ops")))
            env["UMPIRE_CLI_PLUGINS"] += ",gc_pauses"
            env["UMPIRE_BENCH_GC_DIR"] = str(gc_dir)
            env["UMPIRE_BENCH_GC_OFF"] = "1" if gc_off else "0"
            if os.environ.get("UMPIRE_BENCH_GC_THRESHOLD"):  # passed on (the served env drops UMPIRE_*)
                env["UMPIRE_BENCH_GC_THRESHOLD"] = os.environ["UMPIRE_BENCH_GC_THRESHOLD"]
        self.log = open(data.parent / f"serve-{self.port}.log", "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(self.port),
                                      "--data-dir", str(data), "--no-access-log"], cwd=code, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"umpire serve did not start (see {self.log.name})")
            try:
                if httpx.get(self.url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(30)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)
        self.log.close()


async def _hold(port: int, game_ids: list[str], opened: list[int], stop: asyncio.Event) -> None:
    """One raw HTTP/1.1 SSE connection per game, read and discarded until ``stop``."""
    async def one(gid: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /games/{gid}/feed HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(head[:200])
        opened[0] += 1
        try:
            while not stop.is_set():
                if not await reader.read(65536):
                    return
        finally:
            writer.close()

    async def until_stop() -> None:
        await stop.wait()

    tasks = [asyncio.create_task(one(g)) for g in game_ids]
    for i in range(0, len(tasks), 200):  # do not flood the accept queue
        await asyncio.sleep(0.05)
    await until_stop()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _hold_process(port: int, game_ids: list[str], opened: Any, stop: Any) -> None:
    """:func:`_hold` in a child process: ``opened`` a shared counter, ``stop`` a process event."""
    async def run() -> None:
        count, done = [0], asyncio.Event()
        task = asyncio.create_task(_hold(port, game_ids, count, done))
        while not stop.is_set():
            opened.value = count[0]
            await asyncio.sleep(0.1)
        done.set()
        await task

    asyncio.run(run())


class _Holder:
    """The feeds held open by a child process (default) or a thread of this process."""

    def __init__(self, port: int, ids: list[str], in_thread: bool):
        self.in_thread = in_thread
        if in_thread:
            self.loop, self.stop, self.opened = asyncio.new_event_loop(), asyncio.Event(), [0]
            self.worker: Any = threading.Thread(target=self.loop.run_until_complete,
                                                args=(_hold(port, ids, self.opened, self.stop),), daemon=True)
        else:
            ctx = multiprocessing.get_context("fork")
            self.stop, self.shared = ctx.Event(), ctx.Value("i", 0)
            self.worker = ctx.Process(target=_hold_process, args=(port, ids, self.shared, self.stop), daemon=True)
        self.worker.start()

    def count(self) -> int:
        return self.opened[0] if self.in_thread else self.shared.value

    def close(self) -> None:
        if self.in_thread:
            self.loop.call_soon_threadsafe(self.stop.set)
        else:
            self.stop.set()
        self.worker.join(60)


def measure(code: Path, tmp: Path, feeds: int, idle: float, commands: int,
            in_thread: bool = False) -> dict[str, float]:
    tmp.mkdir(parents=True, exist_ok=True)
    data = tmp / f"data-{feeds}"
    srv = Serve(code, data)
    holder = None
    try:
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            ids = [c.post("/games", json={"ruleset": "drill", "scenario": "race"}).json()["game_id"]
                   for _ in range(feeds)]
            g = c.post("/games", json={"ruleset": "drill", "scenario": "race"}).json()
            holder = _Holder(srv.port, ids, in_thread)
            deadline = time.monotonic() + 300
            while holder.count() < feeds:
                if time.monotonic() > deadline:
                    raise SystemExit(f"only {holder.count()} of {feeds} feeds opened")
                time.sleep(0.1)
            time.sleep(3.0)  # the feeds' catch-up and the projector settle
            server_pct, group_pct = _idle_cpu(srv.proc.pid, idle)
            token = next(iter(g["seats"].values()))
            v = int(g.get("version", 0))
            lat = []
            for i in range(commands + 20):
                t = time.perf_counter()
                r = c.post(f"/games/{g['game_id']}/commands", headers={"Authorization": f"Bearer {token}"},
                           json={"command": {"type": "tick", "events": 1}, "expected_version": v})
                if r.status_code != 201:
                    raise SystemExit(f"command refused: {r.status_code} {r.text[:200]}")
                if i >= 20:  # warm-up left out
                    lat.append(time.perf_counter() - t)
                v = int(r.json()["version"])
        lat.sort()
        return {"feeds": feeds, "opened": holder.count(), "feeds_in": "thread" if in_thread else "process", "idle_cpu_server_pct": round(server_pct, 2),
                "idle_cpu_all_pct": round(group_pct, 2), "p50_ms": round(1000 * statistics.median(lat), 2),
                "p99_ms": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 2)}
    finally:
        if holder is not None:
            holder.close()
        srv.stop()


def _subscribers(c: httpx.Client) -> int:
    """The server's own count of open feeds (``umpire_feed_subscribers`` of ``GET /metrics``, summed over its
    samples: one per node; a checkout before the merge of the projector's samples shows a second, zero)."""
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in c.get("/metrics").text.splitlines()
               if line.startswith("umpire_feed_subscribers{"))


def _gc_totals(gc_dir: Path | None, pid: int) -> dict[str, Any]:
    if gc_dir is None:
        return {}
    try:
        return json.loads((gc_dir / f"gc-{pid}.json").read_text())
    except (OSError, ValueError):
        return {}


def _gc_delta(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Collections during a phase: per generation the count and ms, pauses of 1 ms or more (and the longest
    five: generation, ms, CPU ms, objects collected, objects in the oldest generation), all ms."""
    if not a or not b:
        return {}
    d = {g: {k: b["gen"][g][k] - a["gen"][g][k] for k in ("n", "s", "long")} for g in b["gen"]}
    seen = {tuple(x) for x in a.get("long", [])}
    new = sorted((x for x in b.get("long", []) if tuple(x) not in seen), key=lambda x: -x[2])
    return {"gc_full": int(d["2"]["n"]), "gc_full_ms": round(1000 * d["2"]["s"], 1),
            "gc_by_gen": {g: [int(v["n"]), round(1000 * v["s"], 1)] for g, v in d.items()},
            "gc_long": int(sum(v["long"] for v in d.values())),
            "gc_longest": [[int(x[1]), round(1000 * x[2], 1), round(1000 * x[4], 1), x[3], x[5]] for x in new[:5]],
            "gc_ms": round(1000 * sum(v["s"] for v in d.values()), 1)}


def _q(lat: list[float], q: float) -> float:
    s = sorted(lat)
    return round(1000 * s[min(len(s) - 1, int(len(s) * q))], 2)


def measure_one_server(code: Path, tmp: Path, counts: list[int], rounds: int, idle: float, commands: int,
                       settle: float = 3.0, gc_probe: bool = False, gc_off: bool = False,
                       profile: Path | None = None,
                       report: Any = None, arms: list[tuple[str, dict[str, str]]] | None = None) -> dict[str, Any]:
    """Every feed count on ONE server, in rounds (the order of the counts reversed every other round, so a
    drift of the machine's load falls on each count alike). Per phase: the feeds opened (the server's gauge
    shows them), ``settle`` s, idle CPU over ``idle`` s, then ``commands`` timed commands, then the feeds
    closed (the gauge back at 0). Latencies are pooled per feed count over the rounds. ``profile``: a directory
    where ``py-spy record`` (on PATH) writes the served process's stacks of each command phase (collapsed).

    ``arms``: (name, environment) pairs, one server each, all started at once: every phase is measured on each
    server in turn (their order alternating from one phase to the next), so the arms share the machine's load;
    results are pooled per arm and count."""
    tmp.mkdir(parents=True, exist_ok=True)
    arms = arms or [("this", {})]
    gc_dir = tmp / "gc" if gc_probe or gc_off else None
    if gc_dir is not None:
        gc_dir.mkdir()
    phases: list[dict[str, Any]] = []
    lats: dict[tuple[str, int], list[float]] = {(a, n): [] for a, _ in arms for n in counts}
    servers: list[Any] = []
    clients: list[httpx.Client] = []
    try:
        for i, (name, env) in enumerate(arms):
            where = Path(env["CODE"]).resolve() if "CODE" in env else code  # an arm may serve another checkout
            servers.append(Serve(where, tmp / f"data-{i}", gc_dir, gc_off,
                                 {k: v for k, v in env.items() if k != "CODE"}))
            clients.append(httpx.Client(base_url=servers[-1].url, timeout=60))
        state = []
        for srv, c in zip(servers, clients):
            ids = [c.post("/games", json={"ruleset": "drill", "scenario": "race"}).json()["game_id"]
                   for _ in range(max(counts))]
            g = c.post("/games", json={"ruleset": "drill", "scenario": "race"}).json()
            state.append({"ids": ids, "game": g["game_id"], "token": next(iter(g["seats"].values())),
                          "v": int(g.get("version", 0))})

        def command(c: httpx.Client, st: dict[str, Any]) -> float:
            t = time.perf_counter()
            r = c.post(f"/games/{st['game']}/commands", headers={"Authorization": f"Bearer {st['token']}"},
                       json={"command": {"type": "tick", "events": 1}, "expected_version": st["v"]})
            took = time.perf_counter() - t
            if r.status_code != 201:
                raise SystemExit(f"command refused: {r.status_code} {r.text[:200]}")
            st["v"] = int(r.json()["version"])
            return took

        for c, st in zip(clients, state):
            for _ in range(50):  # warm-up: the first commands of a process are slower
                command(c, st)
        k = 0
        for rnd in range(rounds):
            for n in (counts if rnd % 2 == 0 else counts[::-1]):
                order = list(range(len(arms))) if k % 2 == 0 else list(range(len(arms)))[::-1]
                k += 1
                for ai in order:
                    arm, srv, c, st = arms[ai][0], servers[ai], clients[ai], state[ai]
                    holder = _Holder(srv.port, st["ids"][:n], False) if n else None
                    try:
                        deadline = time.monotonic() + 300
                        while (holder.count() if holder else 0) < n or _subscribers(c) != n:
                            if time.monotonic() > deadline:
                                raise SystemExit(f"only {holder.count() if holder else 0} of {n} feeds opened")
                            time.sleep(0.2)
                        time.sleep(settle)  # the feeds' catch-up and the projector settle
                        server_pct, group_pct = _idle_cpu(srv.proc.pid, idle)
                        gc0 = _gc_totals(gc_dir, srv.proc.pid)
                        spy = None
                        if profile is not None:
                            profile.mkdir(parents=True, exist_ok=True)
                            spy = subprocess.Popen(
                                ["py-spy", "record", "--pid", str(srv.proc.pid), "--rate", "250", "--nonblocking",
                                 "--format", "raw", "--threads", "-o",
                                 str(profile / f"{arm}-round{rnd + 1}-feeds{n}.txt")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                            time.sleep(1.0)
                        c0, w0 = _ticks([srv.proc.pid]), time.monotonic()
                        lat = [command(c, st) for _ in range(commands)]
                        if spy is not None:
                            spy.send_signal(signal.SIGINT)
                            spy.wait(60)
                        busy = (_ticks([srv.proc.pid]) - c0) / TICK  # the server's CPU seconds while commanded
                        busy -= (time.monotonic() - w0) * server_pct / 100.0  # less what it spends idle
                        time.sleep(0.6 if gc_dir else 0)  # the probe writes its totals twice a second
                        gc1 = _gc_totals(gc_dir, srv.proc.pid)
                        open_after = _subscribers(c)
                    finally:
                        if holder is not None:
                            holder.close()
                    lats[(arm, n)] += lat
                    phases.append({"arm": arm, "round": rnd + 1, "feeds": n, "open_after": open_after,
                                   "idle_cpu_server_pct": round(server_pct, 2),
                                   "idle_cpu_all_pct": round(group_pct, 2),
                                   "p50_ms": _q(lat, 0.5), "p99_ms": _q(lat, 0.99), "max_ms": _q(lat, 1.0),
                                   "cpu_ms_per_command": round(1000 * busy / len(lat), 2),
                                   "rss_mb": _rss_mb(srv.proc.pid),
                                   **_gc_delta(gc0, gc1), "load": round(os.getloadavg()[0], 1)})
                    if report is not None:
                        report(phases[-1])
                    deadline = time.monotonic() + 120
                    while _subscribers(c) != 0 and time.monotonic() < deadline:
                        time.sleep(0.2)
    finally:
        for c in clients:
            c.close()
        for srv in servers:
            srv.stop()
    pooled = []
    for arm, _ in arms:
        for n in counts:
            mine = [p for p in phases if p["feeds"] == n and p["arm"] == arm]
            pooled.append({"arm": arm, "feeds": n, "commands": len(lats[(arm, n)]), "p50_ms": _q(lats[(arm, n)], 0.5),
                           "p99_ms": _q(lats[(arm, n)], 0.99),
                           "p99_of_rounds_ms": [p["p99_ms"] for p in mine],
                           "cpu_ms_per_command": round(statistics.mean(p["cpu_ms_per_command"] for p in mine), 2),
                           "idle_cpu_server_pct": round(statistics.mean(p["idle_cpu_server_pct"] for p in mine), 2),
                           "idle_cpu_all_pct": round(statistics.mean(p["idle_cpu_all_pct"] for p in mine), 2),
                           "rss_mb_max": max(p["rss_mb"] for p in mine)})
    for p in pooled:
        base = next((b for b in pooled if b["feeds"] == 0 and b["arm"] == p["arm"]), None)
        p["p99_vs_none"] = round(p["p99_ms"] / base["p99_ms"], 2) if base else None
    return {"phases": phases, "pooled": pooled}


def _rss_mb(pid: int) -> float:
    """The served process's resident memory (MB)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def _print_phase(p: dict[str, Any]) -> None:
    gc = (f"; GC {p['gc_ms']} ms, by generation [n, ms] {p['gc_by_gen']}, pauses >= 1 ms {p['gc_long']}"
          f" (longest [gen, ms, CPU ms, collected, old objects] {p['gc_longest']})" if "gc_full" in p else "")
    print(f"{p['arm']}: round {p['round']} {p['feeds']:>5} feeds (server: {p['open_after']}): idle CPU "
          f"{p['idle_cpu_server_pct']:.1f}% (server), {p['idle_cpu_all_pct']:.1f}% (all); command p50 {p['p50_ms']} ms,"
          f" p99 {p['p99_ms']} ms, max {p['max_ms']} ms; server CPU {p['cpu_ms_per_command']} ms a command{gc};"
          f" RSS {p['rss_mb']} MB;"
          f" load {p['load']}", flush=True)


def _arm(text: str) -> tuple[str, dict[str, str]]:
    """``NAME:K=V,K=V`` (or ``NAME:K=V;K=V``) -> (name, environment)."""
    name, _, rest = text.partition(":")
    # a comma or semicolon starts the next variable only before NAME=: a value may hold commas ("700,10,1000")
    env = dict(kv.split("=", 1) for kv in re.split(r"[,;](?=\s*[A-Za-z_][A-Za-z0-9_]*=)", rest) if kv.strip())
    return name, {k.strip(): v.strip() for k, v in env.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--feeds", default="0,400,2000", help="feed counts, comma-separated (default 0,400,2000)")
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU measurement (default 10)")
    ap.add_argument("--commands", type=int, default=300, help="commands timed per feed count (default 300)")
    ap.add_argument("--code", default=str(ROOT), help="the checkout to serve (default: this one)")
    ap.add_argument("--vs", default=None, help="another checkout, measured before this one at each feed count "
                    "(alternating: the pairs share the machine's state)")
    ap.add_argument("--feeds-in-thread", action="store_true",
                    help="hold the feeds in a thread of the timing process (the earlier way) instead of a child")
    ap.add_argument("--one-server", action="store_true",
                    help="every feed count on one server, in --rounds rounds, latencies pooled per count")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of --one-server (default 3)")
    ap.add_argument("--gc-probe", action="store_true",
                    help="time the server's garbage collections per phase (ops/gc_pauses.py; --one-server)")
    ap.add_argument("--gc-off", action="store_true",
                    help="--one-server: the served process runs with its garbage collector off (a diagnostic)")
    ap.add_argument("--profile", default=None, metavar="DIR",
                    help="--one-server: py-spy (on PATH) records the server's stacks of each command phase into DIR")
    ap.add_argument("--arm", action="append", default=None, metavar="NAME:K=V,K=V",
                    help="--one-server: a server started with these environment variables (e.g. "
                         "'thr:UMPIRE_GC_THRESHOLDS=700,10,1000,UMPIRE_GC_FREEZE=0'; CODE=DIR: that arm serves another "
                         "checkout, e.g. 'before:CODE=/work/main'); repeat for each arm: all run at once, measured in "
                         "turn phase by phase")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    code = Path(a.code).resolve()
    if a.one_server:
        counts = [int(x) for x in a.feeds.split(",")]
        with tempfile.TemporaryDirectory(prefix="umpire-bench-feeds-") as tmp:
            out = measure_one_server(code, Path(tmp), counts, a.rounds, a.idle, a.commands, gc_probe=a.gc_probe,
                                     gc_off=a.gc_off, profile=Path(a.profile).resolve() if a.profile else None,
                                     report=None if a.json else _print_phase,
                                     arms=[_arm(x) for x in a.arm] if a.arm else None)
        if a.json:
            print(json.dumps({"benchmark": "feeds", "code": str(code), "params": vars(a), **out}, indent=2))
            return 0
        for p in out["pooled"]:
            print(f"{p['arm']}: {p['feeds']:>5} feeds, {p['commands']} commands pooled: p50 {p['p50_ms']} ms, p99 {p['p99_ms']} ms"
                  f" ({p['p99_vs_none']}x no feeds; rounds {p['p99_of_rounds_ms']}); server CPU "
                  f"{p['cpu_ms_per_command']} ms a command; idle CPU "
                  f"{p['idle_cpu_server_pct']:.2f}% (server), {p['idle_cpu_all_pct']:.2f}% (all)", flush=True)
        return 0
    arms = [("vs", Path(a.vs).resolve()), ("this", code)] if a.vs else [("this", code)]
    results = []
    with tempfile.TemporaryDirectory(prefix="umpire-bench-feeds-") as tmp:
        for i, f in enumerate(int(x) for x in a.feeds.split(",")):
            for arm, where in arms:
                results.append({"code": arm, **measure(where, Path(tmp) / f"{arm}-{i}", f, a.idle, a.commands,
                                                                   a.feeds_in_thread)})
                if a.json:
                    continue
                r = results[-1]
                print(f"{r['code']:>4} {r['feeds']:>5} feeds: idle CPU {r['idle_cpu_server_pct']:.1f}% of a core "
                      f"(server), "
                      f"{r['idle_cpu_all_pct']:.1f}% (with projector and Redis); command p50 {r['p50_ms']} ms, "
                      f"p99 {r['p99_ms']} ms", flush=True)
    if a.json:
        print(json.dumps({"benchmark": "feeds", "code": str(code), "params": vars(a), "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
