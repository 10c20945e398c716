"""Words over the REST API (DESIGN 12; real app, real SQLite, with and without the Redis read models):
``GET /legal-commands`` lists each command's label and warning in ``described`` (the same commands in
the same order) and labels its templates; the timeline, the events and the rulings name who did each
step (the Emperor's automaton is never the human's seat) and units by their printed names;
``GET /rulesets`` gives each scenario's seats; ``umpire replay --at`` draws Smoke's table and the
Emperor's grid as text, not JSON."""
from __future__ import annotations

import re

from click.testing import CliRunner

from service.cli import main
from tests.service.api_client import Api, api  # noqa: F401


def test_legal_commands_carry_the_rulesets_words_beside_each_command(api: Api):
    g, seen = api.play_random("emperor", "SETUP-AKHENA-VS-REBEL", 12)
    warned = 0
    for legal in seen:
        assert [d["command"] for d in legal["described"]] == legal["commands"]  # parallel, nothing else changed
        for d in legal["described"]:
            assert d["label"] and "[" not in d["label"] and "_" not in d["label"]
            warned += d["warning"] is not None
    assert warned, "some choice of a dozen Emperor turns has a consequence to see first"
    # a spectator has no commands and no words
    spectator = api.get(f"/games/{g['game_id']}/legal-commands").json()
    assert spectator["commands"] == [] and spectator["described"] == []


def test_the_timeline_says_who_did_each_step_and_names_printed_names(api: Api):
    g, _ = api.play_random("emperor", "SETUP-AKHENA-VS-REBEL", 8)
    gid = g["game_id"]
    steps = api.get(f"/games/{gid}/timeline").json()["steps"]
    kinds = {s["by"]["kind"] for s in steps}
    assert {"referee", "seat", "automaton"} <= kinds
    for s in steps:
        if s["type"] in ("order_card_revealed", "emperor_step", "emperor_moved"):
            by = {k: v for k, v in s["by"].items() if k not in ("message", "in_summary")}  # words as a message too
            assert by == {"kind": "automaton", "seat": None, "bot": None, "text": "the Emperor (automaton)"}
            # the Emperor's own step names it in its summary ("the Emperor's order step MOVE"): said once on a page
            assert s["by"].get("in_summary") is (True if s["type"] == "emperor_step" else None), s
        if s["actor"] is None:
            assert s["by"]["kind"] == "referee"
    assert steps[0]["summary"].startswith("game created: Akhena against the Emperor's Rebel")
    activated = [s for s in steps if s["type"] == "card_activated"]
    assert activated and all("(" in s["summary"] for s in activated)  # "you activate Dune Wind (AK5)"
    twice = re.compile(r"(\b[A-Z][\w' -]+) \(\w+\) \1\b")  # "Dune Wind (AK5) Dune Wind": a name said twice
    assert [s["summary"] for s in steps if twice.search(s["summary"])] == []
    for s in activated:
        ruling = api.get(f"/games/{gid}/events/{s['seq']}/ruling").json()["ruling"]
        assert [x["text"] for x in ruling["steps"] if twice.search(x["text"])] == []
    events = api.events(gid, g["seats"]["human"])
    assert [(e["seq"], e["summary"], e["by"]) for e in events] == [(s["seq"], s["summary"], s["by"]) for s in steps]


def test_smoke_templates_are_labelled_and_rulesets_list_seats(api: Api):
    g, seen = api.play_random("smoke", "BTL-CROSSROADS", 30)
    tpls = [t for legal in seen for t in legal.get("templates", [])]
    assert tpls and all(t["label"] and "warning" in t for t in tpls)
    rs = {r["id"]: r for r in api.get("/rulesets").json()}
    assert {s["id"]: s["seats"] for s in rs["emperor"]["scenarios"]}["SETUP-AKHENA-VS-REBEL"] == ["human"]
    assert {s["id"]: s["seats"] for s in rs["smoke"]["scenarios"]}["BTL-OPEN-FIELD"] == ["player-1", "player-2"]
    assert "GAP-B-09" not in {s["id"]: s["title"] for s in rs["smoke"]["scenarios"]}["BTL-OPEN-FIELD"]


def test_replay_draws_smoke_and_the_emperor_as_text(api: Api):
    for ruleset, scenario, marks in (("smoke", "BTL-CROSSROADS", ("Units:", "Map: 1 character per UW")),
                                     ("emperor", "SETUP-AKHENA-VS-REBEL", ("Cells: L<n> location", "Akhena (your hero)"))):
        g, _ = api.play_random(ruleset, scenario, 6)
        res = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", api.data_dir, "--at", "5"])
        assert res.exit_code == 0, res.output
        assert res.output.startswith("--- step 5 of ")
        assert all(m in res.output for m in marks), res.output
        assert '"state"' not in res.output and len(res.output.splitlines()) < 120  # a board, not the view as JSON
        listing = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", api.data_dir])
        assert "the referee" in listing.output
