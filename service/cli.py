"""The ``umpire`` command line: the service and the operator's commands.

    umpire serve  [--host H] [--port P] [--data-dir DIR] [--redis-url URL] [--workers N]
    umpire verify GAME_ID [--data-dir DIR] [--receipt FILE] [--public-key B64]
    umpire export GAME_ID [--data-dir DIR] [-o FILE] [--with-secrets]
    umpire import FILE [--data-dir DIR]

Options fall back on the environment (see :mod:`service.settings`). Errors are
one line on stderr (``umpire: error: ...``) and exit code 1; ``verify`` exits
with 3 when the game does not verify.

Plug-ins: the optional modules named in :data:`PLUGIN_MODULES` (and any in
``UMPIRE_CLI_PLUGINS``, comma-separated) are imported; every click command in
their module-level ``COMMANDS`` list becomes a subcommand. A missing module is
skipped; a broken one prints a one-line warning and the CLI goes on.

Over 500 lines on purpose: ``serve`` supervises its workers and projector process here (the part that
makes it long); each other command is a thin click command over the service's modules.
"""
from __future__ import annotations

import atexit
import fcntl
import functools
import importlib
import inspect
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
import msgspec

from . import gc_tuning
from .access_log import AccessLog
from .cli_support import EXIT_NOT_VERIFIED, fail
from .cli_support import open_existing_store as _open_existing_store
from .json_logs import install, json_wanted
from .metrics import process_dead
from .receipts import ReceiptKeyError, load_or_create, public_key_of, unb64url
from .redis_runtime import EmbeddedRedis, RedisRuntimeError, _die_with_parent
from .settings import (
    ENV_DATA_DIR,
    ENV_REDIS_URL,
    REDIS_URL_FILE,
    Settings,
    SettingsError,
    forget_private_redis,
    record_private_redis,
)
from .store import StoreError
from .store import PG_SCHEMES, open_store
from .store_copy import copy_store
from .transfer import TransferError, export_lines, read_export
from .verify import parse_receipt, verify_game
from scenarios.content import hand_to_rulesets

PLUGIN_MODULES = ("scenarios.cli", "service.projections_cli", "service.replay_cli")
ENV_PLUGINS = "UMPIRE_CLI_PLUGINS"

F = TypeVar("F", bound=Callable[..., Any])


