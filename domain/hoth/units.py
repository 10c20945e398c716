"""Unit reference (HOTH-FORCE-1, HOTH-RANGE-2, section 8, Appendix B).

All per-type values live in ``UNIT_SPECS``; INFERRED attack rows (AT-AT, probe
droids, artillery: HOTH-GAP-2..4) are marked in their named constants.
"""
from __future__ import annotations

import msgspec

INFANTRY, VEHICLE, SPECIAL = "infantry", "vehicle", "special"

#: HOTH-GAP-2 (INFERRED): AT-AT attack 3/3/3.
ATAT_ATTACK_INFERRED: tuple[int, ...] = (3, 3, 3)
#: HOTH-GAP-3 (INFERRED): probe droids 2/1.
PROBE_ATTACK_INFERRED: tuple[int, ...] = (2, 1)
#: HOTH-GAP-4 (INFERRED): Rebel artillery 4/3/2/1.
ARTILLERY_ATTACK_INFERRED: tuple[int, ...] = (4, 3, 2, 1)
#: HOTH-MOVE-3 / HOTH-UNIT-PROBE-2 (INFERRED): probe droids may attack after moving 2.
PROBE_MOVE_AND_ATTACK_INFERRED = 2


class UnitSpec(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    faction: str
    kind: str  # infantry | vehicle | special (HOTH-GLOSS-3)
    subtype: str | None = None  # flying | droid | artillery
    figures: int
    #: Most hexes it may move (HOTH-MOVE-3).
    move_max: int
    #: Most hexes it may move and still attack.
    move_attack: int
    attack: tuple[int, ...]
    #: Die symbols that hit it (HOTH-HIT-2, HOTH-HIT-6).
    hit_by: tuple[str, ...]
    ignores_retreat: bool = False
    #: Medals for eliminating it (HOTH-WIN-2, HOTH-ELIM-3).
    medals: int = 1
    terrain_protection: bool = True
    confirmation_roll: bool = False
    cannot_enter: tuple[str, ...] = ()
    flying: bool = False
    #: Rule ids of its special rules, for rulings.
    rules: tuple[str, ...] = ()

    @property
    def classes(self) -> frozenset[str]:
        return frozenset(c for c in (self.kind, self.subtype) if c)


UNIT_SPECS: dict[str, UnitSpec] = {
    "snowtroopers": UnitSpec(name="Snowtroopers", faction="imperial", kind=INFANTRY, figures=4, move_max=2,
                             move_attack=1, attack=(3, 2, 1), hit_by=("infantry", "explosion"),
                             rules=("HOTH-UNIT-SNOW-2", "HOTH-UNIT-SNOW-3")),
    "at_at": UnitSpec(name="AT-AT", faction="imperial", kind=VEHICLE, figures=1, move_max=1, move_attack=1,
                      attack=ATAT_ATTACK_INFERRED, hit_by=("vehicle", "explosion"), ignores_retreat=True,
                      terrain_protection=False, confirmation_roll=True, cannot_enter=("ridge",),
                      rules=("HOTH-UNIT-ATAT-2", "HOTH-UNIT-ATAT-3")),
    "probe_droids": UnitSpec(name="Imperial Probe Droids", faction="imperial", kind=SPECIAL, subtype="droid",
                             figures=2, move_max=2, move_attack=PROBE_MOVE_AND_ATTACK_INFERRED,
                             attack=PROBE_ATTACK_INFERRED, hit_by=("explosion",), medals=0,
                             rules=("HOTH-UNIT-PROBE-2", "HOTH-UNIT-PROBE-3")),
    "echo_troopers": UnitSpec(name="Echo Base Troopers", faction="rebel", kind=INFANTRY, figures=3, move_max=2,
                              move_attack=1, attack=(3, 2, 1), hit_by=("infantry", "explosion"),
                              rules=("HOTH-UNIT-ECHO-2", "HOTH-UNIT-ECHO-3")),
    "snowspeeders": UnitSpec(name="Snowspeeders", faction="rebel", kind=VEHICLE, subtype="flying", figures=3,
                             move_max=3, move_attack=3, attack=(4, 2), hit_by=("vehicle", "explosion"),
                             flying=True, rules=("HOTH-UNIT-SPEEDER-2", "HOTH-UNIT-SPEEDER-3")),
    "rebel_artillery": UnitSpec(name="Rebel Artillery", faction="rebel", kind=SPECIAL, subtype="artillery",
                                figures=1, move_max=0, move_attack=0, attack=ARTILLERY_ATTACK_INFERRED,
                                hit_by=("explosion",), ignores_retreat=True, medals=0,
                                rules=("HOTH-UNIT-ARTY-2", "HOTH-UNIT-ARTY-4")),
}

#: HOTH-SPECIAL-3: which unit kind may carry each badge.
BADGE_KINDS: dict[str, str] = {
    "elite_squadron": "snowspeeders",
    "assault": INFANTRY,
    "eweb": INFANTRY,
    "scouts": INFANTRY,
    "elite_troops": INFANTRY,
}
#: HOTH-SPECIAL-ELITESQ-1: elite squadrons start with 4 figures.
ELITE_SQUADRON_FIGURES = 4
#: HOTH-SPECIAL-ELITE-1 / HOTH-GAP-42: elite troops move 0-2 and still attack, never 3.
ELITE_TROOPS_MOVE = 2


def spec(unit_type: str) -> UnitSpec:
    return UNIT_SPECS[unit_type]


def starting_figures(unit_type: str, badge: str | None) -> int:
    """HOTH-FORCE-1, HOTH-FORCE-2, HOTH-SETUP-4."""
    if badge == "elite_squadron":
        return ELITE_SQUADRON_FIGURES
    return UNIT_SPECS[unit_type].figures


def badge_allowed(unit_type: str, badge: str) -> bool:
    """HOTH-SPECIAL-3."""
    need = BADGE_KINDS.get(badge)
    if need is None:
        return False
    return unit_type == need or UNIT_SPECS[unit_type].kind == need
