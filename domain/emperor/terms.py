"""The Emperor's game words that its events keep as enums (an order card's steps, the human's actions, what a
location's bonus is used for, a location's bonus symbols, a hazard as the cause of wounds), each as a message: a summary, a picture or a text board
names them in the reader's language (issue 28), the events keep the enum. An enum not listed is shown as it is."""
from __future__ import annotations

from domain.kernel.messages import Message, msg

#: The automaton's side as every sentence names it (its seat name, labels.py ``SEAT_NAMES``): a summary passes it as
#: its ``{emperor}``, so the timeline sees the side named and says it once (kernel words.py ``names_actor``).
THE_EMPEROR = msg("the Emperor")
#: The steps an order card prints (SOLO-ORDER), as the rulings name them.
ORDER_STEPS = {"MOVE": msg("MOVE"), "ACTIVATE": msg("ACTIVATE"), "REFRESH_CHECK": msg("REFRESH CHECK")}
#: The human's actions of a turn (BASE-TURN-1).
ACTIONS = {"MOVE": msg("MOVE"), "ACTIVATE": msg("ACTIVATE"), "REFRESH": msg("REFRESH")}
#: A location's bonus symbols (BASE-LOC-2), in words: the Ukrainian rulebook names them (бонуси атаки, поштовху...).
BONUS_SYMBOLS = {"MOVE": msg("MOVE"), "PUSH": msg("PUSH"), "ATTACK": msg("ATTACK"), "DEFENSE": msg("DEFENSE"),
                 "RANGE": msg("RANGE")}
#: What a location's bonus (or its ability) is used for (``LocationsFlipped.purpose``, BASE-LOC-3).
PURPOSES = {"attack": msg("attack"), "push": msg("push"), "defense": msg("defense"), "movement": msg("movement"),
            "location ability": msg("location ability")}


def word(words: dict[str, Message], value: str) -> "str | Message":
    """``value`` in words (its message in ``words``), or as it is when it has none."""
    return words.get(value, value)


def hazard_cause(hazard: str) -> str:
    """The cause a ``warrior_wounded`` event keeps for an active hazard entered (BASE-HAZ-2): ``hazard H1``."""
    return f"hazard {hazard}"


def cause_message(cause: str) -> "str | Message":
    """A ``warrior_wounded`` event's stored cause as a message (:func:`hazard_cause`'s ``hazard H1``); any other text
    as it is."""
    hazard = cause.removeprefix("hazard ")
    return msg("hazard {hazard}", hazard=hazard) if hazard != cause and hazard_cause(hazard) == cause else cause


__all__ = ["ACTIONS", "BONUS_SYMBOLS", "ORDER_STEPS", "PURPOSES", "cause_message", "hazard_cause", "word"]
