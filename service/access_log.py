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
import sys
from http import HTTPStatus
from typing import Any, TextIO

from .auth import redact_query_string

#: Longest a line waits in the buffer (PROPOSED: an operator tailing the log sees it within this).
FLUSH_SECONDS = 0.25
#: Lines that make a write at once (PROPOSED: bounds the buffer under load).
FLUSH_LINES = 256

_PHRASES = {s.value: s.phrase for s in HTTPStatus}


class AccessLog:
    """ASGI wrapper: logs each HTTP request's line with the status its answer starts with."""

    def __init__(self, app: Any, stream: TextIO | None = None):
        self.app = app
        self.stream = stream
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

        async def logged_send(message: Any) -> None:
            if message["type"] == "http.response.start":
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
