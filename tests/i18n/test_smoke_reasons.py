"""The reasons Clouds of Smoke's engine composes inside a ruling (issue 28): a battle bonus's ``why`` (SMOKE-BAT-4
flank or rear, SMOKE-SR-15 Nimble, SMOKE-SR-17 Mounted lancers) is a message of its own, so a ruling read in
Russian (the rulebook's terms: Подвижные, Конные копейщики), Ukrainian, Czech or Italian holds no English word of
the phrase, while the English step and the bonus as the log keeps it (its ``why`` as English text) are as before.
A real battle of the engine: lancers against an infantry unit's flank, resolved by the decider. Likewise a line of
fire's reason (SMOKE-LOF-2) inside its refusal."""
from __future__ import annotations

import re

import pytest

from domain.smoke.fire import describe
from service.i18n import render
from tests.smoke.scripts import INF, E, duel, end_actions, of, place_marker

BONUS_RULES = ("SMOKE-BAT-4", "SMOKE-SR-15", "SMOKE-SR-17")
#: each bonus's reason in English, exactly as the log keeps it and the English ruling reads it
ENGLISH = {"SMOKE-BAT-4": "in the flank or rear of P2-01", "SMOKE-SR-15": "Nimble, attacking a flank",
           "SMOKE-SR-17": "Mounted lancers against a one-unit formation"}
#: the Russian rulebook's terms each step must carry
RUSSIAN = {"SMOKE-BAT-4": "во фланге или в тылу", "SMOKE-SR-15": "Подвижные", "SMOKE-SR-17": "Конные копейщики"}


@pytest.fixture(scope="module")
def battle() -> list:
    """Lancers (player-1) touching the side of a lone infantry unit; the battle is rolled."""
    g = duel([("lancers", 10.875, 9.6, 180), (INF, 25, 3, 90)], [(INF, 10, 10, 90), (INF, 25, 19, 270)],
             faces=[4, 4, 4, 4], commanders1=((10.0, 8.0),))
    end_actions(g)
    g.faces += [6] * 12
    return place_marker(g)


def _bonus_steps(items: list) -> dict:
    return {s.rule: s for it in items if getattr(it, "ruling", None) for s in it.ruling.steps if s.rule in BONUS_RULES}


def test_the_english_bonus_steps_and_the_logged_reasons_are_unchanged(battle):
    steps = _bonus_steps(battle)
    assert set(steps) == set(BONUS_RULES)
    for rule, step in steps.items():
        assert step.text == f"P1-01: +1d6, {ENGLISH[rule]}."
        assert render(step.message, "en") == step.text
    rolled = of(battle, E.BattleRolled)[-1]
    logged = {b["rule"]: b["why"] for r in rolled.sides["south"]["rolling"] for b in r["bonus"]}
    assert logged == ENGLISH  # the event keeps the English text as data


@pytest.mark.parametrize("lang", ["ru", "uk", "cs", "it"])
def test_a_bonus_reason_reads_in_the_readers_language(battle, lang):
    for rule, step in _bonus_steps(battle).items():
        said = render(step.message, lang)
        english_words = {w for w in re.findall(r"[A-Za-z][A-Za-z-]+", ENGLISH[rule]) if not re.match(r"P\d", w)}
        found = [w for w in re.findall(r"[A-Za-z][A-Za-z-]+", said) if w in english_words]
        assert not found, (lang, said)
        assert said != step.text
        assert said.startswith("P1-01: +1d6, ")  # the unit's id and the dice are kept
        if rule == "SMOKE-BAT-4":
            assert said.endswith(" P2-01.")
        if lang == "ru":
            assert RUSSIAN[rule] in said, said


@pytest.mark.parametrize("lang", ["ru", "uk", "cs", "it"])
def test_a_line_of_fire_refusals_reason_reads_in_the_readers_language(lang):
    """SMOKE-LOF-2: a unit with no fire ability; the measure keeps its English reason, the sentence says it."""
    measure = {"ok": False, "shooter": "P1-01", "target": "P2-01", "how": "fire",
               "reason": "no Fire or Bombardment ability"}
    said = describe(measure)
    assert said.english() == "P1-01 cannot fire at P2-01 (no Fire or Bombardment ability)"
    text = render(said, lang)
    assert "ability" not in text and " or " not in text and "P2-01" in text, text
