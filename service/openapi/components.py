"""The document's components: every body type of :mod:`service.schemas` and the request bodies, with the
registered rulesets' unions put in for the placeholders."""
from __future__ import annotations

from typing import Any

import msgspec
from domain.kernel import registry
from domain.kernel.campaign import campaign_rules_of

from .. import schemas
from ..game_service import CommandRequest, ReadyRequest
from ..routes.campaigns import CampaignReadyRequest, CreateCampaignRequest
from ..seat_claims import ClaimRequest
from ..undo import UndoAnswer, UndoConsent, UndoRequest
from .json_schema import REF, generator_ready, walk
from .request_bodies import (
    HEX64, KEEP_ONLY_WITH_INVITATIONS, SEATING, START, bots_schema, choices_schema, create_game_variant,
    keep_schema, no_bot_kept,
)
from .rulesets import per_ruleset, ruleset_components

#: Placeholders of service/schemas.py that stand for the rulesets' unions.
_PLACEHOLDERS = ("Command", "GameEvent", "CommandTemplate")


def body_components() -> dict[str, Any]:
    """Every body type of :mod:`service.schemas` and the request bodies, with the rulesets' unions in."""
    _, parts = msgspec.json.schema_components(
        (*schemas.DOCUMENTED, CommandRequest, UndoRequest, UndoAnswer, UndoConsent, ReadyRequest, CreateCampaignRequest,
         CampaignReadyRequest, ClaimRequest),
        ref_template=REF + "{name}")
    comps = {name: walk(sch, generator_ready) for name, sch in parts.items()}
    rulesets = registry.all_rulesets()
    cmd_refs: list[str] = []
    ev_refs: list[str] = []
    for rs in rulesets:
        rc, cmd_name, ev_name = ruleset_components(rs)
        comps.update(rc)
        cmd_refs.append(cmd_name)
        ev_refs.append(ev_name)
    comps["Command"] = {"title": "Command", "description": "A command of the game's ruleset (`<ruleset>_Command`), "
                        "tagged by `type` (any entry of GET /games/{id}/legal-commands can be posted as it is).",
                        "anyOf": [{"$ref": REF + n} for n in cmd_refs]}
    comps["GameEvent"] = {"title": "GameEvent", "description": "An event payload of the game's ruleset, tagged by "
                          "`type`; private fields are left out (and `redacted` is true) for a caller who may not "
                          "see them.", "anyOf": [{"$ref": REF + n} for n in ev_refs]}
    comps["CommandTemplate"] = {
        "title": "CommandTemplate", "type": "object", "required": ["type"],
        "description": "A command with continuous parameters (a ruleset measured in distances, not hexes): its `type` "
                       "and, for each parameter, the bounds a posted command must respect.",
        "properties": {"type": {"type": "string"}}}
    per_ruleset(comps, rulesets)
    # POST /games: one variant per ruleset, with its scenarios and options
    variants = {rs.id: create_game_variant(rs, comps) for rs in rulesets}
    for rs_id, v in variants.items():
        comps[v["title"]] = v
    comps["CreateGameRequest"] = {
        "title": "CreateGameRequest", "description": "Body of POST /games: one variant per ruleset.",
        "oneOf": [{"$ref": REF + v["title"]} for v in variants.values()],
        "discriminator": {"propertyName": "ruleset",
                          "mapping": {rs_id: REF + v["title"] for rs_id, v in variants.items()}}}
    req = comps["CommandRequest"]
    req["properties"]["command"] = {"$ref": REF + "Command"}
    req["properties"]["expected_version"] = {"type": "integer", "minimum": 0,
                                             "description": "The version the command is decided on (409 if the game "
                                                            "has moved on: answer carries current_version)."}
    req["properties"]["command_id"] = {**req["properties"]["command_id"],
                                       "description": "Client-chosen id, unique per game and seat: a retry with the "
                                                      "same id answers the first answer again (UMPIRE-IDEMPOTENCY)."}
    camp = comps["CreateCampaignRequest"]
    with_campaigns = [rs for rs in rulesets if rs.campaigns()]
    camp["properties"]["ruleset"] = {"type": "string", "enum": [rs.id for rs in with_campaigns] or ["hoth"]}
    camp["properties"]["campaign"] = {"type": "string",
                                      "enum": sorted({c.id for rs in with_campaigns for c in rs.campaigns()}) or ["-"]}
    camp["properties"]["seed"] = {"anyOf": [{"type": "string", "pattern": HEX64}, {"type": "null"}]}
    camp["properties"]["start"] = START
    camp["properties"]["seating"] = SEATING
    if with_campaigns:  # the campaigns' seats in every battle (the ruleset's CampaignRules.seats)

        seats = sorted({s for rs in with_campaigns for c in rs.campaigns()
                        for s in campaign_rules_of(rs).seats(c.id)})
        camp["properties"]["bots"] = {**bots_schema(with_campaigns[0]), "propertyNames": {"enum": seats}}
        camp["properties"]["keep"] = keep_schema(seats)
        # a campaign with bots starts now (service/routes/campaigns.py: its bot seats give no client seed)
        camp["properties"]["choices"] = choices_schema(with_campaigns[0])
        # a campaign with bots, or with rule choices, starts now (its bot seats give no client seed; a waiting
        # campaign records nothing before its seats are ready); keep goes with invitations only
        camp["allOf"] = [
            {"if": {"required": ["bots"], "properties": {"bots": {"minProperties": 1}}},
             "then": {"properties": {"start": {"const": "now"}}}},
            {"if": {"required": ["choices"], "properties": {"choices": {"minProperties": 1}}},
             "then": {"properties": {"start": {"const": "now"}}}},
            KEEP_ONLY_WITH_INVITATIONS, *no_bot_kept(seats)]
    for name in (*_PLACEHOLDERS, "CreateGameRequest"):
        comps[name]["title"] = name
    return comps
