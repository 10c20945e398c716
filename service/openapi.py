"""The OpenAPI document (``/schema/openapi.json``) and the docs page (``/schema``), DESIGN 8.

Litestar generates the paths and parameters from the route handlers; everything litestar cannot
express is put in here, in one place (:func:`postprocess`), so that client generators
(openapi-python-client, openapi-typescript) accept the document unchanged:

* **Components** come from msgspec's JSON-schema generation of the body types
  (:mod:`service.schemas`, the request structs) and of every registered ruleset's command and
  event unions, named ``<ruleset>_<Type>`` (titles equal the names, so no two share one; two
  types of one ruleset with the same class name keep the name for the command or event and add
  the module to the other: ``hoth_Reroll`` is the command, ``hoth_CardsReroll`` the card effect).
  A new ruleset appears by itself once the registry has it.
* **Tuples** (``prefixItems`` with ``items: false``) become ``items`` with ``minItems``/``maxItems``.
* **Redaction**: an event's private fields are optional and it has an optional ``redacted: true``
  (a caller who may not see them gets the payload without them); entries carry an optional
  ``commitment``.
* **Unions**: ``<ruleset>_Command`` is a ruleset's command union with the kernel's commands
  (``ready``, ``undo``, ``undo_accept``, ``undo_decline``), ``<ruleset>_Event`` its event payloads with
  the kernel's events (``oneOf`` with a ``discriminator`` on ``type``); ``Command`` is any of them (the
  body of ``POST /commands``). The answers that carry commands or events (:data:`schemas.PER_RULESET`:
  legal commands, command answers, the events page, the dry run) are one variant per ruleset
  (``hoth_LegalCommands`` lists ``hoth_Command``), their plain name the union of the variants
  discriminated by the answer's ``ruleset``: a generator resolves every command and event to its own
  ruleset's type, never to another ruleset's command of the same ``type``. ``CreateGameRequest`` is one
  variant per ruleset (its scenarios and options), discriminated by ``ruleset``.
* **Operations**: every status code each can return with its problem-details body, security
  (bearer seat tokens: required, optional, or public), tags, ``text/event-stream`` for the feed,
  ``image/svg+xml`` for the board, the ``X-Umpire-Degraded`` header.

The docs page is Swagger UI, served from the files of the ``swagger-ui-py`` wheel (Apache-2.0,
the licence is served beside them at ``/schema/static/LICENSE``): it works without internet.

Over 500 lines on purpose: everything litestar cannot express about the API is put in one place
(:func:`postprocess`), so the document's fixes are read together.
"""
from __future__ import annotations

import copy
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from litestar import Request
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.static_files import create_static_files_router

from bots import infos
from domain.kernel import KernelCommand, KernelEvent, registry
from domain.kernel.campaign import campaign_rules_of
from domain.kernel.choices import declared

from . import schemas
from .game_service import CommandRequest, ReadyRequest
from .language import SUPPORTED, TAG_MAX, TAG_PATTERN
from .queries import LOBBY_STATUSES
from .routes.campaigns import CampaignReadyRequest, CreateCampaignRequest
from .seat_claims import ClaimRequest
from .undo import UndoRequest

REF = "#/components/schemas/"
PROBLEM = "application/problem+json"
SECURITY_SCHEME = "seatToken"
DOCS_STATIC = "/schema/static"
HEX64 = "^[0-9a-f]{64}$"

#: Placeholders of service/schemas.py that stand for the rulesets' unions.
_PLACEHOLDERS = ("Command", "GameEvent", "CommandTemplate")


# -- msgspec schemas, made generator-ready ---------------------------------------------------------------
def _walk(node: Any, fn: Any) -> Any:
    """``fn`` applied bottom-up to every dict of a JSON schema."""
    if isinstance(node, dict):
        return fn({k: _walk(v, fn) for k, v in node.items()})
    if isinstance(node, list):
        return [_walk(v, fn) for v in node]
    return node


def _generator_ready(node: dict[str, Any]) -> dict[str, Any]:
    """Tuples as ``items`` + ``minItems``/``maxItems``; string enums typed; tagged unions as ``oneOf``."""
    if "prefixItems" in node:
        parts = node.pop("prefixItems")
        uniq: list[Any] = []
        for p in parts:
            if p not in uniq:
                uniq.append(p)
        node["items"] = uniq[0] if len(uniq) == 1 else {"anyOf": uniq}
        node.setdefault("minItems", len(parts))
        node.setdefault("maxItems", len(parts))
    if "enum" in node and "type" not in node and all(isinstance(v, str) for v in node["enum"]):
        node["type"] = "string"
    if "anyOf" in node and "discriminator" in node:
        node["oneOf"] = node.pop("anyOf")
    return node


def _rename(node: Any, names: dict[str, str]) -> Any:
    def fix(n: dict[str, Any]) -> dict[str, Any]:
        ref = n.get("$ref")
        if isinstance(ref, str) and ref.startswith(REF) and ref[len(REF):] in names:
            n["$ref"] = REF + names[ref[len(REF):]]
        mapping = n.get("mapping")
        if isinstance(mapping, dict):
            n["mapping"] = {t: REF + names.get(r[len(REF):], r[len(REF):]) for t, r in mapping.items()}
        return n

    return _walk(node, fix)


