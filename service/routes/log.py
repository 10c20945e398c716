"""The log and replay: events, rulings, past states, timeline, board pictures, verify, feed."""
from __future__ import annotations

from typing import Any


import anyio
from litestar.params import FromPath, FromQuery
from litestar import Request, Response, Router, get
from litestar.response import ServerSentEvent

from .. import queries
from ..openapi import EventsPage, GameView, RulingView, Timeline, VerifyResult
from ..auth import seat_of
from ..feed import stream
from ._common import caller, read_models_of, respond, svc_of


@get("/games/{game_id:str}/events", sync_to_thread=True, summary="The log as the caller may see it")
def events(request: Request, game_id: FromPath[str], after: FromQuery[int] = 0, limit: FromQuery[int] = 100) -> Response[EventsPage]:
    svc, seat = caller(request, game_id)
    return respond(queries.events(svc, game_id, seat, after, limit))


@get("/games/{game_id:str}/events/{seq:int}/ruling", sync_to_thread=True, summary="The ruling of one step")
def ruling(request: Request, game_id: FromPath[str], seq: FromPath[int]) -> Response[RulingView]:
    svc, seat = caller(request, game_id)
    return respond(queries.ruling(svc, game_id, seq, seat))


@get("/games/{game_id:str}/events/{seq:int}/redecide", sync_to_thread=True,
     summary="Decide a step again with the current engine and the revealed seed (finished games)",
     description="DESIGN 6: the recorded events beside what the current engine decides now, and every "
     "difference. 409 while the game runs (the seed is secret).")
def redecide_step(request: Request, game_id: FromPath[str], seq: FromPath[int]) -> Response[dict[str, Any]]:
    from ..redecide import redecide

    svc, _seat = caller(request, game_id)
    return Response(redecide(svc, game_id, seq))


@get("/games/{game_id:str}/states/{seq:int}", sync_to_thread=True, summary="The caller's view right after seq")
def state_at(request: Request, game_id: FromPath[str], seq: FromPath[int]) -> Response[GameView]:
    svc, seat = caller(request, game_id)
    return respond(queries.state_view(svc, read_models_of(request), game_id, seq, seat))


@get("/games/{game_id:str}/timeline", sync_to_thread=True, summary="One line per step")
def timeline(request: Request, game_id: FromPath[str]) -> Response[Timeline]:
    svc, _seat = caller(request, game_id)
    return respond(queries.timeline(svc, read_models_of(request), game_id))


@get("/games/{game_id:str}/board.svg", sync_to_thread=True, media_type="image/svg+xml",
     summary="A picture of the board at a step (default: now)")
def board(request: Request, game_id: FromPath[str], at: FromQuery[int | None] = None) -> Response[str]:
    svc, seat = caller(request, game_id)
    return respond(queries.board_svg(svc, read_models_of(request), game_id, seat, at), media_type="image/svg+xml")


@get("/games/{game_id:str}/verify", sync_to_thread=True, summary="Hash chain, and once finished the seed and the dice",
     description="`chain_ok` (the chain over what every caller sees), `row_ok` (the games row agrees with the log), "
     "`client_seeds` (when_ready games); once the fold of the log says finished: `seed`, `commitment_ok`, "
     "`commitments_ok` (every event's commitment), `dice_ok` (every draw from the seed, every index once and in "
     "order, every face from its value). `receipt`: a receipt the service gave (its JSON, or base64url of it): "
     "`receipt_ok` says whether the log still holds what it signed (a cut or rewritten log is proven).")
def verify(request: Request, game_id: FromPath[str], receipt: FromQuery[str | None] = None) -> Response[VerifyResult]:
    return respond(queries.verify(svc_of(request), game_id, receipt))


@get("/games/{game_id:str}/feed", summary="Server-sent events: each new event the caller may see",
     description="`after`: start after this seq (or the Last-Event-ID header); `limit`: close after that many "
     "events; `token`: the seat token, for clients that cannot set the Authorization header.")
async def feed(request: Request, game_id: FromPath[str], after: FromQuery[int] = 0, limit: FromQuery[int | None] = None,
               token: FromQuery[str | None] = None) -> ServerSentEvent:
    svc = svc_of(request)

    def who() -> str | None:
        svc.game(game_id)
        return seat_of(request, game_id, required=False, allow_query=True)

    seat = await anyio.to_thread.run_sync(who)
    last = request.headers.get("last-event-id", "")
    if last.isdigit():
        after = int(last)
    if limit is not None and limit < 1:
        from ..problems import Problem

        raise Problem(400, "malformed", "limit must be 1 or more", field="limit")
    return ServerSentEvent(stream(svc, game_id, seat, max(after, 0), limit))


ROUTER = Router(path="/", route_handlers=[events, ruling, redecide_step, state_at, timeline, board, verify, feed], tags=["log"])
