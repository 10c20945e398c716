"""The board picture (DESIGN 8 board.svg): deterministic SVG with terrain, units, sections, half-hexes."""
import xml.etree.ElementTree as ET

import pytest
from syrupy.extensions.image import SVGImageSnapshotExtension

from domain.hoth.board import HALF_HEXES, PLAYABLE, SECTION_LINES_X
from domain.hoth.picture import BoardPicture, LastAttack, MedalMark, UnitMark, render_board

SVG = "{http://www.w3.org/2000/svg}"

PICTURE = BoardPicture(
    title="Test: Take Down the Shield",
    south_faction="rebel",
    terrain={(4, 2): "ridge", (6, 2): "rocks", (9, 3): "serac", (12, 4): "buildings",
             (3, 1): "trench", (15, 5): "crevasse"},
    structures={(10, 6): "shield_generator", (16, 6): "ion_cannon"},
    structure_ids={(10, 6): "SG-1", (16, 6): "IC-1"},
    medals=(MedalMark((8, 4), "temporary", "imperial"), MedalMark((14, 4), "permanent")),
    units=(
        UnitMark((4, 2), "rebel", "echo_troopers", 3, ("scouts",), id="R1"),
        UnitMark((10, 2), "imperial", "snowtroopers", 2),
        UnitMark((8, 0), "rebel", "snowspeeders", 4, ("elite_squadron",)),
        UnitMark((11, 5), "imperial", "at_at", 1),
        UnitMark((1, 1), "rebel", "rebel_artillery", 1),
    ),
    last_attack=LastAttack((4, 2), (10, 2), ("infantry", "explosion", "miss")),
)


@pytest.fixture
def svg_snapshot(snapshot):
    return snapshot.use_extension(SVGImageSnapshotExtension)


def test_picture_snapshot(svg_snapshot):
    assert render_board(PICTURE) == svg_snapshot


def test_picture_is_deterministic_and_independent_of_input_order():
    shuffled = BoardPicture(
        title=PICTURE.title, south_faction=PICTURE.south_faction,
        terrain=dict(reversed(list(PICTURE.terrain.items()))),
        structures=dict(reversed(list(PICTURE.structures.items()))),
        structure_ids=dict(reversed(list(PICTURE.structure_ids.items()))),
        medals=tuple(reversed(PICTURE.medals)), units=tuple(reversed(PICTURE.units)),
        last_attack=PICTURE.last_attack,
    )
    assert render_board(PICTURE) == render_board(PICTURE) == render_board(shuffled)


def test_picture_parses_as_xml_and_shows_every_unit_with_its_figure_count():
    root = ET.fromstring(render_board(PICTURE))
    assert root.tag == SVG + "svg"
    units = [g for g in root.iter(SVG + "g") if g.get("class") == "unit"]
    assert len(units) == len(PICTURE.units)
    by_hex = {g.get("data-hex"): g for g in units}
    for u in PICTURE.units:
        g = by_hex[f"{u.hex[0]},{u.hex[1]}"]
        texts = [t.text for t in g.iter(SVG + "text")]
        assert str(u.figures) in texts, (u, texts)
    # figure counts differ per unit: 3, 2, 4, 1, 1
    assert sorted(int(t.text) for g in units for t in g.iter(SVG + "text") if t.text.isdigit()) == [1, 1, 2, 3, 4]


def test_picture_names_hexes_units_and_structures_for_clients():
    """The web client acts on the picture: every hex, unit and structure carries the id commands use."""
    root = ET.fromstring(render_board(PICTURE))
    hexes = {p.get("data-hex") for p in root.iter(SVG + "polygon") if p.get("data-hex")}
    assert hexes == {f"{x},{r}" for x, r in PLAYABLE | HALF_HEXES}
    units = {g.get("data-unit"): g.get("data-hex") for g in root.iter(SVG + "g") if g.get("class") == "unit"}
    assert units["R1"] == "4,2" and "" in units  # a unit without an id keeps an empty attribute
    structs = {g.get("data-structure"): g.get("data-hex") for g in root.iter(SVG + "g")
               if g.get("class") == "structure"}
    assert structs == {"SG-1": "10,6", "IC-1": "16,6"}


def test_picture_draws_all_hexes_half_hexes_sections_and_the_last_attack():
    """HOTH-COORD-2 (67 hexes), HOTH-BOARD-6 (half-hexes), HOTH-BOARD-3 (two dashed lines)."""
    root = ET.fromstring(render_board(PICTURE))
    groups = {g.get("id"): g for g in root.iter(SVG + "g") if g.get("id")}
    assert len(groups["hexes"].findall(SVG + "polygon")) == len(PLAYABLE) == 67
    assert len(groups["half-hexes"].findall(SVG + "polygon")) == len(HALF_HEXES) == 6
    assert len(groups["sections"].findall(SVG + "line")) == len(SECTION_LINES_X) == 2
    assert len(list(groups["structures"].iter(SVG + "rect"))) == 2
    assert len(groups["medals"].findall(SVG + "circle")) == 2
    assert groups["last-attack"].find(SVG + "line") is not None
    text = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert "Last attack c2 r2 [4,2] -> c5 r2 [10,2]: infantry, explosion, miss" in text
    for short in ("RDG", "ROC", "SER", "BLD", "TRN", "CRV", "SG", "IC", "EB", "ST", "SP", "AT", "AR", "SC", "ES"):
        assert short in text.split(), short


def test_empty_picture_has_no_units_and_no_arrow():
    root = ET.fromstring(render_board(BoardPicture()))
    groups = {g.get("id"): g for g in root.iter(SVG + "g") if g.get("id")}
    assert "last-attack" not in groups
    assert not [g for g in root.iter(SVG + "g") if g.get("class") == "unit"]


def test_picture_refuses_units_off_the_board():
    with pytest.raises(ValueError, match="HOTH-COORD-4.*unit"):
        render_board(BoardPicture(units=(UnitMark((-1, 1), "rebel", "echo_troopers", 3),)))
    with pytest.raises(ValueError, match="terrain"):
        render_board(BoardPicture(terrain={(1, 0): "rocks"}))
