"""The private Redis's password is on no command line (every local user can read any process's argv:
``ps``, ``/proc/<pid>/cmdline``). A real ``umpire serve`` with its private redis-server, its projector
process and (``--workers 2``) its worker processes: the password, read from the data dir's ``redis.url``,
is in none of their command lines."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from service.settings import REDIS_URL_FILE

from .api_client import wait_healthy

ROOT = Path(__file__).resolve().parents[2]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        out.setdefault(ppid, []).append(int(d.name))
    return out


def _tree(root: int) -> list[int]:
    """``root`` and every process below it (the redis-server runs in a session of its own: its parent is
    what ties it to serve)."""
    kids, out, todo = _children(), [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def _cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.parametrize("workers", [1, 2])
def test_the_redis_password_is_on_no_command_line(tmp_path, workers):
    data, port = tmp_path / "data", _port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
    env["PYTHONPATH"] = str(ROOT)
    log_path = tmp_path / "serve.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--data-dir", str(data), "--port",
                                 str(port), "--workers", str(workers)], cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=60, log=log_path)
        url = (data / REDIS_URL_FILE).read_text().strip()
        password = urlsplit(url).password
        assert password and len(password) >= 16, "the private Redis has a password"
        assert (data / REDIS_URL_FILE).stat().st_mode & 0o077 == 0  # the recorded URL: its user's only
        deadline = time.monotonic() + 30
        while True:  # until the projector process and redis-server are both up
            lines = {pid: _cmdline(pid) for pid in _tree(proc.pid)}
            names = " ".join(lines.values())
            if "projector_process" in names and "redis-server" in names:
                break
            assert time.monotonic() < deadline, lines
            time.sleep(0.2)
        assert len(lines) >= 3 + (workers if workers > 1 else 0), lines
        for pid, line in lines.items():
            assert password not in line, f"pid {pid} shows the Redis password on its command line: {line!r}"
        # the redis-server (which retitles itself once started) read it from a config file only its user can
        # read, in its private working directory
        redis_pid = next(pid for pid, line in lines.items() if "redis-server" in line)
        conf = (Path("/proc") / str(redis_pid) / "cwd").resolve() / "redis-auth.conf"
        assert password in conf.read_text() and conf.stat().st_mode & 0o077 == 0
        assert conf.parent.stat().st_mode & 0o077 == 0  # in a private directory
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    assert "Traceback" not in log_path.read_text()
