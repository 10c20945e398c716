"""Rule choices through the API (DESIGN 14): listed by GET /rulesets, taken by POST /games and POST /campaigns,
written into the header (so the chain and /verify), kept by replay, export and import, and shown by redecide
(a step that depended on a choice is decided again under each other option)."""
from __future__ import annotations

from collections.abc import Iterator

import msgspec
import pytest
from litestar.testing import TestClient

from domain.hoth.choices import EWEB, EWEB_CONFIRM, FIRST_DRAW, PERM_MEDAL
from service.app import create_app
from service.settings import Settings
from service.transfer import export_lines, import_game
from tests.hoth.choice_games import CHOICES, SCENARIO, cites, scripted

from .api_client import Api, assert_problem
from .toy_ruleset import register


@pytest.fixture
def api(tmp_path, redis_url, redis_client) -> Iterator[Api]:
    register()
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    with TestClient(app) as client:
        yield Api(client, str(tmp_path / "data"))


def _header(api: Api, gid: str) -> dict:
    return api.events(gid)[0]


def test_rulesets_list_every_choice_with_options_sources_and_default(api: Api):
    listed = {r["id"]: r for r in api.get("/rulesets").json()}
    hoth = {c["id"]: c for c in listed["hoth"]["choices"]}
    assert set(hoth) >= {EWEB, PERM_MEDAL, FIRST_DRAW}
    eweb = hoth[EWEB]
    assert eweb["default"] == "any" and [o["id"] for o in eweb["options"]] == ["any", "all"]
    assert eweb["title"] == "E-Web re-roll" and [o["words"] for o in eweb["options"]] == ["any dice", "all dice or none"]
    assert all(o["sources"] and o["text"] for o in eweb["options"]) and eweb["reason"] and eweb["question"]
    assert listed["toy"]["choices"] == []
    # each choice id is a rule of the ruleset's reference
    r = api.get(f"/rulesets/hoth/rules/{EWEB}")
    assert r.status_code == 200 and "«" in r.json()["text"]


@pytest.mark.parametrize("choices,field,status", [
    ({"HOTH-CHOICE-NOPE": "any"}, "choices.HOTH-CHOICE-NOPE", 422),
    ({EWEB: "some"}, f"choices.{EWEB}", 422),
    ({EWEB: 3}, "choices[...]", 400),  # the strict decoder's name for a map's value
    ("all", "choices", 400),
])
def test_bad_choices_are_refused_naming_the_field(api: Api, choices, field, status):
    r = api.client.post("/games", json={"ruleset": "hoth", "scenario": SCENARIO, "choices": choices})
    body = assert_problem(r, status)
    assert body.get("field") == field, body
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "choices": {EWEB: "all"}})
    assert assert_problem(r, 422)["field"] == f"choices.{EWEB}"


def test_the_header_carries_every_choice_with_defaults_filled_in(api: Api):
    r = api.client.post("/games", json={"ruleset": "hoth", "scenario": SCENARIO, "choices": {EWEB: "all"}})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    assert _header(api, gid)["payload"]["choices"] == {EWEB: "all", PERM_MEDAL: "pass", FIRST_DRAW: "play",
                                                       EWEB_CONFIRM: "no"}
    v = api.get(f"/games/{gid}/verify").json()
    assert v["chain_ok"] and v["row_ok"] and v["choices"][EWEB] == "all"
    first = api.get(f"/games/{gid}/timeline").json()["steps"][0]["summary"]
    # in words, the ids beside them
    assert (f"rule choices: E-Web re-roll: all dice or none ({EWEB} all), Permanent medal: passing through captures "
            f"({PERM_MEDAL} pass), The first player's first card: plays from the opening hand ({FIRST_DRAW} play), "
            f"E-Web and the AT-AT confirmation roll: attack dice only ({EWEB_CONFIRM} no)") in first
    toy = api.create()
    assert _header(api, toy["game_id"])["payload"]["choices"] == {}


def _ruling(e: dict) -> dict | None:
    """A finished game's event's ruling (its private part is public once the game is over)."""
    return (e.get("private") or {}).get("ruling")


def _play_script(api: Api, monkeypatch, choices=CHOICES) -> tuple[str, dict]:
    game_id, seed, script = scripted(choices=choices)
    monkeypatch.setattr("service.game_service.new_game_id", lambda: game_id)
    r = api.client.post("/games", json={"ruleset": "hoth", "scenario": SCENARIO, "seed": seed, "choices": choices})
    assert r.status_code == 201, r.text
    tokens, version = r.json()["seats"], r.json()["version"]
    for seat, cmd in script:
        r = api.send(game_id, tokens[seat], cmd, version)
        assert r.status_code == 201, (cmd, r.text)
        version = r.json()["version"]
    return game_id, tokens


