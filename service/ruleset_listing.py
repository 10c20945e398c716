"""What ``GET /rulesets`` lists for each ruleset, and its words in the reader's language (issue 28).

The listing is built in English from the rulesets (their titles, scenarios, campaigns, options schema,
bots and rule choices, DESIGN 14); :func:`localized` renders every text of it meant for people through the
catalogs, message context ``content`` (:data:`CONTENT`): the ruleset's, scenarios', campaigns' and bots'
titles, each rule choice's title, question, reason and readings (``words``, ``text``), the options' titles,
descriptions and notes for people (``x-note``) and the names of Clouds of Smoke's army-building catalogue. Ids, enums, defaults and a
choice's ``sources`` (the originals' sentences, quoted as they are) are data and never touched.

What an option offers by name (``x-items``, :data:`ITEMS`: Battle of Hoth's leaders and support cards) are printed
names and card texts: they are said as a game's view says them, through the catalogs' context ``name``
(:func:`service.i18n.term`, the entries a game's cards already have), and :func:`printed` lists them for the
catalogs beside the other printed names of a ruleset (``names/<ruleset>``), not among its ``content`` texts.

``seat_names``: every seat (and side) of the ruleset in words (domain/kernel/words.py ``seat_names``, messages of the
ruleset, docs/seat-names.md), which the page shows wherever it names a seat to a person.

``ops/i18n-extract`` finds these texts with :func:`texts` over the same English listing, so whatever a
ruleset's content says (Python or JSON) reaches the template without a marker in the data.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from bots import infos
from domain.kernel import SetupError, registry, words
from domain.kernel import choices as rule_choices
from domain.kernel.messages import text_of

from .i18n import CONTENT_CONTEXT, say, term, translations
from .language import DEFAULT

#: The message context of the rulesets' own texts (content) in the catalogs.
CONTENT = CONTENT_CONTEXT
#: An option's words for a person (a form's note) beside its ``description`` for API clients, when the
#: description speaks in field syntax (``true``, ``"imperial"``): domain/hoth/team.py ``options_schema``.
NOTE = "x-note"
#: An option's items a person picks from, by name (per faction or kind, a list of ``id``, ``name`` and maybe
#: ``text``): domain/hoth/team.py ``options_schema``.
ITEMS = "x-items"


def options_schema(rs: Any) -> dict[str, Any]:
    """The JSON schema of a ruleset's game options (kernel protocol ``options_schema``; none: no options)."""
    hook = getattr(rs, "options_schema", None)
    if callable(hook):
        return hook()
    return {"type": "object", "maxProperties": 0, "description": f"{rs.id} takes no options."}


def default_seats(rs: Any, scenario: str) -> list[str]:
    """The seats of a game of ``scenario`` with no options (what a client offers bots or invitations for)."""
    try:
        return list(rs.seats(scenario, {}))
    except SetupError:
        return []


def bot_infos(ruleset_id: str) -> list[dict[str, Any]]:
    """The built-in players of a ruleset (DESIGN 13): what POST /games ``bots`` may name."""
    return [{"id": b.id, "title": b.title, "levels": list(b.levels)} for b in infos(ruleset_id)]


def entry(rs: Any) -> dict[str, Any]:
    """One ruleset as ``GET /rulesets`` lists it, in English."""
    return {
        "id": rs.id,
        "title": getattr(rs, "title", rs.id),
        "scenarios": [{"id": c.id, "title": c.title, "seats": default_seats(rs, c.id)} for c in rs.scenarios()],
        "campaigns": [{"id": c.id, "title": c.title} for c in rs.campaigns()],
        "options": options_schema(rs),
        "bots": bot_infos(rs.id),
        "choices": [rule_choices.describe(c) for c in rule_choices.declared(rs)],
        "seat_names": {s: text_of(said) for s, said in words.seat_names(rs).items()},
    }


def listing() -> list[dict[str, Any]]:
    """Every hosted ruleset (:func:`entry`), in English."""
    return [entry(rs) for rs in registry.all_rulesets()]


def _each(items: Any) -> list[dict[str, Any]]:
    return [x for x in items if isinstance(x, dict)] if isinstance(items, list) else []


def _words(e: dict[str, Any], f: Callable[[str], str], name: Callable[[str], str] | None = None) -> None:
    """Apply ``f`` in place to every text of the entry ``e`` meant for people, and ``name`` to every printed name
    and card text an option offers (``x-items``); ``name`` None: those stay as they are."""
    def put(d: dict[str, Any], *keys: str, say: Callable[[str], str] = f) -> None:
        for k in keys:
            if isinstance(d.get(k), str) and d[k]:
                d[k] = say(d[k])

    put(e, "title")
    for x in _each(e.get("scenarios")) + _each(e.get("campaigns")) + _each(e.get("bots")):
        put(x, "title")
    for c in _each(e.get("choices")):
        put(c, "title", "question", "reason")
        for o in _each(c.get("options")):
            put(o, "words", "text")
    schema = e.get("options")
    if not isinstance(schema, dict):
        return
    put(schema, "description")
    for p in (schema.get("properties") or {}).values():
        if not isinstance(p, dict):
            continue
        put(p, "title", "description", NOTE)
        items = p.get(ITEMS)
        if name is not None and isinstance(items, dict):
            for x in (x for group in items.values() for x in _each(group)):
                put(x, "name", "text", say=name)
        army = p.get("x-army-building")  # Smoke's army-building catalogue (web/js/rulesets/smoke_army_builder.js)
        if isinstance(army, dict):
            for x in _each(army.get("factions")) + _each(army.get("preparations")):
                put(x, "name")
            for prof in (army.get("profiles") or {}).values():
                if isinstance(prof, dict):
                    put(prof, "name")
                    for fire in _each(prof.get("fire")):
                        put(fire, "name")


def _copy(e: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of an entry (JSON builtins only): msgspec's round trip, about twice as fast as ``deepcopy``."""
    return msgspec.json.decode(msgspec.json.encode(e))


def texts(e: dict[str, Any]) -> Iterator[str]:
    """Every text of an English entry that :func:`localized` renders (what the catalogs must hold)."""
    found: list[str] = []
    _words(_copy(e), lambda s: found.append(s) or s)
    yield from found


def printed(e: dict[str, Any]) -> Iterator[str]:
    """Every printed name and card text an English entry's options offer by name (``x-items``): what the catalogs
    hold in context ``name`` and :func:`localized` says through them."""
    found: list[str] = []
    _words(_copy(e), lambda s: s, lambda s: found.append(s) or s)
    yield from found


def localized(e: dict[str, Any], lang: str) -> dict[str, Any]:
    """The entry ``e`` with its texts in ``lang`` (a text the catalog lacks stays English)."""
    if lang == DEFAULT:
        return e
    tr = translations(lang)
    out = _copy(e)
    _words(out, lambda s: tr.pgettext(CONTENT, s), lambda s: term(s, lang))
    rs = registry.get(str(e.get("id")))
    if rs is not None and "seat_names" in out:  # the seats in words (docs/seat-names.md): messages of the ruleset
        out["seat_names"] = {s: say(said, lang) for s, said in words.seat_names(rs).items()}
    return out


__all__ = ["CONTENT", "ITEMS", "bot_infos", "default_seats", "entry", "listing", "localized", "options_schema", "printed",
           "texts"]
