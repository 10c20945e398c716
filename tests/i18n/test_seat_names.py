"""The seats in words (docs/seat-names.md), through the real app over HTTP: ``GET /rulesets`` names every seat of each
ruleset as its rulebook prints the side, in the reader's language (Ukrainian: the Hoth and Emperor rulebooks' own
words), and a game's timeline says who did a step by that name, never by the seat's id (domain/kernel/words.py
``acted_by``: a seat, and a bot's seat); Clouds of Smoke's own sentences (summaries, rulings, the board picture) name
a seat so too."""
from __future__ import annotations

import html
import re

import pytest

from domain.hoth.events import SupportPlayed
from domain.smoke.events import TacticsEnded
from domain.kernel import registry, words
from service import i18n
from tests.service.api_client import Api, api  # noqa: F401

#: What each language calls the seats (the Ukrainian Battle of Hoth rulebook: Повстанці, Імперія; the Ukrainian
#: Emperor rulebook: Імператор; Clouds of Smoke numbers its players).
EXPECTED = {
    "en": {"hoth": {"rebel": "the Rebels", "imperial": "the Empire", "rebel-2": "the Rebels' second player"},
           "smoke": {"player-1": "Player 1", "player-4": "Player 4"},
           "emperor": {"human": "the player", "emperor": "the Emperor"}},
    "uk": {"hoth": {"rebel": "Повстанці", "imperial": "Імперія", "rebel-2": "Повстанці, другий гравець"},
           "smoke": {"player-1": "Гравець 1", "player-4": "Гравець 4"},
           "emperor": {"human": "Гравець", "emperor": "Імператор"}},
}


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_rulesets_name_every_seat_in_the_readers_language(api: Api, lang: str):
    got = {e["id"]: e["seat_names"] for e in api.client.get("/rulesets", params={"lang": lang}).json()}
    for rid, names in EXPECTED[lang].items():
        assert {s: got[rid][s] for s in names} == names, (lang, rid, got[rid])
    # every seat a scenario lists is named (a client never has to show an id)
    for e in api.client.get("/rulesets", params={"lang": lang}).json():
        if e["id"] in EXPECTED[lang]:
            assert all(s in e["seat_names"] for sc in e["scenarios"] for s in sc.get("seats", [])), e["id"]


def test_the_timeline_names_who_did_a_step_in_words(api: Api):
    """Each step of a seat's command says who did it by the seat's name, in Ukrainian and English; the seat's id
    stays as data (``by.seat``, ``actor``)."""
    g, _ = api.play_random("hoth", "PROP-SCN-BREACH-THE-TRENCHES", 30)
    seen = {}
    for lang in ("en", "uk"):
        events = api.client.get(f"/games/{g['game_id']}/events", params={"lang": lang}).json()["events"]
        seen[lang] = {(e["by"]["seat"], e["by"]["text"]) for e in events if e["by"]["kind"] == "seat"}
    assert {s for s, _ in seen["en"]} >= {"rebel", "imperial"}, seen
    created = api.client.get(f"/games/{g['game_id']}/events", params={"lang": "uk", "limit": 1}).json()["events"][0]
    assert "Імперія" in created["summary"] and "imperial" not in created["summary"], created["summary"]
    for lang, said in seen.items():
        for seat, text in said:
            assert text == EXPECTED[lang]["hoth"][seat] and seat not in text, (lang, seat, text)


def test_a_bots_step_names_its_seat_in_words():
    """A bot's step: ``{seat} (bot {bot})`` with the seat in words, said in the reader's language at the edge."""
    rs = registry.get("hoth")
    by = words.acted_by(rs, None, "imperial", {"imperial": "random:1"})
    assert by["kind"] == "bot" and by["seat"] == "imperial" and by["text"] == "the Empire (bot random)"
    said = i18n.localize({"by": by}, "uk")["by"]["text"]
    assert said.startswith("Імперія") and "imperial" not in said and "random" in said, said
    # a bot's summary that names its seat reads alone, as a person's does: not "the Empire (bot random): the Empire: …"
    played = rs.summary(SupportPlayed(seat="imperial", card="PROP-SUP-EMP-PROBE-INTEL"))
    assert words.acted_by(rs, None, "imperial", {"imperial": "random:1"}, played)["in_summary"] is True
    assert "in_summary" not in words.acted_by(rs, None, "rebel", {"rebel": "random:1"}, played)


