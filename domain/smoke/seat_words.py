"""A seat of Clouds of Smoke in words (docs/seat-names.md): ``player-2`` is ``Player 2`` (Russian: Игрок 2, the
rulebook numbers its players). Every sentence the ruleset writes for people (a summary, a ruling, a refusal, the
picture's titles, the headline) names a seat so, never by its id; the id stays in the data (events, API fields,
``data-`` attributes).

A name is a message made once per seat and kept (a cached call); a ruling built while deciding writes its English
then, so a sentence that names a seat costs that nested message's English too (about a microsecond)."""
from __future__ import annotations

from functools import lru_cache

from domain.kernel.messages import Message, msg


@lru_cache(maxsize=64)
def seat_words(seat: "str | None") -> "Message | str | None":
    """``player-N`` as ``Player N`` (a message, said in the reader's language); a value that is no seat (a
    command's wrong seat, ``*``, None) as it is."""
    if seat is None:
        return None
    head, _, n = seat.rpartition("-")
    return msg("Player {n}", n=int(n)) if head == "player" and n.isdigit() else seat


__all__ = ["seat_words"]
