"""Column deployment (SMOKE-SETUP-3, SMOKE-DEP-2..6, SMOKE-SR-20): the secret columns stay secret
until they are revealed (views, the log, dry runs), and every placement rule is enforced."""
from __future__ import annotations

import json

import msgspec

from domain.smoke import commands as C
from domain.smoke import events as E

from .play import Game, ruleset
from .scripts import of, refused, rules

RS = ruleset()


def opened(players: int = 2) -> Game:
    """BTL-OPEN-FIELD after the first-player choice and the terrain generation (SMOKE-SETUP-1 5, 6)."""
    g = Game(RS, "BTL-OPEN-FIELD", options={"players": players}, game_id="dep")
    if g.state.chooser is not None:
        g.do(g.state.chooser, C.ChooseFirst(side="karl"))
    while g.state.generation is not None:
        seat = g.to_act()
        g.do(seat, RS.legal_commands(g.state, seat)[0])
    return g


def play_examples_until(g: Game, stage: str) -> None:
    from domain.smoke.deployment import current

    while current(g.state) is not None and current(g.state)[0] != stage:
        seat = g.to_act()
        g.do(seat, RS.legal_commands(g.state, seat)[0])


def test_setup3_columns_are_as_many_as_the_level_and_hold_every_unit_once():
    g = opened()
    assert set(RS.status(g.state).to_act) == {"player-1", "player-2"}  # both number in secret, in any order
    mine = sorted(u.id for u in g.state.reserve.values() if u.seat == "player-1")
    assert refused(g, "player-1", C.AssignColumns(columns=(tuple(mine),))).rule == "SMOKE-SETUP-3"
    assert refused(g, "player-1", C.AssignColumns(columns=(tuple(mine[1:]), (), (), ()))).rule == "SMOKE-SETUP-3"
    assert refused(g, "player-1", C.AssignColumns(columns=(tuple(mine) + ("P2-01",), (), (), ()))).rule == \
        "SMOKE-SETUP-3"
    g.do("player-1", C.AssignColumns(columns=(tuple(mine), (), (), ())))  # an empty column is allowed
    assert RS.status(g.state).to_act == ("player-2",)


def test_dep2_the_columns_are_secret_until_revealed():
    g = opened()
    items = g.do("player-1", RS.legal_commands(g.state, "player-1")[0])
    em = of(items, E.ColumnsAssigned)
    assigned = [it for it in items if isinstance(it.event, E.ColumnsAssigned)][0]
    assert assigned.visibility == "player-1" and "columns" in E.ColumnsAssigned.private
    secret = json.dumps(msgspec.to_builtins(em[0].columns))
    for who in ("player-2", None):
        v = RS.view(g.state, who)
        assert "player-1" not in v["deployment"]["columns"] and v["deployment"]["columns_numbered"]["player-1"] == 4
        assert secret not in json.dumps(v)
    assert RS.view(g.state, "player-1")["deployment"]["columns"]["player-1"]
    play_examples_until(g, "units")
    revealed = of(g.events, E.ColumnsRevealed)[0]
    assert set(revealed.columns) == {"player-1", "player-2"}
    assert RS.view(g.state, "player-2")["deployment"]["columns"]["player-1"] == json.loads(secret)


def test_dep3_markers_go_in_the_own_zone():
    g = opened()
    play_examples_until(g, "markers")
    assert refused(g, "player-1", C.PlaceColumn(column=1, at=(15.0, 10.0))).rule == "SMOKE-DEP-3"
    assert refused(g, "player-1", C.PlaceColumn(column=9, at=(15.0, 2.0))).rule == "SMOKE-DEP-3"
    g.do("player-1", C.PlaceColumn(column=1, at=(15.0, 2.0)))
    assert refused(g, "player-1", C.PlaceColumn(column=1, at=(16.0, 2.0))).rule == "SMOKE-DEP-3"


def test_dep4_units_within_2_uw_of_their_marker_scouts_anywhere_3_uw_from_the_enemy():
    g = opened()
    play_examples_until(g, "units")
    st = g.state
    seat = g.to_act()
    d = st.deployment
    cols = d.columns[seat]
    n = next(i + 1 for i, c in enumerate(cols) if c)
    uid = cols[n - 1][0]
    m = next(mk for mk in d.markers if mk.seat == seat and mk.number == n)
    exc = refused(g, seat, C.DeployUnit(unit=uid, at=(m.x + 3.0, m.y), facing=90))
    assert exc.rule == "SMOKE-DEP-4"
    items = g.do(seat, C.DeployUnit(unit=uid, at=(m.x, m.y), facing=90 if seat == "player-1" else 270))
    dep = of(items, E.UnitDeployed)[0]
    assert dep.measure["column"] == n and dep.measure["farthest_corner"] <= 2.0 and "SMOKE-DEP-4" in rules(items)


def test_sr20_a_scout_deploys_anywhere_3_uw_from_the_enemy():
    g = opened()
    play_examples_until(g, "units")
    # deploy player-1 fully, then player-2's Cossacks (Scouts) far forward
    while g.to_act() == "player-1":
        g.do("player-1", RS.legal_commands(g.state, "player-1")[0])
    st = g.state
    scout = next(u.id for u in st.reserve.values() if u.seat == "player-2" and u.profile == "cossacks")
    near_enemy = next(u for u in st.units.values() if u.seat == "player-1")
    exc = refused(g, "player-2", C.DeployUnit(unit=scout, at=(near_enemy.x, near_enemy.y + 2.0), facing=270))
    assert exc.rule == "SMOKE-SR-20"
    spot = next((x, 11.0) for x in (2.0, 5.0, 8.0, 11.0, 14.0, 17.0, 20.0, 23.0, 26.0)
                if all(abs(u.x - x) > 4 or abs(u.y - 11.0) > 4 for u in st.units.values()))
    items = g.do("player-2", C.DeployUnit(unit=scout, at=spot, facing=270))
    assert "SMOKE-SR-20" in rules(items)


def test_dep6_a_fortification_holds_its_unit_and_then_the_game_begins():
    g = opened()
    play_examples_until(g, "forts")
    assert g.to_act() == "player-2"
    cmd = RS.legal_commands(g.state, "player-2")[0]
    assert isinstance(cmd, C.PlaceFortification)
    items = g.do("player-2", cmd)
    placed = of(items, E.FortificationPlaced)[0]
    assert placed.element.kind == "fortification" and placed.unit in g.state.units
    assert g.state.terrain().fortification_of(g.state.units[placed.unit].box()) == placed.element.id
    play_examples_until(g, "__never__")
    assert g.state.deployment is None and g.state.turn is not None and g.state.turn_no == 1
    assert not g.state.reserve and len(g.state.units) == 33 and len(g.state.commanders) == 4
    assert of(g.events, E.DeploymentEnded)


def test_deployment_templates_and_examples_are_legal():
    g = opened(4)
    seen = set()
    from domain.smoke.deployment import current

    while current(g.state) is not None:
        seat = g.to_act()
        for t in RS.command_templates(g.state, seat):
            seen.add(t["command"]["type"])
            # every listed template has a concrete example (each column marker, each unit), and it is legal
            assert t["example"] is not None, t
            RS.decide(g.state, seat, msgspec.convert(t["example"], RS.command_type), g.dice())
        g.do(seat, RS.legal_commands(g.state, seat)[0])
    assert {"assign_columns", "place_column", "deploy_unit", "deploy_commander"} <= seen
