"""Words a person reads that stayed English or spoke in field syntax (issue 28), now said in the reader's language:

* a finished game's ``win_reason`` (the English text its ``game_won`` event keeps): the view says it in the
  reader's language; a game stored with other words keeps them; the log is unchanged;
* the Emperor's ability notation (``ATTACK 2 MELEE``): the Ukrainian rulebook names abilities in words (атака,
  поштовх, марш, зірка), so the view, ``board.svg`` and the rulings write it in the reader's language;
* Battle of Hoth's options: ``GET /rulesets`` keeps each option's ``description`` for API clients (``true``,
  ``"imperial"``) and gives a person's words beside it (``x-note``), in every language.
"""
from __future__ import annotations

import re

import msgspec
import pytest
from babel.messages.pofile import read_po

from domain.emperor.ending import win_message as emperor_win
from domain.hoth.medals import win_message as hoth_win
from domain.kernel import registry
from scenarios.content import hand_to_rulesets
from service import i18n
from service.i18n import po_path
from tests.emperor.play import random_game as emperor_game
from tests.hoth.play import random_game as hoth_game
from tests.service.api_client import Api, api  # noqa: F401

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
#: The English words of the Emperor's notation: none may stay in another language's text.
NOTATION_WORDS = re.compile(r"\b(?:ATTACK|PUSH|MARCH|HELPER|STAR|SWAP|WOUND|HEAL|MELEE|RANGED|AREA)\b")
#: The notation's English words that are also the language's own (Italian writes an area ``AREA`` too).
SAME_WORD = {"it": {"AREA"}}


def english_left(text: str, lang: str) -> list[str]:
    """The notation's English words in ``text``, but for those the language writes the same."""
    return [w for w in NOTATION_WORDS.findall(text) if w not in SAME_WORD.get(lang, set())]


#: A location's bonus symbols as the English rules name them (board.svg writes them in words too).
BONUS_WORDS = re.compile(r"\b(?:MOVE|PUSH|ATTACK|DEFENSE|RANGE)\b")
LANGS = ("uk", "ru", "cs", "it")


@pytest.fixture(scope="module", autouse=True)
def _content():
    hand_to_rulesets()


def _finished_emperor(api: Api) -> tuple[str, dict[str, str]]:
    g, _ = api.play_random("emperor", "SETUP-WARDEN-VS-VESPER", 400, seed=7)
    assert api.view(g["game_id"])["status"] == "finished"
    return g["game_id"], g["seats"]


def test_a_finished_emperor_game_says_why_it_ended_in_the_readers_language(api: Api):
    gid, seats = _finished_emperor(api)
    en = api.view(gid)["state"]
    assert en["win_reason"].endswith(" died") and en["win_reason_message"]["id"] == "{warrior} died"
    name = en["win_reason_message"]["params"]["warrior"]
    assert en["win_reason"] == f"{name} died"
    events = api.events(gid)
    said = {"uk": f"{i18n.term(name, 'uk')} гине", "ru": f"{i18n.term(name, 'ru')} гибнет",
            "cs": f"{i18n.term(name, 'cs')} umírá", "it": f"{i18n.term(name, 'it')} muore"}
    for lang in LANGS:
        r = api.client.get(f"/games/{gid}", params={"lang": lang})
        assert r.headers["content-language"] == lang
        assert r.json()["state"]["win_reason"] == said[lang] != en["win_reason"]
        assert i18n.term(name, lang) != name  # the rulebook's printed name, not the English one
        # the log is what it was: the event keeps its English reason in every language, /verify the same
        local = api.client.get(f"/games/{gid}/events", params={"lang": lang, "limit": 1000}).json()["events"]
        assert [e["payload"] for e in local] == [e["payload"] for e in events]
    won = [e for e in events if e["type"] == "game_won"]
    assert len(won) == 1 and won[0]["payload"]["reason"] == en["win_reason"]
    assert api.client.get(f"/games/{gid}/verify").json() == api.client.get(f"/games/{gid}/verify",
                                                                           params={"lang": "uk"}).json()


def test_a_reason_stored_in_other_words_is_shown_as_it_was_stored():
    rs = registry.get("emperor")
    g = emperor_game(rs, "SETUP-AKHENA-VS-REBEL", 3)
    assert g.state.winner is not None and emperor_win(g.state) is not None
    old = msgspec.structs.replace(g.state, win_reason="Akhena fell in an older wording")
    assert emperor_win(old) is None
    view = rs.view(old, None)
    assert "win_reason_message" not in view
    for lang in LANGS:
        assert i18n.printed_view({"ruleset": "emperor", "state": view}, lang)["state"]["win_reason"] == \
            "Akhena fell in an older wording"


