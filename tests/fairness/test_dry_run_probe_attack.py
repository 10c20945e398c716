"""Dry runs as a probe of the dice, as a player who wants a second outcome of a draw.

A dry run stops before the first draw (UMPIRE-REVEAL-1; tests/fairness/test_dry_run_reveals.py checks what it
shows). The attack here is on what it leaves behind: if a dry run (or a read: legal commands, a ruling, a past
state) took a die from the game's seeded stream, a player could step the stream along with dry runs until the
next die suits it, then roll -- choosing among outcomes without the other side. So: two games with the same seed
and the same id (the dice depend on both), the same commands; in one, before every command, the player sends
dry runs of every legal command in every language and reads everything it may read. Both games must store the
same events, with the same dice, seq for seq; and every dry run of a command that draws answers the same
whatever was tried before it (nothing in it depends on the stream's place).

Games: the toy ruleset (a roll, a throw, private draws, a challenge) and the Emperor (the order deck turned in
the Emperor's turn). Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import random
from typing import Any

import pytest
from litestar.testing import TestClient

from service import game_service
from service.app import create_app
from service.settings import Settings
from tests.service.api_client import SEED

from .test_undo_forged_targets_attack import _auth

LANGS = ("en", "uk", "cs", "ru", "it")


def _play(c: TestClient, monkeypatch, gid: str, ruleset: str, scenario: str, steps: int, probe: bool) -> list[Any]:
    """A game of id ``gid`` played ``steps`` commands (the same ones: a seeded choice); with ``probe``, every legal
    command dry-run in every language and every read made before each command. Returns the stored events."""
    monkeypatch.setattr(game_service, "new_game_id", lambda: gid)
    g = c.post("/games", json={"ruleset": ruleset, "scenario": scenario, "seed": SEED})
    assert g.status_code == 201, g.text
    tokens = g.json()["seats"]
    svc = c.app.state.games
    rng = random.Random(7)
    drew_dry: dict[str, list[str]] = {}
    for _ in range(steps):
        cur = svc.current(gid)
        if cur.finished or not cur.status.to_act:
            break
        seat = cur.status.to_act[0]
        legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(tokens[seat])).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        if probe:
            for i, cmd in enumerate(cmds):
                for lang in LANGS:
                    r = c.post(f"/games/{gid}/commands", params={"dry_run": "true", "lang": lang},
                               headers=_auth(tokens[seat]), json={"command": cmd, "expected_version": legal["version"]})
                    assert r.status_code == 200, r.text
                    # a dry run stopped at a draw or a reveal answers the same whatever was tried before it
                    if lang == "en" and r.json()["stopped_at"] in ("draw", "reveal"):
                        key = f"{legal['version']}:{i}"
                        drew_dry.setdefault(key, []).append(r.text)
                        assert len(set(drew_dry[key])) == 1
            for who in (*tokens.values(), None):
                h = _auth(who) if who else {}
                for path in ("", "/legal-commands", "/timeline", f"/states/{legal['version']}",
                             f"/events/{legal['version']}/ruling", "/board.svg"):
                    assert c.get(f"/games/{gid}{path}", headers=h).status_code in (200, 401)
        r = c.post(f"/games/{gid}/commands", headers=_auth(tokens[seat]),
                   json={"command": rng.choice(cmds), "expected_version": legal["version"]})
        assert r.status_code == 201, r.text
    if probe:
        assert drew_dry, "no dry run reached a draw or a reveal: the probe proved nothing"
    return [(e.seq, e.type, e.payload, e.rolls) for e in svc.store.load(gid)]


@pytest.mark.parametrize(("ruleset", "scenario", "steps"),
                         [("toy", "duel", 40), ("emperor", "SETUP-AKHENA-VS-REBEL", 12)])
def test_dry_runs_and_reads_take_no_die_from_the_seeded_stream(toy_client, monkeypatch, tmp_path, ruleset, scenario,
                                                                   steps):
    plain = _play(toy_client, monkeypatch, f"probe-{ruleset}", ruleset, scenario, steps, probe=False)
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "other")), read_models=None)) as c2:
        probed = _play(c2, monkeypatch, f"probe-{ruleset}", ruleset, scenario, steps, probe=True)
    assert any(rolls not in ("", "[]") for *_, rolls in plain), "nothing was drawn: the comparison proves nothing"
    # the same dice, seq for seq (timestamps aside: the payloads and the draws, not the rows' times)
    assert [(s, t, p, r) for s, t, p, r in probed] == [(s, t, p, r) for s, t, p, r in plain]
