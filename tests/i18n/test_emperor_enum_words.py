"""The Emperor's enums in the reader's words (issue 28): an event keeps an order card's step (``MOVE``,
``ACTIVATE``, ``REFRESH_CHECK``), a human action (``MOVE``, ``ACTIVATE``, ``REFRESH``) and what a location's bonus is
used for (``attack``, ``push``, ``defense``, ``movement``, ``location ability``) as enums; the timeline's summaries
(the page's "Latest steps", real app over HTTP) and the text board (``umpire replay --lang``) name them in the
reader's language with the catalog's words (domain/emperor/terms.py), never as the enum."""
from __future__ import annotations

import re

import pytest

from domain.emperor.terms import ACTIONS, ORDER_STEPS, PURPOSES
from domain.emperor.view import summarize
from domain.kernel import event_type_name, registry
from domain.kernel.messages import text_of
from domain.kernel.runner import Game
from service import i18n
from tests.service.api_client import Api, api  # noqa: F401

from .test_emperor_language import _played as played

LANGS = ("uk", "ru", "cs", "it")
#: The enums as the events keep them (and as the old summaries wrote them, lower case).
ENUMS = re.compile(r"\b(MOVE|ACTIVATE|REFRESH|REFRESH[ _]CHECK|move|activate|refresh check|attack|push|defense|"
                   r"movement|location ability)\b")
#: The English words of the Emperor's text board before it was written in messages.
BOARD_ENGLISH = re.compile(r"\b(turn|Cells|location|hazard|health|action row|exhausted|flipped|Order card|steps|"
                           r"refresh value|the Emperor|your|died|inactive)\b")


def test_every_enum_has_its_words_in_every_language():
    for words in (ORDER_STEPS, ACTIONS, PURPOSES):
        for enum, m in words.items():
            for lang in LANGS:
                said = i18n.render(m, lang)
                assert said and said != m.english() and not ENUMS.search(said), (lang, enum, said)


def test_the_timeline_names_the_emperors_steps_actions_and_purposes_in_the_readers_language(api: Api):
    g = api.play_random("emperor", "SETUP-WARDEN-VS-VESPER", 40, seed=5)[0]
    gid = g["game_id"]
    en = api.client.get(f"/games/{gid}/timeline").json()["steps"]
    kinds = {"emperor_step", "locations_flipped", "action_taken"}
    assert {s["type"] for s in en} >= kinds, {s["type"] for s in en}
    assert any(ENUMS.search(s["summary"]) for s in en if s["type"] in kinds)  # English names them so
    for lang in LANGS:
        steps = api.client.get(f"/games/{gid}/timeline", params={"lang": lang}).json()["steps"]
        said = [s["summary"] for s in steps if s["type"] in kinds]
        assert said and [t for t in said if ENUMS.search(t)] == [], (lang, said)
    uk = [s["summary"] for s in api.client.get(f"/games/{gid}/timeline", params={"lang": "uk"}).json()["steps"]
          if s["type"] == "emperor_step"]
    # "крок наказу Імператора: ПЕРЕМІЩЕННЯ": the order card's step as the rulings and the picture name it
    assert any(t.endswith(("ПЕРЕМІЩЕННЯ", "АКТИВАЦІЯ", "ПЕРЕВІРКА ОНОВЛЕННЯ")) for t in uk), uk


def _played(scenario: str, seed: int, moves: int) -> Game:
    return played(scenario, seed, moves, prefix="tb")


@pytest.mark.parametrize("moves", [6, 400])
def test_the_emperors_text_board_is_in_the_readers_language(moves):
    rs = registry.get("emperor")
    g = _played("SETUP-WARDEN-VS-VESPER", 5, moves)
    board = rs.render_text(g.state, "human")
    english = text_of(board)
    assert BOARD_ENGLISH.search(english) and ENUMS.search(english)  # the English board has the words checked below
    for lang in LANGS:
        said = i18n.render(board, lang)
        # the grid is the same in every language: its column letters and its cells' marks
        assert [ln for ln in said.splitlines() if "[" in ln] == [ln for ln in english.splitlines() if "[" in ln]
        words = "\n".join(ln for ln in said.splitlines() if "[" not in ln)
        assert not BOARD_ENGLISH.search(words) and not ENUMS.search(words), (lang, words)
    uk = i18n.render(board, "uk")
    assert "Вартовий" in uk and "Карта наказу" in uk and "Ряд дій Імператора" in uk, uk


def test_a_hazards_wounds_and_why_the_game_ended_read_in_the_readers_language():
    """``warrior_wounded`` keeps its cause as ``hazard H1``, ``game_won`` its reason as English (``Warden died``):
    the timeline's summaries say both in the reader's words, and English as the events keep them."""
    g = _played("SETUP-WARDEN-VS-VESPER", 5, 400)
    said = {event_type_name(e.event): e.event for e in g.emitted
            if event_type_name(e.event) in ("warrior_wounded", "game_won")}
    wounded, won = said["warrior_wounded"], said["game_won"]
    assert wounded.cause.startswith("hazard ") and won.reason.endswith(" died")
    assert text_of(summarize(wounded)).endswith(wounded.cause) and text_of(summarize(won)).endswith(won.reason)
    for lang in LANGS:
        for e in (wounded, won):
            text = i18n.render(summarize(e), lang)
            assert not re.search(r"\b(hazard|died|wins?|suffers)\b", text), (lang, text)
    assert "небезпека H" in i18n.render(summarize(wounded), "uk")
