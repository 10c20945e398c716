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

The differential runs on the log and on the Redis projections; two self-tests plant a language-only leak (a
names map handed out, a sentence listing every id) and see it caught. Then:

- (a) a refusal as an oracle: a card named in a refused command is answered the same (in every language, as a
  command and as a dry run) whether it lies in another hand (a teammate's too), a deck, a discard pile or
  nowhere;
- (b) one outcome of a draw: dry runs in every language stop before the roll; a command refused for its
  language stores nothing; its retries in every language answer the first answer; an undo across the roll is a
  request only, which neither the roller nor its teammate may accept; a dry run and the command agree on the
  legality of legal and near-legal commands of every ruleset, so no refusal follows a draw (self-test: a
  planted refusal after the draw is caught);
- (c) a seat is its holder's: a teammate's command or dry run for the seat to act is refused and stores
  nothing, and its reads (view, legal commands, the feed by ``?token=``) name no card of its partner's hand; a
  waiting campaign's ready and view take no unclaimed invitation, no other campaign's token and no game's token.

Real app (litestar's TestClient) on a real SQLite file (and a real Redis where said).
"""
from __future__ import annotations

import json
import random
import re
import time
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


@pytest.fixture
def redis_app(tmp_path, monkeypatch, redis_client, redis_url):
    """The app answering its reads from the Redis projections where they are current (the served set-up)."""
    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))) as c:
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


#: The keys a rule's text adds when the language asked for has no text of it (service/rule_texts.py: the English
#: text stands in, ``fallback: "en"`` and a ``note`` say so): words about the answer's language, not the game.
FALLBACK_KEYS = frozenset({"fallback", "note"})


def _shape(node: Any) -> Any:
    """``node`` with every string blanked: what is left is what a language must not change."""
    if isinstance(node, str):
        return ""
    if isinstance(node, dict):
        rule_text = "url" in node and "lang" in node
        return {k: _shape(v) for k, v in node.items() if not (rule_text and k in FALLBACK_KEYS)}
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
        assert r.status_code in (200, 404, 409), (name, lang, r.status_code, r.text[:300])
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
        # a step decided again: 409 while the game runs (its seed is secret), the whole step once it is finished
        get(f"redecide {seq}", f"/games/{gid}/events/{seq}/redecide")
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
    differential(client, ruleset, scenario, options, steps)


@pytest.mark.parametrize("ruleset,scenario,options,steps", [GAMES[1], GAMES[2]], ids=["hoth-teams", "smoke-columns"])
def test_no_language_says_more_than_english_when_the_reads_come_from_redis(redis_app, ruleset, scenario, options,
                                                                            steps):
    gid = differential(redis_app, ruleset, scenario, options, steps // 2)
    projected(redis_app, gid)
    rm = redis_app.app.state.read_models
    assert rm is not None and rm.game_view(gid, None) is not None, "the reads did not come from Redis"


def differential(client: TestClient, ruleset: str, scenario: str, options: dict, steps: int) -> str:
    c, svc, rng = client, client.app.state.games, random.Random(41)
    g = c.post("/games", json={"ruleset": ruleset, "scenario": scenario, "options": options, "seed": "6e" * 32})
    assert g.status_code == 201, g.text
    gid, tokens = g.json()["game_id"], g.json()["seats"]
    readers = [*tokens.items(), (None, None)]
    checked = 0
    for step in range(steps):
        projected(c, gid)
        for i, (seat, tok) in enumerate(readers):
            lang = LANGS[(step + i) % len(LANGS)]
            checked += compare(c, svc, gid, tok, lang, step + i, seat)
        if not _step(c, gid, tokens, rng, svc):
            break
    assert checked >= 6 * steps, checked
    return gid


def projected(c: TestClient, gid: str, wait_s: float = 20.0) -> None:
    """With Redis read models: wait until they hold the game's last version (the reads then come from them)."""
    rm = c.app.state.read_models
    if rm is None:
        return
    version = c.app.state.games.current(gid).version
    deadline = time.monotonic() + wait_s
    while rm.last_seq(gid) != version:
        assert time.monotonic() < deadline, f"the projections did not reach version {version}"
        time.sleep(0.02)


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
        # the finished first battle too: its steps decided again (redecide) in every language against English
        for i, (seat, tok) in enumerate(readers):
            for lang in LANGS:
                checked += compare(c, svc, first, tok, lang, i, seat)
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


# -- the differential's self-tests: each plants a language-only leak, and the comparison must catch it -------
def _first_compare_failure(c: TestClient, steps: int = 6) -> AssertionError:
    svc, rng = c.app.state.games, random.Random(41)
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": "6e" * 32}).json()
    gid, tokens = g["game_id"], g["seats"]
    for step in range(steps):
        for i, (seat, tok) in enumerate([*tokens.items(), (None, None)]):
            try:
                compare(c, svc, gid, tok, LANGS[(step + i) % len(LANGS)], step + i, seat)
            except AssertionError as exc:
                return exc
        _step(c, gid, tokens, rng, svc)
    raise AssertionError("the planted leak was not caught")


def test_it_catches_a_names_map_handed_out_in_another_language(client, monkeypatch):
    """Planted: the answer in another language carries the game's names map (every id of the whole state)."""
    from service import i18n

    real = i18n.localize

    def leaky(body: Any, locale: str, names: Any = None) -> Any:
        out = real(body, locale, names)
        if isinstance(out, dict) and names:
            out["names"] = dict(names)
        return out

    monkeypatch.setattr(i18n, "localize", leaky)
    got = _first_compare_failure(client)
    assert "shape" in str(got) or "names" in str(got), got


def test_it_catches_a_sentence_that_names_more_ids_in_another_language(client, monkeypatch):
    """Planted: a rendered sentence lists the printed names it was given (a hand, a deck: the whole state's)."""
    from service import i18n

    real = i18n.render

    def leaky(message: Any, locale: str, names: Any = None) -> str:
        return real(message, locale, names) + (f" [{', '.join(sorted(names))}]" if names else "")

    monkeypatch.setattr(i18n, "render", leaky)
    got = _first_compare_failure(client)
    assert "EMP-" in str(got) or "REB-" in str(got), got


# -- (b) one outcome of a draw, whatever language a dry run, a refusal or a retry speaks ----------------------
def _hoth_attack(c: TestClient, options: dict, seed: str) -> tuple[str, dict[str, str], str, dict, int]:
    """A Hoth game played at random over HTTP until the seat to act may attack: (game, tokens, seat, the attack,
    the version before it)."""
    rng = random.Random(seed)
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "options": options,
                               "seed": seed * 32}).json()
    gid, tokens = g["game_id"], g["seats"]
    for _ in range(400):
        view = c.get(f"/games/{gid}").json()
        seat = view["to_act"][0]
        legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(tokens[seat])).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        attacks = [x for x in cmds if x["type"] == "attack"]
        if attacks:
            return gid, tokens, seat, attacks[0], legal["version"]
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers=_auth(tokens[seat]))
        assert r.status_code == 201, r.text
    raise AssertionError("no attack became legal")


