"""Fixtures the attack tests share: the toy ruleset's app in process, served, and served by two nodes."""
from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.service.api_client import Server
from tests.service.toy_ruleset import register


@pytest.fixture
def server(tmp_path, redis_url) -> Iterator[Server]:
    """A real ``uvicorn`` process of the app with the toy ruleset, on a real SQLite file and the session's Redis."""
    srv = Server(str(tmp_path / "data"), redis_url).wait()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def toy_client(tmp_path) -> Iterator[TestClient]:
    """The app (litestar's TestClient) with the toy ruleset, on a real SQLite file, without read models."""
    register()
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


@pytest.fixture(params=["sqlite", "postgres"])
def two_nodes(request, tmp_path, redis_url) -> Iterator[tuple[Server, Server]]:
    """Node A and node B: two processes on one SQLite file, or two nodes on one PostgreSQL database."""
    if request.param == "sqlite":
        dirs, url, env, pg = [str(tmp_path / "data")] * 2, None, None, None
    else:
        pg = request.getfixturevalue("pg_server")
        url = pg.new_database()
        dirs, env = [str(tmp_path / "nodeA" / "data"), str(tmp_path / "nodeB" / "data")], \
            {"UMPIRE_SIGNING_KEY": secrets.token_hex(32)}
    started: list[Server] = []
    try:
        for d in dirs:
            started.append(Server(d, redis_url, database_url=url, env=env).wait())
        yield started[0], started[1]
    finally:
        for s in started:
            s.stop()
        if pg is not None:
            pg.drop_database(url)
