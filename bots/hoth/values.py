"""What the Hoth bots judge by: the chances of an attack, what units, structures and hexes are worth to a
faction, and the evaluation of a position that ends a truncated playout.

Everything is measured in one unit, "progress": reaching a faction's victory is ``K_PROGRESS``; a medal
is ``K_PROGRESS / victory_medals`` (HOTH-WIN-1), a structure of a sudden-death objective
``K_PROGRESS / len(structures)`` (HOTH-OBJ-SUDDEN-1), and so on. A faction's force left (units weighted
by ``TYPE_WEIGHT``, figures counting half) adds ``K_FORCE`` at most, for the fights to come. These
weights are the bots' judgement, not rules: they live here as named constants.

:func:`evaluate` maps the difference of both sides' progress, force and position to a win chance in
[0, 1] with a logistic curve (``EVAL_SCALE``): the value a truncated playout returns.
"""
from __future__ import annotations

import math
from functools import lru_cache

from domain.hoth import board
from domain.hoth.board import DISTANCES
from domain.hoth.combat import DIE_FACES, convert
from domain.hoth.medals import medals_for
from domain.hoth.scenario import HexesOccupied, PermanentMedal, StructuresDestroyed, SuddenDeath, TemporaryMedal, UnitsEliminated
from domain.hoth.state import HothState, UnitState
from domain.hoth.team import other
from domain.hoth.terrain import protection
from domain.hoth.units import UNIT_SPECS

#: Weight of reaching victory (the whole way) in the evaluation.
K_PROGRESS = 4.0
#: Weight of a faction's whole force in the evaluation.
K_FORCE = 1.5
#: Logistic scale: evaluation = 1 / (1 + exp(-EVAL_SCALE * difference)).
EVAL_SCALE = 1.0
#: How much each unit type counts in a faction's force (the bots' judgement).
TYPE_WEIGHT: dict[str, float] = {"at_at": 1.5, "snowspeeders": 1.0, "rebel_artillery": 1.0, "snowtroopers": 0.8,
                                 "echo_troopers": 0.8, "probe_droids": 0.5}
#: A progress route that is not the leading one still counts this much (several ways to win).
SECOND_ROUTE = 0.3
#: Progress of a hex objective (or structure) a unit stands next to: a share of its value (position term).
APPROACH_SHARE = 0.15
#: What standing on a hex the other side wants (a medal or sudden-death hex: a unit there keeps it off) is worth,
#: as a share of that hex's value to the other side (the bots' judgement).
GUARD_SHARE = 0.5
#: The search's evaluation (``position``) counts the other side's objective hexes a faction stands on.
GUARD_IN_EVAL = False
#: Chance that an enemy unit in reach attacks a given unit next turn (threat estimates).
P_ORDERED = 0.5
#: An attack's value on a unit that holds a temporary-medal objective counts the medal its side loses when the
#: unit is eliminated (HOTH-OBJ-TEMP-2: leaving the hex for any reason, elimination included, loses it), as a
#: retreat off the hex already did.
COUNT_HELD_ON_KILL = True


@lru_cache(maxsize=None)
def _pmf(n: int, p6: int) -> tuple[float, ...]:
    """Binomial P(k successes in n dice) with a success chance of p6/6 per die."""
    p = p6 / 6.0
    return tuple(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=None)
def _faces(conv: tuple) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Die faces after a card's conversions (HOTH-CARD-7): for the roll and for an AT-AT confirmation."""
    return convert(DIE_FACES, conv), convert(DIE_FACES, conv, confirmation=True)


def count6(faces: tuple[str, ...], symbols) -> int:
    return sum(1 for f in faces if f in symbols)


