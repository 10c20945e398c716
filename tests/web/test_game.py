"""A whole hoth game in the browser (DESIGN 12): created in the lobby, played by clicking in two
browser contexts (one per seat) with the other seat's moves arriving live over the feed, a free
undo and an undo by consent accepted from the other context, then replayed with the slider and
the keys, and its dice re-checked in the browser by the fairness panel (passing, and failing on a
tampered roll served by a test double of the ruling)."""
from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from .conftest import Contexts, pinned, shot, PIN_TOLERANCE
from .harness import MAX_COMMANDS, SCENARIO, Player


def create_in_lobby(page: Any, base: str) -> tuple[str, dict[str, str]]:
    """Create a hoth game with the lobby's form, inviting every seat (its creator only watches); the
    invitation links it shows, by seat."""
    page.goto(base + "/")
    page.wait_for_selector("#c-scenario option", state="attached")
    page.select_option("#c-ruleset", "hoth")  # the lobby lists every ruleset (emperor, hoth, smoke)
    page.select_option("#c-scenario", f"s:{SCENARIO}")
    page.select_option("#c-keep", "none")
    shot(page, "lobby", full_page=True)
    page.click("#c-submit")
    page.wait_for_selector(".created ul.seats li")
    shot(page, "lobby-created", full_page=True)
    links = {li.get_attribute("data-seat"): li.locator("input.invite").input_value()
             for li in page.locator(".created ul.seats li").all()}
    game_id = page.locator(".created h3").text_content().split()[1]
    return game_id, links


def token_of(page: Any, game_id: str, seat: str) -> str:
    """The seat's token, as the claiming browser stored it (the only place it is)."""
    return page.evaluate("(k) => JSON.parse(localStorage.getItem('umpire.tokens'))[k[0]][k[1]]", [game_id, seat])


@pytest.fixture(scope="module")
def game(server: Any, browser: Any) -> Any:
    """The whole game, played by clicking; what the later tests need to know about it."""
    ctx = Contexts(browser)
    api = httpx.Client(base_url=server.url, timeout=30)
    try:
        lobby = ctx.page()
        game_id, links = create_in_lobby(lobby, server.url)
        assert set(links) == {"imperial", "rebel"}
        players: dict[str, Player] = {}
        held: dict[str, str] = {}
        for i, (seat, link) in enumerate(sorted(links.items())):
            page = ctx.page()
            page.goto(link)
            page.wait_for_selector("#board svg [data-unit]")
            # the header names the game by its printed title, never by the ruleset's id
            page.wait_for_function("() => document.querySelector('#game-title').textContent.startsWith('Battle of Hoth · ')")
            # the invitation claims the seat in this browser and leaves the address bar
            assert "invite=" not in page.url and f"seat={seat}" in page.url
            held[seat] = token_of(page, game_id, seat)
            players[seat] = Player(page, server.url, game_id, seat, held[seat], seed=i)
        facts: dict[str, Any] = {"game_id": game_id, "tokens": held,
                                 "live": 0, "free_undo": None, "consent_undo": None}
        shot(players["imperial"].page, "board-imperial-start", full_page=True)
        n = 0
        clicked: dict[str, int] = {}  # commands each seat made by clicking
        while n < MAX_COMMANDS:
            view = api.get(f"/games/{game_id}").json()
            if view["status"] != "active":
                break
            seat = view["to_act"][0]
            me, other = players[seat], players["rebel" if seat == "imperial" else "imperial"]
            cmd = me.play_one()
            n += 1
            clicked[seat] = clicked.get(seat, 0) + 1
            version = api.get(f"/games/{game_id}").json()["version"]
            # the other seat's page shows the move without a reload: it follows the feed
            other.wait_version(version)
            facts["live"] += 1
            if facts["free_undo"] is None and cmd["type"] == "order_unit":
                facts["free_undo"] = undo_freely(me, other, api, game_id, cmd)
            elif facts["consent_undo"] is None and cmd["type"] == "attack":
                facts["consent_undo"] = undo_by_consent(me, other, api, game_id)
        final = api.get(f"/games/{game_id}").json()
        assert final["status"] == "finished", f"no result after {n} commands"
        for seat, p in players.items():
            p.wait_version(final["version"])
            p.page.wait_for_selector("body[data-status=finished]")
            # the feed of a finished game ends (no event can follow): the page stops following it
            p.page.wait_for_selector("#feed-state[data-state=ended]", timeout=15_000)
            facts.setdefault("feed_badges", []).append(p.page.inner_text("#feed-state"))
            shot(p.page, f"board-{seat}-end", full_page=True)
        facts.update(commands=n, clicked=clicked, version=final["version"], winner=final["winner"],
                     metrics={s: p.page.evaluate("window.__umpireMetrics") for s, p in players.items()})
        facts["receipt"] = receipt_panel(players["imperial"].page)  # reloads the page: after the metrics
        for p in players.values():
            p.close()
        yield facts
    finally:
        api.close()
        ctx.close()


