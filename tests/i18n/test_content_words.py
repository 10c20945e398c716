"""The printed words of a game's own content in the reader's language (issue 28, domain/kernel/printed.py):
``GET /games/{id}`` (and ``/states/{seq}``) shows a Hoth card's title and text in Ukrainian, Clouds of Smoke's
action board slots in Russian, the Emperor's warriors and locations in Ukrainian (real app, real SQLite, with
and without the Redis read models). The data stays English: the English view is as the domain writes it, and
the log and /verify read the same in either language. A translated view shows exactly the cards the English
one shows (nothing is looked up: a hidden card stays hidden)."""
from __future__ import annotations

import re
from typing import Any

from domain.kernel import printed
from service import i18n
from tests.service.api_client import Api, api  # noqa: F401

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґЁё]")
UK = {"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}
RU = {"Accept-Language": "ru"}


def _view(api: Api, gid: str, token: str | None, headers: dict[str, str] | None = None) -> Any:
    r = api.client.get(f"/games/{gid}", headers={**api.auth(token), **(headers or {})})
    assert r.status_code == 200, r.text
    return r


def _log_and_verify_unchanged(api: Api, gid: str, token: str) -> None:
    ev_en = api.client.get(f"/games/{gid}/events", headers=api.auth(token)).json()["events"]
    ev_uk = api.client.get(f"/games/{gid}/events", headers={**api.auth(token), **UK}).json()["events"]
    assert ev_en and [(e["payload"], e["hash"]) for e in ev_en] == [(e["payload"], e["hash"]) for e in ev_uk]
    assert api.client.get(f"/games/{gid}/verify").json() == api.client.get(f"/games/{gid}/verify", headers=UK).json()


def test_a_hoth_view_in_ukrainian_shows_its_cards_titles_and_texts_in_ukrainian(api: Api):
    g, _ = api.play_random("hoth", "PROP-SCN-BREACH-THE-TRENCHES", 6, seed=3)
    gid, token = g["game_id"], g["seats"]["imperial"]
    en, uk = _view(api, gid, token), _view(api, gid, token, UK)
    assert uk.headers["content-language"] == "uk" and en.headers["content-language"] == "en"
    cards_en, cards_uk = en.json()["state"]["cards"], uk.json()["state"]["cards"]
    # the same cards (the seat's hand, the face-up ones): a language shows no card the view hides
    assert cards_en and sorted(cards_en) == sorted(cards_uk)
    for cid, face in cards_en.items():
        assert not CYRILLIC.search(face["title"] + face["text"])  # the data stays English
        assert CYRILLIC.search(cards_uk[cid]["title"]) and CYRILLIC.search(cards_uk[cid]["text"]), cards_uk[cid]
        assert cards_uk[cid]["kind"] == face["kind"]
    # the printed card of the Ukrainian rulebook, where the view shows it; the catalog's words otherwise
    probe = {"Probe Left": "Розвідка на лівому фланзі", "Blitz": "Рейд"}
    for cid, face in cards_en.items():
        if face["title"] in probe:
            assert cards_uk[cid]["title"] == probe[face["title"]]
    some = next(iter(cards_en))
    assert cards_uk[some]["text"] == i18n.term(cards_en[some]["text"], "uk")
    assert CYRILLIC.search(uk.json()["state"]["scenario"]["title"])
    # everything else of the view is as it was (ids, hands, units): only the printed words changed
    assert uk.json()["state"]["hands"] == en.json()["state"]["hands"]
    assert uk.json()["state"]["units"] == en.json()["state"]["units"]
    assert uk.json()["receipt"] == en.json()["receipt"]
    # a spectator reads no hand in any language
    spect = _view(api, gid, None, UK).json()["state"]
    assert isinstance(spect["hands"]["imperial"], int)
    assert sorted(spect["cards"]) == sorted(_view(api, gid, None).json()["state"]["cards"])
    # the label of playing a card carries its text in the reader's language
    legal = api.client.get(f"/games/{gid}/legal-commands", headers={**api.auth(g["seats"][api.view(gid)["to_act"][0]]), **UK})
    plays = [d["label"] for d in legal.json()["described"] if d["command"]["type"] == "play_card"]
    assert all(CYRILLIC.search(p) for p in plays)
    _log_and_verify_unchanged(api, gid, token)


def test_a_smoke_view_in_russian_shows_its_action_board_slots_in_russian(api: Api):
    g = api.create("smoke", "BTL-CROSSROADS")
    gid, token = g["game_id"], g["seats"]["player-1"]
    en, ru = _view(api, gid, token).json()["state"], _view(api, gid, token, RU).json()["state"]
    slots_en = en["boards"]["BOARD-TEST-1"]["slots"]
    slots_ru = {s["id"]: s for s in ru["boards"]["BOARD-TEST-1"]["slots"]}
    assert {s["id"]: s["name"] for s in slots_en}["T3"] == "Providence" and slots_ru["T3"]["name"] == "Провидение"
    assert slots_ru["A3"]["name"] == "Марш"
    for s in slots_en:
        assert CYRILLIC.search(slots_ru[s["id"]]["text"]), slots_ru[s["id"]]
        assert slots_ru[s["id"]]["effect"] == s["effect"]
    assert CYRILLIC.search(ru["battle"]["title"]) and CYRILLIC.search(ru["battle"]["briefing"])
    assert en["battle"]["title"] == "Crossroads of four armies"
    assert ru["profiles"]["line_infantry"]["name"] == "Линейная пехота"
    _log_and_verify_unchanged(api, gid, token)


def test_an_emperor_view_in_ukrainian_names_its_warriors_and_locations_in_ukrainian(api: Api):
    g, _ = api.play_random("emperor", "SETUP-AKHENA-VS-REBEL", 4, seed=4)
    gid, token = g["game_id"], g["seats"]["human"]
    en, uk = _view(api, gid, token).json()["state"], _view(api, gid, token, UK).json()["state"]
    names = {w["id"]: w["name"] for w in uk["warriors"]}
    assert names["akhena"] == "Ахена" and names["rebel"] == "Бунтар"
    assert {w["id"]: w["name"] for w in en["warriors"]}["akhena"] == "Akhena"
    locs = {lo["id"]: lo["name"] for lo in uk["battlefield"]["locations"]}
    assert locs["L5"] == "Пором" and all(CYRILLIC.search(n) for n in locs.values())
    cards = {c["id"]: c["name"] for c in uk["heroes"]["human"]["cards"]}
    assert cards["AK1"] == "Долевісниця"
    assert CYRILLIC.search(uk["title"]) and CYRILLIC.search(uk["battlefield"]["title"])
    # a star ability by its name in Ukrainian, and its notation (PUSH 1 MELEE) in the rulebook's words
    stars_en, stars_uk = en["heroes"]["human"]["stars"], uk["heroes"]["human"]["stars"]
    assert "PUSH 1 MELEE" in [s["text"] for s in stars_en]
    assert [s["text"] for s in stars_uk][[s["text"] for s in stars_en].index("PUSH 1 MELEE")] == "ПОШТОВХ 1 БЛИЖНІЙ БІЙ"
    assert all(CYRILLIC.search(s["text"]) for s in stars_uk)
    assert all(CYRILLIC.search(s["name"]) for s in stars_uk) and "Sand Gust" in [s["name"] for s in stars_en]
    # a past state reads in Ukrainian too
    at = api.view(gid)["version"] - 1
    past = api.client.get(f"/games/{gid}/states/{at}", headers={**api.auth(token), **UK})
    assert past.status_code == 200 and past.headers["content-language"] == "uk"
    assert {w["id"]: w["name"] for w in past.json()["state"]["warriors"]}["akhena"] == "Ахена"
    _log_and_verify_unchanged(api, gid, token)


def test_apply_touches_only_the_named_places_and_never_the_view_given():
    view = {"cards": {"C1": {"title": "Blitz", "text": "Order 2", "kind": "section"}}, "hands": {"a": ["C1"]},
            "scenario": {"title": "breach", "id": "s-1"}}
    got = printed.apply(view, (("cards", "*", "title"), ("scenario", "title"), ("missing", "*", "name")), str.upper)
    assert got["cards"]["C1"] == {"title": "BLITZ", "text": "Order 2", "kind": "section"}
    assert got["scenario"] == {"title": "BREACH", "id": "s-1"} and "missing" not in got
    assert view["cards"]["C1"]["title"] == "Blitz" and got["hands"] is view["hands"]
    assert printed.collect(view, (("cards", "*", "text"),)) == {"Order 2"}


def test_a_campaign_in_ukrainian_gives_its_title_briefing_and_secret_objectives_in_ukrainian(api: Api):
    r = api.client.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA", "seed": "0f" * 32})
    assert r.status_code == 201, r.text
    cid, tokens = r.json()["campaign_id"], r.json()["seats"]
    for token in tokens.values():
        en = api.client.get(f"/campaigns/{cid}", headers=api.auth(token))
        uk = api.client.get(f"/campaigns/{cid}", headers={**api.auth(token), **UK})
        assert uk.headers["content-language"] == "uk" and en.status_code == uk.status_code == 200
        a, b = en.json(), uk.json()
        assert a["title"] == "Outpost Delta" and b["title"] == "Застава «Дельта»"
        assert a["briefing"] and not CYRILLIC.search(a["briefing"]) and CYRILLIC.search(b["briefing"])
        # the caller's own secret objectives only, the same ones in either language
        assert [s["id"] for s in a["secret_objectives"]] == [s["id"] for s in b["secret_objectives"]]
        for s in b["secret_objectives"]:
            assert CYRILLIC.search(s["title"]) and CYRILLIC.search(s["text"])
        assert {k: v for k, v in b.items() if k not in ("title", "briefing", "secret_objectives")} == \
            {k: v for k, v in a.items() if k not in ("title", "briefing", "secret_objectives")}


def test_every_secret_objective_and_outcome_of_the_campaigns_reads_in_every_language():
    """The secret objectives sit in later battles of a campaign: their words, as a campaign's view holds them
    (the places the campaign rules name), in uk, ru, cs and it."""
    from domain.kernel import registry
    from domain.kernel.campaign import campaign_rules_of
    from scenarios.content import hand_to_rulesets

    hand_to_rulesets()
    rules = campaign_rules_of(registry.get("hoth"))
    views = rules.printed_samples()
    texts = set().union(*(printed.collect(v, rules.printed_paths) for v in views))
    assert "Hold the crest" in texts and len(texts) > 20
    for lang in ("uk", "ru", "cs", "it"):
        for v in views:
            english = printed.collect(v, rules.printed_paths)
            got = printed.collect(i18n.printed_in(v, rules.printed_paths, lang), rules.printed_paths)
            assert len(got) == len(english) and not got & english, (lang, got & english)
            assert lang in ("cs", "it") or all(CYRILLIC.search(t) for t in got), (lang, got)
