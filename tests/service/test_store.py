"""The event store (DESIGN section 2): seq uniqueness, idempotent commands, all-or-nothing, bad input.

The store contract suite (DESIGN 11): every test taking ``store``/``target``/``raw`` runs on SQLite and
on PostgreSQL (``tests/service/store_backends.py``); the tests of the SQLite file itself take
``tmp_path`` only."""
from __future__ import annotations

import sqlite3

import msgspec
import pytest

from domain.kernel.dice import commitment
from service.store import (
    DB_FILE, MIGRATIONS, EventStore, GameExists, NewEvent, SeedUnavailable, StoreError, UnknownGame,
    VersionConflict, token_hash, verify_chain,
)
from service.store import open_store
from tests.service.store_backends import backend, raw, store, target  # noqa: F401  (both backends)

SEED = bytes(range(32))


def make_game(store: EventStore, game_id: str = "g1", seed: bytes = SEED) -> None:
    store.create_game(
        game_id=game_id, ruleset="test", scenario="s", setup="{}", seed=seed,
        seed_commitment=commitment(seed), token_hashes={"imperial": token_hash(f"{game_id}-i"),
                                                        "rebel": token_hash(f"{game_id}-r")},
    )


def ev(n: int, kind: str = "Moved") -> NewEvent:
    return NewEvent(type=kind, payload=msgspec.json.encode({"n": n}).decode(), actor="imperial")


def test_append_numbers_from_one_and_chains(store):
    make_game(store)
    r1 = store.append("g1", 0, [ev(1), ev(2)])
    r2 = store.append("g1", 2, [ev(3)])
    assert (r1.first_seq, r1.last_seq, r1.version) == (1, 2, 2)
    assert (r2.first_seq, r2.last_seq, r2.version) == (3, 3, 3)
    events = store.load("g1")
    assert [e.seq for e in events] == [1, 2, 3]
    assert events[0].prev_hash == "0" * 64 and events[1].prev_hash == events[0].hash
    assert verify_chain(events).ok
    assert store.version("g1") == 3


def test_append_awaited_on_a_loop_is_the_same_append(store):
    """``append_async`` (the command path's): the same numbering, chain, conflicts and command ids."""
    import asyncio

    make_game(store)

    async def main():
        r1 = await store.append_async("g1", 0, [ev(1), ev(2)], command_id="c1")
        again = await store.append_async("g1", 0, [ev(1), ev(2)], command_id="c1")
        with pytest.raises(VersionConflict):
            await store.append_async("g1", 0, [ev(3)])
        return r1, again

    r1, again = asyncio.run(main())
    assert (r1.first_seq, r1.last_seq, r1.version) == (1, 2, 2)
    assert again.duplicate and (again.first_seq, again.last_seq) == (1, 2)
    assert [e.seq for e in store.load("g1")] == [1, 2] and verify_chain(store.load("g1")).ok
    store.release_threads()


def test_stale_expected_version_is_a_conflict_and_appends_nothing(store):
    make_game(store)
    store.append("g1", 0, [ev(1)])
    with pytest.raises(VersionConflict) as info:
        store.append("g1", 0, [ev(2), ev(3)])
    assert (info.value.expected, info.value.current) == (0, 1)
    assert [e.seq for e in store.load("g1")] == [1]


def test_duplicate_game_seq_refused_by_the_unique_constraint(store, raw):
    make_game(store)
    store.append("g1", 0, [ev(1)])
    # Straight SQL: the constraint itself refuses a second seq 1.
    cols = "game_id, seq, type, payload, visibility, engine_version, recorded_at, rolls, reveals, turn, prev_hash, hash"
    with pytest.raises(raw.integrity_error, match="(?i)unique|duplicate key"):
        raw.execute(f"INSERT INTO events ({cols}) SELECT {cols} FROM events WHERE game_id='g1' AND seq=1")
    # And when the version column lies (set back to 0), the constraint is the
    # last line of defence: the writer gets a conflict, not an overwrite.
    raw.execute("UPDATE games SET version = 0 WHERE game_id='g1'")
    with pytest.raises(VersionConflict):
        store.append("g1", 0, [ev(99)])
    events = store.load("g1")
    assert len(events) == 1 and msgspec.json.decode(events[0].payload) == {"n": 1}


