"""The ruleset's words on the play page (DESIGN 12), Debian's Chromium through Playwright against a
real ``umpire serve``: Smoke's die placement names the die's face and the slot's action, taking the
risk shows its warning and asks "Send anyway" before anything is sent; the Emperor's moves name the
warrior and the cells, a move into a hazard warns first, and "Latest steps" names the Emperor's
automaton. Screenshots at 1280 and 375 px are kept as artefacts (and looked at)."""
from __future__ import annotations

import json
import re

import random
from typing import Any

import httpx

from .conftest import shot
from .test_axe import AXE, RUN_AXE
from .harness import AT_VERSION


def _until(base: str, gid: str, clients: dict[str, httpx.Client], want, avoid=lambda d: False, steps: int = 80,
           seed: int = 3, ready=lambda view: True) -> tuple[str, dict[str, Any]]:
    """Play over REST until the seat to act is offered a command ``want(described)`` likes (once
    ``ready(view)``)."""
    rng = random.Random(seed)
    for _ in range(steps):
        view = httpx.get(f"{base}/games/{gid}").json()
        seat = view["to_act"][0]
        legal = clients[seat].get(f"/games/{gid}/legal-commands").json()
        if ready(view) and any(want(d) for d in legal["described"]):
            return seat, legal
        safe = [d["command"] for d in legal["described"] if not avoid(d)] or legal["commands"]
        r = clients[seat].post(f"/games/{gid}/commands", json={"command": rng.choice(safe), "expected_version": legal["version"]})
        assert r.status_code == 201, r.text
    raise AssertionError("never offered")


def _open(contexts, base: str, gid: str, token: str, version: int, width: int) -> Any:
    page = contexts.page(width=width, height=900 if width > 500 else 800)
    page.goto(f"{base}/#/game/{gid}?token={token}")
    page.wait_for_function(AT_VERSION, arg=version)
    page.wait_for_selector("#all-commands [data-command]", state="attached")
    # where the ruleset's board is the way to play, the generic list is folded under "All legal commands"
    page.evaluate("() => document.querySelectorAll('details.all-cmds').forEach((d) => { d.open = true; })")
    page.wait_for_selector("#all-commands [data-command]")
    return page


def test_smoke_labels_and_the_risk_warning_on_the_page(server, contexts):
    base = server.url
    g = httpx.post(f"{base}/games", json={"ruleset": "smoke", "scenario": "BTL-CROSSROADS", "seed": "5a" * 32}).json()
    gid, seats = g["game_id"], g["seats"]
    clients = {s: httpx.Client(base_url=base, headers={"authorization": f"Bearer {t}"}, timeout=30) for s, t in seats.items()}
    seat, legal = _until(base, gid, clients, lambda d: d["command"]["type"] == "take_risk",
                         avoid=lambda d: d["command"]["type"] in ("take_risk", "end_placement"))
    risk = next(d for d in legal["described"] if d["command"]["type"] == "take_risk")
    die = next(d for d in legal["described"] if d["command"]["type"] == "place_die")
    for width in (1280, 375):
        # the table's own controls carry the ruleset's words: no generic list repeats them (issue 30)
        page = contexts.page(width=width, height=900 if width > 500 else 800)
        page.goto(f"{base}/#/game/{gid}?token={seats[seat]}")
        page.wait_for_function(AT_VERSION, arg=legal["version"])
        page.wait_for_selector("#action-board button[data-command*='take_risk']")
        assert page.locator("#all-commands [data-command*='take_risk'], #all-commands [data-command*='place_die']").count() == 0
        text = page.text_content("#action-board")
        assert risk["label"] in text
        assert "1 in 6" in text and "SMOKE-RISK-5" in text  # the warning is there before the choice
        assert "place die" not in text and "take risk" not in text  # no field names
        face = str(page.locator(f'#action-board .die[data-die="{die["command"]["die"]}"]').text_content())
        assert f"Put your {face} on " in die["label"]
        if width == 1280 and die["warning"]:  # what placing the die costs, beside the slot, before the choice
            page.click(f'#action-board .die[data-die="{die["command"]["die"]}"]')
            slot = page.locator(f'#action-board li.slot[data-slot="{die["command"]["slot"]}"]')
            slot.locator("button.place-here").wait_for()
            assert die["warning"] in slot.text_content()
        button = page.locator("#action-board button[data-command*='take_risk']")
        button.scroll_into_view_if_needed()
        shot(page, f"words-smoke-{width}", full_page=True)
        if width == 375:
            button.click()  # the first press asks again: nothing is sent
            page.wait_for_selector("#action-board .cmd-confirm:not([hidden]) .confirm-send")
            shot(page, "words-smoke-confirm-375", full_page=False)
            assert clients[seat].get(f"/games/{gid}").json()["version"] == legal["version"]
            page.click("#action-board .cmd-confirm:not([hidden]) .confirm-send")
            page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=legal["version"])
            ev = clients[seat].get(f"/games/{gid}/events", params={"after": legal["version"]}).json()["events"][0]
            assert ev["type"] == "risk_taken" and ev["by"]["seat"] == seat
        page.context.close()


