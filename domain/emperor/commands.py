"""Commands the human may send (JSON ``type`` tag). The Emperor sends none: it decides in the engine.

Cells are labels (``C4``); ``bonuses`` lists the location ids whose symbols the human uses (and
flips, BASE-LOC-3), in any order.
"""
from __future__ import annotations

from typing import Annotated

import msgspec

from domain.kernel import Command

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Ids = Annotated[tuple[Id, ...], msgspec.Meta(max_length=16)]


class Move(Command, tag="move"):
    """BASE-TURN-1 MOVE / BASE-MOVE-1: one of your warriors moves to ``to`` (each warrior once per MOVE
    action); ``bonuses``: locations whose MOVE symbols it uses."""

    warrior: Id
    to: Id
    bonuses: Ids = ()


class Activate(Command, tag="activate"):
    """BASE-TURN-1 ACTIVATE / BASE-CARD-1: activate a prepared card; its abilities follow in order."""

    card: Id


class Refresh(Command, tag="refresh"):
    """BASE-TURN-1 REFRESH / BASE-REF-1: every exhausted card of yours becomes prepared."""


class EndTurn(Command, tag="end_turn"):
    """End your turn (BASE-TURN-1: up to two different actions); the Emperor takes its turn."""


class Attack(Command, tag="attack"):
    """The current ATTACK / HELPER_ATTACK ability: ``target`` (none for AREA: every enemy within 2)."""

    target: Id | None = None
    bonuses: Ids = ()


class Push(Command, tag="push"):
    """The current PUSH ability: the target and its path (BASE-PUSH-1: 1..value single steps)."""

    target: Id
    path: Annotated[tuple[Id, ...], msgspec.Meta(min_length=1, max_length=16)]
    bonuses: Ids = ()


class March(Command, tag="march"):
    """The current MARCH ability: your hero moves to ``to``."""

    to: Id
    bonuses: Ids = ()


class Star(Command, tag="star"):
    """The current STAR: one of your hero's star abilities (by name) or an available location ability
    (by location id), each once per turn (BASE-STAR-1)."""

    choice: Id


class Swap(Command, tag="swap"):
    """SOLO-FAQ-4: swap places with the warrior your last attack hit (optional: skip it otherwise)."""


class Skip(Command, tag="skip"):
    """Do not use the current ability (PROPOSED, GAP-A-24: abilities are optional)."""


class Defend(Command, tag="defend"):
    """BASE-DEF-1: your hero is attacked; activate one prepared card for its defense (or none) and use
    DEFENSE bonuses."""

    card: Id | None = None
    bonuses: Ids = ()


EmperorCommand = Move | Activate | Refresh | EndTurn | Attack | Push | March | Star | Swap | Skip | Defend