def test_a_game_under_non_default_choices_replays_verifies_redecides_exports_and_imports(api: Api, monkeypatch,
                                                                                         tmp_path):
    gid, tokens = _play_script(api, monkeypatch)
    view = api.view(gid)
    assert view["status"] == "finished"
    v = api.get(f"/games/{gid}/verify").json()
    assert v["chain_ok"] and v["row_ok"] and v["dice_ok"] and v["choices"][EWEB] == "all"
    events = api.events(gid)
    eweb_steps = [e for e in events if cites(_ruling(e), EWEB)]
    assert eweb_steps, "the script has an E-Web attack"
    # replay: the state at every step is the fold under the game's choices (the pending re-roll says "all")
    seq = eweb_steps[0]["seq"]
    st = api.get(f"/games/{gid}/states/{seq}", tokens["imperial"]).json()
    assert st["version"] == seq
    # every step re-decides to the record; the E-Web step also under "any", where it differs
    red = api.get(f"/games/{gid}/events/{seq}/redecide").json()
    assert red["same"] is True and red["choices"][EWEB] == "all"
    assert {r["id"] for r in red["rules"]} >= {EWEB, "HOTH-SPECIAL-EWEB-6"}
    assert all(r["url"] == f"/rulesets/hoth/rules/{r['id']}" and r["text"] for r in red["rules"] if r["id"] == EWEB)
    alt = [b for b in red["by_choice"] if b["choice"] == EWEB]
    assert [(b["in_force"], b["option"]) for b in alt] == [("all", "any")]
    assert alt[0]["same"] is False
    pending = [e for e in alt[0]["now"] if e["type"] == "decision_pending"]
    assert pending and pending[0]["payload"]["pending"]["which"] == "any"
    assert any(d.get("field") == "payload" for d in alt[0]["differences"])
    # a step that did not depend on a choice has no by_choice section
    other = next(e for e in events if e["seq"] > 2 and e.get("actor") and not any(
        cites(_ruling(x), c) for x in events if x["seq"] == e["seq"] for c in (EWEB, PERM_MEDAL, FIRST_DRAW)))
    assert api.get(f"/games/{gid}/events/{other['seq']}/redecide").json()["by_choice"] == []
    # export and import into another store: the choices come along and the game folds the same
    lines = list(export_lines(api.client.app.state.games.store, gid, with_secrets=True))
    other_app = create_app(Settings(data_dir=str(tmp_path / "other")), read_models=None)
    with TestClient(other_app) as c2:
        import_game(other_app.state.games.store, lines)
        copy = Api(c2, str(tmp_path / "other"))
        assert copy.view(gid)["state"] == view["state"]
        assert copy.events(gid)[0]["payload"]["choices"][EWEB] == "all"
        assert copy.get(f"/games/{gid}/verify").json()["choices"][EWEB] == "all"
        assert copy.get(f"/games/{gid}/states/{seq}", tokens["imperial"]).json()["state"] == st["state"]


def test_an_old_game_without_choices_in_its_header_folds_to_the_same_states(api: Api, monkeypatch, tmp_path):
    """A game stored before choices existed (header and setup without them) folds under the recorded readings:
    the export is rewritten without the field (hashes recomputed), imported, and its states compared."""
    gid, tokens = _play_script(api, monkeypatch, choices={})
    view = api.view(gid)
    lines = [msgspec.json.decode(x) for x in export_lines(api.client.app.state.games.store, gid, with_secrets=True)]
    old = _strip_choices(lines)
    other_app = create_app(Settings(data_dir=str(tmp_path / "old")), read_models=None)
    with TestClient(other_app) as c2:
        import_game(other_app.state.games.store, [msgspec.json.encode(x) for x in old])
        copy = Api(c2, str(tmp_path / "old"))
        assert "choices" not in copy.events(gid)[0]["payload"] or copy.events(gid)[0]["payload"]["choices"] is None
        assert copy.view(gid)["state"] == view["state"]
        for seq in range(1, view["version"] + 1, 37):
            a = api.get(f"/games/{gid}/states/{seq}", tokens["rebel"]).json()
            b = copy.get(f"/games/{gid}/states/{seq}", tokens["rebel"]).json()
            assert a["state"] == b["state"], seq
        v = copy.get(f"/games/{gid}/verify").json()
        assert v["chain_ok"] and v["row_ok"] and v["dice_ok"]
        assert v["choices"] == {EWEB: "any", PERM_MEDAL: "pass", FIRST_DRAW: "play", EWEB_CONFIRM: "no"}  # recorded readings


