"""Battle of Hoth's game words as messages (issue 28, docs/languages.md): the sides, the steps of a
turn, the decisions a seat may owe and the terrain, for the sentences that name them. A side is its
name as the rulebooks print it (``the Rebels``, ``the Empire``: docs/seat-names.md), in every language;
the other words' English text is the word the engine has always written (``move``, ``rocks``), and in
another language the catalog gives the rulebook's term. An unknown word is passed on as it is.
"""
from __future__ import annotations

from typing import Any

from domain.kernel.messages import Message, msg

from .board import HALF_HEXES, coords

#: The seats and factions in words (HOTH-GLOSS-1; kernel words.py ``seat_names``, docs/seat-names.md): the sides as
#: the rulebooks print them (the Rebels and the Empire: Ukrainian Повстанці and Імперія, Czech Povstalci and
#: Impérium, Italian Ribelli and Impero); a team game's second player of a side (HOTH-TEAM-7) is named by the side.
#: A sentence takes a side as a label or after a preposition (``the Rebels: 2 cards drawn``, ``a unit of the
#: Empire``), never as a verb's subject: the English names differ in number.
SEAT_NAMES: "dict[str, Message]" = {
    "rebel": msg("the Rebels"), "imperial": msg("the Empire"),
    "rebel-2": msg("the Rebels' second player"), "imperial-2": msg("the Empire's second player"),
}
#: The steps of a turn (HOTH-TURN-2).
_PHASES = {"play": msg("play"), "order": msg("order"), "move": msg("move"), "attack": msg("attack")}
#: The decisions a seat may owe (``pending.kind``).
_DECISIONS = {"reroll": msg("reroll"), "trench": msg("trench"), "retreat": msg("retreat"),
              "breakthrough": msg("breakthrough"), "breakthrough_attack": msg("breakthrough attack"),
              "discard": msg("discard"), "arrange": msg("arrange"), "place": msg("place"), "support": msg("support")}
#: The faces of the attack die (HOTH-DICE-3).
_FACES = {"infantry": msg("infantry"), "vehicle": msg("vehicle"), "explosion": msg("explosion"),
          "retreat": msg("retreat"), "miss": msg("miss")}
#: The badges of a unit (HOTH-SPECIAL-*; the E-Web's token Set or Moved, HOTH-SPECIAL-EWEB-7).
_BADGES = {"elite_squadron": msg("elite squadron"), "assault": msg("assault troops"), "eweb": msg("E-Web"),
           "eweb_set": msg("E-Web (Set)"), "eweb_moved": msg("E-Web (Moved)"), "scouts": msg("scouts"),
           "elite_troops": msg("elite troops")}
#: Terrain (section 10); a structure is named by its printed name (``names``, context ``name``).
_TERRAIN = {"ridge": msg("ridge"), "rocks": msg("rocks"), "serac": msg("serac"), "buildings": msg("buildings"),
            "trench": msg("trench"), "crevasse": msg("crevasse")}


def side(seat: Any) -> "Message | Any":
    """A seat or faction (``imperial``, ``rebel-2``) by its name (``the Empire``)."""
    return SEAT_NAMES.get(seat, seat) if isinstance(seat, str) else seat


def sides(seats: Any) -> list[Any]:
    return [side(s) for s in seats]


def phase(name: str) -> "Message | str":
    return _PHASES.get(name, name)


def decision(kind: str) -> "Message | str":
    """A decision owed (``pending.kind``); English: the kind with spaces (``breakthrough attack``)."""
    return _DECISIONS.get(kind, kind.replace("_", " "))


def terrain(kind: Any) -> "Message | Any":
    """A terrain kind (``rocks``); English as it reads with spaces."""
    return _TERRAIN.get(kind, kind.replace("_", " ")) if isinstance(kind, str) else kind


def badge(kind: str) -> "Message | str":
    """A unit's badge (``elite_squadron``); an unknown one with spaces."""
    return _BADGES.get(kind, kind.replace("_", " "))


def faces(rolled: Any) -> list[Any]:
    """Faces of the attack die (``infantry``, ``miss``), written ``a, b, c`` as a list parameter."""
    return [_FACES.get(f, f) for f in rolled]


def hex_text(h: Any, with_id: bool = True) -> "Message | str":
    """A hex as sentences name it (HOTH-COORD-3): ``c4 r2 [8,2]`` (``with_id``, as ``board.label``) or
    ``c4 r2``; a half-hex says so (``half-hex c-1 r1 [-1,1]``)."""
    h = (h[0], h[1])
    text = coords(h, with_id)
    return msg("half-hex {hex}", hex=text) if h in HALF_HEXES else text


def signed(n: int) -> str:
    """A change with its sign: ``+2``, ``-1``."""
    return format(n, "+d")


def path_text(path: Any, with_id: bool = True) -> "Message | str":
    """Hexes one after another, ``c4 r2 [8,2] -> c4 r3 [8,3]`` (``with_id``, or ``c4 r2 -> c4 r3``)."""
    steps = [hex_text(h, with_id) for h in path]
    joined = steps[0] if steps else ""
    for h in steps[1:]:
        joined = msg("{a} -> {b}", a=joined, b=h)
    return joined


__all__ = ["SEAT_NAMES", "badge", "decision", "faces", "hex_text", "path_text", "signed", "phase", "side", "sides", "terrain"]
