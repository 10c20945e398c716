"""Where an Emperor ability comes from, and which star a star is spent on, in the reader's words (issue 28: no
raw field syntax reaches a player; domain/emperor/sources.py).

The log keeps an ability's source as it stored it (``RB1 Brawl``, ``star: Jab``, ``fallback Gale``) and a star's
choice as the command or the automaton wrote it (``Jab``, ``L3``); the view (``pending.source``,
``activation.queue[].source``), the timeline's summaries and the commands' labels say them in words in the
reader's language, the view's text beside its message (``source_message``). A game is played over the real app
(real SQLite, real Redis) until the Emperor attacks the human's hero (a defence is asked, with the source of the
attack) and a star has been spent by each side."""
from __future__ import annotations

import random
import re

import pytest

from domain.emperor.sources import source_said
from domain.kernel.messages import text_of
from service.i18n import render
from tests.service.api_client import Api, api  # noqa: F401

SETUP = "SETUP-AKHENA-VS-REBEL"
#: A game (its id ``emperor-sources-<seed>``, the commands' seed) that reaches both a defence and both sides' stars.
SEED_OF_THE_GAME = 5
UK = {"Accept-Language": "uk"}
CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
#: A source as the log keeps it: a card id then its English name (``RB1 Brawl``), ``star: Jab``, ``fallback Gale``.
ID = re.compile(r"[A-Z]{1,3}[0-9]+")
RAW = re.compile(r"\b[A-Z]{1,3}[0-9]+ [A-Z][a-z]|\bstar: [A-Z]|\bfallback [A-Z]|\bbase move\b")


def _until_sources(api: Api, seed: int, monkeypatch, steps: int = 400) -> tuple[str, str, dict, dict]:
    """Play (a star preferred whenever one is legal, else an activation, else a seeded random command) until a
    defence is asked and a star was spent by each side; returns the game id, the token, and the view then (in
    English and uk). The game's id is fixed, so its shuffles (from the seed and the id) are the same every run."""
    monkeypatch.setattr("service.game_service.new_game_id", lambda: f"emperor-sources-{seed}")
    g = api.create("emperor", SETUP)
    gid, token = g["game_id"], g["seats"]["human"]
    rng = random.Random(seed)
    seen: dict[str, dict] = {}
    for _ in range(steps):
        v = api.view(gid, token)
        if v["status"] != "active" or not v["to_act"]:
            break
        stars = {e["payload"]["side"] for e in api.events(gid, token) if e["type"] == "star_chosen"
                 and e["payload"]["choice"]}
        if v["state"]["pending"] and "pending" not in seen:
            seen["pending"] = v
            seen["pending_uk"] = api.client.get(f"/games/{gid}", headers={**api.auth(token), **UK}).json()
        if "pending" in seen and stars == {"human", "emperor"}:
            break
        legal = api.legal(gid, token)
        star = [c for c in legal["commands"] if c["type"] == "star"]
        activate = [c for c in legal["commands"] if c["type"] == "activate"]  # a card may carry a STAR
        api.ok(gid, token, star[0] if star else rng.choice(activate or legal["commands"]), legal["version"])
    assert "pending" in seen, "no defence was asked"
    assert stars == {"human", "emperor"}, stars
    return gid, token, seen["pending"], seen["pending_uk"]


def test_the_stored_sources_read_back_as_words():
    """Every form the engine stores (the module's doc), in English and in Ukrainian, with the rulebook's printed
    names (Бійка, Джеб, Шквал); a string of no known form is given back as it is."""
    cases = {"RB1 Brawl": ("card Brawl (RB1)", "карта Бійка (RB1)"),
             "RB1 Brawl (defense card)": ("card Brawl (RB1), activated to defend",
                                          "карта Бійка (RB1), активована для захисту"),
             "star: Jab": ("star ability Jab", "зіркова властивість Джеб"),
             "star: L3": ("ability of location L3", "властивість локації L3"),
             "fallback Gale": ("fallback Gale", "запасна властивість Шквал"),
             "base move": ("base move", "базове переміщення"),
             "Jab": ("star ability Jab", "зіркова властивість Джеб")}
    for stored, (en, uk) in cases.items():
        said = source_said(stored)
        assert (text_of(said), render(said, "uk")) == (en, uk), stored
    assert source_said("AK1") == "AK1"  # a bare id without the game: the timeline puts its printed name beside it
    assert source_said("") == ""


def test_an_attack_and_the_stars_say_where_they_come_from_in_the_readers_language(api: Api, monkeypatch):
    gid, token, en, uk = _until_sources(api, SEED_OF_THE_GAME, monkeypatch)
    p_en, p_uk = en["state"]["pending"], uk["state"]["pending"]
    # the log keeps the source as stored; the view says it in words, the message beside it
    asked = [e for e in api.events(gid, token) if e["type"] == "defense_requested"][-1]
    stored = asked["payload"]["pending"]["source"]
    assert RAW.search(stored), stored  # the stored form (``RB1 Brawl``, ``star: Jab``...), unchanged
    assert p_en["source"] != stored and not RAW.search(p_en["source"]), p_en
    assert p_en["source_message"] == p_uk["source_message"] and p_en["source_message"]["id"]
    assert CYRILLIC.search(p_uk["source"]) and not RAW.search(p_uk["source"]), p_uk
    # the stars spent, in the timeline and in the steps' lines: the printed names, no English choice
    lines_uk = {e["seq"]: e for e in api.client.get(f"/games/{gid}/events", params={"limit": 1000},
                                                     headers={**api.auth(token), **UK}).json()["events"]}
    stars = [e for e in api.events(gid, token) if e["type"] == "star_chosen" and e["payload"]["choice"]]
    assert {e["payload"]["side"] for e in stars} == {"human", "emperor"}
    for e in stars:
        said = lines_uk[e["seq"]]["summary"]
        assert said.startswith("зірка: ") and CYRILLIC.search(said[len("зірка: "):]), said
        assert e["payload"]["choice"] not in said or ID.fullmatch(e["payload"]["choice"]), said
    # every line naming an ability's source says it in words
    sourced = [e for e in api.events(gid, token) if e["type"] in ("target_chosen", "ability_done")]
    assert sourced
    for e in sourced:
        said = lines_uk[e["seq"]]["summary"]
        src = e["payload"]["source"]  # the human's card by its id: its printed name beside it (``Вітер дюн (AK5)``)
        assert not RAW.search(said) and (src not in said or (ID.fullmatch(src) and f"({src})" in said)), said
        assert CYRILLIC.search(said.split(":")[0]), said


@pytest.mark.parametrize("lang", ["uk", "ru", "cs", "it"])
def test_every_source_word_has_its_translation(lang):
    """Each message :func:`source_said` makes has a text in every catalog (a missing one would read in English)."""
    from service.i18n import translations
    tr = translations(lang)
    for stored in ("RB1 Brawl", "RB1 Brawl (defense card)", "star: Jab", "star: L3", "fallback Gale", "base move"):
        said = source_said(stored)
        assert tr.gettext(said.id) != said.id, (lang, said.id)
