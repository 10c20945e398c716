"""The store contract suite's backends (DESIGN section 11): a store test module that imports these
fixtures runs every test that takes ``store`` (or ``target``/``raw``) once on SQLite and once on a real
PostgreSQL (the session's ``pg_server``, a fresh database per test)::

    from tests.service.store_backends import backend, raw, store, target  # noqa: F401

``target`` opens the same database again (a second writer, a restart, a read-only opening); ``raw`` is
a plain driver connection beside the store (autocommit, ``?`` placeholders) for what no store method
does: tampering, lying version columns, triggers.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from service.store import DB_FILE
from service.store import open_store

BACKENDS = ("sqlite", "postgres")


class Target:
    """Where one test's database lives."""

    def __init__(self, kind: str, data_dir: Path, url: str = ""):
        self.kind, self.data_dir, self.url = kind, data_dir, url

    def open(self, *, read_only: bool = False) -> Any:
        return open_store(self.data_dir, database_url=self.url, read_only=read_only)

    def raw(self) -> Raw:
        return Raw(self)


class Raw:
    """A driver connection to the target's database, outside the store (autocommit)."""

    def __init__(self, target: Target):
        self.kind = target.kind
        if target.kind == "sqlite":
            self._conn: Any = sqlite3.connect(target.data_dir / DB_FILE, isolation_level=None)
            self.error: type[Exception] = sqlite3.Error
            self.integrity_error: type[Exception] = sqlite3.IntegrityError
        else:
            self._conn = psycopg.connect(target.url, autocommit=True)
            self.error, self.integrity_error = psycopg.Error, psycopg.IntegrityError

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.kind == "postgres" and args:
            sql = sql.replace("%", "%%").replace("?", "%s")
        cur = self._conn.execute(sql, args) if args else self._conn.execute(sql)
        return cur.fetchall() if cur.description is not None else []

    def close(self) -> None:
        self._conn.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Target]:
    if backend == "sqlite":
        yield Target("sqlite", tmp_path / "data")
        return
    pg = request.getfixturevalue("pg_server")
    url = pg.new_database()
    try:
        yield Target("postgres", tmp_path / "data", url)
    finally:
        pg.drop_database(url)


@pytest.fixture
def store(target: Target) -> Iterator[Any]:
    s = target.open()
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def raw(target: Target, store: Any) -> Iterator[Raw]:
    r = target.raw()
    try:
        yield r
    finally:
        r.close()