def test_a_finished_hoth_game_says_why_it_ended_in_the_readers_language():
    rs = registry.get("hoth")
    g = next(g for seed in range(1, 12) if (g := hoth_game(rs, "SCN-TAKE-DOWN-THE-SHIELD", seed)).state.winner)
    m = hoth_win(g.state)
    assert m is not None and m.english() == g.state.win_reason
    view = rs.view(g.state, None)
    english = i18n.printed_view({"ruleset": "hoth", "state": view}, "en")["state"]["win_reason"]
    assert english == g.state.win_reason
    for lang in LANGS:
        got = i18n.printed_view({"ruleset": "hoth", "state": view}, lang)["state"]["win_reason"]
        assert got == i18n.render(m, lang) and got != english and "wins" not in got, (lang, got)
    assert CYRILLIC.search(i18n.printed_view({"ruleset": "hoth", "state": view}, "uk")["state"]["win_reason"])
    # the text board (umpire replay) says it in the same words
    board = i18n.render(rs.render_text(g.state, None), "uk") if hasattr(rs, "render_text") else None
    assert board is None or i18n.render(m, "uk") in board


def _abilities(state: dict) -> list[str]:
    out = [a for h in state["heroes"].values() for c in h.get("cards", []) for a in c["abilities"]]
    out += [s["text"] for h in state["heroes"].values() for s in h.get("stars", [])]
    out += [lo["ability"]["text"] for lo in state["battlefield"]["locations"] if lo.get("ability")]
    return out


def test_the_emperors_ability_notation_in_the_readers_language(api: Api):
    gid, seats = _finished_emperor(api)
    en = api.view(gid)["state"]
    assert _abilities(en) and all(NOTATION_WORDS.search(a) for a in _abilities(en))
    for lang in LANGS:
        state = api.client.get(f"/games/{gid}", params={"lang": lang}).json()["state"]
        notation = _abilities(state)
        assert len(notation) == len(_abilities(en)) and not [a for a in notation if english_left(a, lang)], notation
        svg = api.client.get(f"/games/{gid}/board.svg", params={"lang": lang, "at": 3}).text
        texts = " ".join(re.findall(r">([^<>]+)</text>", svg))
        assert not english_left(texts, lang) and not BONUS_WORDS.search(texts), (lang, texts)
    uk = api.client.get(f"/games/{gid}", params={"lang": "uk"}).json()["state"]
    assert "АТАКА 2 БЛИЖНІЙ БІЙ" in _abilities(uk) or "АТАКА 1 БЛИЖНІЙ БІЙ" in _abilities(uk), _abilities(uk)
    # the rulings and summaries that name an ability (``{source}: {ability} done``) write it the same way
    timeline = api.client.get(f"/games/{gid}/timeline", params={"lang": "uk"}).json()["steps"]
    done = [s["summary"] for s in timeline if s["type"] == "ability_done"]
    assert done and not [t for t in done if NOTATION_WORDS.search(t)], done[:5]


def test_every_notation_entry_says_where_its_words_come_from():
    """The Ukrainian words the rulebook prints (атака, поштовх, марш, зірка, поранення) are marked as its; every
    other word is marked as chosen, in every language (the catalog's translator comments)."""
    for lang in LANGS:
        with po_path(lang).open("rb") as f:
            notation = [m for m in read_po(f, locale=lang) if m.context == "name" and NOTATION_WORDS.match(m.id)]
        assert len(notation) >= 20
        for m in notation:
            assert m.string and not english_left(m.string, lang), (lang, m.id, m.string)
            note = " ".join(m.user_comments)
            assert note.startswith("Ability notation."), (lang, m.id)
            assert ("rulebook (seed 002) names it" in note) if lang == "uk" and not m.id.startswith(("SWAP", "HEAL")) \
                else "chosen" in note, (lang, m.id, note)


def test_hoth_options_keep_their_api_description_and_say_it_in_words_for_a_person(api: Api):
    english = next(r for r in api.client.get("/rulesets").json() if r["id"] == "hoth")["options"]["properties"]
    assert '"imperial"' in english["team"]["description"] and "true" in english["team"]["description"]
    for lang in ("en", *LANGS):
        hoth = next(r for r in api.client.get("/rulesets", params={"lang": lang}).json() if r["id"] == "hoth")
        team = hoth["options"]["properties"]["team"]
        note = team["x-note"]
        assert not re.search(r'\btrue\b|\bfalse\b|"imperial"|"rebel"|imperial-2', note), (lang, note)
        assert "HOTH-TEAM-1" in note and note.startswith(team["title"]), (lang, note)
        assert "true" in team["description"]  # the API's description keeps its syntax, translated or not
        if lang != "en":
            assert note != english["team"]["x-note"]