class Scales:
    """Per-scenario numbers (built once per scenario object)."""

    def __init__(self, state: HothState):
        sc = state.scenario
        assert sc is not None
        self.sc = sc
        self.need = {f: sc.side(f).victory_medals for f in ("imperial", "rebel")}
        self.force = {f: sum(TYPE_WEIGHT[u.unit] for u in sc.units if u.faction == f) or 1.0
                      for f in ("imperial", "rebel")}
        self.sudden: dict[str, list[SuddenDeath]] = {"imperial": [], "rebel": []}
        for ob in sc.objectives:
            if isinstance(ob, SuddenDeath):
                self.sudden[ob.faction].append(ob)
        #: sudden-death "eliminate all X" counts at the start (for a share per unit)
        self.elim_total: dict[str, int] = {}
        for f, obs in self.sudden.items():
            for ob in obs:
                if isinstance(ob.condition, UnitsEliminated):
                    types = ob.condition.unit_types
                    self.elim_total[ob.id] = sum(1 for u in sc.units if u.faction != f
                                                 and (not types or u.unit in types)) or 1
        self.structs = {s.id: s for s in sc.structures}
        #: kill_gain by (unit type, faction, figures, start, by): a function of the scenario only
        self.kill_memo: dict[tuple, float] = {}
        #: attack values on units by everything they depend on (see attack_value)
        self.attack_memo: dict[tuple, float] = {}
        self.perm = [ob for ob in sc.objectives if isinstance(ob, PermanentMedal)]
        self.temp = [ob for ob in sc.objectives if isinstance(ob, TemporaryMedal)]

    def medal(self, faction: str) -> float:
        """Progress of one medal for ``faction`` (0 when it cannot win on medals)."""
        n = self.need[faction]
        return K_PROGRESS / n if n else 0.0


_SCALES: dict[int, tuple[object, Scales]] = {}


def scales(state: HothState) -> Scales:
    sc = state.scenario
    hit = _SCALES.get(id(sc))
    if hit is not None and hit[0] is sc:
        return hit[1]
    if len(_SCALES) > 64:
        _SCALES.clear()
    s = Scales(state)
    _SCALES[id(sc)] = (sc, s)
    return s


def kill_gain(state: HothState, u: UnitState, by: str, sc: Scales | None = None) -> float:
    """Progress ``by`` gains when ``u`` is eliminated: medals (HOTH-ELIM-2..4), sudden death, force."""
    sc = sc or scales(state)
    key = (u.unit, u.faction, u.figures, u.start, by)
    g = sc.kill_memo.get(key)
    if g is None:
        g = sc.kill_memo[key] = _kill_gain(u, by, sc)
    return g


def _kill_gain(u: UnitState, by: str, sc: Scales) -> float:
    g = sc.medal(by) * medals_for(sc.sc, by, u.unit)[0]
    for ob in sc.sudden[by]:
        c = ob.condition
        if isinstance(c, UnitsEliminated) and (not c.unit_types or u.unit in c.unit_types):
            g += K_PROGRESS / sc.elim_total[ob.id]
    g += K_FORCE * TYPE_WEIGHT[u.unit] * (0.5 + 0.5 * u.figures / max(1, u.start)) / sc.force[u.faction]
    return g


def figure_gain(u: UnitState, sc: Scales) -> float:
    """Progress of one figure lost without the unit being eliminated (the force term)."""
    return K_FORCE * TYPE_WEIGHT[u.unit] * 0.5 / (max(1, u.start) * sc.force[u.faction])


def structure_gain(state: HothState, sid: str, by: str, sc: Scales | None = None) -> float:
    """Progress ``by`` gains when structure ``sid`` is destroyed (HOTH-STRUCT-6, HOTH-OBJ-SUDDEN-2)."""
    sc = sc or scales(state)
    sdef = sc.structs.get(sid)
    if sdef is None:
        return 0.0
    g = sc.medal(by) if sdef.medal_to == by else 0.0
    for ob in sc.sudden[by]:
        c = ob.condition
        if isinstance(c, StructuresDestroyed) and sid in c.structures:
            left = sum(1 for s in c.structures if not state.structures[s].destroyed) if all(
                s in state.structures for s in c.structures) else len(c.structures)
            g += K_PROGRESS / max(1, left)
    return g


