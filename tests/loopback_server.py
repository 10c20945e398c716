"""A server process of the tests on a free loopback port, without the port race.

A free port is picked by binding port 0 and closing the socket; the server binds it only once it has imported
its app (seconds, tens of seconds on a loaded machine). Meanwhile another process may take it: another test
worker's server, whose ``/health`` then answers in this one's place while this one exits with "address
already in use" (the test goes on against the other server and loses it when that one stops). So a start
waits for the server's own line "Uvicorn running on <url>" in its output, and starts it again on a new free
port when it could not bind its own. Used by the browser tests' ``umpire serve`` (tests/web/harness.py) and
the API tests' uvicorn processes (tests/service/api_client.py).
"""
from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx

#: The line uvicorn prints (at log level info) once its socket is bound.
LISTENING = "Uvicorn running on {url}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def url_of(port: int) -> str:
    return f"http://127.0.0.1:{port}"


def tail(log: Path, n: int = 3000, since: int = 0) -> str:
    """The end of a server's output (of what it wrote after byte ``since``)."""
    try:
        with log.open("rb") as f:
            f.seek(since)
            return f.read().decode(errors="replace")[-n:]
    except OSError as exc:
        return f"(no log: {exc})"


def _size(log: Path) -> int:
    try:
        return log.stat().st_size
    except OSError:
        return 0


def listening(proc: subprocess.Popen, log: Path, port: int, timeout: float, since: int = 0) -> bool:
    """True once ``proc`` itself listens on ``port`` (its own line in ``log``, written after byte ``since``) and
    answers /health; False when it exited because the port was taken. Any other exit, or no answer in
    ``timeout`` seconds, raises."""
    url = url_of(port)
    line = LISTENING.format(url=url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            if "address already in use" in tail(log, since=since):
                return False
            raise RuntimeError(f"the server exited with {proc.returncode}: {tail(log)}")
        if line in tail(log, 1 << 20, since):
            try:
                if httpx.get(url + "/health", timeout=5).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer /health on {url} in {timeout:g} s: {tail(log)}")


def start_on_free_port(spawn: Callable[[int], subprocess.Popen], log: Path, timeout: float, attempts: int = 3,
                       port: int | None = None, proc: subprocess.Popen | None = None) -> tuple[subprocess.Popen, int]:
    """(process, port) of a server that ``spawn(port)`` started and that listens on its own port: started on
    ``port`` (a free one when None), or already started as ``proc`` on ``port``, and started again on a new
    free port, up to ``attempts`` times, when another process took the port first. ``spawn`` appends the
    server's output to ``log`` (every attempt's is kept)."""
    port = free_port() if port is None else port
    since = 0
    for _ in range(attempts):
        if proc is None:
            since = _size(log)
            proc = spawn(port)
        if listening(proc, log, port, timeout, since):
            return proc, port
        proc, port = None, free_port()
    raise RuntimeError(f"the server found no free port in {attempts} attempts: {tail(log)}")


__all__ = ["LISTENING", "free_port", "listening", "start_on_free_port", "tail", "url_of"]
