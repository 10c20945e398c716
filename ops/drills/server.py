"""The real server process of a drill: ``umpire serve`` on a loopback port.

The drill owns the Redis (an :class:`~service.redis_runtime.EmbeddedRedis` it
starts itself) and hands its URL to the server as ``UMPIRE_REDIS_URL``, so the
Redis survives server restarts and the drill can kill it on its own. The
server runs in its own process group: :meth:`Server.kill` SIGKILLs the whole
group (with ``--workers N``, the supervisor and every worker at once).
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

OPS = Path(__file__).resolve().parents[1]
ROOT = OPS.parent
#: Seconds a (re)started server has to answer GET /health.
START_TIMEOUT_S = 30.0
PLUGIN = "tests.rulesets.drill"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def umpire_exe() -> list[str]:
    exe = Path(sys.executable).parent / "umpire"
    if exe.is_file():
        return [str(exe)]
    return [sys.executable, "-m", "service.cli"]  # pragma: no cover


def server_env(redis_url: str | None, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(OPS), str(ROOT), env.get("PYTHONPATH", "")) if p)
    plugins = [p for p in env.get("UMPIRE_CLI_PLUGINS", "").split(",") if p.strip()]
    if PLUGIN not in plugins:
        plugins.append(PLUGIN)
    env["UMPIRE_CLI_PLUGINS"] = ",".join(plugins)
    if redis_url:
        env["UMPIRE_REDIS_URL"] = redis_url
    else:
        env.pop("UMPIRE_REDIS_URL", None)
    env.update(extra or {})
    return env


class Server:
    """``umpire serve --host 127.0.0.1 --port P --data-dir D [--workers N]``."""

    def __init__(self, data_dir: str | os.PathLike[str], redis_url: str | None, *, workers: int = 1,
                 port: int | None = None, log_path: str | os.PathLike[str] | None = None,
                 env: dict[str, str] | None = None):
        """``env``: more environment (``UMPIRE_DATABASE_URL``, a shared ``UMPIRE_SIGNING_KEY``)."""
        self.data_dir = Path(data_dir)
        self.env = dict(env or {})
        self.redis_url = redis_url
        self.workers = workers
        self.port = port or free_port()
        self.log_path = Path(log_path) if log_path else self.data_dir.parent / f"server-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        cmd = umpire_exe() + ["serve", "--host", "127.0.0.1", "--port", str(self.port),
                              "--data-dir", str(self.data_dir)]
        if self.workers > 1:
            cmd += ["--workers", str(self.workers)]
        return cmd

    def spawn(self) -> subprocess.Popen[bytes]:
        """Start the process and return at once (see :meth:`start` to wait for it)."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        try:
            self.proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         env=server_env(self.redis_url, self.env), cwd=ROOT, start_new_session=True)
        finally:
            log.close()
        self.starts += 1
        return self.proc

    def start(self) -> float:
        """Start and wait until GET /health answers; the seconds it took."""
        t0 = time.monotonic()
        self.spawn()
        self.wait_ready()
        return time.monotonic() - t0

    def wait_ready(self, timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        assert self.proc is not None
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"umpire serve exited with {self.proc.returncode}: {self.log_tail()}")
            try:
                r = httpx.get(self.url + "/health", timeout=1.0)
                if r.status_code < 500 or r.status_code == 503:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"umpire serve did not answer within {timeout:.0f} s: {self.log_tail()}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL the server's whole process group (a crash: no shutdown code runs)."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.kills += 1
        self._wait_group_gone(self.proc.pid)
        self.proc = None

    def stop(self) -> None:
        """SIGTERM (a clean shutdown), then SIGKILL after 10 s."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self._wait_group_gone(self.proc.pid)
        self.proc = None

    @staticmethod
    def _wait_group_gone(pgid: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.02)

    def log_tail(self, lines: int = 5) -> str:
        try:
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return "(no log)"
        return " | ".join(text[-lines:]) or "(no output)"

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
