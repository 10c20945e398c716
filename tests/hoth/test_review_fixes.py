"""Fixes of the rules review findings; each test names the rule it checks and failed before its fix."""
from __future__ import annotations

import msgspec
import pytest

from domain.hoth import commands as C
from domain.hoth.events import AttackResolved, AttackRolled, GameWon, UnitEliminated, UnitRetreated
from domain.hoth.scenario import PermanentMedal, SideSetup, Structure
from domain.kernel import RuleViolation

from .examples import example
from .fixtures import scenario
from .test_rules import events, rules, start, to_attack


def refusal(g, seat, cmd) -> RuleViolation:
    with pytest.raises(RuleViolation) as exc:
        g.do(seat, cmd)
    return exc.value


# -- HOTH-RETREAT-9 / HOTH-OBJ-PERM-3 --------------------------------------------------------------

def _perm_retreat_scn(imperial_needs=5):
    # Probe droids T (2 figures, 0 medals) at (9,3) retreat north: only (10,4) is open; the next row is seracs.
    return scenario(units=[((9, 3), "imperial", "probe_droids", None, "T"), ((8, 2), "rebel", "echo_troopers", None, "E")],
                    terrain={(8, 4): "serac", (9, 5): "serac", (11, 5): "serac"},
                    objectives=[PermanentMedal(id="P", hex=(10, 4), faction="imperial")], first="rebel",
                    imperial=SideSetup(hand_size=4, victory_medals=imperial_needs))


def test_retreat_9_entry_captures_the_permanent_medal_even_when_retreat_losses_eliminate():
    """HOTH-RETREAT-9, HOTH-OBJ-PERM-3: any entry counts, also by a unit then eliminated by retreat losses."""
    g = example(_perm_retreat_scn(), faces=["retreat", "retreat", "retreat"])
    start(g, "rebel", ["E"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="E", target="T"))
    assert events(items, UnitRetreated)[0].event.path == ((10, 4),)
    assert events(items, UnitEliminated)
    assert g.state.medals["imperial"] == 1 and "P" in g.state.captured
    assert {"HOTH-OBJ-PERM-1", "HOTH-OBJ-PERM-3", "HOTH-RETREAT-9"} <= rules(items)


def test_win_5_capture_by_retreat_ends_the_game_before_the_elimination():
    """HOTH-WIN-5: the capture comes first (the hex is entered before the missing steps cost figures)."""
    g = example(_perm_retreat_scn(imperial_needs=1), faces=["retreat", "retreat", "retreat"])
    start(g, "rebel", ["E"])
    to_attack(g, "rebel")
    items = g.do("rebel", C.Attack(unit="E", target="T"))
    assert events(items, GameWon)[0].event.winner == "imperial"
    assert not events(items, UnitEliminated)
