"""Provably fair seeds (DESIGN 3, CONTRACTS): ``"start": "when_ready"``, each seat's client seed, the
opening only after every seat is ready, and a verifier written in this test from the published
formula (tests/service/fair_verifier.py, no umpire code) reproduces every roll and shuffle."""
from __future__ import annotations

import random

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.store import EventStore

from . import fair_verifier as V
from .api_client import SEED, Api, assert_problem
from .toy_ruleset import deck_of, register

GAME_ID = "seeded-toy-game"
#: Games made since the last reset: the dice depend on the game id, so ids are fixed (the first game of
#: each data dir is GAME_ID).
_made = {"n": 0}


def _next_id() -> str:
    _made["n"] += 1
    return GAME_ID if _made["n"] == 1 else f"{GAME_ID}-{_made['n']}"


def _reset_ids() -> None:
    _made["n"] = 0


def _app(data_dir: str) -> TestClient:
    register()
    return TestClient(create_app(Settings(data_dir=data_dir), read_models=None))


@pytest.fixture
def api(tmp_path, monkeypatch):
    _reset_ids()
    monkeypatch.setattr("service.game_service.new_game_id", _next_id)
    with _app(str(tmp_path / "data")) as c:
        yield Api(c, str(tmp_path / "data"))


def _ready(api: Api, gid: str, token: str, seed: str | None):
    body = {} if seed is None else {"client_seed": seed}
    return api.client.post(f"/games/{gid}/ready", json=body, headers=api.auth(token))


def _when_ready(api: Api, north_seed: str | None, south_seed: str | None) -> tuple[str, dict]:
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED, "start": "when_ready"})
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["status"] == "waiting" and g["version"] == 1 and g["start"] == "when_ready"
    gid, t = g["game_id"], g["seats"]
    assert _ready(api, gid, t["north"], north_seed).status_code == 201
    r = _ready(api, gid, t["south"], south_seed)
    assert r.status_code == 201, r.text
    return gid, t


def test_a_game_waits_for_every_seat_then_opens_with_their_seeds(api: Api):
    r = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED, "start": "when_ready"})
    g = r.json()
    gid, t = g["game_id"], g["seats"]
    view = api.view(gid, t["north"])
    assert view["status"] == "waiting" and view["waiting_for"] == ["north", "south"]
    assert sorted(view["to_act"]) == ["north", "south"]
    assert api.legal(gid, t["north"])["commands"] == [{"type": "ready", "client_seed": None}]
    assert [x["game_id"] for x in api.get("/games", status="waiting").json()["games"]] == [gid]
    assert_problem(api.send(gid, t["north"], {"type": "step"}, 1), 403, rule="UMPIRE-READY-3")
    assert_problem(_ready(api, gid, t["north"], "no spaces allowed"), 400, field="client_seed")
    assert_problem(_ready(api, gid, t["north"], "x" * 65), 400, field="client_seed")
    assert_problem(_ready(api, gid, None, "abc"), 401)
    r = _ready(api, gid, t["north"], "north-seed_1")
    assert r.status_code == 201 and [e["type"] for e in r.json()["events"]] == ["seat_ready"]
    assert api.view(gid)["waiting_for"] == ["south"]
    assert_problem(_ready(api, gid, t["north"], "again"), 422, rule="UMPIRE-READY-2")
    # through /commands too, with an expected version
    r = api.client.post(f"/games/{gid}/commands", headers=api.auth(t["south"]),
                        json={"command": {"type": "ready", "client_seed": "S0uth"}, "expected_version": 2})
    assert r.status_code == 201, r.text
    types = [e["type"] for e in r.json()["events"]]
    assert types[0] == "seat_ready" and types.count("deck_shuffled") == 2 and types.count("hand_dealt") == 2
    view = api.view(gid, t["north"])
    assert view["status"] == "active" and "waiting_for" not in view and len(view["state"]["hand"]) == 3
    assert_problem(_ready(api, gid, t["south"], None), 422, rule="UMPIRE-READY-1")
    assert api.get(f"/games/{gid}/verify").json()["client_seeds"] == {"north": "north-seed_1", "south": "S0uth"}
    # undo never reaches into the opening
    assert_problem(api.client.post(f"/games/{gid}/undo", json={"to_version": 2}, headers=api.auth(t["north"])),
                   422, rule="UMPIRE-UNDO-1")
    # a game that did not wait: ready is refused, and its dice use the plain label
    plain = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
    body = api.get(f"/games/{plain['game_id']}/verify").json()
    assert "client_seeds" not in body
    # a seed given by the game's creator lets the creator compute every draw: every seat can see that
    assert body["seed_given"] is True and api.get(f"/games/{gid}/verify").json()["seed_given"] is True
    own = api.client.post("/games", json={"ruleset": "toy", "scenario": "duel", "start": "when_ready"}).json()
    assert api.get(f"/games/{own['game_id']}/verify").json()["seed_given"] is False


