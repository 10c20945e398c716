"""Edits of the stored log (issue 10): each one found by ``umpire verify`` (a real subprocess) and
``GET /games/{id}/verify`` -- a tail cut and a rewrite proven with a receipt, the games row checked
against the log, a reused roll index, a campaign's chained stream.

Games are Battle of Hoth games created over HTTP and played by a seeded random bot through the
service's command path (in process, to keep the test short)."""
from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from litestar.testing import TestClient

from domain.kernel import registry
from domain.kernel.dice import Dice, Roll
from domain.kernel import chain
from service.app import create_app
from service.game_service import CommandRequest
from service.settings import Settings
from service.store import EventStore, NewEvent

from .raw_games import create_raw_game

ROOT = Path(__file__).resolve().parents[2]
SEED = "3c" * 32
HOTH = registry.get("hoth")


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def umpire(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def play(client, commands: int, *, finish: bool = False, seed: int = 1) -> tuple[str, dict, dict]:
    """A hoth game: ``commands`` random legal commands (or to the end); (game id, tokens, last receipt)."""
    r = client.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": SEED})
    assert r.status_code == 201, r.text
    gid, tokens, receipt = r.json()["game_id"], r.json()["seats"], r.json()["receipt"]
    svc = client.app.state.games
    rng = random.Random(seed)
    for n in range(20_000):
        cur = svc.current(gid)
        st = HOTH.status(cur.state)
        if st.status == "finished" or (not finish and n >= commands):
            return gid, tokens, receipt
        seat = rng.choice(st.to_act)
        cmd = rng.choice(HOTH.legal_commands(cur.state, seat))
        ans = svc.command(gid, tokens[seat], CommandRequest(command=msgspec.to_builtins(cmd), expected_version=cur.version))
        assert ans.status == 201, ans.body
        receipt = ans.body["receipt"]
    raise AssertionError("the game did not end")


def sql(data_dir: Path, statement: str, *args) -> None:
    conn = sqlite3.connect(data_dir / "umpire.db")
    conn.execute(statement, args)
    conn.commit()
    conn.close()


def rechain(data_dir: Path, game_id: str, seed: bytes, after: int = 0) -> None:
    """An operator who rewrites the log consistently: every commitment and hash after ``after``
    recomputed with the seed (only a receipt can prove this one)."""
    store = EventStore(data_dir)
    events = store.load(game_id)
    store.close()
    conn = sqlite3.connect(data_dir / "umpire.db")
    prev = events[after - 1].hash if after else chain.GENESIS
    for e in events[after:]:
        d = msgspec.structs.asdict(e)
        d["prev_hash"] = prev
        c, h = chain.seal(prev, chain.commit_key(seed), d)
        conn.execute("UPDATE events SET prev_hash=?, commitment=?, hash=? WHERE game_id=? AND seq=?",
                     (prev, c, h, game_id, e.seq))
        prev = h
    conn.commit()
    conn.close()


def test_a_cut_tail_with_a_lowered_version_is_proven_by_a_receipt(client, tmp_path):
    data = tmp_path / "data"
    gid, _tokens, receipt = play(client, 40)
    (tmp_path / "receipt.json").write_text(json.dumps(receipt))
    v = receipt["version"]
    sql(data, "DELETE FROM events WHERE game_id=? AND seq > ?", gid, v - 3)
    sql(data, "UPDATE games SET version=? WHERE game_id=?", v - 3, gid)
    p = umpire("verify", gid, "--data-dir", str(data))
    assert p.returncode == 0, p.stdout  # the cut log is self-consistent: without a receipt nothing shows
    p = umpire("verify", gid, "--data-dir", str(data), "--receipt", str(tmp_path / "receipt.json"))
    assert p.returncode == 3, p.stdout + p.stderr
    assert "receipt: FAILED: the log was cut" in p.stdout
    client.app.state.games._cache.clear()
    body = client.get(f"/games/{gid}/verify", params={"receipt": json.dumps(receipt)}).json()
    assert body["receipt_ok"] is False and "cut" in body["receipt_problem"]
    # a receipt of an earlier version still holds: the log below it is intact
    early = client.app.state.games.receipt(gid, v - 5)
    assert client.get(f"/games/{gid}/verify", params={"receipt": json.dumps(early)}).json()["receipt_ok"] is True
    # a forged receipt (not signed by this server) proves nothing
    forged = dict(receipt, head="0" * 64)
    body = client.get(f"/games/{gid}/verify", params={"receipt": json.dumps(forged)}).json()
    assert body["receipt_ok"] is False and "signature" in body["receipt_problem"]


def test_a_log_rewritten_and_rechained_below_a_receipt_is_proven(client, tmp_path):
    data = tmp_path / "data"
    gid, _tokens, receipt = play(client, 30)
    (tmp_path / "r.json").write_text(json.dumps({"version": 0, "receipt": receipt}))  # a whole answer works too
    # the operator changes an early public event and re-chains everything after it
    sql(data, "UPDATE events SET recorded_at='2000-01-01T00:00:00+00:00' WHERE game_id=? AND seq=8", gid)
    rechain(data, gid, bytes.fromhex(SEED), after=7)
    p = umpire("verify", gid, "--data-dir", str(data))
    assert p.returncode == 0, p.stdout  # consistent, so only the receipt tells
    p = umpire("verify", gid, "--data-dir", str(data), "--receipt", str(tmp_path / "r.json"))
    assert p.returncode == 3 and "the log was rewritten" in p.stdout, p.stdout


@pytest.mark.parametrize("column, value", [("winner", "rebel"), ("scenario", "SCN-OTHER"), ("status", "finished"),
                                           ("ruleset", "smoke"), ("created_at", "2001-01-01")])
def test_every_games_row_edit_is_reported(client, tmp_path, column, value):
    data = tmp_path / "data"
    gid, _tokens, _receipt = play(client, 10)
    sql(data, f"UPDATE games SET {column}=? WHERE game_id=?", value, gid)
    p = umpire("verify", gid, "--data-dir", str(data))
    assert p.returncode == 3, p.stdout + p.stderr
    assert "games row: DISAGREES with the log" in p.stdout and f"games.{column}" in p.stdout
    if column == "status":
        # an active game marked finished: the seed is NOT revealed (the fold says active)
        assert SEED not in p.stdout
        body = client.get(f"/games/{gid}/verify").json()
        assert "seed" not in body and body["row_ok"] is False and body["status"] == "active"
        assert any("games.status" in x for x in body["row_problems"])


def test_a_finished_game_verifies_and_a_doctored_revealed_payload_does_not(client, tmp_path):
    data = tmp_path / "data"
    gid, tokens, receipt = play(client, 0, finish=True, seed=4)
    body = client.get(f"/games/{gid}/verify").json()
    assert body["chain_ok"] and body["row_ok"] and body["dice_ok"] and body["commitments_ok"], body
    assert body["seed"] == SEED
    p = umpire("verify", gid, "--data-dir", str(data))
    assert p.returncode == 0 and "event commitments: ok" in p.stdout, p.stdout
    # a hidden hand edited after the fact: its commitment no longer matches
    store = EventStore(data)
    drawn = next(e for e in store.load(gid) if e.type == "cards_drawn")
    store.close()
    payload = msgspec.json.decode(drawn.payload)
    payload["cards"] = list(reversed(payload["cards"]))
    sql(data, "UPDATE events SET payload=? WHERE game_id=? AND seq=?", msgspec.json.encode(payload).decode(), gid,
        drawn.seq)
    p = umpire("verify", gid, "--data-dir", str(data))
    assert p.returncode == 3 and f"chain: BROKEN at seq {drawn.seq}" in p.stdout, p.stdout


def test_a_reused_roll_index_and_a_face_that_does_not_follow_are_found(tmp_path):
    """A later roll reusing an earlier roll's index (with the value the seed gives for it) used to pass
    dice_ok; and a face recorded against its die's value."""
    seed = bytes.fromhex(SEED)
    for case in ("reuse", "skip", "face"):
        store = EventStore(tmp_path / case)
        v = create_raw_game(store, "g", seed=seed, ruleset="hoth", scenario="SCN-TAKE-DOWN-THE-SHIELD",
                            seats=("imperial", "rebel"))
        dice = Dice(seed, "g")
        dice.value(6)
        first = dice.take()
        v = store.append("g", v, [NewEvent(type="Marked", payload="{}", rolls=msgspec.json.encode(first).decode())],
                         status="active").version
        if case == "reuse":
            again = first  # index 0 again, the right value for index 0
        elif case == "skip":
            dice.value(6)
            dice.take()
            dice.value(6)
            again = dice.take()  # index 2: index 1 never used
        else:
            dice.value(6)
            again = dice.take()
        payload = "{}"
        ev_type = "Marked"
        if case == "face":
            from domain.hoth.combat import DIE_FACES

            wrong = DIE_FACES[(again[0].value + 3) % 6]
            ctx = {"attacker": "E1", "target": "R1", "distance": 2, "faces": [wrong]}
            payload = json.dumps({"type": "attack_rolled", "attack": ctx, "dice": 1, "attacker_hex": [0, 0],
                                  "target_hex": [2, 0]})
            ev_type = "attack_rolled"
        store.append("g", v, [NewEvent(type=ev_type, payload=payload, rolls=msgspec.json.encode(again).decode())],
                     status="finished", winner="imperial")
        store.close()
        p = umpire("verify", "g", "--data-dir", str(tmp_path / case), "--json")
        report = json.loads(p.stdout)
        assert p.returncode == 3 and report["dice_ok"] is False, (case, report)
        assert report["first_bad_roll_seq"] == 3
        want = {"reuse": "used again", "skip": "indices skipped", "face": "HOTH-DICE-3"}[case]
        assert want in report["dice_problem"], report["dice_problem"]


def test_a_campaign_has_a_chained_stream_and_an_edit_breaks_it(client, tmp_path):
    r = client.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA", "seed": SEED})
    assert r.status_code == 201, r.text
    cid = r.json()["campaign_id"]
    body = client.get(f"/campaigns/{cid}/verify").json()
    assert body["chain_ok"] is True and body["chain_version"] == 2 and body["version"] >= 2 and "seed" not in body
    # seq 1 records the chosen seed (UMPIRE-SEAT-6); the campaign's own first event follows
    sql(tmp_path / "data", "UPDATE campaign_events SET payload=replace(payload, 'C2-1', 'C2-3') WHERE campaign_id=?"
        " AND seq=3", cid)
    body = client.get(f"/campaigns/{cid}/verify").json()
    assert body["chain_ok"] is False and body["first_broken_seq"] == 3, body