def _qualified(t: Any) -> str:
    return f"{t.__module__}.{t.__qualname__}"


def _members(union: Any) -> list[Any]:
    args = typing.get_args(union)
    return list(args) if args else [union]


def ruleset_components(rs: Any) -> tuple[dict[str, Any], str, str]:
    """The components of one ruleset: its command and event unions (kernel events included) and every
    type they use, as ``(components, command union name, event union name)``."""
    prefix = f"{rs.id}_"
    commands = _members(rs.command_type) + _members(KernelCommand)
    events = _members(rs.event_type) + _members(KernelEvent)
    (cmd, ev), parts = msgspec.json.schema_components([rs.command_type | KernelCommand, rs.event_type | KernelEvent],
                                                      ref_template=REF + "{name}")
    # msgspec names a type by its class name, or by its module path when two share a name
    names: dict[str, str] = {}
    taken: set[str] = set()
    by_raw = {(_qualified(t) if _qualified(t) in parts else t.__name__): t for t in commands + events}
    ranked = sorted(parts, key=lambda raw: (0 if by_raw.get(raw) in commands else 1 if raw in by_raw else 2, raw))
    for raw in ranked:
        short = raw.rsplit(".", 1)[-1]
        name = prefix + short
        if name in taken:
            module = raw.rsplit(".", 2)[-2] if raw.count(".") >= 1 else "x"
            name = prefix + module.capitalize() + short
        taken.add(name)
        names[raw] = name
    comps: dict[str, Any] = {}
    for raw, sch in parts.items():
        sch = _walk(_rename(sch, names), _generator_ready)
        sch["title"] = names[raw]
        comps[names[raw]] = sch
    for t in events:  # redaction (DESIGN 8): private fields may be missing, and the payload says so
        raw = _qualified(t) if _qualified(t) in parts else t.__name__
        sch = comps.get(names.get(raw, ""))
        if sch is None:
            continue
        private = set(getattr(t, "private", ()) or ())
        if private:
            sch["required"] = [f for f in sch.get("required", []) if f not in private]
            for f in private:
                if f in sch.get("properties", {}):
                    sch["properties"][f] = {**sch["properties"][f],
                                            "description": "Private: left out for a caller who may not see it."}
        sch.setdefault("properties", {})["redacted"] = {
            "type": "boolean", "description": "true when private fields were left out for this caller."}
    cmd_name, ev_name = f"{prefix}Command", f"{prefix}Event"
    comps[cmd_name] = _walk(_rename(cmd, names), _generator_ready) | {
        "title": cmd_name, "description": f"A {rs.id} command (or one of the kernel's: `ready`, `undo`, "
                                          "`undo_accept`, `undo_decline`), tagged by `type`."}
    comps[ev_name] = _walk(_rename(ev, names), _generator_ready) | {
        "title": ev_name, "description": f"A {rs.id} event payload, tagged by `type`."}
    return comps, cmd_name, ev_name


def _options_schema(rs: Any) -> dict[str, Any]:
    hook = getattr(rs, "options_schema", None)
    if callable(hook):
        return copy.deepcopy(hook())
    return {"type": "object", "maxProperties": 0, "description": f"{rs.id} takes no options."}


def _hoist(schema: dict[str, Any], name: str, comps: dict[str, Any]) -> dict[str, Any]:
    """``schema`` as the component ``name``, its nested object schemas as components of their own
    (``<name><Property>``): generators name inline objects inconsistently, a component has one name."""
    schema = dict(schema)
    props = schema.get("properties")
    if isinstance(props, dict):
        schema["properties"] = {}
        for prop, sub in props.items():
            if isinstance(sub, dict) and isinstance(sub.get("properties"), dict):
                sub = _hoist(sub, name + prop[:1].upper() + prop[1:], comps)
            schema["properties"][prop] = sub
    schema["title"] = name
    comps[name] = schema
    return {"$ref": REF + name}


def _create_game_variant(rs: Any, comps: dict[str, Any]) -> dict[str, Any]:
    scenarios = [c.id for c in rs.scenarios()]
    return {
        "title": f"{rs.id}_CreateGame",
        "description": f"A new {rs.id} game.",
        "type": "object",
        "additionalProperties": False,
        "required": ["ruleset", "scenario"],
        "properties": {
            "ruleset": {"type": "string", "enum": [rs.id]},
            "scenario": {"type": "string", "enum": scenarios, "description": "A scenario of GET /rulesets."},
            "seed": {"anyOf": [{"type": "string", "pattern": HEX64}, {"type": "null"}],
                     "description": "The secret seed, 64 lowercase hex characters (make a game reproducible); "
                                    "left out or null: a fresh random one."},
            "options": _hoist(_options_schema(rs), f"{rs.id}_Options", comps),
            "start": START,
            "bots": _bots_schema(rs),
            "choices": _choices_schema(rs),
            "seating": SEATING,
            "keep": _keep_schema(_ruleset_seats(rs)),
        },
        "allOf": [KEEP_ONLY_WITH_INVITATIONS, *_no_bot_kept(_ruleset_seats(rs))],
    }


