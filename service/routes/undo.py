"""Undo (DESIGN section 5): free within one's own turn when nothing was revealed, otherwise by consent."""
from __future__ import annotations

from typing import Any

import anyio
from litestar.params import FromPath, JSONBody
from litestar import Request, Response, Router, post

from ..schemas import CommandResult
from ..auth import bearer_token, require_seat_guard
from ..undo import UndoAnswer, UndoConsent, UndoRequest, answer, request_undo
from ..language import DEFAULT
from ._common import command_response, lang_of, speak, strict_body, svc_of


async def _run(request: Request, game_id: str, fn: Any, *args: Any) -> Response[Any]:
    svc = svc_of(request)
    token = bearer_token(request)
    lang = lang_of(request)
    async with svc.lock(game_id):
        out = await anyio.to_thread.run_sync(fn, svc, game_id, token, *args)
    if lang != DEFAULT:
        await anyio.to_thread.run_sync(speak, svc, game_id, out.body, lang)
    return command_response(svc, game_id, out, lang)


@post("/games/{game_id:str}/undo", guards=[require_seat_guard], status_code=201,
      summary="Undo back to to_version: 201 done, 202 waiting for the other seat's consent, 422 refused",
      description="to_version must be a command boundary (UMPIRE-UNDO-8). Free when every command after it is the "
      "caller's own, of this turn, and nothing was revealed by them or since; otherwise another seat must accept. "
      "The same as `{\"type\": \"undo\", \"to_version\": n}` through /commands.")
async def undo(request: Request, game_id: FromPath[str], data: JSONBody[UndoRequest]) -> Response[CommandResult]:
    body = await strict_body(request, UndoRequest)
    return await _run(request, game_id, request_undo, body.to_version)


async def _answer(request: Request, game_id: str, accept: bool) -> Response[Any]:
    """An answer to the waiting undo request: a consent with its body (:class:`service.undo.UndoConsent`), a
    decline with its optional one (:class:`service.undo.UndoAnswer`)."""
    body: UndoConsent | UndoAnswer = (await strict_body(request, UndoConsent) if accept
                                      else await strict_body(request, UndoAnswer, empty_ok=True))
    return await _run(request, game_id, answer, accept, body.expected_version)


#: The answers' bodies, as the API document says them.
WHICH_REQUEST = ("the version of the game the request was seen in; 409 when the game has moved on (the request may "
                 "have lapsed and another be waiting: an answer is to the request it was shown, DESIGN 5).")


@post("/games/{game_id:str}/undo/accept", guards=[require_seat_guard], status_code=201,
      summary="Accept the other seat's undo request (the same as {\"type\": \"undo_accept\"} through /commands)",
      description="Body `{\"expected_version\": n}` (required): " + WHICH_REQUEST)
async def accept(request: Request, game_id: FromPath[str], data: JSONBody[UndoConsent]) -> Response[CommandResult]:
    return await _answer(request, game_id, True)


@post("/games/{game_id:str}/undo/decline", guards=[require_seat_guard], status_code=201,
      summary="Decline the other seat's undo request (the same as {\"type\": \"undo_decline\"} through /commands)",
      description="Optional body `{\"expected_version\": n}`: " + WHICH_REQUEST + " Without it the decline is of "
      "the request waiting now (declining takes nothing back).")
async def decline(request: Request, game_id: FromPath[str],
                  data: JSONBody[UndoAnswer | None] = None) -> Response[CommandResult]:
    return await _answer(request, game_id, False)


ROUTER = Router(path="/", route_handlers=[undo, accept, decline], tags=["undo"])
