"""Attacks through the reader's language (issue 28) as a player who wants to win unfairly.

A sentence is a message (an id and its parameters) rendered at the edge in the language the request asks
for. A message's parameters travel beside the English text (``summary_message``, ``label_message``,
``message``...), and the renderer puts printed names in place of ids. Either could say more than the English
text the reader is allowed: a parameter naming a card the reader may not know, or a name map that writes a
secret card's printed name. The attack: in a real Battle of Hoth game over HTTP (litestar's TestClient on a
real SQLite file), at every step, read every route that returns words (the view, the timeline, the events,
each step's ruling, the legal commands) as each seat and as a watcher, in English, Ukrainian, Czech, Russian and the
pseudo-locale, and look for a card that is in another hand or face down in a deck: by its id, by its English
title or by its title in that language.
"""
from __future__ import annotations

import json
import random
import re

import pytest
from litestar.testing import TestClient

from domain.kernel import registry
from service.app import create_app
from service.i18n import term
from service.language import PSEUDO
from service.settings import Settings

LANGS = ("en", "uk", "cs", "ru", PSEUDO)
#: The opening events list the whole card catalog (which cards exist is public; where they are is not): a card
#: named there proves nothing, so they are left out of what is searched and of what counts as public.
OPENING = ("game_created", "game_opened")
CARD_ID = re.compile(r"(?:PROP-)?(?:EMP|REB)-[A-Z0-9-]*[A-Z0-9]")


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")  # else x-pseudo is refused for English: the pseudo reads are real
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def _words(c: TestClient, gid: str, token: str | None, lang: str, version: int) -> str:
    """Everything the routes that return words answer this reader in ``lang``."""
    h = {"Authorization": f"Bearer {token}"} if token else {}
    q = {"lang": lang}
    parts = [c.get(f"/games/{gid}", headers=h, params=q),
             c.get(f"/games/{gid}/timeline", headers=h, params=q),
             c.get(f"/games/{gid}/events", headers=h, params={**q, "limit": 1000})]
    parts += [c.get(f"/games/{gid}/events/{seq}/ruling", headers=h, params=q) for seq in range(max(1, version - 3), version + 1)]
    if token:
        parts.append(c.get(f"/games/{gid}/legal-commands", headers=h, params=q))
    for r in parts:
        assert r.status_code in (200, 404), (r.request.url, r.status_code, r.text[:300])
    texts = [r.text for r in parts[:2] + parts[3:] if r.status_code == 200]
    events = [e for e in parts[2].json()["events"] if e["type"] not in OPENING]
    return "\n".join(texts + [json.dumps(events, ensure_ascii=False)])


def test_no_language_names_a_card_the_reader_may_not_know(client):
    c, rng = client, random.Random(28)
    hoth = registry.get("hoth")
    svc = c.app.state.games
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD"}).json()
    gid, tokens = g["game_id"], g["seats"]
    titles = {cid: card.title for cid, card in hoth.catalog().cards.items()}
    readers: dict[str | None, str | None] = {**{s: t for s, t in tokens.items()}, None: None}
    checked = localized = marked = 0
    for step in range(45):
        cur = svc.current(gid)
        if cur.finished:
            break
        played = set(CARD_ID.findall(c.get(f"/games/{gid}/events", params={"limit": 1000}).text))
        for seat, tok in readers.items():
            secret = {x for s, hand in cur.state.hands.items() if s != seat for x in hand}
            secret |= {x for deck in cur.state.decks.values() for x in deck}
            secret -= played | set(cur.state.hands.get(seat, ()) if seat else ())
            lang = LANGS[(step + len(str(seat))) % len(LANGS)]  # every reader in every language over the game
            text = _words(c, gid, tok, lang, cur.version)
            leaked_ids = set(CARD_ID.findall(text)) & secret
            assert not leaked_ids, (seat, lang, leaked_ids)
            # a title shared with a card the reader may know (two copies of one card) proves nothing
            known_titles = {titles[x] for x in titles if x not in secret}
            for cid in secret:
                title = titles.get(cid)
                if not title or title in known_titles or len(title) < 6:
                    continue
                for name in {title, term(title, lang)}:
                    assert name not in text, (seat, lang, cid, name)
            localized += lang != PSEUDO and "_message" in text
            marked += lang == PSEUDO and "⟦" in text
            checked += 1
        seat = cur.status.to_act[0]
        h = {"Authorization": f"Bearer {tokens[seat]}"}
        legal = c.get(f"/games/{gid}/legal-commands", headers=h).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers=h)
        assert r.status_code == 201, r.text
    assert checked >= 60 and localized and marked, (checked, localized, marked)


