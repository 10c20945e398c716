"""Faces follow from the dice (DESIGN 3, issue 10): the kernel's verifier asks the ruleset whether the
faces an event records are the faces of its recorded draws (``check_rolls``), and whether what the
event derives from them at once (a D3, a total, a distance, a failed risk) is what the faces give.

Every die of Clouds of Smoke is a d6 on the game's dice stream (SMOKE-DICE-1): a draw's ``value`` is
``face - 1``; a D3 is a d6 halved, rounded up (SMOKE-DICE-2). The scatter of a terrain element also
draws its direction (``value`` in degrees, :data:`~domain.smoke.terrain_gen.DIRECTIONS` sides). The
secret column numbering (SMOKE-DEP-2) draws its salt: two draws of 2**62 sides on the ``secret`` stream,
written as 16 hex digits each.
Each event below records its draws in the order they were made: the outbox attaches to an event
exactly the draws made since the previous event (domain/smoke/outbox.py)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from domain.kernel import GAME_DICE, Roll

from .bombardment import LOSS_STEP
from .deployment import SALT_SIDES, SECRET_STREAM
from .events import (
    ActionDiceRolled, BattleRolled, BombardmentRolled, ColumnsAssigned, CommanderRisked, DisciplineTested,
    FirstSideRolled, RetreatRolled, RiskTaken, TerrainCountRolled, TerrainRolled, TerrainScattered,
)
from .terrain_gen import DIRECTIONS
from .units import parse_retreat

D6 = 6


def _d6(rolls: Sequence[Roll]) -> list[int] | None:
    """The d6 faces of ``rolls`` (None when one is not a d6 of the game's dice)."""
    if any(r.stream != GAME_DICE or r.sides != D6 or not 0 <= r.value < D6 for r in rolls):
        return None
    return [r.value + 1 for r in rolls]


def _d3(face: int) -> int:
    return math.ceil(face / 2)  # SMOKE-DICE-2


def _faces(name: str, got: Sequence[int], rolls: Sequence[Roll], rule: str) -> str | None:
    want = _d6(rolls)
    if want is None or list(got) != want:
        return f"{name} records faces {list(got)}, its draws give {want} ({rule})"
    return None


def _retreat_distance(expression: str, faces: Sequence[int]) -> float:
    """What :func:`domain.smoke.units.roll_retreat` makes of ``faces``."""
    _n, sides, plus = parse_retreat(expression)
    total = sum(_d3(f) if sides == 3 else f for f in faces) + plus
    return max(0.0, float(total))


def check_rolls(event: Any, rolls: Sequence[Roll]) -> str | None:
    """None when the faces ``event`` records are those of ``rolls`` (and what it derives from them at
    once follows); else a sentence naming what does not fit."""
    if isinstance(event, FirstSideRolled):
        got = [row[s]["face"] for row in event.rounds for s in row]
        bad = _faces("first_side_rolled", got, rolls, "SMOKE-SETUP-4")
        if bad is None and any(v["face"] + v["rating"] != v["total"] for row in event.rounds for v in row.values()):
            bad = "first_side_rolled: a total is not its face plus the rating (SMOKE-SETUP-4)"
        return bad
    if isinstance(event, ActionDiceRolled):
        bad = _faces("action_dice_rolled", event.faces, rolls, "SMOKE-ACT-1")
        if bad is None and (len(event.faces) != event.level or event.ones != event.faces.count(1)
                            or event.sixes != event.faces.count(6)):
            bad = (f"action_dice_rolled: {len(event.faces)} dice for level {event.level}, ones {event.ones}, "
                   f"sixes {event.sixes} do not fit the faces {list(event.faces)} (SMOKE-ACT-1)")
        return bad
    if isinstance(event, RiskTaken):
        bad = _faces("risk_taken", (event.face,), rolls, "SMOKE-ACT-2")
        if bad is None and event.out != (event.face == 1):
            bad = f"risk_taken: face {event.face} gives out={event.face == 1}, recorded {event.out} (SMOKE-RISK-2)"
        return bad
    if isinstance(event, CommanderRisked):
        bad = _faces("commander_risked", (event.face,), rolls, "SMOKE-RISK-3")
        fails = event.face == 1 or (event.cavalry and event.face <= 2)
        if bad is None and event.out != fails:
            bad = f"commander_risked: face {event.face} gives out={fails}, recorded {event.out} (SMOKE-RISK-3)"
        return bad
    if isinstance(event, RetreatRolled):
        bad = _faces("retreat_rolled", event.faces, rolls, "SMOKE-RET-3")
        if bad is None and not math.isclose(_retreat_distance(event.expression, event.faces), event.distance):
            bad = (f"retreat_rolled: {event.expression} with faces {list(event.faces)} is "
                   f"{_retreat_distance(event.expression, event.faces):g} UW, recorded {event.distance:g} (SMOKE-RET-3)")
        return bad
    if isinstance(event, BombardmentRolled):
        got = [f for r in event.rolls for f in r["faces"]]
        bad = _faces("bombardment_rolled", got, rolls, "SMOKE-BOMB-5")
        if bad is None:
            for r in event.rolls:
                if len(r["faces"]) != r["dice"] or sum(r["faces"]) != r["total"] or r["total"] // LOSS_STEP != r["losses"]:
                    return f"bombardment_rolled: the roll against {r['target']} does not add up (SMOKE-BOMB-5/6)"
        return bad
    if isinstance(event, BattleRolled):
        got = [f for side in event.sides.values() for f in side["faces"]]
        bad = _faces("battle_rolled", got, rolls, "SMOKE-RES-3")
        if bad is None:
            for name, side in event.sides.items():
                if sorted(side["kept"] + side["dropped"]) != sorted(side["faces"]) or sum(side["kept"]) != side["total"]:
                    return f"battle_rolled: side {name} keeps or adds up dice its faces do not give (SMOKE-ADV-1)"
        return bad
    if isinstance(event, DisciplineTested):
        return _faces("discipline_tested", [t["face"] for t in event.tests], rolls, "SMOKE-DISC-2")
    if isinstance(event, TerrainCountRolled):
        bad = _faces("terrain_count_rolled", (event.face,), rolls, "SMOKE-TGEN-2")
        if bad is None and event.count != _d3(event.face):
            bad = f"terrain_count_rolled: D3 of {event.face} is {_d3(event.face)}, recorded {event.count} (SMOKE-DICE-2)"
        return bad
    if isinstance(event, TerrainRolled):
        bad = _faces("terrain_rolled", event.faces, rolls, "SMOKE-TGEN-3")
        if bad is None and sum(event.faces) != event.total:
            bad = f"terrain_rolled: {list(event.faces)} do not add up to {event.total} (SMOKE-TGEN-3)"
        return bad
    if isinstance(event, TerrainScattered):
        if len(rolls) != 2 or rolls[1].stream != GAME_DICE or rolls[1].sides != DIRECTIONS:
            return f"terrain_scattered records a d6 and a direction, its draws are {len(rolls)} (SMOKE-TGEN-4)"
        bad = _faces("terrain_scattered", (event.face,), rolls[:1], "SMOKE-TGEN-4")
        if bad is None and (event.angle != rolls[1].value or event.distance != _d3(event.face)
                            or (event.face == 6 and not event.removed)):
            bad = (f"terrain_scattered: d6 {event.face} and direction {rolls[1].value} give D3 {_d3(event.face)} UW at "
                   f"{rolls[1].value} degrees, recorded {event.distance:g} at {event.angle} (SMOKE-TGEN-4)")
        return bad
    if isinstance(event, ColumnsAssigned):
        if len(rolls) != 2 or any(r.stream != SECRET_STREAM or r.sides != SALT_SIDES or not 0 <= r.value < SALT_SIDES
                                  for r in rolls):
            return (f"columns_assigned records a salt of two draws of {SALT_SIDES} sides on the {SECRET_STREAM!r} "
                    f"stream, its draws are {len(rolls)} (SMOKE-DEP-2)")
        want = "".join(f"{r.value:016x}" for r in rolls)
        if event.salt != want:
            return "columns_assigned: its salt is not the one its draws give (SMOKE-DEP-2)"
        return None
    return None


__all__ = ["check_rolls"]
