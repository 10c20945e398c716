"""Games: create, lobby, views, legal commands, commands (DESIGN section 8)."""
from __future__ import annotations


import anyio
from litestar.params import FromPath, FromQuery, JSONBody
from litestar import Request, Response, Router, get, post

from .. import queries
from ..openapi import CommandResult, DryRunResult, GameCreated, GameView, LegalCommands, Lobby
from ..auth import bearer_token, require_seat_guard
from ..game_service import CommandRequest, CreateGameRequest
from ._common import command_response, caller, read_models_of, respond, svc_of


@post("/games", sync_to_thread=True, status_code=201, summary="Create a game: seat tokens and the seed commitment")
def create_game(request: Request, data: JSONBody[CreateGameRequest]) -> GameCreated:
    return svc_of(request).create_game(data)


@get("/games", sync_to_thread=True, summary="The lobby: games by status and ruleset")
def list_games(request: Request, status: FromQuery[str | None] = None, ruleset: FromQuery[str | None] = None) -> Response[Lobby]:
    return respond(queries.lobby(svc_of(request), read_models_of(request), status, ruleset))


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


ROUTER = Router(path="/", route_handlers=[create_game, list_games, game_view, legal_commands, post_command], tags=["games"])
