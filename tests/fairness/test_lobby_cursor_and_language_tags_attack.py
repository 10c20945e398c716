"""Forged lobby cursors and odd language tags, as a caller fishing for an error that says too much.

- The lobby's cursor (``GET /games?cursor=``) is opaque base64url of a place in the lobby's order; the cheater
  sends garbage, other alphabets, padding, NUL and invalid UTF-8 inside valid base64, a place past every game,
  a list of cursors, huge limits. Each answer is a page or a problem detail (never a 500), and a page names no
  seat token, no invitation, no seed: only the lobby's fields. Walking the lobby one game a page by its cursors
  lists every game once (none skipped, none twice).
- Language tags (``?lang=``, ``Accept-Language``) that no catalog has -- private-use and pseudo-locale look-alikes
  (``en-XA``, ``qps-ploc``, ``x-pseudo-leak``), grandfathered tags, wildcards, a quality that is not a number,
  path-like and very long tags -- on ``GET /rulesets`` (its seat names), a game's view, timeline (its ``by``) and
  log: each answer is English or a problem detail naming ``lang``, never a 500, and says nothing English does
  not (the same body as in English: a template must not print another field for a tag it does not know).

Real app (litestar's TestClient) on a real SQLite file, with the Redis read models and without them.
"""
from __future__ import annotations

import base64
import json

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.service.api_client import PROBLEM, SEED

LOBBY_FIELDS = {"game_id", "ruleset", "scenario", "status", "read_only", "version", "winner", "created_at",
                "seed_commitment", "campaign_id"}


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


CURSORS = ("A", "====", "%00", "a" * 5000, "ab+/", "ab cd", "\u0661\u0662", "AAAAAAAAAAAA", "_-_-", "Cg",
           _b64(b"\xff\xfe\n\x00zz"), _b64(b"\n"), _b64(b"9999-12-31\n" + b"z" * 10), _b64(b"\x00" * 30),
           _b64("\ud800".encode("utf-8", "surrogatepass")), _b64(b"0000\n' OR 1=1 --"), _b64(b"[\n(\n-\n+"))
ODD_TAGS = ("en-XA", "ar-XB", "qps-ploc", "x-pseudo-leak", "en-x-pseudo", "i-klingon", "zh-Hant-TW", "*",
            "uk;q=abc", "../x", "%00", "a" * 300, "en-US-u-nu-arab", "x-pseudo;q=0.1, *;q=0.5")


@pytest.fixture(params=["redis", "log"])
def client(request, tmp_path):
    # redis_client: the session's Redis emptied first (its lobby would list other tests' games)
    settings = Settings(data_dir=str(tmp_path / "data"),
                        redis_url=request.getfixturevalue("redis_url") if request.param == "redis" else None)
    if request.param == "redis":
        request.getfixturevalue("redis_client")
    app = create_app(settings) if request.param == "redis" else create_app(settings, read_models=None)
    with TestClient(app) as c:
        yield c


def _secrets(c: TestClient) -> tuple[list[str], set[str]]:
    """A few games (tokens, invitations, a waiting game) and every secret they were handed."""
    secrets: list[str] = []
    ids: set[str] = set()
    for body in ({"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": SEED},
                 {"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seating": "invitations",
                  "start": "when_ready"},
                 {"ruleset": "smoke", "scenario": "BTL-OPEN-FIELD"},
                 {"ruleset": "emperor", "scenario": "SETUP-AKHENA-VS-REBEL", "seed": "1e" * 32}):
        r = c.post("/games", json=body)
        assert r.status_code == 201, r.text
        g = r.json()
        ids.add(g["game_id"])
        secrets += [*g.get("seats", {}).values(), *g.get("invitations", {}).values()]
        if "seed" in body:
            secrets.append(body["seed"])
    return secrets, ids


def _page_ok(r, secrets: list[str]) -> None:
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        assert r.headers["content-type"].startswith(PROBLEM) and r.json()["field"] in ("cursor", "limit"), r.text
        return
    for entry in r.json()["games"]:
        assert set(entry) == LOBBY_FIELDS, sorted(entry)
    assert not [s for s in secrets if s in r.text]


def test_forged_lobby_cursors_answer_a_page_or_a_problem_and_no_secret(client):
    c = client
    secrets, ids = _secrets(c)
    for cur in CURSORS:
        _page_ok(c.get("/games", params={"cursor": cur}), secrets)
    for query in ("cursor=a&cursor=b", "cursor=%ff", "limit=0", "limit=-1", "limit=abc", "limit=1.5",
                  "limit=99999999999999999999999", "limit=1&cursor=", f"cursor={_b64(b'x' * 2000)}&limit=1000"):
        _page_ok(c.get(f"/games?{query}"), secrets)
    # the lobby walked one game a page: every game once, in order
    seen, cursor = [], None
    for _ in range(len(ids) + 2):
        r = c.get("/games", params={"limit": 1, **({"cursor": cursor} if cursor else {})})
        _page_ok(r, secrets)
        seen += [g["game_id"] for g in r.json()["games"]]
        cursor = r.json()["next_cursor"]
        if cursor is None:
            break
    assert sorted(seen) == sorted(ids) and len(seen) == len(set(seen)), seen


def _ask(c: TestClient, path: str, tag: str | None, how: str):
    if tag is None:
        return c.get(path)
    if how == "query":
        return c.get(path, params={"lang": tag})
    return c.get(path, headers={"Accept-Language": tag})


def test_odd_language_tags_answer_english_or_a_problem_and_say_nothing_more(client):
    c = client
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": SEED}).json()
    gid, tokens = g["game_id"], g["seats"]
    seat = c.get(f"/games/{gid}").json()["to_act"][0]
    legal = c.get(f"/games/{gid}/legal-commands", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
    r = c.post(f"/games/{gid}/commands", headers={"Authorization": f"Bearer {tokens[seat]}"},
               json={"command": legal["commands"][0], "expected_version": legal["version"]})
    assert r.status_code == 201, r.text
    paths = ("/rulesets", f"/games/{gid}", f"/games/{gid}/timeline", f"/games/{gid}/events")
    english = {p: _ask(c, p, None, "") for p in paths}
    hoth = next(rs for rs in english["/rulesets"].json() if rs["id"] == "hoth")
    assert set(tokens) <= set(hoth["seat_names"]) and all(isinstance(v, str) for v in hoth["seat_names"].values())
    answered = 0
    for tag in ODD_TAGS:
        for how in ("query", "header"):
            for p in paths:
                r = _ask(c, p, tag, how)
                assert r.status_code < 500, (tag, how, p, r.text[:300])
                if r.status_code >= 400:
                    assert r.headers["content-type"].startswith(PROBLEM) and r.json().get("field") == "lang", r.text
                    continue
                answered += 1
                assert r.headers.get("content-language") == "en", (tag, how, p, r.headers.get("content-language"))
                body, en = r.json(), english[p].json()
                if p.endswith("/events") or p == f"/games/{gid}":  # the same words and values as in English
                    assert json.dumps(body, sort_keys=True) == json.dumps(en, sort_keys=True), (tag, how, p)
                else:
                    assert body == en, (tag, how, p)
                assert not [t for t in tokens.values() if t in r.text] and SEED not in r.text
    assert answered > 0