def _choices_schema(rs: Any) -> dict[str, Any]:
    """``choices`` of POST /games: rule choice id -> one of its options (DESIGN 14, GET /rulesets ``choices``)."""
    return {"type": "object", "additionalProperties": False,
            "properties": {c.id: {"type": "string", "enum": list(c.option_ids()), "default": c.default,
                                  "description": c.question} for c in declared(rs)},
            "description": "Rule choices (DESIGN 14): `{\"<choice id>\": \"<option>\"}`; every choice left out takes "
                           "its default. The choices in force are written into the game's header."}


def _bots_schema(rs: Any) -> dict[str, Any]:
    """``bots`` of POST /games: seat -> one of the ruleset's bots (DESIGN 13, GET /rulesets ``bots``)."""
    specs = sorted({s for b in infos(rs.id) for s in (b.id, *(f"{b.id}:{lv}" for lv in b.levels))})
    return {"type": "object", "additionalProperties": {"type": "string", "enum": specs},
            "propertyNames": {"enum": _ruleset_seats(rs)},
            "description": "Seats played by the service's built-in bots: `{\"<seat>\": \"<bot id>[:level]\"}` "
                           "(UMPIRE-BOT-1). A bot seat gets no token; the service plays it as soon as the decision "
                           "is its own."}


#: ``start`` of POST /games and POST /campaigns (DESIGN 3).
START = {"type": "string", "enum": ["now", "when_ready"], "default": "now",
         "description": "`now`: the game opens at once; `when_ready`: it waits (`status: waiting`) until every seat "
                        "has posted `ready`, each with an optional client seed mixed into every draw."}


#: ``seating`` and ``keep`` of POST /games and POST /campaigns (DESIGN 4, UMPIRE-SEAT-1).
SEATING = {"type": "string", "enum": ["tokens", "invitations"], "default": "tokens",
           "description": "`tokens`: every human seat's token to the caller (tools that seat the players themselves); "
                          "`invitations`: the tokens of the seats named in `keep` and a one-time invitation for every "
                          "other human seat (claimed with POST .../seats/{seat}/claim)."}


def _keep_schema(seats: list[str]) -> dict[str, Any]:
    """``keep``: seats of the ruleset (those of its scenarios), each once."""
    return {"anyOf": [{"type": "array", "items": {"type": "string", "enum": seats}, "uniqueItems": True},
                      {"type": "null"}],
            "description": "With `seating: invitations`: the seats whose tokens the caller keeps (none by default; "
                           "never a bot's seat, UMPIRE-SEAT-1)."}


def _no_bot_kept(seats: list[str]) -> list[dict[str, Any]]:
    """UMPIRE-SEAT-1: a seat named in ``bots`` is the service's, never in ``keep`` (one condition per seat)."""
    return [{"if": {"required": ["bots"], "properties": {"bots": {"required": [s]}}},
             "then": {"properties": {"keep": {"anyOf": [{"type": "null"}, {"not": {"contains": {"const": s}}}]}}}}
            for s in seats]


#: ``keep`` goes with ``"seating": "invitations"`` only (UMPIRE-SEAT-1).
KEEP_ONLY_WITH_INVITATIONS = {
    "if": {"not": {"required": ["seating"], "properties": {"seating": {"const": "invitations"}}}},
    "then": {"properties": {"keep": {"type": "null"}}}}


def _ruleset_seats(rs: Any) -> list[str]:
    """Every seat of the ruleset's scenarios (with their default options)."""
    seats: set[str] = set()
    for sc in rs.scenarios():
        try:
            seats.update(rs.seats(sc.id, {}))
        except Exception:  # a scenario that needs options names its seats with them
            continue
    return sorted(seats)


def _per_ruleset(comps: dict[str, Any], rulesets: list[Any]) -> None:
    """The answers that carry commands or events, one variant per ruleset, and their plain names as unions
    discriminated by ``ruleset`` (see the module docstring)."""
    per = [t.__name__ for t in schemas.PER_RULESET]
    for rs in rulesets:
        names = {n: f"{rs.id}_{n}" for n in per} | {"Command": f"{rs.id}_Command", "GameEvent": f"{rs.id}_Event"}
        for n in per:
            name = names[n]
            if name in comps:
                raise ValueError(f"ruleset {rs.id} has a type named {n}: it clashes with the document's {name}")
            sch = _rename(copy.deepcopy(comps[n]), names)
            sch["title"] = name
            if "ruleset" in sch.get("properties", {}):
                sch["properties"]["ruleset"] = {"type": "string", "enum": [rs.id],
                                                "description": "The game's ruleset."}
                sch["description"] = f"{sch.get('description', n)} ({rs.id})".strip()
            comps[name] = sch
    for n in per:
        if "ruleset" not in comps[n].get("properties", {}):
            continue  # a part of the answers above (an event entry): only its per-ruleset variants are used
        mapping = {rs.id: REF + f"{rs.id}_{n}" for rs in rulesets}
        comps[n] = {"title": n, "description": f"{comps[n].get('description') or n} One variant per ruleset, "
                                                "discriminated by `ruleset`.",
                    "oneOf": [{"$ref": r} for r in mapping.values()],
                    "discriminator": {"propertyName": "ruleset", "mapping": mapping}}


