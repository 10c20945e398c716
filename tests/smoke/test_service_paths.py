"""Clouds of Smoke through the service paths that hoth uses: the command path with undo (a free undo
of a move restores the fold), and the operator's CLI on a finished game (export, import, verify,
replay), with nothing smoke-specific in ``service/``."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import msgspec

from domain.kernel import registry
from service.game_service import CommandRequest, CreateGameRequest, GameService
from service.store import EventStore

ROOT = Path(__file__).resolve().parents[2]
SEED = "3c" * 32
RS = registry.get("smoke")


def umpire(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def send(svc: GameService, gid: str, token: str, cmd) -> dict:
    cur = svc.current(gid)
    body = msgspec.to_builtins(cmd)
    ans = svc.command(gid, token, CommandRequest(command=body, expected_version=cur.version))
    assert ans.status == 201, ans.body
    return ans.body


def test_a_free_undo_of_a_smoke_move_restores_the_state(tmp_path, monkeypatch):
    from service.undo import request_undo

    monkeypatch.setattr("service.game_service.new_game_id", lambda: "smoke-undo")
    svc = GameService(EventStore(tmp_path / "data"))
    g = svc.create_game(CreateGameRequest(ruleset="smoke", scenario="BTL-CROSSROADS", seed=SEED))
    gid, tok = g["game_id"], g["seats"]
    before = None
    for _ in range(40):
        cur = svc.current(gid)
        seat = RS.status(cur.state).to_act[0]
        cmds = RS.legal_commands(cur.state, seat)
        moves = [c for c in cmds if type(c).__name__ == "Move" and (c.distance or c.vector)]
        if moves:
            before = cur
            send(svc, gid, tok[seat], moves[0])
            break
        pick = next((c for c in cmds if type(c).__name__ in ("PlaceDie",) and c.slot == "A1"), None) or next(
            (c for c in cmds if type(c).__name__ in ("EndPlacement", "Activate")), cmds[0])
        send(svc, gid, tok[seat], pick)
    assert before is not None, "a move was offered"
    moved = svc.current(gid).state
    assert moved.units != before.state.units
    ans = request_undo(svc, gid, tok[seat], before.version)
    assert ans.status == 201 and ans.body["undo"] == "done", ans.body
    after = svc.current(gid).state
    assert after == before.state
    svc.store.close()


def test_export_import_verify_and_replay_of_a_finished_smoke_game(tmp_path, monkeypatch):
    monkeypatch.setattr("service.game_service.new_game_id", lambda: "smoke-cli")
    src = tmp_path / "src"
    svc = GameService(EventStore(src))
    g = svc.create_game(CreateGameRequest(ruleset="smoke", scenario="BTL-CROSSROADS", seed=SEED))
    gid, tok = g["game_id"], g["seats"]
    rng = random.Random(2)
    for _ in range(2000):
        cur = svc.current(gid)
        st = RS.status(cur.state)
        if st.status == "finished":
            break
        seat = st.to_act[0]
        cmds = RS.legal_commands(cur.state, seat)
        busy = [c for c in cmds if type(c).__name__ not in ("EndActivation", "EndActions", "EndTactics", "Bombard")]
        send(svc, gid, tok[seat], rng.choice(busy if busy and rng.random() < 0.8 else cmds))
    assert RS.status(svc.current(gid).state).status == "finished"
    svc.store.close()
    out = tmp_path / "g.jsonl"
    p = umpire("export", gid, "--data-dir", str(src), "-o", str(out))
    assert p.returncode == 0, p.stderr
    p = umpire("import", str(out), "--data-dir", str(tmp_path / "dest"))
    assert p.returncode == 0, p.stderr
    p = umpire("verify", gid, "--data-dir", str(tmp_path / "dest"))
    assert p.returncode == 0, p.stderr
    assert "chain: ok" in p.stdout and "dice: ok" in p.stdout
    p = umpire("replay", gid, "--data-dir", str(tmp_path / "dest"))
    assert p.returncode == 0, p.stderr
    assert "wins" in p.stdout or "draw" in p.stdout
