"""Languages over the REST API (real app, real SQLite, with and without the Redis read models): a game
played in English reads in Ukrainian afterwards (its log and /verify unchanged), ``?lang=`` overrides
``Accept-Language``, every answer with words says its ``Content-Language``, problem details come in
Czech with their rule id intact, and the pseudo-locale marks every converted word."""
from __future__ import annotations

import re

from tests.service.api_client import Api, api  # noqa: F401

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
UK = {"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}


def _play(api: Api, steps: int = 10) -> dict:
    return api.play_random("emperor", "SETUP-AKHENA-VS-REBEL", steps, seed=4)[0]


def test_a_game_played_in_english_reads_in_ukrainian_afterwards(api: Api):
    g = _play(api)
    gid, token = g["game_id"], g["seats"]["human"]
    en = api.client.get(f"/games/{gid}/timeline")
    uk = api.client.get(f"/games/{gid}/timeline", headers=UK)
    assert en.headers["content-language"] == "en" and uk.headers["content-language"] == "uk"
    assert "accept-language" in uk.headers["vary"].lower()
    en_steps, uk_steps = en.json()["steps"], uk.json()["steps"]
    assert [s["seq"] for s in en_steps] == [s["seq"] for s in uk_steps]
    assert all(CYRILLIC.search(s["summary"]) for s in uk_steps), [s["summary"] for s in uk_steps]
    assert not any(CYRILLIC.search(s["summary"]) for s in en_steps)
    assert uk_steps[0]["by"]["text"] == "суддя" and en_steps[0]["by"]["text"] == "the referee"
    # the log itself is unchanged: the same events, payloads and hashes in either language; /verify too
    ev_en = api.client.get(f"/games/{gid}/events", headers=api.auth(token)).json()["events"]
    ev_uk = api.client.get(f"/games/{gid}/events", headers={**api.auth(token), **UK}).json()["events"]
    assert [(e["payload"], e["hash"]) for e in ev_en] == [(e["payload"], e["hash"]) for e in ev_uk]
    assert any(CYRILLIC.search(e["summary"]) for e in ev_uk)
    assert api.client.get(f"/games/{gid}/verify").json() == api.client.get(f"/games/{gid}/verify", headers=UK).json()
    # a ruling: its summary in Ukrainian when it is a message, the rule ids unchanged
    seq = next(s["seq"] for s in en_steps if s["type"] == "seat_ready" or s["seq"] > 1)
    r_en = api.client.get(f"/games/{gid}/events/{seq}/ruling").json()
    r_uk = api.client.get(f"/games/{gid}/events/{seq}/ruling", headers=UK).json()
    assert [s["rule"] for s in (r_en["ruling"] or {}).get("steps", [])] == \
        [s["rule"] for s in (r_uk["ruling"] or {}).get("steps", [])]


def test_the_query_overrides_the_header_and_a_bad_lang_is_named(api: Api):
    g = _play(api, steps=2)
    gid = g["game_id"]
    r = api.client.get(f"/games/{gid}/timeline", params={"lang": "cs"}, headers=UK)
    assert r.headers["content-language"] == "cs"
    r = api.client.get(f"/games/{gid}/timeline", params={"lang": "de"}, headers=UK)  # not spoken: the header
    assert r.headers["content-language"] == "uk"
    bad = api.client.get(f"/games/{gid}/timeline", params={"lang": "<script>"})
    assert bad.status_code == 400 and bad.json()["field"] == "lang"


def test_problem_details_in_czech_keep_their_rule_id(api: Api):
    g = _play(api, steps=3)
    gid, token = g["game_id"], g["seats"]["human"]
    v = api.view(gid, token)["version"]
    body = {"command": {"type": "undo", "to_version": v + 50}, "expected_version": v}
    cs = api.client.post(f"/games/{gid}/commands", json=body, headers={**api.auth(token), "Accept-Language": "cs"})
    en = api.client.post(f"/games/{gid}/commands", json=body, headers=api.auth(token))
    assert cs.status_code == en.status_code == 422
    assert cs.headers["content-language"] == "cs" and cs.headers["content-type"].startswith("application/problem+json")
    a, b = cs.json(), en.json()
    assert a["rule"] == b["rule"] == "UMPIRE-UNDO-1" and a["rule_url"] == b["rule_url"]
    assert a["detail"].startswith("to_version musí být mezi") and b["detail"].startswith("to_version must be between")
    assert a["title"] == "Podle pravidel nepřípustné" or a["title"] != b["title"]
    # the Emperor's own refusals are messages too
    bad = {"command": {"type": "activate", "card": "nope"}, "expected_version": v}
    r = api.client.post(f"/games/{gid}/commands", params={"lang": "uk"}, json=bad, headers=api.auth(token))
    if r.status_code == 422 and r.json()["rule"] == "BASE-CARD-1":
        assert CYRILLIC.search(r.json()["detail"]), r.json()


def test_legal_command_labels_of_the_kernel_in_italian(api: Api):
    r = api.client.post("/games", json={"ruleset": "emperor", "scenario": "SETUP-AKHENA-VS-REBEL",
                                        "start": "when_ready"})
    assert r.status_code == 201, r.text
    g = r.json()
    legal = api.client.get(f"/games/{g['game_id']}/legal-commands", params={"lang": "it"},
                           headers=api.auth(g["seats"]["human"]))
    assert legal.headers["content-language"] == "it"
    ready = next(d for d in legal.json()["described"] if d["command"]["type"] == "ready")
    assert ready["label"].startswith("Sono pronto") and ready["label_message"]["id"].startswith("I am ready")


def test_emperor_labels_in_ukrainian(api: Api):
    g = api.create("emperor", "SETUP-AKHENA-VS-REBEL")
    token = g["seats"]["human"]
    r = api.client.get(f"/games/{g['game_id']}/legal-commands", headers={**api.auth(token), **UK})
    en = api.legal(g["game_id"], token)
    assert r.headers["content-language"] == "uk" and r.json()["commands"] == en["commands"]
    labels = [d["label"] for d in r.json()["described"]]
    assert labels and all(CYRILLIC.search(x) for x in labels), labels
    move = next(d["label"] for d in r.json()["described"] if d["command"]["type"] == "move")
    assert move.startswith("Перемістити Ахена"), move


def test_the_pseudo_locale_marks_every_converted_word(api: Api, monkeypatch):
    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")
    g = _play(api)
    steps = api.client.get(f"/games/{g['game_id']}/timeline", params={"lang": "x-pseudo"}).json()["steps"]
    unmarked = [s["summary"] for s in steps if not s["summary"].startswith("⟦")]
    assert unmarked == []
    monkeypatch.delenv("UMPIRE_PSEUDO_LOCALE")
    r = api.client.get(f"/games/{g['game_id']}/timeline", params={"lang": "x-pseudo"})
    assert r.headers["content-language"] == "en"  # never outside tests


RU = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}
LATIN_WORD = re.compile(r"\b[a-z]{4,}\b")
#: English words that stay in a Russian ruling: command names and JSON fields it cites, the sides' ids beside their
#: names ("Карл (Игрок 1) (karl)"). A seat is said by its name (Игрок 1), never by its id (docs/seat-names.md).
KEPT = {"take_loss", "choose_edge", "choose_first", "retreat", "vector", "distance", "facing", "target",
        "north", "south", "east", "west", "karl", "vertumn"}


