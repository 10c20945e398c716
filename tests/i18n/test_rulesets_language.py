"""``GET /rulesets`` in the reader's language (real app, real HTTP): the rulesets', scenarios', campaigns' and
bots' titles, the rule choices' titles, questions, readings and reasons, the options' titles and descriptions
and the army-building catalogue's names come translated (service/ruleset_listing.py), every id, enum, default
and quoted source stays as it is, and English is what the rulesets say."""
from __future__ import annotations

import re
from typing import Any

import pytest

from service.ruleset_listing import listing, localized, printed, texts
from tests.service.api_client import Api, api  # noqa: F401

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
#: The rulesets the service hosts (the tests' toy ruleset, registered by the test app, has no catalog entries).
HOSTED = ("emperor", "hoth", "smoke")


def _hosted(body: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in body if e["id"] in HOSTED]


def _skeleton(node: Any, words: list[str]) -> Any:
    """``node`` with every text :func:`texts` names replaced by a placeholder: what must not change by language."""
    if isinstance(node, dict):
        return {k: _skeleton(v, words) for k, v in node.items()}
    if isinstance(node, list):
        return [_skeleton(v, words) for v in node]
    if isinstance(node, str) and node in words:
        return "<text>"
    return node


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_rulesets_in_ukrainian_and_russian_keep_no_english_text(api: Api, lang: str):
    en = _hosted(api.client.get("/rulesets").json())
    r = api.client.get("/rulesets", params={"lang": lang})
    assert r.status_code == 200 and r.headers["content-language"] == lang
    got = _hosted(r.json())
    assert [e["id"] for e in got] == [e["id"] for e in en] == list(HOSTED)
    left = []
    for e_en, e_lang in zip(en, got):
        pairs = list(zip(texts(e_en), texts(e_lang), strict=True))
        assert len(pairs) > 10, e_en["id"]
        left += [f"{e_en['id']}: {a!r}" for a, b in pairs if a == b or not CYRILLIC.search(b)]
    assert left == []
    # the same by the header, and a few texts a reader of the lobby sees first
    by_header = api.client.get("/rulesets", headers={"Accept-Language": f"{lang};q=0.9,en;q=0.5"})
    assert by_header.headers["content-language"] == lang and _hosted(by_header.json()) == got
    hoth = next(e for e in got if e["id"] == "hoth")
    assert hoth["title"] == {"uk": "Битва за Гот", "ru": "Битва за Хот"}[lang]
    eweb = next(c for c in hoth["choices"] if c["id"] == "HOTH-CHOICE-EWEB")
    assert CYRILLIC.search(eweb["question"]) and all(CYRILLIC.search(o["words"] + o["text"]) for o in eweb["options"])


@pytest.mark.parametrize("lang", ["uk", "ru", "cs", "it"])
def test_only_the_words_change_by_language(api: Api, lang: str):
    """Ids, seats, defaults, enums, levels and the originals' quoted sources are the same in every language; every
    text differs from its English (Czech and Italian included)."""
    en = _hosted(api.client.get("/rulesets").json())
    got = _hosted(api.client.get("/rulesets", params={"lang": lang}).json())
    assert len(got) == len(HOSTED)
    for e_en, e_lang in zip(en, got, strict=True):
        words_en, words_lang = list(texts(e_en)), list(texts(e_lang))
        seats_en, seats_lang = e_en.pop("seat_names"), e_lang.pop("seat_names")  # the seats in words: their ids stay
        assert list(seats_en) == list(seats_lang) and seats_en and all(seats_en[s] != seats_lang[s] for s in seats_en)
        assert _skeleton(e_en, words_en + list(printed(e_en))) == _skeleton(e_lang, words_lang + list(printed(e_lang)))
        same = [a for a, b in zip(words_en, words_lang, strict=True) if a == b]
        assert same == [], (lang, e_en["id"], same)
        for c_en, c_lang in zip(e_en["choices"], e_lang["choices"], strict=True):
            assert [o["sources"] for o in c_en["options"]] == [o["sources"] for o in c_lang["options"]]


def test_english_is_what_the_rulesets_say(api: Api):
    """English renders nothing: the listing as the rulesets build it (and a text a catalog lacks stays English)."""
    r = api.client.get("/rulesets", params={"lang": "en"})
    assert r.headers["content-language"] == "en" and r.json() == listing()
    bad = api.client.get("/rulesets", params={"lang": "<script>"})
    assert bad.status_code == 400 and bad.json()["field"] == "lang"
    e = {**_hosted(listing())[0], "title": "a title no catalog holds"}
    assert localized(e, "uk")["title"] == "a title no catalog holds"
    assert localized(e, "uk") is not e and e["title"] == "a title no catalog holds"  # the English entry is untouched


#: HOTH-LEADER-1 as each rulebook prints it (the Czech and Italian ones print the English names; no Russian rulebook:
#: the names as Russian editions write them, as the catalog's campaign texts do).
LEADERS = {
    "en": ["Darth Vader", "Maximilian Veers", "Firmus Piett", "Leia Organa", "Luke Skywalker", "Han Solo"],
    "uk": ["Дарт Вейдер", "Максиміліан Вірс", "Фірмус Пієтт", "Лея Орґана", "Люк Скайвокер", "Ган Соло"],
    "ru": ["Дарт Вейдер", "Максимилиан Вирс", "Фирмус Пиетт", "Лея Органа", "Люк Скайуокер", "Хан Соло"],
    "cs": ["Darth Vader", "Maximilian Veers", "Firmus Piett", "Leia Organa", "Luke Skywalker", "Han Solo"],
    "it": ["Darth Vader", "Maximilian Veers", "Firmus Piett", "Leia Organa", "Luke Skywalker", "Han Solo"],
}


@pytest.mark.parametrize("lang", sorted(LEADERS))
def test_hoths_leaders_and_support_cards_are_offered_by_their_printed_names(api: Api, lang: str):
    """The options schema names what a person picks (``x-items``): each leader by the name its rulebook prints,
    each support card by its title and text as a game's view says them (the catalogs' context ``name``); the ids
    beside them, and the ``enum`` an API client sends, are the same in every language."""
    en = next(e for e in api.client.get("/rulesets").json() if e["id"] == "hoth")["options"]["properties"]
    got = next(e for e in api.client.get("/rulesets", params={"lang": lang}).json() if e["id"] == "hoth")
    props = got["options"]["properties"]
    leaders = props["leaders"]["x-items"]
    assert [x["name"] for f in ("imperial", "rebel") for x in leaders[f]] == LEADERS[lang]
    for f in ("imperial", "rebel"):
        enum = props["leaders"]["properties"][f]["anyOf"][0]["enum"]
        assert [x["id"] for x in leaders[f]] == enum == en["leaders"]["properties"][f]["anyOf"][0]["enum"]
        cards, cards_en = props["support"]["x-items"][f], en["support"]["x-items"][f]
        assert len(cards) == 5 and [c["id"] for c in cards] == props["support"]["properties"][f]["items"]["enum"]
        assert [c["id"] for c in cards] == [c["id"] for c in cards_en]
        for c, c_en in zip(cards, cards_en, strict=True):
            assert c["name"] and c["text"] and c["name"] != c["id"]
            if lang in ("uk", "ru"):
                assert CYRILLIC.search(c["name"]) and CYRILLIC.search(c["text"]), c
            elif lang != "en":
                assert c["text"] != c_en["text"], c
    # the hint of the rule that limits them, in words
    assert "CAMPAIGN-4" in props["support"]["x-note"] and props["support"]["x-note"].startswith(props["support"]["title"])
