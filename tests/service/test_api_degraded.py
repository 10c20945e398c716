"""Redis is never the source of truth (DESIGN section 7): queries come from the
read models when they are current, from the log with ``X-Umpire-Degraded:
projections`` when Redis is down, and a game goes on through the outage."""
from __future__ import annotations

import time

from litestar.testing import TestClient

from service import queries
from service.app import create_app
from service.settings import Settings

from .api_client import SEED, Api
from .toy_ruleset import register


def test_queries_use_redis_then_fall_back_through_an_outage(tmp_path, redis_server, redis_client):
    register()
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_server.url))
    rm = app.state.read_models
    assert rm is not None, "projections.ReadModels is wired when a Redis URL is configured"
    with TestClient(app) as client:
        api = Api(client, str(tmp_path / "data"))
        g = api.create(seed=SEED)
        gid, n = g["game_id"], g["seats"]["north"]
        api.ok(gid, n, {"type": "step"})
        # the projection runs after the answer (issue 17): wait for it, then the read model serves
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (rm.game_view(gid, "north") or {}).get("version") != g["version"] + 1:
            time.sleep(0.05)
        r = api.get(f"/games/{gid}", n)
        assert r.status_code == 200 and "x-umpire-degraded" not in r.headers
        body = r.json()
        assert body.pop("receipt")["version"] == body["version"]  # signed on the way out
        assert body == rm.game_view(gid, "north")  # served by the read model, same body
        assert client.get("/health").json()["redis"] == "ok"

        redis_server.kill()
        try:
            r = api.get(f"/games/{gid}", n)
            assert r.status_code == 200 and r.headers["x-umpire-degraded"] == "projections"
            assert r.json()["version"] == g["version"] + 1
            # the game goes on: the command is acknowledged once it is in SQLite
            done = api.send(gid, n, {"type": "step"}, g["version"] + 1)
            assert done.status_code == 201, done.text
            r = api.get(f"/games/{gid}/timeline")
            assert r.headers["x-umpire-degraded"] == "projections" and len(r.json()["steps"]) == g["version"] + 2
            assert client.get("/health").json()["redis"] == "down"
        finally:
            redis_server.restart()
        # the projections catch up by themselves (background catch-up), then Redis answers again
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and rm.game_view(gid, "north") is None:
            time.sleep(0.2)
        assert rm.game_view(gid, "north")["version"] == g["version"] + 2
        queries._probes.clear()  # forget the last reachability probe
        r = api.get(f"/games/{gid}", n)
        assert "x-umpire-degraded" not in r.headers and r.json()["state"]["positions"]["north"] == 2