def attack_value(state: HothState, attacker: UnitState, target_id: str, dice: int, conv: tuple = (),
                 struct_symbols: tuple[str, ...] | None = None, sc: Scales | None = None) -> float:
    """Expected progress of an attack of ``dice`` dice (HOTH-HIT-1..5, HOTH-STRUCT-5, HOTH-RETREAT-6)."""
    if dice <= 0:
        return 0.0
    sc = sc or scales(state)
    faces, conf_faces = _faces(conv)
    by = attacker.faction
    tgt = state.units.get(target_id)
    if tgt is None:
        st = state.structures.get(target_id)
        sdef = sc.structs.get(target_id)
        if st is None or st.destroyed or sdef is None:
            return 0.0
        symbols = struct_symbols if struct_symbols is not None else tuple(sdef.destroyed_by)
        s6 = count6(faces, symbols)
        return (1 - (1 - s6 / 6.0) ** dice) * structure_gain(state, target_id, by, sc)
    held_temp = held_medals(state, tgt, sc) if sc.temp else 0.0
    on_baseline = tgt.hex[1] == board.baseline_row(sc.sc.south == tgt.faction)
    key = (tgt.unit, tgt.faction, tgt.figures, tgt.start, by, dice, conv, on_baseline, held_temp)
    v = sc.attack_memo.get(key)
    if v is None:
        v = sc.attack_memo[key] = _unit_attack_value(tgt, by, dice, faces, conf_faces, on_baseline, held_temp, sc)
    return v


def held_medals(state: HothState, tgt: UnitState, sc: Scales) -> float:
    """Medals of the temporary objectives ``tgt`` holds by standing on them (HOTH-OBJ-TEMP-1)."""
    m = 0.0
    for ob in sc.temp:
        if tuple(ob.hex) == tgt.hex and ob.faction == tgt.faction and ob.id in state.held:
            m += ob.medals
    return m


def _unit_attack_value(tgt: UnitState, by: str, dice: int, faces: tuple[str, ...], conf_faces: tuple[str, ...],
                       on_baseline: bool, held_temp: float, sc: Scales) -> float:
    spec = UNIT_SPECS[tgt.unit]
    p6 = count6(faces, spec.hit_by)
    pmf = _pmf(dice, p6)
    kg = kill_gain(None, tgt, by, sc)  # type: ignore[arg-type]
    if COUNT_HELD_ON_KILL and held_temp:
        # an eliminated unit leaves its hex: the temporary medal it held is lost at once (HOTH-OBJ-TEMP-2)
        kg += held_temp * sc.medal(tgt.faction)
    if spec.confirmation_roll:  # HOTH-HIT-5: each hit is confirmed by an explosion
        q = count6(conf_faces, ("explosion",)) / 6.0
        return sum(pk * (1 - (1 - q) ** k) for k, pk in enumerate(pmf)) * kg
    fg = figure_gain(tgt, sc)
    F = tgt.figures
    v = 0.0
    for k, pk in enumerate(pmf):
        v += pk * (kg if k >= F else k * fg)
    if not spec.ignores_retreat:
        r6 = count6(faces, ("retreat",))
        v += r6 * dice / 6.0 * (fg if on_baseline else 0.25 * fg)  # HOTH-RETREAT-6: a blocked step costs a figure
        if held_temp:  # a retreat off a held temporary objective loses its medal (HOTH-OBJ-TEMP-2)
            v += retreat_off_chance(dice, p6, r6, F if COUNT_HELD_ON_KILL else None) * held_temp * sc.medal(tgt.faction)
    return v


def retreat_off_chance(dice: int, p6: int, r6: int, figures: int | None) -> float:
    """Chance that a roll of ``dice`` dice (``p6``/6 of a die hits the unit, ``r6``/6 is a retreat flag, the two
    apart) makes the unit retreat (HOTH-RETREAT-1) without eliminating it: at least one flag among the dice that
    are not hits, fewer than ``figures`` hits. ``figures`` None: every roll with a flag (the elimination not
    counted apart)."""
    p, r = p6 / 6.0, r6 / 6.0
    if figures is None:
        return 1 - (1 - r) ** dice
    return sum(math.comb(dice, k) * p ** k * ((1 - p) ** (dice - k) - (1 - p - r) ** (dice - k))
               for k in range(min(figures, dice + 1)))


