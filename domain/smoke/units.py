"""Units and their profiles (SMOKE-UNIT, SMOKE-STAT, SMOKE-DICE-2, SMOKE-SR)."""
from __future__ import annotations

import math
import re

from domain.kernel import Dice, RuleViolation
from domain.kernel.messages import msg

from .content import Bombardment, Profile, Weapon
from .formations import rear_partners
from .state import SmokeState, Unit, memo

_RETREAT = re.compile(r"^\s*(?:(?P<n>\d*)d(?P<sides>[36]))?\s*(?:(?P<sign>[+-])?\s*(?P<plus>\d+(?:\.\d+)?))?\s*$")


def parse_retreat(expr: str) -> tuple[int, int, float]:
    """``"d3"`` -> (1, 3, 0); ``"d3+1"`` -> (1, 3, 1); ``"0"`` -> (0, 0, 0) (SMOKE-STAT-1 Retreat)."""
    m = _RETREAT.match(expr)
    if not m or (m.group("sides") is None and m.group("plus") is None):
        raise ValueError(f"not a retreat distance: {expr!r} (use e.g. d3, d3+1, 2, 0)")
    n = int(m.group("n") or 1) if m.group("sides") else 0
    sides = int(m.group("sides") or 0)
    plus = float(m.group("plus") or 0)
    if m.group("sign") == "-":
        plus = -plus
    return n, sides, plus


def roll_retreat(expr: str, dice: Dice) -> tuple[tuple[int, ...], float]:
    """The d6 faces rolled and the distance. D3 is a d6 halved, rounded up (SMOKE-DICE-2)."""
    n, sides, plus = parse_retreat(expr)
    faces = tuple(dice.value(6) + 1 for _ in range(n))
    total = sum(math.ceil(f / 2) if sides == 3 else f for f in faces) + plus
    return faces, max(0.0, float(total))


def profile_of(state: SmokeState, u: Unit) -> Profile:
    return state.profiles[u.profile]


def has(state: SmokeState, u: Unit, trait: str) -> bool:
    return trait in state.profiles[u.profile].traits


def moved_immobile(state: SmokeState, u: Unit) -> bool:
    """SMOKE-SR-18: an Immobile unit loses Fire and Bombardment for the whole turn in which it moved."""
    return has(state, u, "immobile") and state.turn is not None and u.id in state.turn.moved


def fire_weapons(state: SmokeState, u: Unit) -> list[tuple[Weapon, float]]:
    moved = state.turn.moved if state.turn is not None else ()
    table = memo(state, "fire_weapons", dict, moved)  # unit id -> its weapons, filled as asked
    ws = table.get(u.id)
    if ws is None:
        ws = table[u.id] = _fire_weapons(state, u)
    return ws


def _fire_weapons(state: SmokeState, u: Unit) -> list[tuple[Weapon, float]]:
    """Its Fire weapons with their effective ranges, shortest first (SMOKE-RES-2).

    SMOKE-SR-23: an infantry unit in rear contact with a *Do not block fire* unit adds that unit's
    base depth to its Fire range.
    """
    p = profile_of(state, u)
    if not p.fire or moved_immobile(state, u):
        return []
    bonus = 0.0
    if "infantry" in p.traits:
        for other in rear_partners(state, u):
            if has(state, other, "do_not_block_fire") and other.seat == u.seat:
                bonus = max(bonus, other.d)
    return sorted(((w, w.range + bonus) for w in p.fire), key=lambda x: x[1])


def fire_range(state: SmokeState, u: Unit) -> float:
    """The longest effective Fire range (fire contact, SMOKE-LOF-4); 0 without Fire."""
    ws = fire_weapons(state, u)
    return max((r for _, r in ws), default=0.0)


def fire_range_bound(state: SmokeState, u: Unit, deepest: float) -> float:
    """At least ``fire_range(state, u)`` whatever the layout, when ``deepest`` is the deepest base on the table:
    its longest Fire weapon, plus that depth for infantry (SMOKE-SR-23), without looking at its contacts."""
    p = profile_of(state, u)
    if not p.fire:
        return 0.0
    hit = _LONGEST.get(id(p))
    if hit is None or hit[0] is not p:
        if len(_LONGEST) >= 4096:
            _LONGEST.clear()
        hit = _LONGEST[id(p)] = (p, max(w.range for w in p.fire), "infantry" in p.traits)
    return hit[1] + (deepest if hit[2] else 0.0)


#: Profile object id -> (the profile, its longest Fire weapon's range, infantry): see ``fire_range_bound``.
_LONGEST: dict[int, tuple[Profile, float, bool]] = {}


def bombardment_of(state: SmokeState, u: Unit) -> Bombardment | None:
    if moved_immobile(state, u):
        return None
    return profile_of(state, u).bombardment


def unit_or_refuse(state: SmokeState, uid: str, rule: str = "SMOKE-UNIT-3") -> Unit:
    u = state.units.get(uid)
    if u is None:
        gone = " (destroyed)" if uid in state.destroyed else ""
        raise RuleViolation(rule, msg("There is no unit {unit} on the table{gone}.", unit=repr(uid), gone=gone), unit=uid)
    return u
