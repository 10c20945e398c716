"""Helpers for the API tests: the real app on a real SQLite data dir (and the
session's real Redis), driven through litestar's TestClient (real HTTP
semantics: routing, body parsing, headers, status codes)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings

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


@pytest.fixture
def api(tmp_path, redis_url) -> Iterator[Api]:
    register()
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    with TestClient(app) as client:
        yield Api(client, str(tmp_path / "data"))
