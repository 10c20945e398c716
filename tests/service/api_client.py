"""Helpers for the API tests: the real app on a real SQLite data dir (and the
session's real Redis), driven through litestar's TestClient (real HTTP
semantics: routing, body parsing, headers, status codes)."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.loopback_server import free_port, start_on_free_port, url_of

from .toy_ruleset import register

SEED = "0f" * 32  # fixed seed: deterministic games
PROBLEM = "application/problem+json"


class Api:
    def __init__(self, client: TestClient, data_dir: str):
        self.client = client
        self.data_dir = data_dir

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def create(self, ruleset: str = "toy", scenario: str = "duel", seed: str | None = SEED, **options: Any) -> dict:
        body: dict[str, Any] = {"ruleset": ruleset, "scenario": scenario, "options": options}
        if seed is not None:
            body["seed"] = seed
        r = self.client.post("/games", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    def get(self, path: str, token: str | None = None, **params: Any):
        return self.client.get(path, headers=self.auth(token), params=params)

    def view(self, gid: str, token: str | None = None) -> dict:
        r = self.get(f"/games/{gid}", token)
        assert r.status_code == 200, r.text
        return r.json()

    def legal(self, gid: str, token: str) -> dict:
        r = self.get(f"/games/{gid}/legal-commands", token)
        assert r.status_code == 200, r.text
        return r.json()

    def send(self, gid: str, token: str | None, command: dict, version: int, command_id: str | None = None):
        body: dict[str, Any] = {"command": command, "expected_version": version}
        if command_id is not None:
            body["command_id"] = command_id
        return self.client.post(f"/games/{gid}/commands", json=body, headers=self.auth(token))

    def ok(self, gid: str, token: str, command: dict, version: int | None = None) -> dict:
        if version is None:
            version = self.view(gid, token)["version"]
        r = self.send(gid, token, command, version)
        assert r.status_code == 201, r.text
        return r.json()

    def accept(self, gid: str, token: str | None, version: int | None = None):
        """``POST /undo/accept`` with its required ``expected_version`` (the game's version now, unless given)."""
        if version is None:
            version = self.view(gid, token)["version"]
        return self.client.post(f"/games/{gid}/undo/accept", json={"expected_version": version},
                                headers=self.auth(token))

    def play_random(self, ruleset: str, scenario: str, steps: int, seed: int = 4) -> tuple[dict, list[dict]]:
        """Create a game and play up to ``steps`` commands, each chosen at random (seeded) from the legal
        commands of the first seat to act; return the game and every legal-commands answer seen."""
        g = self.create(ruleset, scenario)
        rng = random.Random(seed)
        seen: list[dict] = []
        for _ in range(steps):
            v = self.view(g["game_id"])
            if v["status"] != "active" or not v["to_act"]:
                break
            seat = v["to_act"][0]
            legal = self.legal(g["game_id"], g["seats"][seat])
            seen.append(legal)
            self.ok(g["game_id"], g["seats"][seat], rng.choice(legal["commands"]), legal["version"])
        return g, seen

    def events(self, gid: str, token: str | None = None, after: int = 0, limit: int = 1000) -> list[dict]:
        r = self.get(f"/games/{gid}/events", token, after=after, limit=limit)
        assert r.status_code == 200, r.text
        return r.json()["events"]


def assert_problem(r, status: int, **fields: Any) -> dict:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith(PROBLEM), r.headers["content-type"]
    body = r.json()
    for k in ("type", "title", "detail", "status"):
        assert k in body, (k, body)
    assert body["status"] == status
    for k, v in fields.items():
        assert body.get(k) == v, (k, body)
    return body


#: ``UMPIRE_TEST_API_STORE=postgres``: every test of the ``api`` fixture runs on a real PostgreSQL store
#: (a fresh database of the session's ``pg_server`` per test) instead of the SQLite file (DESIGN 11).
API_STORE = os.environ.get("UMPIRE_TEST_API_STORE", "sqlite")
#: data dir of an ``api`` fixture -> the PostgreSQL URL its app uses (see :func:`open_test_store`).
_DATABASE_URLS: dict[str, str] = {}


class _Shared:
    """One PostgreSQL store per test database, handed to every reader (its ``close`` is the fixture's)."""

    def __init__(self, store: Any):
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def close(self) -> None:
        pass


_SHARED: dict[str, Any] = {}


def open_test_store(data_dir: str) -> Any:
    """The store the ``api`` fixture's app with this data dir writes to (a test reading the truth)."""
    from service.store import open_store

    url = _DATABASE_URLS.get(str(data_dir))
    if url is None:
        return open_store(data_dir, database_url="")
    if url not in _SHARED:  # a pool per reader would cost a connection and a migration check each time
        _SHARED[url] = open_store(data_dir, database_url=url)
    return _Shared(_SHARED[url])


@pytest.fixture(params=["sqlite", "postgres"])
def both_stores(tmp_path, request) -> Iterator[TestClient]:
    """The app without read models on a SQLite file, and on a real PostgreSQL (the store contract's two
    adapters)."""
    url = request.getfixturevalue("pg_server").new_database() if request.param == "postgres" else None
    app = create_app(Settings(data_dir=str(tmp_path / "data"), database_url=url), read_models=None)
    try:
        with TestClient(app) as c:
            yield c
    finally:
        if url is not None:
            app.state.games.store.close()
            request.getfixturevalue("pg_server").drop_database(url)


@pytest.fixture(params=["redis", "log"])
def api(request, tmp_path, redis_url, redis_client) -> Iterator[Api]:
    """The app with the Redis read models (queries from Redis), and with none (every query from the log)."""
    register()
    url = None
    if API_STORE == "postgres":
        url = request.getfixturevalue("pg_server").new_database()
        _DATABASE_URLS[str(tmp_path / "data")] = url
    settings = Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url, database_url=url)
    app = create_app(settings) if request.param == "redis" else create_app(settings, read_models=None)
    try:
        with TestClient(app) as client:
            yield Api(client, str(tmp_path / "data"))
    finally:
        if url is not None:
            app.state.games.store.close()
            shared = _SHARED.pop(url, None)
            if shared is not None:
                shared.close()
            _DATABASE_URLS.pop(str(tmp_path / "data"), None)
            request.getfixturevalue("pg_server").drop_database(url)


