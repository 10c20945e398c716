"""The verifier trusts nothing the games row says (DESIGN 2, 3): an operator who edits the log and then
makes the row agree -- a chain-version downgrade to the unkeyed version-1 hashes, a renamed or edited
header, a dropped last event -- is found by ``GET /games/{id}/verify`` and ``umpire verify`` (a real
subprocess); an event that no longer decodes is reported at its seq, never a 500 or a traceback.

Games are Battle of Hoth games created over HTTP and played through the service (tests/service/test_fair_log.py)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import msgspec
import pytest
from litestar.testing import TestClient

from domain.kernel import chain
from service.app import create_app
from service.settings import Settings
from service.store import EventStore, NewEvent

from .raw_games import create_raw_game
from .test_fair_log import SEED, play, rechain, sql, umpire


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


V2_ONLY = "public_payload=NULL, commitment=NULL, step=NULL"


def rechain_v1(data: Path, game_id: str, *, strip_v2: bool = False) -> None:
    """Recompute every hash with the unkeyed chain-version-1 formula (what anyone with the database can do:
    it needs no seed), optionally dropping the chain-version-2 columns first."""
    if strip_v2:
        sql(data, f"UPDATE events SET {V2_ONLY} WHERE game_id=?", game_id)
    store = EventStore(data)
    events = store.load(game_id)
    store.close()
    conn = sqlite3.connect(data / "umpire.db")
    prev = chain.GENESIS
    for e in events:
        d = msgspec.structs.asdict(e)
        d["prev_hash"] = prev
        h = chain.v1_hash(prev, d)
        conn.execute("UPDATE events SET prev_hash=?, hash=? WHERE game_id=? AND seq=?", (prev, h, game_id, e.seq))
        prev = h
    conn.commit()
    conn.close()


def edit_event(data: Path, game_id: str, seq: int, old: str, new: str) -> None:
    conn = sqlite3.connect(data / "umpire.db")
    payload = conn.execute("SELECT payload FROM events WHERE game_id=? AND seq=?", (game_id, seq)).fetchone()[0]
    assert old in payload, payload
    conn.execute("UPDATE events SET payload=? WHERE game_id=? AND seq=?", (payload.replace(old, new, 1), game_id, seq))
    conn.commit()
    conn.close()


def web_verify(client, gid: str, **params) -> dict:
    client.app.state.games._cache.clear()  # the service's cached fold is of the log before the edit
    r = client.get(f"/games/{gid}/verify", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def cli_verify(data: Path, gid: str, *extra: str):
    p = umpire("verify", gid, "--data-dir", str(data), *extra)
    assert "Traceback" not in p.stderr + p.stdout, p.stderr
    return p


def turn_event(data: Path, gid: str) -> int:
    store = EventStore(data)
    seq = next(e.seq for e in store.load(gid) if e.type == "turn_started")
    store.close()
    return seq


@pytest.mark.parametrize("strip_v2", [False, True], ids=["v2-columns-kept", "v2-columns-dropped"])
def test_a_chain_version_downgrade_over_an_edited_event_is_found(client, tmp_path, strip_v2):
    data = tmp_path / "data"
    gid, _tokens, _receipt = play(client, 12)
    assert web_verify(client, gid)["chain_ok"] is True
    seq = turn_event(data, gid)
    edit_event(data, gid, seq, '"turn":1', '"turn":2')
    sql(data, "UPDATE games SET chain_version=1 WHERE game_id=?", gid)
    rechain_v1(data, gid, strip_v2=strip_v2)
    body = web_verify(client, gid)
    # event 1 (the game_created header) says chain version 2: the log is checked under it, whatever the row says
    assert body["chain_version"] == 2 and body["chain_ok"] is False, body
    assert body["first_broken_seq"] == 1  # the v1 hashes are not the v2 links
    assert body["row_ok"] is False
    assert any("games.chain_version is 1" in p and "says 2" in p for p in body["row_problems"]), body
    p = cli_verify(data, gid)
    assert p.returncode == 3, p.stdout
    assert "chain: BROKEN at seq 1" in p.stdout and "games row: DISAGREES with the log: games.chain_version" in p.stdout
    assert "(chain version 2)" in p.stdout


def test_a_header_edited_to_chain_version_1_is_found(client, tmp_path):
    """The operator edits event 1 itself to say chain version 1 and re-chains everything under it: the
    header is read and the log checked under version 1 -- but no header is ever written under it."""
    data = tmp_path / "data"
    gid, _tokens, _receipt = play(client, 8)
    edit_event(data, gid, 1, '"chain_version":2', '"chain_version":1')
    sql(data, "UPDATE games SET chain_version=1 WHERE game_id=?", gid)
    rechain_v1(data, gid, strip_v2=True)
    body = web_verify(client, gid)
    assert body["chain_ok"] is False and body["first_broken_seq"] == 1, body
    assert "headers are only written under chain version 2" in body["problem"]
    assert cli_verify(data, gid).returncode == 3


def test_a_renamed_header_does_not_make_a_chain_version_1_game(client, tmp_path):
    """Event 1 renamed (type column and payload) so that the log looks like one stored before headers, every
    chain-version-2 column dropped, re-chained under version 1, row set to 1: the renamed event 1 is not an
    event of the ruleset, so the log cannot be folded and the first unreadable seq is reported."""
    data = tmp_path / "data"
    gid, _tokens, _receipt = play(client, 8)
    edit_event(data, gid, 1, '"type":"game_created"', '"type":"game_createe"')
    sql(data, "UPDATE events SET type='game_createe' WHERE game_id=? AND seq=1", gid)
    sql(data, "UPDATE games SET chain_version=1 WHERE game_id=?", gid)
    rechain_v1(data, gid, strip_v2=True)
    body = web_verify(client, gid)
    assert body["chain_ok"] is False and body["first_broken_seq"] == 1, body
    assert "does not decode" in body["problem"]
    # only one of the two renamed: still the header, and the mismatch is named
    gid2, _t, _r = play(client, 4)
    sql(data, "UPDATE events SET type='game_createe' WHERE game_id=? AND seq=1", gid2)
    body = web_verify(client, gid2)
    assert body["chain_ok"] is False and body["first_broken_seq"] == 1 and body["chain_version"] == 2, body


def test_a_header_dropped_and_rechained_is_proven_by_a_receipt(client, tmp_path):
    """The whole log rewritten as a chain-version-1 game without a header (seqs renumbered): consistent in
    itself, as any complete rewrite by the holder of the database is -- a receipt proves it."""
    data = tmp_path / "data"
    gid, _tokens, receipt = play(client, 8)
    conn = sqlite3.connect(data / "umpire.db")
    conn.execute("DELETE FROM events WHERE game_id=? AND seq=1", (gid,))
    conn.execute("UPDATE events SET seq=seq-1 WHERE game_id=?", (gid,))
    conn.execute("UPDATE games SET chain_version=1, version=version-1 WHERE game_id=?", (gid,))
    conn.commit()
    conn.close()
    rechain_v1(data, gid, strip_v2=True)
    body = web_verify(client, gid, receipt=json.dumps(receipt))
    assert body["receipt_ok"] is False, body


def test_row_chain_version_2_on_a_version_1_game_is_reported(tmp_path):
    """A game stored before headers (chain version 1, no game_created event) whose row is set to 2: the log
    is still checked under version 1, and the row's claim is reported."""
    data = tmp_path / "data"
    store = EventStore(data)
    seed = bytes.fromhex(SEED)
    store.create_game(game_id="old", ruleset="test", scenario="s", setup='{"game_id":"old","ruleset":"test",'
                      '"scenario":"s","seats":[]}', seed=seed, seed_commitment=__import__("hashlib").sha256(seed)
                      .hexdigest(), token_hashes={}, chain_version=chain.CHAIN_V1,
                      events=[NewEvent(type="Opened", payload='{"k":1}')])
    store.append("old", 1, [NewEvent(type="Moved", payload='{"k":2}')])
    store.close()
    p = cli_verify(data, "old")
    assert p.returncode == 0 and "(chain version 1)" in p.stdout, p.stdout
    sql(data, "UPDATE games SET chain_version=2 WHERE game_id='old'")
    p = cli_verify(data, "old")
    assert p.returncode == 3 and "chain: ok" in p.stdout and "(chain version 1)" in p.stdout, p.stdout
    assert "games.chain_version is 2 but the log (no game_created header) says 1" in p.stdout
    # and a chain-version-2 column in a chain-version-1 log is reported at its seq
    sql(data, "UPDATE games SET chain_version=1 WHERE game_id='old'")
    sql(data, "UPDATE events SET commitment=? WHERE game_id='old' AND seq=2", "ab" * 32)
    p = cli_verify(data, "old")
    assert p.returncode == 3 and "chain: BROKEN at seq 2" in p.stdout, p.stdout


