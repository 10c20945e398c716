"""``GET /games/{id}/board.svg`` in the reader's language (issue 28), over the real app: a Clouds of Smoke game in
Russian, an Emperor game in Ukrainian and a Battle of Hoth game in Ukrainian, Czech and Italian. Every ``<text>``
and ``<title>`` of the picture speaks the language asked for: no English word is left beside the data (ids,
seats, notation printed in capitals, and the game's own names the catalog has no printed name for; a word of the
English picture is an English word), a known word
of each picture is there as the rulebook prints it, and the drawing itself is the same as in English."""
from __future__ import annotations

import functools
import re
from html import unescape
from typing import Any

import pytest
from babel.messages.pofile import read_po

from service import i18n
from tests.service.api_client import Api, api  # noqa: F401

#: A word (a token with a digit or in capitals is an id or printed notation: ``E1``, ``ATTACKx2``, ``RDG``).
WORD = re.compile(r"\w+(?:[-'’]\w+)*")
LATIN = re.compile(r"[A-Za-z]+(?:[-'’][A-Za-z]+)*")
#: Latin words every rulebook prints as they are, with the reason.
KEPT = {"E-Web": "Battle of Hoth's blaster: the Ukrainian, Czech and Italian rulebooks print it so"}
TEXTS = re.compile(r"<(text|title)\b[^>]*>(.*?)</\1>")  # a text may hold a <tspan> (the Emperor's last move)


def _texts(svg: str) -> list[str]:
    return [unescape(re.sub(r"<[^>]+>", "", t)) for _, t in TEXTS.findall(svg) if t.strip()]


def _strings(node: Any, out: set[str]) -> set[str]:
    """Every string of a game's view: its own names (battle, sides, warriors, cards, locations)."""
    if isinstance(node, dict):
        for v in node.values():
            _strings(v, out)
    elif isinstance(node, list):
        for v in node:
            _strings(v, out)
    elif isinstance(node, str) and LATIN.search(node):
        out.add(node)
    return out


def _printed(lang: str) -> set[str]:
    """Every printed name (the catalog's ``name`` context) in English and as the reader's rulebook prints it
    (``Echo Base Troopers``, ``Soldati della Base Echo``): names, not words of the picture."""
    with i18n.po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang)
    return {x for m in cat if m.context == i18n.NAME_CONTEXT for x in (m.id, m.string) if x}


@functools.lru_cache(maxsize=8)
def _names_pattern(names: frozenset[str]) -> re.Pattern[str]:
    """One pattern for a game's own names where they stand whole, the longest first (one compiled pattern, not
    one per name and text: a game has hundreds of names and its picture hundreds of texts)."""
    whole = sorted((n for n in names if " " in n or n[:1].isupper()), key=lambda n: (-len(n), n))
    if not whole:
        return re.compile(r"(?!)")
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, whole)) + r")(?![\w-])")


def english_left(text: str, names: set[str]) -> list[str]:
    """The English words of ``text`` outside the data: a game's own name (a phrase, or a capitalised word) where
    it stands whole, seats (``player-1``), ids and notation (a digit or capitals: ``E1``, ``ATTACK``, ``RDG``)."""
    rest = _names_pattern(frozenset(names)).sub(" ", re.sub(r"\bplayer-\d+\b", " ", text))
    out = []
    for w in WORD.findall(rest):
        if not LATIN.fullmatch(w) or len(w) < 2 or w.isupper() or any(ch.isdigit() for ch in w) or w in KEPT:
            continue
        out.append(w)
    return out


def _picture(api: Api, gid: str, lang: str) -> tuple[str, str]:
    en = api.client.get(f"/games/{gid}/board.svg")
    said = api.client.get(f"/games/{gid}/board.svg", params={"lang": lang})
    assert en.status_code == said.status_code == 200
    assert en.headers["content-language"] == "en" and said.headers["content-language"] == lang
    return en.text, said.text


def _same_drawing(en: str, said: str) -> None:
    # the shapes, without the texts (a location's bonus words may take a line each where the language's are long)
    strip = lambda svg: re.sub(r"\n+", "\n", TEXTS.sub("", svg))  # noqa: E731
    assert strip(en) == strip(said)


def _check(api: Api, gid: str, lang: str, known: list[str]) -> list[str]:
    en, said = _picture(api, gid, lang)
    _same_drawing(en, said)
    names = _strings(api.client.get(f"/games/{gid}").json().get("state"), set())
    names |= _printed(lang)
    # the English picture's words (Czech and Italian write Latin letters too: an English word is one of these)
    english = {w for t in _texts(en) for w in english_left(t, names)}
    assert {"turn"} <= english or {"Order", "card"} <= english, english
    texts = _texts(said)
    left = {t: [w for w in english_left(t, names) if w in english] for t in texts}
    assert {t: w for t, w in left.items() if w} == {}
    joined = "\n".join(texts)
    for word in known:
        assert word in joined, (word, joined[:2000])
    return texts


def test_a_smoke_board_in_russian(api: Api):
    g, _ = api.play_random("smoke", "BTL-CROSSROADS", 40, seed=3)
    texts = _check(api, g["game_id"], "ru", ["боевой дух", "уровень", "ход "])
    head = texts[1]  # the state in words under the battle's title
    assert re.search(r"ход \d+, фаза сценария \d+ из \d+", head), head
    # the terrain by the Russian words the rulings use, capitalised as the content prints it; units by their
    # printed names in the Russian rulebook
    assert {"Пашня", "Холм", "Лес", "Ручей", "Роща"} & set(texts), texts
    assert any(re.search(r": (Линейная пехота|Линейная кавалерия|Кирасиры|Гренадеры|Егеря|Полковые пушки)", t)
               for t in texts)


def test_an_emperor_board_in_ukrainian(api: Api):
    g, _ = api.play_random("emperor", "SETUP-AKHENA-VS-REBEL", 12, seed=4)
    texts = _check(api, g["game_id"], "uk", ["Карта наказу", "колода ", "компас: ", "здоров'я ",
                                             "Останнє переміщення Імператора: "])
    assert any(t.startswith("Імператор: ") for t in texts) and any(t.startswith("Ви: ") for t in texts)
    assert any(re.search(r" — хід \d+", t) for t in texts)


@pytest.mark.parametrize(("lang", "known"), [
    ("uk", ["Північ (ряд 6): ", "Південь (ряд 0): ", " — хід ", "фігурк"]),
    ("cs", ["Sever (řada 6): ", "Jih (řada 0): ", " — tah ", "figurk"]),
    ("it", ["Nord (riga 6): ", "Sud (riga 0): ", " — turno ", "miniatur"]),
])
def test_a_hoth_board_in_its_rulebooks_languages(api: Api, lang: str, known: list[str]):
    g, _ = api.play_random("hoth", "PROP-SCN-BREACH-THE-TRENCHES", 14, seed=3)
    texts = _check(api, g["game_id"], lang, known)
    printed = {"uk": "Солдати бази «Відлуння»", "cs": "Posádka Základny Echo", "it": "Soldati della Base Echo"}[lang]
    assert any(printed in t for t in texts), [t for t in texts if "E" in t][:10]


def test_the_detector_sees_english_and_passes_data():
    assert english_left("E1 imperial Snowtroopers, 4 figures, c1 r2 [2,2]", {"Snowtroopers"}) == ["imperial",
                                                                                                   "figures"]
    assert english_left("player-1 (Karl): боевой дух 10/10, уровень 2", {"Karl"}) == []
    assert english_left("o AK1 Fate-herald: ATTACK 2 MELEE", {"Fate-herald"}) == []
