"""Attacks on the printed names players now read instead of ids (``values_named`` of a ruling's steps,
projections/views.py ``named_ruling``, service/i18n.py ``_walk``, domain/kernel/words.py ``named_values``; a Battle
of Hoth card by its title alone; refusals that name a card by its title).

1. A player (or a spectator) reads every ruling of the game, the timeline, the view, past states, the board, the
   feed and its legal commands, in every language (``?lang=`` and ``Accept-Language``), looking for the *title*
   of a card in another hand (a teammate's too) or a deck. The id searches of
   tests/fairness/test_secrets_in_every_language.py miss a card written by its title alone -- as a label now
   writes it, and as ``values_named`` writes an id -- so here each secret card is looked for by its id and by its
   title in the reader's language (a title a card the reader may see shares is no secret). Every step's
   ``values_named`` must name only that step's own values. It must fail: only a hand's holder reads its cards (the
   check sees them there, so it can fail; it fails when a view shows another hand by titles).
2. A player probes the command and discard refusals with every card id of the deck it does not hold, hoping the
   refusal says something different of a card in the opponent's hand, its teammate's, a deck or a discard pile
   (now that a refusal names a card by its title). It must fail: every such refusal reads the same but for the
   card's own name, in every language.

Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import json
import random

import pytest
from litestar.testing import TestClient

from domain.kernel import registry, words
from service import i18n
from service.app import create_app
from service.settings import Settings
from tests.fairness.test_secrets_in_every_language import (
    CARD_ID,
    LANGS,
    _how,
    _reads,
    hoth_secrets,
    public_cards,
)


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def _h(tok: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"} if tok else {}


def _steps(node):
    """Every ruling step (a dict with ``values``) in a JSON body."""
    if isinstance(node, dict):
        if "values" in node and "rule" in node:
            yield node
        for v in node.values():
            yield from _steps(v)
    elif isinstance(node, list):
        for v in node:
            yield from _steps(v)


def _every_reading(c: TestClient, gid: str, tok: str | None, lang: str, step: int, version: int) -> dict[str, str]:
    """What ``tok`` reads of the game in ``lang``: the reads of the language attacks, every ruling, the timeline."""
    out = _reads(c, gid, tok, lang, step, version)
    h, q = _how(tok, lang, step)
    for seq in range(1, version + 1):
        out[f"ruling {seq}"] = c.get(f"/games/{gid}/events/{seq}/ruling", headers=h, params=q).text
    r = c.get(f"/games/{gid}/timeline", headers=h, params=q)
    assert r.status_code == 200, r.text
    out["timeline"] = r.text
    return out


@pytest.mark.parametrize("options", [{}, {"team": True}], ids=["two-seats", "teams"])
def test_no_card_of_another_hand_or_a_deck_is_read_by_its_title_in_any_language(client, options):
    c, rng, svc = client, random.Random(23), client.app.state.games
    hoth = registry.get("hoth")
    cards = hoth.catalog().cards
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "options": options,
                               "seed": "7a" * 32}).json()
    gid, tokens = g["game_id"], g["seats"]
    readers: list[tuple[str | None, str | None]] = [*tokens.items(), (None, None)]
    checked = own_seen = named_steps = 0
    for step in range(24):
        cur = svc.current(gid)
        if cur.finished:
            break
        public, names = public_cards(c, gid), words.names_of(hoth, cur.state)
        for i, (seat, tok) in enumerate(readers):
            lang = LANGS[(step + i) % len(LANGS)]
            mine, secret = hoth_secrets(cur.state, seat, public)
            seen = {cards[x].title for x in public | mine if x in cards}
            said = {i18n.term(cards[x].title, lang): x for x in secret if x in cards and cards[x].title not in seen}
            texts = _every_reading(c, gid, tok, lang, step + i, cur.version)
            found = {(route, x) for route, t in texts.items() for x in CARD_ID.findall(t) if x in secret}
            found |= {(route, x) for route, t in texts.items() for title, x in said.items() if title in t}
            assert not found, (seat, lang, sorted(found)[:6])
            checked += bool(said)
            mine_said = {i18n.term(cards[x].title, lang) for x in mine if x in cards}
            own_seen += bool(mine_said) and all(any(t in text for text in texts.values()) for t in mine_said)
            # a step's values_named names that step's own values, nothing else
            for route, t in texts.items():
                if route.startswith(("ruling", "timeline")):
                    for s in _steps(json.loads(t)):
                        if "values_named" in s:
                            named_steps += 1
                            assert set(s["values_named"]) <= set(s["values"]), (route, s)
                            local = names if lang == "en" else i18n.translated_names(names, lang)
                            assert s["values_named"] == words.named_values(s["values"], local), (route, s)
        seat = cur.status.to_act[0]
        legal = c.get(f"/games/{gid}/legal-commands", headers=_h(tokens[seat])).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers=_h(tokens[seat]), params={"lang": LANGS[step % len(LANGS)]})
        assert r.status_code == 201, r.text
    # the check sees a hand where it may: its holder reads its cards by their titles (its legal commands)
    assert checked >= 30 and own_seen >= 15 and named_steps >= 5, (checked, own_seen, named_steps)


def _refusal(c: TestClient, gid: str, tok: str, version: int, cmd: dict, lang: str, title: str) -> tuple:
    r = c.post(f"/games/{gid}/commands", json={"command": cmd, "expected_version": version}, headers=_h(tok),
               params={"lang": lang})
    body = r.json()
    # the card's own name (its title in this language, its id) is the one word a refusal may change by
    detail = body.get("detail", "").replace(cmd.get("card") or (cmd.get("cards") or [""])[0], "<card>")
    detail = detail.replace(i18n.term(title, lang) if lang != "en" else title, "<card>")
    return r.status_code, body.get("rule"), detail


@pytest.mark.parametrize("options", [{}, {"team": True}], ids=["two-seats", "teams"])
def test_a_refused_card_says_nothing_of_where_the_card_is(client, options):
    c, svc = client, client.app.state.games
    cards = registry.get("hoth").catalog().cards
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "options": options,
                               "seed": "6c" * 32}).json()
    gid, tokens = g["game_id"], g["seats"]
    cur = svc.current(gid)
    seat = cur.status.to_act[0]
    st = cur.state
    where: dict[str, str] = {}
    for s, hand in st.hands.items():
        for x in hand:
            where.setdefault(x, "own hand" if s == seat else f"hand of {s}")
    for f, deck in st.decks.items():
        for x in deck:
            where.setdefault(x, f"deck of {f}")
    probes = {x: w for x, w in where.items() if w != "own hand" and cards[x].kind != "support"}
    places = set(probes.values())
    assert len(places) >= 2, places  # another hand and a deck at least (and a teammate's, with teams)
    for lang in LANGS:
        answers: dict[tuple, set[str]] = {}
        for x, w in sorted(probes.items()):
            got = _refusal(c, gid, tokens[seat], cur.version, {"type": "play_card", "card": x}, lang, cards[x].title)
            assert got[0] == 422, got
            answers.setdefault(got, set()).add(w)
        # one answer for every place a card may be (a second answer would tell the places apart)
        assert len(answers) == 1, (lang, {k: sorted(v) for k, v in answers.items()})
    assert svc.current(gid).version == cur.version  # nothing was played
