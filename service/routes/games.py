"""Games: create, lobby, views, legal commands, commands, ready (DESIGN section 8)."""
from __future__ import annotations

from typing import Annotated

import anyio
from litestar import Controller, Request, Response, Router, get, post
from litestar.params import FromPath, FromQuery, JSONBody, Parameter

from domain.kernel import Ready

from .. import queries
from ..auth import require_seat_guard, seat_of
from ..game_service import CommandRequest, CreateGameRequest, ReadyRequest
from ..language import DEFAULT
from ..schemas import (
    CommandResult,
    DryRunResult,
    GameCreated,
    GameView,
    LegalCommands,
    Lobby,
)
from ._common import (
    caller,
    command_response,
    lang_of,
    read_models_of,
    respond,
    speak,
    strict_body,
    svc_of,
)


class Lobby_(Controller):
    """``/games``: create (POST) and the lobby (GET) in one controller, so that litestar builds one route
    for the path and its automatic ``OPTIONS`` answers ``Allow: GET, OPTIONS, POST``."""

    path = "/games"

    @post(status_code=201, summary="Create a game: seat tokens and the seed commitment",
          description="The body names a ruleset, one of its scenarios (GET /rulesets), an optional seed (64 lowercase "
                      "hex characters; without one the game gets a fresh random seed) and the ruleset's options. "
                      "`start`: `now` (default) opens the game at once; `when_ready` leaves it `waiting` until every "
                      "seat has posted `POST /games/{id}/ready` (optionally with a client seed mixed into every "
                      "draw). Event 1 of the game is its `game_created` header. The answer carries a signed receipt.")
    async def create_game(self, request: Request, data: JSONBody[CreateGameRequest]) -> GameCreated:
        body = await strict_body(request, CreateGameRequest)
        return await anyio.to_thread.run_sync(svc_of(request).create_game, body)  # type: ignore[return-value]

    @get(sync_to_thread=True, summary="The lobby: games by status and ruleset, a page at a time",
         description="Games in creation order. `limit` games per page (default 100); a page that is not the last "
                     "has `next_cursor`: pass it as `cursor` for the next page.")
    def list_games(
        self,
        request: Request,
        status: Annotated[str | None, Parameter(description="waiting, active, finished or read_only")] = None,
        ruleset: FromQuery[str | None] = None,
        cursor: Annotated[str | None, Parameter(
            pattern=queries.CURSOR_PATTERN,
            description="A page's `next_cursor`: base64url of a place in the lobby's order (the games after it); "
                        "empty: the first page.")] = None,
        limit: Annotated[int, Parameter(ge=1, le=queries.MAX_LOBBY_PAGE)] = queries.LOBBY_PAGE,
    ) -> Response[Lobby]:
        return respond(queries.lobby(svc_of(request), read_models_of(request), status, ruleset, cursor, limit))


@get("/games/{game_id:str}", sync_to_thread=True, summary="The caller's view of a game (a spectator's without a token)",
     description="With the waiting undo request (`undo_request`, or null) and a signed `receipt` of the version shown.")
def game_view(request: Request, game_id: FromPath[str]) -> Response[GameView]:
    svc, seat = caller(request, game_id)
    return respond(queries.game_view(svc, read_models_of(request), game_id, seat, lang_of(request)))


@get("/games/{game_id:str}/legal-commands", sync_to_thread=True, summary="Every legal command of the caller's seat now",
     description="The kernel's commands come first: `{\"type\": \"ready\"}` while the game waits for this seat, "
     "`{\"type\": \"undo_accept\"}` / `{\"type\": \"undo_decline\"}` while another seat's undo request waits. Each "
     "can be posted back as it is to `/commands`.")
def legal_commands(request: Request, game_id: FromPath[str]) -> Response[LegalCommands]:
    svc, seat = caller(request, game_id)
    return respond(queries.legal_commands(svc, game_id, seat, lang_of(request)))


@post(
    "/games/{game_id:str}/commands",
    status_code=201,
    summary="Send a command (or, with dry_run=true, check it without storing anything)",
    description="Checked in this order: token (401), a command_id this seat already used answers the first answer "
    "again (422 UMPIRE-IDEMPOTENCY if the body differs), a game imported read-only (409 UMPIRE-READ-ONLY-1), "
    "expected_version (409 with current_version), whose decision (403), legality (422 with rule); malformed 400 (an "
    "unknown field is named). The answer carries a signed receipt. Kernel commands: `ready`, `undo` (with "
    "`to_version`), `undo_accept`, `undo_decline`. With ?dry_run=true the answer is 200 {legal, events, stopped_at}: "
    "the events the command would produce up to its first die or its first revealing event, as this seat would see "
    "them; nothing is stored, drawn or signed, and command_id is not looked up.",
)
async def post_command(request: Request, game_id: FromPath[str], data: JSONBody[CommandRequest],
                       dry_run: FromQuery[bool] = False) -> Response[CommandResult | DryRunResult]:
    """The declaration of ``POST /games/{id}/commands`` (its OpenAPI document): every request to it is answered
    by :class:`service.command_path.CommandPath` in front of litestar's router, the endpoint's one
    implementation, so this handler is never called (tests/service/test_command_path.py sends every request
    shape and would see this error's 500)."""
    raise RuntimeError("POST /games/{id}/commands is answered by service.command_path.CommandPath, not by this route")


@post("/games/{game_id:str}/ready", guards=[require_seat_guard], status_code=201,
      summary="A seat is ready (optionally with a client seed) while the game is waiting",
      description="DESIGN 3: `client_seed` is 1-64 characters of [A-Za-z0-9_-]; every seat's seed enters every draw "
      "of the game. The last seat's ready opens the game (its shuffles and deals are in the same answer). "
      "422 UMPIRE-READY-1 when the game is not waiting, UMPIRE-READY-2 when the seat is ready already.")
async def ready(request: Request, game_id: FromPath[str], data: JSONBody[ReadyRequest | None] = None) -> Response[CommandResult]:
    body = await strict_body(request, ReadyRequest, empty_ok=True)
    svc = svc_of(request)

    def go():
        seat = seat_of(request, game_id, required=True)

        return svc.run(game_id, seat, Ready(client_seed=body.client_seed), expected_version=None)

    lang = lang_of(request)
    async with svc.lock(game_id):
        answer = await anyio.to_thread.run_sync(go)
    if lang != DEFAULT:
        await anyio.to_thread.run_sync(speak, svc, game_id, answer.body, lang)
    return command_response(svc, game_id, answer, lang)


ROUTER = Router(path="/", route_handlers=[Lobby_, game_view, legal_commands, post_command, ready], tags=["games"])