def body_components() -> dict[str, Any]:
    """Every body type of :mod:`service.schemas` and the request bodies, with the rulesets' unions in."""
    _, parts = msgspec.json.schema_components(
        (*schemas.DOCUMENTED, CommandRequest, UndoRequest, ReadyRequest, CreateCampaignRequest, CampaignReadyRequest,
         ClaimRequest),
        ref_template=REF + "{name}")
    comps = {name: _walk(sch, _generator_ready) for name, sch in parts.items()}
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
    _per_ruleset(comps, rulesets)
    # POST /games: one variant per ruleset, with its scenarios and options
    variants = {rs.id: _create_game_variant(rs, comps) for rs in rulesets}
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
        camp["properties"]["bots"] = {**_bots_schema(with_campaigns[0]), "propertyNames": {"enum": seats}}
        camp["properties"]["keep"] = _keep_schema(seats)
        # a campaign with bots starts now (service/routes/campaigns.py: its bot seats give no client seed)
        camp["properties"]["choices"] = _choices_schema(with_campaigns[0])
        # a campaign with bots, or with rule choices, starts now (its bot seats give no client seed; a waiting
        # campaign records nothing before its seats are ready); keep goes with invitations only
        camp["allOf"] = [
            {"if": {"required": ["bots"], "properties": {"bots": {"minProperties": 1}}},
             "then": {"properties": {"start": {"const": "now"}}}},
            {"if": {"required": ["choices"], "properties": {"choices": {"minProperties": 1}}},
             "then": {"properties": {"start": {"const": "now"}}}},
            KEEP_ONLY_WITH_INVITATIONS, *_no_bot_kept(seats)]
    for name in (*_PLACEHOLDERS, "CreateGameRequest"):
        comps[name]["title"] = name
    return comps


# -- problem details and the operations ----------------------------------------------------------------
PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "ProblemDetails",
    "description": "RFC 9457 problem details (application/problem+json).",
    "type": "object",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "description": "urn:umpire:problem:<slug>"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string", "description": "A sentence a player understands."},
        "rule": {"type": "string", "description": "The rule id the sentence applies (a refused command, 422; a "
                                                  "read-only game, 409)."},
        "rule_url": {"type": "string", "description": "Where the rule's text is served."},
        "current_version": {"type": "integer", "description": "The game's version (409 stale expected_version)."},
        "field": {"type": "string", "description": "The request field that is wrong, as a path "
                                                   "(`command.unit`, `options.team`, `limit`)."},
        "values": {"type": "object", "description": "The numbers behind a rule violation."},
        "budget": {"type": "string", "description": "The budget a 429 is over (`create`, `commands_seat`, ...; "
                                                    "docs/operations-limits.md)."},
        "retry_after": {"type": "integer", "description": "Seconds to wait (429), as the Retry-After header."},
    },
}

ERROR_TEXT = {
    400: "Malformed request: `field` names what is wrong",
    401: "Unknown seat token (or none where one is needed)",
    403: "Not this seat's decision",
    404: "Unknown game, campaign, ruleset, rule or seq",
    409: "Stale expected_version (with current_version), or the game cannot be played on here (read-only, with rule)",
    413: "The body is too large",
    415: "The body is not application/json",
    422: "Refused by the rules (with rule and rule_url) or a bad setup (with field)",
    503: "Storage failure: nothing of the request was applied",
    410: "The seat was claimed already: its invitation is spent (UMPIRE-SEAT-2)",
}

#: Operations that spend a budget (service.rate_limits, docs/operations-limits.md): 429 with Retry-After.
LIMITED = {("post", "/games"), ("post", "/campaigns"), ("post", "/games/{game_id}/commands"),
           ("post", "/games/{game_id}/ready"), ("post", "/games/{game_id}/undo"),
           ("post", "/games/{game_id}/undo/accept"), ("post", "/games/{game_id}/undo/decline"),
           ("post", "/campaigns/{campaign_id}/ready"), ("get", "/games/{game_id}/feed")}
LIMITED_429 = {
    "description": "Over a budget of this client address or seat token (`budget` names it); nothing was applied",
    "headers": {"Retry-After": {"description": "Seconds before the budget allows the request again",
                                "schema": {"type": "integer", "minimum": 1}}},
    "content": {PROBLEM: {"schema": {"$ref": REF + "ProblemDetails"}}}}

PUBLIC, OPTIONAL, SEAT = "public", "optional", "seat"
SECURITY = {
    PUBLIC: [],
    OPTIONAL: [{}, {SECURITY_SCHEME: []}],
    SEAT: [{SECURITY_SCHEME: []}],
}


@dataclass(frozen=True)
class Op:
    """What the document says of one operation (litestar gives its path and parameters)."""

    tag: str
    security: str
    #: status -> component name, ("array", name), or (media type, schema)
    ok: dict[int, Any]
    errors: tuple[int, ...]
    description: str | None = None
    headers: dict[str, Any] = field(default_factory=dict)
    #: parameter name -> schema keywords the service enforces and litestar leaves out
    params: dict[str, dict[str, Any]] = field(default_factory=dict)


