"""Every response of a whole Battle of Hoth game (each seat and a spectator, every endpoint, errors too)
is one the OpenAPI document declares: a declared status, a declared media type, and a body that
validates against the declared schema (jsonschema). The app runs with its real Redis read models."""
from __future__ import annotations

import random

from litestar.testing import TestClient

from service.app import create_app
from service.openapi.operations import OPERATIONS
from service.settings import Settings

from .api_client import SEED
from .contract import Contract, choose

SCENARIO = "SCN-TAKE-DOWN-THE-SHIELD"
GAME = "/games/{game_id}"


def test_every_response_of_a_whole_game_matches_the_document(tmp_path, redis_url, redis_client):
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    with TestClient(app) as c:
        contract = Contract(c.get("/schema/openapi.json").json())

        def call(method: str, template: str, path: str, token: str | None = None, **kw):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            headers.update(kw.pop("headers", {}))
            r = c.request(method, path, headers=headers, **kw)
            body = contract.check(method, template, r)
            return r, body

        # the service, the catalogue and the rules reference
        call("GET", "/health", "/health")
        call("GET", "/.well-known/umpire-key", "/.well-known/umpire-key")
        _, rulesets = call("GET", "/rulesets", "/rulesets")
        assert any(r["id"] == "hoth" and r["options"]["properties"]["team"] for r in rulesets)
        _, rules = call("GET", "/rulesets/{ruleset_id}/rules", "/rulesets/hoth/rules")
        call("GET", "/rulesets/{ruleset_id}/rules/{rule_id}", rules[0]["url"])
        call("GET", "/rulesets/{ruleset_id}/rules/{rule_id}", "/rulesets/hoth/rules/" + "HOTH" + "-NONE-9")
        call("GET", "/rulesets/{ruleset_id}/rules", "/rulesets/nowhere/rules")
        # the languages and a language's catalog of the web page's words (issue 28)
        _, langs = call("GET", "/languages", "/languages")
        assert {x["id"] for x in langs["languages"]} == {"uk", "ru", "cs", "it", "en"}, langs
        call("GET", "/languages/{lang}/catalog", "/languages/uk/catalog")

        # creating games: refusals, then the game
        call("POST", "/games", "/games", json={"ruleset": "hoth"})
        call("POST", "/games", "/games", json={"ruleset": "hoth", "scenario": "SCN-NOWHERE"})
        call("POST", "/games", "/games", json={"ruleset": "hoth", "scenario": SCENARIO, "seed": "x"})
        # strict input: not JSON (415), nested too deep (400), too large (413)
        assert call("POST", "/games", "/games", content=b"ruleset=hoth", headers={"content-type": "text/plain"})[
            0].status_code == 415
        assert call("POST", "/games", "/games", content=b"[" * 40 + b"]" * 40)[0].status_code == 400
        assert call("POST", "/games", "/games", content=b" " * (300 * 1024))[0].status_code == 413
        r, game = call("POST", "/games", "/games", json={"ruleset": "hoth", "scenario": SCENARIO, "seed": SEED})
        assert r.status_code == 201
        gid, tokens = game["game_id"], game["seats"]
        g = f"/games/{gid}"
        callers = [None, *tokens.values()]
        call("GET", GAME, "/games/nope")
        call("GET", GAME, g, "not-a-seat-token")

        rng = random.Random(13)
        steps = 0
        view = call("GET", GAME, g)[1]
        while view["status"] != "finished":
            assert steps < 3000, "the game did not end"
            seat = view["to_act"][0]
            legal = call("GET", GAME + "/legal-commands", g + "/legal-commands", tokens[seat])[1]
            command = choose(rng, legal["commands"])
            if steps == 2:  # a dry run: what the command would do, nothing stored
                r, dry = call("POST", GAME + "/commands", g + "/commands", tokens[seat],
                              params={"dry_run": "true"}, json={"command": command, "expected_version": view["version"]})
                assert r.status_code == 200 and dry["ruleset"] == "hoth", dry
            if steps == 3:  # the refusals a client meets
                call("POST", GAME + "/commands", g + "/commands", tokens[seat],
                     json={"command": command, "expected_version": view["version"] - 1})  # 409 stale
                other = next(s for s in tokens if s != seat)
                call("POST", GAME + "/commands", g + "/commands", tokens[other],
                     json={"command": command, "expected_version": view["version"]})  # 403
                call("POST", GAME + "/commands", g + "/commands", tokens[seat],
                     json={"command": {"type": "attack", "unit": "nobody", "target": "nothing"},
                           "expected_version": view["version"]})  # 422 with rule
                call("POST", GAME + "/commands", g + "/commands", tokens[seat],
                     json={"command": {"type": "move"}, "expected_version": view["version"]})  # 400 field
                call("POST", GAME + "/commands", g + "/commands", None,
                     json={"command": command, "expected_version": view["version"]})  # 401
            r, answer = call("POST", GAME + "/commands", g + "/commands", tokens[seat],
                             json={"command": command, "expected_version": view["version"], "command_id": f"c{steps}"})
            assert r.status_code == 201, answer
            if steps == 3:  # the same command_id with another body (422 UMPIRE-IDEMPOTENCY)
                r, refused = call("POST", GAME + "/commands", g + "/commands", tokens[seat],
                                  json={"command": {"type": "end_turn"}, "expected_version": answer["version"],
                                        "command_id": f"c{steps}"})
                assert r.status_code == 422 and refused["rule"] == "UMPIRE-IDEMPOTENCY", refused
                receipt = answer["receipt"]
            steps += 1
            if steps % 40 == 1:  # every caller's views on the way (spectator: redacted events)
                for tok in callers:
                    call("GET", GAME, g, tok)
                    call("GET", GAME + "/legal-commands", g + "/legal-commands", tok)
                    call("GET", GAME + "/events", g + "/events", tok, params={"after": max(0, answer["version"] - 30)})
                    call("GET", GAME + "/events/{seq}/ruling", f"{g}/events/{answer['version']}/ruling", tok)
                    call("GET", GAME + "/states/{seq}", f"{g}/states/{answer['version']}", tok)
                call("GET", GAME + "/timeline", g + "/timeline")
                call("GET", GAME + "/board.svg", g + "/board.svg", tokens[seat])
                call("GET", GAME + "/verify", g + "/verify")
                call("GET", GAME + "/events/{seq}/redecide", f"{g}/events/{answer['version']}/redecide")  # 409
            if steps == 20:  # undo back to the opening: it needs the other seat's consent (declined, then accepted)
                other = next(s for s in tokens if s != seat)
                at = {"expected_version": answer["version"]}
                call("POST", GAME + "/undo/accept", g + "/undo/accept", tokens[other], json=at)  # 422: nothing waits
                call("POST", GAME + "/undo/accept", g + "/undo/accept", tokens[other])  # 400: a consent names its version
                for answer_path in ("/undo/decline", "/undo/accept"):
                    r, asked = call("POST", GAME + "/undo", g + "/undo", tokens[seat], json={"to_version": game["version"]})
                    assert r.status_code == 202, r.text
                    call("POST", GAME + "/undo", g + "/undo", tokens[seat], json={"to_version": game["version"]})  # 422
                    at = {"expected_version": asked["version"]}
                    call("POST", GAME + answer_path, g + answer_path, tokens[seat], json=at)  # 403: not the asker's answer
                    r, _ = call("POST", GAME + answer_path, g + answer_path, tokens[other], json=at)
                    assert r.status_code == 201, r.text
            view = call("GET", GAME, g)[1]
        assert view["winner"] in tokens

        # the whole finished game, as every caller sees it
        version = view["version"]
        for tok in callers:
            after = 0
            while after < version:
                page = call("GET", GAME + "/events", g + "/events", tok, params={"after": after, "limit": 250})[1]
                after = page["events"][-1]["seq"]
            for seq in range(1, version + 1):
                call("GET", GAME + "/events/{seq}/ruling", f"{g}/events/{seq}/ruling", tok)
            for seq in (0, version // 2, version):
                call("GET", GAME + "/states/{seq}", f"{g}/states/{seq}", tok)
                call("GET", GAME + "/board.svg", g + "/board.svg", tok, params={"at": seq})
        call("GET", GAME + "/events", g + "/events", params={"limit": 0})  # 400
        call("GET", GAME + "/events/{seq}/ruling", f"{g}/events/{version + 1}/ruling")  # 404
        call("GET", GAME + "/board.svg", g + "/board.svg", params={"at": "null"})  # 400
        call("GET", GAME + "/verify", g + "/verify")
        import json as _json

        r, checked = call("GET", GAME + "/verify", g + "/verify", params={"receipt": _json.dumps(receipt)})
        assert checked["receipt_ok"] is True, checked
        # not a receipt: it proves nothing, and the answer says so (the document's string, answered)
        r, unreadable = call("GET", GAME + "/verify", g + "/verify", params={"receipt": "not a receipt"})
        assert r.status_code == 200 and unreadable["receipt_ok"] is False and unreadable["receipt_problem"]
        assert call("GET", GAME + "/verify", g + "/verify", params={"receipt": "x" * 8193})[0].status_code == 400
        for seq in range(version, 0, -1):
            r, _ = call("GET", GAME + "/events/{seq}/redecide", f"{g}/events/{seq}/redecide")
            if r.status_code == 200:
                break
        call("GET", GAME + "/timeline", g + "/timeline")
        call("POST", GAME + "/undo", g + "/undo", tokens["imperial"], json={"to_version": 1})  # 422 finished
        with c.stream("GET", g + "/feed", params={"limit": 2}) as r:
            contract.check("GET", GAME + "/feed", r)
            assert "".join(r.iter_text()).count("id: ") == 2

        # the lobby, a page at a time
        call("POST", "/games", "/games", json={"ruleset": "hoth", "scenario": SCENARIO})
        first = call("GET", "/games", "/games", params={"limit": 1})[1]
        assert first["next_cursor"]
        second = call("GET", "/games", "/games", params={"limit": 1, "cursor": first["next_cursor"]})[1]
        assert second["games"][0]["game_id"] != first["games"][0]["game_id"] and second["next_cursor"] is None
        call("GET", "/games", "/games", params={"status": "finished"})
        assert call("GET", "/games", "/games", params={"cursor": "not a cursor"})[0].status_code == 400  # its form
        # a cursor of the declared form that the lobby did not hand out names a place all the same
        assert call("GET", "/games", "/games", params={"cursor": "AAAA"})[0].status_code == 200

        # a game that waits for its seats' client seeds (DESIGN 3)
        r, waiting = call("POST", "/games", "/games",
                          json={"ruleset": "hoth", "scenario": SCENARIO, "seed": SEED, "start": "when_ready"})
        w = f"/games/{waiting['game_id']}"
        assert waiting["status"] == "waiting"
        for i, (seat, tok) in enumerate(waiting["seats"].items()):
            legal = call("GET", GAME + "/legal-commands", w + "/legal-commands", tok)[1]
            assert [c["type"] for c in legal["commands"]] == ["ready"], legal
            assert call("GET", GAME, w, tok)[1]["waiting_for"]
            r, _ = call("POST", GAME + "/ready", w + "/ready", tok, json={"client_seed": f"seed-{i}"})
            assert r.status_code == 201
            call("POST", GAME + "/ready", w + "/ready", tok, json={})  # 422 UMPIRE-READY-2 (or -1 once open)
        call("POST", GAME + "/ready", w + "/ready", None, json={})  # 401
        assert call("POST", GAME + "/ready", w + "/ready", tok, json={"client_seed": "no spaces"})[0].status_code == 400
        assert call("GET", GAME + "/verify", w + "/verify")[1]["client_seeds"]

        # campaigns
        r, camp = call("POST", "/campaigns", "/campaigns",
                       json={"ruleset": "hoth", "campaign": "CMP-1-ASSAULT-ON-ECHO-BASE", "seed": SEED})
        assert r.status_code == 201
        for tok in (None, *camp["seats"].values()):
            call("GET", "/campaigns/{campaign_id}", f"/campaigns/{camp['campaign_id']}", tok)
        call("GET", "/campaigns/{campaign_id}", "/campaigns/nope")
        call("POST", "/campaigns", "/campaigns", json={"ruleset": "hoth", "campaign": "CMP-NONE"})
        call("GET", "/campaigns/{campaign_id}/verify", f"/campaigns/{camp['campaign_id']}/verify")
        r, wc = call("POST", "/campaigns", "/campaigns", json={"ruleset": "hoth", "campaign": "CMP-1-ASSAULT-ON-ECHO-BASE",
                                                               "seed": SEED, "start": "when_ready"})
        cw = f"/campaigns/{wc['campaign_id']}"
        for tok in (None, *wc["seats"].values()):
            assert call("GET", "/campaigns/{campaign_id}", cw, tok)[1]["status"] == "waiting"
        call("POST", "/campaigns/{campaign_id}/ready", cw + "/ready", None, json={})  # 401
        for i, tok in enumerate(wc["seats"].values()):
            r, ready = call("POST", "/campaigns/{campaign_id}/ready", cw + "/ready", tok, json={"client_seed": f"c{i}"})
            assert r.status_code == 201
        assert ready["status"] == "active" and ready["game_id"]
        call("POST", "/campaigns/{campaign_id}/ready", cw + "/ready", tok, json={})  # 422 UMPIRE-READY-1
        assert call("GET", "/campaigns/{campaign_id}/verify", cw + "/verify")[1]["chain_ok"]

        # seats that their players own (DESIGN 4): invitations, claims, rotation, in a game and a campaign
        r, inv = call("POST", "/games", "/games", json={"ruleset": "hoth", "scenario": SCENARIO,
                                                       "seating": "invitations", "keep": ["imperial"]})
        gi = f"/games/{inv['game_id']}"
        claim = GAME + "/seats/{seat}/claim"
        r, held = call("POST", claim, gi + "/seats/rebel/claim", json={"invitation": inv["invitations"]["rebel"]})
        assert r.status_code == 201
        call("POST", claim, gi + "/seats/rebel/claim", json={"invitation": inv["invitations"]["rebel"]})  # 410
        call("POST", claim, gi + "/seats/imperial/claim", json={"invitation": "x"})  # 409
        r, _ = call("POST", GAME + "/seats/{seat}/rotate", gi + "/seats/rebel/rotate", held["token"])
        assert r.status_code == 201
        call("POST", GAME + "/seats/{seat}/rotate", gi + "/seats/rebel/rotate", held["token"])  # 401: dead
        assert call("GET", GAME, gi)[1]["seats"]["rebel"] == {"claimed": "invitation", "rotated": True}
        call("GET", GAME + "/verify", gi + "/verify")
        r, ci = call("POST", "/campaigns", "/campaigns", json={"ruleset": "hoth", "campaign": "CMP-1-ASSAULT-ON-ECHO-BASE",
                                                               "seating": "invitations", "keep": ["imperial"]})
        cc = f"/campaigns/{ci['campaign_id']}"
        r, held = call("POST", "/campaigns/{campaign_id}/seats/{seat}/claim", cc + "/seats/rebel/claim",
                       json={"invitation": ci["invitations"]["rebel"]})
        assert r.status_code == 201
        r, _ = call("POST", "/campaigns/{campaign_id}/seats/{seat}/rotate", cc + "/seats/rebel/rotate", held["token"])
        assert r.status_code == 201
        call("GET", "/campaigns/{campaign_id}", cc)
        call("GET", "/campaigns/{campaign_id}/verify", cc + "/verify")

    # every operation the document describes answered at least once with success
    ok = {(m, t) for m, t, s in contract.seen if s < 300}
    missing = sorted(set(OPERATIONS) - ok)
    assert not missing, missing
