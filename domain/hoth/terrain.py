"""Terrain and structures (section 10, HOTH-MOD-*, Appendix B)."""
from __future__ import annotations

RIDGE, ROCKS, SERAC, BUILDINGS, TRENCH, CREVASSE = "ridge", "rocks", "serac", "buildings", "trench", "crevasse"

#: HOTH-LOS-4b / HOTH-LOS-5: terrain that blocks line of sight.
BLOCKS_LOS: frozenset[str] = frozenset({RIDGE, ROCKS, SERAC, BUILDINGS})
#: HOTH-MOVE-9 / HOTH-MOVE-10: entering ends movement and forbids attacking this turn.
STOP_TERRAIN: frozenset[str] = frozenset({ROCKS, BUILDINGS})
#: HOTH-MOVE-8: impassable to every unit (structures are impassable too, HOTH-STRUCT-2).
IMPASSABLE: frozenset[str] = frozenset({SERAC})
#: Impassable except to flying units (HOTH-TERRAIN-CREVASSE-1).
IMPASSABLE_UNLESS_FLYING: frozenset[str] = frozenset({CREVASSE})

_STOP_RULE = {ROCKS: "HOTH-TERRAIN-ROCKS-1", BUILDINGS: "HOTH-TERRAIN-BUILDING-1"}
_NO_ATTACK_RULE = {ROCKS: "HOTH-TERRAIN-ROCKS-2", BUILDINGS: "HOTH-TERRAIN-BUILDING-2"}


def stop_rule(terrain: str | None) -> str:
    return _STOP_RULE.get(terrain or "", "HOTH-MOVE-9")


def no_attack_rule(terrain: str | None) -> str:
    return _NO_ATTACK_RULE.get(terrain or "", "HOTH-MOVE-10")


def enter_refusal(terrain: str | None, structure: bool, flying: bool, cannot_enter: tuple[str, ...]) -> str | None:
    """The rule id that forbids entering the hex, or None (HOTH-MOVE-8, section 10)."""
    if structure:
        return "HOTH-STRUCT-2"
    if terrain in IMPASSABLE:
        return "HOTH-TERRAIN-SERAC-1"
    if terrain in IMPASSABLE_UNLESS_FLYING and not flying:
        return "HOTH-TERRAIN-CREVASSE-1"
    if terrain in cannot_enter:
        return "HOTH-TERRAIN-RIDGE-1"
    return None


def retreat_refusal(terrain: str | None, structure: bool, flying: bool) -> str | None:
    """HOTH-RETREAT-4: terrain is ignored in retreat except impassable terrain."""
    if structure:
        return "HOTH-STRUCT-2"
    if terrain in IMPASSABLE:
        return "HOTH-TERRAIN-SERAC-1"
    if terrain in IMPASSABLE_UNLESS_FLYING and not flying:
        return "HOTH-TERRAIN-CREVASSE-1"
    return None


def protection(terrain: str | None, attacker_kind: str, attacker_on_ridge: bool,
               target_is_infantry: bool, target_is_structure: bool) -> tuple[int, str | None]:
    """Dice removed by the target's hex (HOTH-MOD-2, HOTH-MOD-5); (0, None) when none."""
    if terrain == RIDGE:
        if attacker_on_ridge:
            return 0, "HOTH-TERRAIN-RIDGE-3"
        return 1, "HOTH-TERRAIN-RIDGE-3"
    if terrain in (ROCKS, BUILDINGS):
        n = 2 if attacker_kind == "vehicle" else 1
        return n, ("HOTH-TERRAIN-ROCKS-3" if terrain == ROCKS else "HOTH-TERRAIN-BUILDING-3")
    if terrain == TRENCH and target_is_infantry and not target_is_structure:
        return 1, "HOTH-TERRAIN-TRENCH-2"
    return 0, None


def attack_penalty(terrain: str | None, attacker_kind: str) -> tuple[int, str | None]:
    """Dice removed by the attacker's hex (HOTH-MOD-3)."""
    if terrain == BUILDINGS and attacker_kind == "vehicle":
        return 2, "HOTH-TERRAIN-BUILDING-2"
    return 0, None
