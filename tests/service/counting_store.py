"""A real SQLite event store that counts what it reads (tests of read costs: idle feeds, lobby pages)."""
from __future__ import annotations

import sqlite3
import threading
from typing import Any

from service.store import EventStore


class CountingStore(EventStore):
    """:class:`service.store.EventStore` whose connections count every SELECT run (``selects``) and
    every row those return (``rows``): SQLite's own trace callback and row factory, nothing mocked."""

    def __init__(self, *args: Any, **kwargs: Any):
        self._count_lock = threading.Lock()
        self.selects = 0
        self.rows_read = 0
        self.statements: list[str] = []
        super().__init__(*args, **kwargs)

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = super()._conn()
            conn.set_trace_callback(self._trace)
            conn.row_factory = self._count_row
        return conn

    def _trace(self, sql: str) -> None:
        if sql.lstrip().upper().startswith(("SELECT", "WITH")):
            with self._count_lock:
                self.selects += 1
                self.statements.append(sql)

    def _count_row(self, cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> tuple[Any, ...]:
        with self._count_lock:
            self.rows_read += 1
        return row

    def reset(self) -> None:
        with self._count_lock:
            self.selects = self.rows_read = 0
            self.statements.clear()