#: Words that stay English for now (docs/languages.md): the battle's title; and a rule choice's id and option beside
#: its words, which are data ("(SMOKE-CHOICE-... option)": the choice's title and words are said in Russian). (A side
#: or a commander named after its seats reads in Russian: "Карл (Игрок 1)", tests/i18n/test_smoke_names.py.)
KEPT_PHRASE = re.compile(r"Crossroads of four armies|\([A-Z]+-CHOICE-[A-Z0-9-]+ [\w-]+\)")


#: Clouds of Smoke's units by the Russian rulebook's printed names (and the names chosen beside them).
PRINTED = re.compile("Линейная пехота|Полковые пушки|Легкая артиллерия|Тяжелая артиллерия|Наемные мушкетеры|"
                     "Линейная кавалерия|Кирасиры|Гренадеры|Егеря|Уланы|Казаки|Пикинеры|Стрелки")


def _english_words(text: str) -> set[str]:
    return {w for w in LATIN_WORD.findall(KEPT_PHRASE.sub("", text))} - KEPT


def test_a_smoke_game_played_in_english_reads_in_russian_afterwards(api: Api):
    """Clouds of Smoke (its rulebook is Russian): the timeline and every ruling of a game played in English
    read in Russian, with the rulebook's unit names; the log, its hashes and /verify do not change."""
    g, _ = api.play_random("smoke", "BTL-CROSSROADS", 40, seed=3)
    gid = g["game_id"]
    en = api.client.get(f"/games/{gid}/timeline").json()["steps"]
    ru = api.client.get(f"/games/{gid}/timeline", headers=RU)
    assert ru.headers["content-language"] == "ru"
    ru_steps = ru.json()["steps"]
    assert len(ru_steps) > 20 and [s["seq"] for s in en] == [s["seq"] for s in ru_steps]
    assert all(CYRILLIC.search(s["summary"]) for s in ru_steps), [s["summary"] for s in ru_steps]
    assert not any(CYRILLIC.search(s["summary"]) for s in en)
    assert [s["summary"] for s in ru_steps if _english_words(s["summary"])] == []
    # every ruling: its summary and each step in Russian, the rule ids and values as they were
    said = [s["summary"] for s in ru_steps]
    for s in en:
        r_en = api.client.get(f"/games/{gid}/events/{s['seq']}/ruling").json()["ruling"]
        r_ru = api.client.get(f"/games/{gid}/events/{s['seq']}/ruling", headers=RU).json()["ruling"]
        if not r_en or "steps" not in r_en:  # the kernel's opening: a summary only
            continue
        if r_en.get("summary_message"):
            assert not _english_words(r_ru["summary"]), r_ru["summary"]
        assert [(x["rule"], x.get("values")) for x in r_en["steps"]] == [(x["rule"], x.get("values"))
                                                                           for x in r_ru["steps"]]
        for x in r_ru["steps"]:
            assert CYRILLIC.search(x["text"]) or not _english_words(x["text"]), x["text"]
            said.append(x["text"])
        assert not any(CYRILLIC.search(x["text"]) for x in r_en["steps"])
    assert PRINTED.search(" ".join(said)), "the rulebook's printed unit names"
    # the log is unchanged in either language; /verify too
    token = next(iter(g["seats"].values()))
    ev_en = api.client.get(f"/games/{gid}/events", headers=api.auth(token)).json()["events"]
    ev_ru = api.client.get(f"/games/{gid}/events", headers={**api.auth(token), **RU}).json()["events"]
    assert [(e["payload"], e["hash"]) for e in ev_en] == [(e["payload"], e["hash"]) for e in ev_ru]
    assert api.client.get(f"/games/{gid}/verify").json() == api.client.get(f"/games/{gid}/verify", headers=RU).json()


def test_smoke_refusals_and_labels_in_russian(api: Api):
    g = api.create("smoke", "BTL-CROSSROADS")
    gid = g["game_id"]
    v = api.view(gid)
    seat = v["to_act"][0]
    token = g["seats"][seat]
    legal = api.client.get(f"/games/{gid}/legal-commands", headers={**api.auth(token), **RU})
    assert legal.headers["content-language"] == "ru"
    labels = [d["label"] for d in legal.json()["described"]]
    assert labels and all(CYRILLIC.search(x) for x in labels), labels
    bad = {"command": {"type": "place_die", "die": 99, "slot": "A1"}, "expected_version": v["version"]}
    r = api.client.post(f"/games/{gid}/commands", json=bad, headers={**api.auth(token), **RU})
    en = api.client.post(f"/games/{gid}/commands", json=bad, headers=api.auth(token))
    assert r.status_code == en.status_code == 422, r.text
    assert r.json()["rule"] == en.json()["rule"] and CYRILLIC.search(r.json()["detail"]), r.json()