DEGRADED = {"X-Umpire-Degraded": {
    "description": "`projections` when Redis was unreachable and the answer came from the event log.",
    "schema": {"type": "string", "enum": ["projections"]}}}
GAME = "/games/{game_id}"
#: The rules reference in the reader's language (docs/rules-languages.md).
CONTENT_LANGUAGE = {"Content-Language": {
    "description": "The language(s) of the texts answered, e.g. `uk` or `uk, en` (rules without a text in the "
                   "language asked for are in English).",
    "schema": {"type": "string"}}}
#: ``?lang=``: a language tag (a malformed one is a 400; one umpire does not speak is passed over, service/language.py).
LANG_PARAM = {"lang": {"type": "string", "maxLength": TAG_MAX, "pattern": TAG_PATTERN, "examples": list(SUPPORTED)}}

#: One server-sent event of the feed (OpenAPI 3.1: a ``text/event-stream`` schema describes each event): its
#: ``event`` (``event``: an event of the log; ``end``: the game is finished, nothing follows), ``id`` (the seq,
#: for ``Last-Event-ID``; none on ``end``) and ``data`` (JSON).
FEED_EVENT: dict[str, Any] = {
    "type": "object", "title": "FeedEvent",
    "description": "Server-sent events, one per event of the log the caller may see: `event: event`, `id: <seq>`, "
                   "`data: <the event entry as JSON, as in GET /games/{id}/events: a `<ruleset>_EventEntry`>`; once "
                   "a finished game's last event is sent, `event: end` with `data: {status, version, winner}`.",
    "properties": {
        "event": {"type": "string", "description": "`event` or `end`"},
        "id": {"type": "string", "pattern": "^[0-9]+$", "description": "the event's seq"},
        "data": {"type": "string", "contentMediaType": "application/json"},
        "retry": {"type": "integer", "minimum": 0},
    },
    "required": ["data"],
}

OPERATIONS: dict[tuple[str, str], Op] = {
    ("get", "/health"): Op("service", PUBLIC, {200: "Health"}, ()),
    ("get", "/rulesets"): Op("service", PUBLIC, {200: ("array", "RulesetInfo")}, (400,), headers=CONTENT_LANGUAGE),
    ("get", "/rulesets/{ruleset_id}/rules"): Op("rules", PUBLIC, {200: ("array", "RuleText")}, (400, 404),
                                                headers=CONTENT_LANGUAGE, params=LANG_PARAM),
    ("get", "/rulesets/{ruleset_id}/rules/{rule_id}"): Op("rules", PUBLIC, {200: "RuleText"}, (400, 404),
                                                          headers=CONTENT_LANGUAGE, params=LANG_PARAM),
    ("get", "/.well-known/umpire-key"): Op("service", PUBLIC, {200: "PublicKey"}, (503,)),
    # issue 28: the languages spoken and the web client's catalog of one (docs/languages.md)
    ("get", "/languages"): Op("languages", PUBLIC, {200: ("application/json", {"type": "object"})}, ()),
    ("get", "/languages/{lang}/catalog"): Op("languages", PUBLIC, {200: ("application/json", {"type": "object"})},
                                             (404,)),
    ("post", "/games"): Op("games", PUBLIC, {201: "GameCreated"}, (400, 422, 503)),
    ("get", "/games"): Op("games", PUBLIC, {200: "Lobby"}, (400, 503), headers=DEGRADED,
                          params={"status": {"type": "string", "enum": list(LOBBY_STATUSES)}}),
    ("get", GAME): Op("games", OPTIONAL, {200: "GameView"}, (401, 404, 503), headers=DEGRADED),
    ("get", GAME + "/legal-commands"): Op("games", OPTIONAL, {200: "LegalCommands"}, (401, 404, 503)),
    ("post", GAME + "/commands"): Op("games", SEAT, {200: "DryRunResult", 201: "CommandResult"},
                                     (400, 401, 403, 404, 409, 422, 503)),
    ("post", GAME + "/ready"): Op("games", SEAT, {201: "CommandResult"}, (400, 401, 404, 409, 422, 503)),
    ("get", GAME + "/events"): Op("log", OPTIONAL, {200: "EventsPage"}, (400, 401, 404, 503)),
    ("get", GAME + "/events/{seq}/ruling"): Op("log", OPTIONAL, {200: "RulingView"}, (400, 401, 404, 503)),
    ("get", GAME + "/events/{seq}/redecide"): Op("log", OPTIONAL, {200: "Redecided"}, (400, 401, 404, 409, 503)),
    ("get", GAME + "/states/{seq}"): Op("log", OPTIONAL, {200: "GameView"}, (400, 401, 404, 503), headers=DEGRADED),
    ("get", GAME + "/timeline"): Op("log", OPTIONAL, {200: "Timeline"}, (401, 404, 503), headers=DEGRADED),
    ("get", GAME + "/board.svg"): Op("log", OPTIONAL, {200: ("image/svg+xml", {"type": "string"})},
                                     (400, 401, 404, 503), headers=DEGRADED,
                                     params={"at": {"type": "integer", "minimum": 0, "maximum": 2**53 - 1}}),
    ("get", GAME + "/verify"): Op("log", PUBLIC, {200: "VerifyResult"}, (400, 404, 503)),
    ("get", GAME + "/feed"): Op("log", OPTIONAL, {200: ("text/event-stream", FEED_EVENT)},
        (400, 401, 404, 503), params={"limit": {"type": "integer", "minimum": 1, "maximum": 2**53 - 1}}),
    ("post", GAME + "/undo"): Op("undo", SEAT, {201: "CommandResult", 202: "CommandResult"},
                                 (400, 401, 403, 404, 409, 422, 503)),
    ("post", GAME + "/undo/accept"): Op("undo", SEAT, {201: "CommandResult"}, (401, 403, 404, 409, 422, 503)),
    ("post", GAME + "/undo/decline"): Op("undo", SEAT, {201: "CommandResult"}, (401, 403, 404, 409, 422, 503)),
    ("post", "/campaigns"): Op("campaigns", PUBLIC, {201: "CampaignCreated"}, (400, 422, 503)),
    ("get", "/campaigns/{campaign_id}"): Op("campaigns", OPTIONAL, {200: "CampaignView"}, (401, 404, 409, 503)),
    ("post", "/campaigns/{campaign_id}/ready"): Op("campaigns", SEAT, {201: "CampaignReady"},
                                                   (400, 401, 404, 409, 422, 503)),
    ("get", "/campaigns/{campaign_id}/verify"): Op("campaigns", PUBLIC, {200: "CampaignVerify"}, (404, 503)),
    # DESIGN 4: the invitation is the credential of a claim (body or bearer header); a rotation needs the token
    ("post", GAME + "/seats/{seat}/claim"): Op("seats", OPTIONAL, {201: "SeatToken"},
                                               (400, 401, 403, 404, 409, 410, 503)),
    ("post", GAME + "/seats/{seat}/rotate"): Op("seats", SEAT, {201: "SeatToken"}, (401, 403, 404, 409, 503)),
    ("post", "/campaigns/{campaign_id}/seats/{seat}/claim"): Op("seats", OPTIONAL, {201: "SeatToken"},
                                                                (400, 401, 403, 404, 409, 410, 422, 503)),
    ("post", "/campaigns/{campaign_id}/seats/{seat}/rotate"): Op("seats", SEAT, {201: "SeatToken"},
                                                                 (401, 403, 404, 409, 422, 503)),
}

