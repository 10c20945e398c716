"""The command path (issues 17 and 25, ``service/command_path.py``): every ``POST /games/{id}/commands`` --
with or without a query string, a dry run, a trailing slash -- is answered in front of litestar's router by
one implementation; the declared route only documents the endpoint (its handler raises if ever called). Every
request shape gets the same answer whatever query string rides along, for every success and every refusal,
in DESIGN 8's order."""
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

#: What may ride along with a request without changing its answer (before issue 25 a query string sent the
#: request through litestar's route, a second copy of the checks).
ALONG = ("?dry_run=false", "?lang=en&dry_run=0", "?x=1", "/")


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
        out["detail"] = body.get("detail")
    else:
        out["version"] = body["version"]
        # the time, and the chain's hashes and commitments (they bind the game's id and seed), differ by game
        out["events"] = [{k: v for k, v in e.items() if k not in ("recorded_at", "hash", "prev_hash", "commitment")}
                         for e in body["events"]]
        out["receipt"] = sorted(body["receipt"]) if body.get("receipt") else None
    return out


def test_every_request_shape_gets_one_answer_whatever_rides_along(client):
    app, c = client
    handler = app.asgi_handler  # behind the public edges (service.edges: metrics, limits, traces)
    while not isinstance(handler, CommandPath) and hasattr(handler, "app"):
        handler = handler.app
    assert isinstance(handler, CommandPath)
    games = [_game(c) for _ in range(1 + len(ALONG))]
    v = games[0]["version"]
    assert {g["version"] for g in games} == {v}
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
        for game, query in zip(games, ("", *ALONG)):
            token = {"bad": "x" * 32, "basic": None, None: None}.get(seat, game["seats"].get(seat or "", ""))
            kw = dict(extra)
            if seat == "basic":
                kw["headers"] = {**kw.get("headers", {}), "Authorization": "Basic abc"}
            shapes.append(_shape(_post(c, game["game_id"], body, token, query, **kw), game["game_id"]))
        assert all(shape == shapes[0] for shape in shapes), (what, shapes)
        assert shapes[0]["status"] in (201, 400, 401, 403, 409, 413, 415, 422), (what, shapes[0])
    # an unknown game: 404 first, whatever the token
    for query in ("", *ALONG):
        r = _post(c, "no-such-game", {"command": {"type": "step"}, "expected_version": 1}, "x" * 32, query)
        assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json"), r.text
    # every game went the same way: three commands stored on each (the retry stored nothing), nothing else
    versions = [c.get(f"/games/{g['game_id']}").json()["version"] for g in games]
    assert versions == [v + 3] * len(games), versions


def test_no_request_to_the_commands_endpoint_reaches_litestars_router(client):
    app, c = client
    path = app.asgi_handler  # behind the public edges (service.edges: metrics, limits, traces)
    while not isinstance(path, CommandPath):
        path = path.app
    seen: list[str] = []
    inner = path.app

    async def counting(scope, receive, send):
        if scope["type"] == "http":
            seen.append(f"{scope['method']} {scope['path']}?{scope.get('query_string', b'').decode()}")
        await inner(scope, receive, send)

    path.app = counting
    try:
        g = _game(c)
        gid, north, v = g["game_id"], g["seats"]["north"], g["version"]
        seen.clear()
        step = {"command": {"type": "step"}, "expected_version": v}
        end = {"command": {"type": "end_turn"}, "expected_version": v + 1}
        shapes = [("", step, north), ("?dry_run=true", end, north), ("?dry_run=TRUE&lang=uk", end, north),
                  ("?dry_run=maybe", end, north), ("?dry_run", end, north), ("/", end, "x" * 32),
                  ("?dry_run=true", b"{not json", north), ("?dry_run=true", end, None), ("", b"{not json", None)]
        answers = [_post(c, gid, body, token, query) for query, body, token in shapes]
        assert [r.status_code for r in answers] == [201, 200, 200, 400, 400, 401, 400, 401, 401], \
            [r.text for r in answers]
        assert answers[1].json()["legal"] is True and answers[2].json()["legal"] is True
        assert [r.json().get("field") for r in answers[3:5]] == ["dry_run", "dry_run"]
        r = _post(c, "no-such-game", step, north, "?dry_run=true")
        assert r.status_code == 404, r.text
        assert seen == []  # every one answered at the door, none by the declared route
        assert c.get(f"/games/{gid}").json()["version"] == v + 1  # the dry runs stored nothing
        assert seen == [f"GET /games/{gid}?"]  # the other routes go through the router
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
        for query in ("", *ALONG):
            r = _post(c, g["game_id"], {"command": {"type": "step"}, "expected_version": g["version"]},
                      g["seats"]["north"], query)
            assert r.status_code == 503 and r.headers["content-type"].startswith("application/problem+json"), r.text
            assert str(tmp_path) not in r.text and "read-only" in r.json()["detail"], r.text
            shapes.append(r.json())
        assert all(shape == shapes[0] for shape in shapes)
        assert c.get(f"/games/{g['game_id']}").json()["version"] == g["version"]  # nothing written


