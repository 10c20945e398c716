"""Threat: the enemy dice that can reach a hex next turn, and what the enemy would gain against a unit
standing there (each enemy unit in reach ordered with chance ``values.P_ORDERED``; no sight)."""
from __future__ import annotations

import math

from domain.hoth.board import DISTANCES as DIST
from domain.hoth.state import HothState, UnitState
from domain.hoth.team import other
from domain.hoth.terrain import protection
from domain.hoth.units import UNIT_SPECS

from .values import P_ORDERED, Scales, _faces, count6, focus_value


class Foes:
    """What one side's units can do next turn, by hex: a pure function of their types and hexes (cached)."""

    __slots__ = ("reach", "nearest", "hits", "stand")

    def __init__(self, enemies: tuple[tuple[str, tuple[int, int], int], ...]):
        #: hex -> [(enemy unit type, the best distance it can attack from after its move)]
        self.reach: dict[tuple[int, int], list[tuple[str, int]]] = {}
        #: hex -> distance to the nearest enemy unit
        self.nearest: dict[tuple[int, int], int] = {}
        #: (defender type, hex, terrain) -> expected hits if every enemy in reach attacked
        self.hits: dict[tuple, float] = {}
        #: (hex, unit type, goals) -> stand value (see ``destinations.stand_value``)
        self.stand: dict[tuple, float] = {}
        for etype, eh, _figures in enemies:
            s = UNIT_SPECS[etype]
            reach = s.move_attack + len(s.attack)
            for h, d in DIST[eh].items():
                if d < self.nearest.get(h, 99):
                    self.nearest[h] = d
                if 0 < d <= reach:
                    self.reach.setdefault(h, []).append((etype, max(1, d - s.move_attack)))


_FOES: dict[tuple, Foes] = {}


def foes(state: HothState, faction: str) -> Foes:
    """The enemies of ``faction`` (cached by their types, hexes and figures: the value depends on nothing else)."""
    key = tuple((u.unit, u.hex, u.figures) for u in state.units.values() if u.faction != faction)
    f = _FOES.get(key)
    if f is None:
        if len(_FOES) > 512:
            _FOES.clear()
        f = _FOES[key] = Foes(key)
    return f


def threat(state: HothState, u: UnitState, h: tuple[int, int], terrain: dict, sc: Scales,
           fo: Foes | None = None) -> float:
    """Expected progress the enemy gains against ``u`` standing on ``h`` next turn (an estimate: no sight, each
    enemy unit in reach ordered with chance ``P_ORDERED``, the hits added up), with the temporary medal it
    would lose there (HOTH-OBJ-TEMP-2)."""
    fo = fo or foes(state, u.faction)
    t = terrain.get(h)
    key = (u.unit, h, t)
    hits = fo.hits.get(key)
    if hits is None:
        hits = 0.0
        spec = UNIT_SPECS[u.unit]
        p6 = count6(_faces(())[0], spec.hit_by)
        for etype, d in fo.reach.get(h, ()):
            es = UNIT_SPECS[etype]
            n = es.attack[d - 1]
            if spec.terrain_protection:
                n -= protection(t, es.kind, False, spec.kind == "infantry", False)[0]
            if n > 0:
                hits += n * p6 / 6.0
        fo.hits[key] = hits
    if not hits:
        return 0.0
    other_side = other(u.faction)
    v = focus_value(state, u, other_side, P_ORDERED * hits, sc)
    for ob in sc.temp:
        if tuple(ob.hex) == h and ob.faction == u.faction:
            # an elimination (or a retreat) there gives the medal back
            v += (1.0 - math.exp(-P_ORDERED * hits / max(1, u.figures))) * sc.medal(u.faction) * ob.medals
    return v