#: What each language calls the Emperor (its rulebook's Імператор; docs/seat-names.md).
THE_EMPEROR = {"en": "the Emperor", "uk": "Імператор", "ru": "Император", "cs": "Císař", "it": "l'Imperatore"}


def _emperor_game(api: Api, turns: int = 3) -> str:
    """An Emperor game whose human ends turn after turn (the Emperor's automaton plays between)."""
    g = api.create("emperor", "SETUP-AKHENA-VS-REBEL")
    tok = g["seats"]["human"]
    for _ in range(turns):
        legal = api.legal(g["game_id"], tok)
        if not legal["commands"]:
            break
        end = next((c for c in legal["commands"] if c["type"] == "end_turn"), legal["commands"][0])
        api.ok(g["game_id"], tok, end, legal["version"])
    return g["game_id"]


@pytest.mark.parametrize("lang", sorted(THE_EMPEROR))
def test_the_emperors_automaton_lines_say_the_emperor_once(api: Api, lang: str):
    """The Emperor's summaries pass its side's name as their ``{emperor}`` (domain/emperor/terms.py THE_EMPEROR), so
    ``by.in_summary`` marks them and a page's line reads "the Emperor refreshes", never "the Emperor (automaton): the
    Emperor refreshes" (old output); the automaton's rulings are summed up in the same words (no ``REFRESH_CHECK``)."""
    gid = _emperor_game(api)
    name = THE_EMPEROR[lang]
    steps = api.client.get(f"/games/{gid}/timeline", params={"lang": lang}).json()["steps"]
    automaton = [s for s in steps if s["by"]["kind"] == "automaton"]
    lines = [(s["by"]["text"] + ": " if not s["by"].get("in_summary") else "") + s["summary"] for s in automaton]
    assert {s["type"] for s in automaton if s["by"].get("in_summary")} >= {
        "turn_started", "emperor_step", "card_activated", "refreshed", "turn_ended"}, lines
    assert all(line.count(name) == 1 for line in lines if name in line), lines
    # a warrior whose id is its English name (``rebel``: Rebel) reads by its name alone in every language, never
    # "Бунтар (rebel)" (old output)
    assert not [s["summary"] for s in steps if re.search(r"\((?:akhena|rebel|sparrow)\)", s["summary"])], lang
    for s in automaton:
        if s["type"] in ("turn_started", "emperor_step", "refreshed", "turn_ended"):
            r = api.client.get(f"/games/{gid}/events/{s['seq']}/ruling", params={"lang": lang}).json()["ruling"]
            assert r["summary"] == s["summary"] and "_" not in r["summary"], (r["summary"], s["summary"])


