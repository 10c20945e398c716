"""Each operation of the generated paths finished: tags, security, answers with their schemas and headers,
problem details for every error status, parameters without litestar's ``null`` alternatives."""
from __future__ import annotations

import copy
from typing import Any

from .json_schema import REF
from .operations import OPERATIONS, OPTIONAL, PUBLIC, SEAT, SECURITY, Op
from .problems import BODY_ERRORS, ERROR_TEXT, LIMITED, LIMITED_429, PROBLEM


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


def finish_operation(path: str, method: str, op: dict[str, Any]) -> None:
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
