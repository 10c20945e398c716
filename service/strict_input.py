"""Strict input at the door (DESIGN section 8): no body of any size, depth or encoding reaches the
app unchecked, and nothing a client sends yields a 5xx.

An ASGI middleware in front of every route. For a request with a body:

- more than :data:`MAX_BODY_BYTES` -> 413 (read no further);
- a declared content type other than ``application/json`` (or ``application/<x>+json``) -> 415
  (a body sent with no content type at all is read as JSON);
- not UTF-8 -> 400;
- JSON nested deeper than :data:`MAX_DEPTH` -> 400 (checked by a linear scan before any parser
  recurses into it);
- a number with more than :data:`MAX_NUMBER_DIGITS` digits before its point -> 400 naming its field
  (``options.x``, ``command.path[0][1]``): no integer of any request is that long, Python's ``int()`` refuses
  more than 4,300 digits, and msgspec reports such a number inside a free-form object only as ``$[...]``;

each as an RFC 9457 problem. A request without a body (``POST /games/{id}/undo/accept``) passes.
Everything else (JSON syntax, types, unknown fields) is the routes' strict decoding.

The problem is answered after the route's guards, so DESIGN 8's order holds (a missing token is 401
whatever the body): the middleware records it in the request scope and hands the app an empty body;
:func:`raise_body_problem` (the app's ``before_request`` hook) raises it.
"""
from __future__ import annotations

import re
from typing import Any

from .problems import Problem

#: PROPOSED: the largest request body (a Battle of Hoth command is well under 1 KiB; a game's
#: creation with options a few KiB).
MAX_BODY_BYTES = 256 * 1024
#: PROPOSED: the deepest JSON nesting accepted (the deepest command of any ruleset is 4-5 levels).
MAX_DEPTH = 32
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SCOPE_KEY = "umpire.body_problem"
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")
#: PROPOSED: the most digits before the point of a number in a body: every 19-digit integer fits the 64 bits
#: msgspec reads (2**64 has 20 digits), and every integer a request carries -- versions, seqs, levels,
#: coordinates -- is far shorter.
MAX_NUMBER_DIGITS = 19
_LONG_DIGITS = re.compile(rb"[0-9]{%d}" % (MAX_NUMBER_DIGITS + 1))
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|-?(?P<int>[0-9]+)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]*)?|[\[\]{}:,]|[^\s"\[\]{}:,0-9-]+|\S')


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


def long_number_field(body: bytes) -> tuple[str, int] | None:
    """``(field path, digits)`` of the first number in ``body`` with more than :data:`MAX_NUMBER_DIGITS`
    digits before its point (``$`` for a bare one); None when there is none. Linear: a cheap search first,
    then one pass over the tokens that keeps the path (object keys, array indices)."""
    if not _LONG_DIGITS.search(body):
        return None
    path: list[str | int] = []  # per open container: its current key (object) or index (array)
    kinds: list[bytes] = []
    key: str | None = None
    for m in _TOKENS.finditer(body):
        tok = m.group(0)
        c = tok[:1]
        if c == b'"':
            key = tok[1:-1].decode("utf-8", "replace")
        elif c in (b"{", b"["):
            if kinds and kinds[-1] == b"{" and key is not None:
                path[-1] = key
            kinds.append(c)
            path.append(0 if c == b"[" else "")
            key = None
        elif c in (b"}", b"]"):
            if kinds:
                kinds.pop()
                path.pop()
        elif c == b",":
            if kinds and kinds[-1] == b"[":
                path[-1] = int(path[-1]) + 1
            key = None
        elif c == b":":
            if kinds and kinds[-1] == b"{" and key is not None:
                path[-1] = key
        elif m.group("int") is not None and len(m.group("int")) > MAX_NUMBER_DIGITS:
            out = ""
            for kind, p in zip(kinds, path):
                out += f"[{p}]" if kind == b"[" else (f".{p}" if out else str(p))
            return out or "$", len(m.group("int"))
    return None


def is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def body_problem(body: bytes, content_type: str | None) -> Problem | None:
    """The problem with a request body, or None when it may go on."""
    if not body:
        return None
    if content_type is not None and not is_json(content_type):
        return Problem(415, "unsupported-media-type", f"the body must be application/json (got {content_type[:80]!r})",
                       field="content-type")
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Problem(400, "malformed", f"the body is not UTF-8 (byte {exc.start})")
    # a body is nested no deeper than it has openers (counted in strings too: a bound), a count in C
    if body.count(b"[") + body.count(b"{") > MAX_DEPTH and json_depth(body) > MAX_DEPTH:
        return Problem(400, "malformed", f"the JSON body is nested deeper than {MAX_DEPTH} levels")
    long = long_number_field(body)
    if long is not None:
        field, digits = long
        return Problem(400, "malformed", f"{field}: a number of {digits} digits (at most {MAX_NUMBER_DIGITS} before"
                       " its point)", field=field)
    return None


async def raise_body_problem(request: Any) -> None:
    """The app's ``before_request`` hook (after the guards): the body's problem, if it had one."""
    problem = request.scope.get(SCOPE_KEY)
    if problem is not None:
        raise problem


def _too_large(max_body: int) -> Problem:
    return Problem(413, "too-large", f"the body is larger than {max_body} bytes")


async def read_body(scope: Any, receive: Any, max_body: int = MAX_BODY_BYTES) -> tuple[bytes, Problem | None, dict[bytes, bytes]] | None:
    """The request's body read whole (up to ``max_body``: no further), its problem (or None) and its headers
    (lower-cased names, the first of each); None when the client disconnected. A body with a problem is
    handed on empty."""
    headers: dict[bytes, bytes] = {}
    for k, v in scope.get("headers", []):
        headers.setdefault(k.lower(), v)
    declared = headers.get(b"content-length")
    problem: Problem | None = None
    if declared is not None:
        try:
            if int(declared) > max_body:
                problem = _too_large(max_body)
        except ValueError:
            problem = Problem(400, "malformed", "content-length is not a number")
    chunks: list[bytes] = []
    size = 0
    more = problem is None
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > max_body:
            problem = _too_large(max_body)  # read no further
            break
        chunks.append(chunk)
        more = message.get("more_body", False)
    body = b""
    if problem is None:
        body = b"".join(chunks)
        ctype = headers.get(b"content-type")
        problem = body_problem(body, ctype.decode("latin-1") if ctype is not None else None)
    if problem is not None:
        body = b""
    return body, problem, headers


class StrictInput:
    """ASGI middleware: reads the whole body (up to the limit), checks it, replays it to the app."""

    def __init__(self, app: Any, max_body: int = MAX_BODY_BYTES):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") not in _BODY_METHODS:
            await self.app(scope, receive, send)
            return
        read = await read_body(scope, receive, self.max_body)
        if read is None:
            return
        body, problem, _ = read
        if problem is not None:
            scope[SCOPE_KEY] = problem
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


__all__ = ["MAX_BODY_BYTES", "MAX_DEPTH", "StrictInput", "body_problem", "is_json", "json_depth",
           "raise_body_problem", "read_body"]