def test_same_command_id_twice_appends_once_and_answers_the_same(store):
    make_game(store)
    first = store.append("g1", 0, [ev(1), ev(2)], command_id="cmd-a")
    again = store.append("g1", 0, [ev(7), ev(8), ev(9)], command_id="cmd-a")
    assert (again.first_seq, again.last_seq, again.version) == (first.first_seq, first.last_seq, first.version)
    assert again.duplicate and not first.duplicate
    assert store.version("g1") == 2 and len(store.load("g1")) == 2
    # Still the same answer after the game moved on (a retry arriving late).
    store.append("g1", 2, [ev(3)], command_id="cmd-b")
    late = store.append("g1", 2, [ev(3)], command_id="cmd-a")
    assert (late.first_seq, late.last_seq, late.version, late.current_version) == (1, 2, 2, 3)
    looked_up = store.command_result("g1", "cmd-a")
    assert looked_up is not None and (looked_up.first_seq, looked_up.last_seq, looked_up.version) == (1, 2, 2)
    # command ids are per game
    make_game(store, "g2")
    assert not store.append("g2", 0, [ev(1)], command_id="cmd-a").duplicate


def test_unknown_game(store):
    with pytest.raises(UnknownGame, match="no game with id 'nope'"):
        store.append("nope", 0, [ev(1)])
    with pytest.raises(UnknownGame):
        store.require_game("nope")
    with pytest.raises(UnknownGame):
        store.seed("nope")
    assert store.game("nope") is None


def test_game_ids_are_unique_and_seed_must_match_commitment(store):
    make_game(store)
    with pytest.raises(GameExists):
        make_game(store)
    with pytest.raises(ValueError, match="seed_commitment"):
        store.create_game(game_id="g9", ruleset="t", scenario="s", setup="{}", seed=SEED,
                          seed_commitment=commitment(bytes(32)), token_hashes={})
    with pytest.raises(ValueError, match="32 bytes"):
        store.create_game(game_id="g9", ruleset="t", scenario="s", setup="{}", seed=b"short",
                          seed_commitment=commitment(b"short"), token_hashes={})
    assert store.game("g9") is None


def test_seed_secret_until_finished_then_revealed(store):
    make_game(store)
    store.append("g1", 0, [ev(1)])
    assert store.revealed_seed("g1") is None
    store.append("g1", 1, [ev(2, "GameEnded")], status="finished", winner="rebel")
    g = store.require_game("g1")
    assert (g.status, g.winner, g.version) == ("finished", "rebel", 2)
    assert store.revealed_seed("g1") == SEED
    # the seed is never in an event
    assert all(SEED.hex() not in e.payload for e in store.load("g1"))


def test_seats_store_only_token_hashes(store, raw):
    make_game(store)
    assert store.seat_for_token("g1", "g1-i") == "imperial"
    assert store.seat_for_token("g1", "wrong") is None
    assert store.seat_hashes("g1") == {"imperial": token_hash("g1-i"), "rebel": token_hash("g1-r")}
    stored = ",".join(h for (h,) in raw.execute("SELECT token_hash FROM seats"))
    assert "g1-i" not in stored and token_hash("g1-i") in stored


def test_a_failing_append_writes_nothing(store, raw):
    make_game(store)
    # The third insert of the command fails inside the transaction.
    if raw.kind == "sqlite":
        raw.execute("CREATE TRIGGER boom BEFORE INSERT ON events WHEN NEW.type = 'Boom'"
                    " BEGIN SELECT RAISE(ABORT, 'boom'); END")
    else:
        raw.execute("CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS"
                    " $$ BEGIN RAISE EXCEPTION 'boom'; END $$")
        raw.execute("CREATE TRIGGER boom BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.type = 'Boom')"
                    " EXECUTE FUNCTION boom()")
    with pytest.raises(raw.error, match="boom"):
        store.append("g1", 0, [ev(1), ev(2), ev(3, "Boom")], command_id="c")
    assert store.load("g1") == [] and store.version("g1") == 0
    assert store.command_result("g1", "c") is None
    assert store.append("g1", 0, [ev(1)], command_id="c").version == 1