@pytest.mark.parametrize("where", ["type-column", "payload-type", "payload-type-rechained"])
def test_an_event_that_no_longer_decodes_is_reported_not_a_500(client, tmp_path, where):
    data = tmp_path / "data"
    gid, _tokens, _receipt = play(client, 6)
    seq = turn_event(data, gid)
    if where == "type-column":
        sql(data, "UPDATE events SET type='turn_startes' WHERE game_id=? AND seq=?", gid, seq)
    else:
        edit_event(data, gid, seq, '"type":"turn_started"', '"type":"turn_startes"')
        if where == "payload-type-rechained":
            rechain(data, gid, bytes.fromhex(SEED), after=seq - 1)  # the operator, with the seed
    body = web_verify(client, gid)
    assert body["chain_ok"] is False and body["first_broken_seq"] == seq, body
    assert body["problem"]
    if where == "payload-type-rechained":  # the hashes hold: what is wrong is that the event cannot be read
        assert body["problem"].startswith(f"seq {seq}: ") and "turn_startes" in body["problem"], body
    assert "seed" not in body  # an active game's seed stays secret
    p = cli_verify(data, gid)
    assert p.returncode == 3 and f"chain: BROKEN at seq {seq}: " in p.stdout, p.stdout + p.stderr
    assert "Traceback" not in p.stdout + p.stderr


