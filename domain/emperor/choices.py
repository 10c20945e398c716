"""The Emperor solo mode's rule choices (DESIGN 14; the questions, options and quotes: rules.md, "Rule choices").

Read from the state (``EmperorState.choices``, filled in by ``initial_state`` through
:func:`domain.kernel.choices.in_force`), so a game stored before the choices existed folds under the readings
the engine applied then (each choice's ``recorded`` option).
"""
from __future__ import annotations

from typing import Any

from domain.kernel.choices import ChoiceOption, RuleChoice, cite as cite_choice, option_of

from .state import EmperorState

UNDEFENDED = "SOLO-CHOICE-UNDEFENDED"
PUSH_BONUS = "SOLO-CHOICE-PUSH-BONUS"
STEP4 = "SOLO-CHOICE-STEP4"
DEFENSE_CARD = "SOLO-CHOICE-DEFENSE-CARD"

UA = "seeds/002_d17d5f630c4fe478.txt (UA)"

CHOICES: tuple[RuleChoice, ...] = (
    RuleChoice(
        id=UNDEFENDED,
        title="The undefended hero's locations",
        question="The Emperor's hero defends only with a prepared action card. Attacked without one, does it still "
                 "use (and flip) the DEFENSE bonuses of the locations next to it?",
        options=(
            ChoiceOption(id="locations", words="it still uses its locations", text="Yes: its defense is 0 plus the DEFENSE bonuses of the locations "
                                              "available to it, which it uses and flips (SOLO-DEF-4).",
                         sources=(f"{UA}: «Імператор захищається і зазнає поранень за правилами базової гри, але з "
                                  "такими змінами» (the base game's location bonuses stay)",)),
            ChoiceOption(id="none", words="it uses none", text="No: it does not defend at all; defense 0, no location is used or flipped.",
                         sources=(f"{UA}: «Герой Імператора захищається, якщо в нього є щонайменше одна "
                                  "підготовлена карта дії»; «Також до оборони додають бонуси властивостей локацій» "
                                  "(the bonuses are part of defending)",)),
        ),
        default="locations",
        reason="The solo rules change the base game only where they say so, and they take away the card, the deck "
               "advance and the order modifier, not the locations (GAP-A-15).",
        recorded="locations",
    ),
    RuleChoice(
        id=PUSH_BONUS,
        title="The Emperor's push bonuses",
        question="Before pushing, the Emperor adds the push bonuses available on the battlefield: only those of "
                 "the locations next to the pushing warrior, or every face-up push bonus on the battlefield?",
        options=(
            ChoiceOption(id="adjacent", words="adjacent locations only", text="Only the locations available to the pusher under the base game "
                                             "(orthogonally next to it, BASE-LOC-2); those are flipped.",
                         sources=(f"{UA}: «додає будь-які доступні бонуси поштовху» (available, as the base game "
                                  "makes a location available)",)),
            ChoiceOption(id="anywhere", words="anywhere on the battlefield", text="Every face-up location with a push bonus, wherever it is on the "
                                             "battlefield; all of them are flipped.",
                         sources=(f"{UA}: «будь-які доступні бонуси поштовху на полі битви й перевертає відповідні "
                                  "карти локацій»",)),
        ),
        default="adjacent",
        reason="«доступні» (available) is the base game's word for a location next to the warrior; «на полі битви» "
               "says where the locations lie (SOLO-PUSH-1, PROPOSED BASE-LOC-2).",
        recorded="adjacent",
    ),
    RuleChoice(
        id=STEP4,
        title="Movement step 4",
        question="Movement step 4 (no reachable possible direction): the warrior moves to the nearest cell; when "
                 "several are nearest, \"first choose the preferred direction\". Is that the preferred cell among "
                 "the nearest ones, or the preferred target direction first, and then the cell nearest to it?",
        options=(
            ChoiceOption(id="nearest", words="the preferred cell among the nearest", text="D(c) is the distance to the nearest possible direction; among the "
                                            "nearest cells the preferred one (most location bonuses) wins, then the "
                                            "compass (SOLO-MOVE-8, reading A).",
                         sources=(f"{UA}: «він переміщується у найближчу комірку в можливому напрямку переміщення. "
                                  "Якщо таких комірок кілька, спершу виберіть бажаний напрямок»",)),
            ChoiceOption(id="preferred", words="the preferred direction first", text="The preferred possible direction is chosen first (most location "
                                              "bonuses, then the compass); the warrior moves to the reachable cell "
                                              "nearest to it (reading B).",
                         sources=(f"{UA}: «спершу виберіть бажаний напрямок» (a direction, not a cell)",)),
        ),
        default="nearest",
        reason="«Якщо таких комірок кілька» — the choice is among the nearest cells, so the preferred one is a cell "
               "of them (GAP-A-08).",
        recorded="nearest",
    ),
    RuleChoice(
        id=DEFENSE_CARD,
        title="The Emperor's defense card",
        question="The Emperor's hero defends by choosing an action card and activating it for its defense value. "
                 "Do the card's other abilities (attack, push, march, star) resolve too, or only its defense value?",
        options=(
            ChoiceOption(id="value", words="its defense value only",
                         text="The card gives its defense value and is exhausted; its abilities are not resolved "
                              "(SOLO-DEF-2b, GAP-A-16).",
                         sources=(f"{UA}: «Тоді він вибирає карту дії, активує її та отримує значення оборони цієї "
                                  "карти» (activated to get its defense value)",
                                  f"{UA}: «Імператор захищається і зазнає поранень за правилами базової гри» (in the "
                                  "base game a defense card gives its defense value)")),
            ChoiceOption(id="abilities", words="its abilities resolve too",
                         text="Once the attack is resolved, the activated card's abilities resolve in printed "
                              "order, as on an ACTIVATE step, if the Emperor's hero still stands.",
                         sources=(f"{UA}: «вибирає карту дії, активує її» (an activated card's abilities resolve, "
                                  "BASE-CARD-1)",)),
        ),
        default="value",
        reason="The sentence names what the activation gives, the defense value, and the solo rules change the base "
               "game's defense only where they say so; the engine has read it so from the start (GAP-A-16).",
        recorded="value",
    ),
)

def choice(state: EmperorState, choice_id: str) -> str:
    """The option of ``choice_id`` in force in this game."""
    return option_of(CHOICES, state.choices, choice_id)


def cite(rb: Any, choice_id: str, option: str, text: str, **values: Any) -> Any:
    """The ruling step of ``rb`` saying the decision followed ``option`` of ``choice_id`` (in words, ids beside)."""
    return cite_choice(rb, CHOICES, choice_id, option, text, **values)
