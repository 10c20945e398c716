"""Battle of Hoth in its readers' languages over the REST API (real app, real SQLite): a game played in
English reads in Ukrainian afterwards (timeline, events, rulings; its log and /verify unchanged), its
refusals come in Czech with the rule id intact, and its legal commands' labels in Italian with the
rulebook's printed unit names."""
from __future__ import annotations

import re

from tests.service.api_client import Api, api  # noqa: F401

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
UK = {"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}
SCENARIO = "PROP-SCN-BREACH-THE-TRENCHES"


def _play(api: Api, steps: int = 40) -> dict:
    return api.play_random("hoth", SCENARIO, steps, seed=3)[0]


def test_a_hoth_game_played_in_english_reads_in_ukrainian_afterwards(api: Api):
    g = _play(api)
    gid, token = g["game_id"], g["seats"]["imperial"]
    en = api.client.get(f"/games/{gid}/timeline")
    uk = api.client.get(f"/games/{gid}/timeline", headers=UK)
    assert en.headers["content-language"] == "en" and uk.headers["content-language"] == "uk"
    en_steps, uk_steps = en.json()["steps"], uk.json()["steps"]
    assert [s["seq"] for s in en_steps] == [s["seq"] for s in uk_steps] and len(en_steps) > 20
    assert all(CYRILLIC.search(s["summary"]) for s in uk_steps), [s["summary"] for s in uk_steps]
    assert not any(CYRILLIC.search(s["summary"]) for s in en_steps)
    # printed names of the Ukrainian rulebook beside the ids; the English text as the domain writes it
    assert any("Снігові штурмовики (E" in s["summary"] for s in uk_steps)
    assert any("Snowtroopers (E" in s["summary"] for s in en_steps)
    # the log is unchanged: the same events, payloads and hashes in either language; /verify too
    ev_en = api.client.get(f"/games/{gid}/events", headers=api.auth(token)).json()["events"]
    ev_uk = api.client.get(f"/games/{gid}/events", headers={**api.auth(token), **UK}).json()["events"]
    assert [(e["payload"], e["hash"]) for e in ev_en] == [(e["payload"], e["hash"]) for e in ev_uk]
    assert any(CYRILLIC.search(e["summary"]) for e in ev_uk)
    assert api.client.get(f"/games/{gid}/verify").json() == api.client.get(f"/games/{gid}/verify", headers=UK).json()
    # rulings: in Ukrainian step by step, the same rule ids and values as in English
    for kind in ("unit_moved", "attack_rolled", "attack_resolved", "turn_started"):
        seq = next((s["seq"] for s in en_steps if s["type"] == kind), None)
        if seq is None:
            continue
        r_en = api.client.get(f"/games/{gid}/events/{seq}/ruling").json()["ruling"]
        r_uk = api.client.get(f"/games/{gid}/events/{seq}/ruling", headers=UK).json()["ruling"]
        assert [(s["rule"], s.get("values")) for s in r_en["steps"]] == \
            [(s["rule"], s.get("values")) for s in r_uk["steps"]]
        assert CYRILLIC.search(r_uk["summary"]) and not CYRILLIC.search(r_en["summary"]), (r_en, r_uk)
        # a table choice's citation (HOTH-CHOICE-*, the kernel's cite) is still an English sentence
        assert all(CYRILLIC.search(s["text"]) for s in r_uk["steps"] if not s["rule"].startswith("HOTH-CHOICE-")), \
            r_uk["steps"]
        assert not any(CYRILLIC.search(s["text"]) for s in r_en["steps"])


def test_a_hoth_refusal_in_czech_keeps_its_rule_id(api: Api):
    g = api.create("hoth", SCENARIO)
    v = api.view(g["game_id"])
    seat = v["to_act"][0]
    r = api.client.post(f"/games/{g['game_id']}/commands", params={"lang": "cs"},
                        json={"command": {"type": "order_unit", "unit": "nobody"}, "expected_version": v["version"]},
                        headers=api.auth(g["seats"][seat]))
    assert r.status_code == 422 and r.headers["content-language"] == "cs", r.text
    body = r.json()
    assert body["rule"] == "HOTH-CARD-1" and "karty rozkazu" in body["detail"], body
    en = api.client.post(f"/games/{g['game_id']}/commands",
                         json={"command": {"type": "order_unit", "unit": "nobody"}, "expected_version": v["version"]},
                         headers=api.auth(g["seats"][seat])).json()
    assert en["rule"] == body["rule"] and en["detail"].startswith("Now is the play step of the turn; OrderUnit")


def test_hoth_labels_in_italian(api: Api):
    g = api.create("hoth", SCENARIO)
    gid = g["game_id"]
    for _ in range(8):  # play a command card: the orders it allows are labelled with the printed unit names
        v = api.view(gid)
        seat = v["to_act"][0]
        token = g["seats"][seat]
        r = api.client.get(f"/games/{gid}/legal-commands", params={"lang": "it"}, headers=api.auth(token))
        if any(c["type"] == "order_unit" for c in r.json()["commands"]):
            break
        api.ok(gid, token, r.json()["commands"][0], r.json()["version"])
    en = api.legal(gid, token)
    assert r.headers["content-language"] == "it" and r.json()["commands"] == en["commands"]
    labels = [d["label"] for d in r.json()["described"]]
    orders = [x for x in labels if x.startswith("Comandare ")]
    assert orders and all(("Soldati artici (E" in x or "Soldati della Base Echo (R" in x or " (E" in x or " (R" in x)
                          for x in orders), labels
    assert any("Soldati artici (E" in x or "Soldati della Base Echo (R" in x for x in orders), labels
    assert [d["label_message"]["id"] for d in r.json()["described"]] == \
        [d["label_message"]["id"] for d in en["described"]]
