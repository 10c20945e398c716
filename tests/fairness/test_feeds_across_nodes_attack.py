"""Live feeds on one node, commands on another: what the commit bus carries between processes (DESIGN 7, 11).

A feed learns of another process's commits over Redis pub/sub (service/commit_bus.py) and reads them from the
shared store itself; what it sends must be what its own caller may see, as on one process. The cheater keeps
feeds open on node B -- as north, as a spectator, with south's first token (the creator handed south over), and
one resumed past the version -- while everything happens on node A: private draws of both seats, a roll undone
by consent, south's token rotated by its new holder, who then draws. Each feed must show exactly what the same
caller's ``GET /events`` shows on B, no card of another hand, and the rotated-out token's feed must end at the
rotation without the new holder's card (UMPIRE-SEAT-4, on any node).

Two real ``uvicorn`` processes of the app (the toy ruleset) on one SQLite file, and two nodes on one real
PostgreSQL (the ``two_nodes`` fixture), sharing a real Redis.
"""
from __future__ import annotations

import time

import httpx

from .test_attacks_across_features import Feed
from .test_feed_resume_attack import _auth, _send


def _drawn(answer: dict) -> str:
    cards = [e["payload"]["card"] for e in answer["events"] if e["type"] == "card_drawn"]
    assert len(cards) == 1 and cards[0], answer
    return cards[0]


def _events(feed: Feed) -> list[dict]:
    return [m["data"] for m in feed.join() if m["event"] == "event"]


def _as_sent(listed: list[dict]) -> list[dict]:
    """A listing read after the fact as a live feed sent it: an event is sent when committed, before an undo
    took it back (the feed then sends the ``undone`` event; the listing marks the event itself)."""
    return [{k: v for k, v in e.items() if k != "undone"} for e in listed]


def test_feeds_on_one_node_show_only_their_callers_share_of_commits_made_on_another(two_nodes):
    a, b = two_nodes
    with httpx.Client(base_url=a.url, timeout=30) as ca, httpx.Client(base_url=b.url, timeout=30) as cb:
        g = ca.post("/games", json={"ruleset": "toy", "scenario": "duel"}).json()
        gid, t, v0 = g["game_id"], g["seats"], g["version"]
        old_south = t["south"]
        feeds = {"north": Feed(b.url, gid, t["north"], v0, idle=8.0),
                 "old south": Feed(b.url, gid, old_south, v0, idle=8.0),
                 "spectator": Feed(b.url, gid, None, v0, idle=8.0),
                 "spectator ahead": Feed(b.url, gid, None, v0 + 3, idle=8.0)}
        time.sleep(0.5)  # the feeds follow the game's channel on B (what came before is read from the store anyway)

        # on node A: north draws and rolls; the roll is undone by south's consent; north draws again
        north_cards = [_drawn(_send(ca, gid, t["north"], {"type": "draw"}))]
        before_roll = ca.get(f"/games/{gid}").json()["version"]
        _send(ca, gid, t["north"], {"type": "roll"})
        asked = ca.post(f"/games/{gid}/undo", json={"to_version": before_roll}, headers=_auth(t["north"]))
        assert asked.status_code == 202, asked.text
        agreed = ca.post(f"/games/{gid}/undo/accept", headers=_auth(old_south),
                         json={"expected_version": asked.json()["version"]})
        assert agreed.status_code == 201, agreed.text
        north_cards.append(_drawn(_send(ca, gid, t["north"], {"type": "draw"})))
        _send(ca, gid, t["north"], {"type": "end_turn"})
        # south (still the creator's token) draws; then south's new holder rotates the token and draws
        south_before = _drawn(_send(ca, gid, old_south, {"type": "draw"}))
        rot = ca.post(f"/games/{gid}/seats/south/rotate", headers=_auth(old_south))
        assert rot.status_code == 201, rot.text
        new_south = rot.json()["token"]
        south_after = _drawn(_send(ca, gid, new_south, {"type": "draw"}))
        _send(ca, gid, new_south, {"type": "end_turn"})
        north_cards.append(_drawn(_send(ca, gid, t["north"], {"type": "draw"})))

        listed = {who: cb.get(f"/games/{gid}/events", params={"after": v0, "limit": 1000}, headers=_auth(tok))
                  .json()["events"] for who, tok in (("north", t["north"]), ("spectator", None))}
        rotated_at = next(e["seq"] for e in listed["spectator"] if e["type"] == "seat_rotated")

    got = {who: _events(f) for who, f in feeds.items()}
    # the cards are where the checks below can see them: north's feed shows north's own draws
    assert all(card in feeds["north"].text for card in north_cards)
    assert south_before in feeds["old south"].text
    # every feed on B is its caller's listing on B, whatever node committed the events
    assert any(e["undone"] for e in listed["spectator"])  # the roll, as the listing says it now
    assert _as_sent(got["north"]) == _as_sent(listed["north"])
    assert _as_sent(got["spectator"]) == _as_sent(listed["spectator"])
    assert _as_sent(got["spectator ahead"]) == _as_sent(listed["spectator"][3:])
    # no card of another hand reaches a feed
    for who in ("north", "spectator", "spectator ahead"):
        for card in (south_before, south_after):
            assert card not in feeds[who].text, (who, card)
    for who in ("spectator", "spectator ahead", "old south"):
        for card in north_cards:
            assert card not in feeds[who].text, (who, card)
    # the rotated-out token's feed ends at the rotation: nothing after it, not the new holder's card
    old = got["old south"]
    assert old and old[-1]["seq"] == rotated_at and south_after not in feeds["old south"].text
    assert feeds["old south"].closed_by_server, "the rotated-out token's feed on node B stayed open"