#: Every POST can meet the strict input guard (service/strict_input.py): a malformed body (400), one too
#: large (413), or one that is not JSON (415).
BODY_ERRORS = (400, 413, 415)

#: OpenAPI links (stateful clients and testers follow them): from a created game to what can be asked of it.
_GAME_ID = {"game_id": "$response.body#/game_id"}
LINKS: dict[tuple[str, str], dict[int, dict[str, tuple[tuple[str, str], dict[str, str]]]]] = {
    ("post", "/games"): {201: {
        "GameView": (("get", GAME), _GAME_ID),
        "LegalCommands": (("get", GAME + "/legal-commands"), _GAME_ID),
        "Events": (("get", GAME + "/events"), _GAME_ID),
        "Timeline": (("get", GAME + "/timeline"), _GAME_ID),
        "Verify": (("get", GAME + "/verify"), _GAME_ID),
        "Board": (("get", GAME + "/board.svg"), _GAME_ID),
        "StateNow": (("get", GAME + "/states/{seq}"), {**_GAME_ID, "seq": "$response.body#/version"}),
        "LastRuling": (("get", GAME + "/events/{seq}/ruling"), {**_GAME_ID, "seq": "$response.body#/version"}),
    }},
    ("post", GAME + "/commands"): {201: {
        "LastRuling": (("get", GAME + "/events/{seq}/ruling"), {"game_id": "$request.path.game_id",
                                                                 "seq": "$response.body#/version"}),
        "StateNow": (("get", GAME + "/states/{seq}"), {"game_id": "$request.path.game_id",
                                                       "seq": "$response.body#/version"}),
    }},
    ("post", "/campaigns"): {201: {
        "Campaign": (("get", "/campaigns/{campaign_id}"), {"campaign_id": "$response.body#/campaign_id"}),
        "FirstBattle": (("get", GAME), {"game_id": "$response.body#/game_id"}),
    }},
    ("get", "/rulesets"): {200: {
        "Rules": (("get", "/rulesets/{ruleset_id}/rules"), {"ruleset_id": "$response.body#/0/id"}),
    }},
}


def _add_links(doc: dict[str, Any]) -> None:
    paths = doc.get("paths", {})
    for (method, path), by_status in LINKS.items():
        op = paths.get(path, {}).get(method)
        if not isinstance(op, dict):
            continue
        for status, links in by_status.items():
            resp = op.get("responses", {}).get(str(status))
            if resp is None:
                continue
            out = {}
            for name, ((t_method, t_path), params) in links.items():
                target = paths.get(t_path, {}).get(t_method)
                if isinstance(target, dict) and target.get("operationId"):
                    out[name] = {"operationId": target["operationId"], "parameters": dict(params)}
            if out:
                resp["links"] = out


