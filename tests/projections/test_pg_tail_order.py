"""On PostgreSQL an event's position (``gpos``) is taken at insert, not at commit: a command of game ``a`` holding
position 100 may commit after one of game ``b`` holding 101. The log's tail (``iter_all``), ``last_position`` and
so the projector's resume checkpoint must never step over the position still in flight
(:mod:`service.store.visibility`). Real PostgreSQL (the embedded server), real Redis, the tally test ruleset."""
from __future__ import annotations

import threading
import time

import psycopg
import pytest

from projections import ReadModels
from projections.projector import tail
from projections.resume import PROJECTED_UPTO

from .tally import Script, new_game

pytestmark = pytest.mark.usefixtures("pg_server")


@pytest.fixture
def pg(pg_server, tmp_path):
    from service.store.postgres import PgEventStore

    url = pg_server.new_database()
    store = PgEventStore(url, data_dir=tmp_path / "node")
    store.gap_wait_s = 0.1
    try:
        yield url, store
    finally:
        store.close()


class InFlight:
    """One command of ``game`` held between its insert of events (its positions taken) and its commit: a
    second connection holds the game's row lock, which the append's ``UPDATE games`` then waits for."""

    def __init__(self, url: str, script: Script):
        self.url, self.script = url, script
        self.holder = psycopg.connect(url)
        self.holder.execute("SELECT 1 FROM games WHERE game_id = %s FOR UPDATE", (script.game_id,))
        self.thread = threading.Thread(target=script.play, args=(script.version + 1,), daemon=True)

    def __enter__(self) -> InFlight:
        self.thread.start()
        with psycopg.connect(self.url, autocommit=True) as watch:
            for _ in range(400):
                row = watch.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                    "AND query LIKE 'UPDATE games%%'").fetchone()
                if row[0]:
                    return self
                time.sleep(0.025)
        raise AssertionError("the append did not reach its insert")

    def release(self) -> None:
        self.holder.rollback()
        self.thread.join(10)
        assert not self.thread.is_alive()

    def __exit__(self, *exc) -> None:
        if self.thread.is_alive():
            self.release()
        self.holder.close()


def test_the_tail_waits_for_a_position_still_in_flight_and_then_reads_it_in_order(pg):
    url, store = pg
    a, b = new_game(store, "a", seed=1, events=3), new_game(store, "b", seed=2, events=3)
    start = store.last_position()
    with InFlight(url, a) as held:
        b.play(b.version + 2)  # commits positions above the one ``a`` holds
        assert store.count_events(start) > 0  # b's events are visible ...
        assert list(store.iter_all(after_rowid=start)) == []  # ... and not read past a's position in flight
        assert store.last_position() == start  # where a tail would start: not past it either
        held.release()
    read = list(store.iter_all(after_rowid=start))
    positions = [pos for pos, _ in read]
    assert positions == sorted(positions) and len(read) == store.count_events(start)
    assert read[0][1].game_id == "a" and {ev.game_id for _, ev in read} == {"a", "b"}
    assert store.last_position() == positions[-1]


def test_a_position_rolled_back_is_passed_once_the_transactions_of_then_have_ended(pg):
    url, store = pg
    new_game(store, "a", seed=1, events=2)
    b = new_game(store, "b", seed=2, events=2)
    start = store.last_position()
    conn = psycopg.connect(url)  # a writer that takes a position, then rolls back (as a version conflict does)
    conn.execute("SELECT pg_current_xact_id()")
    conn.execute("INSERT INTO events (game_id, seq, type, payload, visibility, engine_version, recorded_at, rolls, "
                 "reveals, turn, prev_hash, hash) SELECT game_id, 99, type, payload, visibility, engine_version, "
                 "recorded_at, rolls, reveals, turn, prev_hash, hash FROM events WHERE game_id = 'a' AND seq = 1")
    b.play(b.version + 1)
    assert list(store.iter_all(after_rowid=start)) == []
    conn.rollback()
    conn.close()
    read = list(store.iter_all(after_rowid=start))
    assert [ev.game_id for _, ev in read] == ["b"] * store.count_events(start)


def _tail_until(rm, store, until, seconds=20.0) -> bool:
    stop = threading.Event()
    t = threading.Thread(target=tail, args=(rm, store, stop), kwargs={"poll": 0.01}, daemon=True)
    t.start()
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not until():
            time.sleep(0.05)
        return until()
    finally:
        stop.set()
        t.join(10)


def test_the_resume_checkpoint_never_passes_an_event_committed_out_of_order(pg, redis_client):
    url, store = pg
    a, b = new_game(store, "a", seed=1, events=4), new_game(store, "b", seed=2, events=4)
    rm = ReadModels(redis_client, store)
    assert _tail_until(rm, store, lambda: redis_client.get(PROJECTED_UPTO) is not None)
    with InFlight(url, a) as held:
        b.play(b.version + 3)
        time.sleep(0.3)
        # the projector stops (a restart) while a's command is still in flight, b's already committed
        _tail_until(rm, store, lambda: False, seconds=1.0)
        checkpoint = int(redis_client.get(PROJECTED_UPTO))
        held.release()
    first_of_a = min(pos for pos, ev in store.iter_all(after_rowid=0) if ev.game_id == "a" and ev.seq > 4)
    assert checkpoint < first_of_a  # the checkpoint stays below the position that was in flight
    rm2 = ReadModels(redis_client, store)  # the restart: resumes at the checkpoint, no catch-up of every game
    assert _tail_until(rm2, store, lambda: int(redis_client.get(PROJECTED_UPTO)) == store.last_position())
    assert rm2.game_view("a", None)["version"] == store.version("a") == a.version
    assert rm2.game_view("b", None)["version"] == store.version("b") == b.version
