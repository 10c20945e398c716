"""Moving a store between backends (DESIGN section 11): a data dir with a finished game, an active game
and a campaign, made through the real app on SQLite, copied to a real PostgreSQL and back to a new
SQLite file; every game and campaign verifies after each copy, and the copies play on: the active game
takes its next command on PostgreSQL and on the SQLite copy, a retried command id answers its first
answer there, the finished game's seed and dice still verify. Then the service itself on PostgreSQL
(``UMPIRE_DATABASE_URL``), and ``umpire migrate`` through a real subprocess."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.store import EventStore, GameExists
from service.store import open_store
from service.store_copy import copy_store
from service.verify import verify_game

from .api_client import Api, assert_problem
from .test_api_game import _play
from .toy_ruleset import register

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN_SEED = "5a" * 32


def _api(store) -> Api:
    register()
    return TestClient(create_app(Settings(data_dir=str(store.data_dir)), store=store, read_models=None))


def _source(tmp_path: Path) -> tuple[EventStore, dict]:
    """A SQLite store with a finished toy game, an active one (commands sent with ids) and a campaign."""
    store = EventStore(tmp_path / "src")
    with _api(store) as client:
        api = Api(client, str(store.data_dir))
        done, _, final = _play(api, seed=5, check_leaks=False)
        g = api.create()
        gid, tokens = g["game_id"], g["seats"]
        answers = []
        for k in range(3):
            view = api.view(gid)
            seat = view["to_act"][0]
            cmd = next(c for c in api.legal(gid, tokens[seat])["commands"] if c["type"] != "end_turn")
            r = api.send(gid, tokens[seat], cmd, view["version"], command_id=f"cmd-{k}")
            assert r.status_code == 201, r.text
            answers.append((seat, cmd, view["version"], r.json()))
        r = client.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA",
                                            "seed": CAMPAIGN_SEED})
        assert r.status_code == 201, r.text
        camp = r.json()
    return store, {"finished": done, "final": final, "active": gid, "tokens": tokens, "answers": answers,
                   "campaign": camp}


def _plays_on(store, made: dict) -> None:
    """The copy behaves as the source: a retried id answers the same, the next command is taken,
    the finished game verifies with its seed and dice, the campaign reads."""
    gid, tokens = made["active"], made["tokens"]
    with _api(store) as client:
        api = Api(client, str(store.data_dir))
        seat, cmd, version, first = made["answers"][-1]
        again = api.send(gid, tokens[seat], cmd, version, command_id="cmd-2")
        assert again.status_code in (200, 201) and again.json()["version"] == first["version"], again.text
        view = api.view(gid)
        seat = view["to_act"][0]
        cmd = next(c for c in api.legal(gid, tokens[seat])["commands"] if c["type"] != "end_turn")
        assert api.send(gid, tokens[seat], cmd, view["version"]).status_code == 201
        assert_problem(api.send(gid, tokens[seat], cmd, view["version"]), 409)  # a stale version
        v = api.get(f"/games/{made['finished']}/verify").json()
        assert v["chain_ok"] and v["dice_ok"] and v["seed"] and v["commitments_ok"], v
        camp = made["campaign"]
        r = client.get(f"/campaigns/{camp['campaign_id']}", headers=Api.auth(camp["seats"]["rebel"]))
        assert r.status_code == 200, r.text


def test_sqlite_to_postgres_to_sqlite_every_game_verifies_after_each_copy(tmp_path, pg_server):
    src, made = _source(tmp_path)
    url = pg_server.new_database()
    try:
        pg = open_store(tmp_path / "pg-node", database_url=url)
        report = copy_store(src, pg)
        assert sorted(report.games) == sorted(src.game_ids()) and len(report.games) == 3  # 2 toys + 1 battle
        assert report.campaigns == [made["campaign"]["campaign_id"]]
        for gid in report.games:
            r = verify_game(pg, gid)
            assert r.chain_ok and r.row_ok and pg.load(gid) == src.load(gid)
            assert pg.seed(gid) == src.seed(gid) and pg.seat_hashes(gid) == src.seat_hashes(gid)
        with pytest.raises(GameExists):  # a second copy into the same store overwrites nothing
            copy_store(src, pg)
        back = EventStore(tmp_path / "back")
        copy_store(pg, back)
        for gid in report.games:
            r = verify_game(back, gid)
            assert r.chain_ok and r.row_ok and back.load(gid) == src.load(gid)
            assert back.require_game(gid) == src.require_game(gid)
            for seq in range(1, back.version(gid) + 1):
                assert back.command_body(gid, seq) == src.command_body(gid, seq)
        _plays_on(pg, made)
        _plays_on(back, made)
        pg.close()
        back.close()
    finally:
        src.close()
        pg_server.drop_database(url)


def test_umpire_migrate_and_verify_on_postgres_through_the_command_line(tmp_path, pg_server):
    src, made = _source(tmp_path)
    src.close()
    url = pg_server.new_database()
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}

    def umpire(*args: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=ROOT, env={**env, **extra},
                              capture_output=True, text=True, timeout=120)

    try:
        p = umpire("migrate", "--data-dir", str(tmp_path / "src"), "--to", url)
        assert p.returncode == 0, p.stderr
        assert "copied 3 games" in p.stdout and "1 campaigns" in p.stdout and "every copy verified" in p.stdout
        p = umpire("verify", made["finished"], "--data-dir", str(tmp_path / "node"), UMPIRE_DATABASE_URL=url)
        assert p.returncode == 0, p.stderr
        assert "chain: ok" in p.stdout and "dice: ok" in p.stdout
        p = umpire("migrate", "--data-dir", str(tmp_path / "node"), "--to", str(tmp_path / "back"),
                   UMPIRE_DATABASE_URL=url)
        assert p.returncode == 0, p.stderr
        back = EventStore(tmp_path / "back")
        assert sorted(back.game_ids()) == sorted(EventStore(tmp_path / "src").game_ids())
        back.close()
        p = umpire("verify", "g", "--data-dir", str(tmp_path / "node"), UMPIRE_DATABASE_URL="mysql://x")
        assert p.returncode != 0 and "only postgresql://" in p.stderr and "Traceback" not in p.stderr
    finally:
        pg_server.drop_database(url)
