"""``UMPIRE_LOG_FORMAT=json`` (DESIGN 16): a real ``umpire serve`` writes its access log and its own log as JSON
lines; each command has a record naming its game, seat, command type, outcome and duration; no seat token
appears anywhere in the log."""
from __future__ import annotations

import json

import httpx

from .metrics_script import GAMES, SEED, Serve


def test_umpire_serve_logs_json_lines_with_commands_and_never_a_token(tmp_path):
    server = Serve(tmp_path / "data", env={"UMPIRE_LOG_FORMAT": "json"}).wait()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as c:
            g = c.post("/games", json={"ruleset": "hoth", "scenario": GAMES["hoth"], "seed": SEED}).json()
            gid, tokens = g["game_id"], g["seats"]
            auth = {"Authorization": f"Bearer {tokens['imperial']}"}
            legal = c.get(f"/games/{gid}/legal-commands", headers=auth).json()
            ok = c.post(f"/games/{gid}/commands", headers=auth,
                        json={"command": legal["commands"][0], "expected_version": legal["version"]})
            assert ok.status_code == 201, ok.text
            stale = c.post(f"/games/{gid}/commands", headers=auth,
                           json={"command": legal["commands"][0], "expected_version": legal["version"]})
            assert stale.status_code == 409
            # a token in a query string (the feed's) is redacted in the access line
            c.get(f"/games/{gid}/feed", params={"token": tokens["rebel"], "limit": 1})
    finally:
        server.stop()
    text = server.log.read_text()
    for token in tokens.values():
        assert token not in text
    records = []
    for line in text.splitlines():
        if line.startswith("umpire: "):  # serve's own notices on the terminal (the private Redis), not logs
            continue
        records.append(json.loads(line))  # every other line is one JSON object
    assert all({"ts", "level", "logger"} <= set(r) for r in records)
    access = [r for r in records if r["logger"] == "umpire.access"]
    posts = [r for r in access if r["method"] == "POST" and r["path"] == f"/games/{gid}/commands"]
    assert [r["status"] for r in posts] == [201, 409] and all(r["game_id"] == gid for r in posts)
    assert all(isinstance(r["duration_ms"], float) for r in access)
    commands = [r for r in records if r["logger"] == "umpire.commands"]
    assert [(r["game_id"], r["seat"], r["command"], r["outcome"]) for r in commands] == [
        (gid, "imperial", legal["commands"][0]["type"], "accepted"),
        (gid, "imperial", legal["commands"][0]["type"], "refused")]
    assert commands[1]["rule"] == "stale-version" and commands[0]["duration_ms"] > 0
    assert any(r["logger"].startswith("uvicorn") for r in records)  # uvicorn's lines too
