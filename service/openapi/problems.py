"""Problem details (RFC 9457, ``application/problem+json``) in the document: their schema, what each error
status means, and the 429 of the operations that spend a budget."""
from __future__ import annotations

from typing import Any

from .json_schema import REF

PROBLEM = "application/problem+json"


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


#: Every POST can meet the strict input guard (service/strict_input.py): a malformed body (400), one too
#: large (413), or one that is not JSON (415).
BODY_ERRORS = (400, 413, 415)
