"""The lobby costs the page, not the table: at 10,000 games the first and the next page of ``GET /games``
read a bounded number of rows from the store, in every serve mode (a projector process beside the
worker: the worker trusts the ready key the projector sets; a projector thread in the worker), and from
the log alone (an index in the lobby's order on both stores, migration 5)."""
from __future__ import annotations

import sqlite3
import threading
import time

import pytest
import redis
from litestar.testing import TestClient

from domain.kernel import registry
from ops.drills.populate import populate
from tests.rulesets.drill import RULESET
from projections import ReadModels
from projections.keys import LOBBY_READY
from projections.projector import tail
from service.app import create_app
from service.settings import Settings
from service.store import EventStore
from service.store.log_sql import GAME_SELECT
from tests.polling import until

from .counting_store import CountingStore

GAMES = 10_000
PAGE = 50


@pytest.fixture(scope="module")
def big(tmp_path_factory, redis_server):
    """A data dir of 10,000 games, projected once into the session's Redis (module-scoped: each test
    below opens its own app on it)."""
    registry.register(RULESET)
    data = tmp_path_factory.mktemp("lobby") / "data"
    populate(data, GAMES)
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    store = EventStore(data)
    ReadModels(client, store).catch_up_all()
    store.close()
    yield data
    client.flushall()
    client.close()


def _pages(client: TestClient, store: CountingStore) -> list[tuple[int, int, str | None]]:
    """(rows read, games answered, X-Umpire-Degraded) of the first page and of the next one."""
    out = []
    cursor = None
    # the app's start-up work is done (the built-in players look once for unfinished games with bots)
    last = -1
    while store.selects != last:
        last = store.selects
        time.sleep(0.5)
    for _ in range(2):
        store.reset()
        params = {"limit": PAGE} | ({"cursor": cursor} if cursor else {})
        r = client.get("/games", params=params)
        assert r.status_code == 200, r.text
        body = r.json()
        out.append((store.rows_read, len(body["games"]), r.headers.get("x-umpire-degraded")))
        cursor = body["next_cursor"]
        assert cursor
    return out


def test_pages_read_a_page_of_rows_with_a_projector_thread(big, redis_server):
    store = CountingStore(big)
    app = create_app(Settings(data_dir=str(big), redis_url=redis_server.url), store=store, projector="thread")
    with TestClient(app) as client:
        assert until(lambda: not app.state.read_models.needs_catch_up(), timeout=120)  # its own catch-up: nothing behind
        pages = _pages(client, store)
    # answered from Redis: the store reads only the newest game's id (one row), whatever the games
    assert [p[1] for p in pages] == [PAGE, PAGE]
    assert all(rows <= 2 for rows, _, _ in pages), pages


def test_pages_read_a_page_of_rows_beside_a_projector_process(big, redis_server):
    # the projector of `umpire serve` (projections.projector.tail), here in a thread with its own store
    stop = threading.Event()
    client = redis.Redis.from_url(redis_server.url)
    p_store = EventStore(big)
    projector = threading.Thread(target=tail, args=(ReadModels(client, p_store), p_store, stop), daemon=True)
    store = CountingStore(big)
    app = create_app(Settings(data_dir=str(big), redis_url=redis_server.url), store=store, projector="process")
    # the ready key the fixture's catch-up left would end the wait below before this projector takes it away
    # (until it has caught up itself): the wait is for this projector
    client.delete(LOBBY_READY)
    try:
        projector.start()
        with TestClient(app) as tc:
            assert until(lambda: client.exists(LOBBY_READY), timeout=120)  # the projector caught up (nothing behind)
            pages = _pages(tc, store)
    finally:
        stop.set()
        projector.join(30)
        p_store.close()
        client.close()
    # the worker never caught up itself: the ready key the projector set lets it answer from Redis
    assert [p[1] for p in pages] == [PAGE, PAGE]
    assert all(rows <= 2 for rows, _, _ in pages), pages


def test_pages_read_a_page_of_rows_from_the_log(big, redis_server):
    store = CountingStore(big)
    app = create_app(Settings(data_dir=str(big), redis_url=None), store=store, read_models=None)
    with TestClient(app) as client:
        pages = _pages(client, store)
    assert [p[1] for p in pages] == [PAGE, PAGE]
    assert all(rows <= PAGE + 1 for rows, _, _ in pages), pages  # the page and one more (is there a next?)
    # and SQLite walks the index in the lobby's order from the cursor: no scan of the table, no sort
    conn = sqlite3.connect(big / "umpire.db")
    try:
        for where, args in (("", ()), ("WHERE (g.created_at, g.game_id) > (?, ?)", ("2026", "x")),
                            ("WHERE g.status = ? AND (g.created_at, g.game_id) > (?, ?)", ("active", "2026", "x")),
                            ("WHERE g.ruleset = ? AND (g.created_at, g.game_id) > (?, ?)", ("drill", "2026", "x"))):
            plan = " | ".join(r[3] for r in conn.execute(
                f"EXPLAIN QUERY PLAN {GAME_SELECT} {where} ORDER BY g.created_at, g.game_id LIMIT 51",
                args))
            assert "TEMP B-TREE" not in plan and "INDEX games_" in plan, plan
    finally:
        conn.close()
