"""Default terrain generation (SMOKE-TGEN-1..4, GAP-B-20) in the GAP-B-09 default battle."""
from __future__ import annotations

from domain.smoke import commands as C
from domain.smoke import events as E
from domain.smoke.terrain_gen import quarter_box
from scenarios.smoke import shipped

from .fixtures import Scripted
from .scripts import of, refused, rules


def generating(faces: list[int]) -> Scripted:
    """BTL-OPEN-FIELD: first-player roll 6 vs 1 (karl chooses), karl goes first."""
    g = Scripted(shipped(), battle="BTL-OPEN-FIELD", faces=[6, 1] + faces)
    g.do("player-1", C.ChooseFirst(side="karl"))
    return g


def test_tgen2_the_first_player_picks_a_diagonal_and_rolls_d3_per_quarter():
    g = generating([5, 1, 6])  # quarter 1: d6 5 -> 3 elements; first roll 1 + 6 = 7: nothing
    assert g.to_act() == "player-1"
    assert g.rs.legal_commands(g.state, "player-1") == [C.ChooseQuarters(diagonal="sw_ne"),
                                                          C.ChooseQuarters(diagonal="nw_se")]
    items = g.do("player-1", C.ChooseQuarters(diagonal="nw_se"))
    chosen = of(items, E.QuartersChosen)[0]
    assert chosen.quarters == {"player-1": ("nw", "se"), "player-2": ("sw", "ne")}
    count = of(items, E.TerrainCountRolled)[0]
    assert (count.quarter, count.face, count.count) == ("nw", 5, 3) and "SMOKE-DICE-2" in rules(items)
    rolled = of(items, E.TerrainRolled)
    assert rolled[0].total == 7 and rolled[0].kinds == ()  # SMOKE-TGEN-3: 7 is nothing
    assert g.state.generation.left == 2


def test_tgen3_the_table_and_the_placing_player_choosing_among_a_row():
    g = generating([1, 2, 1])  # quarter nw: 1 element; 2d6 = 2 + 1 = 3: rock, stream, ravine or swamp
    g.do("player-1", C.ChooseQuarters(diagonal="nw_se"))
    assert g.state.generation.options == ("rock", "stream", "ravine", "swamp")
    x0, y0, x1, y1 = quarter_box(g.state, "nw")
    assert (x0, y0, x1, y1) == (0, 11, 15, 22)
    assert refused(g, "player-1", C.PlaceTerrain(kind="forest", at=(5, 15))).rule == "SMOKE-TGEN-3"
    assert refused(g, "player-1", C.PlaceTerrain(kind="swamp", at=(20, 15))).rule == "SMOKE-TGEN-2"
    assert refused(g, "player-1", C.PlaceTerrain(kind="swamp", at=(0.2, 15))).rule == "SMOKE-TGEN-2"  # off the table
    g.faces += [2]  # next quarter (se): d6 2 -> 1 element ...
    items = g.do("player-1", C.PlaceTerrain(kind="swamp", at=(5.0, 15.0), rotation=30))
    placed = of(items, E.TerrainPlaced)[0]
    assert placed.element.kind == "swamp" and placed.quarter == "nw"
    assert any(e.id == placed.element.id for e in g.state.battle.terrain)


def test_tgen4_scatter_d3_in_a_random_direction_and_removal_on_a_six():
    # nw: 1 element (hill: 3 + 3 = 6); se: 1 (7: nothing); sw: 1 (7); ne: 1 (7); then the scatter:
    # the hill's d6 is 4 -> 2 UW; then a second game where it is 6 -> removed
    g = generating([1, 3, 3])
    g.do("player-1", C.ChooseQuarters(diagonal="nw_se"))
    g.faces += [1, 3, 4, 1, 3, 4, 1, 3, 4, 4]
    g.do("player-1", C.PlaceTerrain(kind="hill", at=(5.0, 15.0)))
    sc = of(g.events, E.TerrainScattered)
    assert len(sc) == 1 and sc[0].face == 4 and sc[0].distance == 2 and not sc[0].removed
    assert 0 <= sc[0].angle < 360 and "SMOKE-TGEN-4" in rules(g.emitted)
    hill = next(e for e in g.state.battle.terrain if e.id == sc[0].element)
    assert hill.polygon == sc[0].polygon
    assert g.state.generation is None and g.state.deployment is not None  # then the armies deploy
    g2 = generating([1, 3, 3])
    g2.do("player-1", C.ChooseQuarters(diagonal="nw_se"))
    g2.faces += [1, 3, 4, 1, 3, 4, 1, 3, 4, 6]
    g2.do("player-1", C.PlaceTerrain(kind="hill", at=(5.0, 15.0)))
    sc = of(g2.events, E.TerrainScattered)
    assert sc[0].removed and not g2.state.battle.terrain
