"""A whole Clouds of Smoke game over REST (the real app, a real SQLite store, the session's real
Redis): a client that knows only ``legal-commands`` (commands and templates) and the dry run plays
both seats to the end; then its replay (states at several seqs equal the fold of the prefix), the
rulings, the board picture at several steps (syrupy) and ``verify``."""
from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator

import msgspec
import pytest
from litestar.testing import TestClient
from syrupy.extensions.image import SVGImageSnapshotExtension

from domain.kernel import Setup, fold, registry
from domain.kernel.fold import decode_event
from service.app import create_app
from service.settings import Settings
from service.store import EventStore

from .play import sample_template

SEED = "5e" * 32
BATTLE = "BTL-CROSSROADS"
MAX_COMMANDS = 900

smoke = registry.get("smoke")


class Client:
    """A REST client that plays from what the service tells it and nothing else."""

    def __init__(self, http: TestClient, gid: str, tokens: dict[str, str], rng: random.Random):
        self.http, self.gid, self.tokens, self.rng = http, gid, tokens, rng
        self.dry_runs = self.dry_refused = self.template_sent = 0

    def h(self, seat: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"} if seat else {}

    def view(self, seat: str | None = None) -> dict:
        r = self.http.get(f"/games/{self.gid}", headers=self.h(seat))
        assert r.status_code == 200, r.text
        return r.json()

    def step(self) -> bool:
        v = self.view()
        if v["status"] == "finished":
            return False
        seat = v["to_act"][0]
        legal = self.http.get(f"/games/{self.gid}/legal-commands", headers=self.h(seat)).json()
        assert legal["commands"], legal
        cmd = None
        if legal.get("templates") and self.rng.random() < 0.6:
            t = self.rng.choice(legal["templates"])
            cand = sample_template(self.rng, t)
            if cand["type"] == "move" and cand["kind"] == "simple" and self.rng.random() < 0.7:
                cand["facing"] = self._toward_enemy(v, cand["unit"])
            body = {"command": cand, "expected_version": legal["version"]}
            r = self.http.post(f"/games/{self.gid}/commands?dry_run=true", json=body, headers=self.h(seat))
            self.dry_runs += 1
            if r.status_code == 200:
                ans = r.json()
                assert ans["legal"] is True and ans["version"] == legal["version"]
                assert ans["stopped_at"] in (None, "draw", "reveal")
                cmd = cand
                self.template_sent += 1
            else:
                assert r.status_code == 422 and r.json()["rule"].startswith("SMOKE-"), r.text
                self.dry_refused += 1
        if cmd is None:
            prefer = [c for c in legal["commands"] if c["type"] not in ("end_activation", "end_actions", "end_tactics",
                                                                         "end_placement", "bombard")]
            cmd = self.rng.choice(prefer if prefer and self.rng.random() < 0.85 else legal["commands"])
        r = self.http.post(f"/games/{self.gid}/commands", json={"command": cmd, "expected_version": legal["version"]},
                           headers=self.h(seat))
        assert r.status_code == 201, (cmd, r.text)
        return True

    def _toward_enemy(self, v: dict, uid: str) -> float:
        st = v["state"]
        units = {u["id"]: u for u in st["units"]}
        me = units[uid]
        side = st["armies"][me["seat"]]["side"]
        enemies = [u for u in st["units"] if st["armies"][u["seat"]]["side"] != side]
        e = min(enemies, key=lambda e: math.hypot(e["x"] - me["x"], e["y"] - me["y"]))
        return math.degrees(math.atan2(e["y"] - me["y"], e["x"] - me["x"])) % 360


@pytest.fixture
def http(tmp_path, redis_url, redis_client) -> Iterator[tuple[TestClient, str]]:
    app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
    with TestClient(app) as client:
        yield client, str(tmp_path / "data")


@pytest.fixture
def svg_snapshot(snapshot):
    return snapshot.use_extension(SVGImageSnapshotExtension)


def test_a_whole_smoke_game_over_rest_with_legal_commands_and_dry_runs(http, snapshot, svg_snapshot, monkeypatch):
    monkeypatch.setattr("service.game_service.new_game_id", lambda: "smoke-rest")  # the dice depend on it
    client, data_dir = http
    r = client.get("/rulesets")
    smoke_entry = next(x for x in r.json() if x["id"] == "smoke")
    assert {s["id"] for s in smoke_entry["scenarios"]} >= {"BTL-OPEN-FIELD", "BTL-ALL-TERRAIN", BATTLE}
    r = client.post("/games", json={"ruleset": "smoke", "scenario": BATTLE, "seed": SEED})
    assert r.status_code == 201, r.text
    created = r.json()
    gid = created["game_id"]
    assert set(created["seats"]) == {"player-1", "player-2"}
    c = Client(client, gid, created["seats"], random.Random(11))
    n = 0
    while c.step():
        n += 1
        assert n < MAX_COMMANDS
    assert c.dry_runs > 20 and c.template_sent > 5 and c.dry_refused > 0
    end = c.view()
    assert end["status"] == "finished" and end["state"]["result"]["kind"] in ("decisive", "marginal", "draw")
    version = end["version"]

    # the log, and the replay at several steps equals the fold of the prefix
    store = EventStore(data_dir, read_only=True)
    try:
        g = store.require_game(gid)
        setup = msgspec.json.decode(g.setup, type=Setup)
        records = store.load(gid)
    finally:
        store.close()
    types = [e.type for e in records]
    assert "battle_rolled" in types and "unit_moved" in types and "marker_placed" in types
    rolled = [e.seq for e in records if e.type == "battle_rolled" and e.rolls != "[]"]
    assert rolled, "a battle was fought with dice"
    # event 1 is the game_created header (DESIGN 2); the opening's first event follows it
    picks = {"opened": 2, "first_marker": types.index("marker_placed") + 1, "first_battle": rolled[0], "end": version}
    for name, seq in picks.items():
        r = client.get(f"/games/{gid}/states/{seq}")
        assert r.status_code == 200
        prefix = fold(smoke, setup, [(e.seq, decode_event(smoke, e.payload)) for e in records[:seq]])
        assert r.json()["state"] == msgspec.json.decode(msgspec.json.encode(smoke.view(prefix, None, reveal_all=True)))
        svg = client.get(f"/games/{gid}/board.svg", params={"at": seq})
        assert svg.status_code == 200 and svg.text.startswith("<svg")
        assert svg.text == svg_snapshot(name=f"board-{name}")

    # rulings: every decision-made event has one with rule ids the rules reference knows
    rules_text = open("domain/smoke/rules.md", encoding="utf-8").read()
    battle_seq = picks["first_battle"]
    ruling = client.get(f"/games/{gid}/events/{battle_seq}/ruling").json()
    assert ruling["type"] == "battle_rolled" and ruling["rolls"]
    cited = {s["rule"] for s in ruling["ruling"]["steps"]}
    assert {"SMOKE-RES-3", "SMOKE-RES-4", "SMOKE-HIT-1"} <= cited
    for e in records:
        if e.ruling:
            for step in msgspec.json.decode(e.ruling).get("steps", ()):
                rid = step["rule"]
                assert f"**{rid}" in rules_text or f"| {rid} |" in rules_text or rid.startswith("GAP-B-"), rid
    assert ruling == snapshot(name="first-battle-ruling")
    steps = client.get(f"/games/{gid}/timeline").json()["steps"]
    assert len(steps) == version and all(s["summary"] for s in steps)

    # verify after the end: the chain, the seed and every die
    v = client.get(f"/games/{gid}/verify").json()
    assert v["chain_ok"] is True and v["dice_ok"] is True and v["seed"] == SEED


def test_secret_columns_are_hidden_from_the_opponent_and_spectators_over_rest(http, monkeypatch):
    """SMOKE-DEP-2: a seat's columns are private until revealed: the other seat and spectators get
    the event redacted, views without them, and a dry run shows nothing of them."""
    monkeypatch.setattr("service.game_service.new_game_id", lambda: "smoke-columns")
    client, _ = http
    created = client.post("/games", json={"ruleset": "smoke", "scenario": "BTL-OPEN-FIELD", "seed": SEED}).json()
    gid, tok = created["game_id"], created["seats"]
    c = Client(client, gid, tok, random.Random(1))

    def legal(seat):
        return client.get(f"/games/{gid}/legal-commands", headers=c.h(seat)).json()

    v = c.view()
    if v["state"]["chooser"]:
        chooser = v["state"]["chooser"]
        client.post(f"/games/{gid}/commands", headers=c.h(chooser),
                    json={"command": {"type": "choose_first", "side": "karl"}, "expected_version": v["version"]})
    for _ in range(40):  # the terrain generation first (SMOKE-TGEN)
        v = c.view()
        if v["state"]["generation"] is None:
            break
        seat = v["to_act"][0]
        lg = legal(seat)
        client.post(f"/games/{gid}/commands", headers=c.h(seat),
                    json={"command": lg["commands"][0], "expected_version": lg["version"]})
    l1 = legal("player-1")
    assign = l1["commands"][0]
    assert assign["type"] == "assign_columns" and l1["templates"][0]["bounds"]["columns"]["count"] == 4
    r = client.post(f"/games/{gid}/commands", headers=c.h("player-1"),
                    json={"command": assign, "expected_version": l1["version"]})
    assert r.status_code == 201
    secret = json.dumps(assign["columns"])
    seq = r.json()["version"]
    for who in ("player-2", None):
        ev = client.get(f"/games/{gid}/events", headers=c.h(who), params={"after": seq - 1}).json()["events"][0]
        assert ev["type"] == "columns_assigned" and ev["payload"].get("redacted") is True
        assert "columns" not in ev["payload"]
        view = client.get(f"/games/{gid}", headers=c.h(who)).json()
        assert "player-1" not in view["state"]["deployment"]["columns"]
        assert secret not in json.dumps(view) and secret not in client.get(f"/games/{gid}/states/{seq}",
                                                                             headers=c.h(who)).text
        ruling = client.get(f"/games/{gid}/events/{seq}/ruling", headers=c.h(who)).json()
        assert ruling.get("redacted") is True
    mine = client.get(f"/games/{gid}/events", headers=c.h("player-1"), params={"after": seq - 1}).json()["events"][0]
    assert mine["payload"]["columns"] == assign["columns"]
    l2 = legal("player-2")
    r = client.post(f"/games/{gid}/commands?dry_run=true", headers=c.h("player-2"),
                    json={"command": l2["commands"][0], "expected_version": l2["version"]})
    assert r.status_code == 200 and secret not in r.text


def test_rulesets_documents_the_options_post_games_takes(http):
    """GET /rulesets says what POST /games accepts (`players` 2|3|4 and the table's choices), no more, no less."""
    import jsonschema

    client, _ = http
    smoke = next(r for r in client.get("/rulesets").json() if r["id"] == "smoke")
    schema = smoke["options"]
    assert schema.get("maxProperties") != 0 and schema["properties"]["players"]["enum"] == [2, 3, 4]
    valid = jsonschema.Draft202012Validator(schema)
    for options in ({}, {"players": 2}, {"players": 4}, {"players": 3, "allied_command": True, "sector_half_angle": 45}):
        assert valid.is_valid(options), options
    for options in ({"players": 5}, {"players": "2"}, {"nope": 1}, {"sector_half_angle": 90}):
        assert not valid.is_valid(options), options
    created = {}
    for scenario in (s["id"] for s in smoke["scenarios"]):
        for players in sorted({2, 3, 4} - set(created)):
            r = client.post("/games", json={"ruleset": "smoke", "scenario": scenario, "options": {"players": players}})
            assert r.status_code in (201, 422), r.text  # a battle without that line-up: 422 naming the field
            if r.status_code == 422:
                assert r.json()["field"] == "options.players"
            else:
                created[players] = len(r.json()["seats"])
    assert created == {2: 2, 3: 3, 4: 4}  # every number the schema allows is played by some battle
    r = client.post("/games", json={"ruleset": "smoke", "scenario": "BTL-CROSSROADS", "options": {"nope": 1}})
    assert r.status_code == 422 and r.json()["field"] == "options.nope"
