"""The service on a real 3-master Redis Cluster (DESIGN 7 and 11, issue 15): one master killed, the reads of
its games fall back to the log (``X-Umpire-Degraded: projections``), never a 5xx, the game goes on, and the
projections converge by themselves once the master is back."""
from __future__ import annotations

import time

from litestar.testing import TestClient

from projections.keys import GameKeys
from service import queries
from service.app import create_app
from service.settings import Settings

from .api_client import SEED, Api
from .toy_ruleset import register


def _converged(rm, gid: str, version: int) -> bool:
    view = rm.game_view(gid, "north")
    return view is not None and view["version"] == version


def test_one_master_killed_reads_degrade_then_converge(tmp_path, redis_cluster):
    register()
    redis_cluster.flushall()
    settings = Settings.from_env({"UMPIRE_DATA_DIR": str(tmp_path / "data"), "UMPIRE_REDIS_URL": redis_cluster.url})
    assert settings.redis_cluster
    app = create_app(settings)
    rm = app.state.read_models
    with TestClient(app) as client:
        api = Api(client, str(tmp_path / "data"))
        games = [api.create(seed=SEED) for _ in range(6)]
        for g in games:
            api.ok(g["game_id"], g["seats"]["north"], {"type": "step"})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(_converged(rm, g["game_id"], g["version"] + 1) for g in games):
            time.sleep(0.1)
        g = games[0]
        gid, n = g["game_id"], g["seats"]["north"]
        victim = redis_cluster.owner(GameKeys(gid).meta)
        r = api.get(f"/games/{gid}", n)
        assert r.status_code == 200 and "x-umpire-degraded" not in r.headers  # from the cluster
        body = r.json()
        body.pop("receipt")
        assert body == rm.game_view(gid, "north")

        redis_cluster.kill(victim)
        try:
            r = api.get(f"/games/{gid}", n)
            assert r.status_code == 200, r.text
            assert r.headers["x-umpire-degraded"] == "projections"
            assert r.json()["version"] == g["version"] + 1
            done = api.send(gid, n, {"type": "step"}, g["version"] + 1)  # acknowledged once it is in the log
            assert done.status_code == 201, done.text
            for path in (f"/games/{gid}/timeline", f"/games/{gid}/events", "/games", f"/games/{gid}/legal-commands"):
                r = api.get(path, n)
                assert r.status_code == 200, (path, r.status_code, r.text)
            r = api.get(f"/games/{gid}/timeline")
            assert r.headers["x-umpire-degraded"] == "projections" and len(r.json()["steps"]) == g["version"] + 2
            # games whose slots live on the other masters are still answered (by Redis or by the log), no 5xx
            for other in games[1:]:
                r = api.get(f"/games/{other['game_id']}", other["seats"]["north"])
                assert r.status_code == 200 and r.json()["version"] == other["version"] + 1
        finally:
            redis_cluster.restart(victim)
        # the restarted master is empty: the catch-up projects its games again from the log
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _converged(rm, gid, g["version"] + 2):
            time.sleep(0.2)
        assert _converged(rm, gid, g["version"] + 2)
        queries._probes.clear()
        r = api.get(f"/games/{gid}", n)
        assert r.status_code == 200 and "x-umpire-degraded" not in r.headers
        assert r.json()["version"] == g["version"] + 2


def test_the_service_starts_and_serves_while_the_cluster_is_unreachable(tmp_path):
    """A cluster client asks for the slots when it is made; the service must not need the cluster to start
    (DESIGN 7): it answers from the log, marked degraded, and takes commands."""
    import socket

    register()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there
    settings = Settings.from_env({"UMPIRE_DATA_DIR": str(tmp_path / "data"),
                                  "UMPIRE_REDIS_URL": f"redis+cluster://127.0.0.1:{port}/0"})
    app = create_app(settings)
    with TestClient(app) as client:
        api = Api(client, str(tmp_path / "data"))
        g = api.create(seed=SEED)
        gid, n = g["game_id"], g["seats"]["north"]
        assert api.send(gid, n, {"type": "step"}, g["version"]).status_code == 201
        queries._probes.clear()
        r = api.get(f"/games/{gid}", n)
        assert r.status_code == 200 and r.headers["x-umpire-degraded"] == "projections"
        assert r.json()["version"] == g["version"] + 1
        r = api.get("/games")
        assert r.status_code == 200 and gid in [x["game_id"] for x in r.json()["games"]]
        assert client.get("/health").json()["redis"] == "down"
