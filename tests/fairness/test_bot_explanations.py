"""UMPIRE-BOT-3: a bot's explanation, public in its step's ruling, says nothing it computed from its hidden hand.

Was: ``random: one of 7 legal command(s)`` (in Battle of Hoth's card phase, the count of the cards it can
play: the size of its hidden hand), ``greedy: plays X (expected gain +0.52)``, ``search: 200 playouts, win
rate 0.61 ...`` (estimated from its hand and deck), and ``playouts``/``seconds`` values beside them. The real
app with its Redis read models and bot worker; the opponent reads every bot step's ruling.
"""
from __future__ import annotations

import re
import time

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.service.api_client import Api

SEED = "5a" * 32
NUMBER = re.compile(r"[+-]?\d+\.\d+|\b\d+ (?:legal|playouts)")


@pytest.fixture
def api(tmp_path, redis_url, redis_client):
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    with TestClient(app) as client:
        yield Api(client, str(tmp_path / "data"))


@pytest.mark.parametrize("bot", ["random:1", "greedy:1"])
def test_a_bots_public_explanation_names_no_number_from_its_hidden_hand(api, bot):
    r = api.client.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": SEED,
                                        "bots": {"rebel": bot}})
    assert r.status_code == 201, r.text
    gid, tok = r.json()["game_id"], r.json()["seats"]["imperial"]
    for _turn in range(2):  # imperial ends each phase at once; the bot plays its turn
        while "imperial" in api.view(gid)["to_act"] and api.view(gid)["status"] == "active":
            cmds = api.legal(gid, tok)["commands"]
            ends = [c for c in cmds if c["type"] in ("end_orders", "end_moves", "end_turn")]
            api.ok(gid, tok, (ends or cmds)[0])
        deadline = time.monotonic() + 120
        while "imperial" not in api.view(gid)["to_act"] and api.view(gid)["status"] == "active":
            assert time.monotonic() < deadline, "the bot did not play its turn"
            time.sleep(0.05)
    notes = []
    for e in api.events(gid, tok):
        if e.get("bot") != bot:
            continue
        for who in (tok, None):
            ruling = api.get(f"/games/{gid}/events/{e['seq']}/ruling", who).json()["ruling"] or {}
            notes += [s for s in ruling.get("steps", []) if s["rule"] == "UMPIRE-BOT-1"]
    assert notes, "no bot step was read"
    for s in notes:
        assert set(s["values"]) == {"bot"}, s
        assert not NUMBER.search(s["text"]), s["text"]
        assert not any(w in s["text"] for w in ("gain", "win rate", "score", "legal command(s)")), s["text"]
    if bot == "random:1":
        assert {s["text"] for s in notes} == {"Played by the bot random:1. random: a legal command at random"}
