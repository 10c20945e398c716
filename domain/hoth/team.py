"""Seats, turn order and decks for 2 players and team play (HOTH-SETUP-9, HOTH-TEAM-*)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.kernel import SetupError
from domain.kernel.messages import msg, named

from .cards import Card
from .scenario import FACTIONS
from .terms import side

#: HOTH-TEAM-4: cards dealt to each member of a 2-player team as a personal deck.
TEAM_PERSONAL_DECK = 8
#: HOTH-LEADER-1: the leaders of each faction.
LEADERS: dict[str, tuple[str, ...]] = {
    "imperial": ("vader", "veers", "piett"),
    "rebel": ("leia", "luke", "han"),
}
#: HOTH-LEADER-1: each leader's name as the rulebooks print it (the same in the Czech and Italian ones; the
#: catalogs, context ``name``, give the Ukrainian rulebook's and the Russian names).
LEADER_NAMES: dict[str, str] = {
    "vader": "Darth Vader", "veers": "Maximilian Veers", "piett": "Firmus Piett",
    "leia": "Leia Organa", "luke": "Luke Skywalker", "han": "Han Solo",
}


def other(faction: str) -> str:
    return "rebel" if faction == "imperial" else "imperial"


def team_factions(options: dict[str, Any]) -> tuple[str, ...]:
    """Factions played by a 2-player team: {"team": true} both (4 players), {"team": "rebel"} one (3 players)."""
    team = options.get("team", False)
    if team is False or team is None:
        return ()
    if team is True:
        return FACTIONS
    if team in FACTIONS:
        return (team,)
    raise SetupError("options.team", msg('team is true (4 players), "imperial" or "rebel" (3 players), or false'))


def seats_for(options: dict[str, Any]) -> tuple[str, ...]:
    teams = team_factions(options)
    seats = ["imperial", "rebel"]
    for f in teams:
        seats.append(f"{f}-2")
    return tuple(seats)


def faction_seats(seats: tuple[str, ...], faction: str) -> tuple[str, ...]:
    return tuple(s for s in seats if s == faction or s.startswith(faction + "-"))


def turn_order(first: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """HOTH-TURN-1, HOTH-TEAM-7, HOTH-TEAM-9."""
    a, b = faction_seats(seats, first), faction_seats(seats, other(first))
    n = max(len(a), len(b))
    out: list[str] = []
    for i in range(n):
        out.append(a[i % len(a)])
        out.append(b[i % len(b)])
    return tuple(out)


def leaders_option(options: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """{"leaders": {"imperial": "vader", "rebel": ["leia", "han"]}} -> per faction, one leader per seat."""
    raw = options.get("leaders") or {}
    if not isinstance(raw, dict):
        raise SetupError("options.leaders", msg("leaders maps a faction to a leader name (or one per team member)"))
    out: dict[str, tuple[str, ...]] = {}
    for f, v in raw.items():
        if f not in FACTIONS:
            raise SetupError("options.leaders", msg("unknown faction {faction}", faction=repr(f)))
        names = (v,) if isinstance(v, str) else tuple(v) if isinstance(v, (list, tuple)) else None
        if not names or not all(isinstance(n, str) and n in LEADERS[f] for n in names):
            raise SetupError("options.leaders", msg("leaders of {side} are {leaders} (HOTH-LEADER-1)", side=side(f),
                                                    leaders=[named(LEADER_NAMES[x], x) for x in LEADERS[f]]))
        if len(set(names)) != len(names):
            raise SetupError("options.leaders", msg("each leader's cards exist once (HOTH-TEAM-6)"))
        out[f] = names
    return out


def team_hand_size(hand_size: int) -> int:
    """HOTH-TEAM-5: half the scenario's hand size, rounded up."""
    return (hand_size + 1) // 2


def options_schema(support_cards: Mapping[str, Sequence[Card]]) -> dict[str, Any]:
    """The JSON schema of a Battle of Hoth game's ``options`` (``POST /games``; kernel protocol
    ``options_schema``). ``support_cards``: the support cards of each faction (content 3.1).

    ``description`` tells an API client what to send (``true``, ``"imperial"``); ``x-note`` says the same to a
    person in words, as a form that asks in words shows it (the lobby, web/js/lobby.js); ``x-items``
    names the leaders and support cards a person picks from, per faction: each one's ``id`` (what is sent), its
    printed ``name`` and a card's ``text`` (web/js/rulesets/hoth.js shows these, never the ids); the ``enum``
    beside it keeps the ids an API client sends (service/ruleset_listing.py says the names in each language)."""
    leader = {f: {"type": "string", "enum": list(LEADERS[f])} for f in FACTIONS}
    return {
        "type": "object",
        "additionalProperties": False,
        "description": "Battle of Hoth options; all optional.",
        "properties": {
            "team": {
                "title": "Team play",
                "description": "Team play (HOTH-TEAM-1): true for 4 players (seats imperial, imperial-2, rebel, "
                               "rebel-2), \"imperial\" or \"rebel\" for 3 players (that faction is a team of 2), "
                               "false (default) for 2 players.",
                "x-note": "Team play (HOTH-TEAM-1): no teams for 2 players (the default), both sides as teams of 2 "
                          "for 4 players, or only the Imperial or only the Rebel side as a team of 2 for 3 players.",
                "anyOf": [{"type": "boolean"}, {"type": "string", "enum": list(FACTIONS)}],
            },
            "leaders": {
                "title": "Leader cards",
                "description": "Leader cards by agreement (HOTH-LEADER-2): per faction one leader, whose 3 cards join "
                               "its deck; a team of 2 gives one leader per member (a list of 2, HOTH-TEAM-6).",
                "x-note": "Leader cards by agreement (HOTH-LEADER-2): each side may choose a leader, whose 3 cards join "
                          "its deck; a side played as a team of 2 may choose one leader for each player (HOTH-TEAM-6).",
                "type": "object",
                "additionalProperties": False,
                "properties": {f: {"anyOf": [leader[f], {"type": "array", "items": leader[f], "minItems": 1,
                                                         "maxItems": 2, "uniqueItems": True}]} for f in FACTIONS},
                "x-items": {f: [{"id": n, "name": LEADER_NAMES[n]} for n in LEADERS[f]] for f in FACTIONS},
            },
            "support": {
                "title": "Support cards",
                "description": "Support cards each faction holds at the start (campaign play, content 3.1): at most "
                               "one is played per turn beside the command card.",
                "x-note": "Support cards each side holds at the start (CAMPAIGN-4): a side may hold any number of its "
                          "own; at most one is played per turn, beside the command card.",
                "type": "object",
                "additionalProperties": False,
                "properties": {f: {"type": "array",
                                   "items": {"type": "string", "enum": [c.id for c in support_cards.get(f, ())]}}
                               for f in FACTIONS},
                "x-items": {f: [{"id": c.id, "name": c.title, "text": c.text} for c in support_cards.get(f, ())]
                        for f in FACTIONS},
            },
        },
    }
