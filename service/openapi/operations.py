"""What the document says of each operation that litestar cannot: its tag, security (bearer seat tokens:
required, optional, or public), answers and their media types, errors, headers and parameter bounds."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..language import SUPPORTED, TAG_MAX, TAG_PATTERN
from ..queries import LOBBY_STATUSES

SECURITY_SCHEME = "seatToken"


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