def test_malformed_new_events_name_the_field(store):
    make_game(store)
    with pytest.raises(ValueError, match="payload"):
        store.append("g1", 0, [NewEvent(type="X", payload=None)])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="type"):
        store.append("g1", 0, [NewEvent(type="", payload="{}")])
    with pytest.raises(ValueError, match="at least one event"):
        store.append("g1", 0, [])
    assert store.version("g1") == 0


def test_schema_migrations_are_numbered_and_rerun_safely(store, target):
    make_game(store)
    store.close()
    s2 = target.open()  # reopening runs nothing twice
    assert s2.game_ids() == ["g1"]
    if target.kind == "sqlite":
        assert s2._conn().execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert s2._conn().execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s2._conn().execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    else:
        from service.store.postgres import PG_MIGRATIONS

        assert s2.schema_version() == len(PG_MIGRATIONS) == len(MIGRATIONS)
        # durable acknowledgements: every session of the store commits synchronously
        assert s2.rows("SHOW synchronous_commit") == [("on",)]
        assert s2.rows("SHOW transaction_isolation") == [("read committed",)]
    s2.close()


def test_a_newer_schema_is_refused(store, target, raw):
    store.close()
    if target.kind == "sqlite":
        raw.execute(f"PRAGMA user_version={len(MIGRATIONS) + 5}")
    else:
        raw.execute(f"UPDATE umpire_schema SET version = {len(MIGRATIONS) + 5}")
    with pytest.raises(StoreError, match="newer than this umpire"):
        target.open()
    with pytest.raises(StoreError, match="newer than this umpire"):
        target.open(read_only=True)


def test_a_file_that_is_not_a_database(tmp_path):
    (tmp_path / DB_FILE).write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a usable umpire database"):
        EventStore(tmp_path)


def test_another_sqlite_database_is_refused(tmp_path):
    conn = sqlite3.connect(tmp_path / DB_FILE)
    conn.execute("CREATE TABLE games (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not a usable umpire database"):
        EventStore(tmp_path)


def test_unusable_data_dir(tmp_path):
    f = tmp_path / "a-file"
    f.write_text("x")
    with pytest.raises(StoreError, match="cannot create data dir"):
        EventStore(f / "sub")


def test_seed_missing_after_import_without_secrets_is_a_clear_error(store, raw):
    make_game(store)
    raw.execute("DELETE FROM secrets")
    with pytest.raises(SeedUnavailable, match="not in this store"):
        store.seed("g1")


def test_iter_all_yields_commit_order(store):
    make_game(store, "a")
    make_game(store, "b")
    store.append("a", 0, [ev(1)])
    store.append("b", 0, [ev(1), ev(2)])
    store.append("a", 1, [ev(2)])
    assert [(e.game_id, e.seq) for _, e in store.iter_all(batch=2)] == [("a", 1), ("b", 1), ("b", 2), ("a", 2)]


def test_newest_game_id_is_the_game_stored_last(store):
    """The lobby's freshness check asks the store for the game stored last (``EventLog.newest_game_id``)."""
    assert store.newest_game_id() is None
    make_game(store, "a")
    assert store.newest_game_id() == "a"
    make_game(store, "b")
    assert store.newest_game_id() == "b"


# -- the store contract of issue 10 (a second backend must pass these too) -------------------------
def test_chain_v2_commits_the_private_part_and_hashes_the_public_part(store):
    from domain.kernel import chain
    from service.store import verify_commitments

    make_game(store)
    hidden = NewEvent(type="Drawn", payload='{"type":"Drawn","seat":"rebel","card":"R7"}', actor="rebel",
                      visibility="rebel", public_payload='{"type":"Drawn","seat":"rebel","redacted":true}',
                      rolls='[{"stream":"dice","index":0,"sides":6,"value":3}]', reveals=True)
    store.append("g1", 0, [ev(1), hidden])
    a, b = store.load("g1")
    assert store.require_game("g1").chain_version == 2
    assert a.public_payload is None and b.public_payload is not None and a.step == b.step == 1
    assert len(b.commitment) == 64 and b.commitment == chain.commitment(
        chain.commit_key(SEED), "g1", 2, chain.row_private(msgspec.structs.asdict(b)))
    # the hash covers the spectator payload and the commitment only: nothing of the card
    public = chain.public_part("g1", 2, "Drawn", "rebel", b.recorded_at, {"type": "Drawn", "seat": "rebel",
                                                                            "redacted": True})
    assert b.hash == chain.link(a.hash, public, b.commitment)
    assert chain.hidden_fields({"type": "Drawn", "seat": "rebel", "card": "R7"}, public["payload"]) == ["card"]
    assert verify_chain(store.load("g1"), 2).ok and verify_commitments(store.load("g1"), SEED).ok
    assert not verify_commitments(store.load("g1"), bytes(32)).ok
    # a caller that does not say what a spectator sees: nothing of the payload is public
    store.append("g1", 2, [NewEvent(type="Secret", payload='{"x":1}', visibility="rebel")])
    assert store.event("g1", 3).public_payload == '{"redacted":true}'