def hits_on(state: HothState, target_id: str, dice: int, conv: tuple = ()) -> float:
    """Expected hits of ``dice`` dice on a unit (HOTH-HIT-2); 0 for a structure."""
    tgt = state.units.get(target_id)
    if tgt is None or dice <= 0:
        return 0.0
    return dice * count6(_faces(conv)[0], UNIT_SPECS[tgt.unit].hit_by) / 6.0


def focus_value(state: HothState, tgt: UnitState, by: str, hits: float, sc: Scales | None = None) -> float:
    """The value for ``by`` of ``hits`` expected hits on ``tgt`` from several attacks together, the hits
    counted as a Poisson number (attacks on one unit add up: HOTH-HIT-3, HOTH-ELIM-1)."""
    sc = sc or scales(state)
    kg = kill_gain(state, tgt, by, sc)
    if COUNT_HELD_ON_KILL and sc.temp:
        kg += held_medals(state, tgt, sc) * sc.medal(tgt.faction)  # HOTH-OBJ-TEMP-2 (see _unit_attack_value)
    if hits <= 0:
        return 0.0
    if UNIT_SPECS[tgt.unit].confirmation_roll:  # HOTH-HIT-5: each hit is confirmed by an explosion (1 in 6)
        return (1.0 - math.exp(-hits / 6.0)) * kg
    fg = figure_gain(tgt, sc)
    pk = math.exp(-hits)
    below = 0.0
    losses = 0.0
    for k in range(tgt.figures):
        below += pk
        losses += k * pk
        pk *= hits / (k + 1)
    return (1.0 - below) * kg + losses * fg


def expected_dice(attacker_unit: str, distance: int, defender: UnitState, terrain_at_defender: str | None,
                  attacker_on_ridge: bool = False) -> int:
    """Dice of a plain attack at ``distance`` (HOTH-RANGE-2, HOTH-MOD-2/4), no card bonus: for threat estimates."""
    s = UNIT_SPECS[attacker_unit]
    if distance < 1 or distance > len(s.attack):
        return 0
    n = s.attack[distance - 1]
    dspec = UNIT_SPECS[defender.unit]
    if dspec.terrain_protection:
        minus, _ = protection(terrain_at_defender, s.kind, attacker_on_ridge, dspec.kind == "infantry", False)
        n -= minus
    return max(0, n)


def progress(state: HothState, faction: str, sc: Scales | None = None) -> float:
    """How far ``faction`` is on its ways to victory (medals, sudden death), in progress units."""
    sc = sc or scales(state)
    routes = []
    need = sc.need[faction]
    if need:
        routes.append(K_PROGRESS * min(1.0, state.medals.get(faction, 0) / need))
    for ob in sc.sudden[faction]:
        c = ob.condition
        if isinstance(c, StructuresDestroyed) and c.structures:
            done = sum(1 for s in c.structures if s in state.structures and state.structures[s].destroyed)
            routes.append(K_PROGRESS * done / len(c.structures))
        elif isinstance(c, HexesOccupied) and c.hexes:
            at = {u.hex: u.faction for u in state.units.values()}
            done = sum(1 for h in c.hexes if at.get(tuple(h)) == faction)
            routes.append(K_PROGRESS * 0.5 * done / len(c.hexes))  # occupying is not keeping
        elif isinstance(c, UnitsEliminated):
            left = sum(1 for u in state.units.values() if u.faction != faction
                       and (not c.unit_types or u.unit in c.unit_types))
            total = sc.elim_total[ob.id]
            routes.append(K_PROGRESS * max(0, total - left) / total)
    if not routes:
        return 0.0
    routes.sort(reverse=True)
    return routes[0] + SECOND_ROUTE * sum(routes[1:])


