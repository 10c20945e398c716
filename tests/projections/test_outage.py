"""Redis killed (SIGKILL) in the middle of a game (DESIGN section 7): commands
go on being stored, the models answer None meanwhile (the service answers from
the log), and once Redis is back the models catch up by themselves: every
stored event is in them and the views equal the fold of the log."""
from __future__ import annotations

import asyncio

import pytest
import redis

from projections import CatchUp, ReadModels

from .conftest import quick_client
from .helpers import log_lobby, log_timeline, log_views
from .tally import new_game

DEADLINE_S = 30.0


def _caught_up(rm: ReadModels, store) -> bool:
    for g in store.games():
        if rm.last_seq(g.game_id) != g.version:
            return False
        for seat, body in log_views(store, g.game_id).items():
            if rm.game_view(g.game_id, seat) != body:
                return False
        if rm.timeline(g.game_id) != log_timeline(store, g.game_id):
            return False
    return rm.lobby() == log_lobby(store)


async def _poll(pred, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE_S
    while not pred():
        assert loop.time() < deadline, f"not within {DEADLINE_S:.0f} s: {what}"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("comes_back", ["empty", "with-a-stale-snapshot"])
def test_sigkill_mid_game_then_restart_catches_up(private_redis, store, comes_back):
    client = quick_client(private_redis.url)
    rm = ReadModels(client, store)
    game = new_game(store, "g1", seed=21)
    new_game(store, "g2", seed=22, events=40)  # a game nobody touches during the outage

    def command() -> list[int]:
        """What the service does: store the command, then project (errors swallowed)."""
        seqs = game.command()
        try:
            rm.project("g1")
        except redis.RedisError:
            return seqs
        return seqs

    async def main() -> None:
        catch_up = CatchUp(rm, interval=0.05)
        catch_up.start()
        for _ in range(50):
            command()
        await _poll(lambda: _caught_up(rm, store), "models equal the log before the outage")
        saved = None
        if comes_back == "with-a-stale-snapshot":
            client.save()  # Redis restarts from this dump: models behind the log
            saved = game.version
            for _ in range(10):
                command()
        version_before = game.version
        private_redis.kill()

        failures_before = catch_up.failures
        accepted: list[int] = []
        for _ in range(60):
            accepted += command()  # the game goes on through the outage
        assert accepted == list(range(version_before + 1, game.version + 1))
        with pytest.raises(redis.ConnectionError):
            rm.project("g1")
        assert rm.game_view("g1", None) is None
        assert rm.timeline("g1") is None
        assert rm.lobby() is None
        assert rm.last_seq("g1") is None
        assert rm.state_at("g1", 3) is None
        assert rm.read_feed("g1", 0) is None
        await _poll(lambda: catch_up.failures > failures_before, "the catch-up task saw the outage")

        await catch_up.stop()
        private_redis.restart()
        assert rm.last_seq("g1") == saved  # the premise: empty, or the stale dump
        assert rm.game_view("g1", None) is None  # behind the log: answered from the log
        catch_up.start()
        await _poll(lambda: _caught_up(rm, store), "models equal the log after the restart")
        # every stored event is in the models: the timeline and the feed hold every seq
        assert [e["seq"] for e in rm.timeline("g1")] == list(range(1, game.version + 1))
        feed = rm.read_feed("g1", 0)
        assert [seq for seq, _ in feed] == list(range(1, game.version + 1))
        await _poll(lambda: catch_up.last_error is None, "the catch-up task reports Redis back")
        await catch_up.stop()
        assert not catch_up.running

    asyncio.run(main())
    client.close()


def test_flushall_under_a_running_service_is_repaired_by_the_catch_up(redis_client, store):
    rm = ReadModels(redis_client, store)
    game = new_game(store, "g1", seed=23, events=80)

    async def main() -> None:
        catch_up = CatchUp(rm, interval=0.05)
        catch_up.start()
        await _poll(lambda: _caught_up(rm, store), "first catch-up")
        redis_client.flushall()
        assert rm.lobby() is None  # wiped: not ready, so not answered as if empty
        assert rm.game_view("g1", None) is None
        game.command()
        rm.project("g1")  # re-opens the game's models from seq 0
        await _poll(lambda: _caught_up(rm, store), "catch-up after FLUSHALL")
        await catch_up.stop()

    asyncio.run(main())
