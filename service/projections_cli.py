"""``umpire projections ...``: the operator's commands for the read models.

    umpire projections rebuild [--data-dir DIR] [--redis-url URL] [--fresh] [--no-resume]
    umpire projections status  [--data-dir DIR] [--redis-url URL] [--json]

The rebuild writes into the Redis at ``--redis-url`` (or ``$UMPIRE_REDIS_URL``)
-- the one the running service uses. Without either, it starts a private
Redis for the run and stops it afterwards: an embedded Redis belongs to the
process that started it, so that run only proves every game projects cleanly
(a dry run); the service rebuilds its own embedded Redis by itself at start.
"""
from __future__ import annotations

import sys
import tempfile

import click
import msgspec

from projections.keys import GameKeys
from projections.read_models import REDIS_ERRORS, ProjectionError
from projections.rebuild import rebuild
from service.cli_support import fail
from service.cli_support import open_existing_store as _open_existing_store
from service.redis_runtime import EmbeddedRedis, RedisRuntimeError
from service.settings import (
    REDIS_URL_FILE,
    Settings,
    SettingsError,
    recorded_redis,
    redis_client,
)
from service.store import StoreError

COMMANDS: list[click.Command] = []


@click.group("projections")
def projections_group() -> None:
    """Redis read models: rebuild them from the event log."""


@projections_group.command("rebuild")
@click.option("--data-dir", type=str, default=None, help="Directory of the event store (default: $UMPIRE_DATA_DIR or ./data).")
@click.option("--redis-url", type=str, default=None,
              help="Redis to rebuild (default: $UMPIRE_REDIS_URL; unset: a private Redis for a dry run).")
@click.option("--fresh", is_flag=True, help="Delete every projection key first (after a change of the view code).")
@click.option("--resume/--no-resume", default=True, show_default=True,
              help="Continue an interrupted rebuild from its checkpoint.")
def rebuild_cmd(data_dir: str | None, redis_url: str | None, fresh: bool, resume: bool) -> None:
    """Rebuild every game's read models from the log, with a progress bar (resumable, idempotent)."""
    embedded = None
    tmp = None
    try:
        settings = Settings.from_env(data_dir=data_dir, redis_url=redis_url)
        store = _open_existing_store(settings.data_dir, settings.database_url)
        url = settings.redis_url
        if url is None:
            tmp = tempfile.TemporaryDirectory(prefix="umpire-redis-")
            embedded = EmbeddedRedis(tmp.name)
            url = embedded.start()
            click.echo("umpire: no --redis-url or UMPIRE_REDIS_URL: rebuilding into a private Redis"
                       " for this run only (a dry run)", err=True)
        client = redis_client(url, cluster=settings.redis_cluster and url == settings.redis_url)
        bar_state = {"bar": None, "shown": 0}

        with click.progressbar(length=1, label="rebuilding projections", show_pos=True) as bar:
            def progress(done: int, total: int) -> None:
                bar.length = max(total, 1)
                bar.update(done - bar_state["shown"])
                bar_state["shown"] = done

            report = rebuild(store, client, progress=progress, resume=resume, fresh=fresh)
        resumed = f", resumed after {report.resumed_from}" if report.resumed_from else ""
        click.echo(f"rebuilt {report.games} games, {report.events} events{resumed} into {url}")
    except (StoreError, SettingsError, RedisRuntimeError, ProjectionError) as exc:
        fail(str(exc))
    except REDIS_ERRORS as exc:
        fail(f"redis: {exc} (run the rebuild again: it resumes from its checkpoint)")
    finally:
        if embedded is not None:
            embedded.stop()
        if tmp is not None:
            tmp.cleanup()


@projections_group.command("status")
@click.option("--data-dir", type=str, default=None, help="Directory of the event store (default: $UMPIRE_DATA_DIR or ./data).")
@click.option("--redis-url", type=str, default=None,
              help="The service's Redis (default: $UMPIRE_REDIS_URL, else the private Redis that `umpire serve` "
                   "recorded in the data dir's redis.url).")
@click.option("--json", "as_json", is_flag=True, help="Print the games as JSON lines.")
def status_cmd(data_dir: str | None, redis_url: str | None, as_json: bool) -> None:
    """How far each game's read models are behind the log (exit 4 when any is)."""
    try:
        settings = Settings.from_env(data_dir=data_dir, redis_url=redis_url)
        url = settings.redis_url or recorded_redis(settings.data_dir)
        if url is None:
            fail(f"--redis-url or UMPIRE_REDIS_URL: which Redis? (no `umpire serve` with a private Redis runs on "
                 f"{settings.data_dir}: it would have recorded it in {REDIS_URL_FILE} there)")
        store = _open_existing_store(settings.data_dir, settings.database_url)
        client = redis_client(url, cluster=settings.redis_cluster, socket_connect_timeout=5)
        games = store.games()
        pipe = client.pipeline(transaction=False)
        for g in games:
            pipe.hget(GameKeys(g.game_id).meta, "seq")
        seqs = pipe.execute()
    except (StoreError, SettingsError) as exc:
        fail(str(exc))
    except REDIS_ERRORS as exc:
        fail(f"redis: {exc}")
    behind = 0
    for g, raw in zip(games, seqs):
        projected = None if raw is None else int(raw)
        lag = g.version - (projected if projected is not None else -1)
        behind += lag != 0
        if as_json:
            click.echo(msgspec.json.encode({"game_id": g.game_id, "version": g.version, "projected": projected,
                                            "behind": lag}).decode())
        else:
            state = "ok" if lag == 0 else ("no models" if projected is None else f"{lag} behind")
            click.echo(f"{g.game_id}  log {g.version}  redis {'-' if projected is None else projected}  {state}")
    if not as_json:
        click.echo(f"{len(games)} games, {behind} behind")
    if behind:
        sys.exit(EXIT_BEHIND)


#: ``umpire projections status`` exit code when a game's models are behind the log.
EXIT_BEHIND = 4

COMMANDS.append(projections_group)
