#!/usr/bin/env python3
"""The command path in process, thread by thread: the real app (built as ``ops/bench_http.py`` builds it, the
access log on, its read models on a private Redis, the projector elsewhere), called through its ASGI entry
with ``POST /games/{id}/commands`` of one toy game, one command after another (no HTTP, no load generator).
Prints the commands per second and the CPU each command cost each thread of the process (the event loop, the
store's committer, the commit bus's sender and listener), from ``/proc``; ``--profile FILE`` writes a
cProfile of the event loop's thread (CPU time) and ``FILE.commit`` of the committer's; ``--phases`` the median
wall-clock time of each part of one command (:data:`PHASES`), on uvloop as ``umpire serve`` runs.

    PYTHONPATH=. .venv/bin/python ops/profile_command_path.py [--commands 2000] [--profile /tmp/cmd.prof] [--phases]

``UMPIRE_ROOT=<checkout>`` measures another checkout with this file.
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import logging
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("UMPIRE_ROOT") or Path(__file__).resolve().parents[1])
sys.path[:0] = [str(ROOT), str(ROOT / "ops")]


#: The parts of one command ``--phases`` times: the app's middlewares before the command path; from there to
#: the store's append (body, seat, strict decoding, the kernel's decision, the events encoded); the append
#: (its commit, on the loop or on the committer thread, and any hand-off); from its result to the answer's body
#: sent (the events rendered, the receipt signed, the metrics, the JSON); the middlewares' ends.
PHASES = ("door", "to the append", "the append", "to the answer", "out")
_MARKS = ("start", "in", "append", "appended", "sent", "end")
_marks: dict[str, int] = {}


def watch_phases() -> None:
    """Time the command path's entry and the store's append (wrapped on their classes)."""
    from service.command_path import CommandPath
    from service.store.sqlite import EventStore

    enter, append = CommandPath.__call__, EventStore.append_async

    async def entered(self: Any, scope: Any, receive: Any, send: Any) -> None:
        _marks["in"] = time.perf_counter_ns()
        await enter(self, scope, receive, send)

    async def appending(self: Any, *args: Any, **kwargs: Any) -> Any:
        _marks["append"] = time.perf_counter_ns()
        try:
            return await append(self, *args, **kwargs)
        finally:
            _marks["appended"] = time.perf_counter_ns()

    CommandPath.__call__ = entered  # type: ignore[method-assign]
    EventStore.append_async = appending  # type: ignore[method-assign]


def thread_cpu() -> dict[str, tuple[str, float]]:
    """CPU seconds (user + system) of each thread of this process, by thread id: (name, seconds)."""
    names = {str(t.native_id): t.name for t in threading.enumerate()}
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            fields = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[tid] = (names.get(tid, tid), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
    return out


async def call(app: Any, method: str, path: str, body: bytes = b"", headers: tuple = ()) -> tuple[int, bytes]:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode()), *headers],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "state": {}}
    sent = False
    status, out = 0, b""
    _marks.clear()
    _marks["start"] = time.perf_counter_ns()

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(msg: dict[str, Any]) -> None:
        nonlocal status, out
        if msg["type"] == "http.response.start":
            status = msg["status"]
        elif msg["type"] == "http.response.body":
            _marks["sent"] = time.perf_counter_ns()
            out += msg.get("body", b"")

    await app(scope, receive, send)
    _marks["end"] = time.perf_counter_ns()
    return status, out


async def run(app: Any, commands: int, profile: str | None, phases: bool = False) -> dict[str, Any]:
    lifespan: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    started = asyncio.Event()

    async def receive() -> dict[str, str]:
        return await lifespan.get()

    async def send(msg: dict[str, Any]) -> None:
        if msg["type"].startswith("lifespan.startup"):
            started.set()

    await lifespan.put({"type": "lifespan.startup"})
    task = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send))
    await started.wait()
    _, raw = await call(app, "POST", "/games", json.dumps({"ruleset": "toy", "scenario": "duel",
                                                           "seed": "0f" * 32}).encode())
    g = json.loads(raw)
    tokens = [g["seats"]["north"].encode(), g["seats"]["south"].encode()]
    version, step = g["version"], 0
    kinds = ('{"type":"step"}', '{"type":"end_turn"}')
    timed: list[list[int]] | None = None

    async def one() -> None:
        nonlocal version, step
        body = f'{{"command":{kinds[step % 2]},"expected_version":{version}}}'.encode()
        status, raw = await call(app, "POST", f"/games/{g['game_id']}/commands", body,
                                 ((b"authorization", b"Bearer " + tokens[step // 2]),))
        if status != 201:
            raise SystemExit(f"command answered {status}: {raw[:300]!r}")
        version, step = json.loads(raw)["version"], (step + 1) % 4
        if timed is not None and all(k in _marks for k in _MARKS):
            timed.append([_marks[b] - _marks[a] for a, b in zip(_MARKS, _MARKS[1:])])

    for _ in range(200):  # warm up
        await one()
    loop_prof = cProfile.Profile(time.thread_time) if profile else None
    timed = [] if phases else None
    before = thread_cpu()
    t0 = time.perf_counter()
    if loop_prof:
        loop_prof.enable()
    for _ in range(commands):
        await one()
    if loop_prof:
        loop_prof.disable()
        loop_prof.dump_stats(profile)
    wall = time.perf_counter() - t0
    after = thread_cpu()
    per_thread = {}
    for tid, (name, secs) in after.items():
        used = secs - before.get(tid, (name, 0.0))[1]
        if used > 0:
            per_thread[name] = round(per_thread.get(name, 0.0) + used * 1e6 / commands)
    await lifespan.put({"type": "lifespan.shutdown"})
    await asyncio.wait_for(task, 10)
    out = {"commands": commands, "per_second": round(commands / wall, 1), "cpu_us_per_command": per_thread,
           "cpu_us_per_command_all_threads": sum(per_thread.values())}
    if timed:
        out["phases_us_median"] = {name: round(statistics.median(t[i] for t in timed) / 1000, 1)
                                   for i, name in enumerate(PHASES)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commands", type=int, default=2000)
    ap.add_argument("--profile", default=None, help="write cProfile files of the loop (FILE) and committer (FILE.commit)")
    ap.add_argument("--phases", action="store_true", help="time each part of a command (PHASES), on uvloop")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    from service.redis_runtime import EmbeddedRedis

    tmp = Path(tempfile.mkdtemp(prefix="umpire-cmd-profile-"))
    redis = EmbeddedRedis(tmp / "redis")
    redis.start()
    os.environ.update({"UMPIRE_DATA_DIR": str(tmp / "data"), "UMPIRE_REDIS_URL": redis.url,
                       "UMPIRE_PROJECTOR": "process"})
    logging.disable(logging.INFO)
    sys.stdout.flush()
    real_stdout = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the access log's lines (as a served process writes them)
    try:
        from service.receipts import load_or_create
        from service.store import EventStore

        EventStore(tmp / "data").close()
        load_or_create(tmp / "data")
        import bench_http

        commit_prof = None
        if args.profile:
            from service.store import sqlite as sqlite_store

            commit_prof = cProfile.Profile(time.thread_time)
            group = sqlite_store.EventStore._commit_group

            def profiled(store: Any) -> None:
                commit_prof.enable()
                try:
                    group(store)
                finally:
                    commit_prof.disable()

            sqlite_store.EventStore._commit_group = profiled
        app = bench_http.umpire_app()
        if args.phases:
            import uvloop  # the served processes' loop (service.cli's SERVER_STACK)

            watch_phases()
            uvloop.install()
        out = asyncio.run(run(app, args.commands, args.profile, args.phases))
        if commit_prof is not None:
            commit_prof.dump_stats(args.profile + ".commit")
    finally:
        sys.stdout.flush()
        os.dup2(real_stdout, 1)
        redis.stop()
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['commands']} commands, one at a time: {out['per_second']:,.0f}/s; CPU per command "
          f"{out['cpu_us_per_command_all_threads']} us in all:")
    for name, us in sorted(out["cpu_us_per_command"].items(), key=lambda kv: -kv[1]):
        print(f"  {name}: {us} us")
    if "phases_us_median" in out:
        print("wall-clock per command, medians: " + "; ".join(f"{k} {v} us" for k, v in out["phases_us_median"].items()))


if __name__ == "__main__":
    main()
