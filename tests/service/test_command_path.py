"""The command path at the door (issue 17, ``service/command_path.py``): ``POST /games/{id}/commands``
without a query string is answered in front of litestar's router. It must answer exactly what the
declared route answers (the route still serves ``?dry_run=`` and every request with a query string, so
``?dry_run=false`` reaches it), for every success and every refusal, in DESIGN 8's order."""
from __future__ import annotations

import json
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.command_path import CommandPath
from service.settings import Settings

from .api_client import SEED
from .toy_ruleset import register

ROUTE = "?dry_run=false"  # a query string: the request goes through litestar's route


@pytest.fixture
def client(tmp_path, redis_url, redis_client):
    register()
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    with TestClient(app) as c:
        yield app, c


def _game(c: TestClient) -> dict[str, Any]:
    r = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED})
    assert r.status_code == 201, r.text
    return r.json()


def _post(c: TestClient, gid: str, body: Any, token: str | None, query: str = "", **kw: Any):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    headers.update(kw.pop("headers", {}))
    if isinstance(body, (bytes, str)):
        return c.post(f"/games/{gid}/commands{query}", content=body, headers={"Content-Type": "application/json",
                                                                                 **headers}, **kw)
    return c.post(f"/games/{gid}/commands{query}", json=body, headers=headers, **kw)


def _shape(r, gid: str) -> dict[str, Any]:
    """What a client sees of an answer, with the game's id (which differs between the two games) and the
    signature (over that id) left out."""
    body = json.loads(r.text.replace(gid, "<game>"))
    out: dict[str, Any] = {"status": r.status_code, "content-type": r.headers["content-type"]}
    if r.status_code >= 400:
        keep = ("type", "title", "status", "field", "rule", "rule_url", "current_version", "values")
        out.update({k: body.get(k) for k in keep})
        if r.status_code != 400:  # a 400's wording may come from litestar's lenient parser first
            out["detail"] = body.get("detail")
    else:
        out["version"] = body["version"]
        # the time, and the chain's hashes and commitments (they bind the game's id and seed), differ by game
        out["events"] = [{k: v for k, v in e.items() if k not in ("recorded_at", "hash", "prev_hash", "commitment")}
                         for e in body["events"]]
        out["receipt"] = sorted(body["receipt"]) if body.get("receipt") else None
    return out


def test_the_command_path_answers_exactly_as_the_declared_route(client):
    app, c = client
    assert isinstance(app.asgi_handler, CommandPath)
    fast, slow = _game(c), _game(c)
    v = fast["version"]
    assert slow["version"] == v
    big = {"command": {"type": "step", "pad": "x" * (300 * 1024)}, "expected_version": v}
    cases: list[tuple[str, Any, str | None, dict[str, Any]]] = [
        # (what, body, seat, extra request arguments) -- seat None: no token; "bad": a token of nothing
        ("no token", {"command": {"type": "step"}, "expected_version": v}, None, {}),
        ("not a token of this game", {"command": {"type": "step"}, "expected_version": v}, "bad", {}),
        ("malformed Authorization", {"command": {"type": "step"}, "expected_version": v}, "basic", {}),
        ("401 before a malformed body", b"{not json", None, {}),
        ("too large", big, "north", {}),
        ("not JSON media type", b'{"command":{"type":"step"},"expected_version":%d}' % v, "north",
         {"headers": {"Content-Type": "text/plain"}}),
        ("not UTF-8", b'{"command":{"type":"st\xffep"},"expected_version":%d}' % v, "north", {}),
        ("too deep", b'{"command":' + b"[" * 40 + b"]" * 40 + b',"expected_version":%d}' % v, "north", {}),
        ("not JSON", b"{not json", "north", {}),
        ("no command", {"expected_version": v}, "north", {}),
        ("unknown field", {"command": {"type": "step"}, "expected_version": v, "colour": "red"}, "north", {}),
        ("unknown command field", {"command": {"type": "step", "colour": "red"}, "expected_version": v}, "north", {}),
        ("a string version", {"command": {"type": "step"}, "expected_version": str(v)}, "north", {}),
        ("stale version", {"command": {"type": "step"}, "expected_version": v - 1}, "north", {}),
        ("not your decision", {"command": {"type": "step"}, "expected_version": v}, "south", {}),
        ("a command", {"command": {"type": "step"}, "expected_version": v, "command_id": "c-1"}, "north", {}),
        ("its retry", {"command": {"type": "step"}, "expected_version": v, "command_id": "c-1"}, "north", {}),
        ("the id with another body", {"command": {"type": "end_turn"}, "expected_version": v + 1, "command_id": "c-1"},
         "north", {}),
        ("the next command", {"command": {"type": "end_turn"}, "expected_version": v + 1}, "north", {}),
        ("the other seat", {"command": {"type": "step"}, "expected_version": v + 2}, "south", {}),
    ]
    for what, body, seat, extra in cases:
        shapes = []
        for game, query in ((fast, ""), (slow, ROUTE)):
            token = {"bad": "x" * 32, "basic": None, None: None}.get(seat, game["seats"].get(seat or "", ""))
            kw = dict(extra)
            if seat == "basic":
                kw["headers"] = {**kw.get("headers", {}), "Authorization": "Basic abc"}
            shapes.append(_shape(_post(c, game["game_id"], body, token, query, **kw), game["game_id"]))
        assert shapes[0] == shapes[1], what
        assert shapes[0]["status"] in (201, 400, 401, 403, 409, 413, 415, 422), (what, shapes[0])
    # an unknown game: 404 first, whatever the token
    for query in ("", ROUTE):
        r = _post(c, "no-such-game", {"command": {"type": "step"}, "expected_version": 1}, "x" * 32, query)
        assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json"), r.text
    # both games went the same way: three commands stored on each (the retry stored nothing), nothing else
    versions = [c.get(f"/games/{g['game_id']}").json()["version"] for g in (fast, slow)]
    assert versions == [v + 3, v + 3], versions


