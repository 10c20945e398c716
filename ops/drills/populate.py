"""Many games in a data dir, fast: a few real drill games created by the service, copied row for row
under new ids (their events, seed and all) in the lobby's order. For benchmarks and tests of costs that
grow with the number of games (the lobby, a start); the copies' hash chains name the original game."""
from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

from domain.kernel import registry

from tests.rulesets.drill import RULESET, SCENARIO


def populate(data: Path, n: int, originals: int = 5) -> list[str]:
    """``n`` drill games in the SQLite store of ``data``; returns the ids of the games created for real."""
    from service.game_service import CreateGameRequest, GameService
    from service.store import EventStore

    registry.register(RULESET)
    store = EventStore(data)
    svc = GameService(store)
    ids = [svc.create_game(CreateGameRequest(ruleset=RULESET.id, scenario=SCENARIO))["game_id"]
           for _ in range(min(n, originals))]
    store.close()
    conn = sqlite3.connect(Path(data) / "umpire.db")
    with conn:
        for i in range(n - len(ids)):
            src, new = ids[i % len(ids)], uuid.uuid4().hex[:16]
            created = f"2026-01-01T00:{i // 60_000_000:02d}:{i // 1_000_000 % 60:02d}.{i % 1_000_000:06d}+00:00"
            conn.execute("INSERT INTO games SELECT ?, ruleset, scenario, setup, seed_commitment, status, winner, "
                         "version, ?, campaign_id, chain_version FROM games WHERE game_id = ?", (new, created, src))
            conn.execute("INSERT INTO events SELECT ?, seq, type, payload, actor, visibility, command_id, "
                         "engine_version, recorded_at, ruling, rolls, reveals, turn, prev_hash, hash, "
                         "public_payload, commitment, step FROM events WHERE game_id = ?", (new, src))
            conn.execute("INSERT INTO secrets SELECT ?, seed, revealed FROM secrets WHERE game_id = ?", (new, src))
    conn.close()
    return ids
