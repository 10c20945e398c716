"""How a game of the Emperor solo mode ends, in words (SOLO-GAME-2): the reason its ``game_won`` event keeps.

The event keeps the reason as English text (``Akhena died``), as it always did; :func:`win_message` makes the
same sentence again as a message from the final state, so a view can say it in the reader's language (issue 28).
"""
from __future__ import annotations

from domain.kernel.messages import Message, msg

from .state import HERO, EmperorState


def hero_died(name: str) -> Message:
    """SOLO-GAME-2: the reason a game ends, ``Akhena died`` (``name``: the hero's printed name)."""
    return msg("{warrior} died", warrior=name)


def win_message(state: EmperorState) -> Message | None:
    """The message of a finished game's ``win_reason``: the dead hero's :func:`hero_died`, when its English text
    is the stored one (a game stored with other words keeps its words: None)."""
    if state.winner is None or not state.win_reason:
        return None
    said = (hero_died(w.name) for w in state.warriors.values() if w.kind == HERO and not w.alive)
    return next((m for m in said if m.english() == state.win_reason), None)


def reason_message(reason: str) -> "str | Message":
    """A ``game_won`` event's stored reason as a message when it is :func:`hero_died`'s English (``Akhena died``:
    the timeline says it in the reader's language without the final state); any other text as it is."""
    name = reason.removesuffix(" died")
    return hero_died(name) if name != reason and hero_died(name).english() == reason else reason


__all__ = ["hero_died", "reason_message", "win_message"]
