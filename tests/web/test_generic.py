"""The generic fallback: a ruleset with no helper of its own in the client is played with its legal
commands as buttons, and its command templates (continuous choices with bounds) as forms checked
live with the dry run. Shown on hoth with the client's ruleset helpers replaced by none (a test
double of web/js/rulesets/index.js), and templates served by a test double of legal-commands."""
from __future__ import annotations

import json
import re
from typing import Any

import httpx

from .conftest import shot
from .harness import SCENARIO

NO_HELPERS = "export function pluginFor() { return null; }\n"


def test_any_ruleset_is_playable_with_the_command_buttons(server, contexts):
    g = httpx.post(f"{server.url}/games", json={"ruleset": "hoth", "scenario": SCENARIO}).json()
    gid, token = g["game_id"], g["seats"]["imperial"]
    page = contexts.page()
    page.route("**/web/js/rulesets/index.js", lambda r: r.fulfill(body=NO_HELPERS, content_type="text/javascript"))
    page.goto(f"{server.url}/#/game/{gid}?token={token}")
    page.wait_for_selector("#all-commands [data-command]")
    assert page.locator("#board .act").count() == 0  # no helper: nothing on the picture is clickable
    assert "Your legal commands" in page.text_content("#panel-play")
    hands = page.text_content("#panel-play .hand-box")
    assert "the Rebels: 4 cards" in hands  # other hands as counts, the seat by its name (docs/seat-names.md)
    api = httpx.Client(base_url=server.url, headers={"authorization": f"Bearer {token}"})
    for _ in range(4):
        legal = api.get(f"/games/{gid}/legal-commands").json()
        if not legal["commands"]:
            break
        want = legal["commands"][0]
        buttons = page.locator("#all-commands [data-command]")
        assert [json.loads(b.get_attribute("data-command")) for b in buttons.all()] == legal["commands"]
        buttons.first.click()
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=legal["version"])
        ev = api.get(f"/games/{gid}/events", params={"after": legal["version"]}).json()["events"][0]
        assert ev["actor"] == "imperial" and ev["type"] != "undone", (want, ev)
    shot(page, "generic-fallback", full_page=True)
    api.close()


def test_templates_are_forms_checked_by_the_dry_run(server, contexts):
    g = httpx.post(f"{server.url}/games", json={"ruleset": "hoth", "scenario": SCENARIO}).json()
    gid, token = g["game_id"], g["seats"]["imperial"]
    template = {"type": "probe", "unit": "E1", "title": "Probe E1", "distance": {"min": 0, "max": 6}}
    seen: list[dict[str, Any]] = []
    page = contexts.page()

    def legal(route: Any) -> None:
        res = route.fetch()
        body = res.json()
        body["templates"] = [template]
        route.fulfill(response=res, body=json.dumps(body))

    def dry(route: Any) -> None:
        cmd = json.loads(route.request.post_data)["command"]
        seen.append(cmd)
        if cmd["distance"] <= 3:
            route.fulfill(status=200, content_type="application/json", body=json.dumps({"legal": True, "events": []}))
        else:
            route.fulfill(status=422, content_type="application/problem+json", body=json.dumps(
                {"type": "urn:umpire:problem:rule-violation", "title": "Illegal", "status": 422,
                 "detail": "too far for a probe", "rule": "TEST-RULE-1"}))

    page.route("**/legal-commands", legal)
    page.route(re.compile(r".*/commands\?dry_run=true$"), dry)
    page.goto(f"{server.url}/#/game/{gid}?token={token}")
    form = page.locator("form.template")
    form.wait_for()
    assert form.locator("input[type=number]").get_attribute("max") == "6"
    form.locator("input[type=number]").fill("5")
    page.wait_for_function("() => /refused/.test(document.querySelector('form.template .verdict').textContent)")
    assert "too far for a probe (TEST-RULE-1)" in form.locator(".verdict").text_content()
    form.locator("input[type=number]").fill("2")
    page.wait_for_function("() => document.querySelector('form.template .verdict').textContent === 'legal'")
    assert seen[-1] == {"type": "probe", "unit": "E1", "distance": 2}
    shot(page, "template-form", full_page=True)
    # the refused dry run's 422 is the browser's console message for that response, nothing else
    contexts.watch.errors[:] = [e for e in contexts.watch.errors if "422" not in e]
