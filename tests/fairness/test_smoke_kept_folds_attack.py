"""Attack on the folds Clouds of Smoke keeps between a decision and its play (``domain/smoke/outbox.py``
``folded``/``_kept``: a module-level cache of folded states keyed by the ids of the state and the event, taken by
``SmokeRuleset.evolve``).

A cheater floods its Smoke game with what leaves folds behind that are never played: before each of its commands,
dry runs of every other command it could send (``?dry_run=true`` decides but never plays, so its folds stay in the
cache), a command the rules refuse, and, while the command itself is being played, more dry runs and a command of
a second Smoke game of the same process, from several threads at once; twice it undoes a step (asked and
agreed: the undo folds the log again from the start). It hopes a later fold takes a state the cache kept from
one of them -- the dry run's outcome instead of the command's, a state it chose, a state of the other game. It
must fail: the state each game reached in this process is the state a new app folds afresh from the stored log
(new objects, so no kept fold fits), and the log's hash chain verifies. (The check fails when ``_kept`` keeps
the first fold of a state whatever the event and ``folded`` looks a fold up by its state alone.)

Real app (litestar's TestClient) on a real SQLite file.
"""
from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import msgspec
import pytest
from litestar.testing import TestClient

from domain.kernel import registry
from service.app import create_app
from service.settings import Settings

SEED = "5e" * 32


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def _h(tok: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"}


def _broken(body: dict) -> dict | None:
    """``body`` with its first coordinate moved far off the table (a command the rules refuse), or None."""
    for k, v in body.items():
        if isinstance(v, float):
            return {**body, k: v + 10_000}
    return None


def _fresh_state(data_dir: str, gid: str) -> dict:
    """The game's state as a new app folds it from the stored log (new objects: no fold of this process fits)."""
    with TestClient(create_app(Settings(data_dir=data_dir), read_models=None)) as fresh:
        r = fresh.get(f"/games/{gid}")
        assert r.status_code == 200, r.text
        assert fresh.get(f"/games/{gid}/verify").json()["chain_ok"] is True
        return r.json()["state"]


def _next(c: TestClient, svc, smoke, gid: str, tokens: dict, rng: random.Random) -> tuple | None:
    cur = svc.current(gid)
    if cur.status.status == "finished" or not cur.status.to_act:
        return None
    seat = cur.status.to_act[0]
    cmds = [msgspec.to_builtins(x) for x in smoke.legal_commands(cur.state, seat)]
    if not cmds:
        return None
    return cur, seat, cmds, (cmds[0] if rng.random() < 0.7 else rng.choice(cmds))


def test_dry_runs_refusals_undos_and_another_game_at_once_never_lend_a_kept_fold(client, tmp_path):
    c, smoke, svc = client, registry.get("smoke"), client.app.state.games
    games = []
    for _ in range(2):
        g = c.post("/games", json={"ruleset": "smoke", "scenario": "BTL-OPEN-FIELD", "seed": SEED})
        assert g.status_code == 201, g.text
        games.append((g.json()["game_id"], g.json()["seats"]))
    (other_gid, other_tokens), (gid, tokens) = games
    rng, dry_runs, refused, undone = random.Random(11), 0, 0, 0
    with ThreadPoolExecutor(max_workers=4) as pool:
        for step in range(120):
            nxt = _next(c, svc, smoke, gid, tokens, rng)
            if nxt is None:
                break
            cur, seat, cmds, body = nxt
            others = [x for x in cmds if x != body][:6]

            def dry(cmd: dict, seat: str = seat, version: int = cur.version) -> int:
                return c.post(f"/games/{gid}/commands", params={"dry_run": "true"}, headers=_h(tokens[seat]),
                              json={"command": cmd, "expected_version": version}).status_code

            # folds left behind before the command: dry runs of the others (at once), a refused command
            codes = list(pool.map(dry, others))
            assert set(codes) <= {200}, codes
            dry_runs += len(codes)
            bad = _broken(body)
            if bad is not None and dry(bad) in (400, 422):  # refused as a dry run: then sent for real
                r = c.post(f"/games/{gid}/commands", headers=_h(tokens[seat]),
                           json={"command": bad, "expected_version": cur.version})
                assert r.status_code in (400, 422), r.text
                refused += 1
            # the command, with dry runs of the others and the other game's command running beside it
            beside = [pool.submit(dry, x) for x in others[:3]]
            there = _next(c, svc, smoke, other_gid, other_tokens, rng)
            if there is not None:
                beside.append(pool.submit(lambda t=there: c.post(
                    f"/games/{other_gid}/commands", headers=_h(other_tokens[t[1]]),
                    json={"command": t[3], "expected_version": t[0].version}).status_code))
            r = c.post(f"/games/{gid}/commands", json={"command": body, "expected_version": cur.version},
                       headers=_h(tokens[seat]))
            assert r.status_code == 201, r.text
            assert all(f.result() in (200, 201, 409) for f in beside)
            if step in (12, 30):  # an undo asked and agreed (the refold folds the log again)
                other = next(s for s in tokens if s != seat)
                v = c.get(f"/games/{gid}").json()["version"]
                r = c.post(f"/games/{gid}/commands", json={"command": {"type": "undo", "to_version": cur.version}, "expected_version": v},
                           headers=_h(tokens[seat]))
                assert r.status_code in (201, 202), r.text
                if r.status_code == 202:
                    v = c.get(f"/games/{gid}").json()["version"]
                    r = c.post(f"/games/{gid}/commands", headers=_h(tokens[other]),
                               json={"command": {"type": "undo_accept"}, "expected_version": v})
                    assert r.status_code == 201, r.text
                undone += 1
    assert dry_runs >= 50 and refused >= 5 and undone == 2, (dry_runs, refused, undone)
    # the attack went through the secret columns, drawn terrain and a battle with dice and moves
    seen = {e["type"] for e in c.get(f"/games/{gid}/events", params={"limit": 1000}).json()["events"]}
    assert {"columns_assigned", "terrain_rolled", "action_dice_rolled", "unit_moved"} <= seen, seen
    # the state this process folded (with its kept folds) is the state of the stored log, folded afresh
    live = c.get(f"/games/{gid}").json()["state"]
    assert live == _fresh_state(str(tmp_path / "data"), gid)
    assert c.get(f"/games/{other_gid}").json()["state"] == _fresh_state(str(tmp_path / "data"), other_gid)