def _faces(svc: Any, gid: str, after: int) -> list[tuple[int, str, str]]:
    """(seq, type, draws) of every stored event after ``after`` that drew."""
    return [(e.seq, e.type, e.rolls) for e in svc.store.load(gid, after=after) if e.rolls not in ("", "[]")]


@pytest.mark.parametrize("options", [{}, {"team": True}], ids=["two-seats", "teams"])
def test_a_roll_has_one_outcome_whatever_language_a_dry_run_a_refusal_or_a_retry_speaks(client, options):
    c, svc = client, client.app.state.games
    gid, tokens, seat, attack, before = _hoth_attack(c, options, "3d")
    h = _auth(tokens[seat])
    body = {"command": attack, "expected_version": before}
    # dry runs in every language: the same answer but for its words, stopped at the draw, nothing stored
    shapes = set()
    for i, lang in enumerate((None, *LANGS)):
        extra, q = _ask(lang, i)
        d = c.post(f"/games/{gid}/commands", json=body, headers={**h, **extra}, params={"dry_run": "true", **q})
        assert d.status_code == 200, d.text
        assert d.json()["stopped_at"] in ("draw", "reveal"), d.text
        assert "attack_rolled" not in d.text and '"rolls"' not in d.text, (lang, d.text[:300])
        shapes.add(json.dumps(_shape(d.json()), sort_keys=True))
    assert len(shapes) == 1, "a dry run's answer changes with its language"
    assert svc.current(gid).version == before and not _faces(svc, gid, before)
    # a language the server cannot read: refused before anything is decided
    bad = c.post(f"/games/{gid}/commands", json={**body, "command_id": "roll-1"}, headers=h,
                 params={"lang": "%%not a tag%%"})
    assert bad.status_code == 400 and bad.json().get("field") == "lang", bad.text
    assert svc.current(gid).version == before and not _faces(svc, gid, before)
    # the command, in Czech; then the same request retried in every language: the first answer again
    first = c.post(f"/games/{gid}/commands", json={**body, "command_id": "roll-1"},
                   headers={**h, "Accept-Language": "cs"})
    assert first.status_code == 201, first.text
    after = svc.current(gid).version
    rolled = _faces(svc, gid, before)
    assert rolled, "the attack drew nothing: no outcome to attack"
    payloads = [(e["seq"], e["type"], e["payload"]) for e in first.json()["events"]]
    for i, lang in enumerate(LANGS):
        extra, q = _ask(lang, i)
        again = c.post(f"/games/{gid}/commands", json={**body, "command_id": "roll-1"}, headers={**h, **extra},
                       params=q)
        assert again.status_code in (200, 201), again.text
        assert [(e["seq"], e["type"], e["payload"]) for e in again.json()["events"]] == payloads, lang
        assert svc.current(gid).version == after, (lang, "a retry stored something")
    # a retry with another id is a new command at a stale version: refused, nothing drawn
    other = c.post(f"/games/{gid}/commands", json={**body, "command_id": "roll-2"}, headers=h, params={"lang": "uk"})
    assert other.status_code == 409, other.text
    assert _faces(svc, gid, before) == rolled
    # undoing the roll, asked for in Ukrainian: a request only (another side must agree, UMPIRE-UNDO-12)
    ask = c.post(f"/games/{gid}/undo", json={"to_version": before}, headers=h, params={"lang": "uk"})
    assert ask.status_code == 202, ask.text
    own_side = [s for s in tokens if s.split("-")[0] == seat.split("-")[0]]
    for i, s in enumerate(own_side):  # neither the asker nor its teammate may agree for the other side
        extra, q = _ask(LANGS[i % len(LANGS)], i)
        for path in (f"/games/{gid}/undo/accept", f"/games/{gid}/commands"):
            at = svc.current(gid).version
            kw = {"json": {"command": {"type": "undo_accept"}, "expected_version": at} if path.endswith("commands")
                  else {"expected_version": at}}
            r = c.post(path, headers={**_auth(tokens[s]), **extra}, params=q, **kw)
            assert r.status_code in (403, 409, 422), (s, path, r.status_code, r.text)
    assert _faces(svc, gid, before) == rolled
    assert not any(e.type == "undone" for e in svc.store.load(gid, after=before))
    enemy = next(s for s in tokens if s.split("-")[0] != seat.split("-")[0])
    no = c.post(f"/games/{gid}/undo/decline", headers=_auth(tokens[enemy]), params={"lang": PSEUDO})
    assert no.status_code == 201, no.text
    assert _faces(svc, gid, before) == rolled
    assert svc.current(gid).folded.undone == frozenset() or not (svc.current(gid).folded.undone & {s for s, _, _ in rolled})