def test_command_ids_are_per_seat_and_keep_the_first_body_hash(store):
    make_game(store)
    first = store.append("g1", 0, [ev(1)], command_id="c", body_hash="h1")
    again = store.append("g1", 1, [ev(9)], command_id="c", body_hash="h2")
    assert again.duplicate and again.body_hash == "h1" and (again.first_seq, again.last_seq) == (1, 1)
    assert again.head == first.head == store.head("g1", 1)
    rebel = store.append("g1", 1, [NewEvent(type="Moved", payload="{}", actor="rebel")], command_id="c")
    assert not rebel.duplicate and rebel.first_seq == 2  # another seat's id: its own command
    assert store.command_result("g1", "c", "rebel").first_seq == 2
    assert store.command_result("g1", "c", "imperial").body_hash == "h1"


def test_a_game_is_created_with_its_first_events_in_one_transaction(store):
    res = store.create_game(game_id="g7", ruleset="test", scenario="s", setup="{}", seed=SEED,
                            seed_commitment=commitment(SEED), token_hashes={}, events=[ev(1), ev(2)])
    assert (res.version, res.head) == (2, store.head("g7", 2))
    g = store.require_game("g7")
    events = store.load("g7")
    assert g.version == 2 and g.created_at == events[0].recorded_at and verify_chain(events, 2).ok
    with pytest.raises(GameExists):
        store.create_game(game_id="g7", ruleset="test", scenario="s", setup="{}", seed=SEED,
                          seed_commitment=commitment(SEED), token_hashes={}, events=[ev(1)])
    assert len(store.load("g7")) == 2


def test_the_lobby_orders_by_creation_then_id_and_its_cursor_pages_without_overlap(store, raw):
    for gid in ("b", "A", "a", "_", "Z9"):
        make_game(store, gid)
    raw.execute("UPDATE games SET created_at = '2026-01-01T00:00:00+00:00'")  # one instant: ids decide
    make_game(store, "later")
    make_game(store, "done")
    store.append("done", 0, [ev(1, "GameEnded")], status="finished", winner="rebel")
    everything = [g.game_id for g in store.games()]
    assert everything == ["A", "Z9", "_", "a", "b", "later", "done"]  # byte order, as SQLite compares
    pages, after = [], None
    while True:
        page = store.games(after=after, limit=2)
        if not page:
            break
        pages.append([g.game_id for g in page])
        after = (page[-1].created_at, page[-1].game_id)
    assert sum(pages, []) == everything and all(len(p) <= 2 for p in pages)
    assert [g.game_id for g in store.games(status="finished")] == ["done"]
    assert "done" not in [g.game_id for g in store.games(status="active")]
    raw.execute("DELETE FROM secrets WHERE game_id = 'b'")
    assert [g.game_id for g in store.games(status="read_only")] == ["b"]
    assert store.require_game("b").read_only and not store.require_game("done").read_only
    assert [g.game_id for g in store.games(ruleset="nope")] == []


