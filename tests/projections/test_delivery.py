"""Idempotent, order-proof projection (DESIGN section 7): every event applied
twice, or delivered shuffled with redelivery, gives the same models as every
event applied once in order; the Lua guard itself ignores duplicates and
refuses gaps."""
from __future__ import annotations

import random

import pytest

from projections import ReadModels
from projections.keys import LOBBY_READY

from .helpers import dump, log_lobby, log_timeline, log_views
from .tally import create_game, new_game


def _games(store):
    new_game(store, "g1", seed=11, events=260, per_append=4)
    new_game(store, "g2", seed=12, events=140, win=True, per_append=4)
    create_game(store, "g3")


def _all_events(store):
    return [ev for g in store.games() for ev in store.load(g.game_id)]


def _in_order_dump(redis_client, store) -> dict:
    rm = ReadModels(redis_client, store)
    for ev in _all_events(store):
        rm.apply_event(ev)
    rm.project("g3")
    return dump(redis_client)


def _check_against_log(rm, store):
    rm.mark_ready()
    for g in store.games():
        for seat, body in log_views(store, g.game_id).items():
            assert rm.game_view(g.game_id, seat) == body
        tail = rm.timeline_tail(g.game_id)  # the newest entries (projections.timeline_window); the log the rest
        assert tail is not None and tail.entries == log_timeline(store, g.game_id)[tail.base:]
        assert tail.base + len(tail.entries) == g.version
    assert rm.lobby() == log_lobby(store)


def test_every_event_twice_changes_nothing(redis_client, store):
    _games(store)
    once = _in_order_dump(redis_client, store)
    redis_client.flushall()
    rm = ReadModels(redis_client, store)
    for ev in _all_events(store):
        rm.apply_event(ev)
        rm.apply_event(ev)
    rm.project("g3")
    assert dump(redis_client) == once
    # and a second full pass over the whole log changes nothing either
    rm2 = ReadModels(redis_client, store)  # no in-memory state: guards only
    for ev in _all_events(store):
        rm2.apply_event(ev)
    assert dump(redis_client) == once
    _check_against_log(rm2, store)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shuffled_delivery_with_redelivery_gives_the_same_models(redis_client, store, seed):
    _games(store)
    once = _in_order_dump(redis_client, store)
    redis_client.flushall()
    rng = random.Random(seed)
    deliveries = [ev for ev in _all_events(store) for _ in range(rng.randint(1, 3))]
    rng.shuffle(deliveries)
    rm = ReadModels(redis_client, store)
    for ev in deliveries:
        rm.apply_event(ev)
    rm.project("g3")
    assert dump(redis_client) == once
    _check_against_log(rm, store)


def test_two_projectors_racing_on_one_redis_agree(redis_client, store):
    """Two processes' projectors (separate in-memory states) interleaving: the
    guard lets exactly one write each seq; both compute the same bodies."""
    _games(store)
    once = _in_order_dump(redis_client, store)
    redis_client.flushall()
    a, b = ReadModels(redis_client, store), ReadModels(redis_client, store)
    rng = random.Random(5)
    for ev in _all_events(store):
        (a if rng.random() < 0.5 else b).apply_event(ev)
    a.project("g3")
    assert dump(redis_client) == once


def test_the_script_ignores_a_duplicate_and_refuses_a_gap(redis_client, store):
    new_game(store, "g1", seed=13, events=30)
    rm = ReadModels(redis_client, store)
    rm.project("g1", upto=20)
    game = rm._game("g1")
    before = dump(redis_client)
    state = rm.state_at("g1", 10)
    events = store.load("g1", after=9, upto=10)
    dup = rm._step(game, 10, state, events[-1], events[0].turn, ())
    gap = rm._step(game, 25, state, store.event("g1", 25), events[0].turn, ())
    assert redis_client.evalsha(rm._apply.sha, len(dup.keys), *dup.keys, *dup.args) == [0, 20]
    assert redis_client.evalsha(rm._apply.sha, len(gap.keys), *gap.keys, *gap.args) == [-1, 20]
    assert dump(redis_client) == before
    # delivering seq 25 backfills 21..24 from the log
    assert rm.apply_event(store.event("g1", 25)) == 25
    assert rm.last_seq("g1") == 25


def test_ready_marker_is_not_part_of_projection(redis_client, store):
    _games(store)
    once = _in_order_dump(redis_client, store)
    assert LOBBY_READY not in once


def test_damaged_models_are_detected_before_any_write_and_rebuilt(redis_client, store):
    s = new_game(store, "g1", seed=14, events=40)
    rm = ReadModels(redis_client, store)
    rm.project("g1")
    good = dump(redis_client)
    redis_client.rpop("{g:g1}:timeline")  # damage: the timeline lost its last entry
    game = rm._game("g1")
    step = rm._step(game, 41, rm.state_at("g1", 40), store.event("g1", 40), 0, ())
    damaged = dump(redis_client)
    assert redis_client.evalsha(rm._apply.sha, len(step.keys), *step.keys, *step.args) == [-2, 40]
    assert dump(redis_client) == damaged  # nothing written
    s.command()
    rm.project("g1")  # detects the damage, rebuilds the game's models from the log
    healed = dump(redis_client)
    assert healed != good and len(rm.timeline("g1")) == s.version
    redis_client.flushall()
    ReadModels(redis_client, store).project("g1")
    assert dump(redis_client) == healed  # the same as models projected from scratch