# -- (c) a seat is its holder's: a teammate, another game's or campaign's token, an invitation ---------------
def test_a_teammate_acts_for_no_seat_but_its_own_in_any_language_nor_reads_its_partners_hand(client, monkeypatch):
    monkeypatch.setattr("service.game_service.new_game_id", lambda: "teammate-1")  # the same dice every run
    c, svc, rng = client, client.app.state.games, random.Random(13)
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "options": {"team": True},
                               "seed": "4e" * 32}).json()
    gid, tokens = g["game_id"], g["seats"]
    refused = seen_own = 0
    for step in range(20):
        cur = svc.current(gid)
        if not cur.status.to_act:
            break
        seat = cur.status.to_act[0]
        mate = seat[:-2] if seat.endswith("-2") else f"{seat}-2"
        lang = LANGS[step % len(LANGS)]
        legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(tokens[seat])).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        # the partner sends the acting seat's command, as a command and as a dry run, in a language
        for dry in ("false", "true"):
            r = c.post(f"/games/{gid}/commands", json={"command": cmds[0], "expected_version": cur.version},
                       headers=_auth(tokens[mate]), params={"dry_run": dry, "lang": lang})
            assert r.status_code in (403, 422), (seat, mate, dry, r.status_code, r.text[:200])
            refused += 1
        assert svc.current(gid).version == cur.version
        # its own legal commands are its own seat's, and no read of it names a card of the partner's hand
        mine = c.get(f"/games/{gid}/legal-commands", headers=_auth(tokens[mate]), params={"lang": lang}).json()
        assert mine["seat"] == mate
        partner = set(cur.state.hands.get(seat, ())) - set(cur.state.hands.get(mate, ()))
        feed = c.get(f"/games/{gid}/feed", params={"after": 0, "limit": cur.version, "token": tokens[mate], "lang": lang})
        view = c.get(f"/games/{gid}", headers=_auth(tokens[mate]), params={"lang": lang})
        hand = set(svc.current(gid).state.hands.get(mate, ()))
        for name, text in (("feed", feed.text), ("view", view.text), ("legal", json.dumps(mine))):
            named = set(re.findall(r"(?:PROP-)?(?:EMP|REB)-[A-Z0-9-]*[A-Z0-9]", text))
            # a card of the opening's catalogue is named in the feed: only hands and draws count
            if name == "feed":
                named = {x for ev in _sse(feed.text) if ev["type"] not in ("game_created", "game_opened")
                         for x in re.findall(r"(?:PROP-)?(?:EMP|REB)-[A-Z0-9-]*[A-Z0-9]", json.dumps(ev))}
            public = set(re.findall(r"(?:PROP-)?(?:EMP|REB)-[A-Z0-9-]*[A-Z0-9]", json.dumps(
                [e for e in c.get(f"/games/{gid}/events", params={"limit": 1000}).json()["events"]
                 if e["type"] not in ("game_created", "game_opened")])))
            assert not (named & partner) - public - hand, (mate, name, lang, sorted((named & partner) - public))
        seen_own += bool(hand) and hand <= set(re.findall(r"(?:PROP-)?(?:EMP|REB)-[A-Z0-9-]*[A-Z0-9]", view.text))
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": cur.version},
                   headers=_auth(tokens[seat]))
        assert r.status_code == 201, r.text
    assert refused >= 40 and seen_own >= 10, (refused, seen_own)


