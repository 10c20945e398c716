"""Strict input at the door (DESIGN section 8): no body of any size, depth or encoding reaches the
app unchecked, and nothing a client sends yields a 5xx.

An ASGI middleware in front of every route. For a request with a body:

- more than :data:`MAX_BODY_BYTES` -> 413 (read no further);
- a content type other than ``application/json`` (or ``application/<x>+json``) -> 415;
- not UTF-8 -> 400;
- JSON nested deeper than :data:`MAX_DEPTH` -> 400 (checked by a linear scan before any parser
  recurses into it);

each as an RFC 9457 problem. A request without a body (``POST /games/{id}/undo/accept``) passes.
Everything else (JSON syntax, types, unknown fields) is the routes' strict decoding.
"""
from __future__ import annotations

import re
from typing import Any

import msgspec

from .problems import PROBLEM_JSON, Problem

#: PROPOSED: the largest request body (a Battle of Hoth command is well under 1 KiB; a game's
#: creation with options a few KiB).
MAX_BODY_BYTES = 256 * 1024
#: PROPOSED: the deepest JSON nesting accepted (the deepest command of any ruleset is 4-5 levels).
MAX_DEPTH = 32
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def json_depth(body: bytes) -> int:
    """The deepest nesting of ``body`` (strings skipped), without recursion."""
    depth = best = 0
    for m in _BRACKETS.finditer(_STRINGS.sub(b'""', body)):
        if m.group(0) in (b"[", b"{"):
            depth += 1
            if depth > best:
                best = depth
        else:
            depth -= 1
    return best


def is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def body_problem(body: bytes, content_type: str | None) -> Problem | None:
    """The problem with a request body, or None when it may go on."""
    if not body:
        return None
    if content_type is None or not is_json(content_type):
        return Problem(415, "unsupported-media-type", "the body must be application/json "
                       f"(got {(content_type or 'no content type')[:80]!r})", field="content-type")
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Problem(400, "malformed", f"the body is not UTF-8 (byte {exc.start})")
    if json_depth(body) > MAX_DEPTH:
        return Problem(400, "malformed", f"the JSON body is nested deeper than {MAX_DEPTH} levels")
    return None


async def _send_problem(send: Any, p: Problem) -> None:
    raw = msgspec.json.encode(p.body())
    await send({"type": "http.response.start", "status": p.status,
                "headers": [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(raw)).encode())]})
    await send({"type": "http.response.body", "body": raw})


class StrictInput:
    """ASGI middleware: reads the whole body (up to the limit), checks it, replays it to the app."""

    def __init__(self, app: Any, max_body: int = MAX_BODY_BYTES):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") not in _BODY_METHODS:
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                if int(declared) > self.max_body:
                    await _send_problem(send, Problem(413, "too-large", f"the body is larger than {self.max_body} bytes"))
                    return
            except ValueError:
                await _send_problem(send, Problem(400, "malformed", "content-length is not a number"))
                return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await _send_problem(send, Problem(413, "too-large", f"the body is larger than {self.max_body} bytes"))
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        ctype = headers.get(b"content-type")
        problem = body_problem(body, ctype.decode("latin-1") if ctype is not None else None)
        if problem is not None:
            await _send_problem(send, problem)
            return
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


__all__ = ["MAX_BODY_BYTES", "MAX_DEPTH", "StrictInput", "body_problem", "is_json", "json_depth"]
