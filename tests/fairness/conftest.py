"""Fixtures the attack tests share: the toy ruleset's app in process, and served."""
from __future__ import annotations

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
