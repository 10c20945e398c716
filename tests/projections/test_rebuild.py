"""FLUSHALL, then rebuild: the models equal what they were (DESIGN section 7);
the rebuild is resumable (checkpoint) and idempotent, and `umpire projections
rebuild` shows a progress bar."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from projections import ReadModels
from projections.keys import REBUILD_CHECKPOINT
from projections.rebuild import clear_models, rebuild

from .helpers import dump
from .tally import create_game, new_game


class Interrupted(Exception):
    pass


def _games(store):
    """Four games whose events interleave in the log (rowid order)."""
    scripts = {gid: new_game(store, gid, seed=seed) for gid, seed in (("g1", 31), ("g2", 32), ("g3", 33))}
    create_game(store, "g4")
    target = {"g1": 700, "g2": 300, "g3": 450}
    while any(s.version < target[g] for g, s in scripts.items()):
        for gid, s in scripts.items():
            if s.version < target[gid]:
                s.play(min(s.version + 40, target[gid]), per_append=8)
    scripts["g2"].win()


def _live_models(redis_client, store) -> dict:
    """The models as the service leaves them: projected after every command, then caught up."""
    rm = ReadModels(redis_client, store)
    for g in store.games():
        for ev in store.load(g.game_id):
            rm.project(g.game_id, upto=ev.seq)
    rm.catch_up_all()
    return dump(redis_client)


def test_flushall_then_rebuild_gives_the_same_models(redis_client, store):
    _games(store)
    before = _live_models(redis_client, store)
    assert len(before) > 20
    redis_client.flushall()
    seen = []
    report = rebuild(store, redis_client, progress=lambda done, total: seen.append((done, total)))
    assert dump(redis_client) == before
    total = sum(g.version for g in store.games())
    assert report.events == total and report.games == 4 and report.resumed_from == 0
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    # idempotent: again over the full models changes nothing
    rebuild(store, redis_client)
    assert dump(redis_client) == before


def test_an_interrupted_rebuild_resumes_from_its_checkpoint(redis_client, store):
    _games(store)
    before = _live_models(redis_client, store)
    redis_client.flushall()

    def stop_midway(done: int, total: int) -> None:
        if done >= total // 2:
            raise Interrupted()

    with pytest.raises(Interrupted):
        rebuild(store, redis_client, progress=stop_midway, batch=100)
    checkpoint = int(redis_client.get(REBUILD_CHECKPOINT))
    assert checkpoint > 0
    seen = []
    report = rebuild(store, redis_client, progress=lambda d, t: seen.append(d), batch=100)
    assert report.resumed_from > 0 and seen[0] == report.resumed_from
    assert report.processed == report.events - report.resumed_from
    assert redis_client.get(REBUILD_CHECKPOINT) is None
    assert dump(redis_client) == before


def test_fresh_rebuild_replaces_damaged_models(redis_client, store):
    _games(store)
    before = _live_models(redis_client, store)
    # damage: a view edited by hand and a timeline entry lost
    redis_client.set("{g:g1}:view:-", b'{"bogus":true}')
    redis_client.rpop("{g:g2}:timeline")
    redis_client.set("unrelated", b"kept")
    rebuild(store, redis_client, fresh=True)
    assert dump(redis_client, skip=("unrelated",)) == before
    assert redis_client.get("unrelated") == b"kept"
    assert clear_models(redis_client) > 0
    assert list(redis_client.scan_iter()) == [b"unrelated"]


def test_cli_rebuild_with_a_progress_bar(redis_client, redis_url, store):
    from service.cli import main

    _games(store)
    before = _live_models(redis_client, store)
    redis_client.flushall()
    result = CliRunner().invoke(main, ["projections", "rebuild", "--data-dir", str(store.data_dir),
                                       "--redis-url", redis_url])
    assert result.exit_code == 0, result.output
    assert "rebuilding projections" in result.output
    assert f"rebuilt 4 games, {sum(g.version for g in store.games())} events" in result.output
    assert dump(redis_client) == before


def test_cli_rebuild_without_a_url_is_a_dry_run_in_a_private_redis(store, monkeypatch):
    from service.cli import main

    monkeypatch.delenv("UMPIRE_REDIS_URL", raising=False)
    new_game(store, "g1", seed=34, events=30)
    result = CliRunner().invoke(main, ["projections", "rebuild", "--data-dir", str(store.data_dir)])
    assert result.exit_code == 0, result.output
    assert "dry run" in result.output and "rebuilt 1 games, 30 events" in result.output


def test_cli_rebuild_names_a_missing_data_dir(tmp_path, redis_url):
    from service.cli import main

    result = CliRunner().invoke(main, ["projections", "rebuild", "--data-dir", str(tmp_path / "nope"),
                                       "--redis-url", redis_url])
    assert result.exit_code == 1
    assert "does not exist" in result.output


def test_cli_status_shows_games_behind_the_log(redis_client, redis_url, store):
    from service.cli import main

    s = new_game(store, "g1", seed=35, events=20)
    create_game(store, "g2")
    rm = ReadModels(redis_client, store)
    rm.project("g1")
    s.command()
    args = ["projections", "status", "--data-dir", str(store.data_dir), "--redis-url", redis_url]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 4, result.output
    assert "g2  log 0  redis -  no models" in result.output
    assert f"g1  log {s.version}  redis 20  {s.version - 20} behind" in result.output
    rm.catch_up_all()
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "2 games, 0 behind" in result.output