def receipt_panel(page: Any) -> dict[str, str]:
    """The seat's fairness panel checks its last signed receipt in the browser (Web Crypto Ed25519);
    then the same page is served another key with a matching key id, and the signature must fail."""
    page.click("#tab-fairness")
    page.wait_for_selector("#fair-receipt li")
    shot(page, "fairness-receipt", full_page=True)
    good = page.text_content("#fair-receipt")
    other = Ed25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def swap(route: Any) -> None:
        res = route.fetch()
        body = res.json()
        body["public_key"] = base64.urlsafe_b64encode(other).rstrip(b"=").decode()
        body["key_id"] = body_key_id(other)
        route.fulfill(response=res, body=json.dumps(body))

    page.route("**/.well-known/umpire-key", swap)
    page.reload()
    page.click("#tab-fairness")
    page.wait_for_selector("#fair-receipt li")
    return {"good": good, "swapped_key": page.text_content("#fair-receipt"), "key_id": body_key_id(other)}


def body_key_id(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:16]


def undo_freely(me: Player, other: Player, api: httpx.Client, game_id: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """Right after an order (nothing revealed): the panel says free, and the undo is done at once."""
    page = me.page
    page.click("#undo summary")
    page.wait_for_selector("#undo-cost[data-free]")
    assert page.get_attribute("#undo-cost", "data-free") == "true", page.text_content("#undo-cost")
    before = api.get(f"/games/{game_id}").json()["version"]
    page.click("#undo-go")
    me.wait_version(before + 1)
    other.wait_version(before + 1)
    ev = api.get(f"/games/{game_id}/events", params={"after": before}).json()["events"][0]
    assert ev["type"] == "undone"
    page.click("#undo summary")  # close it again
    # the order is undone: the unit can be ordered again
    assert cmd in me.legal()["commands"]
    return {"seq": ev["seq"], "payload": ev["payload"]}


def undo_by_consent(me: Player, other: Player, api: httpx.Client, game_id: str) -> dict[str, Any]:
    """Right after an attack (dice rolled): the panel says consent is needed; the request appears
    live in the other context, which accepts it."""
    page = me.page
    if not page.locator("#undo summary").count():
        return None  # type: ignore[return-value]
    page.click("#undo summary")
    page.wait_for_selector("#undo-cost[data-free]")
    assert page.get_attribute("#undo-cost", "data-free") == "false", page.text_content("#undo-cost")
    assert "roll" in page.text_content("#undo-cost")
    to_version = int(page.locator("#undo-to").input_value())
    before = api.get(f"/games/{game_id}").json()["version"]
    page.click("#undo-go")
    me.wait_version(before + 1)
    other.page.wait_for_selector("#undo-accept")
    shot(other.page, "undo-request", full_page=True)
    other.page.click("#undo-accept")
    me.wait_version(before + 2)
    other.wait_version(before + 2)
    page.click("#undo summary") if page.locator("#undo summary").count() else None
    events = api.get(f"/games/{game_id}/events", params={"after": to_version}).json()["events"]
    done = [e for e in events if e["type"] == "undone"]
    assert done and done[-1]["payload"]["consented_by"] == other.seat
    undone = [e["seq"] for e in events if e["undone"]]
    assert undone and min(undone) == to_version + 1
    return {"to_version": to_version, "undone": undone}


def test_a_whole_game_is_played_by_clicking_with_live_updates(game):
    assert game["commands"] >= 10 and game["winner"] in ("imperial", "rebel")
    assert game["live"] == game["commands"]
    assert game["feed_badges"] == ["game over", "game over"]
    for seat, m in game["metrics"].items():
        assert m["firstBoard"] is not None and m["firstBoard"] > 0
        # every command a seat clicked was timed from the click to the redrawn board (undo clicks add more);
        # a short game (the shields down early) may leave one seat few commands
        assert game["clicked"].get(seat, 0) >= 1, seat
        assert len(m["clicks"]) >= game["clicked"][seat], (seat, len(m["clicks"]), game["clicked"])
        assert all(t > 0 for t in m["clicks"]), seat


def test_undo_free_and_by_consent(game):
    assert game["free_undo"] is not None, "no order to undo freely in this game"
    assert game["consent_undo"] is not None, "no attack to undo by consent in this game"


def _rolled_steps(api: httpx.Client, game_id: str, version: int) -> dict[int, dict[str, Any]]:
    out = {}
    for seq in range(1, version + 1):
        r = api.get(f"/games/{game_id}/events/{seq}/ruling").json()
        if r.get("rolls"):
            out[seq] = r
    return out


def test_replay_with_the_slider_shows_each_steps_board_and_ruling(game, server, contexts):
    api = httpx.Client(base_url=server.url, timeout=30)
    gid = game["game_id"]
    steps = api.get(f"/games/{gid}/timeline").json()["steps"]
    attack = next(s for s in steps if s["type"] == "attack_rolled" and not s["undone"])
    page = contexts.page()
    page.goto(f"{server.url}/#/game/{gid}?tab=replay")
    page.wait_for_selector(f"#ruling[data-at='{game['version']}']")
    # keys on the slider: Home, then → three times
    page.focus("#replay-slider")
    page.keyboard.press("Home")
    page.wait_for_selector("#ruling[data-at='0']")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector("#ruling[data-at='3']")
    assert page.input_value("#replay-slider") == "3"
    page.keyboard.press("End")
    page.wait_for_selector(f"#ruling[data-at='{game['version']}']")
    # the attack step from the list of steps, then ← and → around it
    seq = attack["seq"]
    page.click(f"#timeline li[data-seq='{seq}'] button")
    page.wait_for_selector(f"#ruling[data-at='{seq}']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"#ruling[data-at='{seq - 1}']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"#ruling[data-at='{seq}']")
    page.wait_for_selector(f"#replay-board[data-at='{seq}'] svg")
    shot(page, "replay-attack", full_page=True)
    # the ruling: each rule id linked to its text, the dice with their indices and values
    ruling = api.get(f"/games/{gid}/events/{seq}/ruling").json()
    hrefs = page.eval_on_selector_all("#ruling a.rule", "as => as.map(a => [a.dataset.rule, a.getAttribute('href')])")
    assert [r for r, _ in hrefs] == [s["rule"] for s in ruling["ruling"]["steps"]]
    assert all(href == s.get("rule_url", f"/rulesets/hoth/rules/{s['rule']}")
               for (_, href), s in zip(hrefs, ruling["ruling"]["steps"]))
    rows = page.eval_on_selector_all("#dice tbody tr", "trs => trs.map(tr => [...tr.cells].map(td => td.textContent))")
    assert [(r[0], int(r[1]), int(r[2]), int(r[3])) for r in rows] == [
        (d["stream"], d["index"], d["sides"], d["value"]) for d in ruling["rolls"]]
    faces = next(s["values"]["faces"] for s in ruling["ruling"]["steps"] if "faces" in s.get("values", {}))
    assert [r[4] for r in rows] == faces
    # the board as it was: every unit where the state after that step has it
    state = api.get(f"/games/{gid}/states/{seq}").json()["state"]
    drawn = dict(page.eval_on_selector_all("#replay-board [data-unit]", "gs => gs.map(g => [g.dataset.unit, g.dataset.hex])"))
    assert drawn == {u["id"]: f"{u['hex'][0]},{u['hex'][1]}" for u in state["units"]}
    # ... and a different step shows a different board
    page.focus("#replay-slider")
    page.keyboard.press("Home")
    page.wait_for_selector("#replay-board[data-at='0'] svg")
    start = dict(page.eval_on_selector_all("#replay-board [data-unit]", "gs => gs.map(g => [g.dataset.unit, g.dataset.hex])"))
    assert start != drawn
    api.close()


def test_the_fairness_panel_rechecks_every_roll_after_the_end(game, server, contexts):
    api = httpx.Client(base_url=server.url, timeout=30)
    gid = game["game_id"]
    verify = api.get(f"/games/{gid}/verify").json()
    assert verify["seed"] and verify["dice_ok"]
    rolls = sum(len(r["rolls"]) for r in _rolled_steps(api, gid, game["version"]).values())
    page = contexts.page()
    page.goto(f"{server.url}/#/game/{gid}?tab=fairness")
    page.wait_for_selector("#fair-result", timeout=60_000)
    shot(page, "fairness-ok", full_page=True)
    assert page.get_attribute("#fair-result", "data-ok") == "true", page.text_content("#fair-result")
    assert int(page.get_attribute("#fair-result", "data-rolls")) == rolls > 0
    assert page.text_content("#seed") == verify["seed"]
    api.close()


def test_a_seat_checks_its_last_receipt_in_the_browser(game, server):
    """Issue 10 / DESIGN 12: the receipt a seat holds is shown with the browser's own checks."""
    good, bad = game["receipt"]["good"], game["receipt"]["swapped_key"]
    key = httpx.get(f"{server.url}/.well-known/umpire-key").json()
    assert key["key_id"] in good
    assert "✓ Ed25519 signature verified in this browser" in good, good
    assert "✓ head is the hash of event" in good and "✓ key id" in good, good
    # another key (its id made to match) must not verify the same receipt
    assert "✗ the signature does not verify" in bad, bad
    assert game["receipt"]["key_id"] != key["key_id"]


def test_the_fairness_panel_fails_on_a_tampered_roll(game, server, contexts):
    """A test double of the verify data: one step's recorded roll is changed on its way to the page."""
    api = httpx.Client(base_url=server.url, timeout=30)
    gid = game["game_id"]
    rolled = _rolled_steps(api, gid, game["version"])
    seq = sorted(rolled)[len(rolled) // 2]
    page = contexts.page()

    def tamper(route):
        res = route.fetch()
        body = res.json()
        r = body["rolls"][0]
        r["value"] = (r["value"] + 1) % r["sides"]
        route.fulfill(response=res, body=json.dumps(body))

    page.route(f"**/games/{gid}/events/{seq}/ruling", tamper)
    page.goto(f"{server.url}/#/game/{gid}?tab=fairness")
    page.wait_for_selector("#fair-result", timeout=60_000)
    shot(page, "fairness-tampered", full_page=True)
    assert page.get_attribute("#fair-result", "data-ok") == "false"
    assert f"step {seq}:" in page.text_content("#fair-result")
    api.close()


def test_spectator_watches_and_the_guard_sees_any_request_leaving_the_machine(game, server, contexts):
    page = contexts.page()
    page.goto(f"{server.url}/#/game/{game['game_id']}")
    page.wait_for_selector("#board svg [data-unit]")
    assert page.locator(".play-card").count() == 0
    assert "spectator" in page.text_content("#status")
    # the page's own Content-Security-Policy refuses to connect anywhere else
    page.evaluate("fetch('http://198.51.100.7/x').catch(() => null)")
    page.wait_for_timeout(300)
    csp = [e for e in contexts.watch.errors if "198.51.100.7" in e]
    assert csp and all("Content Security Policy" in e for e in csp)
    contexts.watch.errors[:] = [e for e in contexts.watch.errors if e not in csp]
    # every context of these tests checks at its end that no request left the machine and that no
    # console error happened; here the guard is shown to notice a request to another host
    before = list(contexts.watch.errors)
    other = contexts.page()
    with pytest.raises(Exception):
        other.goto("http://198.51.100.7/")
    assert contexts.watch.outside == ["http://198.51.100.7/"]
    contexts.watch.outside.clear()
    contexts.watch.errors[:] = before  # not the failed navigation of `other` itself


def test_pinned_look_of_the_board_at_the_start(server, contexts):
    api = httpx.Client(base_url=server.url, timeout=30)
    gid = api.post("/games", json={"ruleset": "hoth", "scenario": SCENARIO}).json()["game_id"]
    page = contexts.page()
    page.goto(f"{server.url}/#/game/{gid}")
    page.wait_for_selector("#board svg [data-unit]")
    assert pinned(page.locator("#board"), "board-start") < PIN_TOLERANCE
    api.close()