TAGS = [
    {"name": "service", "description": "Health and the rulesets this umpire hosts (scenarios, campaigns, options)."},
    {"name": "rules", "description": "The rules reference: the text behind every rule id rulings and refusals cite."},
    {"name": "games", "description": "Create games, the lobby, a seat's view, its legal commands, sending commands."},
    {"name": "log", "description": "The event log and replay: events, rulings, past states, timeline, board "
                                   "pictures, verification, the live feed."},
    {"name": "undo", "description": "Undo: free within one's own turn while nothing was revealed, else by consent."},
    {"name": "campaigns", "description": "Campaigns: linked battles played with the same seat tokens."},
    {"name": "seats", "description": "Seats that their players own: claim a seat with its one-time invitation, rotate "
                                     "a seat's token (DESIGN 4, UMPIRE-SEAT-*)."},
]

DESCRIPTION = """An impartial referee for tabletop wargames: clients send commands, umpire checks them against the
rules, rolls seeded dice, records hash-chained events and explains every ruling.

* **Seats.** `POST /games` answers one bearer token per seat (with `"seating": "invitations"`: the kept seats' tokens
  and a one-time invitation per other seat, claimed with `POST /games/{id}/seats/{seat}/claim`); send a token as
  `Authorization: Bearer <token>`. A request
  without one is a spectator (it sees what a spectator may see); operations marked with the lock need a seat.
* **Commands.** Take any entry of `GET /games/{id}/legal-commands` and post it back as `command`, with the view's
  `version` as `expected_version`.
* **Errors** are RFC 9457 problem details (`application/problem+json`): a refused command names the rule it breaks
  (`rule`) and links its text (`rule_url`, `GET /rulesets/{id}/rules/{rule_id}`); a malformed request names the field.
* **Battle of Hoth hexes** are `[x, r]` in doubled-width coordinates: row `r` 0..6 (row 0 is the South edge), column
  `c` 0..9 (0..8 in the short rows 1, 3, 5) and `x = 2*c + r % 2`. Sentences, the timeline and the board picture name
  a hex `c4 r2 [8,2]`: the human column and row, then the id the API uses.
"""


