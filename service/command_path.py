"""The command path at the door (issue 17): ``POST /games/{id}/commands`` served straight from ASGI.

The route ``service.routes.games.post_command`` declares the endpoint (its OpenAPI document, its
dry run, every request with a query string); the requests that carry a game command -- the hot path
of every game -- are answered here instead, in front of litestar's router, with the same pieces and
in DESIGN 8's order:

1. the body read whole and checked at the door (:func:`service.strict_input.read_body`: 413, ...),
2. 404 for an unknown game, then 401 for the token (:func:`service.auth.check_seat`, from memory on
   the event loop for a game and token seen before),
3. the body's problem, if it had one (after the guards, as ``before_request`` raises it),
4. and 5. :func:`service.routes._common.run_command`, which the route runs too: the strict decoding of the
   request (400 naming the field), then the command, under the game's lock (``GameService.command_steps``:
   idempotency, read-only, expected version, whose decision, legality, the append and its receipt), driven
   by ``GameService.perform``: on
   the event loop when the store's reads are local (SQLite), only the append's commit leaving the loop --
   it joins the store's group commit on the committer thread (``EventStore.append_async``) while the loop
   serves the next requests; on a worker thread when every read is a round trip (PostgreSQL),
6. the answer as the route gives it: its words in the request's ``Accept-Language``, ``Content-Language``
   saying which (:func:`service.routes._common.speak`); then :func:`service.routes._common.after_command`
   (the feeds woken, the projection after the answer when this process projects).

An exception becomes the answer litestar's exception handlers of the app give it (the same functions).
What this saves per command is litestar's routing, signature model, lenient body parsing (decoded once,
strictly), guard resolution, response object and exception middleware, and the thread hops of a command
run on a worker thread (the loop to the thread, the thread's wait for the GIL, the answer back): measured
in ``ops/bench_http.py``.
"""
from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import anyio
import msgspec

from .auth import check_seat, token_of_header
from .game_service import GameService
from .language import DEFAULT, content_language, from_accept_language
from .problems import PROBLEM_JSON
from .routes._common import after_command, run_command, speak
from .strict_input import read_body

#: The path of a game's commands (litestar's ``{game_id:str}``: one path segment, already percent-decoded).
_COMMANDS = re.compile(r"/games/([^/]+)/commands")
_encode = msgspec.json.Encoder().encode


class CommandPath:
    """ASGI wrapper of the app's handler (``Litestar.asgi_handler``): takes ``POST /games/{id}/commands``
    without a query string, passes everything else on."""

    def __init__(self, app: Any, svc: GameService, handlers: dict[Any, Any]):
        self.app = app
        self.svc = svc
        #: The app's exception handlers (exception type -> handler(request, exc) -> Response).
        self.handlers = handlers

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("query_string"):
            await self.app(scope, receive, send)
            return
        m = _COMMANDS.fullmatch(scope["path"])
        if m is None:
            await self.app(scope, receive, send)
            return
        read = await read_body(scope, receive)
        if read is None:  # the client went away
            return
        body, problem, headers = read
        game_id = m.group(1)
        svc = self.svc
        try:
            token = token_of_header(headers.get(b"authorization"))
            await check_seat(svc, game_id, token)
            if problem is not None:
                raise problem

            lang = from_accept_language(headers.get(b"accept-language", b"").decode("latin-1")) or DEFAULT
            answer = await run_command(svc, game_id, token, body)
            if lang != DEFAULT:  # issue 28: the answer's words in the reader's language, off the event loop
                await anyio.to_thread.run_sync(speak, svc, game_id, answer.body, lang)
            later = after_command(svc, game_id, answer)
            await _send(send, answer.status, _encode(answer.body), "application/json",
                        [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in content_language(lang).items()])
            if later is not None:
                await later()
        except Exception as exc:  # noqa: BLE001 - every exception gets the app's own answer for it
            await self._answer_error(scope, send, exc)

    async def _answer_error(self, scope: Any, send: Any, exc: Exception) -> None:
        handler = next((self.handlers[t] for t in type(exc).__mro__ if t in self.handlers), None)
        if handler is None:  # pragma: no cover - Exception always has a handler
            raise exc
        request = SimpleNamespace(method=scope["method"], url=SimpleNamespace(path=scope["path"]), scope=scope)
        resp = handler(request, exc)
        extra = [(k.lower().encode("latin-1"), str(v).encode("latin-1")) for k, v in (resp.headers or {}).items()]
        media = resp.media_type if isinstance(resp.media_type, str) else str(resp.media_type or PROBLEM_JSON)
        await _send(send, resp.status_code, _encode(resp.content), media, extra)


async def _send(send: Any, status: int, content: bytes, media_type: str,
                extra: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-type", media_type.encode("latin-1")), (b"content-length", str(len(content)).encode())]
    if extra:
        headers += extra
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


__all__ = ["CommandPath"]
