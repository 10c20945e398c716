"""The feeds' keep-alives come from one clock of the hub (service/feed_hub.py), spread over the period:
many feeds opened at once do not all fall due together (a burst that held up the commands of the process),
each feed still gets one every period, and nothing is read from the store for them."""
from __future__ import annotations

import asyncio
import math

from service import feed_hub
from service.feed_hub import KEEPALIVE, FeedHub
from service.game_service import CreateGameRequest, GameService
from service.store import EventStore

from .toy_ruleset import register

SEED = "0f" * 32


def test_keepalives_are_spread_over_the_period_one_per_feed(tmp_path, monkeypatch):
    register()
    monkeypatch.setattr(feed_hub, "KEEPALIVE_EVERY", 1.0)  # a short period for the test: 20 slots of 0.05 s
    monkeypatch.setattr(feed_hub, "KEEPALIVE_TICK", 0.05)
    store = EventStore(tmp_path / "data")
    gid = GameService(store, None).create_game(CreateGameRequest(ruleset="toy", scenario="duel", seed=SEED))["game_id"]
    feeds, slots = 200, 20

    async def run() -> tuple[list[int], list[int], int]:
        hub = FeedHub(store)
        subs = [(await hub.subscribe(gid))[0] for _ in range(feeds)]  # opened at once
        reads = hub.reads
        got: list[int] = [0] * feeds
        per_tick: list[int] = []

        loop = asyncio.get_running_loop()
        end = loop.time() + 2.0  # two periods
        while loop.time() < end:
            await asyncio.sleep(0.05)
            n = 0
            for i, sub in enumerate(subs):
                while not sub.queue.empty():
                    assert sub.queue.get_nowait() is KEEPALIVE
                    got[i] += 1
                    n += 1
            per_tick.append(n)
        for sub in subs:
            hub.unsubscribe(sub)
        return got, per_tick, hub.reads - reads

    got, per_tick, reads = asyncio.run(run())
    assert reads == 0  # keep-alives read nothing
    assert all(1 <= n <= 3 for n in got), got  # about one per feed per period (two periods, ticks may drift)
    # never more than a few slots' worth at once (all 200 at once before)
    assert max(per_tick) <= 3 * math.ceil(feeds / slots), per_tick
    store.close()