def toy_app():
    """Factory for a real server process (``uvicorn --factory tests.service.api_client:toy_app``):
    settings from the environment, with the toy ruleset registered."""
    register()
    return create_app(Settings.from_env())


def served_toy_app():
    """:func:`toy_app` as ``umpire serve`` serves an app (``service.cli.served``: with umpire's access log)."""
    from service.cli import served

    return served(toy_app())


def wait_healthy(base: str, proc: Any, timeout: float = 90.0, log: Any = None) -> None:
    """Poll ``base``/health until it answers 200; fail if ``proc`` exits or ``timeout`` passes (with ``log``'s text)."""
    import time

    import httpx

    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(base + "/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline and proc.poll() is None, log.read_text() if log is not None else ""
        time.sleep(0.1)


def sse_blocks(text: str) -> list[dict[str, str]]:
    """The messages of a server-sent-events stream, each as its fields (comment lines skipped)."""
    out = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = {}
        for line in block.splitlines():
            if ":" in line and not line.startswith(":"):
                k, _, v = line.partition(":")
                fields[k] = v.strip()
        if fields:
            out.append(fields)
    return out


class Server:
    """A real uvicorn server process on a free loopback port, started at once; :meth:`wait` waits until this very
    process listens on its port, starting it again on a new free port when another process took that one first
    (tests/loopback_server.py). Its output (every attempt's) goes to ``log``, beside ``data_dir``."""

    def __init__(self, data_dir: str, redis_url: str | None = None, factory: str = "tests.service.api_client:toy_app",
                 database_url: str | None = None, env: dict[str, str] | None = None):
        """``env``: more environment of the process (e.g. ``UMPIRE_SIGNING_KEY`` shared by several nodes)."""
        extra_env = env or {}
        env = dict(os.environ, UMPIRE_DATA_DIR=data_dir)
        env.pop("UMPIRE_REDIS_CLUSTER", None)
        if redis_url:
            env["UMPIRE_REDIS_URL"] = redis_url
        env.pop("UMPIRE_DATABASE_URL", None)
        if database_url:
            env["UMPIRE_DATABASE_URL"] = database_url
        env.update(extra_env)
        self._root = Path(__file__).resolve().parents[2]
        env["PYTHONPATH"] = str(self._root) + os.pathsep + env.get("PYTHONPATH", "")
        self._env, self._factory = env, factory
        self._dir = Path(data_dir).resolve().parent
        self._dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.log = self._dir / f"server-{self.port}.log"  # named after the first port tried: one per server
        self.proc = self._spawn(self.port)

    @property
    def url(self) -> str:
        return url_of(self.port)

    def _spawn(self, port: int) -> subprocess.Popen:
        """uvicorn at log level info: its line "Uvicorn running on <url>" says it bound its own port (no access log)."""
        self.port = port
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "--factory", self._factory, "--host", "127.0.0.1", "--port", str(port),
                 "--log-level", "info", "--no-access-log"],
                env=self._env, cwd=str(self._root), stdout=out, stderr=subprocess.STDOUT)
        return self.proc

    def wait(self, timeout: float = 90.0) -> Server:
        try:
            self.proc, self.port = start_on_free_port(self._spawn, self.log, timeout, port=self.port, proc=self.proc)
        except BaseException:  # no server left behind
            self.stop()
            raise
        return self

    def kill(self) -> None:
        """SIGKILL (a crash: no graceful shutdown)."""
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
            self.proc.wait(5)
