"""The rulebook's line-of-sight cases (section 13, Appendix A vectors) played through attacks, so the
engine is shown to feed the right obstructions (units, terrain, structures, half-hexes, ridges) to
the sight module."""
from __future__ import annotations

import pytest

from domain.hoth import commands as C
from domain.hoth.scenario import Structure

from .examples import example
from .fixtures import scenario
from .test_rules import refused, start, to_attack


def _attack_allowed(units, terrain=None, structures=(), attacker="A", target="T", faces=("miss",) * 4):
    g = example(scenario(units=units, terrain=terrain, structures=structures), faces=list(faces))
    start(g, "rebel", [attacker, "B"])  # B keeps an attack on offer, so the Attack step stays open
    to_attack(g, "rebel")
    assert g.rs.status(g.state).turn_seat == "rebel"
    legal = C.Attack(unit=attacker, target=target) in g.rs.legal_commands(g.state, "rebel")
    rule = None if legal else refused(g, "rebel", C.Attack(unit=attacker, target=target))
    return legal, rule


def _units(a, t, extra=()):
    return [(a, "rebel", "rebel_artillery", None, "A"), (t, "imperial", "snowtroopers", None, "T"),
            ((18, 0), "rebel", "rebel_artillery", None, "B"), ((18, 2), "imperial", "snowtroopers", None, "Z")] + list(extra)


def test_board_edge_case():
    """HOTH-LOS-EDGE-1/2: half-hex on the left, a unit on the right -> blocked; right hex empty -> clear."""
    assert _attack_allowed(_units((0, 0), (0, 2)))[0]
    legal, rule = _attack_allowed(_units((0, 0), (0, 2), [((1, 1), "rebel", "echo_troopers")]))
    assert not legal and rule == "HOTH-LOS-1"


@pytest.mark.parametrize("blockers,clear", [
    ({(1, 1): "rocks"}, True),                      # case 1: one obstruction along the line
    ({(1, 1): "rocks", (4, 2): "ridge"}, True),      # case 2: two obstructions on the same side
    ({(1, 1): "rocks", (5, 1): "ridge"}, False),     # case 3: one on each side -> blocked
    ({(3, 1): "rocks"}, False),                      # a crossed hex blocks (HOTH-LOS-3)
    ({(3, 1): "trench"}, True),                      # trenches never block (HOTH-LOS-5)
])
def test_along_edges_cases_with_artillery_at_range_4(blockers, clear):
    """HOTH-LOS-ALONG-2/3/4 (Appendix A vector (0,0)->(6,2), distance 4), HOTH-UNIT-ARTY-4."""
    legal, rule = _attack_allowed(_units((0, 0), (6, 2)), terrain=blockers)
    assert legal == clear and (clear or rule == "HOTH-LOS-1")


def test_structures_block_sight():
    """HOTH-STRUCT-3, HOTH-LOS-4c."""
    legal, rule = _attack_allowed(_units((0, 0), (4, 0)),
                                  structures=[Structure(id="SG", kind="shield_generator", hex=(2, 0), attackable=False)])
    assert not legal and rule == "HOTH-LOS-1"


def test_ridge_cases():
    """HOTH-LOS-RIDGE-1/2/4: from one ridge to another, rocks and ridges between do not block; a ridge unit does."""
    between = {(2, 0): "rocks"}
    # attacker on a ridge, target not: standard rules, the rocks block
    assert not _attack_allowed(_units((0, 0), (4, 0)), terrain={**between, (0, 0): "ridge"})[0]
    # both on ridges: rocks no longer block, nor a ridge in between
    assert _attack_allowed(_units((0, 0), (4, 0)), terrain={**between, (0, 0): "ridge", (4, 0): "ridge"})[0]
    assert _attack_allowed(_units((0, 0), (6, 0)), terrain={(2, 0): "ridge", (0, 0): "ridge", (6, 0): "ridge"})[0]
    # a unit standing on a ridge between them blocks; a serac blocks
    legal, rule = _attack_allowed(_units((0, 0), (6, 0), [((2, 0), "rebel", "echo_troopers")]),
                                  terrain={(2, 0): "ridge", (0, 0): "ridge", (6, 0): "ridge"})
    assert not legal and rule == "HOTH-LOS-1"
    assert not _attack_allowed(_units((0, 0), (6, 0)), terrain={(2, 0): "serac", (0, 0): "ridge", (6, 0): "ridge"})[0]


