"""Clouds of Smoke's rule choices (DESIGN 14; the questions, options and quotes: rules.md, "Rule choices").

Read from the state (``SmokeState.choices``, filled in by ``initial_state`` through
:func:`domain.kernel.choices.in_force`), so a game stored before the choices existed folds under the readings
the engine applied then (each choice's ``recorded`` option).
"""
from __future__ import annotations

from domain.kernel.choices import ChoiceOption, RuleChoice

from .state import SmokeState

VILLAGE = "SMOKE-CHOICE-VILLAGE"

RU = "seeds/003_39ff30315f4a2a70.txt (RU)"

CHOICES: tuple[RuleChoice, ...] = (
    RuleChoice(
        id=VILLAGE,
        question="Infantry (and Garrison troops) get +1 to discipline tests in a village: must the unit stand "
                 "entirely inside the village, or is partly inside enough?",
        options=(
            ChoiceOption(id="entirely", text="Only a unit standing entirely inside a village gets the bonus.",
                         sources=(f"{RU}: «Отряды пехоты, полностью находящиеся в деревне, получают +1 к броскам на "
                                  "дисциплину»",)),
            ChoiceOption(id="partly", text="A unit at least partly inside a village gets the bonus.",
                         sources=(f"{RU}: «Пехота: +1 к броскам дисциплины, когда находится в деревне»",
                                  f"{RU}: «Гарнизонные войска: Когда этот отряд находится в деревне, … дополнительно "
                                  "+1 к тестам на дисциплину»")),
        ),
        default="entirely",
        reason="The terrain rule says it outright («полностью находящиеся в деревне»); the trait's «находится в "
               "деревне» does not say how much (GAP-B-23).",
        recorded="entirely",
    ),
)

_BY_ID = {c.id: c for c in CHOICES}


def choice(state: SmokeState, choice_id: str) -> str:
    """The option of ``choice_id`` in force in this game."""
    got = state.choices.get(choice_id)
    if got is not None:
        return got
    c = _BY_ID[choice_id]
    return c.recorded or c.default
