"""The projection is off the command path (issue 17, DESIGN 7): a command is acknowledged once it is
in the store; the projector follows. A command acknowledged before its projection ran is visible to
its sender at once (the log answers a read whose model is behind), to everyone from Redis once the
projector has caught up, and a crash between the two loses nothing (the next process's catch-up
projects it from the store)."""
from __future__ import annotations

from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.polling import until

from .api_client import SEED, Api
from .toy_ruleset import register


def _app(tmp_path, redis_server):
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_server.url))
    # the background catch-up would project the game by itself: keep it to its first pass (at start)
    app.state.catch_up.interval = 3600
    return app


def test_acknowledged_before_projection_visible_to_sender_then_to_all(tmp_path, redis_server, redis_client):
    register()
    app = _app(tmp_path, redis_server)
    rm, projector = app.state.read_models, app.state.projector
    with TestClient(app) as client:
        api = Api(client, str(tmp_path / "data"))
        g = api.create(seed=SEED)
        gid, n = g["game_id"], g["seats"]["north"]
        assert projector.idle() and rm.last_seq(gid) == g["version"]
        spectator_before = rm.game_view(gid, None)
        assert spectator_before is not None and spectator_before["version"] == g["version"]

        projector.pause()
        done = api.send(gid, n, {"type": "step"}, g["version"])
        assert done.status_code == 201, done.text
        v = done.json()["version"]
        assert v == g["version"] + 1
        # acknowledged, not projected: Redis still holds the version before
        assert rm.last_seq(gid) == g["version"]
        assert rm.game_view(gid, "north") is None  # the read model knows it is behind the store
        # the sender reads its own write at once (from the log), not marked degraded: Redis is up
        r = api.get(f"/games/{gid}", n)
        assert r.status_code == 200 and r.json()["version"] == v and "x-umpire-degraded" not in r.headers
        assert r.json()["state"]["positions"]["north"] == 1
        assert [e["seq"] for e in api.events(gid, n)][-1] == v
        assert len(api.get(f"/games/{gid}/timeline").json()["steps"]) == v

        projector.resume()
        assert until(lambda: rm.last_seq(gid) == v), "the projector catches up"
        # everyone's view now comes from Redis, the same body the log gives
        spectator = rm.game_view(gid, None)
        assert spectator is not None and spectator["version"] == v
        r = api.get(f"/games/{gid}")
        body = r.json()
        body.pop("receipt")
        assert "x-umpire-degraded" not in r.headers and body == spectator
        assert len(rm.timeline(gid)) == v


def test_a_crash_between_acknowledgement_and_projection_loses_nothing(tmp_path, redis_server, redis_client):
    register()
    app = _app(tmp_path, redis_server)
    rm, projector = app.state.read_models, app.state.projector
    with TestClient(app) as client:
        api = Api(client, str(tmp_path / "data"))
        g = api.create(seed=SEED)
        gid, n, s = g["game_id"], g["seats"]["north"], g["seats"]["south"]
        assert projector.idle() and rm.last_seq(gid) == g["version"]
        projector.pause()
        v = g["version"]
        acknowledged = []
        for seat, token in (("north", n), ("south", s), ("north", n)):
            view = api.view(gid, token)
            if seat not in view["to_act"]:
                continue
            r = api.send(gid, token, {"type": "step"}, v)
            assert r.status_code == 201, r.text
            v = r.json()["version"]
            acknowledged.append(v)
        assert acknowledged and rm.last_seq(gid) == g["version"]
        # the process dies with the hand-over in memory: what was handed over is gone
        assert projector.discard() == v - g["version"]
    assert rm.last_seq(gid) == g["version"], "nothing was projected"

    # the next process: its catch-up projects every acknowledged event from the store
    app2 = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_server.url))
    rm2 = app2.state.read_models
    with TestClient(app2) as client2:
        assert until(lambda: rm2.last_seq(gid) == v), "the projections converge from the store"
        api2 = Api(client2, str(tmp_path / "data"))
        events = api2.events(gid)
        assert [e["seq"] for e in events] == list(range(1, v + 1))
        assert len(rm2.timeline(gid)) == v
        r = api2.get(f"/games/{gid}", n)
        body = r.json()
        body.pop("receipt")
        assert "x-umpire-degraded" not in r.headers and body == rm2.game_view(gid, "north")
        assert body["version"] == v
