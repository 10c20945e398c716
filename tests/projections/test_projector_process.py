"""The projector process of ``umpire serve`` (issue 17, DESIGN 7): it follows the log, so games
written by any process reach Redis; killed (SIGKILL) while commands go on, nothing acknowledged is
lost and the next projector converges from the store."""
from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import msgspec

from projections import ReadModels, views
from service.cli import projector_command, projector_env
from service.game_service import CommandRequest, CreateGameRequest, GameService
from service.store import EventStore
from tests.polling import until

ROOT = Path(__file__).resolve().parents[2]
TOY = "import sys; sys.path.insert(0, %r)\nfrom tests.service.toy_ruleset import register; register()" % str(ROOT)
SEED = "0f" * 32
STEPS = [("north", "step"), ("north", "end_turn"), ("south", "step"), ("south", "end_turn")]


def _play(svc: GameService, game: dict, n: int, start: int = 0) -> int:
    v = game["version"]
    for i in range(start, start + n):
        seat, kind = STEPS[i % 4]
        v = svc.command(game["game_id"], game["seats"][seat],
                        CommandRequest(command={"type": kind}, expected_version=v)).body["version"]
    game["version"] = v
    return v


def _start(data: Path, url: str) -> subprocess.Popen:
    return subprocess.Popen(projector_command(str(data), TOY), cwd=str(ROOT),
                            env={**projector_env(url), "PYTHONPATH": str(ROOT)})


def test_the_projector_process_follows_the_log_and_converges_after_a_kill(tmp_path, redis_server, redis_client):
    from tests.service.toy_ruleset import register

    register()
    data = tmp_path / "data"
    store = EventStore(data)
    svc = GameService(store, None)  # the serving side: writes only, never projects
    rm = ReadModels(redis_client, store)
    early = svc.create_game(CreateGameRequest(ruleset="toy", scenario="duel", seed=SEED))
    _play(svc, early, 6)  # written before any projector ran

    proc = _start(data, redis_server.url)
    try:
        assert until(lambda: rm.last_seq(early["game_id"]) == early["version"]), "caught up at start"
        live = svc.create_game(CreateGameRequest(ruleset="toy", scenario="duel", seed=SEED))
        _play(svc, live, 5)
        assert until(lambda: rm.last_seq(live["game_id"]) == live["version"]), "follows the log"
        assert rm.game_view(live["game_id"], None)["version"] == live["version"]

        proc.send_signal(signal.SIGKILL)  # a crash: whatever it had read and not projected is gone
        proc.wait(10)
        _play(svc, live, 7, start=5)
        _play(svc, early, 3, start=6)
        assert rm.last_seq(live["game_id"]) < live["version"]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)

    proc = _start(data, redis_server.url)
    try:
        for g in (early, live):
            gid = g["game_id"]
            assert until(lambda: rm.last_seq(gid) == g["version"]), "converges from the store"
            assert len(rm.timeline(gid, version=g["version"])) == g["version"]
            # the same bodies as the log gives (the read model is only a faster copy)
            cur = svc.current(gid)
            want = views.game_view(cur.game, cur.ruleset, cur.state, "north", cur.version, kernel=cur.folded.kernel)
            assert rm.game_view(gid, "north", version=g["version"]) == msgspec.json.decode(msgspec.json.encode(want))
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0 or proc.returncode in (0, -signal.SIGTERM)
    store.close()
