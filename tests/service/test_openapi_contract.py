"""The OpenAPI document as a contract an outside team builds on, checked with tools nobody here wrote,
against a real server process (uvicorn, the real app, the session's real Redis):

* the served document passes ``openapi-spec-validator``;
* ``openapi-python-client`` generates a client from it unchanged, and that client plays a whole Battle
  of Hoth game: creates it, posts the legal commands back as the typed objects it parsed, and reads
  the events page as a spectator while the game runs (redacted events included);
* ``schemathesis`` (``--checks all``, stateful links) finds no failure, bounded in time;
* the docs page ``/schema`` renders in headless Chromium with every request outside the server
  refused (a screenshot is kept in ``artefacts/``).
"""
from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from .api_client import SEED, Server
from .contract import choose

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = ROOT / "artefacts"
BIN = Path(sys.executable).parent
SCENARIO = "SCN-TAKE-DOWN-THE-SHIELD"


@pytest.fixture(scope="module")
def live(tmp_path_factory, redis_url):
    """A real ``umpire`` server process (the app of ``umpire serve --workers N``) on a free port."""
    data = tmp_path_factory.mktemp("live") / "data"
    server = Server(str(data), redis_url=redis_url, factory="service.cli:worker_app").wait()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def doc(live) -> dict:
    r = httpx.get(live.url + "/schema/openapi.json", timeout=30)
    assert r.status_code == 200
    return r.json()


