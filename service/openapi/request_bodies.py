"""The bodies of POST /games and POST /campaigns as far as they depend on the rulesets: each ruleset's
scenarios, options, bots and rule choices; ``start``, ``seating`` and ``keep`` (DESIGN 3, 4; UMPIRE-SEAT-1)."""
from __future__ import annotations

import copy
from typing import Any

from bots import infos
from domain.kernel.choices import declared

from .json_schema import REF

HEX64 = "^[0-9a-f]{64}$"


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


def create_game_variant(rs: Any, comps: dict[str, Any]) -> dict[str, Any]:
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
            "bots": bots_schema(rs),
            "choices": choices_schema(rs),
            "seating": SEATING,
            "keep": keep_schema(_ruleset_seats(rs)),
        },
        "allOf": [KEEP_ONLY_WITH_INVITATIONS, *no_bot_kept(_ruleset_seats(rs))],
    }


def choices_schema(rs: Any) -> dict[str, Any]:
    """``choices`` of POST /games: rule choice id -> one of its options (DESIGN 14, GET /rulesets ``choices``)."""
    return {"type": "object", "additionalProperties": False,
            "properties": {c.id: {"type": "string", "enum": list(c.option_ids()), "default": c.default,
                                  "description": c.question} for c in declared(rs)},
            "description": "Rule choices (DESIGN 14): `{\"<choice id>\": \"<option>\"}`; every choice left out takes "
                           "its default. The choices in force are written into the game's header."}


def bots_schema(rs: Any) -> dict[str, Any]:
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


def keep_schema(seats: list[str]) -> dict[str, Any]:
    """``keep``: seats of the ruleset (those of its scenarios), each once."""
    return {"anyOf": [{"type": "array", "items": {"type": "string", "enum": seats}, "uniqueItems": True},
                      {"type": "null"}],
            "description": "With `seating: invitations`: the seats whose tokens the caller keeps (none by default; "
                           "never a bot's seat, UMPIRE-SEAT-1)."}


def no_bot_kept(seats: list[str]) -> list[dict[str, Any]]:
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
