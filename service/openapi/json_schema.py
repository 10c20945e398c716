"""msgspec's JSON schemas made generator-ready: tuples as ``items`` with ``minItems``/``maxItems``, string enums
typed, tagged unions as ``oneOf``; component references renamed."""
from __future__ import annotations

from typing import Any

REF = "#/components/schemas/"


def walk(node: Any, fn: Any) -> Any:
    """``fn`` applied bottom-up to every dict of a JSON schema."""
    if isinstance(node, dict):
        return fn({k: walk(v, fn) for k, v in node.items()})
    if isinstance(node, list):
        return [walk(v, fn) for v in node]
    return node


def generator_ready(node: dict[str, Any]) -> dict[str, Any]:
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


def rename(node: Any, names: dict[str, str]) -> Any:
    def fix(n: dict[str, Any]) -> dict[str, Any]:
        ref = n.get("$ref")
        if isinstance(ref, str) and ref.startswith(REF) and ref[len(REF):] in names:
            n["$ref"] = REF + names[ref[len(REF):]]
        mapping = n.get("mapping")
        if isinstance(mapping, dict):
            n["mapping"] = {t: REF + names.get(r[len(REF):], r[len(REF):]) for t, r in mapping.items()}
        return n

    return walk(node, fix)