def test_emperor_labels_hazard_warning_and_the_automaton_in_latest_steps(server, contexts):
    base = server.url
    g = httpx.post(f"{base}/games", json={"ruleset": "emperor", "scenario": "SETUP-AKHENA-VS-REBEL", "seed": "5b" * 32}).json()
    gid, seats = g["game_id"], g["seats"]
    clients = {s: httpx.Client(base_url=base, headers={"authorization": f"Bearer {t}"}, timeout=30) for s, t in seats.items()}
    hazard = lambda d: bool(d["warning"]) and "active hazard" in d["warning"]  # noqa: E731
    seat, legal = _until(base, gid, clients, hazard, avoid=lambda d: bool(d["warning"]),
                         ready=lambda view: view["turn"] >= 3)  # the Emperor has played a turn
    warned = next(d for d in legal["described"] if hazard(d))
    for width in (1280, 375):
        page = _open(contexts, base, gid, seats[seat], legal["version"], width)
        text = page.text_content("#all-commands")
        assert warned["label"] in text and warned["label"].startswith("Move ")
        assert warned["warning"] in text and "BASE-HAZ-2" in text
        assert "bonuses" not in text and "[]" not in text
        page.wait_for_selector("ol.recent li")
        recent = page.text_content("ol.recent")
        assert "the Emperor (automaton): " in recent and "(human)" not in recent
        page.locator(f"#all-commands button[data-warning]").first.scroll_into_view_if_needed()
        shot(page, f"words-emperor-{width}", full_page=True)
        page.context.close()



def test_lobby_offers_bots_for_every_ruleset_and_options_in_words(server, contexts):
    page = contexts.page(width=1280)
    page.goto(f"{server.url}/#/")
    page.wait_for_selector("#c-ruleset option", state="attached")
    for ruleset, seats in (("emperor", ["human"]), ("smoke", ["player-1", "player-2"]), ("hoth", ["imperial", "rebel"])):
        page.select_option("#c-ruleset", ruleset)
        for s in seats:
            bot = page.locator(f"#c-bot-{s} option")
            texts = bot.all_text_contents()
            assert texts[0] == "a person" and any(t.startswith("Random") for t in texts), (ruleset, texts)
        opts = page.text_content("#c-options")
        assert "maxProperties" not in opts and "type;" not in opts
        scen = page.locator("#c-scenario option").all_text_contents()
        assert scen and not any(t.startswith(("BTL-", "SETUP-", "SCN-")) for t in scen), scen
        if ruleset == "smoke":
            assert any(t.startswith("Open field: ") for t in scen) and not any("GAP-B-09" in t for t in scen)
    page.select_option("#c-ruleset", "emperor")
    assert "emperor takes no options." in page.text_content("#c-options")
    shot(page, "words-lobby-1280")
    page.context.close()


