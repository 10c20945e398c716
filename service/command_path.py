"""The command path (issue 17, issue 25): ``POST /games/{id}/commands`` served straight from ASGI, the one
implementation of the endpoint.

The route ``service.routes.games.post_command`` only declares the endpoint (its OpenAPI document); every
request to it -- a game command, a dry run (``?dry_run=true``), any query string -- is answered here, in
front of litestar's router, with the same pieces and in DESIGN 8's order:

1. the body read whole and checked at the door (:func:`service.strict_input.read_body`: 413, 415, ...),
2. 404 for an unknown game, then 401 for the token (:func:`service.auth.check_seat`, from memory on
   the event loop for a game and token seen before),
3. the body's problem, if it had one (after the guards, as on every other route),
4. ``?dry_run=`` read (``true``/``false``/``1``/``0``, any case; the last one counts; anything else is a
   400 naming ``dry_run``), and the answer's language (``?lang=``, then ``Accept-Language``; a malformed
   ``lang`` is a 400 naming it, before anything runs),
5. the strict decoding of the request (400 naming the field),
6. a dry run: ``GameService.dry_run`` on a worker thread, answered 200; or the command, under the game's
   lock (``GameService.command_steps``: idempotency, read-only, expected version, whose decision,
   legality, the append and its receipt), driven by ``GameService.perform``: on the event loop when the
   store's reads are local (SQLite), only the append's commit leaving the loop -- it joins the store's
   group commit on the committer thread (``EventStore.append_async``) while the loop serves the next
   requests; on a worker thread when every read is a round trip (PostgreSQL),
7. the answer, its events' words in the reader's language (:func:`service.routes._common.speak`, on a worker
   thread; ``Content-Language`` says which), then :func:`service.routes._common.after_command` (the feeds
   woken, the projection after the answer when this process projects).

An exception becomes the answer litestar's exception handlers of the app give it (the same functions).
What this saves per command is litestar's routing, signature model, lenient body parsing (decoded once,
strictly), guard resolution, response object and exception middleware, and the thread hops of a command
run on a worker thread (the loop to the thread, the thread's wait for the GIL, the answer back): measured
in ``ops/bench_http.py``.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs

import anyio
import msgspec

from .auth import check_seat, token_of_header
from .game_service import CommandRequest, GameService
from .language import DEFAULT, BadLanguage, content_language, from_scope
from .problems import PROBLEM_JSON, Problem
from .routes._common import after_command, decode_strict, speak
from .strict_input import read_body

#: The path of a game's commands, as litestar's router matches ``/games/{game_id:str}/commands`` (one path
#: segment, already percent-decoded; a trailing slash is the same path).
COMMANDS_PATH = re.compile(r"/games/([^/]+)/commands/?")
_encode = msgspec.json.Encoder().encode
_BOOLS = {"true": True, "1": True, "false": False, "0": False}


def dry_run_of(query_string: bytes) -> bool:
    """``?dry_run=`` of a request (False without one); the last value counts. 400 naming ``dry_run`` for a
    value that is not ``true``, ``false``, ``1`` or ``0`` (any case)."""
    if not query_string:
        return False
    values = parse_qs(query_string.decode("latin-1"), keep_blank_values=True).get("dry_run")
    if not values:
        return False
    got = _BOOLS.get(values[-1].lower())
    if got is None:
        raise Problem(400, "malformed", f"dry_run={values[-1][:40]!r} is not a boolean (true, false, 1 or 0)",
                      field="dry_run")
    return got


def _lang_of(scope: Any) -> str:
    """The answer's language (service/language.py); a malformed ``?lang=`` is a 400 naming ``lang``."""
    try:
        return from_scope(scope)
    except BadLanguage as exc:
        raise Problem(400, "malformed", str(exc), field="lang") from None


@functools.lru_cache(maxsize=64)
def _said(lang: str) -> tuple[tuple[bytes, bytes], ...]:
    """The raw ``Content-Language`` headers of an answer in ``lang`` (one of the few languages spoken)."""
    return tuple((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in content_language(lang).items())


async def run_command(svc: GameService, game_id: str, token: str | None, raw: bytes) -> Any:
    """A game command past the door (the seat checked, the body read): decoded strictly (400 naming the
    field), then under the game's lock ``GameService.command_steps`` (idempotency, read-only, expected
    version, whose decision, legality, the append and its receipt) driven by ``GameService.perform``."""
    req = decode_strict(raw, CommandRequest)
    async with svc.lock(game_id):
        return await svc.perform(svc.command_steps(game_id, token, req))


class CommandPath:
    """ASGI wrapper of the app's handler (``Litestar.asgi_handler``): answers every ``POST
    /games/{id}/commands``, passes everything else on."""

    def __init__(self, app: Any, svc: GameService, handlers: dict[Any, Any]):
        self.app = app
        self.svc = svc
        #: The app's exception handlers (exception type -> handler(request, exc) -> Response).
        self.handlers = handlers

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        m = COMMANDS_PATH.fullmatch(scope["path"])
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
            dry = dry_run_of(scope.get("query_string"))
            lang = _lang_of(scope)
            said = _said(lang)
            if dry:
                req = decode_strict(body, CommandRequest)
                result = await anyio.to_thread.run_sync(lambda: speak(svc, game_id, svc.dry_run(game_id, token, req),
                                                                      lang))
                await _send(send, 200, _encode(result), "application/json", said)
                return
            answer = await run_command(svc, game_id, token, body)
            if lang != DEFAULT:  # issue 28: the answer's words in the reader's language, off the event loop
                await anyio.to_thread.run_sync(speak, svc, game_id, answer.body, lang)
            later = after_command(svc, game_id, answer)
            await _send(send, answer.status, _encode(answer.body), "application/json", said)
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
                extra: Sequence[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-type", media_type.encode("latin-1")), (b"content-length", str(len(content)).encode())]
    if extra:
        headers += extra
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


__all__ = ["COMMANDS_PATH", "CommandPath", "dry_run_of", "run_command"]
