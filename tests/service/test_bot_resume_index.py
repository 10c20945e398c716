"""A starting process finds the games its bots resume through the store's index of the headers that name
bot seats (issue 26): the rows of the games with bots, not one header read per stored game."""
from __future__ import annotations

import sqlite3

from service.bot_players import BotPlayers
from service.game_service import CreateGameRequest, GameService
from service.store import EventStore
from tests.service.toy_ruleset import register

SEED = "0f" * 32


def test_the_unfinished_games_with_bots_come_from_the_bot_headers_index(tmp_path):
    register()
    store = EventStore(tmp_path / "data")
    svc = GameService(store, None)
    plain = [svc.create_game(CreateGameRequest(ruleset="toy", scenario="duel", seed=SEED))["game_id"]
             for _ in range(30)]
    with_bots = [svc.create_game(CreateGameRequest(ruleset="toy", scenario="duel", seed=SEED,
                                                   bots={"south": "random"}))["game_id"] for _ in range(3)]
    done = with_bots.pop()
    conn = sqlite3.connect(tmp_path / "data" / "umpire.db")
    with conn:  # as a finished game
        conn.execute("UPDATE games SET status = 'finished' WHERE game_id = ?", (done,))

    assert BotPlayers(svc).unfinished_with_bots() == with_bots
    assert not set(plain) & set(store.unfinished_bot_games())

    # the query reads the partial index of bot headers (it holds 3 rows here, the store 33 games)
    try:
        assert conn.execute("SELECT count(*) FROM events INDEXED BY events_bot_headers "
                            "WHERE seq = 1 AND json_extract(payload, '$.bots') != '{}'").fetchone()[0] == 3
        traced: list[str] = []
        store._conn().set_trace_callback(traced.append)  # the statement the store runs, as it runs it
        store.unfinished_bot_games()
        store._conn().set_trace_callback(None)
        query = next(q for q in traced if "bots" in q)
        plan = " ".join(str(r) for r in conn.execute("EXPLAIN QUERY PLAN " + query))
        assert "SCAN e USING INDEX events_bot_headers" in plan, plan
    finally:
        conn.close()
    store.close()


def test_the_postgres_store_answers_the_same_through_its_partial_index(tmp_path, pg_server):
    register()
    url = pg_server.new_database()
    try:
        from service.store import open_store

        store = open_store(tmp_path / "data", database_url=url)
        svc = GameService(store, None)
        for _ in range(5):
            svc.create_game(CreateGameRequest(ruleset="toy", scenario="duel", seed=SEED))
        with_bots = [svc.create_game(CreateGameRequest(ruleset="toy", scenario="duel", seed=SEED,
                                                       bots={"south": "random"}))["game_id"] for _ in range(2)]
        assert BotPlayers(svc).unfinished_with_bots() == with_bots
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET enable_seqscan = off")  # a tiny table: ask whether the index can answer it
            plan = " ".join(r[0] for r in conn.execute(
                "EXPLAIN SELECT e.game_id FROM events AS e JOIN games AS g ON g.game_id = e.game_id "
                f"WHERE {type(store).bot_headers} AND g.status != 'finished'"))
        assert "events_bot_headers" in plan, plan
        store.close()
    finally:
        pg_server.drop_database(url)
