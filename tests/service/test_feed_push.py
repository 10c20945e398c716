"""Live feeds are pushed, not polled (service/feed_hub.py): an idle feed costs no store read, a commit is
read once for all the feeds of its game, a command taken by one worker of ``umpire serve --workers 2``
reaches the feeds held by the other, and a malformed Last-Event-ID is a 400 naming the header."""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from service.app import create_app
from service.settings import Settings

from .api_client import SEED, Api, api, assert_problem, sse_blocks  # noqa: F401
from .counting_store import CountingStore
from .toy_ruleset import register

ROOT = Path(__file__).resolve().parents[2]


class InProcessServer:
    """The real app under a real uvicorn on a loopback port, in a thread of this process (so the test
    reads the store's counters)."""

    def __init__(self, app):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", backlog=2048,
                                                    timeout_graceful_shutdown=2))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> InProcessServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


async def _hold_feeds(url: str, plan: list[tuple[str, int]], received: list[list[dict]], opened: list[int],
                      stop: asyncio.Event) -> None:
    """One streaming connection per (game, after) of ``plan``; the events each gets go to ``received``."""
    limits = httpx.Limits(max_connections=len(plan) + 10, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(120.0), limits=limits) as client:
        async def one(i: int, gid: str, after: int) -> None:
            async with client.stream("GET", f"/games/{gid}/feed", params={"after": after}) as r:
                assert r.status_code == 200
                opened[0] += 1
                buf = ""
                async for chunk in r.aiter_text():
                    buf += chunk
                    while "\n\n" in buf or "\r\n\r\n" in buf:
                        block, _, buf = buf.replace("\r\n", "\n").partition("\n\n")
                        for f in sse_blocks(block + "\n\n"):
                            if f.get("event") == "event":
                                received[i].append({"id": int(f["id"])})
                    if stop.is_set():
                        return

        tasks = [asyncio.create_task(one(i, gid, after)) for i, (gid, after) in enumerate(plan)]
        await stop.wait()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def test_500_idle_feeds_read_nothing_and_one_commit_reaches_each_feed_of_its_game_once(tmp_path, redis_url,
                                                                                      redis_client):
    register()
    data = str(tmp_path / "data")
    store = CountingStore(data)
    app = create_app(Settings(data_dir=data, redis_url=redis_url), store=store)
    hub = app.state.games.feeds
    with InProcessServer(app) as srv, httpx.Client(base_url=srv.url, timeout=60) as c:
        games = [c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json() for _ in range(2)]
        (a, b) = games
        plan = [(a["game_id"], a["version"])] * 400 + [(b["game_id"], b["version"])] * 100
        received: list[list[dict]] = [[] for _ in plan]
        opened = [0]
        loop = asyncio.new_event_loop()
        stop = asyncio.Event()
        th = threading.Thread(target=loop.run_until_complete,
                              args=(_hold_feeds(srv.url, plan, received, opened, stop),), daemon=True)
        th.start()
        try:
            deadline = time.monotonic() + 120
            while hub.subscribers < len(plan):
                assert time.monotonic() < deadline, f"only {hub.subscribers} feeds open"
                time.sleep(0.1)
            time.sleep(0.5)  # the feeds' own catch-up reads are done (nothing to catch up: after = version)
            # idle: not one store read while nothing is committed (the old feed polled the store every second)
            store.reset()
            hub_reads = hub.reads
            time.sleep(3.5)
            assert store.selects == 0, store.statements[:5]
            assert hub.reads == hub_reads
            # one commit in game a: every feed of a gets it once, read once for all of them
            r = c.post(f"/games/{a['game_id']}/commands", json={"command": {"type": "step"},
                                                              "expected_version": a["version"]},
                       headers={"Authorization": f"Bearer {a['seats']['north']}"})
            assert r.status_code == 201, r.text
            deadline = time.monotonic() + 60
            while sum(1 for got in received[:400] if got) < 400:
                assert time.monotonic() < deadline, f"{sum(1 for got in received[:400] if got)} of 400 feeds got it"
                time.sleep(0.05)
            time.sleep(1.0)  # anything sent twice would arrive by now
            assert all(got == [{"id": a["version"] + 1}] for got in received[:400])
            assert all(got == [] for got in received[400:])  # the other game's feeds get nothing
            assert hub.reads == hub_reads + 1  # one read for the 400 feeds of the game
            assert store.selects <= 12, store.statements  # the command's own reads and the feeds' one read
        finally:
            loop.call_soon_threadsafe(stop.set)
            th.join(30)
            loop.close()


