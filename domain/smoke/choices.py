"""Clouds of Smoke's rule choices (DESIGN 14; the questions, options and quotes: rules.md, "Rule choices").

Read from the state (``SmokeState.choices``, filled in by ``initial_state`` through
:func:`domain.kernel.choices.in_force`), so a game stored before the choices existed folds under the readings
the engine applied then (each choice's ``recorded`` option).
"""
from __future__ import annotations

from typing import Any

from domain.kernel.choices import ChoiceOption, RuleChoice, cite as cite_choice, in_force, option_of
from domain.kernel.messages import Message
from domain.kernel.decider import Setup

from .state import SmokeState

VILLAGE = "SMOKE-CHOICE-VILLAGE"
BOMB_PRICE = "SMOKE-CHOICE-BOMB-PRICE"
FAILED_PRICE = "SMOKE-CHOICE-FAILED-PRICE"
VIEW_INSIDE = "SMOKE-CHOICE-VIEW-INSIDE"
RETREAT_CONTACT = "SMOKE-CHOICE-RETREAT-CONTACT"
GENERAL_PASS = "SMOKE-CHOICE-GENERAL-PASS"
BOMBARD = "SMOKE-CHOICE-BOMBARD"
IRREGULAR = "SMOKE-CHOICE-IRREGULAR"
COMPLEX_PATH = "SMOKE-CHOICE-COMPLEX-PATH"

RU = "seeds/003_39ff30315f4a2a70.txt (RU)"

