"""Clouds of Smoke's terrain kinds and table edges as words (SMOKE-TERR, SMOKE-DEP-5): messages, so rulings, labels and the board picture write
a kind in the reader's language the same way."""
from __future__ import annotations

from domain.kernel.messages import Message, msg

#: Terrain kinds as words (SMOKE-TERR); a kind not listed is written as its id.
TERRAIN_WORDS = {"stream": msg("stream"), "ravine": msg("ravine"), "swamp": msg("swamp"), "village": msg("village"),
                 "hill": msg("hill"), "overgrown_hill": msg("overgrown hill"), "dune": msg("dune"),
                 "rock": msg("rock"), "forest": msg("forest"), "grove": msg("grove"), "vineyard": msg("vineyard"),
                 "bocage": msg("bocage"), "ploughed_field": msg("ploughed field"),
                 "fortification": msg("fortification"), "road": msg("road")}


def terrain_word(kind: str) -> "str | Message":
    return TERRAIN_WORDS.get(kind, kind.replace("_", " "))


#: The table's edges as words (SMOKE-DEP-5); an edge not listed is written as it is.
EDGE_WORDS = {"north": msg("north"), "south": msg("south"), "east": msg("east"), "west": msg("west")}


def edge_word(edge: str) -> "str | Message":
    return EDGE_WORDS.get(edge, edge)


__all__ = ["EDGE_WORDS", "TERRAIN_WORDS", "edge_word", "terrain_word"]
