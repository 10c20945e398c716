"""Dry runs of the kernel's own commands (``ready``, ``undo``, ``undo_accept``), which the dry-run reveal test
(tests/fairness/test_dry_run_reveals.py) leaves out, attacked as a player who wants a better draw.

- The last seat of a ``when_ready`` game would grind its client seed: dry-run ``ready`` with seed after seed and
  keep the one whose opening (shuffles, deals, hands, terrain) it likes. Every such dry run must stop before the
  opening's first draw (UMPIRE-REVEAL-1, UMPIRE-READY-3) and show the same thing whatever the client seed, and
  none of them may make the seat ready.
- A seat asked to undo its opponent's bad roll would dry-run ``undo_accept`` to see what the re-roll would be
  before agreeing: the dry run shows the ``undone`` event and no draw (UMPIRE-UNDO-9, -12: the next draw is a new
  one, made only by the next command).

Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import json
import random

import pytest
from litestar.testing import TestClient

from domain.kernel.reveals import stored_reveal
from service.app import create_app
from service.settings import Settings

GAMES = [("hoth", "SCN-TAKE-DOWN-THE-SHIELD", {}), ("hoth", "SCN-TAKE-DOWN-THE-SHIELD", {"team": True}),
         ("smoke", "BTL-OPEN-FIELD", {}), ("emperor", "SETUP-AKHENA-VS-REBEL", {})]


def _auth(tok: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def _without(body: dict, seed: str) -> str:
    """A dry run's answer with the client seed it was given taken out (it is echoed in the event and ruling)."""
    return json.dumps(body, sort_keys=True).replace(seed, "<seed>")


@pytest.mark.parametrize("ruleset,scenario,options", GAMES, ids=[f"{g[0]}{'-team' if g[2] else ''}" for g in GAMES])
def test_the_last_seat_cannot_grind_its_client_seed_with_dry_runs_of_ready(client, ruleset, scenario, options):
    c = client
    g = c.post("/games", json={"ruleset": ruleset, "scenario": scenario, "options": options, "start": "when_ready"})
    assert g.status_code == 201, g.text
    gid, tokens = g.json()["game_id"], g.json()["seats"]
    *first, last = list(tokens)
    for s in first:
        assert c.post(f"/games/{gid}/ready", json={"client_seed": f"early-{s}"}, headers=_auth(tokens[s])).status_code == 201
    version = c.get(f"/games/{gid}").json()["version"]
    answers = []
    for seed in ("grind-1", "grind-2", "grind-3"):
        r = c.post(f"/games/{gid}/commands", params={"dry_run": "true"}, headers=_auth(tokens[last]),
                   json={"command": {"type": "ready", "client_seed": seed}, "expected_version": version})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["stopped_at"] == "draw", body  # the opening's first shuffle is not shown
        answers.append(_without(body, seed))
    assert answers[0] == answers[1] == answers[2]  # nothing shown depends on the client seed
    view = c.get(f"/games/{gid}").json()
    assert view["version"] == version and view["waiting_for"] == [last]  # no dry run made the seat ready
    # the real ready opens the game: the dry runs showed what it stores before its first reveal, or less
    shown = json.loads(answers[0])["events"]
    r = c.post(f"/games/{gid}/ready", json={"client_seed": "grind-2"}, headers=_auth(tokens[last]))
    assert r.status_code == 201, r.text
    events = r.json()["events"]
    assert [e["type"] for e in events[:len(shown)]] == [e["type"] for e in shown]
    cur = c.app.state.games.current(gid)
    stored = c.app.state.games.store.load(gid, after=version)
    first = next(i for i, e in enumerate(stored)
                 if stored_reveal(cur.ruleset, e.type, e.visibility, e.rolls not in ("", "[]"), e.reveals))
    assert len(shown) <= first, ([e.type for e in stored[:first + 1]], [e["type"] for e in shown])


def test_a_dry_run_of_undo_accept_shows_no_re_roll(client):
    """Hoth: a seat rolls, its opponent asks to undo the roll (consent needed, UMPIRE-UNDO-12); the roller's
    dry run of ``undo_accept`` shows the ``undone`` event and stops there: no new roll, no card, and the game is
    unchanged. The same answer, accepted for real, stores no draw either: the re-roll is the next command's."""
    c, rng = client, random.Random(21)
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": "7e" * 32}).json()
    gid, tokens = g["game_id"], g["seats"]
    asker = None
    for _ in range(300):
        view = c.get(f"/games/{gid}").json()
        seat = view["to_act"][0]
        start = view["version"]
        legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(tokens[seat])).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers=_auth(tokens[seat]))
        assert r.status_code == 201, r.text
        if any(e["type"] == "attack_rolled" for e in r.json()["events"]):
            other = next(s for s in tokens if s != seat)
            ask = c.post(f"/games/{gid}/undo", json={"to_version": start}, headers=_auth(tokens[other]))
            if ask.status_code == 202:
                asker, roller = other, seat
                break
    assert asker is not None, "no undo request over a roll was made"
    version = c.get(f"/games/{gid}").json()["version"]
    dry = c.post(f"/games/{gid}/commands", params={"dry_run": "true"}, headers=_auth(tokens[roller]),
                 json={"command": {"type": "undo_accept"}, "expected_version": version})
    assert dry.status_code == 200, dry.text
    body = dry.json()
    assert [e["type"] for e in body["events"]] == ["undone"], body
    assert all(not e.get("rolls") for e in body["events"]) and "attack_rolled" not in dry.text
    assert c.get(f"/games/{gid}").json()["version"] == version  # the dry run changed nothing
    assert c.get(f"/games/{gid}").json()["undo_request"] is not None
    real = c.post(f"/games/{gid}/undo/accept", headers=_auth(tokens[roller]), json={"expected_version": version})
    assert real.status_code == 201, real.text
    stored = c.app.state.games.store.load(gid, after=version)
    assert [e.type for e in stored] == ["undone"] and stored[0].rolls in ("", "[]")
