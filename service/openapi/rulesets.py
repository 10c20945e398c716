"""Each registered ruleset's components: its command and event unions with the kernel's, named
``<ruleset>_<Type>``, private event fields optional (redaction); and the answers that carry commands or events,
one variant per ruleset discriminated by ``ruleset``."""
from __future__ import annotations

import copy
import typing
from typing import Any

import msgspec
from domain.kernel import KernelCommand, KernelEvent

from .. import schemas
from .json_schema import REF, generator_ready, rename, walk


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
        sch = walk(rename(sch, names), generator_ready)
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
    comps[cmd_name] = walk(rename(cmd, names), generator_ready) | {
        "title": cmd_name, "description": f"A {rs.id} command (or one of the kernel's: `ready`, `undo`, "
                                          "`undo_accept`, `undo_decline`), tagged by `type`."}
    comps[ev_name] = walk(rename(ev, names), generator_ready) | {
        "title": ev_name, "description": f"A {rs.id} event payload, tagged by `type`."}
    return comps, cmd_name, ev_name


def per_ruleset(comps: dict[str, Any], rulesets: list[Any]) -> None:
    """The answers that carry commands or events, one variant per ruleset, and their plain names as unions
    discriminated by ``ruleset`` (see the module docstring)."""
    per = [t.__name__ for t in schemas.PER_RULESET]
    for rs in rulesets:
        names = {n: f"{rs.id}_{n}" for n in per} | {"Command": f"{rs.id}_Command", "GameEvent": f"{rs.id}_Event"}
        for n in per:
            name = names[n]
            if name in comps:
                raise ValueError(f"ruleset {rs.id} has a type named {n}: it clashes with the document's {name}")
            sch = rename(copy.deepcopy(comps[n]), names)
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
