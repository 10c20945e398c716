"""Campaigns over REST (DESIGN section 8): ``POST /campaigns``, ``GET /campaigns/{id}``, its ``ready`` and
``verify``. What a campaign is (its stream, its seeds, its battles, its fairness) is told once, in the
application service behind these routes: :mod:`service.campaigns`.
"""
from __future__ import annotations

from typing import Annotated, Any

import anyio
import msgspec
from litestar import Request, Response, Router, get, post
from litestar.params import FromPath, JSONBody

from domain.kernel import FINISHED, commitment
from domain.kernel.header import CLIENT_SEED_PATTERN
from domain.kernel.printed import printed_paths_of

from .. import i18n
from ..auth import bearer_token
from ..campaigns import CampaignService, CampaignStore, CreateCampaignRequest, battle_seed, campaigns_of
from ..language import content_language
from ..schemas import CampaignCreated, CampaignReady, CampaignVerify, CampaignView
from ._common import lang_of, strict_body, svc_of


@post("/campaigns", status_code=201,
      summary="Start a campaign: seat tokens (the same in every battle) and the first battle's game id")
async def create_campaign(request: Request, data: JSONBody[CreateCampaignRequest]) -> CampaignCreated:
    body = await strict_body(request, CreateCampaignRequest)
    return await anyio.to_thread.run_sync(campaigns_of(svc_of(request)).create, body)  # type: ignore[return-value]


@get("/campaigns/{campaign_id:str}", sync_to_thread=True,
     summary="The campaign for the caller: battles and results, current game, own carried cards, status, winner")
def campaign_view(request: Request, campaign_id: FromPath[str]) -> Response[CampaignView]:
    lang = lang_of(request)  # the printed words of the campaign's content in the reader's language (issue 28)
    svc = campaigns_of(svc_of(request))
    body = svc.view(campaign_id, bearer_token(request))
    rules = svc.rules(str(body.get("ruleset")))
    body = i18n.printed_in(body, printed_paths_of(rules), lang)
    return Response(body, status_code=200, headers=content_language(lang))


class CampaignReadyRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /campaigns/{id}/ready`` (may be empty)."""

    client_seed: Annotated[str, msgspec.Meta(pattern=CLIENT_SEED_PATTERN)] | None = None


@post("/campaigns/{campaign_id:str}/ready", status_code=201,
      summary="A seat of a when_ready campaign is ready (optionally with a client seed)")
async def campaign_ready(request: Request, campaign_id: FromPath[str],
                         data: JSONBody[CampaignReadyRequest | None] = None) -> CampaignReady:
    body = await strict_body(request, CampaignReadyRequest, empty_ok=True)
    return await anyio.to_thread.run_sync(campaigns_of(svc_of(request)).ready, campaign_id,  # type: ignore[return-value]
                                          bearer_token(request), body.client_seed)


@get("/campaigns/{campaign_id:str}/verify", sync_to_thread=True,
     summary="The campaign's chained stream: chain_ok; once finished the seed and every commitment")
def campaign_verify(request: Request, campaign_id: FromPath[str]) -> CampaignVerify:
    svc = campaigns_of(svc_of(request))
    row = svc._require(campaign_id)
    finished = row["status"] == FINISHED
    chain_report, commits = svc.db.verify(campaign_id, with_seed=finished)
    out: dict[str, Any] = {"campaign_id": campaign_id, "version": row["version"], "status": row["status"],
                           "chain_version": row["chain_version"], "chain_ok": chain_report.ok}
    if not chain_report.ok:
        out.update(first_broken_seq=chain_report.first_broken_seq, problem=chain_report.problem)
    seeds = svc.client_seeds(campaign_id)
    if seeds is not None:
        out["client_seeds"] = seeds
    rules = svc._rules_of(row)
    out.update(svc.public_seating(campaign_id, rules.seats(row["campaign"]), svc._bots(campaign_id)))
    if finished:
        out["seed"] = row["seed"]
        out["commitment_ok"] = commitment(bytes.fromhex(row["seed"])) == row["seed_commitment"]
        if commits is not None:
            out["commitments_ok"] = commits.ok
            if not commits.ok:
                out.update(first_bad_commitment_seq=commits.first_broken_seq, commitments_problem=commits.problem)
    return out  # type: ignore[return-value]


ROUTER = Router(path="/", route_handlers=[create_campaign, campaign_view, campaign_ready, campaign_verify],
                tags=["campaigns"])

__all__ = ["ROUTER", "CampaignService", "CampaignStore", "CreateCampaignRequest", "campaigns_of", "battle_seed"]
