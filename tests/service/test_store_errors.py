"""A storage failure answers 503 problem details that say what happened without the server's
paths (those stay in the server log). The error here is a real SQLITE_FULL from a real SQLite file
(``PRAGMA max_page_count`` caps the database); the full-disk drill (tests/ops/test_drill.py) does
the same through a real server on a really full filesystem."""
from __future__ import annotations

import logging

import pytest

from domain.kernel.dice import commitment
from service.app import store_errors
from service.problems import PROBLEM_JSON, without_server_paths
from service.store import EventStore, NewEvent, StoreError, UnknownGame

SEED = bytes(range(32))


def _full_store_error(store: EventStore) -> StoreError:
    store.create_game(game_id="g", ruleset="test", scenario="s", setup="{}", seed=SEED,
                      seed_commitment=commitment(SEED), token_hashes={})
    conn = store._conn()  # this thread's connection: cap the file at the pages it has now
    (pages,) = conn.execute("PRAGMA page_count").fetchone()
    conn.execute(f"PRAGMA max_page_count={pages}")
    with pytest.raises(StoreError) as info:
        store.append("g", 0, [NewEvent(type="Moved", payload='"' + "x" * 200_000 + '"')])
    return info.value


def test_a_full_database_answers_503_without_server_paths(tmp_path, caplog):
    data = tmp_path / "data dir with spaces"
    store = EventStore(data)
    exc = _full_store_error(store)
    assert str(store.path) in str(exc) and "full" in str(exc)  # the store's own message names the file
    with caplog.at_level(logging.ERROR, logger="umpire.service"):
        r = store_errors(store)(None, exc)
    assert r.status_code == 503 and r.media_type == PROBLEM_JSON
    body = r.content
    assert body["type"] == "urn:umpire:problem:unavailable" and body["status"] == 503
    detail = body["detail"]
    assert "database or disk is full" in detail and "not applied" in detail
    assert str(tmp_path) not in detail and "umpire.db" not in detail and "/" not in detail, detail
    assert detail.startswith("cannot write to the event store: ")
    assert any(str(store.path) in rec.getMessage() for rec in caplog.records)  # the server log keeps it
    assert store.version("g") == 0  # nothing half-written
    store.close()


def test_other_store_errors_keep_their_client_facing_message(tmp_path):
    store = EventStore(tmp_path)
    r = store_errors(store)(None, UnknownGame("nope"))
    assert r.status_code == 404 and r.content["detail"] == "no game with id 'nope'"
    ro = EventStore(tmp_path, read_only=True)
    with pytest.raises(StoreError) as info:
        ro.append("g", 0, [NewEvent(type="Moved", payload="{}")])
    detail = store_errors(ro)(None, info.value).content["detail"]
    assert "read-only" in detail and str(tmp_path) not in detail


def test_unknown_absolute_paths_are_named_not_shown():
    assert without_server_paths("data dir /srv/umpire/data is not writable") == \
        "data dir the server's data dir is not writable"
    assert without_server_paths("cannot open /x/y/umpire.db: locked") == "cannot open the event store: locked"
    assert without_server_paths("no game with id 'a/b'") == "no game with id 'a/b'"


def test_postgres_gone_answers_503_without_its_host_or_credentials(pg_server, tmp_path, caplog):
    """The PostgreSQL backend: its database disappears under a running store (every session of it
    terminated): reads and writes are a one-line StoreError, answered 503 naming neither host, port
    nor user; nothing was written."""
    from service.store.postgres import PgEventStore

    url = pg_server.new_database()
    store = PgEventStore(url, data_dir=tmp_path / "data", timeout=1)  # a caller waits 1 s for a connection
    store.create_game(game_id="g", ruleset="test", scenario="s", setup="{}", seed=SEED,
                      seed_commitment=commitment(SEED), token_hashes={})
    pg_server.drop_database(url)
    try:
        with caplog.at_level(logging.ERROR, logger="umpire.store"):
            for attempt in (lambda: store.append("g", 0, [NewEvent(type="Moved", payload="{}")]),
                            lambda: store.version("g")):
                with pytest.raises(StoreError, match="PostgreSQL event store is unavailable") as info:
                    attempt()
                r = store_errors(store)(None, info.value)
                assert r.status_code == 503 and r.content["type"] == "urn:umpire:problem:unavailable"
                detail = r.content["detail"]
                assert "not applied" in detail
                for secret in ("127.0.0.1", str(pg_server.port), "umpire@", url):
                    assert secret not in detail, detail
        assert any("event store" in rec.getMessage() for rec in caplog.records)  # the log keeps the cause
    finally:
        store.close()


def test_postgres_restarted_refuses_while_down_loses_nothing_and_resumes_by_itself(pg_server, tmp_path):
    """The server goes down under a running store: commands are refused (a StoreError, 503) while it is
    down, the acknowledged ones are all there after it returns, and the store resumes by itself (its
    pool reconnects): no restart of the service, no duplicate of a refused command."""
    import time

    from service.store import verify_chain
    from service.store.postgres import PgEventStore

    url = pg_server.new_database()
    store = PgEventStore(url, data_dir=tmp_path / "data", timeout=1)
    try:
        store.create_game(game_id="g", ruleset="test", scenario="s", setup="{}", seed=SEED,
                          seed_commitment=commitment(SEED), token_hashes={})
        acked = [store.append("g", v, [NewEvent(type="Moved", payload=f'{{"n":{v}}}')], command_id=f"c{v}").version
                 for v in range(3)]
        assert acked == [1, 2, 3]
        pg_server.halt()
        try:
            with pytest.raises(StoreError, match="PostgreSQL event store is unavailable") as info:
                store.append("g", 3, [NewEvent(type="Moved", payload='{"n":3}')], command_id="c3")
            assert store_errors(store)(None, info.value).status_code == 503
            with pytest.raises(StoreError, match="unavailable"):
                store.version("g")
        finally:
            pg_server.resume()
        deadline = time.monotonic() + 30
        while True:  # the first calls after the restart may meet a connection the restart broke
            try:
                version = store.version("g")
                break
            except StoreError:
                assert time.monotonic() < deadline, "the store did not resume by itself"
                time.sleep(0.2)
        assert version == 3  # every acknowledged command, not the refused one
        assert store.append("g", 3, [NewEvent(type="Moved", payload='{"n":3}')], command_id="c3").version == 4
        assert store.append("g", 3, [NewEvent(type="Moved", payload='{"n":3}')], command_id="c3").duplicate
        assert verify_chain(store.load("g")).ok and [e.seq for e in store.load("g")] == [1, 2, 3, 4]
    finally:
        store.close()
        pg_server.drop_database(url)
