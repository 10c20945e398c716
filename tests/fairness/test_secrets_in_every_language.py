"""Attacks through the reader's language on the reads the other language tests leave out (issue 28).

tests/fairness/test_words_in_every_language.py reads the view, timeline, log, rulings and legal commands of a
Hoth game and the Emperor's in several languages. Here, as a player who wants to win unfairly, the rest:
past states (``/states/{seq}``), the board picture now and at a past step (``board.svg?at=``), the pushed feed
from a ``Last-Event-ID`` (its words rendered once for the feed), the rulings of the last steps, and the language
chosen by ``Accept-Language`` as well as ``?lang=`` -- in English, Ukrainian, Czech, Russian, Italian and the
pseudo-locale (really spoken here: the server is told ``UMPIRE_PSEUDO_LOCALE=1``; without it ``x-pseudo`` is
English). A rendered message writes an id as ``Printed name (id)`` (the game's names map, built from the whole
state), so a secret written as ids in English would be written differently in another language: the searches
below look for it in every shape.

Secrets: Clouds of Smoke's column numbering (SMOKE-DEP-2, secret until SMOKE-DEP-3 reveals it), the Emperor's
order deck (SOLO-ORD-2: face down for everyone until the end), and the Battle of Hoth's hands and decks (two
seats and teams: a teammate's hand is hidden too). Each check is shown to see the secret where it may be seen
(the columns' owner; an order card once turned up; a hand's holder), so it can fail.

Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import json
import random
import re

import msgspec
import pytest
from litestar.testing import TestClient

from domain.kernel import registry
from service.app import create_app
from service.language import PSEUDO
from service.settings import Settings

LANGS = ("en", "uk", "cs", "ru", "it", PSEUDO)
OPENING = ("game_created", "game_opened")
UNIT = re.compile(r"P\d-\d\d")
#: What may stand between two ids of one list written out (``, ``, ``"``, a printed name and its brackets),
#: never an object's or a tag's boundary, a list's bracket or a new line.
_GAP = re.compile(r'[^{}<>\[\]\n:]{0,60}')


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def _how(tok: str | None, lang: str, step: int) -> tuple[dict[str, str], dict[str, str]]:
    """(headers, query) asking for ``lang``: by ``?lang=`` on even steps, by ``Accept-Language`` on odd ones."""
    h = {"Authorization": f"Bearer {tok}"} if tok else {}
    if step % 2:
        return {**h, "Accept-Language": f"{lang};q=0.9, de;q=0.5"}, {}
    return h, {"lang": lang}


def _feed(c: TestClient, gid: str, version: int, headers: dict, query: dict, n: int = 4) -> str:
    """The feed's last ``n`` events (opened with ``Last-Event-ID``; it closes after them), without the opening's
    (it lists every card of the game, which tells nothing of where each is)."""
    n = min(n, version)
    r = c.get(f"/games/{gid}/feed", headers={**headers, "Last-Event-ID": str(version - n)},
              params={"after": 0, "limit": n, **query})
    assert r.status_code == 200, r.text
    shown = [line[5:] for line in r.text.splitlines() if line.startswith("data:")]
    return "\n".join(d for d in shown if json.loads(d).get("type") not in OPENING)


def _reads(c: TestClient, gid: str, tok: str | None, lang: str, step: int, version: int) -> dict[str, str]:
    h, q = _how(tok, lang, step)
    out = {}
    for seq in (version, max(0, version - 1)):
        r = c.get(f"/games/{gid}/states/{seq}", headers=h, params=q)
        assert r.status_code == 200, r.text
        out[f"state {seq}"] = r.text
        r = c.get(f"/games/{gid}/board.svg", headers=h, params={"at": seq, **q})
        assert r.status_code == 200, r.text
        out[f"board {seq}"] = r.text
    for seq in range(max(1, version - 2), version + 1):
        out[f"ruling {seq}"] = c.get(f"/games/{gid}/events/{seq}/ruling", headers=h, params=q).text
    out["board"] = c.get(f"/games/{gid}/board.svg", headers=h, params=q).text
    out["view"] = c.get(f"/games/{gid}", headers=h, params=q).text
    out["feed"] = _feed(c, gid, version, h, q)
    if tok:
        out["legal"] = c.get(f"/games/{gid}/legal-commands", headers=h, params=q).text
    return out


# -- Smoke: the secret columns ------------------------------------------------------------------------------
def _lists(text: str) -> list[frozenset[str]]:
    """Every list of unit ids written out in ``text`` (ids one after another with only words between them:
    ``P1-01, P1-02``, ``["P1-01", "P1-02"]``, ``Лінійна піхота (P1-01), ...``), as sets."""
    out, run, end = [], [], -1
    for m in UNIT.finditer(text):
        if run and _GAP.fullmatch(text[end:m.start()]):
            run.append(m.group(0))
        else:
            if len(run) >= 2:
                out.append(frozenset(run))
            run = [m.group(0)]
        end = m.end()
    if len(run) >= 2:
        out.append(frozenset(run))
    return out


def _shown(columns: list[frozenset[str]], texts: dict[str, str]) -> list[tuple[str, frozenset[str]]]:
    return [(route, col) for route, text in texts.items() for found in _lists(text) for col in columns
            if found == col]


def test_smokes_secret_columns_reach_the_other_seat_in_no_language_and_by_no_read(client):
    c, smoke = client, registry.get("smoke")
    g = c.post("/games", json={"ruleset": "smoke", "scenario": "BTL-OPEN-FIELD", "seed": "3c" * 32})
    assert g.status_code == 201, g.text
    gid, tokens = g.json()["game_id"], g.json()["seats"]
    svc = c.app.state.games
    rng, checked, owner_saw = random.Random(5), 0, 0
    for step in range(80):
        cur = svc.current(gid)
        d = cur.state.deployment
        if d is not None:
            for owner, cols in d.columns.items():
                every = {u for col in cols for u in col}
                secret = [frozenset(col) for col in cols if 2 <= len(col) < len(every)]
                if not secret or owner in d.revealed:
                    continue
                for i, (other, tok) in enumerate([*((s, t) for s, t in tokens.items() if s != owner),
                                                  ("spectator", None)]):
                    lang = LANGS[(step + i) % len(LANGS)]
                    leaked = _shown(secret, _reads(c, gid, tok, lang, step + i, cur.version))
                    assert not leaked, (owner, other, lang, leaked)
                    checked += 1
                # the check sees the columns where they may be seen: their owner's reads, in a language
                lang = LANGS[step % len(LANGS)]
                own = _reads(c, gid, tokens[owner], lang, step, cur.version)
                own["events"] = c.get(f"/games/{gid}/events", params={"limit": 1000, "lang": lang},
                                      headers={"Authorization": f"Bearer {tokens[owner]}"}).text
                owner_saw += bool(_shown(secret, own))
        if cur.status.status == "finished":
            break
        seat = cur.status.to_act[0]
        cmds = smoke.legal_commands(cur.state, seat)
        if not cmds:
            break
        body = msgspec.to_builtins(cmds[0] if rng.random() < 0.8 else rng.choice(cmds))
        r = c.post(f"/games/{gid}/commands", json={"command": body, "expected_version": cur.version},
                   headers={"Authorization": f"Bearer {tokens[seat]}"}, params={"lang": LANGS[step % len(LANGS)]})
        assert r.status_code == 201, r.text
        if any(e["type"] == "columns_revealed" for e in r.json().get("events", [])):
            break
    assert checked >= 4 and owner_saw >= 2, (checked, owner_saw)


# -- the Emperor: the order deck face down ------------------------------------------------------------------
ORDER = re.compile(r"(?<![A-Za-z0-9_-])O\d+(?![A-Za-z0-9_-])")


def test_the_emperors_face_down_orders_reach_nobody_in_any_language_by_states_pictures_or_the_feed(client):
    c, rng = client, random.Random(9)
    svc = c.app.state.games
    g = c.post("/games", json={"ruleset": "emperor", "scenario": "SETUP-AKHENA-VS-REBEL", "seed": "4d" * 32}).json()
    gid, tok = g["game_id"], g["seats"]["human"]
    h = {"Authorization": f"Bearer {tok}"}
    checked, turned = 0, set()
    for step in range(100):
        cur = svc.current(gid)
        if cur.finished:
            break
        face_down = set(cur.state.order_deck)
        events = [e for e in c.get(f"/games/{gid}/events", params={"limit": 1000}).json()["events"]
                  if e["type"] not in OPENING]
        public = set(ORDER.findall(json.dumps(events)))
        turned |= public - face_down
        for i, reader in enumerate((tok, None)):
            lang = LANGS[(step + i) % len(LANGS)]
            texts = _reads(c, gid, reader, lang, step + i, cur.version)
            named = {x for t in texts.values() for x in ORDER.findall(t)} - public
            assert not (named & face_down), (lang, reader is None, named & face_down)
            checked += bool(face_down - public)
        legal = c.get(f"/games/{gid}/legal-commands", headers=h).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        if not cmds:
            break
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers=h)
        assert r.status_code == 201, r.text
    assert checked >= 10, checked
    # the check sees an order card where it may be seen: one turned up is named by the reads
    assert turned, "no order card was turned up"
    cur = svc.current(gid)
    texts = _reads(c, gid, None, "uk", 0, cur.version)
    texts["events"] = c.get(f"/games/{gid}/events", params={"limit": 1000, "lang": "uk"}).text
    assert {x for t in texts.values() for x in ORDER.findall(t)} & turned


# -- the Battle of Hoth: hands and decks, two seats and teams ------------------------------------------------
CARD_ID = re.compile(r"(?:PROP-)?(?:EMP|REB)-[A-Z0-9-]*[A-Z0-9]")


def public_cards(c: TestClient, gid: str) -> set[str]:
    """The card ids the game's log shows everybody (the opening's catalogue left out)."""
    log = [e for e in c.get(f"/games/{gid}/events", params={"limit": 1000}).json()["events"]
           if e["type"] not in OPENING]
    return set(CARD_ID.findall(json.dumps(log)))


def hoth_secrets(state, seat: str | None, public: set[str]) -> tuple[set[str], set[str]]:
    """(the cards ``seat`` holds, the cards it may not see: another hand's, a teammate's too, or a deck's)."""
    mine = set(state.hands.get(seat, ())) if seat else set()
    secret = {x for s, hand in state.hands.items() if s != seat for x in hand}
    secret |= {x for deck in state.decks.values() for x in deck}
    return mine, secret - public - mine


@pytest.mark.parametrize("options", [{}, {"team": True}], ids=["two-seats", "teams"])
def test_no_hoth_hand_or_deck_reaches_another_reader_by_past_states_pictures_or_the_feed(client, options):
    """A seat reads its own hand only (a teammate's is hidden too); nobody reads a deck. Ids only: the opening
    lists the whole catalogue, and two copies of one card share a title."""
    c, rng = client, random.Random(17)
    svc = c.app.state.games
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "options": options,
                               "seed": "2b" * 32}).json()
    gid, tokens = g["game_id"], g["seats"]
    readers: list[tuple[str | None, str | None]] = [*tokens.items(), (None, None)]
    checked = own_seen = 0
    for step in range(30):
        cur = svc.current(gid)
        if cur.finished:
            break
        public = public_cards(c, gid)
        for i, (seat, tok) in enumerate(readers):
            mine, secret = hoth_secrets(cur.state, seat, public)
            lang = LANGS[(step + i) % len(LANGS)]
            texts = _reads(c, gid, tok, lang, step + i, cur.version)
            named = {x for t in texts.values() for x in CARD_ID.findall(t)}
            assert not (named & secret), (seat, lang, sorted(named & secret))
            own_seen += bool(mine) and mine <= named  # the check sees a hand where it may: its holder's reads
            checked += 1
        seat = cur.status.to_act[0]
        legal = c.get(f"/games/{gid}/legal-commands", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers={"Authorization": f"Bearer {tokens[seat]}"}, params={"lang": LANGS[step % len(LANGS)]})
        assert r.status_code == 201, r.text
    assert checked >= 60 and own_seen >= 20, (checked, own_seen)