def test_a_game_command_does_not_go_through_the_router_and_a_query_string_does(client):
    app, c = client
    path = app.asgi_handler
    seen: list[str] = []
    inner = path.app

    async def counting(scope, receive, send):
        if scope["type"] == "http":
            seen.append(f"{scope['method']} {scope['path']}?{scope.get('query_string', b'').decode()}")
        await inner(scope, receive, send)

    path.app = counting
    try:
        g = _game(c)
        gid, north = g["game_id"], g["seats"]["north"]
        seen.clear()
        r = _post(c, gid, {"command": {"type": "step"}, "expected_version": g["version"]}, north)
        assert r.status_code == 201, r.text
        assert seen == []  # answered at the door
        r = _post(c, gid, {"command": {"type": "end_turn"}, "expected_version": g["version"] + 1}, north, "?dry_run=true")
        assert r.status_code == 200 and r.json()["legal"] is True, r.text
        assert seen == [f"POST /games/{gid}/commands?dry_run=true"]
        assert c.get(f"/games/{gid}").status_code == 200
        assert seen[-1] == f"GET /games/{gid}?"
    finally:
        path.app = inner


def test_a_store_refusal_on_the_command_path_is_the_apps_503_without_paths(tmp_path):
    """An exception of the store becomes the app's own answer for it (the handler litestar would use): here
    a real refusal, the store opened read-only under the app (as for a backup copy)."""
    from service.store import EventStore

    register()
    data = tmp_path / "data"
    with TestClient(create_app(Settings(data_dir=str(data)), read_models=None)) as c:
        g = _game(c)
    ro = EventStore(data, read_only=True)
    with TestClient(create_app(Settings(data_dir=str(data)), store=ro, read_models=None)) as c:
        shapes = []
        for query in ("", ROUTE):
            r = _post(c, g["game_id"], {"command": {"type": "step"}, "expected_version": g["version"]},
                      g["seats"]["north"], query)
            assert r.status_code == 503 and r.headers["content-type"].startswith("application/problem+json"), r.text
            assert str(tmp_path) not in r.text and "read-only" in r.json()["detail"], r.text
            shapes.append(r.json())
        assert shapes[0] == shapes[1]
        assert c.get(f"/games/{g['game_id']}").json()["version"] == g["version"]  # nothing written


def test_the_stores_committer_thread_ends_with_the_app(tmp_path, redis_url, redis_client):
    register()
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    store = app.state["games"].store
    with TestClient(app) as c:
        g = _game(c)
        r = _post(c, g["game_id"], {"command": {"type": "step"}, "expected_version": g["version"]}, g["seats"]["north"])
        assert r.status_code == 201, r.text
        committer = store._committer  # the command's commit ran there (the command itself on the loop)
        assert committer is not None
        assert committer.submit(int, "1").result() == 1
    assert store._committer is None
    with pytest.raises(RuntimeError):  # shut down on the app's shutdown: no new work is taken
        committer.submit(int, "1")