def test_a_campaigns_ready_and_view_take_no_invitation_and_no_other_campaigns_token(client):
    """POST /campaigns/{id}/ready (a waiting campaign's client seeds, DESIGN 3) and GET /campaigns/{id}: an
    unclaimed invitation, another campaign's token and a game's token are no seat of it (401, nothing recorded),
    in any language; the seat's claimant readies it."""
    c = client
    a = c.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA", "start": "when_ready",
                                   "seating": "invitations", "keep": ["imperial"]})
    assert a.status_code == 201, a.text
    b = c.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA", "start": "when_ready"}).json()
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD"}).json()
    cid, invitation = a.json()["campaign_id"], a.json()["invitations"]["rebel"]
    strangers = {"invitation": invitation, "other campaign": b["seats"]["rebel"], "game": g["seats"]["rebel"]}
    for i, (name, tok) in enumerate(strangers.items()):
        extra, q = _ask(LANGS[i], i)
        r = c.post(f"/campaigns/{cid}/ready", json={"client_seed": "mine"}, headers={**_auth(tok), **extra}, params=q)
        assert r.status_code == 401, (name, r.status_code, r.text)
        v = c.get(f"/campaigns/{cid}", headers={**_auth(tok), **extra}, params=q)
        assert v.status_code in (200, 401), (name, v.status_code)
        if v.status_code == 200:
            assert v.json().get("seat") in (None, ""), (name, v.json().get("seat"))
    assert c.get(f"/campaigns/{cid}").json()["status"] == "waiting"
    assert c.get(f"/campaigns/{cid}/verify").json().get("client_seeds") in (None, {}, {"imperial": None, "rebel": None}) \
        or "mine" not in json.dumps(c.get(f"/campaigns/{cid}/verify").json())
    # the claimant's token readies the seat; the spent invitation does not act again
    tok = c.post(f"/campaigns/{cid}/seats/rebel/claim", json={"invitation": invitation})
    assert tok.status_code == 201, tok.text
    r = c.post(f"/campaigns/{cid}/ready", json={"client_seed": "again"}, headers=_auth(invitation))
    assert r.status_code == 401, r.text
    r = c.post(f"/campaigns/{cid}/ready", json={"client_seed": "rebels"}, headers=_auth(tok.json()["token"]),
               params={"lang": "uk"})
    assert r.status_code == 201, r.text
    assert r.json()["waiting_for"] == ["imperial"]


