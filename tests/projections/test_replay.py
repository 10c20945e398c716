"""Replay (DESIGN sections 5 and 10): in a long game (thousands of events, with
undos) the state after every seq, served from a snapshot plus a short fold,
equals the fold of the log's prefix."""
from __future__ import annotations

import msgspec

from domain.kernel import Setup, fold
from domain.kernel.fold import decode_event
from domain.kernel.undo import Undone
from projections import SNAPSHOT_EVERY, ReadModels
from projections.keys import GameKeys
from projections.snapshots import SNAPSHOTS_MAX, SNAPSHOTS_MIN

from .helpers import prefix_states
from .tally import RULESET, new_game

LONG_GAME = 3000


def test_state_at_every_seq_of_a_long_game_equals_the_fold_of_the_prefix(redis_client, store):
    game = new_game(store, "long", seed=41, events=LONG_GAME, per_append=20)
    rm = ReadModels(redis_client, store, thin_snapshots=False)
    rm.project("long")
    want = prefix_states(store, "long")
    setup = msgspec.json.decode(store.require_game("long").setup, type=Setup)
    pairs = [(e.seq, decode_event(RULESET, e.payload)) for e in store.load("long")]
    # the reference is the fold: check it against a direct fold of the prefix in windows
    for seq in [*range(0, 60), *range(1450, 1520), *range(game.version - 40, game.version + 1)]:
        assert want[seq] == fold(RULESET, setup, pairs[:seq]), seq
    # the premise: snapshots every SNAPSHOT_EVERY events and at turn boundaries,
    # and undos whose range reaches back across a snapshot
    snaps = [int(s) for s in redis_client.zrange(GameKeys("long").snaps, 0, -1)]
    assert set(range(SNAPSHOT_EVERY, game.version + 1, SNAPSHOT_EVERY)) <= set(snaps)
    boundaries = {e.seq for prev, e in zip(store.load("long"), store.load("long")[1:]) if e.turn != prev.turn}
    assert boundaries <= set(snaps) and len(boundaries) > 100
    crossing = [ev for _, ev in pairs if isinstance(ev, Undone) and any(ev.first <= s <= ev.last for s in snaps)]
    assert crossing, "no undo reaches back across a snapshot"

    fresh = ReadModels(redis_client, store)  # no in-memory state: snapshots only
    for seq in range(0, game.version + 1):
        assert fresh.state_at("long", seq) == want[seq], seq

    # the same game projected with snapshots thinned by cost (the default): a bounded number of them,
    # spread over the game, and still every state right
    redis_client.flushall()
    ReadModels(redis_client, store).project("long")
    snaps = [int(s) for s in redis_client.zrange(GameKeys("long").snaps, 0, -1)]
    assert SNAPSHOTS_MIN <= len(snaps) <= SNAPSHOTS_MAX and max(snaps) > game.version - 2 * SNAPSHOT_EVERY
    assert min(snaps) < game.version // 4
    fresh = ReadModels(redis_client, store)
    for seq in range(0, game.version + 1):
        assert fresh.state_at("long", seq) == want[seq], seq


def test_a_snapshot_decodes_to_the_state_it_encoded(redis_client, store):
    new_game(store, "g", seed=42, events=200)
    rm = ReadModels(redis_client, store)
    rm.project("g")
    k = GameKeys("g")
    for s in redis_client.zrange(k.snaps, 0, -1)[:10]:
        data = redis_client.hget(k.snapdata, s)
        assert msgspec.json.decode(data, type=RULESET.state_type) == rm.state_at("g", int(s))
