"""A bounded timeline in Redis (projections/timeline_window.py): Redis keeps a game's newest entries only,
counts the trimmed ones, and ``GET /games/{id}/timeline`` (service.queries.timeline) still answers every
entry, the older ones from the log, equal to the log's own timeline, undone flags included (undos reach back
across the window's edge in these games)."""
from __future__ import annotations

from projections import ReadModels
from projections.keys import GameKeys
from service import queries
from service.game_service import GameService

from .helpers import js, log_timeline
from .tally import new_game

KEEP = 16


def test_redis_holds_the_newest_entries_and_the_timeline_is_whole(redis_client, store):
    rm = ReadModels(redis_client, store, timeline_keep=KEEP)
    svc = GameService(store, rm)
    s = new_game(store, "g1", seed=7)
    rm.project("g1")
    undos = 0
    for i in range(150):
        s.command()
        assert rm.project("g1") == s.version
        want = log_timeline(store, "g1")
        tail = rm.timeline_tail("g1")
        assert tail is not None and tail.base + len(tail.entries) == s.version
        assert len(tail.entries) == min(KEEP, s.version)
        assert redis_client.llen(GameKeys("g1").timeline) <= KEEP  # bounded, whatever the game's length
        assert [js(e) for e in tail.entries] == want[tail.base:]
        if i % 10 == 0 or i > 140:
            body = queries.timeline(svc, rm, "g1").body
            assert body["version"] == s.version and [js(e) for e in body["steps"]] == want
        undos = sum(1 for e in want if e.get("undone"))
    assert undos > 0, "the seeded game has undone steps (the flags are compared above)"
    assert rm.timeline("g1") is None  # the whole list is not in Redis: the log answers the rest


def test_a_short_game_is_whole_in_redis(redis_client, store):
    rm = ReadModels(redis_client, store, timeline_keep=KEEP)
    new_game(store, "g2", seed=2, events=KEEP - 3)
    rm.project("g2")
    tail = rm.timeline_tail("g2")
    assert tail.base == 0 and rm.timeline("g2") == log_timeline(store, "g2")