def test_an_undecodable_rolls_column_on_an_unfoldable_log_is_reported(client, tmp_path):
    data = tmp_path / "data"
    gid, _tokens, _receipt = play(client, 4)
    sql(data, "UPDATE events SET rolls='[{\"stream\": 3}]' WHERE game_id=? AND seq=3", gid)
    body = web_verify(client, gid)
    assert body["chain_ok"] is False and body["first_broken_seq"] == 3, body
    assert cli_verify(data, gid).returncode == 3


def test_a_finished_game_with_its_last_event_dropped_is_reported(client, tmp_path):
    data = tmp_path / "data"
    gid, _tokens, receipt = play(client, 0, finish=True, seed=4)
    assert web_verify(client, gid)["row_ok"] is True
    store = EventStore(data)
    last = store.require_game(gid).version
    store.close()
    sql(data, "DELETE FROM events WHERE game_id=? AND seq=?", gid, last)
    body = web_verify(client, gid)
    assert body["chain_ok"] is False and body["first_broken_seq"] == last, body
    # the row lowered to match: the fold (no game end any more) disagrees with the row's status
    sql(data, "UPDATE games SET version=? WHERE game_id=?", last - 1, gid)
    body = web_verify(client, gid, receipt=json.dumps(receipt))
    assert body["status"] == "active" and "seed" not in body, body
    assert any("games.status is 'finished'" in p for p in body["row_problems"]), body
    assert body["receipt_ok"] is False


def test_reordered_events_are_found(client, tmp_path):
    data = tmp_path / "data"
    gid, _tokens, _receipt = play(client, 6)
    conn = sqlite3.connect(data / "umpire.db")
    conn.execute("UPDATE events SET seq=1000 WHERE game_id=? AND seq=4", (gid,))
    conn.execute("UPDATE events SET seq=4 WHERE game_id=? AND seq=5", (gid,))
    conn.execute("UPDATE events SET seq=5 WHERE game_id=? AND seq=1000", (gid,))
    conn.commit()
    conn.close()
    body = web_verify(client, gid)
    assert body["chain_ok"] is False and body["first_broken_seq"] == 4, body
    assert cli_verify(data, gid).returncode == 3


def test_a_raw_game_whose_row_and_header_agree_verifies(tmp_path):
    """The checks above add no false alarm: a game written straight into the store verifies."""
    store = EventStore(tmp_path / "d")
    create_raw_game(store, "g", seed=bytes.fromhex(SEED), ruleset="hoth", scenario="SCN-TAKE-DOWN-THE-SHIELD",
                    seats=("imperial", "rebel"))
    store.close()
    p = cli_verify(tmp_path / "d", "g")
    assert "chain: ok" in p.stdout and "games row: agrees with the log" in p.stdout, p.stdout


def test_a_campaign_row_lowered_to_chain_version_1_does_not_switch_its_check_off(client, tmp_path):
    r = client.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA", "seed": SEED})
    assert r.status_code == 201, r.text
    cid = r.json()["campaign_id"]
    sql(tmp_path / "data", "UPDATE campaign_events SET payload=replace(payload, 'C2-1', 'C2-3') WHERE campaign_id=?"
        " AND seq=2", cid)
    sql(tmp_path / "data", "UPDATE campaigns SET chain_version=1 WHERE campaign_id=?", cid)
    body = client.get(f"/campaigns/{cid}/verify").json()
    assert body["chain_ok"] is False and body["first_broken_seq"] == 1, body
    assert "campaigns.chain_version is 1" in body["problem"]


def test_an_export_downgraded_to_chain_version_1_is_refused_at_import(client, tmp_path):
    data = tmp_path / "data"
    gid, _tokens, _receipt = play(client, 6)
    out = tmp_path / "g.jsonl"
    assert umpire("export", gid, "--data-dir", str(data), "-o", str(out)).returncode == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    lines[0]["game"]["chain_version"] = 1
    prev = chain.GENESIS
    for e in lines[1:]:
        if e["type"] == "turn_started":
            e["payload"] = e["payload"].replace('"turn":1', '"turn":2')
        e["prev_hash"] = prev
        e["hash"] = prev = chain.v1_hash(prev, e)
    lines[0]["game"]["version"] = len(lines) - 1
    out.write_text("".join(json.dumps(x) + "\n" for x in lines))
    p = umpire("import", str(out), "--data-dir", str(tmp_path / "dest"))
    assert p.returncode != 0 and "game.chain_version is 1 but the log states chain version 2" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