# -- (a) a refusal as an oracle: where a card lies is not in the answer, in any language ----------------------
@pytest.mark.parametrize("options", [{}, {"team": True}], ids=["two-seats", "teams"])
def test_a_refused_card_is_answered_the_same_whether_it_lies_in_another_hand_a_deck_or_nowhere(client, options,
                                                                                              monkeypatch):
    """A seat names cards it does not hold in ``play_card``, ``discard_cards`` and ``play_support`` (as commands
    and as dry runs, in every language): the answer for a card in another hand (a teammate's too), one in a deck,
    one in a discard pile and one that does not exist is the same but for the id it was given; nothing is
    stored. The game id is fixed, so the dice are too (a random id once ended the game in its first turns)."""
    monkeypatch.setattr("service.game_service.new_game_id", lambda: f"refused-card-{len(options)}")
    c, svc, rng = client, client.app.state.games, random.Random(19)
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "options": options,
                               "seed": "9c" * 32}).json()
    gid, tokens = g["game_id"], g["seats"]
    compared = 0
    for step in range(24):
        cur = svc.current(gid)
        if not cur.status.to_act:
            break
        seat = cur.status.to_act[0]
        h = _auth(tokens[seat])
        legal = c.get(f"/games/{gid}/legal-commands", headers=h).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        st = cur.state
        mine = set(st.hands.get(seat, ()))
        places = {"other hand": [x for s, hand in st.hands.items() if s != seat for x in hand],
                  "deck": [x for d in st.decks.values() for x in d],
                  "discard": [x for d in st.discards.values() for x in d],
                  "nowhere": ["EMP-NO-SUCH-CARD-1"]}
        picks = {k: next((x for x in v if x not in mine), None) for k, v in places.items()}
        picks = {k: v for k, v in picks.items() if v is not None}
        if any(x["type"] == "play_card" for x in cmds) and len(picks) >= 3:
            lang = (None, *LANGS)[step % (len(LANGS) + 1)]
            extra, q = _ask(lang, step)
            for make in (lambda x: {"type": "play_card", "card": x}, lambda x: {"type": "discard_cards", "cards": [x]},
                         lambda x: {"type": "play_support", "card": x}):
                for dry in ("true", "false"):
                    answers = {}
                    for where, card in picks.items():
                        r = c.post(f"/games/{gid}/commands", headers={**h, **extra},
                                   params={"dry_run": dry, **q}, json={"command": make(card), "expected_version": cur.version})
                        assert r.status_code >= 400, (where, r.text)
                        answers[where] = (r.status_code, r.text.replace(card, "<card>"))
                    assert len(set(answers.values())) == 1, (seat, lang, make("x"), answers)
                    compared += 1
            assert svc.current(gid).version == cur.version
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": cur.version},
                   headers=h)
        assert r.status_code == 201, r.text
    assert compared >= 12, compared


# -- (b) no refusal after a draw: a refused command would tell the next die, and the seat could then choose ----
def _mutants(cmd: dict, pool: list[Any], rng: random.Random) -> list[dict]:
    """Commands near ``cmd``: one field changed (a number moved by one, a string or list swapped for another
    value seen in the legal commands, a list shortened or reversed)."""
    out = []
    for k, v in cmd.items():
        if k == "type":
            continue
        if isinstance(v, bool):
            out.append({**cmd, k: not v})
        elif isinstance(v, (int, float)):
            out.append({**cmd, k: v + rng.choice((-1, 1))})
        elif isinstance(v, str) and pool:
            out.append({**cmd, k: rng.choice([p for p in pool if isinstance(p, str)] or [v])})
            out.append({**cmd, k: f"{v}-9"})
        elif isinstance(v, list) and v:
            out.append({**cmd, k: v[::-1]})
            out.append({**cmd, k: v[:-1]})
    return out


