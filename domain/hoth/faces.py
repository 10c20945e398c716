"""Faces follow from the dice (DESIGN 3, issue 10): the kernel's verifier asks the ruleset whether
the faces an event records are the faces of its recorded draws (``check_rolls``).

Every die of Battle of Hoth is the attack die of HOTH-DICE-3 (:data:`~domain.hoth.combat.DIE_FACES`,
one entry per side; a draw's ``value`` is the index of its face). The events that record faces:
``attack_rolled`` (the attack's faces), ``dice_rerolled`` (the faces after the re-roll) and
``bombarded`` (the faces, then the raw faces of the confirmation roll). Shuffles are checked by the
kernel alone (every index once and in order, every value from the seed)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel import Roll

from .combat import DIE_FACES
from .events import AttackRolled, Bombarded, DiceRerolled


def _faces(rolls: Sequence[Roll]) -> list[str] | None:
    if any(r.sides != len(DIE_FACES) or not 0 <= r.value < len(DIE_FACES) for r in rolls):
        return None
    return [DIE_FACES[r.value] for r in rolls]


def check_rolls(event: Any, rolls: Sequence[Roll]) -> str | None:
    """None when the faces ``event`` records are those of ``rolls``; else what does not fit."""
    dice = [r for r in rolls if r.stream == "dice"]
    if isinstance(event, AttackRolled):
        want = _faces(dice)
        if want is None or len(dice) != event.dice or (event.dice and list(event.attack.faces) != want):
            return (f"attack_rolled records faces {list(event.attack.faces)} for {event.dice} dice, its draws give "
                    f"{want} (HOTH-DICE-3)")
        return None
    if isinstance(event, DiceRerolled):
        want = _faces(dice)
        got = [event.faces[i] for i in event.indices if 0 <= i < len(event.faces)]
        if want is None or len(got) != len(event.indices) or got != want:
            return f"dice_rerolled records new faces {got}, its draws give {want} (HOTH-DICE-4)"
        return None
    if isinstance(event, Bombarded):
        want = _faces(dice)
        got = [*event.faces, *event.confirmation]
        if want is None or got != want:
            return f"bombarded records faces {got}, its draws give {want} (HOTH-DICE-3)"
        return None
    return None
