"""Clouds of Smoke's names made of words and seats (the general of player-1, commander 2 of player-3, Karl of
player-1 and player-3) in the reader's language (issue 28): a whole four-player game, played to its end by the
service's bots over the real app (real SQLite, real Redis read models), read afterwards in Russian (the
rulebook's полководец and командующий, the sides' printed titles) and in the pseudo-locale: its timeline, its
log's summaries and every ruling hold no English name phrase, and its English still names each id as before."""
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
PLAYERS = 4  # two seats a side: a side's name joins its seats ("Karl of player-1 and player-3")
#: An English name phrase made from seats: what must never reach a reader of another language.
ENGLISH_NAME = re.compile(r"of player-\d|the general|commander \d| and player-\d")


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
    # English reads as it did: each side by its printed title and seats, each general by its seat, beside the id
    assert "Karl of player-1 and player-3 (karl)" in said and "Vertumn of player-2 and player-4 (vertumn)" in said
    # (a general is named where it rides or is risked: the bots' game nearly always has one)
    generals = sorted(set(re.findall(r"the general of (player-\d) \(P(\d)-G\)", said)))
    assert all(seat == f"player-{n}" for seat, n in generals), generals
    assert not re.search(r"[{}⟦]|Message\(", said)

    ru = _texts(api, gid, "ru")
    assert len(ru) == len(en)
    leaks = [t for t in ru if ENGLISH_NAME.search(t)]
    assert leaks == [], leaks[:5]
    said_ru = " ".join(ru)
    assert "Карл игроков player-1 и player-3 (karl)" in said_ru and "Вертумн игроков player-2 и player-4 (vertumn)" in said_ru
    for seat, n in generals:  # the rulebook's полководец, wherever English named a general
        assert f"полководец игрока {seat} (P{n}-G)" in said_ru

    pseudo = _texts(api, gid, "x-pseudo")
    assert len(pseudo) == len(en)
    leaks = [t for t in pseudo if ENGLISH_NAME.search(t)]
    assert leaks == [], leaks[:5]
    said_pseudo = " ".join(pseudo)
    # every word of a name marked: the phrase, the side's printed title, the joint between its seats
    assert "⟦⟦Kárl⟧ óf ⟦player-1⟦ áňd ⟧player-3⟧⟧ (karl)" in said_pseudo
    for seat, n in generals:
        assert f"⟦thé géňérál óf {seat}⟧ (P{n}-G)" in said_pseudo


@pytest.mark.parametrize("lang, general, commander, side", [
    ("en", "the general of player-1", "commander 2 of player-3", "Karl of player-1 and player-3"),
    ("ru", "полководец игрока player-1", "командующий 2 игрока player-3", "Карл игроков player-1 и player-3"),
    ("uk", "полководець гравця player-1", "командувач 2 гравця player-3", "Карл гравців player-1 і player-3"),
    ("cs", "vojevůdce hráče player-1", "velitel 2 hráče player-3", "Karel hráčů player-1 a player-3"),
    ("it", "il generale di player-1", "comandante 2 di player-3", "Carlo di player-1 e player-3"),
    ("x-pseudo", "⟦thé géňérál óf player-1⟧", "⟦čómmáňdér 2 óf player-3⟧", "⟦⟦Kárl⟧ óf ⟦player-1⟦ áňd ⟧player-3⟧⟧"),
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
    assert singular == {"en": "Karl of player-1", "ru": "Карл игрока player-1", "uk": "Карл гравця player-1",
                        "cs": "Karel hráče player-1", "it": "Carlo di player-1",
                        "x-pseudo": "⟦⟦Kárl⟧ óf player-1⟧"}[lang]
