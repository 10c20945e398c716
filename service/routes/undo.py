"""Undo (DESIGN section 5): free within one's own turn, otherwise by consent."""
from __future__ import annotations

from typing import Any

import anyio
from litestar.params import FromPath, JSONBody
from litestar import Request, Response, Router, post

from ..schemas import CommandResult
from ..auth import bearer_token, require_seat_guard
from ..undo import UndoRequest, answer_undo, request_undo
from ._common import command_response, svc_of


async def _run(request: Request, game_id: FromPath[str], fn: Any, *args: Any) -> Response[Any]:
    svc = svc_of(request)
    token = bearer_token(request)
    async with svc.lock(game_id):
        answer = await anyio.to_thread.run_sync(fn, svc, game_id, token, *args)
    return command_response(svc, game_id, answer)


@post("/games/{game_id:str}/undo", guards=[require_seat_guard], status_code=201,
      summary="Undo back to to_version: 201 done, 202 waiting for the other seat's consent, 422 refused")
async def undo(request: Request, game_id: FromPath[str], data: JSONBody[UndoRequest]) -> Response[CommandResult]:
    return await _run(request, game_id, request_undo, data.to_version)


@post("/games/{game_id:str}/undo/accept", guards=[require_seat_guard], status_code=201,
      summary="Accept the other seat's undo request")
async def accept(request: Request, game_id: FromPath[str]) -> Response[CommandResult]:
    return await _run(request, game_id, answer_undo, True)


@post("/games/{game_id:str}/undo/decline", guards=[require_seat_guard], status_code=201,
      summary="Decline the other seat's undo request")
async def decline(request: Request, game_id: FromPath[str]) -> Response[CommandResult]:
    return await _run(request, game_id, answer_undo, False)


ROUTER = Router(path="/", route_handlers=[undo, accept, decline], tags=["undo"])