def test_a_summary_that_names_its_seat_is_marked_so_the_side_is_said_once(api: Api):
    """``by.in_summary`` (docs/seat-names.md): a seat's step whose summary names that seat (Hoth's "the Empire: Attack
    Left played", "the Rebels: 1 card discarded") is marked, in every language alike; a step whose summary does not
    (a unit's move) and a referee's step are not; no summary repeats the ``by`` of a marked step's page line."""
    g, _ = api.play_random("hoth", "PROP-SCN-BREACH-THE-TRENCHES", 30)
    for lang, names in (("en", ("the Rebels", "the Empire")), ("uk", ("Повстанці", "Імперія"))):
        steps = api.client.get(f"/games/{g['game_id']}/timeline", params={"lang": lang}).json()["steps"]
        marked = [s for s in steps if s["by"].get("in_summary")]
        assert marked and all(s["by"]["kind"] == "seat" for s in marked), steps
        assert all(s["by"]["text"] in s["summary"] for s in marked), marked
        plain = [s for s in steps if s["by"]["kind"] == "seat" and not s["by"].get("in_summary")]
        assert plain and all(s["by"]["text"] not in s["summary"] for s in plain), plain
        ended = [s for s in steps if s["type"] == "turn_ended"]
        assert all(s["by"]["kind"] == "referee" and "in_summary" not in s["by"] for s in ended), ended
        assert not any(n in s["summary"] and s["summary"].count(n) > 1 for s in steps for n in names)
        assert not any(w in s["summary"].split() for s in steps for w in ("rebel", "imperial"))
    # the rule reads the message's parameters, not its words
    rs = registry.get("hoth")
    said = rs.summary(SupportPlayed(seat="imperial", card="PROP-SUP-EMP-PROBE-INTEL"))
    assert said.english() == "the Empire: support card Probe Intel played"
    assert words.acted_by(rs, None, "imperial", {}, said)["in_summary"] is True
    assert "in_summary" not in words.acted_by(rs, None, "rebel", {}, said)
    # Clouds of Smoke's sentences pass the seat's name as their {seat} too: the same rule marks them
    smoke = registry.get("smoke")
    ended = smoke.summary(TacticsEnded(seat="player-1"))
    assert ended.english() == "Player 1 ends tactics"
    assert words.acted_by(smoke, None, "player-1", {}, ended)["in_summary"] is True


#: What Clouds of Smoke's own sentences call ``player-1`` (its rulebook, in Russian: игрок).
SMOKE_PLAYER_1 = {"en": "Player 1", "uk": "Гравець 1", "ru": "Игрок 1"}
#: A seat's id as a word of a text (never shown: docs/seat-names.md).
SMOKE_SEAT_ID = re.compile(r"(?<![\w-])player-\d(?![\w-])")


def _smoke_texts(api: Api, gid: str, lang: str) -> dict[str, list[str]]:
    """What a reader of ``lang`` reads of a Smoke game, by where: the timeline's summaries, every ruling (its summary
    and steps), the board picture's words (its texts and hover titles; its ``data-`` attributes are data)."""
    steps = api.client.get(f"/games/{gid}/timeline", params={"lang": lang}).json()["steps"]
    rulings = []
    for s in steps:
        r = api.client.get(f"/games/{gid}/events/{s['seq']}/ruling", params={"lang": lang}).json()["ruling"]
        if r:
            rulings += [r.get("summary") or "", *(x["text"] for x in r.get("steps", ()))]
    svg = api.client.get(f"/games/{gid}/board.svg", params={"lang": lang}).text
    return {"timeline": [s["summary"] for s in steps], "rulings": rulings,
            "board": [html.unescape(t) for t in re.findall(r">([^<>]+)<", svg) if t.strip()]}


def test_a_smoke_games_own_sentences_name_each_seat_by_its_name(api: Api):
    """Clouds of Smoke's summaries, rulings and board picture (domain/smoke/seat_words.py): ``Гравець 1`` in Ukrainian,
    ``Игрок 1`` in Russian, ``Player 1`` in English; never ``player-1``. The ids stay in the data: the events'
    payloads and ``actor``, the picture's ``data-seat``."""
    g, _ = api.play_random("smoke", "BTL-OPEN-FIELD", 40)
    gid = g["game_id"]
    for lang, name in SMOKE_PLAYER_1.items():
        said = _smoke_texts(api, gid, lang)
        for where, texts in said.items():
            assert texts, (lang, where)
            ids = [t for t in texts if SMOKE_SEAT_ID.search(t)]
            assert ids == [], (lang, where, ids[:5])
        assert any(name in t for t in said["timeline"]), (lang, said["timeline"][:20])
        assert any(name in t for t in said["rulings"]), lang
        assert any(name in t for t in said["board"]), (lang, said["board"][:20])
    events = api.client.get(f"/games/{gid}/events", params={"lang": "uk", "limit": 1000}).json()["events"]
    assert {e["actor"] for e in events} >= {"player-1"}  # the seat's id: data
    assert any(e["payload"].get("seat") == "player-1" for e in events)
    assert 'data-seat="player-1"' in api.client.get(f"/games/{gid}/board.svg", params={"lang": "uk"}).text
