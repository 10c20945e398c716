"""Every number a client sends is bounded before it is read (DESIGN 8: bad input is a problem naming the
field, never a 5xx). Python's ``int()`` refuses more than 4,300 digits (ValueError), and ``"²".isdigit()``
is True while ``int("²")`` raises: neither may reach a client as a 500. Real app, real SQLite."""
from __future__ import annotations

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings

BIG = "9" * 5000
HOTH = {"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(Settings(data_dir=str(tmp_path_factory.mktemp("data"))), read_models=None)) as c:
        yield c


@pytest.fixture(scope="module")
def game(client):
    r = client.post("/games", json=HOTH)
    assert r.status_code == 201, r.text
    return r.json()["game_id"], r.json()["seats"]


def problem(r, status: int, field: str) -> dict:
    assert r.status_code == status, r.text[:300]
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["field"] == field, body
    assert len(r.content) < 4000, "the problem does not echo the 5,000 digits back"
    return body


@pytest.mark.parametrize("level", [BIG, "²", "١", "1" * 7, "-1", "+1", " 1"],
                         ids=["5000-digits", "superscript", "arabic-indic", "7-digits", "minus", "plus", "space"])
def test_a_bot_level_that_is_not_a_small_ascii_number_is_a_problem_naming_the_seat(client, level):
    r = client.post("/games", json={**HOTH, "bots": {"rebel": f"greedy:{level}"}})
    body = problem(r, 422, "bots.rebel")
    assert "levels" in body["detail"]
    r = client.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA",
                                        "bots": {"rebel": f"greedy:{level}"}})
    problem(r, 422, "bots.rebel")


def test_a_good_bot_level_still_plays(client):
    r = client.post("/games", json={**HOTH, "bots": {"rebel": "greedy:1"}})
    assert r.status_code == 201, r.text
    assert r.json()["bots"] == {"rebel": "greedy:1"}


def _json(client, path: str, raw: str, token: str | None = None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return client.post(path, content=raw, headers=headers)


def test_huge_integers_in_bodies_are_400_naming_the_field(client, game):
    gid, seats = game
    tok = seats["imperial"]
    r = _json(client, f"/games/{gid}/commands", '{"command": {"type": "end_phase"}, "expected_version": ' + BIG + "}", tok)
    problem(r, 400, "expected_version")
    r = _json(client, f"/games/{gid}/undo", '{"to_version": ' + BIG + "}", tok)
    problem(r, 400, "to_version")
    r = _json(client, f"/games/{gid}/commands",
              '{"command": {"type": "undo", "to_version": ' + BIG + '}, "expected_version": 1}', tok)
    assert r.status_code == 400, r.text[:300]
    r = _json(client, "/games", '{"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "options": {"x": '
              + BIG + "}}")
    assert r.status_code in (400, 422), r.text[:300]


@pytest.mark.parametrize("query, field", [("limit", "limit")])
def test_huge_integers_in_the_lobby_query_are_400_naming_the_field(client, query, field):
    problem(client.get(f"/games?{query}={BIG}"), 400, field)


@pytest.mark.parametrize("path, field", [
    ("/events?after={big}", "after"), ("/events?limit={big}", "limit"), ("/events?after=-{big}", "after"),
    ("/board.svg?at={big}", "at"), ("/feed?limit={big}", "limit"), ("/events?after=%EF%BC%91", "after"),
])
def test_huge_integers_in_game_queries_are_400_naming_the_field(client, game, path, field):
    gid, _ = game
    problem(client.get(f"/games/{gid}{path.format(big=BIG)}"), 400, field)


@pytest.mark.parametrize("path", ["/events/{big}/ruling", "/states/{big}", "/events/{big}/redecide"])
def test_a_huge_seq_in_a_path_is_never_a_5xx(client, game, path):
    gid, _ = game
    r = client.get(f"/games/{gid}{path.format(big=BIG)}")
    assert r.status_code in (400, 404), r.text[:300]
    assert r.headers["content-type"].startswith("application/problem+json")


@pytest.mark.parametrize("digits, status", [(19, None), (20, 400), (21, 400)])
def test_a_number_in_a_free_form_option_is_named_once_it_has_20_digits(client, digits, status):
    """msgspec reads any 19-digit integer; from 20 digits on (past 64 bits) the field is named."""
    raw = '{"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "options": {"x": ' + "9" * digits + "}}"
    r = _json(client, "/games", raw)
    assert r.status_code < 500, r.text
    if status is not None:
        assert "a number of" in problem(r, status, "options.x")["detail"]
    else:
        assert r.json().get("field") != "options.x" or "a number of" not in r.json().get("detail", "")