def test_the_stores_committer_thread_ends_with_the_app(tmp_path, redis_url, redis_client):
    register()
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    store = app.state["games"].store
    store.commit_on_loop = False  # every commit on the committer thread (not only the commit bus's announcements)
    with TestClient(app) as c:
        g = _game(c)
        r = _post(c, g["game_id"], {"command": {"type": "step"}, "expected_version": g["version"]}, g["seats"]["north"])
        assert r.status_code == 201, r.text
        committer = store._committer.thread  # the command's commit ran there (the command itself on the loop)
        assert committer is not None and committer.name == "umpire-commit" and committer.is_alive()
    assert store._committer.thread is None
    committer.join(5)  # told to end on the app's shutdown
    assert not committer.is_alive()


# -- a player who wants to win unfairly, against the command path on the event loop ----------------------
def _raw_post_and_hang_up(url: str, gid: str, token: str, body: dict) -> None:
    """Send a whole command request on a raw socket and close it at once, before any answer."""
    import socket
    from urllib.parse import urlsplit

    u = urlsplit(url)
    data = json.dumps(body).encode()
    head = (f"POST /games/{gid}/commands HTTP/1.1\r\nHost: {u.hostname}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n").encode()
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        s.sendall(head + data)


def test_a_cheater_racing_the_command_path_gets_one_roll_and_no_5xx(tmp_path, redis_url):
    """One seat fires the same roll (one command_id) 16 times at once, 8 rolls with other ids at the same
    version, the other seat's token and a made-up one; then hangs up right after sending a roll and retries
    it. Exactly one roll is stored per decision and every answer that carries it is the same; no second
    outcome, no acting for another seat, no 5xx."""
    import threading

    import httpx

    from .api_client import Server

    srv = Server(str(tmp_path / "data"), redis_url).wait()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
            gid, seats, v = g["game_id"], g["seats"], g["version"]
            first = c.get(f"/games/{gid}").json()["to_act"][0]
            second = next(s for s in seats if s != first)
            tries = ([(seats[first], "r1")] * 16 + [(seats[first], f"x{i}") for i in range(8)]
                     + [(seats[second], "s1")] * 4 + [("not-a-token", "z1")] * 4)
            answers: list[tuple[str, int, dict]] = []
            go = threading.Barrier(len(tries))

            def send(token: str, cid: str) -> None:
                with httpx.Client(base_url=srv.url, timeout=30) as mine:
                    go.wait()
                    r = mine.post(f"/games/{gid}/commands", headers={"Authorization": f"Bearer {token}"},
                                  json={"command": {"type": "roll"}, "expected_version": v, "command_id": cid})
                    answers.append((cid, r.status_code, r.json()))

            threads = [threading.Thread(target=send, args=t) for t in tries]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert len(answers) == len(tries)
            assert all(status < 500 for _, status, _ in answers), answers
            won = {cid for cid, status, _ in answers if status == 201}
            assert len(won) == 1, won  # one command id got the roll; every other was a stale version
            stored = [body["events"] for _, status, body in answers if status == 201]
            assert all(ev == stored[0] for ev in stored)  # its retries answer the same roll
            assert {status for cid, status, _ in answers if cid not in won and cid[0] in "rx"} == {409}
            # the other seat: not its decision (403), or a stale version once the roll is in (409; DESIGN 8's order)
            assert {status for cid, status, _ in answers if cid == "s1"} <= {403, 409}
            assert {status for cid, status, _ in answers if cid == "z1"} == {401}
            log = c.get(f"/games/{gid}/events", params={"after": v}).json()["events"]
            assert [e["type"] for e in log].count("rolled") == 1

            # the other seat's turn: it hangs up right after sending its roll, then retries the same command id
            cur = c.get(f"/games/{gid}").json()
            while cur["to_act"] != [second]:
                r = c.post(f"/games/{gid}/commands", headers={"Authorization": f"Bearer {seats[first]}"},
                           json={"command": {"type": "end_turn"}, "expected_version": cur["version"]})
                assert r.status_code == 201, r.text
                cur = c.get(f"/games/{gid}").json()
            body = {"command": {"type": "roll"}, "expected_version": cur["version"], "command_id": "h1"}
            _raw_post_and_hang_up(srv.url, gid, seats[second], body)
            retries = [c.post(f"/games/{gid}/commands", headers={"Authorization": f"Bearer {seats[second]}"},
                              json=body) for _ in range(3)]
            assert [r.status_code for r in retries] == [201] * 3, [r.text for r in retries]
            assert retries[0].json()["events"] == retries[1].json()["events"] == retries[2].json()["events"]
            log = c.get(f"/games/{gid}/events", params={"after": cur["version"]}).json()["events"]
            assert [(e["type"], e["actor"]) for e in log].count(("rolled", second)) == 1
    finally:
        srv.stop()