def test_hoths_options_note_says_the_team_choice_in_words_in_every_language(server, contexts):
    """The create form asks Battle of Hoth's team play in words; its note says it in words too (``x-note`` of
    GET /rulesets), never in the API's syntax (``true``, ``"imperial"``), in the page's language."""
    syntax = ('true', 'false', '"imperial"', '"rebel"', 'imperial-2', 'a list of 2')
    for lang, width, team in (("en", 1280, "Team play (HOTH-TEAM-1): no teams"), ("uk", 1280, "Командна гра (HOTH-TEAM-1)"),
                              ("uk", 375, "Командна гра (HOTH-TEAM-1)"), ("cs", 1280, "Týmová hra (HOTH-TEAM-1)"),
                              ("it", 1280, "Gioco a squadre (HOTH-TEAM-1)"), ("ru", 1280, "Командная игра (HOTH-TEAM-1)")):
        page = contexts.page(width=width, locale=lang)
        page.goto(f"{server.url}/#/")
        page.wait_for_selector("#c-ruleset option", state="attached")
        page.select_option("#c-ruleset", "hoth")
        page.wait_for_selector("#c-options-note")
        note = page.text_content("#c-options-note") or ""
        assert team in note and not [w for w in syntax if w in note], (lang, note)
        assert note.count("HOTH-TEAM-1") == 1 and "HOTH-LEADER-2" in note, note  # each option said once
        if lang != "en":
            assert "players" not in note and "Leader cards" not in note, note
            # the form's sides in words too, not their ids (the leaders' and support cards' rows)
            form = page.text_content("#c-options fieldset") or ""
            assert not re.search(r"\b(imperial|rebel)\b", form), (lang, form)
        if lang == "uk":
            page.locator("#c-options-note").scroll_into_view_if_needed()
            shot(page, f"words-lobby-hoth-note-uk-{width}", full_page=True)
        page.context.close()


#: HOTH-LEADER-1 by each rulebook's printed names (domain/hoth/team.py ``LEADER_NAMES``, the catalogs' context
#: ``name``), per side, as the options form must offer them.
PRINTED_LEADERS = {
    "en": {"imperial": ["Darth Vader", "Maximilian Veers", "Firmus Piett"], "rebel": ["Leia Organa", "Luke Skywalker", "Han Solo"]},
    "uk": {"imperial": ["Дарт Вейдер", "Максиміліан Вірс", "Фірмус Пієтт"], "rebel": ["Лея Орґана", "Люк Скайвокер", "Ган Соло"]},
}
LEADERS = {"imperial": ["vader", "veers", "piett"], "rebel": ["leia", "luke", "han"]}
LEADER_IDS = {x for ids in LEADERS.values() for x in ids}


def _hoth_form(contexts: Any, base: str, lang: str, width: int) -> Any:
    # the service's CSP forbids an injected script: the page bypasses it for axe-core (tests/web/test_axe.py)
    page = contexts.page(width=width, height=900 if width > 500 else 800, locale=lang, bypass_csp=True)
    page.goto(f"{base}/#/")
    page.wait_for_selector("#c-ruleset option", state="attached")
    page.select_option("#c-ruleset", "hoth")
    page.wait_for_selector("#opt-support-rebel")
    return page