def _schema_ref(spec: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(spec, str):
        return "application/json", {"$ref": REF + spec}
    kind, what = spec
    if kind == "array":
        return "application/json", {"type": "array", "items": {"$ref": REF + what}}
    return kind, what


def _strip_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A parameter's schema without the ``null`` alternative litestar adds for optional parameters (a query
    parameter is left out, never null), and integral bounds as integers."""
    schema = dict(schema)
    if isinstance(schema.get("type"), list):
        kinds = [t for t in schema["type"] if t != "null"]
        schema["type"] = kinds[0] if len(kinds) == 1 else kinds
    if isinstance(schema.get("enum"), list):
        schema["enum"] = [v for v in schema["enum"] if v is not None]
    for bound in ("minimum", "maximum"):
        if isinstance(schema.get(bound), float) and schema[bound].is_integer():
            schema[bound] = int(schema[bound])
    for key in ("oneOf", "anyOf"):
        alts = schema.get(key)
        if isinstance(alts, list):
            rest = [a for a in alts if a != {"type": "null"}]
            if len(rest) != len(alts):
                schema = {k: v for k, v in schema.items() if k != key}
                if len(rest) == 1:
                    schema.update(rest[0])
                else:
                    schema[key] = rest
    return schema


def _default_op(path: str, method: str) -> Op:
    """An operation this module does not list (a route added later): a reasonable description."""
    game = "{game_id}" in path
    errors = [400, 404] if game else [400]
    if method == "post":
        errors += [401, 403, 409, 422] if game else [422]
    elif game:
        errors.append(401)
    return Op(path.strip("/").split("/")[0] or "service", SEAT if (method == "post" and game) else
              OPTIONAL if game else PUBLIC, {}, tuple(sorted(set(errors))))


def _finish_operation(path: str, method: str, op: dict[str, Any]) -> None:
    spec = OPERATIONS.get((method, path)) or _default_op(path, method)
    op["tags"] = [spec.tag]
    op["security"] = copy.deepcopy(SECURITY[spec.security])
    if spec.description and not op.get("description"):
        op["description"] = spec.description
    responses: dict[str, Any] = {}
    for status, what in spec.ok.items():
        media, schema = _schema_ref(what)
        old = op.get("responses", {}).get(str(status), {})
        responses[str(status)] = {"description": old.get("description") or "OK",
                                  "content": {media: {"schema": schema}}}
        if spec.headers:
            responses[str(status)]["headers"] = copy.deepcopy(spec.headers)
    if not spec.ok:  # keep what litestar says of a route this module does not know
        responses.update({k: v for k, v in op.get("responses", {}).items() if k.startswith("2")})
    errors = sorted(set(spec.errors) | (set(BODY_ERRORS) if method == "post" else set()))
    for status in errors:
        responses[str(status)] = {"description": ERROR_TEXT[status],
                                  "content": {PROBLEM: {"schema": {"$ref": REF + "ProblemDetails"}}}}
    if (method, path) in LIMITED:
        responses["429"] = copy.deepcopy(LIMITED_429)
    op["responses"] = responses
    for prm in op.get("parameters", []):
        if isinstance(prm.get("schema"), dict):
            prm["schema"] = _strip_null(prm["schema"]) | spec.params.get(prm.get("name", ""), {})
        for k in ("allowEmptyValue", "allowReserved", "deprecated"):
            if prm.get(k) is False:
                del prm[k]
    if op.get("deprecated") is False:
        del op["deprecated"]


def postprocess(doc: dict[str, Any]) -> dict[str, Any]:
    """The document litestar generated, made exact and generator-ready (see the module docstring)."""
    doc = copy.deepcopy(doc)
    doc["info"]["description"] = DESCRIPTION
    doc["tags"] = TAGS
    comps = doc.setdefault("components", {})
    generated = body_components()
    schemas_ = {k: v for k, v in comps.get("schemas", {}).items() if k not in generated}
    # litestar's own schemas of the body types are replaced; keep only what no body type describes
    schemas_ = {k: v for k, v in schemas_.items() if not any(k == n or k.startswith(n + "_") for n in generated)}
    schemas_.update(generated)
    schemas_["ProblemDetails"] = PROBLEM_SCHEMA
    comps["schemas"] = dict(sorted(schemas_.items()))
    comps["securitySchemes"] = {SECURITY_SCHEME: {
        "type": "http", "scheme": "bearer",
        "description": "A seat token from POST /games (or POST /campaigns): `Authorization: Bearer <token>`."}}
    for path, item in doc.get("paths", {}).items():
        for method, op in item.items():
            if isinstance(op, dict) and "responses" in op:
                _finish_operation(path, method, op)
    _add_links(doc)
    # drop components nothing refers to any more (litestar's versions of replaced types)
    used = _referenced(doc)
    comps["schemas"] = {k: v for k, v in comps["schemas"].items() if k in used or k == "ProblemDetails"}
    return doc


def _referenced(doc: dict[str, Any]) -> set[str]:
    schemas_ = doc["components"]["schemas"]
    seen: set[str] = set()
    todo: list[Any] = [doc.get("paths", {})]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(REF):
                name = ref[len(REF):]
                if name not in seen:
                    seen.add(name)
                    todo.append(schemas_.get(name))
            mapping = node.get("mapping")
            if isinstance(mapping, dict):
                for r in mapping.values():
                    if isinstance(r, str) and r.startswith(REF) and r[len(REF):] not in seen:
                        seen.add(r[len(REF):])
                        todo.append(schemas_.get(r[len(REF):]))
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return seen


# -- serving -------------------------------------------------------------------------------------------
class _Document:
    """The post-processed document, computed once per app (the registry does not change while it runs)."""

    def __init__(self) -> None:
        self.doc: dict[str, Any] | None = None

    def get(self, generated: dict[str, Any]) -> dict[str, Any]:
        if self.doc is None:
            self.doc = postprocess(generated)
        return self.doc


class DocumentJsonPlugin(JsonRenderPlugin):
    """``/schema/openapi.json``: the post-processed document."""

    def __init__(self, document: _Document) -> None:
        super().__init__()
        self._document = document
        self._bytes: bytes | None = None

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        if self._bytes is None:
            self._bytes = self.render_json(request, self._document.get(openapi_schema))
        return self._bytes


class LocalSwaggerPlugin(SwaggerRenderPlugin):
    """Swagger UI on the post-processed document, every asset served by umpire itself."""

    def __init__(self, document: _Document, path: list[str]) -> None:
        super().__init__(
            js_url=f"{DOCS_STATIC}/swagger-ui-bundle.js", css_url=f"{DOCS_STATIC}/swagger-ui.css",
            standalone_preset_js_url=f"{DOCS_STATIC}/swagger-ui-standalone-preset.js", path=path,
            favicon=f"<link rel='icon' type='image/png' href='{DOCS_STATIC}/favicon-32x32.png'>")
        self._document = document

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, self._document.get(openapi_schema))


def swagger_ui_dir() -> Path:
    """The Swagger UI files of the ``swagger-ui-py`` wheel (swagger-ui-bundle.js, .css, LICENSE)."""
    import swagger_ui  # cold path: the API docs page, built once on first request

    return Path(swagger_ui.__file__).parent / "static"


def docs_static_router() -> Any:
    return create_static_files_router(path=DOCS_STATIC, directories=[swagger_ui_dir()], include_in_schema=False,
                                      name="docs-static")


def openapi_config(version: str) -> OpenAPIConfig:
    document = _Document()
    return OpenAPIConfig(
        title="umpire",
        version=version,
        description=DESCRIPTION,
        path="/schema",
        render_plugins=[DocumentJsonPlugin(document), LocalSwaggerPlugin(document, ["/", "/swagger"])],
    )


__all__ = ["OPERATIONS", "Op", "body_components", "docs_static_router", "openapi_config", "postprocess",
           "ruleset_components"]