def _strip_choices(lines: list[dict]) -> list[dict]:
    """The export as a game stored before choices existed: no ``choices`` in the setup or the header; the
    chain is sealed again (commitments and hashes) with the game's seed."""
    from domain.kernel import chain
    from service.store import GENESIS

    head, events = lines[0], lines[1:]
    setup = msgspec.json.decode(head["game"]["setup"])
    setup.pop("choices", None)
    head["game"]["setup"] = msgspec.json.encode(setup).decode()
    payload = msgspec.json.decode(events[0]["payload"])
    assert events[0]["type"] == "game_created" and events[0]["public_payload"] is None
    payload.pop("choices", None)
    events[0]["payload"] = msgspec.json.encode(payload).decode()
    key = chain.commit_key(bytes.fromhex(head["seed"]))
    prev = GENESIS
    for e in events:
        e["prev_hash"] = prev
        e["commitment"], e["hash"] = chain.seal(prev, key, e)
        prev = e["hash"]
    return [head] + events


def test_a_campaign_carries_its_choices_into_every_battle(api: Api):
    from .test_campaigns import play_to_the_end

    client = api.client
    bad = client.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA",
                                          "choices": {PERM_MEDAL: "maybe"}})
    assert assert_problem(bad, 422)["field"] == f"choices.{PERM_MEDAL}"
    r = client.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA", "seed": "0f" * 32,
                                        "choices": {PERM_MEDAL: "stop", FIRST_DRAW: "draw"}})
    assert r.status_code == 201, r.text
    cid, tokens, first = r.json()["campaign_id"], r.json()["seats"], r.json()["game_id"]
    want = {EWEB: "any", PERM_MEDAL: "stop", FIRST_DRAW: "draw", EWEB_CONFIRM: "no"}
    assert _header(api, first)["payload"]["choices"] == want
    assert client.app.state.games.current(first).state.choices == want
    import random

    play_to_the_end(client, first, tokens, random.Random(1))
    second = client.get(f"/campaigns/{cid}", headers=Api.auth(tokens["rebel"])).json()["game_id"]
    assert second and second != first
    assert _header(api, second)["payload"]["choices"] == want


def test_the_terminal_shows_the_choices_in_words_with_the_ids_beside(tmp_path):
    """`umpire verify` and `umpire replay` name the choices in force in words ("E-Web re-roll: all dice or none"),
    the ids beside them, and a ruling that followed a choice says so in words too."""
    from click.testing import CliRunner

    from service.cli import main
    from tests.hoth.choice_games import store_scripted

    game_id, _tokens = store_scripted(str(tmp_path))
    res = CliRunner().invoke(main, ["verify", game_id, "--data-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert f"rule choices: E-Web re-roll: all dice or none ({EWEB} all); Permanent medal: passing through " \
           f"captures ({PERM_MEDAL} pass)" in res.output
    res = CliRunner().invoke(main, ["replay", game_id, "--data-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert f"rule choices: E-Web re-roll: all dice or none ({EWEB} all)" in res.output
    assert f"{EWEB}: under E-Web re-roll: all dice or none ({EWEB} all) — " in res.output


def test_a_step_that_depended_on_a_newer_choice_is_decided_again_under_its_other_option(api: Api, monkeypatch):
    """SOLO-CHOICE-DEFENSE-CARD through the API: a finished Emperor game played under "value"; the step in which
    the Emperor's hero defended with a card that has abilities cites the choice, and re-decided under
    "abilities" (the card's abilities resolve) it differs from the record."""
    from domain.emperor.choices import DEFENSE_CARD
    from domain.kernel import registry
    from domain.kernel.runner import random_game

    played: list[tuple[str, dict]] = []
    rs, scenario = registry.get("emperor"), "SETUP-AKHENA-VS-REBEL"
    g = random_game(rs, scenario, 0, choices={DEFENSE_CARD: "value"},
                    check=lambda g, seat, cmd, cmds: played.append((seat, msgspec.to_builtins(cmd))))
    assert g.over
    monkeypatch.setattr("service.game_service.new_game_id", lambda: g.setup.game_id)
    r = api.client.post("/games", json={"ruleset": "emperor", "scenario": scenario, "seed": (0).to_bytes(32, "big").hex(),
                                        "choices": {DEFENSE_CARD: "value"}})
    assert r.status_code == 201, r.text
    gid, tokens, version = r.json()["game_id"], r.json()["seats"], r.json()["version"]
    for seat, cmd in played:
        r = api.send(gid, tokens[seat], cmd, version)
        assert r.status_code == 201, (cmd, r.text)
        version = r.json()["version"]
    seq = next(e["seq"] for e in api.events(gid) if cites(_ruling(e), DEFENSE_CARD))
    red = api.get(f"/games/{gid}/events/{seq}/redecide").json()
    assert red["same"] is True and red["choices"][DEFENSE_CARD] == "value"
    other = [b for b in red["by_choice"] if b["choice"] == DEFENSE_CARD]
    assert [(b["in_force"], b["option"], b["same"]) for b in other] == [("value", "abilities", False)]
    assert any(e["type"] == "ability_done" for e in other[0]["now"])  # the card's abilities resolved
