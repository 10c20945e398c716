"""A command's answer and the live feed speak the reader's language (issue 28), as the other endpoints do:
``Accept-Language`` or ``?lang=``, ``Content-Language`` on the answer; a feed's language is the one asked for
when it is opened. Real app, real SQLite, a Battle of Hoth game (its words are messages)."""
from __future__ import annotations

import json
import re

from tests.service.api_client import Api, api, sse_blocks  # noqa: F401

SCENARIO = "PROP-SCN-BREACH-THE-TRENCHES"
CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
#: Letters Czech writes and English does not.
CZECH = re.compile(r"[ěščřžýáíéůúňťďĚŠČŘŽÝÁÍÉŮÚŇŤĎ]")


def _first_command(api: Api, g: dict) -> tuple[str, dict, int]:
    v = api.view(g["game_id"])
    seat = v["to_act"][0]
    legal = api.legal(g["game_id"], g["seats"][seat])
    return seat, legal["commands"][0], legal["version"]


def _words(events: list[dict]) -> list[str]:
    out = []
    for e in events:
        out += [e["summary"], e["by"]["text"]]
        ruling = e.get("ruling") or {}
        out += [ruling.get("summary", "")] + [s["text"] for s in ruling.get("steps", [])]
    return [w for w in out if w]


def test_a_command_answer_in_czech_by_accept_language_and_by_lang(api: Api):
    """``Accept-Language`` and ``?lang=`` (the command door reads both) answer alike."""
    answers = {}
    for how in ("header", "query", "english"):
        g = api.create("hoth", SCENARIO)
        seat, cmd, version = _first_command(api, g)
        body = {"command": cmd, "expected_version": version}
        headers = api.auth(g["seats"][seat])
        if how == "header":
            r = api.client.post(f"/games/{g['game_id']}/commands", json=body,
                                headers={**headers, "Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5"})
        elif how == "query":
            r = api.client.post(f"/games/{g['game_id']}/commands", json=body, params={"lang": "cs"}, headers=headers)
        else:
            r = api.client.post(f"/games/{g['game_id']}/commands", json=body, headers=headers)
        assert r.status_code == 201, r.text
        answers[how] = (g, r, headers)
    for how in ("header", "query"):
        g, r, headers = answers[how]
        assert r.headers["content-language"] == "cs", (how, r.headers)
        said = _words(r.json()["events"])
        assert said and any(CZECH.search(w) for w in said), (how, said)
        # the same words as the log's own entries read in Czech; the payloads as in English
        seqs = [e["seq"] for e in r.json()["events"]]
        logged = api.client.get(f"/games/{g['game_id']}/events", params={"after": seqs[0] - 1, "lang": "cs"},
                                headers=headers).json()["events"]
        logged = [e for e in logged if e["seq"] in seqs]
        assert [(e["summary"], e["by"]["text"]) for e in r.json()["events"]] == \
            [(e["summary"], e["by"]["text"]) for e in logged]
        en = api.client.get(f"/games/{g['game_id']}/events", params={"after": seqs[0] - 1},
                            headers=headers).json()["events"]
        assert [e["payload"] for e in r.json()["events"]] == [e["payload"] for e in en if e["seq"] in seqs]
    g, r, _ = answers["english"]
    assert r.headers["content-language"] == "en"
    assert not any(CZECH.search(w) for w in _words(r.json()["events"]))


def test_a_malformed_lang_refuses_the_command_before_it_runs(api: Api):
    g = api.create("hoth", SCENARIO)
    seat, cmd, version = _first_command(api, g)
    r = api.client.post(f"/games/{g['game_id']}/commands", json={"command": cmd, "expected_version": version},
                        params={"lang": "not a tag!"}, headers=api.auth(g["seats"][seat]))
    assert r.status_code == 400 and r.json()["field"] == "lang", r.text
    assert api.view(g["game_id"])["version"] == version  # nothing was written


def test_a_dry_run_in_italian(api: Api):
    g = api.create("hoth", SCENARIO)
    seat, cmd, version = _first_command(api, g)
    r = api.client.post(f"/games/{g['game_id']}/commands", json={"command": cmd, "expected_version": version},
                        params={"dry_run": "true", "lang": "it"}, headers=api.auth(g["seats"][seat]))
    en = api.client.post(f"/games/{g['game_id']}/commands", json={"command": cmd, "expected_version": version},
                         params={"dry_run": "true"}, headers=api.auth(g["seats"][seat]))
    assert r.status_code == en.status_code == 200 and r.headers["content-language"] == "it", r.text
    it_steps = [s["text"] for e in r.json()["events"] for s in (e.get("ruling") or {}).get("steps", [])]
    en_steps = [s["text"] for e in en.json()["events"] for s in (e.get("ruling") or {}).get("steps", [])]
    assert len(it_steps) == len(en_steps) > 0 and it_steps != en_steps, (it_steps, en_steps)


def test_a_feed_speaks_the_language_chosen_when_it_opens(api: Api):
    g = api.create("hoth", SCENARIO)
    gid = g["game_id"]
    seat, cmd, version = _first_command(api, g)
    api.ok(gid, g["seats"][seat], cmd, version)
    n = api.view(gid)["version"]

    def feed(**kw) -> tuple[dict, list[dict]]:
        with api.client.stream("GET", f"/games/{gid}/feed", params={"after": 0, "limit": n, **kw.get("params", {})},
                               headers=kw.get("headers", {})) as r:
            assert r.status_code == 200
            return dict(r.headers), [json.loads(f["data"]) for f in sse_blocks("".join(r.iter_text())) if "data" in f]

    h_uk, uk = feed(headers={"Accept-Language": "uk-UA,uk;q=0.9"})
    h_en, en = feed()
    h_ru, ru = feed(params={"lang": "ru"}, headers={"Accept-Language": "uk"})
    assert h_uk["content-language"] == "uk" and h_en["content-language"] == "en" and h_ru["content-language"] == "ru"
    assert [e["seq"] for e in uk] == [e["seq"] for e in en] == [e["seq"] for e in ru] == list(range(1, n + 1))
    assert [e["payload"] for e in uk] == [e["payload"] for e in en]
    assert all(CYRILLIC.search(e["summary"]) for e in uk), [e["summary"] for e in uk]
    assert all(CYRILLIC.search(e["summary"]) for e in ru) and [e["summary"] for e in ru] != [e["summary"] for e in uk]
    assert not any(CYRILLIC.search(w) for w in _words(en))
    with api.client.stream("GET", f"/games/{gid}/feed", params={"lang": "??"}) as r:
        assert r.status_code == 400
