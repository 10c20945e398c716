"""The fairness panel of a campaign's second battle says what was sealed at its start (UMPIRE-SEAL-2): the
winner's kept support cards, each matching the commitment its header published, their contents hidden. A real
campaign on a real ``umpire serve``: battle 1 played to its end over HTTP by random legal commands, battle 2
read in Debian's Chromium as a watcher."""
from __future__ import annotations

import random

import httpx

from .conftest import shot

CAMPAIGN = "CMP-2-OUTPOST-DELTA"


def _play_to_the_end(api: httpx.Client, gid: str, tokens: dict[str, str], rng: random.Random) -> None:
    for _ in range(5000):
        view = api.get(f"/games/{gid}").json()
        if view["status"] == "finished":
            return
        seat = rng.choice(view["to_act"])
        h = {"Authorization": f"Bearer {tokens[seat]}"}
        legal = api.get(f"/games/{gid}/legal-commands", headers=h).json()
        cmds = [c for c in legal["commands"] if not c["type"].startswith("undo")]
        r = api.post(f"/games/{gid}/commands", headers=h,
                     json={"command": rng.choice(cmds), "expected_version": legal["version"]})
        assert r.status_code == 201, r.text
    raise AssertionError(f"battle {gid} did not end")


def test_a_battles_sealed_support_hand_is_shown_as_checked_and_hidden(server, contexts):
    api = httpx.Client(base_url=server.url, timeout=30)
    b = api.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": "5a" * 32}).json()
    cid, tokens = b["campaign_id"], b["seats"]
    _play_to_the_end(api, b["game_id"], tokens, random.Random(3))
    camp = api.get(f"/campaigns/{cid}").json()
    second = camp["game_id"]
    assert second != b["game_id"]
    verify = api.get(f"/games/{second}/verify").json()
    assert verify["sealed"]["ok"] and verify["sealed"]["parts"], verify.get("sealed")
    sealed_side = verify["sealed"]["parts"][0].split(".")[1]
    kept = api.get(f"/campaigns/{cid}", headers={"Authorization": f"Bearer {tokens[sealed_side]}"}).text

    page = contexts.page()
    page.goto(f"{server.url}/#/game/{second}?tab=fairness")
    line = page.wait_for_selector("#fair-sealed")
    text = line.text_content()
    assert line.get_attribute("data-ok") == "true"
    assert f"support dealt ({sealed_side})" in text and "matches the commitment" in text, text
    assert "_" not in text and "support_dealt" not in text  # no raw field syntax
    # the panel as a whole names no card of the sealed hand (the watcher may not know it)
    panel = page.text_content("#panel-fairness") or ""
    hand = [w for w in kept.replace('"', " ").split() if w.startswith("PROP-SUP-")]
    assert hand and not any(card in panel for card in hand), hand
    shot(page, "fairness-sealed", full_page=True)
    page.set_viewport_size({"width": 375, "height": 800})
    shot(page, "fairness-sealed-375", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    api.close()