def test_another_client_seed_another_shuffle(api: Api, tmp_path):
    gid, t = _when_ready(api, "alpha", "beta")
    hand = api.view(gid, t["north"])["state"]["hand"]
    for seeds, same in ((("alpha", "beta"), True), (("alpha", "gamma"), False), ((None, "beta"), False)):
        _reset_ids()
        with _app(str(tmp_path / f"other-{seeds}")) as c:  # same server seed, same game id, another data dir
            other = Api(c, "")
            gid2, t2 = _when_ready(other, *seeds)
            assert gid2 == gid
            assert (other.view(gid2, t2["north"])["state"]["hand"] == hand) is same, seeds


def _finish(api: Api, gid: str, tokens: dict, rng: random.Random) -> dict:
    for _ in range(400):
        view = api.view(gid)
        if view["status"] == "finished":
            return view
        seat = view["to_act"][0]
        cmds = api.legal(gid, tokens[seat])["commands"]
        r = api.send(gid, tokens[seat], rng.choice(cmds), view["version"])
        assert r.status_code == 201, r.text
    raise AssertionError("the game did not end")


def test_a_verifier_from_the_formula_reproduces_every_roll_and_shuffle_of_a_finished_game(api: Api):
    gid, t = _when_ready(api, "Zm9v", None)  # the south seat adds no client seed: it counts as ''
    _finish(api, gid, t, random.Random(9))
    verify = api.get(f"/games/{gid}/verify").json()
    assert verify["dice_ok"] is True and verify["client_seeds"] == {"north": "Zm9v", "south": None}
    seed = bytes.fromhex(verify["seed"])
    mix = [("north", "Zm9v"), ("south", None)]  # the seats in their setup order
    entries = api.events(gid)
    checked = shuffles = 0
    for e in entries:
        rolls = api.get(f"/games/{gid}/events/{e['seq']}/ruling").json().get("rolls") or []
        for r in rolls:
            assert V.draw(seed, gid, r["stream"], r["index"], r["sides"], mix) == r["value"], (e["seq"], r)
            assert V.draw(seed, gid, r["stream"], r["index"], r["sides"]) != r["value"] or r["sides"] <= 8  # mixed
            checked += 1
        if e["type"] == "deck_shuffled":
            values = [V.draw(seed, gid, r["stream"], r["index"], r["sides"], mix) for r in rolls]
            assert e["payload"]["order"] == V.shuffle(list(deck_of(e["payload"]["seat"])), values)
            shuffles += 1
        if e["type"] in ("rolled", "dice_thrown", "challenged"):
            assert e["payload"]["face"] == rolls[0]["value"] + 1
    assert shuffles == 2 and checked > 14
    # without the client seeds the same formula does not give the recorded deck
    first = next(e for e in entries if e["type"] == "deck_shuffled")
    rolls = api.get(f"/games/{gid}/events/{first['seq']}/ruling").json()["rolls"]
    plain = [V.draw(seed, gid, r["stream"], r["index"], r["sides"]) for r in rolls]
    assert V.shuffle(list(deck_of(first["payload"]["seat"])), plain) != first["payload"]["order"]


def test_a_when_ready_campaign_waits_then_mixes_the_seeds_into_its_battles(tmp_path):
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        r = c.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-2-OUTPOST-DELTA", "seed": SEED,
                                       "start": "when_ready"})
        assert r.status_code == 201, r.text
        body = r.json()
        cid, tokens = body["campaign_id"], body["seats"]
        assert body["status"] == "waiting" and body["game_id"] is None
        view = c.get(f"/campaigns/{cid}").json()
        assert view["status"] == "waiting" and view["waiting_for"] == ["imperial", "rebel"]
        auth = {"Authorization": f"Bearer {tokens['rebel']}"}
        assert c.post(f"/campaigns/{cid}/ready", json={"client_seed": "r3bel"}, headers=auth).status_code == 201
        assert_problem(c.post(f"/campaigns/{cid}/ready", json={}, headers=auth), 422, rule="UMPIRE-READY-2")
        r = c.post(f"/campaigns/{cid}/ready", json={}, headers={"Authorization": f"Bearer {tokens['imperial']}"})
        assert r.status_code == 201 and r.json()["status"] == "active" and r.json()["game_id"]
        game_id = r.json()["game_id"]
        view = c.get(f"/campaigns/{cid}").json()
        assert view["status"] == "active" and view["client_seeds"] == {"imperial": None, "rebel": "r3bel"}
        assert c.get(f"/campaigns/{cid}/verify").json()["chain_ok"] is True
        # the battle's header carries the seeds; its opening shuffle follows the mixed formula
        store = EventStore(tmp_path / "data")
        header = msgspec.json.decode(store.load(game_id)[0].payload)
        assert header["client_seeds"] == {"imperial": None, "rebel": "r3bel"}
        seed = store.seed(game_id)
        shuffled = next(e for e in store.load(game_id) if e.type == "deck_shuffled")
        rolls = msgspec.json.decode(shuffled.rolls)
        mix = [("imperial", None), ("rebel", "r3bel")]
        assert rolls and all(V.draw(seed, game_id, r["stream"], r["index"], r["sides"], mix) == r["value"]
                             for r in rolls)
        store.close()