def force(state: HothState, faction: str, sc: Scales | None = None) -> float:
    sc = sc or scales(state)
    tot = 0.0
    for u in state.units.values():
        if u.faction == faction:
            tot += TYPE_WEIGHT[u.unit] * (0.5 + 0.5 * u.figures / max(1, u.start))
    return K_FORCE * tot / sc.force[faction]


def goals(state: HothState, faction: str, sc: Scales | None = None) -> list[tuple[tuple[int, int], float, bool]]:
    """Hexes ``faction`` wants to reach: (hex, progress value, reach by standing on it (True) or by range)."""
    sc = sc or scales(state)
    out: list[tuple[tuple[int, int], float, bool]] = []
    for ob in sc.perm:
        if ob.faction == faction and ob.id not in state.captured:
            out.append((tuple(ob.hex), sc.medal(faction) * ob.medals, True))
    for ob in sc.temp:
        if ob.faction == faction:
            out.append((tuple(ob.hex), sc.medal(faction) * ob.medals, True))
    for ob in sc.sudden[faction]:
        c = ob.condition
        if isinstance(c, HexesOccupied):
            for h in c.hexes:
                out.append((tuple(h), K_PROGRESS / max(1, len(c.hexes)), True))
    for sid, sdef in sc.structs.items():
        st = state.structures.get(sid)
        if st is not None and not st.destroyed and sdef.attackable and sdef.owner != faction:
            g = structure_gain(state, sid, faction, sc)
            if g > 0:
                out.append((st.hex, g, False))
    return out


def guards(state: HothState, faction: str, sc: Scales | None = None) -> list[tuple[tuple[int, int], float, bool]]:
    """Hexes the other side wants to stand on (its uncaptured permanent medals, its temporary medals, its
    sudden-death hexes: HOTH-OBJ-PERM-3, HOTH-OBJ-TEMP-1, HOTH-OBJ-SUDDEN-1) that ``faction`` denies by standing on
    them (one unit a hex), as ``goals`` entries worth ``GUARD_SHARE`` of the other side's value."""
    sc = sc or scales(state)
    return [(h, GUARD_SHARE * value, True) for h, value, stand in goals(state, other(faction), sc) if stand]


def position(state: HothState, faction: str, sc: Scales | None = None) -> float:
    """Closeness of the faction's units to the hexes it wants (a small share of their value), and the other
    side's objective hexes it stands on (``GUARD_IN_EVAL``)."""
    sc = sc or scales(state)
    own = [u for u in state.units.values() if u.faction == faction]
    if not own:
        return 0.0
    v = 0.0
    if GUARD_IN_EVAL:
        held = {u.hex for u in own}
        for h, value, _ in guards(state, faction, sc):
            if h in held:
                v += value
    for h, value, stand in goals(state, faction, sc):
        best = 99
        for u in own:
            s = UNIT_SPECS[u.unit]
            if stand and s.move_max == 0:
                continue
            d = DISTANCES[u.hex][h] - (0 if stand else len(s.attack))
            best = min(best, max(0, d))
        if best < 99:
            v += APPROACH_SHARE * value * max(0.0, 1.0 - best / 6.0)
    return v


def score(state: HothState, faction: str, sc: Scales | None = None) -> float:
    """The position of ``faction`` minus its opponent's, in progress units."""
    sc = sc or scales(state)
    o = other(faction)
    return (progress(state, faction, sc) - progress(state, o, sc) + force(state, faction, sc) - force(state, o, sc)
            + position(state, faction, sc) - position(state, o, sc))


def evaluate(state: HothState, faction: str) -> float:
    """Win chance of ``faction`` in [0, 1]: 1/0 once the game is won, else the logistic of :func:`score`."""
    if state.winner is not None:
        return 1.0 if state.winner == faction else 0.0
    return 1.0 / (1.0 + math.exp(-EVAL_SCALE * score(state, faction)))
