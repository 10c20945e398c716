"""Games: create, lobby, views, legal commands, commands (DESIGN section 8)."""
from __future__ import annotations

from typing import Annotated

import anyio
from litestar import Controller, Request, Response, Router, get, post
from litestar.params import FromPath, FromQuery, JSONBody, Parameter

from .. import queries
from ..schemas import CommandResult, DryRunResult, GameCreated, GameView, LegalCommands, Lobby
from ..auth import bearer_token, require_seat_guard
from ..game_service import CommandRequest, CreateGameRequest
from ._common import command_response, caller, read_models_of, respond, svc_of


class Lobby_(Controller):
    """``/games``: create (POST) and the lobby (GET) in one controller, so that litestar builds one route
    for the path and its automatic ``OPTIONS`` answers ``Allow: GET, OPTIONS, POST``."""

    path = "/games"

    @post(sync_to_thread=True, status_code=201, summary="Create a game: seat tokens and the seed commitment",
          description="The body names a ruleset, one of its scenarios (GET /rulesets), an optional seed (64 lowercase "
                      "hex characters; without one the game gets a fresh random seed) and the ruleset's options.")
    def create_game(self, request: Request, data: JSONBody[CreateGameRequest]) -> GameCreated:
        return svc_of(request).create_game(data)  # type: ignore[return-value]

    @get(sync_to_thread=True, summary="The lobby: games by status and ruleset, a page at a time",
         description="Games in creation order. `limit` games per page (default 100); a page that is not the last "
                     "has `next_cursor`: pass it as `cursor` for the next page.")
    def list_games(
        self,
        request: Request,
        status: Annotated[str | None, Parameter(description="active, finished or read_only")] = None,
        ruleset: FromQuery[str | None] = None,
        cursor: FromQuery[str | None] = None,
        limit: Annotated[int, Parameter(ge=1, le=queries.MAX_LOBBY_PAGE)] = queries.LOBBY_PAGE,
    ) -> Response[Lobby]:
        return respond(queries.lobby(svc_of(request), read_models_of(request), status, ruleset, cursor, limit))


@get("/games/{game_id:str}", sync_to_thread=True, summary="The caller's view of a game (a spectator's without a token)")
def game_view(request: Request, game_id: FromPath[str]) -> Response[GameView]:
    svc, seat = caller(request, game_id)
    return respond(queries.game_view(svc, read_models_of(request), game_id, seat))


@get("/games/{game_id:str}/legal-commands", sync_to_thread=True, summary="Every legal command of the caller's seat now")
def legal_commands(request: Request, game_id: FromPath[str]) -> Response[LegalCommands]:
    svc, seat = caller(request, game_id)
    return respond(queries.legal_commands(svc, game_id, seat))


@post(
    "/games/{game_id:str}/commands",
    guards=[require_seat_guard],
    status_code=201,
    summary="Send a command (or, with dry_run=true, check it without storing anything)",
    description="Checked in this order: token (401), a command_id already seen answers the first answer again, "
    "expected_version (409 with current_version), whose decision (403), legality (422 with rule); malformed 400. "
    "With ?dry_run=true the answer is 200 {legal, events, stopped_at}: the events the command would produce up to "
    "its first die or its first revealing event, as this seat would see them; nothing is stored or rolled.",
)
async def post_command(request: Request, game_id: FromPath[str], data: JSONBody[CommandRequest],
                       dry_run: FromQuery[bool] = False) -> Response[CommandResult | DryRunResult]:
    svc = svc_of(request)
    token = bearer_token(request)
    if dry_run:
        body = await anyio.to_thread.run_sync(svc.dry_run, game_id, token, data)
        return Response(body, status_code=200)
    async with svc.lock(game_id):
        answer = await anyio.to_thread.run_sync(svc.command, game_id, token, data)
    return command_response(svc, game_id, answer)


ROUTER = Router(path="/", route_handlers=[Lobby_, game_view, legal_commands, post_command], tags=["games"])
