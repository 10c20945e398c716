"""Destinations: the value of a unit standing on a hex (objectives there, the attack it could make from there
next turn, closing in on the nearest goal or enemy) minus the enemy's threat there, and the move step's
commands ranked by it against staying."""
from __future__ import annotations

from typing import Any

from domain.hoth import commands as C
from domain.hoth.board import DISTANCES as DIST
from domain.hoth.context import Snapshot, snapshot
from domain.hoth.movement import allowance
from domain.hoth.state import HothState, UnitState, faction_of
from domain.hoth.terrain import STOP_TERRAIN
from domain.hoth.units import UNIT_SPECS

from .attacks import best_attack_from
from .gains import Pick
from .threat import Foes, foes, threat
from .values import Scales, attack_value, goals, guards, scales

#: Below this expected gain a move is not worth making (keeps units in place, e.g. an E-Web set).
MIN_MOVE_GAIN = 0.02
#: Per hex of distance to the nearest goal or enemy in reach, what a unit loses (it should close in).
APPROACH = 0.04
#: What an attack from a hex next turn is worth now (the unit may not be ordered; sight is not checked).
NEXT_SHARE = 0.3
#: Destinations looked at closely (sight and dice) per unit: in a playout, and for the greedy bot itself.
FAST_DESTINATIONS = 2
FULL_DESTINATIONS = 10


def stand_value(state: HothState, u: UnitState, h: tuple[int, int], gl: tuple, fo: Foes) -> float:
    """Objectives on ``h``; the attack ``u`` could make from there next turn (``NEXT_SHARE``: it may not be
    ordered, sight is unknown); and how close ``h`` is to the nearest goal or enemy in reach (closing in)."""
    key = (h, u.unit, u.faction, u.figures, gl)
    v = fo.stand.get(key)
    if v is not None:
        return v
    spec = UNIT_SPECS[u.unit]
    rng = len(spec.attack)
    v = 0.0
    near = max(0, fo.nearest.get(h, 99) - rng)
    for gh, value, stand in gl:
        if stand:
            if gh == h:
                v += value
            else:
                near = min(near, DIST[h][gh])
        else:
            near = min(near, max(0, DIST[h][gh] - rng))
    if near < 99:
        v -= APPROACH * near
    if spec.move_max > 0 or rng:
        sc = scales(state)
        best = 0.0
        dh = DIST[h]
        for e in state.units.values():
            if e.faction == u.faction:
                continue
            dd = max(1, dh[e.hex] - spec.move_attack)
            if dd <= rng:
                best = max(best, attack_value(state, u, e.id, spec.attack[dd - 1], sc=sc))
        for gh, value, stand in gl:
            if not stand:
                dd = max(1, dh[gh] - spec.move_attack)
                if dd <= rng:
                    best = max(best, (1 - (5 / 6) ** spec.attack[dd - 1]) * value)
        v += NEXT_SHARE * best
    fo.stand[key] = v
    return v


#: Moves and retreats value standing on the other side's objective hexes (``values.guards``).
GREEDY_GUARD = False


def stand_goals(state: HothState, faction: str, sc: Scales) -> tuple:
    """The hexes a unit's stand value looks at: the faction's goals and, with ``GREEDY_GUARD``, its guards."""
    gl = goals(state, faction, sc)
    if GREEDY_GUARD:
        gl = gl + guards(state, faction, sc)
    return tuple(gl)


def dest_value(state: HothState, snap: Snapshot, u: UnitState, h: tuple[int, int], sc: Scales, gl: tuple, fo: Foes,
               can_attack_after: bool, fast: bool = False) -> float:
    v = stand_value(state, u, h, gl, fo) - threat(state, u, h, snap.terrain, sc, fo)
    if can_attack_after:
        v += best_attack_from(state, snap, u, h, sc, fast)[0]
    return v


def move_picks(state: HothState, seat: str, cmds: list, fast: bool) -> list[Pick]:
    """Each move: the best attack from the new hex (when the unit may still attack), objectives, closing in,
    minus the enemy's threat there, compared with staying. Only the best few hexes by everything but the
    attack (``FAST_DESTINATIONS``, or ``FULL_DESTINATIONS``) are looked at with sight and dice."""
    sc = scales(state)
    snap = snapshot(state)
    t = state.turn
    gl = stand_goals(state, faction_of(seat), sc)
    fo = foes(state, faction_of(seat))
    by_unit: dict[str, list[Any]] = {}
    out: list[Pick] = []
    for c in cmds:
        if isinstance(c, C.Move):
            by_unit.setdefault(c.unit, []).append(c)
        elif isinstance(c, C.EndMoves):
            out.append(Pick(c, MIN_MOVE_GAIN))
    keep = FAST_DESTINATIONS if fast else FULL_DESTINATIONS
    for uid, moves in by_unit.items():
        u = state.units[uid]
        al = allowance(state, u)
        stopped = uid in t.stopped
        stay = dest_value(state, snap, u, u.hex, sc, gl, fo, not stopped, fast)
        pre = [(stand_value(state, u, m.path[-1], gl, fo) - threat(state, u, m.path[-1], snap.terrain, sc, fo), m)
               for m in moves]
        if len(pre) > keep:
            pre.sort(key=lambda x: x[0], reverse=True)
            out += [Pick(m, v - stay - 1.0) for v, m in pre[keep:]]
            pre = pre[:keep]
        for v, m in pre:
            h = m.path[-1]
            can = (not stopped and len(m.path) <= al.attack_max and al.may_attack
                   and snap.terrain.get(h) not in STOP_TERRAIN)
            if can:
                v += best_attack_from(state, snap, u, h, sc, fast)[0]
            out.append(Pick(m, v - stay))
    return out
