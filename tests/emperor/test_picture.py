"""The board picture (board.svg): grid, locations face up or flipped, hazards active or not,
warriors with their wounds, the current order card with its compass, and the last Emperor move
with the cells it considered (SOLO-MOVE-4/5/7). Deterministic SVG, pinned by a syrupy snapshot."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from syrupy.extensions.image import SVGImageSnapshotExtension

from domain.emperor import commands as C

from .play import Game, ruleset

SVG = "{http://www.w3.org/2000/svg}"


def _mid_game() -> Game:
    """T6 then an Emperor turn: L1 flipped, a hero wounded, an order card current."""
    g = Game(ruleset(), "SETUP-WARDEN-VS-VESPER", seed=b"\x07" * 32, game_id="picture")
    g.do(C.Move(warrior="warden", to="C2"))
    g.do(C.EndTurn())
    while g.state.pending is not None:
        g.do(C.Defend(card=None))
    return g


@pytest.fixture
def svg_snapshot(snapshot):
    return snapshot.use_extension(SVGImageSnapshotExtension)


def test_picture_snapshot(svg_snapshot):
    g = _mid_game()
    assert g.rs.render_svg(g.state, "human", []) == svg_snapshot


def test_picture_shows_what_the_emperor_considered():
    g = _mid_game()
    svg = g.rs.render_svg(g.state, "human", [])
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]  # a text may hold a <tspan> (the last move)
    lm = g.state.last_move
    assert lm is not None
    assert any(f"{lm.frm} -> {lm.to}" in t for t in texts)
    # one dashed outline per possible cell, a bold one per candidate, a tint per reachable cell
    rects = list(root.iter(f"{SVG}rect"))
    dashed = [r for r in rects if r.get("stroke-dasharray") == "5,4"]
    assert len(dashed) == len(lm.possible)
    tinted = [r for r in rects if r.get("fill") == "#f6e79a"]
    assert len(tinted) == len(lm.reachable)
    oc = g.state.current_order()
    assert any(t == f"compass: {oc.compass}" for t in texts)
    for w in g.state.warriors.values():
        if w.alive:
            assert f"{w.left}/{w.health}" in texts
    assert g.rs.render_svg(g.state, "human", []) == svg  # deterministic


def test_picture_marks_flipped_locations_and_inactive_hazards():
    g = Game(ruleset(), "SETUP-WARDEN-VS-VESPER").flip("L4", "L1")
    texts = [t.text or "" for t in ET.fromstring(g.rs.render_svg(g.state, None, [])).iter(f"{SVG}text")]
    assert texts.count("flipped") == 2
    assert "H2 Rockfall (off)" in texts and "H1 Fire Pit" in texts