def _values(cmds: list[dict]) -> list[Any]:
    return [v for x in cmds for k, v in x.items() if k != "type" and isinstance(v, str)]


@pytest.mark.parametrize("ruleset,scenario,options", [g[:3] for g in GAMES],
                         ids=["hoth-two-seats", "hoth-teams", "smoke", "emperor"])
def test_a_dry_run_and_the_command_agree_on_legality_so_no_refusal_follows_a_draw(client, ruleset, scenario,
                                                                                  options):
    """For legal commands and near-legal ones (one field changed), in a language: a dry run that finds the
    command legal (up to its first draw or reveal) and the command itself agree -- the command is not refused
    after it drew (a refusal then could depend on the die, and the seat would learn it and play otherwise); a
    dry run that refuses, refuses with the command's own answer. Nothing refused is stored."""
    agree(client, ruleset, scenario, options)


def test_it_catches_a_refusal_that_follows_a_draw(client, monkeypatch):
    """Planted: the Battle of Hoth refuses an attack after rolling it when its first die is odd."""
    from domain.hoth.decider import HothRuleset
    from domain.kernel import RuleViolation
    from domain.kernel.messages import msg

    real = HothRuleset.decide

    def refuses_after_the_draw(self: Any, state: Any, seat: str, command: Any, dice: Any) -> Any:
        out = real(self, state, seat, command, dice)
        rolled = [r for em in out for r in em.rolls]
        if rolled and msgspec.to_builtins(rolled[0]).get("value", 0) % 2:
            raise RuleViolation("HOTH-ATTACK-1", msg("refused after the draw"))
        return out

    monkeypatch.setattr(HothRuleset, "decide", refuses_after_the_draw)
    with pytest.raises(AssertionError) as got:
        agree(client, "hoth", "SCN-TAKE-DOWN-THE-SHIELD", {})
    assert "refused after the draw" in str(got.value), got.value


def agree(client: TestClient, ruleset: str, scenario: str, options: dict) -> None:
    c, svc, rng = client, client.app.state.games, random.Random(23)
    g = c.post("/games", json={"ruleset": ruleset, "scenario": scenario, "options": options, "seed": "1f" * 32})
    assert g.status_code == 201, g.text
    gid, tokens = g.json()["game_id"], g.json()["seats"]
    tried = drew = 0
    for step in range(70):
        cur = svc.current(gid)
        if cur.finished:
            break
        seat = rng.choice([s for s in cur.status.to_act if s in tokens])
        h = _auth(tokens[seat])
        legal = c.get(f"/games/{gid}/legal-commands", headers=h).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        if not cmds:
            break
        candidates = [m for x in rng.sample(cmds, min(4, len(cmds))) for m in _mutants(x, _values(cmds), rng)][:8]
        for i, cand in enumerate(candidates):
            lang = LANGS[(step + i) % len(LANGS)]
            body = {"command": cand, "expected_version": cur.version}
            dry = c.post(f"/games/{gid}/commands", json=body, headers=h, params={"dry_run": "true", "lang": lang})
            real = c.post(f"/games/{gid}/commands", json=body, headers=h, params={"lang": lang})
            assert dry.status_code < 500 and real.status_code < 500, (cand, dry.text[:200], real.text[:200])
            if dry.status_code == 200:
                assert real.status_code == 201, (seat, cand, dry.json().get("stopped_at"), real.text[:400])
                drew += dry.json().get("stopped_at") in ("draw", "reveal")
                break  # the game moved on
            assert real.status_code == dry.status_code and real.json() == dry.json(), (cand, dry.text, real.text)
            assert svc.current(gid).version == cur.version
            tried += 1
        if svc.current(gid).version == cur.version:
            r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": cur.version},
                       headers=h)
            assert r.status_code == 201, r.text
    assert tried >= 8 and drew, (tried, drew)