def test_no_language_names_an_order_card_still_face_down(client):
    """SOLO-ORD-2: nobody sees the order deck's order until the end; the human's words in every language (its
    legal commands' labels and warnings, the timeline, the rulings) name no order card still face down."""
    c, rng = client, random.Random(5)
    svc = c.app.state.games
    g = c.post("/games", json={"ruleset": "emperor", "scenario": "SETUP-AKHENA-VS-REBEL"}).json()
    gid, tok = g["game_id"], g["seats"]["human"]
    h = {"Authorization": f"Bearer {tok}"}
    word = re.compile(r"(?<![A-Za-z0-9_-])O\d+(?![A-Za-z0-9_-])")
    checked = 0
    for step in range(120):
        cur = svc.current(gid)
        if cur.finished:
            break
        face_down = set(cur.state.order_deck)
        events = [e for e in c.get(f"/games/{gid}/events", params={"limit": 1000}).json()["events"]
                  if e["type"] not in OPENING]
        public = set(word.findall(c.get(f"/games/{gid}").text + json.dumps(events)))
        for reader in (tok, None):
            lang = LANGS[(step + (reader is None)) % len(LANGS)]
            named = set(word.findall(_words(c, gid, reader, lang, cur.version))) - public
            assert not (named & face_down), (lang, named & face_down)
            checked += bool(face_down - public)
        legal = c.get(f"/games/{gid}/legal-commands", headers=h).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        if not cmds:
            break
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers=h)
        assert r.status_code == 201, r.text
    assert checked >= 10, checked


@pytest.mark.parametrize("options", [{}, {"team": True}], ids=["two-seats", "teams"])
def test_a_command_answer_and_its_dry_run_in_any_language_name_no_card_the_actor_may_not_know(client, options):
    """Command answers and dry runs speak the reader's language (``?lang=``): the words of a dry run (before its
    first reveal) and of the command's own answer name no card in another hand or a deck, by id, that the
    actor's own view and the public log do not name once the command is stored (two seats and teams)."""
    c, rng = client, random.Random(31)
    svc = c.app.state.games
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "options": options}).json()
    gid, tokens = g["game_id"], g["seats"]
    langs = (*LANGS, "it")
    checked = 0
    for step in range(40):
        cur = svc.current(gid)
        if cur.finished:
            break
        seat = cur.status.to_act[0]
        h = {"Authorization": f"Bearer {tokens[seat]}"}
        lang = langs[step % len(langs)]
        hidden = {x for hand in cur.state.hands.values() for x in hand} | {x for d in cur.state.decks.values() for x in d}
        legal = c.get(f"/games/{gid}/legal-commands", headers=h).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        body = {"command": rng.choice(cmds), "expected_version": legal["version"]}
        dry = c.post(f"/games/{gid}/commands", json=body, headers=h, params={"dry_run": "true", "lang": lang})
        assert dry.status_code == 200, dry.text
        known = set(CARD_ID.findall(c.get(f"/games/{gid}", headers=h).text + c.get(
            f"/games/{gid}/events", params={"limit": 1000}).text))
        assert not (set(CARD_ID.findall(dry.text)) & hidden) - known, (seat, lang, "dry run")
        r = c.post(f"/games/{gid}/commands", json=body, headers=h, params={"lang": lang})
        assert r.status_code == 201, r.text
        known = set(CARD_ID.findall(c.get(f"/games/{gid}", headers=h).text + c.get(
            f"/games/{gid}/events", headers=h, params={"limit": 1000}).text))
        assert not (set(CARD_ID.findall(r.text)) & hidden) - known, (seat, lang, "answer")
        checked += 1
    assert checked >= 30, checked
