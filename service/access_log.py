"""The access log of ``umpire serve`` (issue 17): one line per request, written in batches.

uvicorn's own access log builds a ``LogRecord`` per request, runs it through the logging module's
filters and its formatter (colours, status phrase) and writes it with one ``write`` and ``flush``: 70-130 us
of a worker's CPU per request, 5-10% of a game command, measured in ``ops/bench_http.py``. This ASGI
wrapper writes the same line (``INFO:     <client> - "<METHOD> <path>?<query> HTTP/<v>" <status>``, a
secret query parameter redacted by :func:`service.auth.redact_query_string`, whatever the spelling of its
name) into a buffer that is written to
stdout at most :data:`FLUSH_SECONDS` later, or at once when :data:`FLUSH_LINES` are waiting, and when
the server shuts down. What a crash can lose is the last :data:`FLUSH_SECONDS` of access lines, never
a command (those are in the store before their answer).
"""
from __future__ import annotations

import asyncio
import atexit
import json
import re
import sys
import time
from http import HTTPStatus
from typing import Any, TextIO

from .auth import redact_query_string
from .json_logs import iso_now

#: Longest a line waits in the buffer (PROPOSED: an operator tailing the log sees it within this).
FLUSH_SECONDS = 0.25
#: Lines that make a write at once (PROPOSED: bounds the buffer under load).
FLUSH_LINES = 256

_PHRASES = {s.value: s.phrase for s in HTTPStatus}
_GAME = re.compile(r"/games/([^/]+)")


class AccessLog:
    """ASGI wrapper: logs each HTTP request's line with the status its answer starts with."""

    def __init__(self, app: Any, stream: TextIO | None = None, fmt: str = "text"):
        """``fmt``: ``text`` (the line above) or ``json`` (one JSON object a line: ``ts``, ``client``,
        ``method``, ``path`` (the query redacted), ``status``, ``duration_ms`` to the answer's start, and
        ``game_id`` for a game's path; ``UMPIRE_LOG_FORMAT=json``)."""
        self.app = app
        self.stream = stream
        self.json = fmt == "json"
        self.lines: list[str] = []
        self._timer: asyncio.TimerHandle | None = None
        atexit.register(self.flush)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self.app(scope, receive, self._lifespan_send(send))
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return

        began = time.perf_counter()

        async def logged_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                if self.json:
                    self.json_line(scope, message["status"], time.perf_counter() - began)
                else:
                    self.line(scope, message["status"])
            await send(message)

        await self.app(scope, receive, logged_send)

    def _lifespan_send(self, send: Any) -> Any:
        async def lifespan_send(message: Any) -> None:
            if message["type"].startswith("lifespan.shutdown"):
                self.flush()
            await send(message)

        return lifespan_send

    def line(self, scope: Any, status: int) -> None:
        client = scope.get("client")
        where = f"{client[0]}:{client[1]}" if client else "-"
        path = scope.get("raw_path")
        path = path.decode("latin-1") if isinstance(path, bytes) else scope["path"]
        query = scope.get("query_string")
        if query:
            path = f"{path}?{redact_query_string(query.decode('latin-1'))}"
        self.lines.append(f'INFO:     {where} - "{scope["method"]} {path} HTTP/{scope["http_version"]}" '
                          f'{status} {_PHRASES.get(status, "")}\n')
        if len(self.lines) >= FLUSH_LINES:
            self.flush()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(FLUSH_SECONDS, self.flush)

    def json_line(self, scope: Any, status: int, took: float) -> None:
        client = scope.get("client")
        path = scope.get("raw_path")
        path = path.decode("latin-1") if isinstance(path, bytes) else scope["path"]
        query = scope.get("query_string")
        if query:
            path = f"{path}?{redact_query_string(query.decode('latin-1'))}"
        entry: dict[str, Any] = {"ts": iso_now(), "level": "INFO", "logger": "umpire.access",
                                 "client": f"{client[0]}:{client[1]}" if client else None, "method": scope["method"],
                                 "path": path, "status": status, "duration_ms": round(took * 1000, 3)}
        game = _GAME.match(scope["path"])
        if game is not None:
            entry["game_id"] = game.group(1)
        self._add(json.dumps(entry, separators=(",", ":")) + "\n")

    def _add(self, text: str) -> None:
        self.lines.append(text)
        if len(self.lines) >= FLUSH_LINES:
            self.flush()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(FLUSH_SECONDS, self.flush)

    def flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.lines:
            return
        text, self.lines = "".join(self.lines), []
        stream = self.stream or sys.stdout
        try:
            stream.write(text)
            stream.flush()
        except (OSError, ValueError):  # a closed stdout: the lines are dropped, the requests are not
            pass


__all__ = ["AccessLog", "FLUSH_LINES", "FLUSH_SECONDS"]
