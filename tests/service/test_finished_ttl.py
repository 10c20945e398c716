"""Bounded read models: a finished game's models leave Redis after ``UMPIRE_FINISHED_TTL`` seconds, and
its view, replay, timeline, rulings and verify answer the same from the log; the catch-up does not
project it again."""
from __future__ import annotations

import random
import time

import pytest
from litestar.testing import TestClient

from projections.keys import LOBBY_VERSIONS, GameKeys
from service.app import create_app
from service.settings import Settings

from .api_client import Api
from .test_fair_seeds import _finish
from .toy_ruleset import register

TTL = 2


def _answers(api: Api, gid: str, token: str) -> dict:
    version = api.view(gid)["version"]
    out = {"view": api.view(gid), "seat_view": api.view(gid, token), "timeline": api.get(f"/games/{gid}/timeline").json(),
           "verify": api.get(f"/games/{gid}/verify").json(), "events": api.events(gid)}
    for seq in (0, 1, version // 2, version - 1, version):
        out[f"state {seq}"] = api.get(f"/games/{gid}/states/{seq}", token).json()
    for seq in range(1, version + 1):
        out[f"ruling {seq}"] = api.get(f"/games/{gid}/events/{seq}/ruling").json()
    for v in (out["view"], out["seat_view"]):
        v.pop("receipt", None)  # signed at answer time
    return out


def test_a_finished_game_leaves_redis_after_its_ttl_and_answers_the_same(tmp_path, redis_url, redis_client,
                                                                           monkeypatch):
    register()
    monkeypatch.setenv("UMPIRE_FINISHED_TTL", str(TTL))
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    rm = app.state.read_models
    assert rm.finished_ttl == TTL
    with TestClient(app) as client:
        api = Api(client, str(tmp_path / "data"))
        g = api.create()
        gid, tokens = g["game_id"], g["seats"]
        other = api.create()  # a game that goes on: its models stay
        _finish(api, gid, tokens, random.Random(3))
        assert app.state.projector.idle(10)
        k = GameKeys(gid)
        assert redis_client.exists(k.meta) and 0 < redis_client.ttl(k.meta) <= TTL
        assert redis_client.ttl(GameKeys(other["game_id"]).meta) == -1  # no expiry while it runs
        before = _answers(api, gid, tokens["north"])
        assert before["view"]["status"] == "finished"
        time.sleep(TTL + 1)
        assert list(redis_client.scan_iter(match=k.pattern())) == []  # no key of the game is left
        assert redis_client.exists(GameKeys(other["game_id"]).meta)
        after = _answers(api, gid, tokens["north"])
        assert after == before
        # the lobby still lists it at its version, and a catch-up does not project it again
        assert int(redis_client.hget(LOBBY_VERSIONS, gid)) == before["view"]["version"]
        assert gid not in [row.game_id for row in rm.behind()]
        applied = rm.events_applied
        rm.catch_up_all()
        assert rm.events_applied == applied and not redis_client.exists(k.meta)
        r = client.get("/games", params={"status": "finished"})
        assert [e["game_id"] for e in r.json()["games"]] == [gid]


def test_the_ttl_setting_is_checked():
    from projections.read_models import finished_ttl_from_env

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UMPIRE_FINISHED_TTL", "soon")
        with pytest.raises(ValueError, match="UMPIRE_FINISHED_TTL"):
            finished_ttl_from_env()
        mp.setenv("UMPIRE_FINISHED_TTL", "0")
        assert finished_ttl_from_env() == 0
