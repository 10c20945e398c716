"""Attacks through the reader's language, as a differential: what a language says beside what English says.

A player who wants to win unfairly asks the same thing twice, once in English and once in another language
(``?lang=`` or ``Accept-Language``: Ukrainian, Czech, Russian, Italian and the pseudo-locale, spoken here
because the server is told ``UMPIRE_PSEUDO_LOCALE=1``), and looks for anything the other language says that
English does not. The other tests in this folder look for the secrets they know of (a hand, a deck, the
columns, the order deck); this one needs no list of secrets, so it also catches a secret nobody listed:

- **shape**: a body in another language is the English body with only its words changed: every key, every
  number, every list's length, every true and false the same (the strings blanked on both sides);
- **ids**: every id of the game (a unit, a card, a warrior, an order card, a location, a column's unit: the
  keys of the game's names map built from the *whole* state, and the id-like strings of the whole state)
  written in the other language's answer is written in English too. The renderer writes a printed name as
  ``Name (id)``, so a names map or a parameter that named a hidden thing would show its id here.

Routes, for every seat and a watcher, at every step: the view, the past states now and one before, the legal
commands (labels and warnings), the events, the rulings of the last steps, the timeline, ``board.svg`` now
and one step before, the feed (``Last-Event-ID``), a dry run of a legal command, a refused command (a problem
detail), the campaign. Games: the Battle of Hoth with two seats and with teams (hands, decks), Clouds of Smoke
(the secret columns), the Emperor (the order deck face down), and a Hoth campaign's second battle (the kept
support cards, sealed, UMPIRE-SEAL-1..3).

Then the refusals as an oracle: a card named in a refused command is answered the same (in every language)
whether it lies in the opponent's hand, in a deck or nowhere; and an attack on the second outcome of a draw: a
command refused in one language, a dry run and a retry in another, give the one outcome the log keeps.

Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import json
import random
import re
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from domain.kernel import words
from service.app import create_app
from service.language import PSEUDO
from service.settings import Settings

LANGS = ("uk", "cs", "ru", "it", PSEUDO)
TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*[A-Za-z0-9]")
#: Strings of a state that look like ids: no space, a digit or a dash in them (``P1-03``, ``EMP-SECTION-2``,
#: ``O7``, ``L3``), and not a number alone.
ID_LIKE = re.compile(r"^(?=.*[0-9-])(?![0-9.-]+$)[A-Za-z0-9][A-Za-z0-9_-]{1,40}$")


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def _auth(tok: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"} if tok else {}


def _ask(lang: str | None, how: int) -> tuple[dict[str, str], dict[str, str]]:
    """(headers, query) for ``lang`` (None: English, asked for by nothing): ``?lang=`` or ``Accept-Language``."""
    if lang is None:
        return {}, {}
    if how % 2:
        return {"Accept-Language": f"{lang};q=0.9, en;q=0.1"}, {}
    return {}, {"lang": lang}


def _shape(node: Any) -> Any:
    """``node`` with every string blanked: what is left is what a language must not change."""
    if isinstance(node, str):
        return ""
    if isinstance(node, dict):
        return {k: _shape(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_shape(v) for v in node]
    return node


def _strings(node: Any, out: set[str]) -> set[str]:
    if isinstance(node, str):
        out.add(node)
    elif isinstance(node, dict):
        for k, v in node.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(node, (list, tuple)):
        for v in node:
            _strings(v, out)
    return out


def universe(svc: Any, gid: str) -> set[str]:
    """Every id of the game: its names map (built from the whole state) and the id-like strings of the state."""
    cur = svc.current(gid)
    ids = set(words.names_of(cur.ruleset, cur.state))
    ids |= {s for s in _strings(msgspec.to_builtins(cur.state), set()) if ID_LIKE.match(s)}
    return ids


def _ids(text: str, ids: set[str]) -> set[str]:
    return {t for t in TOKEN.findall(text) if t in ids}


def _sse(text: str) -> list[Any]:
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]


def reads(c: TestClient, gid: str, tok: str | None, lang: str | None, how: int) -> dict[str, tuple[Any, str]]:
    """Every read of ``gid`` by ``tok`` in ``lang``: {route: (parsed body, text)}."""
    extra, q = _ask(lang, how)
    h = {**_auth(tok), **extra}
    out: dict[str, tuple[Any, str]] = {}

    def get(name: str, path: str, **params: Any) -> Any:
        r = c.get(path, headers=h, params={**params, **q})
        assert r.status_code in (200, 404), (name, lang, r.status_code, r.text[:300])
        body = r.json() if "json" in r.headers.get("content-type", "") else None
        out[name] = (body, r.text)
        return body

    view = get("view", f"/games/{gid}")
    version = view["version"]
    for seq in {version, max(0, version - 1)}:
        get(f"state {seq}", f"/games/{gid}/states/{seq}")
        get(f"board {seq}", f"/games/{gid}/board.svg", at=seq)
    get("board", f"/games/{gid}/board.svg")
    get("events", f"/games/{gid}/events", limit=1000)
    get("timeline", f"/games/{gid}/timeline")
    for seq in range(max(1, version - 3), version + 1):
        get(f"ruling {seq}", f"/games/{gid}/events/{seq}/ruling")
    n = min(4, version)
    r = c.get(f"/games/{gid}/feed", headers={**h, "Last-Event-ID": str(version - n)}, params={"limit": n, **q})
    assert r.status_code == 200, r.text
    out["feed"] = (_sse(r.text), r.text)
    if tok:
        legal = get("legal", f"/games/{gid}/legal-commands")
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        if cmds:
            body = {"command": cmds[len(cmds) // 2], "expected_version": version}
            d = c.post(f"/games/{gid}/commands", json=body, headers=h, params={"dry_run": "true", **q})
            out["dry run"] = (d.json(), d.text)
        # a command no rule allows: a problem detail in the reader's language
        bad = c.post(f"/games/{gid}/commands", headers=h, params={"dry_run": "true", **q},
                     json={"command": {"type": "end_turn", "nonsense": 1}, "expected_version": version})
        out["refused"] = (bad.json(), bad.text)
    return out


def compare(c: TestClient, svc: Any, gid: str, tok: str | None, lang: str, how: int, who: Any) -> int:
    """The reads in ``lang`` against the English ones: the same shape, no id English does not write."""
    ids = universe(svc, gid)
    en = reads(c, gid, tok, None, how)
    other = reads(c, gid, tok, lang, how)
    assert set(other) == set(en), (who, lang, set(other) ^ set(en))
    for route, (body, text) in other.items():
        en_body, en_text = en[route]
        if body is not None or en_body is not None:
            assert _shape(body) == _shape(en_body), (who, lang, route, "the shape differs")
        more = _ids(text, ids) - _ids(en_text, ids)
        assert not more, (who, lang, route, sorted(more))
    return len(other)


def _step(c: TestClient, gid: str, tokens: dict[str, str], rng: random.Random, svc: Any) -> bool:
    cur = svc.current(gid)
    if cur.finished:
        return False
    seat = rng.choice([s for s in cur.status.to_act if s in tokens])
    legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(tokens[seat])).json()
    cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
    if not cmds:
        return False
    r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
               headers=_auth(tokens[seat]))
    assert r.status_code == 201, r.text
    return True


GAMES = [
    ("hoth", "SCN-TAKE-DOWN-THE-SHIELD", {}, 14),
    ("hoth", "SCN-TAKE-DOWN-THE-SHIELD", {"team": True}, 12),
    ("smoke", "BTL-OPEN-FIELD", {}, 14),
    ("emperor", "SETUP-AKHENA-VS-REBEL", {}, 14),
]


@pytest.mark.parametrize("ruleset,scenario,options,steps", GAMES,
                         ids=["hoth-two-seats", "hoth-teams", "smoke-columns", "emperor"])
def test_no_language_says_more_than_english_on_any_route(client, ruleset, scenario, options, steps):
    c, svc, rng = client, client.app.state.games, random.Random(41)
    g = c.post("/games", json={"ruleset": ruleset, "scenario": scenario, "options": options, "seed": "6e" * 32})
    assert g.status_code == 201, g.text
    gid, tokens = g.json()["game_id"], g.json()["seats"]
    readers = [*tokens.items(), (None, None)]
    checked = 0
    for step in range(steps):
        for i, (seat, tok) in enumerate(readers):
            lang = LANGS[(step + i) % len(LANGS)]
            checked += compare(c, svc, gid, tok, lang, step + i, seat)
        if not _step(c, gid, tokens, rng, svc):
            break
    assert checked >= 100, checked


def test_a_campaign_battle_with_sealed_support_says_no_more_in_any_language_than_in_english(tmp_path, monkeypatch):
    """The second battle of a Hoth campaign: the winner of the first keeps its support cards, sealed
    (UMPIRE-SEAL-1..3); every read of it, and the campaign's own, in every language against English."""
    from tests.service.test_campaigns import CAMPAIGN, play_to_the_end

    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")
    ids = iter(f"lang-battle-{n}" for n in range(1, 10))
    monkeypatch.setattr("service.game_service.new_game_id", lambda: next(ids))
    monkeypatch.setattr("service.campaigns.new_campaign_id", lambda: "c-lang-1")
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        svc = c.app.state.games
        b = c.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": "5a" * 32}).json()
        cid, tokens, first = b["campaign_id"], b["seats"], b["game_id"]
        play_to_the_end(c, first, tokens, random.Random(3))
        camp = c.get(f"/campaigns/{cid}").json()
        second = camp.get("game_id") or camp["battles"][-1]["game_id"]
        assert second != first, camp
        cur = svc.current(second)
        assert any(cur.state.support.values()), "the second battle deals no support card: nothing sealed to attack"
        rng, checked = random.Random(7), 0
        readers = [*tokens.items(), (None, None)]
        for step in range(10):
            for i, (seat, tok) in enumerate(readers):
                lang = LANGS[(step + i) % len(LANGS)]
                checked += compare(c, svc, second, tok, lang, step + i, seat)
                en = c.get(f"/campaigns/{cid}", headers=_auth(tok))
                other = c.get(f"/campaigns/{cid}", headers=_auth(tok), params={"lang": lang})
                assert _shape(other.json()) == _shape(en.json()), (seat, lang, "campaign")
                more = _ids(other.text, universe(svc, second)) - _ids(en.text, universe(svc, second))
                assert not more, (seat, lang, "campaign", sorted(more))
            if not _step(c, second, tokens, rng, svc):
                break
        assert checked >= 100, checked
