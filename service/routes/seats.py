"""Seats changing hands (DESIGN 4): claim a seat with its one-time invitation, rotate a seat's token.

The invitation comes in the body (``{"invitation": ...}``) or as ``Authorization: Bearer <invitation>``,
never in a URL; the seat's token is answered to the claimant only. Rule ids: UMPIRE-SEAT-*.
"""
from __future__ import annotations

import anyio
from litestar import Request, Response, Router, post
from litestar.params import FromPath, JSONBody

from ..auth import bearer_token
from ..game_service import Answer
from ..schemas import SeatToken
from ..seat_claims import ClaimRequest, claim, claim_in_campaign, rotate, rotate_in_campaign
from ..seating import invitation_of
from ._common import command_response, strict_body, svc_of
from ..campaigns import campaigns_of

_CLAIM_DOC = ("The invitation goes in the body (`{\"invitation\": \"...\"}`) or as `Authorization: Bearer <invitation>` "
              "(never in a URL). The answer is the seat's bearer token, to the caller only; the invitation is spent "
              "and the log records a public `seat_claimed` event. 410 UMPIRE-SEAT-2: the seat was claimed already "
              "(of two claims at once exactly one wins); 403 UMPIRE-SEAT-3: not this seat's invitation; 409 "
              "UMPIRE-SEAT-3: the seat was not offered by invitation.")
_ROTATE_DOC = ("With the seat's current token (`Authorization: Bearer <token>`): the answer is a new token and the old "
               "one no longer acts, on any node; the log records a public `seat_rotated` event (UMPIRE-SEAT-4). A "
               "player who rotates knows that nobody else holds its seat's token.")


@post("/games/{game_id:str}/seats/{seat:str}/claim", status_code=201,
      summary="Claim a seat with its one-time invitation: its token, to the claimant only", description=_CLAIM_DOC)
async def claim_seat(request: Request, game_id: FromPath[str], seat: FromPath[str],
                     data: JSONBody[ClaimRequest | None] = None) -> Response[SeatToken]:
    body = await strict_body(request, ClaimRequest, empty_ok=True)
    code = invitation_of(body.invitation, bearer_token(request))
    svc = svc_of(request)
    async with svc.lock(game_id):
        out = await anyio.to_thread.run_sync(claim, svc, game_id, seat, code)
    return command_response(svc, game_id, Answer(201, out, appended=True))


@post("/games/{game_id:str}/seats/{seat:str}/rotate", status_code=201,
      summary="Replace a seat's token (its holder only): the old one is dead", description=_ROTATE_DOC)
async def rotate_seat(request: Request, game_id: FromPath[str], seat: FromPath[str]) -> Response[SeatToken]:
    token = bearer_token(request)
    svc = svc_of(request)
    async with svc.lock(game_id):
        out = await anyio.to_thread.run_sync(rotate, svc, game_id, seat, token)
    return command_response(svc, game_id, Answer(201, out, appended=True))


def _campaign_answer(request: Request, out: dict) -> Response[SeatToken]:
    """The answer of a campaign seat's change; the battle that recorded it wakes its feeds and projects."""
    game_id = out.get("game_id")
    if game_id is None:
        return Response(out, status_code=201)
    return command_response(svc_of(request), game_id, Answer(201, out, appended=True))


@post("/campaigns/{campaign_id:str}/seats/{seat:str}/claim", status_code=201,
      summary="Claim a campaign's seat with its one-time invitation: its token (for every battle), to the claimant only",
      description=_CLAIM_DOC)
async def claim_campaign_seat(request: Request, campaign_id: FromPath[str], seat: FromPath[str],
                              data: JSONBody[ClaimRequest | None] = None) -> Response[SeatToken]:
    body = await strict_body(request, ClaimRequest, empty_ok=True)
    code = invitation_of(body.invitation, bearer_token(request))
    out = await anyio.to_thread.run_sync(claim_in_campaign, campaigns_of(svc_of(request)), campaign_id, seat, code)
    return _campaign_answer(request, out)


@post("/campaigns/{campaign_id:str}/seats/{seat:str}/rotate", status_code=201,
      summary="Replace a campaign seat's token (its holder only): the old one is dead in every battle",
      description=_ROTATE_DOC)
async def rotate_campaign_seat(request: Request, campaign_id: FromPath[str], seat: FromPath[str]) -> Response[SeatToken]:
    token = bearer_token(request)
    out = await anyio.to_thread.run_sync(rotate_in_campaign, campaigns_of(svc_of(request)), campaign_id, seat, token)
    return _campaign_answer(request, out)


ROUTER = Router(path="/", route_handlers=[claim_seat, rotate_seat, claim_campaign_seat, rotate_campaign_seat],
                tags=["seats"])