def test_command_bodies_are_kept_beside_their_steps(store):
    make_game(store)
    store.append("g1", 0, [ev(1), ev(2)], command_body='{"type":"Move"}', command_seat="imperial")
    store.append("g1", 2, [ev(3)])
    assert store.command_body("g1", 2) == (1, 2, "imperial", '{"type":"Move"}')
    assert store.command_body("g1", 3) is None
    assert store.last_seq_not_of("g1", ["Moved"]) == 0
    assert [e.seq for e in store.load("g1", after=1, upto=2)] == [2]
    assert [e.seq for e in store.load("g1", limit=1)] == [1]
    assert store.event("g1", 3).seq == 3 and store.event("g1", 4) is None
    assert store.count_events() == 3 and store.count_events(*(r for r, _ in list(store.iter_all())[:1])) == 2


def test_a_read_only_opening_writes_nothing(store, target):
    make_game(store)
    ro = target.open(read_only=True)
    try:
        assert ro.game_ids() == ["g1"]
        with pytest.raises(StoreError, match="read-only"):
            ro.append("g1", 0, [ev(1)])
    finally:
        ro.close()
    assert store.version("g1") == 0


def test_postgres_another_database_is_refused(pg_server):
    url = pg_server.new_database()
    try:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE games (x int)")
        with pytest.raises(StoreError, match="not a usable umpire database"):
            open_store("unused", database_url=url)
    finally:
        pg_server.drop_database(url)


def test_postgres_unreachable_is_one_clear_line_without_credentials(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    from service.store.postgres import PgEventStore

    with pytest.raises(StoreError, match="cannot connect to the PostgreSQL event store") as info:
        PgEventStore(f"postgresql://u:sekret@127.0.0.1:{port}/db", data_dir=tmp_path, timeout=1)
    assert "sekret" not in str(info.value)
    with pytest.raises(StoreError, match="only postgresql://"):
        open_store(tmp_path, database_url="mysql://x/y")


def test_both_backends_implement_the_contract_and_it_lists_what_the_service_calls(store):
    """``service.store_contract.Store`` names every store attribute that the service, the campaigns,
    the projections, verification and transfer use (so a backend that implements it is enough)."""
    import re
    from pathlib import Path

    from service.store_contract import Store

    assert isinstance(store, Store)
    members = {n for n in dir(Store) if not n.startswith("_")} | set(Store.__annotations__)
    root = Path(__file__).resolve().parents[2]
    used: set[str] = set()
    for pkg in ("service", "projections"):
        for py in (root / pkg).rglob("*.py"):
            if py.name == "store_contract.py" or py.parent.name == "store":  # the port and its adapters
                continue
            used |= set(re.findall(r"(?<!service\.)(?<!from \.)\bstore\.([a-z]\w*)\b", py.read_text()))  # not a module path
    assert {"append", "load", "rows", "transaction", "games", "import_game"} <= used  # the scan sees the calls
    assert used - members == set(), f"called on a store but not in the contract: {sorted(used - members)}"


def test_tampering_in_the_database_is_found_at_its_first_seq(store, raw):
    """Rows changed behind the store's back (a payload, a deleted event, a re-linked hash) are found
    by the chain at the first seq they touch, whatever the backend."""
    from service.store import verify_commitments

    make_game(store)
    store.append("g1", 0, [ev(1), ev(2)])
    store.append("g1", 2, [ev(3), ev(4)])
    assert verify_chain(store.load("g1"), 2).ok
    raw.execute("UPDATE events SET payload = ? WHERE game_id = 'g1' AND seq = 3", ('{"n":33}',))
    report = verify_chain(store.load("g1"), 2)
    # the hash covers the public part: a public event's payload change breaks the chain at its seq
    assert not report.ok and report.first_broken_seq == 3
    raw.execute("UPDATE events SET payload = ? WHERE game_id = 'g1' AND seq = 3", ('{"n":3}',))
    assert verify_chain(store.load("g1"), 2).ok and verify_commitments(store.load("g1"), SEED).ok
    # a private column (the turn) is under the commitment: the chain holds, the commitment does not
    raw.execute("UPDATE events SET turn = 7 WHERE game_id = 'g1' AND seq = 4")
    assert verify_chain(store.load("g1"), 2).ok
    report = verify_commitments(store.load("g1"), SEED)
    assert not report.ok and report.first_broken_seq == 4
    raw.execute("DELETE FROM events WHERE game_id = 'g1' AND seq = 2")
    report = verify_chain(store.load("g1"), 2)
    assert not report.ok and report.first_broken_seq == 2 and "missing" in report.problem
