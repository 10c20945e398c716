"""What an outside client author meets (issue 13): readable rules behind every rule id (``rule_url`` on
refusals and ruling steps), fields named precisely in 400s, each ruleset's game options described,
the lobby a page at a time, and games imported without their seed marked read-only (409 with a rule),
through the REST API with the Redis read models and without them."""
from __future__ import annotations

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.store import EventStore
from service.transfer import export_lines, import_game

from .api_client import SEED, Api, api, assert_problem  # noqa: F401  (fixture)
from .toy_ruleset import register

HOTH = "SCN-TAKE-DOWN-THE-SHIELD"


def _rule(api: Api, url: str) -> dict:
    r = api.client.get(url)
    assert r.status_code == 200, (url, r.text)
    return r.json()


def test_rules_reference_endpoints(api):
    rules = api.client.get("/rulesets/hoth/rules").json()
    ids = [r["id"] for r in rules]
    assert ids[0] == "HOTH-GLOSS-1" and "HOTH-LOS-RIDGE-1" in ids and "CAMPAIGN-4" in ids and "UMPIRE-UNDO-3" in ids
    assert len(ids) == len(set(ids))
    one = _rule(api, "/rulesets/hoth/rules/HOTH-LOS-3")
    assert one["title"] == "Blocking" and one["url"] == "/rulesets/hoth/rules/HOTH-LOS-3"
    assert "crosses" in one["text"] and one["section"].startswith("6.3")
    gap = _rule(api, "/rulesets/hoth/rules/HOTH-GAP-16")  # a table row of the rulebook
    assert gap["title"].startswith("Ridge-to-ridge") and "Recommended behaviour" in gap["text"]
    assert _rule(api, "/rulesets/toy/rules/UMPIRE-UNDO-1")["title"] == "How far back"  # the kernel's, any ruleset
    assert_problem(api.client.get("/rulesets/hoth/rules/" + "HOTH-NO" + "-1"), 404, field="rule_id")
    assert_problem(api.client.get("/rulesets/chess/rules"), 404, field="ruleset_id")


def test_refusals_and_ruling_steps_link_the_text_of_their_rule(api):
    g = api.create("hoth", HOTH)
    gid, tokens = g["game_id"], g["seats"]
    view = api.view(gid, tokens["imperial"])
    # a hoth refusal: the rule it names, and where that rule's text is
    r = api.send(gid, tokens["imperial"], {"type": "attack", "unit": "E1", "target": "R1"}, view["version"])
    body = assert_problem(r, 422)
    assert body["rule_url"] == f"/rulesets/hoth/rules/{body['rule']}"
    assert _rule(api, body["rule_url"])["id"] == body["rule"]
    # every step of every ruling so far links a text that exists
    checked = 0
    for seq in range(1, view["version"] + 1):
        ruling = api.get(f"/games/{gid}/events/{seq}/ruling", tokens["imperial"]).json()
        for step in (ruling.get("ruling") or {}).get("steps", []):
            assert step["rule_url"] == f"/rulesets/hoth/rules/{step['rule']}"
            assert _rule(api, step["rule_url"])["id"] == step["rule"]
            checked += 1
    assert checked >= 3
    # the toy's own rules, and the kernel's undo rules under the toy
    t = api.create()
    body = assert_problem(api.send(t["game_id"], t["seats"]["north"], {"type": "step", "steps": 5}, t["version"]), 422)
    assert body["rule"] == "TOY-STEP-1" and _rule(api, body["rule_url"])["title"] == "Step"
    r = api.client.post(f"/games/{t['game_id']}/undo", json={"to_version": 0},
                        headers=api.auth(t["seats"]["north"]))
    body = assert_problem(r, 422, rule="UMPIRE-UNDO-1")
    assert body["rule_url"] == "/rulesets/toy/rules/UMPIRE-UNDO-1" and _rule(api, body["rule_url"])


def test_a_400_names_the_field_that_is_wrong(api):
    body = assert_problem(api.client.post("/games", json={"ruleset": "hoth"}), 400)
    assert body["field"] == "scenario"  # a missing field is named, not "data"
    g = api.create("hoth", HOTH)
    auth = api.auth(g["seats"]["imperial"])
    url = f"/games/{g['game_id']}/commands"
    assert assert_problem(api.client.post(url, json={"expected_version": 1}, headers=auth), 400)["field"] == "command"
    assert assert_problem(api.client.post(url, json={"command": {"type": "move"}, "expected_version": 1}, headers=auth),
                          400)["field"] == "command.unit"
    r = api.client.post(url, json={"command": {"type": "move", "unit": "E1", "path": [[1, "x"]]}, "expected_version": 1},
                        headers=auth)
    assert assert_problem(r, 400)["field"] == "command.path[0][1]"
    r = api.client.post(url, json={"command": {"type": "end_turn"}, "expected_version": [1]}, headers=auth)
    assert assert_problem(r, 400)["field"] == "expected_version"
    r = api.client.post("/games", json={"ruleset": "hoth", "scenario": HOTH, "options": {"team": None}})
    assert assert_problem(r, 422)["field"] == "options.team"


