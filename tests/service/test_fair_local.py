"""Local surfaces (issue 10): the private Redis takes no unauthenticated client and comes back when
it dies; a seat token in a query string never reaches the access log; the receipt key is private."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.redis_runtime import EmbeddedRedis

from .api_client import SEED, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
#: A refused login is not retried (redis-py retries connection errors with a backoff by default).
NO_RETRY = Retry(NoBackoff(), 0)


def test_the_private_redis_needs_its_password(tmp_path):
    with EmbeddedRedis(tmp_path / "r") as r:
        assert r.password and r.password in r.url and r.password not in r.safe_url and r.password not in repr(r)
        assert redis.Redis.from_url(r.url).ping()
        intruder = redis.Redis(host="127.0.0.1", port=r.port, socket_timeout=2, retry=NO_RETRY)
        with pytest.raises(redis.AuthenticationError):
            intruder.get("{g:x}:view:north")
        with pytest.raises(redis.AuthenticationError):
            intruder.set("{g:x}:view:north", "forged")
        conf = Path(r.dir) / "redis-auth.conf"
        assert stat.S_IMODE(conf.stat().st_mode) == 0o600


def test_a_unix_socket_redis_lives_in_a_private_dir(tmp_path):
    with EmbeddedRedis(tmp_path / "s", unix_socket=True) as r:
        assert stat.S_IMODE(os.stat(tmp_path / "s").st_mode) == 0o700
        assert redis.Redis.from_url(r.url).ping()
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(unix_socket_path=str(r.socket_path), retry=NO_RETRY).get("k")


def test_the_private_redis_is_restarted_when_it_dies(tmp_path):
    r = EmbeddedRedis(tmp_path / "w")
    url = r.start()
    r.watch(interval=0.1)
    try:
        first = r.pid
        r.kill()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (r.running and r.pid != first and r.restarts >= 1):
            time.sleep(0.05)
        assert r.running and r.pid != first and r.restarts == 1
        assert redis.Redis.from_url(url, socket_timeout=2).ping()  # same address, same password
    finally:
        r.stop()
    time.sleep(0.3)
    assert not r.running and r.restarts == 1  # stop() is final: the watcher does not bring it back


def test_a_feed_token_in_the_query_string_never_reaches_the_access_log(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, UMPIRE_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    env.pop("UMPIRE_REDIS_URL", None)
    log = open(tmp_path / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory", "tests.service.api_client:toy_app",
                             "--host", "127.0.0.1", "--port", str(port), "--log-level", "info"],
                            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, proc)
        g = httpx.post(base + "/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        token = g["seats"]["north"]
        with httpx.stream("GET", f"{base}/games/{g['game_id']}/feed", params={"token": token, "limit": 1},
                          timeout=10) as r:
            assert r.status_code == 200
            "".join(r.iter_text())
        httpx.get(f"{base}/games/{g['game_id']}", params={"token": token, "x": "1"})
        time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
    text = (tmp_path / "server.log").read_text()
    assert f"/games/{g['game_id']}/feed?" in text  # the access log was written...
    assert "token=***" in text
    assert token not in text  # ...without the token
    key = tmp_path / "data" / "signing-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.read_text().strip() not in text
