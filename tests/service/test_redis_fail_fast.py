"""Redis stopped under a running service: commands are still acknowledged (the log is the truth, DESIGN 7),
reads answer from the log at once, marked ``X-Umpire-Degraded: projections`` (never a 500), and nothing waits
on Redis longer than the stated bound (docs/operations.md, "When Redis stops answering").

The Redis here is a real ``redis-server`` of the test's own, started by the fixture and then stopped with
SIGSTOP: it still accepts connections (the kernel's backlog) but never answers, the case a timeout has to
end (a refused connection fails at once). Before the bound, each read waited three socket timeouts (~6 s)
and every read waited again."""
from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from service import queries
from service.app import REDIS_CONNECT_TIMEOUT, REDIS_SOCKET_TIMEOUT, create_app
from service.redis_runtime import EmbeddedRedis
from service.settings import Settings
from service.store import EventStore

from .api_client import PROBLEM, SEED, Api
from .toy_ruleset import register

#: The longest a request may wait for a Redis that does not answer: one connect and one socket timeout (no
#: retry after a timeout), plus room for a loaded test machine.
BOUND_S = REDIS_CONNECT_TIMEOUT + REDIS_SOCKET_TIMEOUT + 1.5


@pytest.fixture
def own_redis(tmp_path) -> Iterator[EmbeddedRedis]:
    """A redis-server of this test alone (it is stopped and resumed; the session's server is left alone)."""
    server = EmbeddedRedis(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        if server.pid is not None:
            try:
                os.kill(server.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        server.stop()


def _timed(fn):
    t = time.monotonic()
    out = fn()
    return out, time.monotonic() - t


def _wait(pred, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.1)
    return False


def test_a_stopped_redis_costs_one_timeout_and_loses_no_command(tmp_path, own_redis):
    register()
    data = tmp_path / "data"
    app = create_app(Settings(data_dir=str(data), redis_url=own_redis.url))
    rm = app.state.read_models
    queries._probes.clear()
    with TestClient(app) as client:
        api = Api(client, str(data))
        g = api.create(seed=SEED)
        gid, north = g["game_id"], g["seats"]["north"]
        v = api.ok(gid, north, {"type": "step"})["version"]
        assert _wait(lambda: (rm.game_view(gid, "north") or {}).get("version") == v)
        r = api.get(f"/games/{gid}", north)
        assert r.status_code == 200 and "x-umpire-degraded" not in r.headers  # Redis answers

        os.kill(own_redis.pid, signal.SIGSTOP)  # accepts connections, answers nothing
        try:
            reads = [f"/games/{gid}", f"/games/{gid}/timeline", "/games", f"/games/{gid}/states/1",
                     f"/games/{gid}/board.svg", f"/games/{gid}/events", f"/games/{gid}/verify"]
            took = []
            for path in reads:
                r, dt = _timed(lambda p=path: api.get(p, north))
                took.append(dt)
                assert r.status_code == 200, (path, r.status_code, r.text[:300])
                assert dt < BOUND_S, f"{path} waited {dt:.1f} s for a Redis that does not answer"
            # the reads that ask Redis say they were answered from the log
            for path in reads[:4]:
                assert api.get(path, north).headers.get("x-umpire-degraded") == "projections", path
            # one read paid the timeout; the others did not wait for Redis again
            assert sum(took) < BOUND_S, took

            # a command is acknowledged without Redis, and at once (it never waits on Redis)
            r, dt = _timed(lambda: api.send(gid, north, {"type": "end_turn"}, v))
            assert r.status_code == 201, r.text
            assert dt < BOUND_S
            acked = r.json()["version"]
            view = api.get(f"/games/{gid}", north)
            assert view.status_code == 200 and view.json()["version"] == acked
            assert view.headers["x-umpire-degraded"] == "projections"
            # bad input still gets its problem, not a 500, with Redis stopped
            r = api.get("/games/no-such-game", north)
            assert r.status_code == 404 and r.headers["content-type"].startswith(PROBLEM)
            # the health probe says so, within the bound
            h, dt = _timed(lambda: client.get("/health"))
            assert h.status_code == 200 and h.json()["redis"] == "down" and dt < BOUND_S
        finally:
            os.kill(own_redis.pid, signal.SIGCONT)

        # the acknowledged command is in the log (the truth), and the read models catch up to it
        store = EventStore(data)
        try:
            assert [e.seq for e in store.load(gid)][-1] == acked
        finally:
            store.close()
        assert _wait(lambda: (rm.game_view(gid, "north") or {}).get("version") == acked)
        queries._probes.clear()  # past DOWN_SECONDS: Redis is asked again
        r = api.get(f"/games/{gid}", north)
        assert r.status_code == 200 and "x-umpire-degraded" not in r.headers
        assert r.json()["version"] == acked


def test_a_killed_redis_fails_at_once_and_reads_come_back(tmp_path, own_redis):
    """Connection refused: no timeout to wait, reads from the log, and Redis asked again after DOWN_SECONDS."""
    register()
    data = tmp_path / "data"
    app = create_app(Settings(data_dir=str(data), redis_url=own_redis.url))
    queries._probes.clear()
    with TestClient(app) as client:
        api = Api(client, str(data))
        g = api.create(seed=SEED)
        gid, north = g["game_id"], g["seats"]["north"]
        own_redis.kill()
        try:
            r, dt = _timed(lambda: api.send(gid, north, {"type": "step"}, g["version"]))
            assert r.status_code == 201 and dt < BOUND_S, r.text
            acked = r.json()["version"]
            r = api.get(f"/games/{gid}", north)
            assert r.status_code == 200 and r.json()["version"] == acked
            assert r.headers["x-umpire-degraded"] == "projections"
        finally:
            own_redis.restart()
        # once the verdict is older than DOWN_SECONDS, reads try Redis again and are served by it when it is current
        assert _wait(lambda: api.get(f"/games/{gid}", north).headers.get("x-umpire-degraded") is None,
                     timeout=queries.DOWN_SECONDS + 30)
        assert api.get(f"/games/{gid}", north).json()["version"] == acked
