"""The page follows the browser's language and keeps a reader's own choice (issue 28): a Ukrainian
browser gets the lobby in Ukrainian, the switcher turns it to Czech, and the choice survives a reload
(localStorage); the API's answers on the page come in the same language (Accept-Language)."""
from __future__ import annotations

import httpx

from .conftest import shot


def test_the_switcher_changes_the_page_language_and_survives_reload(server, contexts):
    page = contexts.page(locale="uk-UA")
    page.goto(f"{server.url}/#/")
    page.wait_for_selector("#h-games")
    assert page.evaluate("document.documentElement.lang") == "uk"
    assert page.text_content("#h-games") == "Ігри"
    assert page.text_content("header.top nav a") == "Лобі"
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.headers.get("accept-language", "")) if "/games" in r.url else None)
    shot(page, "lobby-uk")
    page.select_option("#lang", "cs")
    page.wait_for_function("() => document.documentElement.lang === 'cs'")
    page.wait_for_selector("#h-games >> text=Hry")
    assert page.evaluate("localStorage.getItem('umpire.lang')") == "cs"
    page.reload()
    page.wait_for_selector("#h-games >> text=Hry")
    assert page.evaluate("document.documentElement.lang") == "cs"
    assert page.input_value("#lang") == "cs"
    assert "cs" in asked, asked  # the lobby's API calls ask for the page's language


def test_an_emperor_game_reads_in_ukrainian(server, contexts):
    g = httpx.post(f"{server.url}/games", json={"ruleset": "emperor", "scenario": "SETUP-AKHENA-VS-REBEL"}).json()
    page = contexts.page(locale="uk")
    page.goto(f"{server.url}/#/game/{g['game_id']}?tab=replay")
    page.wait_for_selector("#app h1")
    timeline = httpx.get(f"{server.url}/games/{g['game_id']}/timeline", headers={"accept-language": "uk"}).json()
    assert timeline["steps"][-1]["summary"].startswith("хід 1")
    page.wait_for_function("() => document.querySelector('#app')?.textContent.includes('хід 1')")
    shot(page, "emperor-uk", full_page=True)


def test_a_smoke_game_reads_in_russian(server, contexts):
    """Clouds of Smoke in the language of its rulebook: the replay's timeline in Russian (kept as an
    artefact, smoke-ru.png)."""
    g = httpx.post(f"{server.url}/games", json={"ruleset": "smoke", "scenario": "BTL-CROSSROADS"}).json()
    gid = g["game_id"]
    for _ in range(6):  # a few steps so the timeline has the game's own lines
        v = httpx.get(f"{server.url}/games/{gid}").json()
        if v["status"] != "active" or not v["to_act"]:
            break
        seat = v["to_act"][0]
        auth = {"Authorization": f"Bearer {g['seats'][seat]}"}
        legal = httpx.get(f"{server.url}/games/{gid}/legal-commands", headers=auth).json()
        httpx.post(f"{server.url}/games/{gid}/commands", headers=auth,
                   json={"command": legal["commands"][-1], "expected_version": legal["version"]})
    page = contexts.page(locale="ru")
    page.goto(f"{server.url}/#/game/{gid}?tab=replay")
    page.wait_for_selector("#app h1")
    timeline = httpx.get(f"{server.url}/games/{gid}/timeline", headers={"accept-language": "ru"}).json()
    assert timeline["steps"][-1]["summary"] and any("ход 1" in s["summary"] for s in timeline["steps"])
    page.wait_for_timeout(500)
    shot(page, "smoke-ru", full_page=True)
