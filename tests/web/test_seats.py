"""The lobby seats players by invitation (DESIGN 4): its creator's browser keeps only the seat it picked,
every other seat is a one-time invitation link (``#/claim/<game>/<seat>?invite=...``) that the claimant's own
browser exchanges for the seat's token, leaving the address bar without it; a second opening of the link
claims nothing. The fairness panel says how each seat is held and that the creator chose the seed."""
from __future__ import annotations

from typing import Any

import httpx

from .conftest import shot
from .harness import SCENARIO

SEED = "3c" * 32


def stored(page: Any) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('umpire.tokens') || '{}')")


def test_a_seat_is_claimed_in_the_claimants_browser_only(server, contexts):
    creator = contexts.page()
    creator.goto(server.url + "/")
    creator.wait_for_selector("#c-scenario option", state="attached")
    creator.select_option("#c-ruleset", "hoth")
    creator.select_option("#c-scenario", f"s:{SCENARIO}")
    creator.click("#create > details > summary")
    creator.fill("#c-seed", SEED)
    creator.select_option("#c-keep", "seat:imperial")
    creator.click("#c-submit")
    creator.wait_for_selector('.created li[data-seat="rebel"] input.invite')
    shot(creator, "lobby-invitations", full_page=True)
    link = creator.locator('.created li[data-seat="rebel"] input.invite').input_value()
    game_id = creator.locator(".created h3").text_content().split()[1]
    assert f"#/claim/{game_id}/rebel?invite=" in link and "token=" not in link
    assert creator.locator('.created li[data-seat="imperial"] a.play-seat').count() == 1
    # the creator's browser holds imperial's token and nothing of rebel
    mine = stored(creator)[game_id]
    assert list(mine) == ["imperial"]
    api = httpx.Client(base_url=server.url, timeout=30)
    assert api.get(f"/games/{game_id}/legal-commands",
                   headers={"authorization": f"Bearer {mine['imperial']}"}).json()["seat"] == "imperial"

    rebel = contexts.page()
    rebel.goto(link)
    rebel.wait_for_selector("#board svg [data-unit]")
    assert "invite=" not in rebel.url and "seat=rebel" in rebel.url
    held = stored(rebel)[game_id]
    assert list(held) == ["rebel"]
    assert api.get(f"/games/{game_id}/legal-commands",
                   headers={"authorization": f"Bearer {held['rebel']}"}).json()["seat"] == "rebel"
    assert held["rebel"] not in link and held["rebel"] != mine["imperial"]

    # the same link again, in another browser: nothing is claimed, nothing stored, the page says why
    late = contexts.page()
    late.goto(link)
    late.wait_for_selector("[role=alert]")
    assert "claimed already" in late.text_content("[role=alert]")
    assert "invite=" not in late.url and game_id not in stored(late)
    refused = [e for e in contexts.watch.errors if "410" in e]
    assert refused  # the browser logs the refused request; nothing else may fail
    contexts.watch.errors[:] = [e for e in contexts.watch.errors if e not in refused]

    # the fairness panel: how each seat is held, and the chosen seed said plainly
    rebel.click("#tab-fairness")
    rebel.wait_for_selector("#fair-seed-given")
    assert "The creator chose this game’s seed: they can compute every roll." in rebel.text_content("#fair-seed-given")
    claimed = {li.get_attribute("data-seat"): li.get_attribute("data-claimed")
               for li in rebel.locator("#fair-seats li[data-seat]").all()}
    assert claimed == {"imperial": "creator", "rebel": "invitation"}
    shot(rebel, "fairness-seats", full_page=True)
    api.close()
