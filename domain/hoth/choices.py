"""Battle of Hoth's rule choices (DESIGN 14; the questions, options and quotes: rules.md section 15).

Each choice is read from the state (``HothState.choices``, filled in by ``initial_state`` through
:func:`domain.kernel.choices.in_force`), so a game stored before the choices existed folds under the
readings the engine applied then (each choice's ``recorded`` option).
"""
from __future__ import annotations

from typing import Any

from domain.kernel.choices import ChoiceOption, RuleChoice, cite as cite_choice, option_of
from domain.kernel.messages import Message

from .state import HothState

EWEB = "HOTH-CHOICE-EWEB"
PERM_MEDAL = "HOTH-CHOICE-PERM-MEDAL"
FIRST_DRAW = "HOTH-CHOICE-FIRST-DRAW"
EWEB_CONFIRM = "HOTH-CHOICE-EWEB-CONFIRM"

UA, CS, IT = "seeds/000_9620db0888614986.txt (UA)", "seeds/001_2f4b1a885d5dc051.txt (CS)", \
    "seeds/004_9ab892b697b131dc.txt (IT)"

CHOICES: tuple[RuleChoice, ...] = (
    RuleChoice(
        id=EWEB,
        title="E-Web re-roll",
        question="An E-Web unit with its token Set re-rolls its attack dice once: any dice its player picks, "
                 "or all of them?",
        options=(
            ChoiceOption(id="any", words="any dice", text="The player picks any number of the attack dice (none to all) and re-rolls "
                                        "those once.",
                         sources=(f"{UA}: «перекидати будь-яку кількість кубиків один раз»",
                                  f"{IT}: «ripetere una volta il tiro di un qualsiasi numero di dadi attacco»")),
            ChoiceOption(id="all", words="all dice or none", text="The player re-rolls all the attack dice once, or keeps the roll.",
                         sources=(f"{CS}: «jednou přehodit všechny útočné kostky»",)),
        ),
        default="any",
        reason="Two of the three originals (UA, IT) say any number of dice.",
        recorded="any",
    ),
    RuleChoice(
        id=PERM_MEDAL,
        title="Permanent medal",
        question="A permanent medal is captured when a unit of its faction enters the hex: does a unit that only "
                 "passes through the hex (and moves on) capture it, or only one whose move or retreat ends there?",
        options=(
            ChoiceOption(id="pass", words="passing through captures", text="Every hex a unit enters counts, also one it moves or retreats through.",
                         sources=(f"{IT}: «non appena un'unità dello schieramento appropriato entra nell'esagono»",
                                  f"{CS}: «jakmile na hex vstoupí jednotka vaší strany»",
                                  f"{UA}: «коли загін відповідної фракції переміщується на цю клітинку»")),
            ChoiceOption(id="stop", words="only stopping captures", text="Only the hex where the unit's move, retreat or breakthrough ends counts.",
                         sources=(f"{UA}: «переміщується на цю клітинку» (moves onto the hex: read as its "
                                  "destination)",)),
        ),
        default="pass",
        reason="The literal reading: all three originals say the medal is taken when a unit enters (IT «entra», "
               "CS «vstoupí», UA «переміщується на»), and a unit passing through enters the hex.",
        recorded="pass",
    ),
    RuleChoice(
        id=FIRST_DRAW,
        title="The first player's first card",
        question="Does the starting player draw a card before the first turn, or play from the opening hand?",
        options=(
            ChoiceOption(id="play", words="plays from the opening hand", text="The starting player plays a card from the opening hand; no extra draw.",
                         sources=(f"{UA}: «грає свою першу карту й виконує свій перший хід»",
                                  f"{IT}: «gioca la sua prima carta e svolge il suo primo turno»")),
            ChoiceOption(id="draw", words="draws a card first", text="The starting player draws one card before the first turn (one more card "
                                         "in hand for that turn).",
                         sources=(f"{CS}: «dobere kartu a zahájí svůj první tah»",)),
        ),
        default="play",
        reason="Two of the three originals (UA, IT) have no extra draw (HOTH-GAP-25).",
        recorded="play",
    ),
    RuleChoice(
        id=EWEB_CONFIRM,
        title="E-Web and the AT-AT confirmation roll",
        question="Hits on an AT-AT are confirmed by a second roll of the hitting dice. May an E-Web unit with its "
                 "token Set re-roll that confirmation roll too, or only its attack dice?",
        options=(
            ChoiceOption(id="no", words="attack dice only", text="The E-Web's re-roll is for its attack dice; the "
                                                                 "confirmation roll stands (HOTH-GAP-20).",
                         sources=(f"{IT}: «ripetere una volta il tiro di un qualsiasi numero di dadi attacco» and "
                                  "«vanno tirati nuovamente per un tiro di conferma»",
                                  f"{CS}: «jednou přehodit všechny útočné kostky» and «provést potvrzovací hod»")),
            ChoiceOption(id="yes", words="the confirmation roll too",
                         text="An E-Web attacking an AT-AT re-rolls the confirmation roll once as well when it shows "
                              "no explosion.",
                         sources=(f"{UA}: «може щоразу під час атак перекидати будь-яку кількість кубиків один раз» "
                                  "(any dice, during its attacks: the confirmation dice are rolled in the attack)",)),
        ),
        default="no",
        reason="IT and CS give the E-Web a re-roll of its attack dice («dadi attacco», «útočné kostky»), and all "
               "three call the confirmation a roll of its own (IT «tiro di conferma», CS «potvrzovací hod», UA "
               "«кидка для підтвердження»); the engine has read it so from the start (HOTH-GAP-20).",
        recorded="no",
    ),
)

def choice(state: HothState, choice_id: str) -> str:
    """The option of ``choice_id`` in force in this game."""
    return option_of(CHOICES, state.choices, choice_id)


def cite(rb: Any, choice_id: str, option: str, text: "str | Message", **values: Any) -> Any:
    """The ruling step of ``rb`` saying the decision followed ``option`` of ``choice_id`` (in words, ids beside)."""
    return cite_choice(rb, CHOICES, choice_id, option, text, **values)