def test_hoths_leaders_and_support_cards_are_chosen_by_name_never_by_id(server, contexts):
    """The options form offers each side's leaders by the names the rulebook prints and its support cards as boxes
    to tick, named and explained (GET /rulesets ``x-items``); no id is an option's text or a label's, and no field
    asks for typed card ids. Looked at in uk and en, 1280 and 375 px wide."""
    listing = next(r for r in httpx.get(f"{server.url}/rulesets").json() if r["id"] == "hoth")
    card_ids = {f: [c["id"] for c in listing["options"]["properties"]["support"]["x-items"][f]] for f in ("imperial", "rebel")}
    assert all(len(v) == 5 for v in card_ids.values())
    for lang in ("en", "uk"):
        for width in (1280, 375):
            page = _hoth_form(contexts, server.url, lang, width)
            form = page.locator("#c-options fieldset.options")
            assert form.locator("input[type=text], textarea").count() == 0  # no typed ids come back
            for f in ("imperial", "rebel"):
                for i in (0, 1):
                    sel = page.locator(f"#opt-leader-{f}-{i}")
                    texts = [x.strip() for x in sel.locator("option").all_text_contents()]
                    values = [o.get_attribute("value") for o in sel.locator("option").all()]
                    assert texts[1:] == PRINTED_LEADERS[lang][f], (lang, f, texts)
                    assert values == ["", *LEADERS[f]]  # what is sent stays the id (HOTH-LEADER-1)
                    assert not LEADER_IDS & {t.lower() for t in texts}, texts
                boxes = page.locator(f"#opt-support-{f} input[type=checkbox]")
                assert [b.get_attribute("value") for b in boxes.all()] == card_ids[f]
                labels = page.locator(f"#opt-support-{f} label.support-card")
                assert labels.count() == 5
                for lab in labels.all():
                    name = lab.locator("strong").text_content().strip()
                    assert name and name not in card_ids[f] and not re.search(r"PROP-|SUP-", name), name
                    if lang == "uk":
                        assert re.search(r"[А-Яа-яІіЇїЄєҐґ]", name) and re.search(r"[А-Яа-яІіЇїЄєҐґ]", lab.text_content())
            text = form.text_content() or ""
            assert not re.search(r"PROP-|SUP-|\b(vader|veers|piett|leia|luke|han)\b", text), text
            if lang == "uk":
                assert "Дарт Вейдер" in text and "карти підтримки" in text and "Card" not in text
            # the rule that limits them, cited in the options' note
            assert "CAMPAIGN-4" in (page.text_content("#c-options-note") or "")
            page.evaluate("() => document.querySelectorAll('#c-options details').forEach((d) => { d.open = true; })")
            page.locator("#opt-support-rebel label.support-card").nth(1).click()
            page.select_option("#opt-leader-imperial-0", "vader")
            assert page.locator("#opt-leader-imperial-0 option:checked").text_content() == PRINTED_LEADERS[lang]["imperial"][0]
            page.locator("#opt-support-rebel summary").scroll_into_view_if_needed()
            # readable on a phone: nothing wider than the page
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (lang, width)
            shot(page, f"words-lobby-hoth-options-{lang}-{width}", full_page=True)
            # every box and list has its name for a screen reader (axe-core, the lists opened)
            assert AXE.exists(), f"axe-core is missing ({AXE}): run ops/ensure-axe"
            page.add_script_tag(path=str(AXE))
            serious = [v for v in page.evaluate(RUN_AXE) if v["impact"] in ("serious", "critical")]
            assert not [n["target"] for v in serious for n in v["nodes"] if "opt-" in n["target"] or "c-options" in n["target"]], serious
            page.locator("#c-options").screenshot(path=str(shot(page, f"words-lobby-hoth-options-form-{lang}-{width}")))
            page.context.close()


def test_a_hoth_game_created_with_a_leader_and_two_support_cards_picked_by_name(server, contexts):
    """Picked in Ukrainian, by name: the game created has the options an API client would have sent, ids only
    (``leaders``: the id; ``support``: the faction's card ids), as its header (event 1) records them."""
    page = _hoth_form(contexts, server.url, "uk", 375)
    page.select_option("#opt-leader-imperial-0", label="Дарт Вейдер")
    page.click("#opt-support-rebel summary")
    rebel = page.locator("#opt-support-rebel label.support-card")
    picked = [rebel.nth(0), rebel.nth(3)]
    for lab in picked:
        lab.click()
    ids = [lab.locator("input").get_attribute("value") for lab in picked]
    names = [lab.locator("strong").text_content() for lab in picked]
    # the closed line says the choice by name
    assert page.locator("#opt-support-rebel summary").text_content().endswith(", ".join(names))
    want = {"leaders": {"imperial": "vader"}, "support": {"rebel": ids}}
    assert json.loads(page.locator("#c-options-json").input_value()) == want
    page.select_option("#c-keep", "none")
    page.click("#c-submit")
    page.wait_for_selector(".created h3")
    gid = page.locator(".created h3").text_content().split()[1]
    header = httpx.get(f"{server.url}/games/{gid}/events", params={"limit": 1}).json()["events"][0]["payload"]
    assert header["type"] == "game_created" and header["options"] == want
    page.context.close()
