"""``umpire serve`` restarted on a populated data dir: its private Redis kept the read models (an
RDB snapshot in DATA_DIR/redis, written when it stops), so the projector's start-up catch-up projects nothing again."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import redis

from projections.keys import LOBBY_VERSIONS

ROOT = Path(__file__).resolve().parents[2]
SEED = "0f" * 32


def _start(data: Path) -> tuple[subprocess.Popen, str, list[str]]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir", str(data),
                          "--no-access-log"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(p.stderr.readline, "")), daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        assert p.poll() is None and time.monotonic() < deadline, "".join(lines)
        try:
            if httpx.get(base + "/health", timeout=2).status_code == 200:
                return p, base, lines
        except httpx.HTTPError:
            time.sleep(0.2)


def _caught_up(lines: list[str]) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = [line for line in list(lines) if "caught up with the log" in line]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError("".join(lines))


def _stop(p: subprocess.Popen) -> None:
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait(10)


def test_a_restarted_serve_projects_nothing_its_redis_already_holds(tmp_path):
    data = tmp_path / "data"
    p, base, lines = _start(data)
    try:
        # an empty data dir at the first start: the projector's first catch-up (awaited before any game is
        # created, so that a slow start of the projector process cannot see them) projects nothing
        assert "0 game(s) projected" in _caught_up(lines)
        with httpx.Client(base_url=base, timeout=30) as c:
            ids = []
            for _ in range(3):
                r = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": SEED})
                assert r.status_code == 201, r.text
                ids.append(r.json()["game_id"])
            # the projector process has projected them (the private Redis's URL is recorded in the data dir)
            client = redis.Redis.from_url((data / "redis.url").read_text().strip())
            deadline = time.monotonic() + 60
            while client.hlen(LOBBY_VERSIONS) < 3:
                assert time.monotonic() < deadline
                time.sleep(0.2)
            client.close()
    finally:
        _stop(p)
    assert (data / "redis").is_dir() and (data / "redis").stat().st_mode & 0o777 == 0o700

    p, base, lines = _start(data)
    try:
        line = _caught_up(lines)
        assert "0 game(s) projected, 0 event(s) applied" in line, line
        with httpx.Client(base_url=base, timeout=30) as c:
            r = c.get("/games")
            assert r.status_code == 200 and sorted(g["game_id"] for g in r.json()["games"]) == sorted(ids)
    finally:
        _stop(p)
