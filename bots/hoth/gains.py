"""What the Battle of Hoth bots' values add up to: a unit's action (:data:`Act`: its expected gain, target,
the target's whole value and the expected hits on a target unit), a command with its gain (:class:`Pick`), the
value of several actions together (focus fire, :func:`combined`) and the chance each attacked unit is
eliminated (:func:`kill_chances`)."""
from __future__ import annotations

import math
from typing import Any

import msgspec
from domain.hoth.state import HothState
from domain.hoth.units import UNIT_SPECS

from .values import Scales, focus_value, scales


class Pick(msgspec.Struct, frozen=True):
    command: Any
    gain: float


#: (value, target, the target's whole value, expected hits on a target unit)
Act = tuple[float, "str | None", float, float]


def combined(state: HothState, faction: str, chosen: list[Act], sc: Scales | None = None) -> float:
    """The value of several units' actions together. Attacks on one unit add their expected hits (a Poisson
    number: focus fire eliminates what single attacks do not); other targets (structures, hexes) add up as
    chances of one success; nothing counts beyond what its target is worth."""
    sc = sc or scales(state)
    total = 0.0
    by_target: dict[str, list[Act]] = {}
    for a in chosen:
        if a[1] is None or a[2] <= 0:
            total += a[0]
        else:
            by_target.setdefault(a[1], []).append(a)
    for t, acts in by_target.items():
        full = acts[0][2]
        if len(acts) == 1:
            total += min(full, acts[0][0])
            continue
        tgt = state.units.get(t)
        if tgt is not None and all(a[3] > 0 for a in acts):
            v = focus_value(state, tgt, faction, sum(a[3] for a in acts), sc)
            total += min(full, max(v, max(a[0] for a in acts)))
            continue
        miss = 1.0
        for a in acts:
            miss *= 1.0 - min(1.0, a[0] / full)
        total += full * (1.0 - miss)
    return total


def kill_chances(state: HothState, plan: dict[str, Act]) -> dict[str, float]:
    """The chance each enemy unit attacked in ``plan`` is eliminated, its expected hits added up as a Poisson
    number (HOTH-HIT-3, HOTH-ELIM-1; an AT-AT needs one explosion per hit to confirm, HOTH-HIT-5)."""
    hits: dict[str, float] = {}
    for a in plan.values():
        if a[1] is not None and a[3] > 0 and a[1] in state.units:
            hits[a[1]] = hits.get(a[1], 0.0) + a[3]
    out: dict[str, float] = {}
    for tid, h in hits.items():
        u = state.units[tid]
        if UNIT_SPECS[u.unit].confirmation_roll:
            out[tid] = 1.0 - math.exp(-h / 6.0)
            continue
        pk = math.exp(-h)
        below = 0.0
        for k in range(u.figures):
            below += pk
            pk *= h / (k + 1)
        out[tid] = max(0.0, 1.0 - below)
    return out
