"""The pushed feed resumed from forged places (``Last-Event-ID``, ``?after=``), as the other seat or a watcher who
wants a card the feed must not show it.

A feed resumes by the ``id`` of the last event its client got; the client chooses that id. The cheater resumes
from every seq of the game -- the opening's deal, the middle of a command, an undone roll, the version itself, past
the version -- by the header and by ``?after=`` (with both at once the header counts), with its token in the
header and in ``?token=``, while another feed of the game is open (the process's hub then knows the game already,
service/feed_hub.py) and while none is. Each resumed feed must show exactly what ``GET /events?after=`` shows the
same caller (which the adversarial battery vets), never a card of another hand. A feed resumed past the version
waits and then shows only what comes, as its caller may see it.

Real ``uvicorn`` process of the app (the toy ruleset: private draws, dice) on a real SQLite file and a real Redis.
"""
from __future__ import annotations

import json

import httpx

from tests.service.api_client import SEED, sse_blocks

from .test_attacks_across_features import Feed


def _auth(tok: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"} if tok else {}


def _send(c: httpx.Client, gid: str, tok: str, command: dict) -> dict:
    v = c.get(f"/games/{gid}").json()["version"]
    r = c.post(f"/games/{gid}/commands", json={"command": command, "expected_version": v}, headers=_auth(tok))
    assert r.status_code == 201, r.text
    return r.json()


def _feed(c: httpx.Client, gid: str, n: int, headers: dict[str, str], params: dict) -> list[dict]:
    """A resumed feed's first ``n`` events (it closes after them)."""
    r = c.get(f"/games/{gid}/feed", headers=headers, params={**params, "limit": n})
    assert r.status_code == 200, r.text
    return [json.loads(f["data"]) for f in sse_blocks(r.text) if f.get("event") == "event"]


def _cards(entries: list[dict]) -> set[str]:
    """The toy's cards named anywhere in ``entries`` (N1..N8, S1..S8)."""
    text = json.dumps(entries)
    return {f"{p}{i}" for p in "NS" for i in range(1, 9) if f'"{p}{i}"' in text}


def _game(c: httpx.Client) -> tuple[str, dict[str, str]]:
    """A toy game with private draws of both seats, a roll undone by agreement, and more draws after it."""
    g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
    gid, t = g["game_id"], g["seats"]
    _send(c, gid, t["north"], {"type": "draw"})
    v = c.get(f"/games/{gid}").json()["version"]
    _send(c, gid, t["north"], {"type": "roll"})
    r = c.post(f"/games/{gid}/undo", json={"to_version": v}, headers=_auth(t["north"]))
    assert r.status_code == 202, r.text
    assert c.post(f"/games/{gid}/undo/accept", headers=_auth(t["south"]),
                  json={"expected_version": r.json()["version"]}).status_code == 201
    _send(c, gid, t["north"], {"type": "roll"})
    _send(c, gid, t["north"], {"type": "draw"})
    _send(c, gid, t["north"], {"type": "end_turn"})
    _send(c, gid, t["south"], {"type": "draw"})
    _send(c, gid, t["south"], {"type": "step"})
    return gid, t


def _resume_everywhere(c: httpx.Client, gid: str, t: dict[str, str]) -> int:
    version = c.get(f"/games/{gid}").json()["version"]
    #: who: (the feed's headers and query, the headers of the same caller's log listing: /events takes no ?token=)
    callers = {"north": (_auth(t["north"]), {}, _auth(t["north"])), "south": (_auth(t["south"]), {}, _auth(t["south"])),
               "south by ?token=": ({}, {"token": t["south"]}, _auth(t["south"])), "spectator": ({}, {}, {})}
    own = {seat: _cards(c.get(f"/games/{gid}/events", params={"limit": 1000}, headers=_auth(t[seat])).json()
                        ["events"]) for seat in ("north", "south")}
    assert {x for x in own["north"] if x.startswith("N")} and {x for x in own["south"] if x.startswith("S")}
    checked = 0
    for who, (headers, params, listing) in callers.items():
        for last in range(version):
            listed = c.get(f"/games/{gid}/events", params={"after": last, "limit": 1000},
                           headers=listing).json()["events"]
            for how in ("header", "after", "both"):
                h, q = dict(headers), dict(params)
                if how in ("header", "both"):
                    h["Last-Event-ID"] = str(last)
                if how == "after":
                    q["after"] = last
                if how == "both":  # the header counts: a forged ?after= beside it changes nothing
                    q["after"] = version
                got = _feed(c, gid, version - last, h, q)
                assert got == listed, (who, how, last)
                checked += 1
            if who in ("south", "south by ?token=", "spectator"):
                assert not {x for x in _cards(listed) if x.startswith("N")}, (who, last)
            if who in ("north", "spectator"):
                assert not {x for x in _cards(listed) if x.startswith("S")}, (who, last)
    return checked


def test_a_feed_resumed_from_any_place_shows_what_the_callers_log_listing_shows(server):
    with httpx.Client(base_url=server.url, timeout=30) as c:
        gid, t = _game(c)
        # no other feed open: each resumed feed loads the game into the hub itself
        assert _resume_everywhere(c, gid, t) > 0
        # another feed open meanwhile: the hub knows the game, the resumed feeds catch up from its knowledge
        watcher = Feed(server.url, gid, None, c.get(f"/games/{gid}").json()["version"], idle=8.0)
        assert _resume_everywhere(c, gid, t) > 0
        _send(c, gid, t["south"], {"type": "draw"})  # the watcher hears it (redacted)
    got = watcher.join()
    assert [m["data"]["type"] for m in got] == ["card_drawn"] and got[0]["data"]["payload"].get("card") is None


def test_a_feed_resumed_past_the_version_waits_and_shows_only_what_comes_as_its_caller_may_see_it(server):
    with httpx.Client(base_url=server.url, timeout=30) as c:
        gid, t = _game(c)
        version = c.get(f"/games/{gid}").json()["version"]
        # south's turn: south ends it, north draws twice; the feeds resume two and three past the version
        ahead = {(who, skip): Feed(server.url, gid, tok, version + skip, idle=8.0)
                 for who, tok in (("north", t["north"]), ("spectator", None)) for skip in (2, 3)}
        _send(c, gid, t["south"], {"type": "end_turn"})
        first = _send(c, gid, t["north"], {"type": "draw"})
        second = _send(c, gid, t["north"], {"type": "draw"})
        drawn = [e["payload"]["card"] for a in (first, second) for e in a["events"] if e["type"] == "card_drawn"]
        assert len(drawn) == 2 and all(x.startswith("N") for x in drawn)
        listed = {who: c.get(f"/games/{gid}/events", params={"after": version}, headers=_auth(tok)).json()["events"]
                  for who, tok in (("north", t["north"]), ("spectator", None))}
    for (who, skip), feed in ahead.items():
        got = [m["data"] for m in feed.join()]
        assert got == listed[who][skip:], (who, skip)
        if who == "spectator":
            assert not any(x in feed.text for x in drawn), skip
    # the north feeds show north's own card drawn after their place (the check can see a card)
    assert drawn[1] in ahead[("north", 2)].text
