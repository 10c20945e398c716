"""The OpenAPI document (``/schema/openapi.json``) and the interactive docs.

Litestar describes ``command`` in ``POST /games/{id}/commands`` as a plain
object: the command unions belong to the rulesets and are only known at run
time. This module post-processes the generated document: for every registered
ruleset it adds ``<ruleset>_Command`` and ``<ruleset>_Event`` components (the
tagged unions, ``oneOf`` with a ``discriminator`` on ``type`` and its
``mapping``, from msgspec's schema generation) and points the request body's
``command`` at them. Component names are prefixed with the ruleset id, so two
rulesets may both have a ``Move``.

Docs: ``/schema`` (Scalar), ``/schema/swagger``, ``/schema/redoc``.
"""
from __future__ import annotations

import copy
from typing import Any

import msgspec
from litestar import Request
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, RedocRenderPlugin, ScalarRenderPlugin, SwaggerRenderPlugin

from domain.kernel import KernelCommand, KernelEvent, registry

REF = "#/components/schemas/"


# -- response bodies, as documentation (service/views.py builds them) ---------------
class Choice(msgspec.Struct):
    id: str
    title: str


class RulesetInfo(msgspec.Struct):
    id: str
    scenarios: list[Choice]
    campaigns: list[Choice]


class Health(msgspec.Struct):
    status: str
    store: str
    redis: str


class Receipt(msgspec.Struct):
    """The service's Ed25519 signature over ``umpire-receipt-v1|{game_id}|{version}|{head}``
    (base64url, no padding); the public key is at ``GET /.well-known/umpire-key``."""

    game_id: str
    version: int
    head: str
    key_id: str
    signature: str


class GameCreated(msgspec.Struct):
    game_id: str
    ruleset: str
    scenario: str
    version: int
    status: str
    start: str
    seats: dict[str, str]
    seed_commitment: str
    receipt: Receipt | None = None


class UndoRequestView(msgspec.Struct):
    seq: int
    by: str
    to_version: int
    answer: list[dict[str, Any]]


class LobbyEntry(msgspec.Struct):
    game_id: str
    ruleset: str
    scenario: str
    status: str
    version: int
    winner: str | None
    created_at: str
    seed_commitment: str
    campaign_id: str | None


class Lobby(msgspec.Struct):
    games: list[LobbyEntry]


class GameView(msgspec.Struct):
    game_id: str
    ruleset: str
    scenario: str
    version: int
    status: str
    active_seat: str | None
    to_act: list[str]
    turn: int
    winner: str | None
    state: dict[str, Any]
    undo_request: UndoRequestView | None = None
    waiting_for: list[str] | None = None
    receipt: Receipt | None = None


class LegalCommands(msgspec.Struct):
    version: int
    seat: str | None
    commands: list[dict[str, Any]]


class EventEntry(msgspec.Struct):
    seq: int
    type: str
    actor: str | None
    recorded_at: str
    payload: dict[str, Any]
    hash: str
    undone: bool
    commitment: str | None = None
    hidden: list[str] | None = None
    private: dict[str, Any] | None = None


class EventsPage(msgspec.Struct):
    version: int
    events: list[EventEntry]


class CommandResult(msgspec.Struct):
    version: int
    events: list[EventEntry]
    undo: str | None = None
    receipt: Receipt | None = None


class RulingView(msgspec.Struct):
    seq: int
    type: str
    actor: str | None
    ruling: dict[str, Any] | None
    undone: bool
    rolls: list[dict[str, Any]] | None = None
    redacted: bool | None = None


class TimelineEntry(msgspec.Struct):
    seq: int
    type: str
    actor: str | None
    turn: int
    summary: str
    undone: bool


class Timeline(msgspec.Struct):
    game_id: str
    version: int
    steps: list[TimelineEntry]


class VerifyResult(msgspec.Struct):
    game_id: str
    version: int
    status: str
    chain_version: int
    chain_ok: bool
    row_ok: bool
    first_broken_seq: int | None = None
    problem: str | None = None
    row_problems: list[str] | None = None
    client_seeds: dict[str, str | None] | None = None
    seed_given: bool | None = None
    receipt_ok: bool | None = None
    receipt_problem: str | None = None
    seed: str | None = None
    commitment_ok: bool | None = None
    commitments_ok: bool | None = None
    dice_ok: bool | None = None
    rolls_checked: int | None = None
    first_bad_roll_seq: int | None = None
    dice_problem: str | None = None


class PublicKey(msgspec.Struct):
    alg: str
    key_id: str
    public_key: str


def _rename_refs(node: Any, prefix: str) -> Any:
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str) and v.startswith(REF):
                out[k] = REF + prefix + v[len(REF):]
            elif k == "mapping" and isinstance(v, dict):
                out[k] = {t: REF + prefix + r[len(REF):] for t, r in v.items()}
            else:
                out[k] = _rename_refs(v, prefix)
        return out
    if isinstance(node, list):
        return [_rename_refs(v, prefix) for v in node]
    return node


