"""Where an ability comes from, in words (issue 28: no raw field syntax reaches a player).

A step of an activation, an attack waiting for the human's defence and many events keep the source of their
ability as a string (``source``), written once and never rewritten (the log is data):

* ``RB1 Brawl``: the Emperor's action card, by id and printed name (automaton/turn.py);
* ``RB1 Brawl (defense card)``: the card the Emperor activated to defend (SOLO-DEF-1, automaton/turn.py);
* ``star: Jab``, ``star: L3``: a star the Emperor spent on a hero's star ability or on a location's ability
  (SOLO-STAR, automaton/stars.py);
* ``fallback Gale``: the Emperor's fallback ability (SOLO-FALL, automaton/fallback.py);
* ``base move``: the order card's MOVE step (SOLO-ORD, automaton/turn.py);
* ``AK1``, ``Jab``, ``L3``: the human's action card, its hero's star ability or a location whose ability it
  took for a star (BASE-CARD-1, BASE-STAR-1: human.py, evolve.py).

:func:`source_said` reads that string back into a message made of its parts (the card by its printed name
and id, the star ability or fallback by its printed name, the location by its id), so every reader gets it
in their language; the printed names go through the catalog's ``name`` context like every printed word. A
string of none of these forms (a game stored with other words) is given back as it is.
"""
from __future__ import annotations

import re

from domain.kernel.messages import Message, msg, named

from .state import EmperorState

#: A card, location or hazard id as the content writes them (``RB1``, ``AK5``, ``L3``, ``H1``).
_ID = re.compile(r"[A-Z]{1,3}[0-9]+")
_CARD = re.compile(r"(?P<id>[A-Z]{1,3}[0-9]+) (?P<name>.+?)(?P<defense> \(defense card\))?")
_STAR = "star: "
_FALLBACK = "fallback "
_BASE_MOVE = "base move"


def source_said(source: str, state: EmperorState | None = None) -> Message | str:
    """The stored ``source`` of an ability in words (the module's doc lists its forms). ``state`` (when known)
    tells a bare id's kind (the human's card or a location) and gives its printed name; without it a bare id
    stays an id (the timeline puts the printed name beside it)."""
    if not source:
        return source
    if source == _BASE_MOVE:
        return msg("base move")
    if source.startswith(_STAR):
        return _star(source[len(_STAR):], state)
    if source.startswith(_FALLBACK):
        return msg("fallback {name}", name=source[len(_FALLBACK):])
    m = _CARD.fullmatch(source)
    if m:
        card = named(m["name"], m["id"])
        return msg("card {card}, activated to defend", card=card) if m["defense"] else msg("card {card}", card=card)
    if _ID.fullmatch(source):
        return _bare_id(source, state)
    if state is not None and not any(x.name == source for h in state.heroes.values() for x in h.stars):
        return source
    return _star(source, state)  # the human's hero star ability, by its printed name


def _star(choice: str, state: EmperorState | None) -> Message | str:
    if _ID.fullmatch(choice):
        return msg("ability of location {location}", location=_location(choice, state))
    return msg("star ability {ability_name}", ability_name=choice)


def _bare_id(source: str, state: EmperorState | None) -> Message | str:
    if state is None:
        return source
    for h in state.heroes.values():
        for c in h.cards:
            if c.id == source:
                return msg("card {card}", card=named(c.name, c.id))
    if state.battlefield is not None and any(lo.id == source for lo in state.battlefield.locations):
        return msg("ability of location {location}", location=_location(source, state))
    return source


def _location(loc_id: str, state: EmperorState | None) -> dict[str, str] | str:
    bf = state.battlefield if state is not None else None
    lo = next((x for x in bf.locations if x.id == loc_id), None) if bf is not None else None
    return named(lo.name, lo.id) if lo is not None else loc_id


__all__ = ["source_said"]
