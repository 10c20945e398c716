"""Games stored before issue 10 keep verifying under chain version 1 (DESIGN 2: history is never
rewritten): a database of schema 3 with a chain-version-1 game is migrated (migration 4) and the game
still verifies, plays on, and keeps its command ids."""
from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

import msgspec
import sqlite_utils

from domain.kernel.dice import commitment
from service import chain
from service.store import DB_FILE, MIGRATIONS, EventStore, NewEvent
from service.verify import verify_game

SEED = bytes(range(32))


def _old_database(path) -> None:
    """Schema 3 (before issue 10) with one game of three chain-version-1 events."""
    conn = sqlite3.connect(path, isolation_level=None)
    db = sqlite_utils.Database(conn)
    for i, step in enumerate(MIGRATIONS[:3], start=1):
        step(db)
        conn.execute(f"PRAGMA user_version={i}")
    now = datetime.now(timezone.utc).isoformat()
    conn.execute("INSERT INTO games VALUES ('old','test','s','{}',?, 'active', NULL, 3, ?, NULL)",
                 (commitment(SEED), now))
    conn.execute("INSERT INTO secrets VALUES ('old', ?, 0)", (SEED.hex(),))
    prev = chain.GENESIS
    for seq, (actor, cid) in enumerate([(None, None), ("imperial", "c-1"), ("imperial", "c-1")], start=1):
        e = {"game_id": "old", "seq": seq, "type": "Moved", "payload": msgspec.json.encode({"n": seq}).decode(),
             "actor": actor, "visibility": "public", "command_id": cid, "engine_version": "t",
             "recorded_at": now if seq == 1 else now + "x", "ruling": None, "rolls": "[]", "reveals": 0, "turn": 1}
        h = chain.v1_hash(prev, e)
        conn.execute("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     (*[e[k] for k in ("game_id", "seq", "type", "payload", "actor", "visibility", "command_id",
                                       "engine_version", "recorded_at", "ruling", "rolls", "reveals", "turn")],
                      prev, h))
        prev = h
    conn.execute("INSERT INTO commands VALUES ('old', 'c-1', 2, 3)")
    conn.close()


def test_a_chain_version_1_game_survives_the_migration(tmp_path):
    _old_database(tmp_path / DB_FILE)
    store = EventStore(tmp_path)
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