def _one_of(schema: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in schema and "discriminator" in schema:
        schema = dict(schema)
        schema["oneOf"] = schema.pop("anyOf")
    return schema


def union_components(ruleset_ids: list[str] | None = None) -> tuple[dict[str, Any], list[str], list[str]]:
    """Components for each ruleset's command and event unions: (components, command refs, event refs)."""
    comps: dict[str, Any] = {}
    cmd_refs: list[str] = []
    ev_refs: list[str] = []
    for rs in registry.all_rulesets():
        if ruleset_ids is not None and rs.id not in ruleset_ids:
            continue
        prefix = f"{rs.id}_"
        (cmd, ev), parts = msgspec.json.schema_components(
            [rs.command_type | KernelCommand, rs.event_type | KernelEvent], ref_template=REF + "{name}"
        )
        for name, sch in parts.items():
            comps[prefix + name] = _rename_refs(sch, prefix)
        comps[f"{prefix}Command"] = _one_of(_rename_refs(cmd, prefix)) | {"title": f"{rs.id} command"}
        comps[f"{prefix}Event"] = _one_of(_rename_refs(ev, prefix)) | {"title": f"{rs.id} event"}
        cmd_refs.append(REF + f"{prefix}Command")
        ev_refs.append(REF + f"{prefix}Event")
    return comps, cmd_refs, ev_refs


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
        "rule": {"type": "string", "description": "The rule id a refused command breaks (422)."},
        "current_version": {"type": "integer", "description": "The game's version (409)."},
        "field": {"type": "string", "description": "The request field that is wrong (400, 422)."},
        "values": {"type": "object", "description": "The numbers behind a rule violation."},
    },
}

_PROBLEM_TEXT = {
    "400": "Malformed request (names the field)",
    "401": "Missing or unknown seat token",
    "403": "Not this seat's decision",
    "404": "Unknown game, seq or route",
    "409": "Stale expected_version (with current_version)",
    "413": "The body is too large",
    "415": "The body is not application/json",
    "422": "Refused by the rules (with rule) or bad game setup (with field)",
}


def _problem_codes(path: str, method: str) -> list[str]:
    codes = ["400"]
    if "{game_id}" in path:
        codes.append("404")
        if method == "get":
            codes.append("401")  # a token that is not a seat of the game
    if method == "post" and "{game_id}" in path:
        codes += ["401", "403", "409", "422"]
    if method == "post" and path == "/games":
        codes.append("422")
    if method == "post":
        codes += ["413", "415"]
    return sorted(set(codes))


def postprocess(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with the rulesets' tagged unions and discriminators put in."""
    doc = copy.deepcopy(doc)
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    comps, cmd_refs, ev_refs = union_components()
    schemas.update(comps)
    for name, sch in schemas.items():
        props = sch.get("properties") if isinstance(sch, dict) else None
        if props and "command" in props and "expected_version" in props:
            props["command"] = {
                "description": "A command of the game's ruleset, tagged by `type` "
                               "(any entry of GET /games/{id}/legal-commands can be posted as it is).",
                "oneOf": [{"$ref": r} for r in cmd_refs],
            }
    schemas["ProblemDetails"] = PROBLEM_SCHEMA
    for path, item in doc.get("paths", {}).items():
        for method, op in item.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            responses = op["responses"]
            for code in _problem_codes(path, method):
                responses[code] = {
                    "description": _PROBLEM_TEXT[code],
                    "content": {"application/problem+json": {"schema": {"$ref": REF + "ProblemDetails"}}},
                }
    entry = schemas.get("EventEntry")
    if isinstance(entry, dict) and "payload" in entry.get("properties", {}):
        entry["properties"]["payload"] = {"$ref": REF + "GameEvent"}
    schemas["GameEvent"] = {
        "description": "The payload of an event of any ruleset, tagged by `type` (private fields removed and "
                       "`redacted: true` when the caller may not see them).",
        "oneOf": [{"$ref": r} for r in ev_refs],
    }
    return doc


class DiscriminatedJsonPlugin(JsonRenderPlugin):
    """Serves ``/schema/openapi.json`` post-processed (computed once per app)."""

    def __init__(self) -> None:
        super().__init__()
        self._cache: bytes | None = None

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        if self._cache is None:
            self._cache = self.render_json(request, postprocess(openapi_schema))
        return self._cache


def openapi_config(version: str) -> OpenAPIConfig:
    return OpenAPIConfig(
        title="umpire",
        version=version,
        description="An impartial referee for tabletop wargames. Errors are RFC 9457 problem details.",
        path="/schema",
        render_plugins=[
            ScalarRenderPlugin(path="/"),
            DiscriminatedJsonPlugin(),
            SwaggerRenderPlugin(path="/swagger"),
            RedocRenderPlugin(path="/redoc"),
        ],
    )


__all__ = ["DiscriminatedJsonPlugin", "openapi_config", "postprocess", "union_components"]
