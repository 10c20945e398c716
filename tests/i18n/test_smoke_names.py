"""Clouds of Smoke's names made of words and seats (the general of Player 1, commander 2 of Player 3, Karl of
Player 1 and Player 3: each seat by its name, docs/seat-names.md) in the reader's language (issue 28): a whole four-player game, played to its end by the
service's bots over the real app (real SQLite, real Redis read models), read afterwards in Russian (the
rulebook's полководец and командующий, the sides' printed titles) and in the pseudo-locale: its timeline, its
log's summaries and every ruling hold no English name phrase and no seat id, and its English names each id."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from domain.kernel import registry, words
from domain.kernel.runner import Game
from service import i18n
from service.app import create_app
from service.settings import Settings
from tests import polling
from tests.service.api_client import Api

SEED = "3c" * 32
PLAYERS = 4  # two seats a side: a side's name joins its seats ("Karl of Player 1 and Player 3")
#: An English name phrase made from seats: what must never reach a reader of another language.
ENGLISH_NAME = re.compile(r"of player-\d|the general|commander \d| and player-\d|Player \d")
#: A seat's id: never in a sentence, in any language (docs/seat-names.md).
SEAT_ID = re.compile(r"\bplayer-\d")


@pytest.fixture
def api(tmp_path, redis_url, redis_client, monkeypatch) -> Iterator[Api]:
    """The app with the Redis read models (the timeline comes from the projection) and its bot worker; the
    pseudo-locale spoken (a test server's switch, service/language.py)."""
    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    with TestClient(app) as client:
        yield Api(client, str(tmp_path / "data"))


def _texts(api: Api, gid: str, lang: str) -> list[str]:
    """Every sentence a reader of ``lang`` reads of the game: its timeline, its log's summaries, each ruling's
    summary and steps."""
    steps = api.client.get(f"/games/{gid}/timeline", params={"lang": lang}).json()["steps"]
    out = [s["summary"] for s in steps]
    events = api.client.get(f"/games/{gid}/events", params={"lang": lang, "limit": 1000}).json()["events"]
    out += [e["summary"] for e in events]
    for s in steps:
        r = api.client.get(f"/games/{gid}/events/{s['seq']}/ruling", params={"lang": lang}).json()["ruling"]
        if r:
            out += [r.get("summary") or "", *(x["text"] for x in r.get("steps", ()))]
    return out


def test_a_four_player_smoke_game_names_its_generals_and_sides_in_each_language(api: Api):
    seats = [f"player-{i}" for i in range(1, PLAYERS + 1)]
    r = api.client.post("/games", json={"ruleset": "smoke", "scenario": "BTL-CROSSROADS", "seed": SEED,
                                        "options": {"players": PLAYERS}, "bots": {s: "random" for s in seats}})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    done = polling.until(lambda: api.view(gid)["status"] == "finished", timeout=300)
    assert done, "the bots did not finish the game"

    en = _texts(api, gid, "en")
    assert len(en) > 200
    said = " ".join(en)
    # English: each side by its printed title and its seats' names, each general by its seat's name, beside the id
    assert "Karl of Player 1 and Player 3 (karl)" in said and "Vertumn of Player 2 and Player 4 (vertumn)" in said
    # (a general is named where it rides or is risked: the bots' game nearly always has one)
    generals = sorted(set(re.findall(r"the general of Player (\d) \(P(\d)-G\)", said)))
    assert generals and all(seat == n for seat, n in generals), generals
    assert not re.search(r"[{}⟦]|Message\(", said)
    assert [t for t in en if SEAT_ID.search(t)] == []  # every seat by its name: "Player 1 ends placement"
    assert "Player 1 ends placement" in said or "Player 1 rolls" in said

    ru = _texts(api, gid, "ru")
    assert len(ru) == len(en)
    leaks = [t for t in ru if ENGLISH_NAME.search(t) or SEAT_ID.search(t)]
    assert leaks == [], leaks[:5]
    said_ru = " ".join(ru)
    assert "Карл (Игрок 1 и Игрок 3) (karl)" in said_ru and "Вертумн (Игрок 2 и Игрок 4) (vertumn)" in said_ru
    for seat, n in generals:  # the rulebook's полководец, wherever English named a general
        assert f"полководец (Игрок {seat}) (P{n}-G)" in said_ru

    pseudo = _texts(api, gid, "x-pseudo")
    assert len(pseudo) == len(en)
    leaks = [t for t in pseudo if ENGLISH_NAME.search(t) or SEAT_ID.search(t)]
    assert leaks == [], leaks[:5]
    said_pseudo = " ".join(pseudo)
    # every word of a name marked: the phrase, the side's printed title, the seats' names, the joint between them
    assert "⟦⟦Kárl⟧ óf ⟦⟦Pláýér 1⟧⟦ áňd ⟧⟦Pláýér 3⟧⟧⟧ (karl)" in said_pseudo
    for seat, n in generals:
        assert f"⟦thé géňérál óf ⟦Pláýér {seat}⟧⟧ (P{n}-G)" in said_pseudo


@pytest.mark.parametrize("lang, general, commander, side", [
    ("en", "the general of Player 1", "commander 2 of Player 3", "Karl of Player 1 and Player 3"),
    ("ru", "полководец (Игрок 1)", "командующий 2 (Игрок 3)", "Карл (Игрок 1 и Игрок 3)"),
    ("uk", "полководець (Гравець 1)", "командувач 2 (Гравець 3)", "Карл (Гравець 1 і Гравець 3)"),
    ("cs", "vojevůdce (Hráč 1)", "velitel 2 (Hráč 3)", "Karel (Hráč 1 a Hráč 3)"),
    ("it", "il generale di Giocatore 1", "comandante 2 di Giocatore 3", "Carlo di Giocatore 1 e Giocatore 3"),
    ("x-pseudo", "⟦thé géňérál óf ⟦Pláýér 1⟧⟧", "⟦čómmáňdér 2 óf ⟦Pláýér 3⟧⟧", "⟦⟦Kárl⟧ óf ⟦⟦Pláýér 1⟧⟦ áňd ⟧⟦Pláýér 3⟧⟧⟧"),
])
def test_every_name_of_a_smoke_game_reads_in_every_language(lang, general, commander, side):
    """``names(state)`` of every battle and line-up: each name in each language, none of them English outside
    English (a commander numbered as the game numbers it; a side declined by its number of seats)."""
    rs = registry.get("smoke")
    for sc in rs.scenarios():
        for players in sorted({lu.players for lu in rs.content().battles[sc.id].line_ups}):
            g = Game(rs, sc.id, seed=bytes(32), game_id="names", options={"players": players})
            names = i18n.translated_names(words.names_of(rs, g.state), lang)
            assert names and all(isinstance(v, str) for v in names.values())
            if lang != "en":
                assert [v for v in names.values() if ENGLISH_NAME.search(v)] == [], (sc.id, players)
            if players == 4:
                assert (names["P1-G"], names["P3-C2"], names["karl"]) == (general, commander, side)
    one = Game(rs, "BTL-CROSSROADS", seed=bytes(32), game_id="names", options={"players": 2})
    singular = i18n.translated_names(words.names_of(rs, one.state), lang)["karl"]
    assert singular == {"en": "Karl of Player 1", "ru": "Карл (Игрок 1)", "uk": "Карл (Гравець 1)",
                        "cs": "Karel (Hráč 1)", "it": "Carlo di Giocatore 1",
                        "x-pseudo": "⟦⟦Kárl⟧ óf ⟦Pláýér 1⟧⟧"}[lang]
