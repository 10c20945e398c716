"""Issue 28: the Emperor's older messages give a warrior's printed name as text (``{mover_name}``,
``{target_name}``, ``{x_name}``...); these are typed as names, so a reader gets the printed name of their
language, while English stays the domain's own text."""
from __future__ import annotations

import pytest

from domain.kernel.messages import kind_of, msg
from service import i18n


@pytest.mark.parametrize("param", ["mover_name", "target_name", "x_name", "attacker_name", "w_name", "hero_name"])
def test_a_warrior_name_param_is_a_name(param):
    assert kind_of(param) == "id"


def test_a_warrior_name_is_printed_in_the_readers_language():
    m = msg("{x_name} can be pushed into an active hazard: it stays the target.", x_name="Akhena")
    assert m.english() == "Akhena can be pushed into an active hazard: it stays the target."
    assert i18n.render(m, "uk").startswith("Ахена")


def test_the_rulebooks_printed_card_name_is_the_uk_name():
    """The Ukrainian rulebook prints Akhena's card AK1 as «Долевісниця»."""
    assert i18n.translations("uk").pgettext(i18n.NAME_CONTEXT, "Fate-herald") == "Долевісниця"


@pytest.mark.parametrize("lang,word", [("uk", "Імператор"), ("ru", "Император"), ("cs", "Císař"), ("it", "Imperatore")])
def test_the_emperors_win_names_the_side_in_the_readers_language(lang, word):
    m = msg("the Emperor wins")
    assert word in i18n.render(m, lang) and "Emperor" not in i18n.render(m, lang)