CHOICES: tuple[RuleChoice, ...] = (
    RuleChoice(
        id=VILLAGE,
        title="Village discipline bonus",
        question="Infantry (and Garrison troops) get +1 to discipline tests in a village: must the unit stand "
                 "entirely inside the village, or is partly inside enough?",
        options=(
            ChoiceOption(id="entirely", words="entirely inside", text="Only a unit standing entirely inside a village gets the bonus.",
                         sources=(f"{RU}: «Отряды пехоты, полностью находящиеся в деревне, получают +1 к броскам на "
                                  "дисциплину»",)),
            ChoiceOption(id="partly", words="partly inside is enough", text="A unit at least partly inside a village gets the bonus.",
                         sources=(f"{RU}: «Пехота: +1 к броскам дисциплины, когда находится в деревне»",
                                  f"{RU}: «Гарнизонные войска: Когда этот отряд находится в деревне, … дополнительно "
                                  "+1 к тестам на дисциплину»")),
        ),
        default="entirely",
        reason="The terrain rule says it outright («полностью находящиеся в деревне»); the trait's «находится в "
               "деревне» does not say how much (GAP-B-23).",
        recorded="entirely",
    ),
    RuleChoice(
        id=BOMB_PRICE,
        title="Bombardment retreats and the battle price",
        question="Does a unit that retreats from a bombardment raise the price of the battle marker nearest to it?",
        options=(
            ChoiceOption(id="no", words="raise no price", text="No: only retreats in a battle raise a marker's price (SMOKE-BOMB-8).",
                         sources=(f"{RU}: the price rule stands in the battle section: «За каждый отступивший отряд, "
                                  "цена ближайшего к нему маркера сражения вырастет на 1» (a unit retreating from "
                                  "the battle's hits)",)),
            ChoiceOption(id="yes", words="raise the price", text="Yes: every retreating unit raises the price of the marker nearest to it, "
                                        "also after a bombardment (when a marker is on the table).",
                         sources=(f"{RU}: «За каждый отступивший отряд, цена ближайшего к нему маркера сражения "
                                  "вырастет на 1» (every retreating unit)",)),
        ),
        default="no",
        reason="The sentence stands among the rules of a battle and a bombardment is no battle (GAP-B-12).",
        recorded="no",
    ),
    RuleChoice(
        id=FAILED_PRICE,
        title="Failed retreats and the battle price",
        question="Does a unit whose retreat fails (it is destroyed) still raise the price of the nearest battle "
                 "marker?",
        options=(
            ChoiceOption(id="no", words="raise no price", text="No: a unit destroyed by its failed retreat raises no price; its loss costs "
                                       "its Morale instead (SMOKE-FRET-1).",
                         sources=(f"{RU}: «За каждый отступивший отряд …» (a unit destroyed instead of retreating "
                                  "has not retreated)",)),
            ChoiceOption(id="yes", words="raise the price", text="Yes: it retreated before it was destroyed, so the nearest marker's price "
                                        "rises by 1 too.",
                         sources=(f"{RU}: «За каждый отступивший отряд, цена ближайшего к нему маркера сражения "
                                  "вырастет на 1»",)),
        ),
        default="no",
        reason="A failed retreat ends in the unit's destruction, which the rules price on their own (its Morale); "
               "the engine has read it so since the start.",
        recorded="no",
    ),
    RuleChoice(
        id=VIEW_INSIDE,
        title="A target inside a view-blocking element",
        question="A view-blocking element (a wood, a village) breaks lines of fire that start outside it and go "
                 "through it. Is a unit standing inside the element seen from outside, or does a line that enters "
                 "the element break there?",
        options=(
            ChoiceOption(id="through", words="seen: the line must pass through",
                         text="Only a line that enters the element and leaves it again (passes through) is broken; "
                              "a unit inside or at its edge is seen from outside (SMOKE-GEO-12b).",
                         sources=(f"{RU}: «Прерывает линии огня, которые начинаются снаружи и идут сквозь элемент» "
                                  "(through the element: in one side and out of the other)",)),
            ChoiceOption(id="enter", words="hidden: entering breaks the line",
                         text="Any line from outside that enters the element is broken, so a unit inside is not "
                              "seen from outside it.",
                         sources=(f"{RU}: «Эти линии не должны проходить через отряды или блокирующий ландшафт» "
                                  "(a line to a unit inside runs through blocking terrain)",
                                  f"{RU}: «…которые начинаются снаружи и идут сквозь элемент» (a line from outside "
                                  "that goes into the element)")),
        ),
        default="through",
        reason="«сквозь» is through, and a line that ends inside the element does not go through it (GAP-B-08); the "
               "engine has read it so from the start. Replaces the option blocks_view_strict (true = enter).",
        recorded="through",
    ),
    RuleChoice(
        id=RETREAT_CONTACT,
        title="A retreat that starts in contact",
        question="A retreating unit that touches an enemy unit is destroyed. A unit that starts its retreat in "
                 "contact with an enemy and slides along it (its path keeps the contact for a while): is it "
                 "destroyed?",
        options=(
            ChoiceOption(id="destroyed", words="sliding along touches: destroyed",
                         text="Keeping the contact while it moves is touching the enemy during the retreat: it is "
                              "destroyed; only a unit that moves away at once survives (SMOKE-GEO-18).",
                         sources=(f"{RU}: «Если при отступлении ваш отряд касается вражеского отряда или края стола, "
                                  "он уничтожен» (it touches the enemy while it retreats)",)),
            ChoiceOption(id="slides", words="sliding along is allowed",
                         text="Contact it already had is no new touch: it may slide along the enemy; only pressing "
                              "into it, or touching another enemy, destroys it.",
                         sources=(f"{RU}: «касается вражеского отряда» (comes to touch: a unit already in contact "
                                  "does not come to touch it)",
                                  f"{RU}: «Вы можете отменить по одному удару на каждый ваш отряд, отступив» (a unit "
                                  "in contact may retreat to cancel a hit)")),
        ),
        default="destroyed",
        reason="The literal reading: the unit touches the enemy during its retreat; the engine has read it so from "
               "the start (SMOKE-GEO-18).",
        recorded="destroyed",
    ),
    RuleChoice(
        id=GENERAL_PASS,
        title="An enemy passing over a commander",
        question="An enemy unit that stops on a commander, or touches it, puts it at risk. Does an enemy unit that "
                 "passes over a commander on its move without stopping there put it at risk?",
        options=(
            ChoiceOption(id="stop", words="only stopping on it: no risk",
                         text="Only an enemy unit that ends its move on or touching the commander puts it at risk "
                              "(SMOKE-CMD-4).",
                         sources=(f"{RU}: «Если вражеский отряд останавливается на полководце, полководец "
                                  "подвергается риску (см. РИСК) и смещается в сторону своего края стола»",)),
            ChoiceOption(id="touch", words="passing over: at risk",
                         text="An enemy unit whose move sweeps over the commander's figure touches it: the "
                              "commander is at risk and displaced, as if the unit had stopped there (SMOKE-RISK-3).",
                         sources=(f"{RU}: «полководец подвергается риску, когда его фигурки касаются вражеские "
                                  "отряды»",)),
        ),
        default="stop",
        reason="The movement rules name the case outright («останавливается на полководце»); the risk rule's "
               "«касаются» describes contact that lasts, and the engine has read it so from the start.",
        recorded="stop",
    ),
    RuleChoice(
        id=BOMBARD,
        title="Declining to bombard",
        question="In the bombardment phase, may each artillery unit that could bombard a target decline to, or "
                 "does every one of them bombard?",
        options=(
            ChoiceOption(id="may", words="each gun may decline",
                         text="Bombarding is optional for each unit: the player aims the guns it wants and rolls "
                              "(or skips the bombardment).",
                         sources=(f"{RU}: «этот отряд может производить бомбардировку на дистанции 6 UW»",
                                  f"{RU}: «За каждый свой отряд, производящий бомбардировку, добавьте …» (the units "
                                  "that bombard, not every unit)")),
            ChoiceOption(id="must", words="every gun with a target bombards",
                         text="Every unit that can bombard a target aims at one before the bombardment is rolled.",
                         sources=(f"{RU}: «Выберите целевую формацию для каждого своего отряда артиллерии»",)),
        ),
        default="may",
        reason="«может производить бомбардировку» makes it an ability, and the dice come from the units that "
               "bombard; the engine has read it so from the start (SMOKE-BOMB-2, INFERRED).",
        recorded="may",
    ),
    RuleChoice(
        id=IRREGULAR,
        title="An Irregular unit's failed retreat",
        question="The army loses no morale when an Irregular unit makes a failed retreat. Does that cover the unit's "
                 "destruction (a retreat that touched an enemy or the table edge), or only the -1 for landing on "
                 "friends of another formation?",
        options=(
            ChoiceOption(id="all", words="no morale lost at all",
                         text="No morale is lost for an Irregular unit's failed retreat, its destruction included "
                              "(SMOKE-FRET-4, GAP-B-13).",
                         sources=(f"{RU}: «Иррегулярные: … Армия не теряет боевой дух, когда иррегулярные отряды "
                                  "делают неудачное отступление» (the failed retreat, of which destruction is one "
                                  "outcome: «Если при отступлении ваш отряд касается вражеского отряда … он "
                                  "уничтожен»)",)),
            ChoiceOption(id="landing", words="only the landing loss is waived",
                         text="Only the -1 for landing on friends is waived; an Irregular unit destroyed by its "
                              "retreat costs its morale like any destroyed unit (SMOKE-DISC-3).",
                         sources=(f"{RU}: «Если при отступлении ваш строевой отряд должен встать на место, уже "
                                  "занятое союзным отрядом из другой формации, ваша армия теряет 1 боевой дух» (the "
                                  "only morale a failed retreat itself costs)",)),
        ),
        default="all",
        reason="The trait speaks of the whole failed retreat, and the section «Неудачное отступление» holds both the "
               "destruction and the landing; the engine has read it so from the start (GAP-B-13).",
        recorded="all",
    ),
    RuleChoice(
        id=COMPLEX_PATH,
        title="The path of a complex move",
        question="A complex move «двигается в любую сторону» (goes any way), then may pivot: one straight "
                 "translation, or any path whose length is within the complex speed?",
        options=(
            ChoiceOption(id="straight", words="one straight vector",
                         text="The unit translates along one straight vector keeping its facing, then may pivot "
                              "(SMOKE-GEO-17, GAP-B-15).",
                         sources=(f"{RU}: «Когда отряд делает сложное движение, он двигается в любую сторону и в конце "
                                  "движения может повернуться вокруг центра» (in any direction: one direction)",)),
            ChoiceOption(id="path", words="any path within its length",
                         text="The unit may change direction on the way (the `via` points of `move`): the sum of "
                              "the legs is within the complex speed, no leg passes through an enemy, terrain caps "
                              "apply to every leg; then it may pivot.",
                         sources=(f"{RU}: «он двигается в любую сторону» (it moves any way it likes)",
                                  f"{RU}: «Отряды могут свободно проходить через союзные отряды» (a path around "
                                  "friends)")),
        ),
        default="straight",
        reason="The simple move says «идет по прямой» and the complex one names no path; one direction is the "
               "narrower reading, and the engine has read it so from the start (GAP-B-15).",
        recorded="straight",
    ),
)

def choices_of(setup: Setup) -> dict[str, str]:
    """The choices a game is decided under: its setup's, and for a game stored before SMOKE-CHOICE-VIEW-INSIDE
    existed that was created with the option it replaced (``blocks_view_strict``), that option's reading."""
    got = in_force(CHOICES, setup.choices)
    if VIEW_INSIDE not in setup.choices and setup.options.get("blocks_view_strict") is True:
        got[VIEW_INSIDE] = "enter"
    return got


def choice(state: SmokeState, choice_id: str) -> str:
    """The option of ``choice_id`` in force in this game."""
    return option_of(CHOICES, state.choices, choice_id)


def cite(rb: Any, choice_id: str, option: str, text: "str | Message", **values: Any) -> Any:
    """The ruling step of ``rb`` saying the decision followed ``option`` of ``choice_id`` (in words, ids beside)."""
    return cite_choice(rb, CHOICES, choice_id, option, text, **values)