def test_served_document_passes_openapi_spec_validator(doc):
    from openapi_spec_validator import validate

    validate(doc)
    assert doc["openapi"].startswith("3.1")
    schemas = doc["components"]["schemas"]
    # generator-ready: no tuple form generators refuse, one title per component
    text = json.dumps(doc)
    assert "prefixItems" not in text and '"items": false' not in text
    titles = [s.get("title") for s in schemas.values() if isinstance(s, dict) and s.get("title")]
    assert len(titles) == len(set(titles))
    assert not [n for n in schemas if "." in n]
    # the bearer seat token is declared, and every operation says whether it needs one
    assert doc["components"]["securitySchemes"]["seatToken"] == {**doc["components"]["securitySchemes"]["seatToken"],
                                                                "type": "http", "scheme": "bearer"}
    for path, item in doc["paths"].items():
        for method, op in item.items():
            assert "security" in op and op["tags"], (method, path)
            for status, resp in op["responses"].items():
                if status.startswith(("4", "5")):
                    assert "application/problem+json" in resp["content"], (method, path, status)
    cmd = doc["paths"]["/games/{game_id}/commands"]["post"]
    assert cmd["security"] == [{"seatToken": []}]
    assert doc["paths"]["/health"]["get"]["security"] == []
    assert {"200"} <= set(doc["paths"]["/games/{game_id}/feed"]["get"]["responses"])
    assert "text/event-stream" in doc["paths"]["/games/{game_id}/feed"]["get"]["responses"]["200"]["content"]
    # request bodies refuse unknown fields; legal commands are the command union; redaction is modelled
    assert schemas["CommandRequest"]["additionalProperties"] is False
    assert schemas["hoth_CreateGame"]["additionalProperties"] is False
    # answers that carry commands or events are typed per ruleset, told apart by their `ruleset`
    for name in ("LegalCommands", "EventsPage", "CommandResult", "DryRunResult"):
        union = schemas[name]
        assert union["discriminator"]["propertyName"] == "ruleset", name
        assert union["discriminator"]["mapping"]["hoth"] == f"#/components/schemas/hoth_{name}", name
        assert schemas[f"hoth_{name}"]["properties"]["ruleset"]["enum"] == ["hoth"], name
    assert schemas["hoth_LegalCommands"]["properties"]["commands"]["items"] == {"$ref": "#/components/schemas/hoth_Command"}
    assert schemas["hoth_EventEntry"]["properties"]["payload"] == {"$ref": "#/components/schemas/hoth_Event"}
    assert {"ready", "undo", "undo_accept", "undo_decline"} <= set(schemas["hoth_Command"]["discriminator"]["mapping"])
    drawn = schemas["hoth_CardsDrawn"]
    assert "cards" not in drawn.get("required", []) and drawn["properties"]["redacted"]["type"] == "boolean"
    assert schemas["hoth_EventEntry"]["properties"]["commitment"]["pattern"] == "^[0-9a-f]{64}$"
    # fair play (issue 10): receipts, the key, ready, strict input
    assert schemas["CommandResult"] and schemas["hoth_CommandResult"]["properties"]["receipt"] == {
        **schemas["hoth_CommandResult"]["properties"]["receipt"], "$ref": "#/components/schemas/Receipt"}
    assert doc["paths"]["/.well-known/umpire-key"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"] == {"$ref": "#/components/schemas/PublicKey"}
    assert doc["paths"]["/games/{game_id}/ready"]["post"]["security"] == [{"seatToken": []}]
    assert {"413", "415", "422"} <= set(cmd["responses"]) and {"200", "201"} <= set(cmd["responses"])
    hex_schema = schemas["hoth_Move"]["properties"]["path"]["items"]
    assert hex_schema["minItems"] == hex_schema["maxItems"] == 2 and "HOTH-COORD-3" in hex_schema["description"]
    assert {"hoth_Reroll", "hoth_CardsReroll"} <= set(schemas)  # the command keeps the plain name


def _generate_client(doc: dict, where: Path) -> Path:
    """Run openapi-python-client on the document as served (its only setting: read SVG as bytes)."""
    spec = where / "openapi.json"
    spec.write_text(json.dumps(doc))
    config = where / "config.json"
    config.write_text(json.dumps({"content_type_overrides": {"image/svg+xml": "application/octet-stream"}}))
    out = where / "umpire_client"
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    run = subprocess.run([str(BIN / "openapi-python-client"), "generate", "--path", str(spec), "--meta", "none",
                          "--output-path", str(out), "--config", str(config)],
                         capture_output=True, text=True, env=env, timeout=300, cwd=where)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr
    return out


def test_generated_client_plays_a_whole_hoth_game(live, doc, tmp_path):
    _generate_client(doc, tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        _play_with_generated_client(live.url, importlib.import_module)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "umpire_client" or m.startswith("umpire_client.")]:
            del sys.modules[name]


def _play_with_generated_client(url: str, load) -> None:
    client_mod = load("umpire_client")
    models = load("umpire_client.models")
    create = load("umpire_client.api.games.games_create_game")
    view_op = load("umpire_client.api.games.games_game_id_game_view")
    legal_op = load("umpire_client.api.games.games_game_id_legal_commands_legal_commands")
    post_op = load("umpire_client.api.games.games_game_id_commands_post_command")
    events_op = load("umpire_client.api.log.games_game_id_events_events")
    rule_op = load("umpire_client.api.rules.rulesets_ruleset_id_rule_id_one_rule")
    unset = load("umpire_client.types").Unset

    anon = client_mod.Client(base_url=url, raise_on_unexpected_status=True, timeout=httpx.Timeout(30.0))
    body = models.HothCreateGame(ruleset=models.HothCreateGameRuleset.HOTH,
                                 scenario=models.HothCreateGameScenario.SCN_TAKE_DOWN_THE_SHIELD, seed=SEED)
    created = create.sync(client=anon, body=body)
    assert isinstance(created, models.GameCreated), created
    gid = created.game_id
    seats = {seat: client_mod.AuthenticatedClient(base_url=url, token=token, raise_on_unexpected_status=True,
                                                  timeout=httpx.Timeout(30.0))
             for seat, token in created.seats.additional_properties.items()}
    rng = random.Random(7)
    redacted_seen = 0
    steps = 0
    view = view_op.sync(client=anon, game_id=gid)
    while view.status != "finished":
        assert steps < 3000, "the game did not end"
        seat = view.to_act[0]
        legal = legal_op.sync(client=seats[seat], game_id=gid)
        assert isinstance(legal, models.HothLegalCommands), legal  # the variant the answer's ruleset names
        # typed objects of the generated command classes, as the document's union says
        assert legal.commands and all(type(c).__name__.startswith("Hoth") for c in legal.commands), legal.commands
        plain = [c.to_dict() for c in legal.commands]
        command = legal.commands[plain.index(choose(rng, plain))]  # posted back as the typed object it parsed
        answer = post_op.sync(client=seats[seat], game_id=gid,
                              body=models.CommandRequest(command=command, expected_version=view.version))
        assert isinstance(answer, models.HothCommandResult), answer
        steps += 1
        if steps % 50 == 1:  # the log as a spectator sees it while the game runs
            page = events_op.sync(client=anon, game_id=gid, after=0, limit=1000)
            assert isinstance(page, models.HothEventsPage)
            for entry in page.events:
                payload = entry.payload
                assert type(payload).__name__.startswith("Hoth"), payload  # hoth's events (kernel ones included)
                if getattr(payload, "redacted", None) is True:
                    redacted_seen += 1
                    kind = payload.to_dict()["type"]
                    if kind == "cards_drawn":  # the private field is left out, and the client says so
                        assert isinstance(payload.cards, unset)
        view = view_op.sync(client=anon, game_id=gid)
    assert view.winner in seats
    assert redacted_seen > 0
    # a refusal's rule is readable through the same client
    rule = rule_op.sync(client=anon, ruleset_id="hoth", rule_id="HOTH-LOS-RIDGE-1")
    assert "both units" in rule.text


# -- schemathesis ----------------------------------------------------------------------------------------
def _schemathesis(live, where: Path, config: str, *extra: str) -> subprocess.CompletedProcess:
    cfg = where / "schemathesis.toml"
    cfg.write_text(config)
    return subprocess.run(
        [str(BIN / "schemathesis"), "--config-file", str(cfg), "run", live.url + "/schema/openapi.json",
         "--checks", "all", "--phases", "coverage,fuzzing,stateful", "--seed", "20261123",
         "--generation-deterministic", "--request-timeout", "20", "--workers", "1", "--no-color", *extra],
        capture_output=True, text=True, timeout=600, cwd=where)


#: Statuses a schema-valid request may get that a schema cannot express, each with its reason. (The lobby's
#: cursor and verify's receipt need none: the document declares their form, and the server answers every
#: value of that form. The feed is tested too: the document describes each of its events.)
SCHEMATHESIS_CONFIG = """
[[operations]]
# the feed is a stream that stays open while the game goes on: each request reads a few of its events
include-name = "GET /games/{game_id}/feed"
max-stream-events = 3
request-timeout = 3

[[operations]]
# options valid one by one but not together (two leaders for a faction that is not a team): 422 with field
include-name = "POST /games"
checks.positive_data_acceptance.expected-statuses = ["2xx", "422"]
"""


def test_schemathesis_finds_no_failure(live, tmp_path):
    """Every operation, generated requests (valid and not), the links from a created game; no failure."""
    run = _schemathesis(live, tmp_path, SCHEMATHESIS_CONFIG, "--max-examples", "15")
    assert run.returncode == 0, run.stdout.split("= FAILURES =")[-1][:6000] + run.stderr[-2000:]
    assert "passed" in run.stdout and "failure" not in run.stdout.split("SUMMARY")[-1].lower(), run.stdout[-3000:]


def test_schemathesis_as_a_seat_of_a_real_game(live, tmp_path):
    """The same with a real game and one of its seat tokens: commands and undo reach the rules (409, 422)."""
    game = httpx.post(live.url + "/games", json={"ruleset": "hoth", "scenario": SCENARIO, "seed": SEED}, timeout=30)
    assert game.status_code == 201
    gid, token = game.json()["game_id"], game.json()["seats"]["imperial"]
    config = SCHEMATHESIS_CONFIG + f"""
[[operations]]
# the rules decide whether a well-formed command is legal (422 with rule) and whose decision it is (403)
include-path-regex = "^/games/[{{]game_id[}}]/(undo|ready)"
parameters = {{ game_id = "{gid}" }}
headers = {{ Authorization = "Bearer {token}" }}
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422"]

[[operations]]
# the command body is the union of every ruleset's commands: one of another ruleset (an emperor `move`
# sent to this hoth game) is refused as not a command of this game's ruleset (400 naming the field)
include-name = "POST /games/{{game_id}}/commands"
parameters = {{ game_id = "{gid}" }}
headers = {{ Authorization = "Bearer {token}" }}
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "422"]

[[operations]]
include-path-regex = "^/games/[{{]game_id[}}]/(?!commands|undo|ready|verify)"
parameters = {{ game_id = "{gid}" }}
"""
    # not the seat routes: a rotation would replace the very token this run acts with (they run unauthenticated
    # in test_schemathesis_finds_no_failure, and as players in tests/service/test_seats.py)
    run = _schemathesis(live, tmp_path, config, "--max-examples", "10", "--include-path-regex", "^/games/",
                        "--exclude-path-regex", "/seats/")
    assert run.returncode == 0, run.stdout.split("= FAILURES =")[-1][:6000] + run.stderr[-2000:]
    # the seat's token was used: no operation answered only 401/403
    assert "Authentication failed" not in run.stdout, run.stdout[-3000:]


# -- the docs page, offline ------------------------------------------------------------------------------
def test_docs_page_renders_offline_in_headless_chromium(live):
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    assert Path(chromium).exists(), "Debian's chromium is missing: run ops/ensure-chromium"
    ARTEFACTS.mkdir(exist_ok=True)
    outside: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1600})

            def route(r):
                if r.request.url.startswith(live.url):
                    r.continue_()
                else:  # the network outside the server is blocked
                    outside.append(r.request.url)
                    r.abort()

            page.route("**/*", route)
            page.goto(live.url + "/schema", wait_until="networkidle")
            page.wait_for_selector(".opblock-summary", timeout=30_000)
            text = page.inner_text("body")
            page.screenshot(path=str(ARTEFACTS / "schema-docs.png"), full_page=False)
        finally:
            browser.close()
    assert not outside, outside
    assert "umpire" in text and "/games/{game_id}/commands" in text and "Authorize" in text
    assert (ARTEFACTS / "schema-docs.png").stat().st_size > 10_000
