"""A short fault drill in CI (ops/drill --quick in small): a real ``umpire serve``
process SIGKILLed under concurrent REST load and restarted, its Redis SIGKILLed
and restarted; then every acknowledged command is in the log with the same
hashes, the chains verify and the projections converge. Plus: the checks do
catch a lost or altered acknowledgement (they are not vacuous)."""
from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

import tests.rulesets.drill  # noqa: F401  (registers "drill" in this process)
from drills.checks import check_log
from drills.load import Ack, Tally, create_games
from drills.scenarios import Plan, _can_mount, disk_full, read_only, redis_outages, server_kills
from drills.server import Server
from service.redis_runtime import EmbeddedRedis

SMALL = Plan(games=2, seats_per_game=2, kills=2, interval_s=0.8, redis_outages=1, outage_s=1.0)


@pytest.fixture
def own_redis(tmp_path) -> Iterator[EmbeddedRedis]:
    """A Redis of the drill's own (drills kill it; the session's Redis stays untouched)."""
    with EmbeddedRedis(tmp_path / "redis") as r:
        yield r


def test_server_sigkill_under_load_loses_nothing_acknowledged(tmp_path, own_redis):
    rep = server_kills(tmp_path / "kills", own_redis, SMALL)
    f = rep.findings
    assert f is not None, rep.lines
    assert rep.ok, rep.lines
    assert f.acks > 0 and f.lost == [] and f.duplicated == []
    assert f.chain_broken == [] and f.cli_verify_failed == []
    assert f.not_converged == [] and f.converge_s is not None
    assert sum(1 for line in rep.lines if "SIGKILL" in line and line.startswith("kill ")) == SMALL.kills
    # the kills really hit requests in flight or a server that was down
    assert rep.tally is not None and rep.tally.statuses["connection error"] + rep.tally.statuses["timeout"] > 0


def test_redis_sigkill_commands_go_on_and_projections_converge(tmp_path, own_redis):
    rep = redis_outages(tmp_path / "redis-drill", own_redis, SMALL)
    assert rep.ok, rep.lines
    f = rep.findings
    assert f is not None and f.acks > 0 and f.lost == [] and f.not_converged == []
    assert any("commands acknowledged meanwhile" in line for line in rep.lines)


def test_full_disk_gives_problem_details_and_keeps_what_was_acknowledged(tmp_path, own_redis):
    rep = disk_full(tmp_path / "disk", own_redis, SMALL)
    if not _can_mount():
        assert rep.skipped and "root" in rep.skipped
        return
    assert rep.skipped is None and rep.ok, rep.lines
    refused = [line for line in rep.lines if "503 application/problem+json" in line]
    assert any("disk is full" in line for line in refused), rep.lines
    # the client-facing detail says what happened, never the server's database path
    assert refused and all(str(tmp_path) not in line and "umpire.db" not in line for line in refused), refused
    assert rep.findings is not None and rep.findings.lost == []


def test_read_only_data_dir_is_a_one_line_error_and_loses_nothing(tmp_path, own_redis):
    rep = read_only(tmp_path / "ro", own_redis, SMALL)
    if not _can_mount():
        assert rep.skipped and "root" in rep.skipped
        return
    assert rep.skipped is None and rep.ok, rep.lines
    assert any("exit 1: umpire: error: data dir" in line and "is not writable" in line for line in rep.lines), rep.lines
    assert rep.findings is not None and rep.findings.acks == 3 and rep.findings.lost == []


def test_the_checks_catch_a_lost_or_altered_acknowledgement(tmp_path, own_redis):
    with Server(tmp_path / "data", own_redis.url) as server:
        seat = create_games(server.url, 1, 1)[0]
        r = httpx.post(f"{server.url}/games/{seat.game_id}/commands",
                       headers={"Authorization": f"Bearer {seat.token}"},
                       json={"command": {"type": "tick", "events": 2}, "expected_version": seat.version,
                             "command_id": "real"})
        assert r.status_code == 201
        real = [(e["seq"], e["hash"]) for e in r.json()["events"]]
        now = time.monotonic()
        tally = Tally(
            acks=[Ack(seat.game_id, "real", now, 2, tuple(real)),
                  Ack(seat.game_id, "altered", now, 2, ((1, "0" * 64),)),  # a hash the log does not have
                  Ack(seat.game_id, "phantom", now, 3, ((3, real[0][1]),))],  # a seq the log does not have
            sent={seat.game_id: {"real", "altered", "phantom"}},
        )
        f = check_log(server.url, tmp_path / "data", tally, cli_verify=False)
    assert f.acks == 3
    assert sorted(x.split("/")[1] for x in f.lost) == ["altered", "phantom"]
    assert f.duplicated == [] and f.chain_broken == []


def test_two_workers_sigkilled_under_load_lose_nothing_acknowledged(tmp_path, own_redis):
    plan = Plan(games=2, seats_per_game=2, kills=1, interval_s=1.0)
    rep = server_kills(tmp_path / "workers", own_redis, plan, workers=2)
    assert rep.ok, rep.lines
    f = rep.findings
    assert f is not None and f.acks > 0 and f.lost == [] and f.duplicated == []
    assert f.chain_broken == [] and f.cli_verify_failed == [] and f.not_converged == []
    assert "--workers 2" in rep.lines[0]
