"""Property tests (DESIGN section 10) against a real Redis and a real SQLite file:
for any seeded game and any delivery order with redelivery, the models equal
those of an in-order projection, and replay to any seq equals the fold of the prefix."""
from __future__ import annotations

import random
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import ReadModels
from service.store import EventStore

from .helpers import dump, log_state
from .tally import new_game


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(game_seed=st.integers(0, 10_000), events=st.integers(1, 150), order_seed=st.integers(0, 10_000),
       probe=st.integers(0, 10_000))
def test_any_delivery_order_gives_the_in_order_models(redis_client, game_seed, events, order_seed, probe):
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(tmp)
        try:
            new_game(store, "p", seed=game_seed, events=events, per_append=5)
            log = store.load("p")
            redis_client.flushall()
            rm = ReadModels(redis_client, store)
            for ev in log:
                rm.apply_event(ev)
            in_order = dump(redis_client)

            redis_client.flushall()
            rng = random.Random(order_seed)
            deliveries = [ev for ev in log for _ in range(rng.randint(1, 2))]
            rng.shuffle(deliveries)
            rm = ReadModels(redis_client, store)
            for ev in deliveries:
                rm.apply_event(ev)
            assert dump(redis_client) == in_order

            seq = probe % (len(log) + 1)
            assert ReadModels(redis_client, store).state_at("p", seq) == log_state(store, "p", upto=seq)
        finally:
            store.close()
