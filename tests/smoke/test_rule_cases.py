"""The independent rules review of the smoke ruleset (issue 11): one black-box test per finding, each
citing the rule it checks (see tests/smoke/COVERAGE.md). Games are played through the ruleset's
commands (``decide``), with forced dice where a roll decides what the test needs."""
from __future__ import annotations

import itertools

import msgspec
import pytest

from domain.kernel import NotYourDecision, RuleViolation
from domain.kernel.messages import text_of
from domain.smoke import commands as C
from domain.smoke import events as E
from domain.smoke.content import TerrainElement
from service import i18n

from .scripts import INF, activate_first, duel, end_actions, of, place_marker, refused, rules, ruling_text

P1, P2 = "player-1", "player-2"


def rect(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# -- SMOKE-HIT-3: the owner chooses among equally near units -----------------------------------------
def _two_in_contact():
    """South's infantry P1-01 faces north; north's P2-01 and P2-02 each touch half of its front edge."""
    g = duel([(INF, 10, 10, 90), (INF, 25, 3, 90)], [(INF, 9.5, 10.5, 270), (INF, 10.5, 10.5, 270), (INF, 25, 19, 270)],
             faces=[4, 4, 4, 4], commanders1=((15.0, 3.0),))
    end_actions(g)
    # south 6 + 3 + strength 1 = 10 -> 1 hit; north four 1s + strength 2 = 6 -> none
    g.faces += [6, 3, 1, 1, 1, 1]
    place_marker(g)
    return g


def test_hit3_the_owner_chooses_which_of_equally_near_units_is_hit():
    """SMOKE-HIT-3: "If several units are equally near (for example, several in contact), their owner
    chooses among them." Both of north's units touch the enemy (key 0); its owner picks the higher id."""
    g = _two_in_contact()
    rolled = of(g.events, E.BattleRolled)[-1]
    assert rolled.hits == {"south": 1, "north": 0}
    assert g.to_act() == P2, "the owner of the equally near units decides"
    legal = g.rs.legal_commands(g.state, P2)
    assert set(legal) == {C.AllocateHits(units=("P2-01",)), C.AllocateHits(units=("P2-02",))}
    templ = g.rs.command_templates(g.state, P2)
    assert templ[0]["bounds"]["units"] == {"subset_of": ["P2-01", "P2-02"], "items": 1}
    bad = refused(g, P2, C.AllocateHits(units=("P2-01", "P2-02")))
    assert bad.rule == "SMOKE-HIT-3"
    with pytest.raises(NotYourDecision):
        g.do(P1, C.AllocateHits(units=("P2-02",)))
    items = g.do(P2, C.AllocateHits(units=("P2-02",)))
    assert "SMOKE-HIT-3" in rules(items)
    assert g.state.turn.battle.hits == {"P2-02": 1}
    # the rest of the battle proceeds: P2-02's owner resolves its hit
    assert g.to_act() == P2
    assert {c.unit for c in g.rs.legal_commands(g.state, P2)} == {"P2-02"}


def test_hit3_no_choice_when_every_equally_near_unit_is_hit():
    """SMOKE-HIT-3/4: when the round covers the whole group there is nothing to choose."""
    g = duel([("grenadiers", 10, 10, 90), (INF, 25, 3, 90)],
             [(INF, 9.5, 10.5, 270), (INF, 10.5, 10.5, 270), (INF, 25, 19, 270)],
             faces=[4, 4, 4, 4], commanders1=((15.0, 3.0),))
    end_actions(g)
    g.faces += [6, 6, 5, 1, 1, 1, 1]  # south 17 + 2 = 19 vs 4 + 2 = 6: 1 + 1 = 2 hits on the two units
    place_marker(g)
    assert of(g.events, E.BattleRolled)[-1].hits["south"] == 2
    assert not of(g.events, E.HitChoiceOffered)
    assert g.state.turn.battle.hits == {"P2-01": 1, "P2-02": 1}


# -- SMOKE-SR-18: an Immobile unit loses its Fire only in a turn in which it moved ----------------------
def _gun_facing_infantry():
    g = duel([("light_artillery", 10, 10, 90), (INF, 25, 3, 90)], [(INF, 10, 11.5, 270), (INF, 25, 19, 270)],
             faces=[4, 4, 4, 4], commanders1=((10.0, 8.0),))
    activate_first(g, P1, "P1-01", face=4, slot="A1")
    return g


def test_sr18_a_move_of_nothing_is_no_move_and_the_gun_keeps_its_fire():
    """SMOKE-SR-18: "Loses its Fire and Bombardment abilities for the whole of any turn in which it
    moved." A listed move of 0 UW without a pivot leaves the gun where it was: it has not moved, so it
    still fires its canister in this turn's battle (the ruling of the move says nothing of a loss)."""
    g = _gun_facing_infantry()
    items = g.do(P1, C.Move(unit="P1-01", kind="simple", facing=90.0, distance=0.0))
    assert "SMOKE-SR-18" not in rules(items)
    end_actions(g)
    g.faces += [1, 1, 1, 1]
    place_marker(g)
    rolling = of(g.events, E.BattleRolled)[-1].sides["south"]["rolling"]
    assert [(r["unit"], r["weapon"]) for r in rolling] == [("P1-01", "Canister")]


def test_sr18_a_gun_that_pivots_has_moved_and_loses_its_fire():
    """SMOKE-SR-18: a pivot is a move (it changed the gun's pose): no Fire for the rest of the turn."""
    g = _gun_facing_infantry()
    items = g.do(P1, C.Move(unit="P1-01", kind="simple", facing=80.0, distance=0.0))
    assert "SMOKE-SR-18" in rules(items)
    end_actions(g)
    g.faces += [1, 1, 1, 1]
    place_marker(g)
    assert of(g.events, E.BattleRolled)[-1].sides["south"]["rolling"] == []


# -- SMOKE-MOVE-6 with SMOKE-TERR-8: a fortification's contact is its unit's --------------------------
def test_move6_terr8_no_complex_move_into_contact_with_a_fortified_enemy():
    """SMOKE-MOVE-6: a complex move must not bring the unit into contact with an enemy unit;
    SMOKE-TERR-8: "A unit in contact with the fortification counts as in contact with the unit inside
    it." So a complex move that ends touching the fortification (0.2 UW short of the unit in it) is
    refused; the same move stopping short of the fortification is accepted."""
    fort = TerrainElement(id="F", kind="fortification", polygon=rect(9.3, 11.55, 10.7, 12.45))
    g = duel([(INF, 10, 10.3, 90), (INF, 25, 3, 90)], [(INF, 10, 12, 270), (INF, 25, 19, 270)], terrain=(fort,),
             faces=[4, 4, 4, 4], commanders1=((10.0, 8.0),))
    activate_first(g, P1, "P1-01")
    exc = refused(g, P1, C.Move(unit="P1-01", kind="complex", vector=(0.0, 1.0)))
    assert exc.rule == "SMOKE-MOVE-6" and exc.values["enemy"] == "P2-01"
    items = g.do(P1, C.Move(unit="P1-01", kind="complex", vector=(0.0, 0.9)))
    assert of(items, E.UnitMoved)[0].measure["contacts"] == []


def test_terr8_a_simple_move_onto_the_fortification_is_in_contact_with_its_unit():
    """SMOKE-TERR-8 / SMOKE-MOVE-6: a simple move may end in contact; ending against the fortification
    is contact with the unit inside, and the move says so."""
    fort = TerrainElement(id="F", kind="fortification", polygon=rect(9.3, 11.55, 10.7, 12.45))
    g = duel([(INF, 10, 10.3, 90), (INF, 25, 3, 90)], [(INF, 10, 12, 270), (INF, 25, 19, 270)], terrain=(fort,),
             faces=[4, 4, 4, 4], commanders1=((10.0, 8.0),))
    activate_first(g, P1, "P1-01")
    items = g.do(P1, C.Move(unit="P1-01", kind="simple", facing=90.0, distance=1.0))
    assert of(items, E.UnitMoved)[0].measure["contacts"] == ["P2-01"]


# -- SMOKE-DEP-5: the own table edge ------------------------------------------------------------------
def test_dep5_confusion_the_first_player_chooses_its_edge_and_retreats_go_there():
    """SMOKE-DEP-5 (FAQ-20): in the "confusion" deployment the first player chooses a side of the
    table and its opponent gets the opposite one; "toward your own table edge" then means that edge."""
    from .fixtures import Scripted, battle_content

    content = battle_content([(INF, 10, 10, 90), (INF, 25, 3, 90)],
                             [(INF, 9.5, 10.5, 270), (INF, 10.5, 10.5, 270), (INF, 25, 19, 270)],
                             commanders1=((15.0, 3.0),))
    battle = msgspec.structs.replace(content.battles["T"], confusion=True)
    g = Scripted(msgspec.structs.replace(content, battles={**content.battles, "T": battle}), faces=[4, 4, 4, 4])
    assert g.to_act() == P1 and g.state.turn is None
    assert set(g.rs.legal_commands(g.state, P1)) == {C.ChooseEdge(edge=e) for e in ("south", "north", "west", "east")}
    with pytest.raises(NotYourDecision):
        g.do(P2, C.ChooseEdge(edge="east"))
    # the offer names the first player once, by its name (old: "the first player Player 1 chooses its own table edge")
    offer = next(em for em in g.emitted if isinstance(em.event, E.EdgeChoiceOffered)).ruling.steps[0]
    assert offer.text == ('A "confusion" deployment: Player 1, who plays first, chooses their own table edge; the '
                          "opponent gets the opposite one."), offer.text
    items = g.do(P1, C.ChooseEdge(edge="west"))
    assert of(items, E.EdgesChosen)[0].edges == {"south": "west", "north": "east"}
    chosen = next(em for em in items if isinstance(em.event, E.EdgesChosen)).ruling
    assert chosen.summary == "Player 1 takes the west edge", chosen.summary  # old: "side south takes the west edge"
    assert i18n.render(chosen.summary_message, "uk") == "Гравець 1 бере край західний", chosen.summary_message
    assert "SMOKE-DEP-5" in rules(items)
    assert g.rs.view(g.state, None)["edges"] == {"north": "east", "south": "west"}
    assert g.state.turn is not None and g.to_act() == P1  # turn 1 begins
    end_actions(g)
    g.faces += [6, 3, 1, 1, 1, 1]  # one hit on north, which chooses P2-02 and retreats it to its own edge
    place_marker(g)
    g.do(P2, C.AllocateHits(units=("P2-02",)))
    g.faces += [4]  # d3 = 2 UW
    g.do(P2, C.ResolveHits(unit="P2-02", retreat=True))
    items = g.do(P2, C.Retreat(direction="edge"))
    r = of(items, E.UnitRetreated)[0]
    # straight toward its own (east) edge: sliding along P1-01's front edge on the way it touches it, and a
    # retreat that touches an enemy fails (SMOKE-FRET-1)
    assert (r.direction, r.vector, r.outcome, r.touched) == ("edge", (1.0, 0.0), "destroyed", "P1-01")


@pytest.fixture
def content_dir(tmp_path):
    import shutil

    from scenarios.smoke import DEFAULT_ROOT

    dst = tmp_path / "smoke"
    shutil.copytree(DEFAULT_ROOT, dst, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return dst


def _edit(path, fn):
    import json

    data = json.loads(path.read_text())
    fn(data)
    path.write_text(json.dumps(data))


def _problems(path):
    from scenarios.smoke import read_content

    return [str(p) for p in read_content(path)[1]]


def test_dep5_the_own_edge_is_the_edge_the_deployment_zone_overlaps_most(content_dir):
    """SMOKE-DEP-5 (FAQ-20): a battle whose side claims an edge its zone does not lie along is refused
    by the loader (a retreat "toward your own edge" would run the wrong way); in a "confusion"
    deployment the edge is chosen in play, so the data's edge is not checked."""
    path = content_dir / "battles" / "btl-crossroads.json"
    _edit(path, lambda d: d["sides"][0].update(edge="north"))
    probs = [p for p in _problems(content_dir) if p.startswith("battles/btl-crossroads.json")]
    assert probs == ["battles/btl-crossroads.json: sides[0].edge: the own table edge is the one the deployment zone "
                     "overlaps most (SMOKE-DEP-5): south, not north."]
    _edit(path, lambda d: d.update(confusion=True))
    assert not [p for p in _problems(content_dir) if p.startswith("battles/btl-crossroads.json")]


# -- SMOKE-PHASE-1: scenario events keyed to phases (reinforcements) ----------------------------------
def _with_reinforcements(units2_later, faces):
    from domain.smoke.content import Placed, PhaseEvent

    from .fixtures import Scripted, battle_content

    content = battle_content([(INF, 10, 5, 90), (INF, 20, 15, 270)], [(INF, 10, 19, 270)], commanders1=((15.0, 1.0),))
    b = content.battles["T"]
    ev = PhaseEvent(phase=2, seat=P2, units=tuple(Placed(profile=p, x=x, y=y, facing=f) for p, x, y, f in units2_later),
                    text="north's reserve")
    b = msgspec.structs.replace(b, line_ups=(msgspec.structs.replace(b.line_ups[0], events=(ev,)),))
    return Scripted(msgspec.structs.replace(content, battles={**content.battles, "T": b}), faces=faces)


def test_phase1_reinforcements_arrive_at_their_side_s_turn_in_their_phase():
    """SMOKE-PHASE-1 / SMOKE-TURN-4: "scenario events name phases, for example reinforcements arrive in
    phase 6". North's reserve is due in phase 2: a 6 on south's action dice starts phase 2
    (SMOKE-PHASE-2); the reserve enters at the start of north's next turn, one unit waits because a
    south unit stands on its place. The reserve counts in north's army morale from the start (SMOKE-VIC-1)."""
    g = _with_reinforcements([(INF, 5, 19, 270), (INF, 20, 15, 270)], faces=[6, 4, 4, 4])
    assert [a.unit.id for a in g.state.arrivals] == ["P2-02", "P2-03"] and "P2-02" not in g.state.units
    assert g.state.armies[P2].start_morale == 3 * 2  # three line infantry, two of them still to come
    assert [a["unit"]["id"] for a in g.rs.view(g.state, P1)["arrivals"]] == ["P2-02", "P2-03"]
    assert g.state.phase == 2  # south's first roll had a 6
    end_actions(g)
    assert g.state.turn.side == "north"
    arrived = of(g.events, E.ReinforcementsArrived)
    assert len(arrived) == 1 and [u.id for u in arrived[0].units] == ["P2-02"]
    assert arrived[0].waiting == ("P2-03",) and arrived[0].blocked_by == {"P2-03": "P1-02"}
    assert "SMOKE-PHASE-1" in rules(g.emitted[-10:]) and "P2-02" in g.state.units
    assert [a.unit.id for a in g.state.arrivals] == ["P2-03"]
    assert "reinforcements arrive: P2-02 (P2-03 wait)" in [text_of(g.rs.summary(e)) for e in g.events]


def test_phase1_nothing_arrives_before_its_phase():
    """SMOKE-PHASE-1: without a 6 the phase stays 1 and the reserve stays off the table."""
    g = _with_reinforcements([(INF, 5, 19, 270)], faces=[4, 4, 4, 4, 4, 4, 4, 4])
    end_actions(g)
    assert g.state.turn.side == "north" and g.state.phase == 1
    assert not of(g.events, E.ReinforcementsArrived) and "P2-02" not in g.state.units


def test_phase1_a_shipped_battle_has_reinforcements():
    """SMOKE-PHASE-1 in the data: BTL-ALL-TERRAIN for two players brings Vertumn's cavalry in phase 4."""
    from .play import Game, ruleset

    g = Game(ruleset(), "BTL-ALL-TERRAIN", options={"players": 2})
    assert [(a.phase, a.unit.profile) for a in g.state.arrivals] == [(4, "line_cavalry"), (4, "line_cavalry"),
                                                                     (4, "lancers")]
    assert all(a.unit.seat == P2 and a.unit.id not in g.state.units for a in g.state.arrivals)


# -- SMOKE-UNIT-2: multi-base units ------------------------------------------------------------------
def test_unit2_a_multi_base_unit_is_one_rigid_rectangle(content_dir):
    """SMOKE-UNIT-2: several bases joined rigidly are one unit, their bounding rectangle (SMOKE-GEO-2).
    The shipped heavy artillery is a gun and a limber: the game moves one 1 x 1.25 UW rectangle and
    the picture draws both bases; bases that do not make up the unit, overlap or are not joined are
    refused by the loader."""
    from .play import Game, ruleset

    g = Game(ruleset(), "BTL-CROSSROADS", options={"players": 2})
    heavy = next(u for u in g.state.units.values() if u.profile == "heavy_artillery")
    assert (heavy.w, heavy.d) == (1.0, 1.25)
    svg = g.rs.render_svg(g.state, None, [])
    assert svg.count('data-base="1"') == 2 * sum(1 for u in g.state.units.values() if u.profile == "heavy_artillery")

    def bases(*bs):
        return [{"x": x, "y": y, "w": w, "d": d} for x, y, w, d in bs]

    path = content_dir / "profiles.json"
    cases = {
        "line_infantry": (bases((0, 0, 0.5, 0.5), (0.5, 0, 0.4, 0.5)), "bounding rectangle"),  # 0.9 wide, not 1
        "line_cavalry": (bases((0, 0, 1, 0.5), (0, 0.25, 1, 0.5)), "overlap"),
        "skirmishers": (bases((0, 0, 0.3, 0.4), (0.7, 0, 0.3, 0.4)), "rigid body"),  # a gap between them
        "jaegers": (bases((0, 0, 1, 0.4)), "two or more bases"),
    }

    def wreck(d):
        for p in d["profiles"]:
            if p["id"] in cases:
                p["bases"] = cases[p["id"]][0]
    _edit(path, wreck)
    probs = [p for p in _problems(content_dir) if p.startswith("profiles.json")]
    ids = [p["id"] for p in __import__("json").loads(path.read_text())["profiles"]]
    for pid, (_, words) in cases.items():
        i = ids.index(pid)
        assert any(p.startswith(f"profiles.json: profiles[{i}].bases:") and words in p and "SMOKE-UNIT-2" in p
                   for p in probs), (pid, probs)


# -- SMOKE-DEP-2: the secret columns leak by no route ----------------------------------------------------
from .test_api_smoke import SEED, http  # noqa: E402,F401  (the REST fixture: real app, SQLite, Redis)


def test_dep2_secret_columns_leak_through_no_route_and_no_hash(http, monkeypatch):
    """SMOKE-DEP-2: each player numbers its columns in secret. Before they are revealed nothing of
    player-1's columns reaches player-2 or a spectator: not the view, the log, the ruling, the timeline,
    the board picture, a state at a seq, legal commands, a dry run or a refusal -- and not the log's
    hash chain: the event's hash covers the whole stored event, so without a secret salt (drawn from the
    seed, private like the columns) an opponent could hash each possible split and find the recorded
    one. Here a correct guess of the columns must not reproduce the published hash."""
    import json

    from service.store import EventStore, chain_hash

    monkeypatch.setattr("service.game_service.new_game_id", lambda: "smoke-secret")
    client, data_dir = http
    created = client.post("/games", json={"ruleset": "smoke", "scenario": "BTL-OPEN-FIELD", "seed": SEED}).json()
    gid, tok = created["game_id"], created["seats"]

    def h(seat):
        return {"Authorization": f"Bearer {tok[seat]}"} if seat else {}

    def legal(seat):
        return client.get(f"/games/{gid}/legal-commands", headers=h(seat)).json()

    for _ in range(60):  # the first player, then the terrain generation, up to the columns
        v = client.get(f"/games/{gid}").json()
        seat = v["to_act"][0]
        lg = legal(seat)
        if lg["commands"][0]["type"] == "assign_columns":
            break
        r = client.post(f"/games/{gid}/commands", headers=h(seat),
                        json={"command": lg["commands"][0], "expected_version": lg["version"]})
        assert r.status_code == 201, r.text
    l1 = legal("player-1")
    import random

    mine = list(l1["templates"][0]["bounds"]["columns"]["partition_of"])
    random.Random(5).shuffle(mine)
    columns = [mine[0:2], mine[2:5], mine[5:9], mine[9:]]  # four columns (a competent commander, SMOKE-SETUP-3)
    r = client.post(f"/games/{gid}/commands", headers=h("player-1"),
                    json={"command": {"type": "assign_columns", "columns": columns}, "expected_version": l1["version"]})
    assert r.status_code == 201, r.text
    seq = r.json()["version"]
    secrets_ = [json.dumps(columns)] + [f(c) for c in columns for f in (json.dumps, ", ".join, " ".join)]

    def clean(text: str, where: str) -> None:
        for s in secrets_:
            assert s not in text, f"{where} shows {s}"

    l2 = legal("player-2")
    for who in ("player-2", None):
        clean(client.get(f"/games/{gid}", headers=h(who)).text, "the view")
        events = client.get(f"/games/{gid}/events", headers=h(who)).json()["events"]
        clean(json.dumps(events), "the log")
        ev = next(e for e in events if e["seq"] == seq)
        assert ev["payload"].get("redacted") is True and not {"columns", "salt"} & set(ev["payload"])
        clean(client.get(f"/games/{gid}/events/{seq}/ruling", headers=h(who)).text, "the ruling")
        clean(client.get(f"/games/{gid}/timeline", headers=h(who)).text, "the timeline")
        clean(client.get(f"/games/{gid}/board.svg", headers=h(who)).text, "the board")
        clean(client.get(f"/games/{gid}/states/{seq}", headers=h(who)).text, "the state at seq")
    clean(json.dumps(l2), "legal commands")
    dry = client.post(f"/games/{gid}/commands?dry_run=true", headers=h("player-2"),
                      json={"command": l2["commands"][0], "expected_version": l2["version"]})
    assert dry.status_code == 200
    clean(dry.text, "a dry run")
    no = client.post(f"/games/{gid}/commands", headers=h("player-2"),
                     json={"command": {"type": "deploy_unit", "unit": "P1-03", "at": [5, 2], "facing": 90},
                           "expected_version": l2["version"]})
    assert no.status_code == 422
    clean(no.text, "a refusal")
    # the hash chain: the opponent knows every stored field but the private ones; guessing the columns
    # right must not reproduce the published hash
    published = next(e for e in client.get(f"/games/{gid}/events", headers=h("player-2")).json()["events"]
                     if e["seq"] == seq)["hash"]
    store = EventStore(data_dir, read_only=True)
    try:
        row, before = store.event(gid, seq), store.event(gid, seq - 1)
    finally:
        store.close()
    guess = E.ColumnsAssigned(seat="player-1", count=4, columns=tuple(tuple(c) for c in columns))
    attacker = {"game_id": gid, "seq": seq, "type": row.type, "payload": msgspec.json.encode(guess).decode(),
                "actor": row.actor, "visibility": row.visibility, "command_id": row.command_id,
                "engine_version": row.engine_version, "recorded_at": ev["recorded_at"], "ruling": row.ruling,
                "rolls": "[]", "reveals": row.reveals, "turn": row.turn}
    assert chain_hash(before.hash, attacker) != published
    assert row.rolls != "[]"  # the salt's draws: in the row, shown to nobody but player-1 until the end


# -- rulings a person reads: every measurement names its rules, numbers, corners and points -----------
def _xy(p):
    return f"({p[0]:.3f}, {p[1]:.3f})"


def _check_measurement_ruling(em) -> str | None:
    """What is missing from the ruling of a measuring event (None: nothing)."""
    import re

    ev, r = em.event, em.ruling
    if r is None or not r.steps:
        return "no ruling"
    if any(not re.match(r"^(SMOKE|GAP)-[A-Z]+-?\d*", s.rule) for s in r.steps):
        return f"a step without a rule id: {[s.rule for s in r.steps]}"
    text = " | ".join(f"{s.rule}: {s.text}" for s in r.steps)
    need: list[str] = []
    if isinstance(ev, E.FireContactMeasured):
        for c in ev.contacts:
            need.append(f"{c['units'][0]} and {c['units'][1]} are in fire contact")
            if c["how"] != "melee":
                need += [f"{c['distance']:.3f} UW", f"FL {_xy(c['lines']['FL']['from'])}",
                         f"FR {_xy(c['lines']['FR']['from'])}"]
    elif isinstance(ev, E.BattleRolled):
        for side in ev.sides.values():
            for d in side["rolling"]:
                need.append(f"{d['unit']} rolls {d['base']} dice")
                if d["weapon"] == "melee":
                    need.append("base contact with " + ", ".join(d["contact"]))
                else:
                    need += [f"{d['line']['distance']:.3f} UW", f"FL {_xy(d['line']['lines']['FL']['from'])}",
                             f"-> {_xy(d['line']['lines']['FR']['to'])}"]
                need += [b["rule"] for b in d["bonus"]]
    elif isinstance(ev, E.BombardmentAimed):
        m = ev.measure
        need += [f"{m['distance']:.3f} UW", f"FL {_xy(m['lines']['FL']['from'])}", f"FR {_xy(m['lines']['FR']['from'])}"]
    elif isinstance(ev, E.UnitMoved):
        need += [f"from {_xy(ev.start)}", f"to {_xy(ev.end)}", f"{ev.distance:.3f} UW"]
    elif isinstance(ev, E.UnitRetreated) and ev.outcome != "zero":
        need += [f"from {_xy(ev.start)}", f"to {_xy(ev.end)}"]
    elif isinstance(ev, E.FormationActivated):
        need += [f"{ev.measure['command_distance']:.3f} UW", _xy(ev.measure["head"]), ev.measure["nearest"]]
    elif isinstance(ev, (E.CommanderRode, E.CommanderDisplaced)):
        need += [_xy(ev.start), _xy(ev.end)]
    elif isinstance(ev, E.MarkerPlaced):
        need += [_xy((ev.x, ev.y))] + list(ev.covers)
    elif isinstance(ev, E.UnitDeployed) and "marker" in ev.measure and not ev.measure.get("no_room"):
        need += [_xy(ev.measure["marker"]), f"{ev.measure['farthest_corner']:.3f} UW"]
        if ev.measure.get("scout"):
            need += ["UW from the nearest enemy", "rectangle to rectangle"]
    elif isinstance(ev, E.CommanderRisked):
        need += ["d6 = " + str(ev.face)] + list(ev.units)
    elif isinstance(ev, E.TerrainScattered) and ev.face != 6:
        need += [f"D3 = {ev.distance:g} UW at {ev.angle} degrees", "every corner moves by"]
    elif isinstance(ev, E.LossTaken) and ev.unit is not None:
        need += [f"{ev.distance_to_artillery:.3f} UW", "from P"]
    missing = [n for n in need if n not in text]
    return f"{type(ev).__name__}: missing {missing} in {text!r}" if missing else None


def test_every_measurement_ruling_names_rules_numbers_and_corners():
    """DESIGN 6 and the issue's "outcomes in events": a disputed measurement can be read back from the
    ruling alone. Every ruling of a measuring event names its rule ids (SMOKE-LOF-3, SMOKE-RES-2,
    SMOKE-GEO-10/11, SMOKE-GEO-20, ...), the numbers compared and what was measured between which
    corners and points: fire contacts and battle dice (distance from the front edge against the range,
    the lines from both front corners to their target points), bombardment aims, moves and retreats
    (from where to where), command distances (from the head to which unit), rides, displacements,
    markers (each covered unit), bombardment retreats, deployments (the column marker and the farthest
    corner), risks to commanders (the units touching the disc) and terrain scatter (the shift)."""
    from .play import random_game, ruleset

    rs = ruleset()
    seen: dict[str, int] = {}
    bad = []
    for battle, seed, players in (("BTL-CROSSROADS", 3, 4), ("BTL-ALL-TERRAIN", 4, 2), ("BTL-OPEN-FIELD", 5, 2)):
        g = random_game(rs, battle, seed, options={"players": players})
        for em in g.emitted:
            name = type(em.event).__name__
            if isinstance(em.event, (E.FireContactMeasured, E.BattleRolled, E.BombardmentAimed, E.UnitMoved,
                                     E.UnitRetreated, E.FormationActivated, E.CommanderRode, E.CommanderDisplaced,
                                     E.MarkerPlaced, E.LossTaken, E.UnitDeployed, E.CommanderRisked,
                                     E.TerrainScattered)):
                seen[name] = seen.get(name, 0) + 1
                why = _check_measurement_ruling(em)
                if why:
                    bad.append(why)
    assert not bad, bad[:3]
    assert {"FireContactMeasured", "BattleRolled", "UnitMoved", "FormationActivated", "MarkerPlaced",
            "UnitDeployed"} <= set(seen), seen


# -- more than two players (SMOKE-MP-2, SMOKE-MP-5) on a four-player table --------------------------------
def _four_player_table(units):
    """A 30 x 22 table with player-1 and player-3 south, player-2 and player-4 north;
    ``units`` = [(seat, profile, x, y, facing)] (ids P1-01, P3-01, ... in order)."""
    from domain.smoke.evolve import evolve
    from domain.smoke.events import GameOpened
    from domain.smoke.state import Army, SmokeState, Unit
    from scenarios.smoke import shipped

    from domain.smoke.content import Battle

    from .fixtures import NORTH, SOUTH

    c = shipped()
    seats = ("player-1", "player-2", "player-3", "player-4")
    side = {s: "south" if s in ("player-1", "player-3") else "north" for s in seats}
    battle = Battle(id="T4", title="four-player test table", width=30, height=22, sides=(SOUTH, NORTH), terrain=(),
                    line_ups=())
    n: dict[str, int] = {}
    us = []
    for seat, prof, x, y, f in units:
        n[seat] = n.get(seat, 0) + 1
        p = c.profiles[prof]
        us.append(Unit(id=f"P{seat[-1]}-{n[seat]:02d}", seat=seat, profile=prof, x=x, y=y, facing=f, w=p.width,
                       d=p.depth))
    armies = tuple(Army(seat=s, side=side[s], army="A", faction="FAC-KARL", board="BOARD-TEST-1", morale=20,
                        start_morale=20, level=4, skill="competent") for s in seats)
    st = SmokeState(game_id="t4", battle_id="T4", seats=seats, options={})
    return evolve(st, GameOpened(battle=battle, kinds=tuple(c.terrain_kinds.values()), profiles=tuple(c.profiles.values()),
                                 boards=tuple(c.boards.values()),
                                 sides={"south": ("player-1", "player-3"), "north": ("player-2", "player-4")},
                                 armies=armies, units=tuple(us), commanders=()))


def test_mp2_units_of_allied_players_are_never_one_formation():
    """SMOKE-MP-2 (and SMOKE-FORM-1/2): two allies' units in edge contact side by side stay two
    formations; the same two units of one player are one formation."""
    from domain.smoke.formations import formations

    allies = _four_player_table([("player-1", INF, 10, 10, 90), ("player-3", INF, 11, 10, 90)])
    forms = formations(allies)
    assert ("P1-01",) in forms.values() and ("P3-01",) in forms.values()
    one = _four_player_table([("player-1", INF, 10, 10, 90), ("player-1", INF, 11, 10, 90)])
    assert ("P1-01", "P1-02") in formations(one).values()


def test_mp5_a_bombardment_of_two_players_formations_rolls_once_for_each():
    """SMOKE-MP-5 with SMOKE-BOMB-4/5/6: player-1's guns aim at a formation of player-2 and one of
    player-4; each targeted player gets its own roll (its own dice, total and losses)."""
    import msgspec as ms

    from domain.smoke.bombardment import fire
    from domain.smoke.outbox import Outbox
    from domain.smoke.state import TurnState

    from .fixtures import ForcedDice

    st = _four_player_table([("player-1", "light_artillery", 10, 10, 90), ("player-1", "light_artillery", 20, 10, 90),
                             ("player-2", INF, 10, 14, 270), ("player-4", INF, 20, 14, 270)])
    t = TurnState(side="south", players=("player-1", "player-3"), step="bombard",
                  aims={"P1-01": "P2-01", "P1-02": "P4-01"})
    out = Outbox(ms.structs.replace(st, turn=t), ForcedDice(b"\x02" * 32, "t", {}, [6, 6, 1, 2]))
    fire(out, "player-1")
    rolled = of(out.items, E.BombardmentRolled)[0]
    by = {r["target"]: r for r in rolled.rolls}
    assert set(by) == {"player-2", "player-4"}
    assert by["player-2"]["faces"] == [6, 6] and by["player-2"]["losses"] == 1
    assert by["player-4"]["faces"] == [1, 2] and by["player-4"]["losses"] == 0
    assert "SMOKE-MP-5" in rules(out.items)


# -- the coverage table (tests/smoke/COVERAGE.md) stays true ----------------------------------------------
def test_coverage_table_lists_every_rule_and_real_tests():
    """Every SMOKE rule id defined in sections 2-21 of the rules has a row in COVERAGE.md, and every
    ``test_file::test_name`` the table names is a test function of this folder."""
    import ast
    import pathlib
    import re

    here = pathlib.Path(__file__).parent
    from domain.smoke import __file__ as pkg

    text = (pathlib.Path(pkg).parent / "rules.md").read_text()  # the shipped copy of the rules
    ids, section = [], 0
    for line in text.splitlines():
        m = re.match(r"^## (\d+)\.", line)
        if m:
            section = int(m.group(1))
        if 2 <= section <= 21:
            ids += re.findall(r"\*\*(SMOKE-[A-Z]+-\d+[a-z]?)\b", line) + re.findall(r"^\|\s*(SMOKE-[A-Z]+-\d+[a-z]?)\s*\|", line)
    table = (here / "COVERAGE.md").read_text()
    rows = set(re.findall(r"^\| (SMOKE-[A-Z]+-\d+[a-z]?) \|", table, re.MULTILINE))
    assert len(set(ids)) >= 230 and set(ids) <= rows, sorted(set(ids) - rows)
    defined = {f"{p.stem}::{n.name}" for p in here.glob("test_*.py")
               for n in ast.walk(ast.parse(p.read_text())) if isinstance(n, ast.FunctionDef)}
    named = set(re.findall(r"(test_[a-z_]+::test_\w+)", table))
    assert len(named) > 100 and named <= defined, sorted(named - defined)
    for short in re.findall(r"\| (test_\w+)(?:,| \|)", table):  # bare names in the findings table
        assert any(d.endswith("::" + short) for d in defined), short