@pytest.mark.parametrize("value", ["\xb2", "1" * 5000, "-3", "1.5", "x"])
def test_a_malformed_last_event_id_is_a_400_naming_the_header(api: Api, value):
    g = api.create()
    with api.client.stream("GET", f"/games/{g['game_id']}/feed", params={"limit": 1},
                           headers={"Last-Event-ID": value.encode("latin-1")}) as r:
        r.read()
        assert_problem(r, 400, field="Last-Event-ID")


def test_a_last_event_id_resumes_after_that_seq(api: Api):
    g = api.create()
    with api.client.stream("GET", f"/games/{g['game_id']}/feed", params={"limit": 1},
                           headers={"Last-Event-ID": "2"}) as r:
        [m] = [f for f in sse_blocks(r.read().decode()) if "id" in f]
    assert m["id"] == "3"


# -- umpire serve --workers 2 -----------------------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d))
    return out + [g for c in out for g in _children(c)]


def _established_on(port: int) -> set[int]:
    """Socket inodes of the connections accepted on ``port`` (local side), from /proc/net/tcp{,6}."""
    inodes = set()
    for name in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{name}").read_text().splitlines()[1:]:
            f = line.split()
            if int(f[1].rsplit(":", 1)[1], 16) == port and f[3] == "01":
                inodes.add(int(f[9]))
    return inodes


def _holders(pids: list[int], port: int) -> dict[int, int]:
    """pid -> number of connections on ``port`` it holds."""
    inodes = _established_on(port)
    held: dict[int, int] = {}
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:[") and int(link[8:-1]) in inodes:
                held[pid] = held.get(pid, 0) + 1
    return held


def test_a_command_taken_by_one_worker_reaches_the_feeds_of_the_other(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir",
                          str(tmp_path / "data"), "--workers", "2", "--no-access-log"],
                         cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    threads: list[threading.Thread] = []
    results: list[list[int]] = []
    try:
        deadline = time.monotonic() + 90
        while True:
            assert p.poll() is None and time.monotonic() < deadline, "umpire serve did not start"
            try:
                if httpx.get(base + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        # no keep-alive: the only connections the workers hold are the feeds
        with httpx.Client(base_url=base, timeout=30, limits=httpx.Limits(max_keepalive_connections=0)) as c:
            r = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": SEED})
            assert r.status_code == 201, r.text
            g = r.json()
            gid, v = g["game_id"], g["version"]
            # a legal command of the seat whose turn it is (the workers serve the installed rulesets)
            move = next((seat, tok, cmds[0]) for seat, tok in g["seats"].items()
                        for cmds in [c.get(f"/games/{gid}/legal-commands",
                                           headers={"Authorization": f"Bearer {tok}"}).json()["commands"]]
                        if cmds)

            def listen(out: list[int], opened: threading.Event) -> None:
                with httpx.Client(base_url=base, timeout=60) as lc:
                    with lc.stream("GET", f"/games/{gid}/feed", params={"after": v, "limit": 1}) as resp:
                        assert resp.status_code == 200
                        opened.set()
                        out.extend(int(f["id"]) for f in sse_blocks("".join(resp.iter_text())) if "id" in f)

            # open feeds until both workers hold some (the kernel hands connections to either)
            held: dict[int, int] = {}
            while len(held) < 2:
                assert len(threads) < 60, f"the feeds all went to one worker: {held}"
                out: list[int] = []
                results.append(out)
                opened = threading.Event()
                t = threading.Thread(target=listen, args=(out, opened), daemon=True)
                t.start()
                threads.append(t)
                assert opened.wait(30), "a feed did not open"
                time.sleep(0.1)
                held = _holders(_children(p.pid), port)
            assert sum(held.values()) >= len(threads)
            time.sleep(0.5)
            r = c.post(f"/games/{gid}/commands", json={"command": move[2], "expected_version": v},
                       headers={"Authorization": f"Bearer {move[1]}"})
            assert r.status_code == 201, r.text
            for t in threads:
                t.join(30)
            assert all(out == [v + 1] for out in results), repr(results)
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(10)
        finally:
            p.stderr.close()