def clear_errors(fn: F) -> F:
    """Turn every expected failure into one line on stderr and a non-zero exit."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (StoreError, SettingsError, RedisRuntimeError, ReceiptKeyError) as exc:
            fail(str(exc))
        except OSError as exc:
            where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
            fail(f"{exc.strerror or exc}{':' if where else ''}{where}")
        except (ValueError, msgspec.MsgspecError) as exc:
            fail(str(exc))

    return wrapper  # type: ignore[return-value]


data_dir_option = click.option(
    "--data-dir", type=str, default=None,
    help="Directory of the event store (default: $UMPIRE_DATA_DIR or ./data).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """umpire: an impartial referee for tabletop wargames, run as a REST service."""
    hand_to_rulesets()  # every command's rulesets with their content (scenarios/)


@main.command()
@click.option("--host", default=None, help="Bind address (default: $UMPIRE_HOST or 127.0.0.1).")
@click.option("--port", default=None, help="TCP port (default: $UMPIRE_PORT or 8000).")
@data_dir_option
@click.option("--redis-url", default=None, help="Existing Redis (default: $UMPIRE_REDIS_URL; unset: start a private one).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes (uvicorn); they share the SQLite log and the one Redis.")
@click.option("--access-log/--no-access-log", default=True, show_default=True, envvar="UMPIRE_ACCESS_LOG",
              help="Log every request (seat tokens in query strings redacted); off saves a few per cent of CPU.")
@click.option("--projector", type=click.Choice(["process", "thread"]), default="process", show_default=True,
              envvar="UMPIRE_PROJECTOR",
              help="Where the Redis read models are projected: a projector process following the log (started "
                   "and restarted by serve), or a thread in each worker.")
@clear_errors
def serve(host: str | None, port: str | None, data_dir: str | None, redis_url: str | None, workers: int = 1,
          access_log: bool = True, projector: str = "process") -> None:
    """Run the REST service (and a private Redis unless UMPIRE_REDIS_URL is set)."""
    settings = Settings.from_env(data_dir=data_dir, host=host, port=port, redis_url=redis_url)
    open_store(settings.data_dir, database_url=settings.database_url or "").close()  # a clear error now
    load_or_create(settings.data_dir)  # the receipt key, made once before any worker starts
    try:  # the collector's settings (UMPIRE_GC_THRESHOLDS, UMPIRE_GC_FREEZE): a clear error now, not in each worker
        gc_tuning.thresholds(), gc_tuning.freezing()
    except ValueError as exc:
        fail(str(exc))
    # DESIGN 16: every process of this serve (workers, projector) writes its metrics into a private directory
    # of its own, made now; set before service.metrics is imported anywhere (prometheus_client reads it on
    # import). Never in the data dir: prometheus_client writes its samples through mmap, and a full data disk
    # would kill the process (SIGBUS) instead of answering 503 and keeping what was acknowledged.
    os.environ[ENV_METRICS_DIR] = metrics_dir()
    try:
        from .app import create_app  # cold path: the litestar app, only for serve
    except ImportError as exc:
        fail(f"the REST app (service.app) cannot be loaded: {exc}")
    import uvicorn  # cold path: the HTTP server, only for serve

    embedded: EmbeddedRedis | None = None
    tmp: tempfile.TemporaryDirectory[str] | None = None
    follower: Supervised | None = None
    try:
        if settings.redis_url is None:
            redis_dir, _lock = private_redis_dir(settings.data_dir)
            if redis_dir is None:  # another serve of this data dir keeps its Redis there: one of our own
                tmp = tempfile.TemporaryDirectory(prefix="umpire-redis-")
                click.echo("umpire: the data dir's Redis is in use by another umpire serve; this one starts "
                           "an empty private Redis (its read models are projected from the log)", err=True)
            embedded = EmbeddedRedis(redis_dir or tmp.name, persistent=redis_dir is not None)
            url = embedded.start()
            embedded.watch()  # restarted if it dies; the projections catch up by themselves
            settings = msgspec.structs.replace(settings, redis_url=url)
            record_private_redis(settings.data_dir, url)  # `umpire projections status` finds it there
            click.echo(f"umpire: private redis-server pid {embedded.pid} at {embedded.safe_url}"
                       f" (password-protected; restarted if it dies; recorded in "
                       f"{Path(settings.data_dir) / REDIS_URL_FILE})", err=True)
        if projector == "process":
            follower = Supervised(projector_command(settings.data_dir), "projector",
                                  env=projector_env(settings.redis_url or ""))
            follower.start()
        os.environ[ENV_PROJECTOR] = projector
        if workers > 1:
            # Each worker builds its app from the environment (worker_app); the
            # private Redis above is started once, here, and shared by all.
            os.environ.update({ENV_DATA_DIR: settings.data_dir, ENV_REDIS_URL: settings.redis_url or ""})
            _run_workers(settings, workers, access_log=access_log)
        else:
            os.environ[ENV_ACCESS_LOG] = "1" if access_log else "0"
            app = served(create_app(settings, projector=projector))
            gc_tuning.tune()  # the started process's objects frozen, the collector's thresholds set (issue 26)
            uvicorn.run(app, host=settings.host, port=settings.port, log_level="info",
                        access_log=False, **_log_config(), **SERVER_STACK)
    finally:
        if follower is not None:
            follower.stop()
        if embedded is not None:
            forget_private_redis(settings.data_dir, settings.redis_url or "")
            embedded.stop()
        if tmp is not None:
            tmp.cleanup()


#: prometheus_client's multi-process directory (``service.metrics``).
ENV_METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR"
#: Where that directory is made: memory (tmpfs) where the system has it, else the temporary directory.
METRICS_PARENTS = ("/dev/shm", None)


def metrics_dir() -> str:
    """A new empty directory (mode 0700) for this serve's metric samples, removed when serve exits: the
    samples of an earlier serve are never counted again, and a full data disk never reaches them."""
    for parent in METRICS_PARENTS:
        if parent is None or os.access(parent, os.W_OK):
            path = tempfile.mkdtemp(prefix="umpire-metrics-", dir=parent)
            atexit.register(shutil.rmtree, path, True)
            return path
    raise AssertionError("unreachable: the last parent is the temporary directory")


#: The private Redis's directory inside the data dir: its RDB snapshot keeps the read models across
#: restarts (a warm start: the projector resumes instead of projecting every game again).
PRIVATE_REDIS_DIR = "redis"


def private_redis_dir(data_dir: str) -> tuple[str | None, Any]:
    """(the private Redis's directory in ``data_dir``, the open lock file that keeps it ours while we run),
    or (None, None) when another ``umpire serve`` of this data dir holds it."""
    path = Path(data_dir) / PRIVATE_REDIS_DIR
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path, 0o700)  # the read models hold every seat's view
    lock = open(path / "serve.lock", "a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        return None, None
    _HELD_LOCKS.append(lock)
    return str(path), lock


_HELD_LOCKS: list[Any] = []


#: Where a worker projects (``process``: the projector process does; ``thread``: its own thread).
ENV_PROJECTOR = "UMPIRE_PROJECTOR"
#: Seconds between two looks at a supervised process (restarted when it has died).
SUPERVISE_EVERY_S = 0.5


def projector_command(data_dir: str, prelude: str = "") -> list[str]:
    """The projector process's argv (:func:`service.projector_process.main`); ``prelude``: Python run first
    (the benchmarks register their test ruleset with it). The Redis URL is not in it: the argv of every
    process is world-readable (``ps``, ``/proc/<pid>/cmdline``) and the URL holds the Redis password; it
    goes in the child's environment (:func:`projector_env`), readable by its own user only."""
    code = f"{prelude}\nfrom service.projector_process import main; main()"
    return [sys.executable, "-c", code, "--data-dir", data_dir]


def projector_env(redis_url: str, base: dict[str, str] | None = None) -> dict[str, str]:
    """The projector process's environment: ``base`` (default: this process's) with
    :data:`~service.settings.ENV_REDIS_URL` set to ``redis_url``."""
    return {**(dict(os.environ) if base is None else base), ENV_REDIS_URL: redis_url}


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    signal.signal(signum, signal.SIG_DFL)
    raise SystemExit(128 + signum)


class Supervised:
    """A child process kept running: restarted when it dies, until :meth:`stop`."""

    def __init__(self, cmd: list[str], name: str, env: dict[str, str] | None = None):
        """``env``: the child's environment (default: this process's); secrets go there, never in ``cmd``."""
        self.cmd, self.name, self.env = cmd, name, env
        self.proc: Any = None
        self.restarts = 0
        self._stop = threading.Event()
        self._watch: Any = None

    def _spawn(self) -> Any:
        return subprocess.Popen(self.cmd, env=self.env, preexec_fn=_die_with_parent)  # it never outlives serve

    def start(self) -> None:
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
            # uvicorn re-raises the SIGTERM it handled: exit through SystemExit so that stop() runs
            signal.signal(signal.SIGTERM, _exit_on_sigterm)
        self.proc = self._spawn()
        self._watch = threading.Thread(target=self._loop, name=f"umpire-supervise-{self.name}", daemon=True)
        self._watch.start()

    def _loop(self) -> None:
        while not self._stop.wait(SUPERVISE_EVERY_S):
            if self.proc.poll() is not None and not self._stop.is_set():
                click.echo(f"umpire: the {self.name} exited ({self.proc.returncode}); restarting it", err=True)
                self.restarts += 1
                _forget_metrics_of(self.proc.pid)
                self.proc = self._spawn()

    def stop(self) -> None:
        self._stop.set()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def _log_config() -> dict[str, Any]:
    """uvicorn's logging configuration: none with JSON logs (its loggers then go through the JSON handler
    that :func:`served` installs on the root logger), else its own."""
    return {"log_config": None} if json_wanted() else {}


def _forget_metrics_of(pid: int) -> None:
    """A dead process's live gauges leave the scrape (``service.metrics`` in multi-process mode)."""
    if os.environ.get(ENV_METRICS_DIR):
        process_dead(pid)


def tcp_listener(sock: Any) -> Any:
    """``sock`` (a bound TCP listening socket) with ``proto`` IPPROTO_TCP, which asyncio
    needs to set TCP_NODELAY on the connections it accepts (see :func:`_run_workers`)."""
    if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto != socket.IPPROTO_TCP:
        sock = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
        sock.set_inheritable(True)
    return sock


#: The server stack, chosen by measurement (issue 17: uvloop + httptools +16-23% over asyncio + h11;
#: granian about the same as this): uvicorn's "auto" picks them when installed, named here so that a
#: missing one is an error, not a silent slowdown.
SERVER_STACK: dict[str, Any] = {"loop": "uvloop", "http": "httptools"}


def run_http(factory: str, host: str, port: int, workers: int = 1, *, access_log: bool = True) -> None:
    """Serve the ASGI app that ``factory`` ("module:callable") builds exactly as ``umpire serve`` does
    (same stack, same multi-process supervisor): the benchmarks serve their bare handlers this way."""
    import uvicorn  # cold path: the HTTP server, only for serve

    if workers > 1:
        _run_workers(Settings.from_env(host=host, port=str(port)), workers, access_log=access_log, factory=factory)
    else:
        os.environ[ENV_ACCESS_LOG] = "1" if access_log else "0"
        uvicorn.run(factory, factory=True, host=host, port=port, log_level="info", access_log=False, **SERVER_STACK)


def _run_workers(settings: Settings, workers: int, *, access_log: bool = True,
                 factory: str = "service.cli:worker_app") -> None:
    """uvicorn's multi-process supervisor, with one fix: the listening socket says
    IPPROTO_TCP, so asyncio turns TCP_NODELAY on for every accepted connection.
    (uvicorn binds it with proto 0 -- Kludex/uvicorn#3149 -- and then every
    keep-alive response waits ~40 ms for the client's delayed ACK.)"""
    import uvicorn  # cold path: the HTTP server, only for serve
    from uvicorn.supervisors import (
        Multiprocess,  # cold path: the HTTP server, only for serve
    )

    os.environ[ENV_ACCESS_LOG] = "1" if access_log else "0"  # read by each worker's factory (served)
    if _log_config():  # JSON logs: the supervisor's own lines too

        install()
    config = uvicorn.Config(factory, factory=True, workers=workers, host=settings.host,
                            port=int(settings.port), log_level="info", access_log=False, **_log_config(),
                            **SERVER_STACK)
    sock = tcp_listener(config.bind_socket())
    if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn < 0.36
        Multiprocess(config, target=uvicorn.Server(config).run, sockets=[sock]).run()  # type: ignore[call-arg]
    else:
        Multiprocess(config, sockets=[sock]).run()


#: Whether served apps write umpire's access log (``umpire serve --access-log/--no-access-log``; default 1).
ENV_ACCESS_LOG = "UMPIRE_ACCESS_LOG"


#: The interpreter's thread switch interval in a served process (PROPOSED; CPython's default is 5 ms). A
#: group commit's leader thread returns from SQLite's COMMIT (GIL released) and must take the GIL back
#: from the event loop before the waiting commands get their answers; with 5 ms it often waits that
#: long. Measured, one worker, 8 connections (ops/bench_http.py's server, paired runs): 0.5 ms gave
#: +3% to +20% commands/s in 4 of 4 pairs.
GIL_SWITCH_SECONDS = 0.0005


def served(app: Any) -> Any:
    """An app as a served process runs it (``umpire serve``'s workers, the benchmarks' servers): with the
    access log unless :data:`ENV_ACCESS_LOG` says 0, and :data:`GIL_SWITCH_SECONDS`."""
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    as_json = json_wanted()
    if as_json:  # UMPIRE_LOG_FORMAT=json: the service's log and the access log as JSON lines
        install()
    if os.environ.get(ENV_ACCESS_LOG, "1").strip().lower() in ("0", "false", "no", ""):
        return app
    # umpire's access log (service.access_log); uvicorn's own is always off
    return AccessLog(app, fmt="json" if as_json else "text")


def worker_app() -> Any:
    """App factory of one ``umpire serve --workers N`` worker process (settings from the environment)."""
    from .app import create_app  # cold path: the litestar app, only for serve

    app = served(create_app(Settings.from_env(), projector=os.environ.get(ENV_PROJECTOR, "thread")))
    gc_tuning.tune()  # the started worker's objects frozen, the collector's thresholds set (issue 26)
    return app


@main.command()
@click.argument("game_id")
@data_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON.")
@click.option("--receipt", "receipt_file", type=str, default=None,
              help="A receipt the service gave (JSON file, or an answer holding one): prove the log still holds it.")
@click.option("--public-key", type=str, default=None,
              help="The service's public key (base64url, from /.well-known/umpire-key); default: the data dir's key.")
@clear_errors
def verify(game_id: str, data_dir: str | None, as_json: bool, receipt_file: str | None, public_key: str | None) -> None:
    """Verify a game: hash chain, the games row against the log, a receipt; once finished the seed,
    every commitment and every die."""
    settings = Settings.from_env(data_dir=data_dir)
    store = _open_existing_store(settings.data_dir, settings.database_url)
    receipt = key = None
    if receipt_file is not None:
        try:
            text = sys.stdin.read() if receipt_file == "-" else Path(receipt_file).read_text()
        except OSError as exc:
            fail(f"cannot read {receipt_file}: {exc.strerror}")
        receipt = parse_receipt(text)
        if public_key is not None:
            try:
                key = unb64url(public_key)
            except ValueError:
                fail("--public-key: base64url of the 32 raw bytes of the Ed25519 public key")
        else:
            key = public_key_of(settings.data_dir)
    report = verify_game(store, game_id, receipt=receipt, public_key=key)
    if as_json:
        click.echo(msgspec.json.encode(report).decode())
    else:
        click.echo(f"game {report.game_id}: version {report.version}, {report.events} events, {report.status}"
                   f" (chain version {report.chain_version})")
        if report.chain_ok:
            click.echo("chain: ok")
        else:
            click.echo(f"chain: BROKEN at seq {report.first_broken_seq}: {report.problem}")
        if report.row_ok:
            click.echo("games row: agrees with the log")
        else:
            for p in report.row_problems:
                click.echo(f"games row: DISAGREES with the log: {p}")
        if report.receipt_ok is not None:
            click.echo("receipt: ok (signed by this server; the log holds what it signed)" if report.receipt_ok
                       else f"receipt: FAILED: {report.receipt_problem}")
        if report.choice_words:
            click.echo("rule choices: " + "; ".join(report.choice_words))
        if report.client_seeds is not None:
            click.echo("client seeds: " + ", ".join(f"{k}={v or ''}" for k, v in report.client_seeds.items()))
        if report.finished:
            click.echo(f"seed: {report.seed}")
            click.echo(f"commitment: {'ok' if report.commitment_ok else 'DOES NOT MATCH'}")
            if report.commitments_ok is not None:
                click.echo("event commitments: ok" if report.commitments_ok else
                           f"event commitments: BAD at seq {report.first_bad_commitment_seq}: {report.commitments_problem}")
            if report.dice_ok:
                click.echo(f"dice: ok ({report.rolls_checked} rolls)")
            else:
                click.echo(f"dice: BAD at seq {report.first_bad_roll_seq}: {report.dice_problem}")
        else:
            click.echo("dice: not checkable until the game is finished (the seed is secret)")
    if not report.ok:
        sys.exit(EXIT_NOT_VERIFIED)


@main.command("export")
@click.argument("game_id")
@data_dir_option
@click.option("-o", "--output", type=str, default=None, help="File to write (default: stdout).")
@click.option("--with-secrets", is_flag=True, help="Include the seed even if the game is not finished.")
@clear_errors
def export_cmd(game_id: str, data_dir: str | None, output: str | None, with_secrets: bool) -> None:
    """Export one game as JSON lines (header, then one line per event)."""
    settings = Settings.from_env(data_dir=data_dir)
    store = _open_existing_store(settings.data_dir, settings.database_url)
    lines = list(export_lines(store, game_id, with_secrets=with_secrets))
    if output is None or output == "-":
        out = sys.stdout.buffer
        for line in lines:
            out.write(line + b"\n")
        out.flush()
    else:
        tmp = Path(output + ".tmp")
        with open(tmp, "wb") as f:
            for line in lines:
                f.write(line + b"\n")
        os.replace(tmp, output)
        click.echo(f"exported game {game_id}: {len(lines) - 1} events to {output}", err=True)


@main.command("import")
@click.argument("file", type=str)
@data_dir_option
@clear_errors
def import_cmd(file: str, data_dir: str | None) -> None:
    """Import one game exported by `umpire export` (checked first, written in one transaction)."""
    settings = Settings.from_env(data_dir=data_dir)
    try:
        f = sys.stdin.buffer if file == "-" else open(file, "rb")
    except OSError as exc:
        raise TransferError(f"cannot read {file}: {exc.strerror}") from None
    with f:
        lines = f.readlines()
    header, events, seed = read_export(lines)  # all checks before the store is touched
    store = open_store(settings.data_dir, database_url=settings.database_url or "")
    store.import_game(header.game, header.seats, seed, events, header.invitations)
    game = header.game
    click.echo(f"imported game {game.game_id}: version {game.version}, {game.status}")


@main.command("migrate")
@data_dir_option
@click.option("--to", "to", required=True,
              help="The destination: a postgresql:// URL, or a data dir for a SQLite file (it must hold no"
                   " game or campaign of the source).")
@clear_errors
def migrate_cmd(data_dir: str | None, to: str) -> None:
    """Copy every game (with its chain, seats and secret seed) and every campaign from this store
    ($UMPIRE_DATABASE_URL, or the SQLite file of the data dir) to another, then verify every copy."""
    from .store.postgres import redact  # cold path: psycopg, only for a postgresql:// URL

    settings = Settings.from_env(data_dir=data_dir)
    src = _open_existing_store(settings.data_dir, settings.database_url)
    if to.startswith(PG_SCHEMES):
        dest, where = open_store(settings.data_dir, database_url=to), redact(to)
    else:
        dest, where = open_store(Path(to), database_url=""), to
    try:
        report = copy_store(src, dest)
    finally:
        src.close()
        dest.close()
    click.echo(f"copied {len(report.games)} games ({report.events} events) and {len(report.campaigns)} campaigns"
               f" to {where}; every copy verified")


def _load_plugins(group: click.Group, modules: tuple[str, ...]) -> None:
    for name in modules:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
                continue  # the optional module is simply not there
            _warn(name, exc)
            continue
        except Exception as exc:  # a broken plug-in must not break the CLI
            _warn(name, exc)
            continue
        commands = getattr(mod, "COMMANDS", None)
        if commands is None:
            continue
        try:
            items = list(commands)
        except TypeError:
            _warn(name, TypeError("COMMANDS is not a list"))
            continue
        for cmd in items:
            if not isinstance(cmd, click.Command):
                _warn(name, TypeError(f"COMMANDS holds {cmd!r}, not a click command"))
                continue
            if cmd.name in group.commands:
                _warn(name, ValueError(f"command {cmd.name!r} already exists; skipped"))
                continue
            group.add_command(cmd)


def _warn(module: str, exc: BaseException) -> None:
    msg = " ".join(str(exc).split())
    click.echo(f"umpire: warning: plug-in {module} not loaded: {type(exc).__name__}: {msg}", err=True)


_extra = tuple(m.strip() for m in os.environ.get(ENV_PLUGINS, "").split(",") if m.strip())
_load_plugins(main, PLUGIN_MODULES + _extra)


if __name__ == "__main__":
    main()
