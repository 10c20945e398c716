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

from domain.kernel import KernelEvent, registry

REF = "#/components/schemas/"


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
        (cmd, ev), parts = msgspec.json.schema_components([rs.command_type, rs.event_type | KernelEvent])
        for name, sch in parts.items():
            comps[prefix + name] = _rename_refs(sch, prefix)
        comps[f"{prefix}Command"] = _one_of(_rename_refs(cmd, prefix)) | {"title": f"{rs.id} command"}
        comps[f"{prefix}Event"] = _one_of(_rename_refs(ev, prefix)) | {"title": f"{rs.id} event"}
        cmd_refs.append(REF + f"{prefix}Command")
        ev_refs.append(REF + f"{prefix}Event")
    return comps, cmd_refs, ev_refs


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