def test_rulesets_describe_their_game_options(api):
    by_id = {r["id"]: r for r in api.client.get("/rulesets").json()}
    hoth = by_id["hoth"]["options"]
    assert hoth["additionalProperties"] is False and set(hoth["properties"]) == {"team", "leaders", "support"}
    assert all(p["description"] for p in hoth["properties"].values())
    assert "HOTH-TEAM-1" in hoth["properties"]["team"]["description"]
    assert by_id["toy"]["options"]["properties"]["target"]["type"] == "integer"
    # what the description promises works
    g = api.create("hoth", HOTH, team=True, leaders={"imperial": ["vader", "veers"]})
    assert set(g["seats"]) == {"imperial", "imperial-2", "rebel", "rebel-2"}


def test_the_lobby_comes_a_page_at_a_time(api):
    made = [api.create()["game_id"] for _ in range(5)]
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        r = api.client.get("/games", params=params)
        assert r.status_code == 200, r.text
        body = r.json()
        assert len(body["games"]) <= 2
        seen += [e["game_id"] for e in body["games"]]
        pages += 1
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert seen == made and pages == 3  # creation order, each game once
    everything = api.client.get("/games").json()
    assert [e["game_id"] for e in everything["games"]] == made and everything["next_cursor"] is None
    assert_problem(api.client.get("/games", params={"cursor": "%%%"}), 400, field="cursor")
    assert_problem(api.client.get("/games", params={"limit": 0}), 400, field="limit")
    assert_problem(api.client.get("/games", params={"status": "lost"}), 400, field="status")
    # GET and POST share the path: OPTIONS names both
    assert api.client.options("/games").headers["allow"] == "GET, OPTIONS, POST"


@pytest.mark.parametrize("read_models", ["redis", "log"])
def test_a_game_imported_without_its_seed_is_read_only(tmp_path, redis_url, redis_client, read_models):
    register()
    source = EventStore(tmp_path / "source")
    settings = Settings(data_dir=str(tmp_path / "source"), redis_url=redis_url)
    with TestClient(create_app(settings, store=source, read_models=None)) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
    lines = list(export_lines(source, g["game_id"], with_secrets=False))
    target = EventStore(tmp_path / "target")
    import_game(target, lines)
    app_settings = Settings(data_dir=str(tmp_path / "target"), redis_url=redis_url)
    app = create_app(app_settings, store=target) if read_models == "redis" else create_app(
        app_settings, store=target, read_models=None)
    with TestClient(app) as c:
        rm = app.state.read_models
        if rm is not None:
            rm.catch_up_all()
        gid, north = g["game_id"], g["seats"]["north"]
        view = c.get(f"/games/{gid}").json()
        assert view["status"] == "read_only" and view["read_only"] is True
        r = c.post(f"/games/{gid}/commands", json={"command": {"type": "step", "steps": 1},
                                                   "expected_version": view["version"]},
                   headers={"Authorization": f"Bearer {north}"})
        body = assert_problem(r, 409, rule="UMPIRE-READ-ONLY-1")  # not a 503
        assert "imported without its secret seed" in body["detail"]
        assert c.get(body["rule_url"]).json()["id"] == "UMPIRE-READ-ONLY-1"
        r = c.post(f"/games/{gid}/undo", json={"to_version": 0}, headers={"Authorization": f"Bearer {north}"})
        assert_problem(r, 409, rule="UMPIRE-READ-ONLY-1")
        # the kernel's commands and a dry run meet the same refusal (nothing can be decided without the seed)
        for command, params in (({"type": "undo_accept"}, {}), ({"type": "ready"}, {}),
                                ({"type": "step", "steps": 1}, {"dry_run": "true"})):
            r = c.post(f"/games/{gid}/commands", params=params, headers={"Authorization": f"Bearer {north}"},
                       json={"command": command, "expected_version": view["version"]})
            assert_problem(r, 409, rule="UMPIRE-READ-ONLY-1")
        lobby = c.get("/games").json()["games"]
        assert [(e["game_id"], e["status"], e["read_only"]) for e in lobby] == [(gid, "read_only", True)]
        assert [e["game_id"] for e in c.get("/games", params={"status": "read_only"}).json()["games"]] == [gid]
        assert c.get("/games", params={"status": "active"}).json()["games"] == []
        assert c.get(f"/games/{gid}/events").status_code == 200  # it can still be read
    target.close()
    source.close()
