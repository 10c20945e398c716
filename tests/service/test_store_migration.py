"""Games stored before issue 10 keep verifying under chain version 1 (DESIGN 2: history is never
rewritten): a database of schema 3 with a chain-version-1 game is migrated (migration 4) and the game
still verifies, plays on, and keeps its command ids. The same on PostgreSQL: a database of schema 3
(its first three numbered steps) is migrated by step 4 of its own list (DESIGN 11)."""
from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

import msgspec
import pytest
import sqlite_utils

from domain.kernel.dice import commitment
from domain.kernel import chain
from service.store import DB_FILE, MIGRATIONS, EventStore, NewEvent
from service.store import open_store
from service.verify import verify_game

SEED = bytes(range(32))


def _old_database(path) -> None:
    """Schema 3 (before issue 10) with one game of three chain-version-1 events."""
    conn = sqlite3.connect(path, isolation_level=None)
    db = sqlite_utils.Database(conn)
    for i, step in enumerate(MIGRATIONS[:3], start=1):
        step(db)
        conn.execute(f"PRAGMA user_version={i}")
    _old_game(conn.execute)
    conn.close()


def _old_database_pg(url: str) -> None:
    """The same on PostgreSQL: its schema steps 1-3, then the same game."""
    import psycopg

    from service.store.postgres import PG_MIGRATIONS

    with psycopg.connect(url, autocommit=True) as conn:
        for step in PG_MIGRATIONS[:3]:
            for statement in step:
                conn.execute(statement)
        conn.execute("CREATE TABLE umpire_schema (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO umpire_schema VALUES (3)")
        columns = {"games": "(game_id, ruleset, scenario, setup, seed_commitment, status, winner, version, created_at,"
                            " campaign_id)",
                   "events": "(game_id, seq, type, payload, actor, visibility, command_id, engine_version,"
                             " recorded_at, ruling, rolls, reveals, turn, prev_hash, hash)", "secrets": "", "commands": ""}

        def execute(sql: str, args: tuple = ()):
            table = sql.split()[2]
            sql = sql.replace(f"INSERT INTO {table} VALUES", f"INSERT INTO {table} {columns[table]} VALUES")
            return conn.execute(sql.replace("?", "%s"), args) if args else conn.execute(sql)

        _old_game(execute)


def _old_game(execute) -> None:
    now = datetime.now(timezone.utc).isoformat()
    execute("INSERT INTO games VALUES ('old','test','s','{}',?, 'active', NULL, 3, ?, NULL)",
                 (commitment(SEED), now))
    execute("INSERT INTO secrets VALUES ('old', ?, 0)", (SEED.hex(),))
    prev = chain.GENESIS
    for seq, (actor, cid) in enumerate([(None, None), ("imperial", "c-1"), ("imperial", "c-1")], start=1):
        e = {"game_id": "old", "seq": seq, "type": "Moved", "payload": msgspec.json.encode({"n": seq}).decode(),
             "actor": actor, "visibility": "public", "command_id": cid, "engine_version": "t",
             "recorded_at": now if seq == 1 else now + "x", "ruling": None, "rolls": "[]", "reveals": 0, "turn": 1}
        h = chain.v1_hash(prev, e)
        execute("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     (*[e[k] for k in ("game_id", "seq", "type", "payload", "actor", "visibility", "command_id",
                                       "engine_version", "recorded_at", "ruling", "rolls", "reveals", "turn")],
                      prev, h))
        prev = h
    execute("INSERT INTO commands VALUES ('old', 'c-1', 2, 3)")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_chain_version_1_game_survives_the_migration(tmp_path, backend, request):
    if backend == "sqlite":
        _old_database(tmp_path / DB_FILE)
        store = EventStore(tmp_path)
    else:
        pg = request.getfixturevalue("pg_server")
        url = pg.new_database()
        request.addfinalizer(lambda: pg.drop_database(url))
        _old_database_pg(url)
        store = open_store(tmp_path, database_url=url)
        assert store.schema_version() == len(MIGRATIONS)
    g = store.require_game("old")
    assert g.chain_version == 1
    r = verify_game(store, "old")
    assert r.chain_ok and r.row_ok and r.chain_version == 1, r
    assert store.command_result("old", "c-1", "imperial").first_seq == 2  # the id moved to its seat
    # it plays on under its own chain version: new events are chained the old way
    store.append("old", 3, [NewEvent(type="Moved", payload="{}", actor="rebel")])
    events = store.load("old")
    assert events[-1].commitment is None and verify_game(store, "old").chain_ok
    # undo finds its commands by their shared recorded_at (such logs kept no step per event)
    from domain.kernel.undo import steps_of
    from service.undo import logged

    assert [(s.first, s.last) for s in steps_of(logged(events))] == [(1, 1), (2, 3), (4, 4)]
    store.close()
