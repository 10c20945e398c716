"""GET /games/{id}/feed: server-sent events of what the caller may see (bounded with ?limit=)."""
from __future__ import annotations

import json
import threading

import httpx

from .api_client import SEED, Api, Server, api, sse_blocks  # noqa: F401


def _parse(text: str) -> list[dict]:
    return [{"id": int(f["id"]), "event": f.get("event"), "data": json.loads(f["data"])}
            for f in sse_blocks(text) if "data" in f]


def test_feed_replays_the_log_as_the_caller_may_see_it(api: Api):
    g = api.create()
    gid, t = g["game_id"], g["seats"]
    api.ok(gid, t["north"], {"type": "draw"})
    with api.client.stream("GET", f"/games/{gid}/feed", params={"after": 0, "limit": 6},
                           headers=api.auth(t["south"])) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        msgs = _parse("".join(r.iter_text()))
    assert [m["id"] for m in msgs] == [1, 2, 3, 4, 5, 6]
    assert all(m["event"] == "event" for m in msgs)
    by_seq = {m["id"]: m["data"] for m in msgs}
    assert by_seq[1]["type"] == "game_created"
    assert by_seq[4]["payload"]["redacted"] is True and "cards" not in by_seq[4]["payload"]  # north's hand
    assert by_seq[5]["payload"]["cards"]  # south's own hand
    assert by_seq[6]["type"] == "card_drawn" and "card" not in by_seq[6]["payload"]
    # Last-Event-ID resumes after that seq; ?token= works where headers cannot be set
    with api.client.stream("GET", f"/games/{gid}/feed", params={"limit": 1, "token": t["north"]},
                           headers={"Last-Event-ID": "5"}) as r:
        [m] = _parse("".join(r.iter_text()))
    assert m["id"] == 6 and m["data"]["payload"]["card"].startswith("N")


def test_feed_delivers_a_new_event_live(tmp_path, redis_url):
    srv = Server(str(tmp_path / "data"), redis_url).wait()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
            gid, v = g["game_id"], g["version"]
            got: list[str] = []
            opened = threading.Event()

            def listen() -> None:
                with httpx.Client(base_url=srv.url, timeout=30) as lc:
                    with lc.stream("GET", f"/games/{gid}/feed", params={"after": v, "limit": 1}) as r:
                        opened.set()
                        got.append("".join(r.iter_text()))

            th = threading.Thread(target=listen)
            th.start()
            assert opened.wait(30)
            r = c.post(f"/games/{gid}/commands", json={"command": {"type": "step"}, "expected_version": v},
                       headers={"Authorization": f"Bearer {g['seats']['north']}"})
            assert r.status_code == 201
            th.join(30)
        [m] = _parse(got[0])
        assert m["id"] == v + 1 and m["data"]["type"] == "stepped"
    finally:
        srv.stop()
