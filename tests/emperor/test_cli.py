"""The Emperor through the operator's command line (registered like every ruleset): replay step by
step with rulings, verify, export and import of a finished game."""
from __future__ import annotations

import json
import random

import msgspec
from click.testing import CliRunner

from service.cli import main
from service.game_service import CommandRequest, CreateGameRequest, GameService
from service.store import EventStore

SEED = "cd" * 32


def _finished_game(data_dir):
    store = EventStore(data_dir)
    gs = GameService(store)
    g = gs.create_game(CreateGameRequest(ruleset="emperor", scenario="SETUP-AKHENA-VS-REBEL", seed=SEED))
    rng = random.Random(2)
    for _ in range(2000):
        cur = gs.current(g["game_id"])
        st = cur.ruleset.status(cur.state)
        if st.status != "active":
            break
        cmd = msgspec.to_builtins(rng.choice(cur.ruleset.legal_commands(cur.state, "human")))
        ans = gs.command(g["game_id"], g["seats"]["human"], CommandRequest(command=cmd, expected_version=cur.version))
        assert ans.status == 201, ans.body
    store.close()
    return g["game_id"]


def test_replay_verify_export_import(tmp_path):
    gid = _finished_game(tmp_path / "src")
    run = CliRunner()
    res = run.invoke(main, ["replay", gid, "--data-dir", str(tmp_path / "src")])
    assert res.exit_code == 0, res.output
    assert "order card" in res.output and any(ln.strip().startswith("SOLO-MOVE-7:") for ln in res.output.splitlines())
    at = json.loads(run.invoke(main, ["replay", gid, "--data-dir", str(tmp_path / "src"), "--at", "3", "--json"]).output)
    assert at["version"] == 3 and at["ruleset"] == "emperor"
    v = run.invoke(main, ["verify", gid, "--data-dir", str(tmp_path / "src"), "--json"])
    assert v.exit_code == 0, v.output
    body = json.loads(v.output)
    assert body["chain_ok"] and body["dice_ok"] and body["seed"] == SEED
    out = tmp_path / "g.jsonl"
    assert run.invoke(main, ["export", gid, "--data-dir", str(tmp_path / "src"), "-o", str(out)]).exit_code == 0
    assert run.invoke(main, ["import", str(out), "--data-dir", str(tmp_path / "dst")]).exit_code == 0
    v2 = run.invoke(main, ["verify", gid, "--data-dir", str(tmp_path / "dst"), "--json"])
    assert v2.exit_code == 0 and json.loads(v2.output)["dice_ok"] is True
