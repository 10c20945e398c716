"""The document litestar generated, made exact and generator-ready (:func:`postprocess`): the description and
tags, the components, every operation finished, the links, and no component nothing refers to."""
from __future__ import annotations

import copy
from typing import Any

from .components import body_components
from .json_schema import REF
from .links import add_links
from .operations import SECURITY_SCHEME
from .paths import finish_operation
from .problems import PROBLEM_SCHEMA

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
                finish_operation(path, method, op)
    add_links(doc)
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