def test_a_structure_on_a_ridge_is_targeted_under_the_standard_rules():
    """HOTH-LOS-RIDGE-1 is between two units; a structure is never a unit (HOTH-STRUCT-1, HOTH-STRUCT-4): the
    rocks between an attacker on a ridge and a shield generator on a ridge block the attack."""
    sg = Structure(id="SG", kind="shield_generator", hex=(4, 0), attackable=True)
    ridges = {(0, 0): "ridge", (4, 0): "ridge"}
    legal, rule = _attack_allowed(_units((0, 0), (8, 2)), terrain={**ridges, (2, 0): "rocks"}, structures=[sg],
                                  target="SG")
    assert not legal and rule == "HOTH-LOS-1"
    # nothing between them: the structure can be attacked
    assert _attack_allowed(_units((0, 0), (8, 2)), terrain=ridges, structures=[sg], target="SG")[0]
    # a unit on that ridge instead of the structure is seen ridge to ridge over the same rocks
    assert _attack_allowed(_units((0, 0), (4, 0)), terrain={**ridges, (2, 0): "rocks"})[0]


# HOTH-LOS-RIDGE-1/3 with HOTH-LOS-ALONG-2: every combination. The line (0,0)->(6,2) (distance 4) runs along two
# edges: (1,1) and (4,2) on its left, (2,0) and (5,1) on its right; it crosses (3,1). Both ends on ridges (the
# reduced set: only units on ridges and seracs obstruct) or only the attacker (the standard set).
_LEFT, _RIGHT = (1, 1), (2, 0)
_KINDS = {
    "unit_on_plain": ({}, True, False),        # (terrain, holds a unit, obstructs ridge to ridge)
    "rocks": ({"rocks"}, False, False),
    "ridge": ({"ridge"}, False, False),
    "unit_on_ridge": ({"ridge"}, True, True),
    "serac": ({"serac"}, False, True),
}


@pytest.mark.parametrize("ridge_to_ridge", [True, False])
@pytest.mark.parametrize("left", sorted(_KINDS) + [None])
@pytest.mark.parametrize("right", sorted(_KINDS) + [None])
def test_ridge_rule_with_the_along_edge_rule_every_combination(ridge_to_ridge, left, right):
    """Blocked iff an obstruction stands on both sides; ridge to ridge only units on ridges and seracs count
    (HOTH-LOS-RIDGE-3): a unit on a plain hex on one side and rocks on the other is clear between ridges."""
    terrain = {(0, 0): "ridge"}
    if ridge_to_ridge:
        terrain[(6, 2)] = "ridge"
    extra = []
    for name, h, uid in ((left, _LEFT, "X"), (right, _RIGHT, "Y")):
        if name is None:
            continue
        kinds, unit, _ = _KINDS[name]
        for k in kinds:
            terrain[h] = k
        if unit:
            extra.append((h, "imperial", "snowtroopers", None, uid))

    def obstructs(name):
        if name is None:
            return False
        return _KINDS[name][2] if ridge_to_ridge else True

    legal, rule = _attack_allowed(_units((0, 0), (6, 2), extra), terrain=terrain)
    want_clear = not (obstructs(left) and obstructs(right))
    assert legal == want_clear, (ridge_to_ridge, left, right, rule)
    assert want_clear or rule == "HOTH-LOS-1"


def test_ridge_units_along_edges_unit_on_plain_and_rocks_is_clear():
    """The case of the report: between two ridge units, a unit on a plain hex on one side of the edge line and
    rocks on the other do not block (HOTH-LOS-RIDGE-1, HOTH-LOS-RIDGE-3); from off the ridge they do."""
    extra = [((1, 1), "imperial", "snowtroopers", None, "X")]
    assert _attack_allowed(_units((0, 0), (6, 2), extra), terrain={(0, 0): "ridge", (6, 2): "ridge", (2, 0): "rocks"})[0]
    legal, rule = _attack_allowed(_units((0, 0), (6, 2), extra), terrain={(0, 0): "ridge", (2, 0): "rocks"})
    assert not legal and rule == "HOTH-LOS-1"
