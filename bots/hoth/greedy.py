"""The greedy Battle of Hoth policy: best expected gain now, objectives, safe ground. Fast; also the playout
policy of the search bot.

It looks one step ahead with the values of ``values.py``: the card that orders the units with the most
to do, the units with the most to do, the hex that gives the best attack plus objectives minus the enemy's
threat there (enemy dice that can reach the hex next turn, each enemy unit ordered with chance
``P_ORDERED``), the attack with the best expected gain (hits, eliminations, medals, structures, retreats
into a blocked baseline), re-rolls of the dice that did not score, the safest retreat path.

:func:`choose` works on a full engine state (for a bot: a state sampled by ``knowledge.py``; of the hidden
cards it reads only the seat's own hand) and returns one of the commands it is given, with its expected
gain. ``fast=True`` (playouts) looks at fewer destinations per unit.

Over 500 lines on purpose: one policy, whose value terms (cards, orders, destinations, attacks,
retreats) are weighed against each other; split, the weights would be read apart from what they weigh.
"""
from __future__ import annotations

import math
from typing import Any

import msgspec

from domain.hoth import board
from domain.hoth.board import DISTANCES as DIST
from domain.hoth import commands as C
from domain.hoth.cards import (
    Bombard, Card, DiscardAndDraw, DrawThenDiscard, ExtraDice, Heal, MoveAllowance, MoveBonus,
    PlaceUnit, Reroll, TreatAsTerrain,
)
from domain.hoth.combat import conversions, convert, plan_attack, plan_special, special_attack, structure_symbols
from domain.hoth.context import Snapshot, snapshot, unit_sections
from domain.hoth.movement import allowance
from domain.hoth.orders import copies_opponent, group_fits, resolve_slots
from domain.hoth.turns import all_attacks
from domain.hoth.resolution import SUPPORT_REROLL
from domain.hoth.state import HothState, UnitState, faction_of
from domain.hoth.team import other
from domain.hoth.terrain import STOP_TERRAIN, protection
from domain.hoth.units import UNIT_SPECS

from .values import (
    P_ORDERED, Scales, _faces, attack_value, count6, expected_dice, figure_gain, focus_value, goals, guards, hits_on,
    kill_gain, scales, structure_gain,
)

replace = msgspec.structs.replace

#: Below this expected gain a move is not worth making (keeps units in place, e.g. an E-Web set).
MIN_MOVE_GAIN = 0.02
#: Per hex of distance to the nearest goal or enemy in reach, what a unit loses (it should close in).
APPROACH = 0.04
#: What an attack from a hex next turn is worth now (the unit may not be ordered; sight is not checked).
NEXT_SHARE = 0.3
#: Destinations looked at closely (sight and dice) per unit: in a playout, and for the greedy bot itself.
FAST_DESTINATIONS = 2
FULL_DESTINATIONS = 10


class Pick(msgspec.Struct, frozen=True):
    command: Any
    gain: float


# -- threat: enemy dice that can reach a hex next turn --------------------------------------------------

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
        #: (hex, unit type, goals) -> stand value (see _stand_value)
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


# -- attacks ---------------------------------------------------------------------------------------------

def attack_gain(state: HothState, snap: Snapshot, u: UnitState, target: str, special: bool = False,
                sc: Scales | None = None) -> float:
    plan = (plan_special if special else plan_attack)(state, snap, u, target)
    if not hasattr(plan, "dice"):
        return 0.0
    sc = sc or scales(state)
    conv = conversions(state, u.id)
    sym = None
    if target in state.structures:
        sdef = sc.structs.get(target)
        sym = structure_symbols(state, u.id, tuple(sdef.destroyed_by)) if sdef else None
    if special:
        tgt = state.units.get(target)
        if tgt is None:
            return 0.0
        # a special attack destroys outright on its symbols (card effect special_attack)
        sp = special_attack(state, u.id)
        if sp is None:
            return 0.0
        s6 = count6(_faces(conv)[0], sp.destroys_on)
        return (1 - (1 - s6 / 6.0) ** plan.dice) * kill_gain(state, tgt, u.faction, sc)
    return attack_value(state, u, target, plan.dice, conv, sym, sc)


def _targets_near(state: HothState, u: UnitState, h: tuple[int, int], rng: int, sc: Scales) -> list[str]:
    out = [e.id for e in state.units.values() if e.faction != u.faction and DIST[h][e.hex] <= rng]
    for sid, sdef in sc.structs.items():
        st = state.structures.get(sid)
        if (st is not None and not st.destroyed and sdef.attackable and sdef.owner != u.faction
                and DIST[h][st.hex] <= rng):
            out.append(sid)
    return out


def best_attack_from(state: HothState, snap: Snapshot, u: UnitState, h: tuple[int, int], sc: Scales,
                     fast: bool = False) -> tuple[float, str | None, int]:
    """The best expected gain of a plain attack by ``u`` standing on ``h`` (sight as the board stands now), its
    target and its dice.

    ``fast``: the dice from range and the target's terrain only (``values.expected_dice``: no card bonus,
    no scouts); else the engine's own attack plan (``plan_attack``)."""
    spec = UNIT_SPECS[u.unit]
    best, target, dice = 0.0, None, 0
    if fast:
        on_ridge = snap.terrain.get(h) == "ridge"
        rng = len(spec.attack)
        dh = DIST[h]
        for e in state.units.values():
            if e.faction == u.faction:
                continue
            d = dh[e.hex]
            if d <= rng and snap.clear(h, e.hex):
                n = expected_dice(u.unit, d, e, snap.terrain.get(e.hex), on_ridge)
                if n > 0:
                    v = attack_value(state, u, e.id, n, sc=sc)
                    if v > best:
                        best, target, dice = v, e.id, n
        # the enemy's attackable structures in range and sight (HOTH-STRUCT-5): a sudden-death objective is
        # often the best target there is, and the other side's threat to it is what its defence is about
        for sid, sdef in sc.structs.items():
            st = state.structures.get(sid)
            if st is None or st.destroyed or not sdef.attackable or sdef.owner == u.faction:
                continue
            d = dh[st.hex]
            if 1 <= d <= rng and snap.clear(h, st.hex):
                v = attack_value(state, u, sid, spec.attack[d - 1], sc=sc)
                if v > best:
                    best, target, dice = v, sid, spec.attack[d - 1]
        return best, target, dice
    uu = u if h == u.hex else replace(u, hex=h)
    for tid in _targets_near(state, u, h, len(spec.attack), sc):
        plan = plan_attack(state, snap, uu, tid)
        if not hasattr(plan, "dice"):
            continue
        v = _plan_value(state, uu, tid, plan.dice, sc)
        if v > best:
            best, target, dice = v, tid, plan.dice
    return best, target, dice


def _plan_value(state: HothState, u: UnitState, tid: str, dice: int, sc: Scales) -> float:
    conv = conversions(state, u.id)
    sym = None
    if tid in state.structures:
        sdef = sc.structs.get(tid)
        sym = structure_symbols(state, u.id, tuple(sdef.destroyed_by)) if sdef else None
    return attack_value(state, u, tid, dice, conv, sym, sc)


def target_value(state: HothState, tid: str, by: str, sc: Scales) -> float:
    """The whole value of a target: its elimination (units) or destruction (structures)."""
    u = state.units.get(tid)
    if u is not None:
        return kill_gain(state, u, by, sc)
    return structure_gain(state, tid, by, sc)


# -- unit activity (which card, which units) -------------------------------------------------------------

#: (value, target, the target's whole value, expected hits on a target unit)
Act = tuple[float, "str | None", float, float]
_ACTIVITY: dict[tuple, tuple[tuple, dict[str, Act]]] = {}
#: What an attack that needs a move first is worth (sight unknown), and reaching a hex objective.
LATER_SHARE = 0.6
GOAL_SHARE = 0.5
#: Every unit ordered is worth a little (it may still move to a better hex).
ORDER_VALUE = 0.05


def _enemy_targets(state: HothState, faction: str, sc: Scales) -> list[tuple[str, tuple[int, int]]]:
    out = [(e.id, e.hex) for e in state.units.values() if e.faction != faction]
    for sid, sdef in sc.structs.items():
        st = state.structures.get(sid)
        if st is not None and not st.destroyed and sdef.attackable and sdef.owner != faction:
            out.append((sid, st.hex))
    return out


def activity(state: HothState, faction: str, fast: bool = False) -> dict[str, Act]:
    """How much each own unit has to do this turn (attack now, attack after a move, reach a hex objective),
    its target (a unit, a structure, ``"hex:x,r"``, or None) and the target's whole value.

    Judged as if no unit were ordered yet (no card bonus), so the value depends only on the board: the
    units, structures, lasting effects and objectives (the cache key; the objects are kept with it)."""
    key = (id(state.units), id(state.structures), id(state.lasting), state.held, state.captured, faction, fast)
    hit = _ACTIVITY.get(key)
    if hit is not None and hit[0][0] is state.units and hit[0][1] is state.structures and hit[0][2] is state.lasting:
        return hit[1]
    board_only = state
    if state.turn is not None and (state.turn.ordered or state.turn.targets):
        board_only = replace(state, turn=replace(state.turn, ordered=(), targets={}))
    sc = scales(state)
    snap = snapshot(board_only)
    gl = goals(state, faction, sc)
    out: dict[str, Act] = {}
    for u in state.units.values():
        if u.faction != faction:
            continue
        s = UNIT_SPECS[u.unit]
        best, target, dice = best_attack_from(board_only, snap, u, u.hex, sc, fast)
        hits = hits_on(state, target, dice) if target is not None else 0.0
        full = target_value(state, target, faction, sc) if target is not None else 0.0
        if s.move_attack > 0:
            # after a move: the dice at the distance it can close to (no sight: discounted)
            for tid, th in _enemy_targets(state, faction, sc):
                d = DIST[u.hex][th]
                dd = max(1, d - s.move_attack)
                if dd <= len(s.attack) and d > len(s.attack):
                    v = LATER_SHARE * attack_value(state, u, tid, s.attack[dd - 1], sc=sc)
                    if v > best:
                        best, target, full = v, tid, target_value(state, tid, faction, sc)
                        hits = LATER_SHARE * hits_on(state, tid, s.attack[dd - 1])
        if s.move_max > 0:
            for h, value, stand in gl:
                if stand and DIST[u.hex][h] <= s.move_max and GOAL_SHARE * value > best:
                    best, target, full, hits = GOAL_SHARE * value, f"hex:{h[0]},{h[1]}", value, 0.0
        out[u.id] = (best + ORDER_VALUE, target, full, hits)
    if len(_ACTIVITY) > 512:
        _ACTIVITY.clear()
    _ACTIVITY[key] = ((state.units, state.structures, state.lasting), out)
    return out


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


def card_value(state: HothState, faction: str, card: Card, act: dict[str, Act] | None = None) -> float:
    """What playing ``card`` now is worth: the units it orders (best first), its bonuses and actions."""
    act = act if act is not None else activity(state, faction)
    eff, mirrored = card, False
    if copies_opponent(card):
        last = state.last_card.get(other(faction))
        if last is None or last not in state.cards:
            return 0.0
        eff, mirrored = state.cards[last], True
    slots = resolve_slots(state, faction, eff, mirrored)
    left = [s.count for s in slots]
    chosen: list[Act] = []
    for uid in sorted(act, key=lambda x: act[x][0], reverse=True):
        u = state.units[uid]
        for i, s in enumerate(slots):
            if left[i] <= 0 or not group_fits(u, s.unit_classes, s.unit_types):
                continue
            if s.sections and unit_sections(state, u).isdisjoint(s.sections):
                continue
            left[i] -= 1
            chosen.append(act[uid])
            break
    total = combined(state, faction, chosen)
    bonus = 1.0
    for e in eff.effects:
        if isinstance(e, ExtraDice):
            bonus += 0.25 * e.dice
        elif isinstance(e, Reroll):
            bonus += 0.15
        elif isinstance(e, (MoveBonus, MoveAllowance)):
            bonus += 0.05
        elif isinstance(e, DiscardAndDraw):
            total += 0.2
        elif isinstance(e, (DrawThenDiscard, PlaceUnit)):
            total += 0.15
    return total * bonus


def hand_values(state: HothState, seat: str, fast: bool = False) -> dict[str, float]:
    f = faction_of(seat)
    act = activity(state, f, fast)
    return {c: card_value(state, f, state.cards[c], act) for c in dict.fromkeys(state.hands.get(seat, ()))
            if state.cards[c].kind != "support"}


def expected_attacks(state: HothState, seat: str) -> float:
    """The attack step to come in expectation: each unit that may attack makes its best attack (the engine's
    attack list and dice, the die faces' chances), attacks on one target added up (``combined``)."""
    return combined(state, faction_of(seat), list(attack_plan(state, seat).values()))


def attack_plan(state: HothState, seat: str) -> dict[str, Act]:
    """Each unit that may still attack this step: its best attack (the engine's attack list and dice)."""
    best: dict[str, Act] = {}
    for uid, acts in attack_acts(state, seat).items():
        for a in acts.values():
            if a[0] > best.get(uid, (0.0,))[0]:
                best[uid] = a
    return best


def attack_acts(state: HothState, seat: str) -> dict[str, dict[tuple[str, bool], Act]]:
    """Every attack the seat's units may still make this step, by unit and (target, special): its expected gain,
    target, the target's whole value and the expected hits on a target unit (the engine's attack list and dice)."""
    sc = scales(state)
    snap = snapshot(state)
    f = faction_of(seat)
    out: dict[str, dict[tuple[str, bool], Act]] = {}
    for uid, tid, special in all_attacks(state):
        u = state.units[uid]
        if special:
            g, hits = attack_gain(state, snap, u, tid, True, sc), 0.0
        else:
            plan = plan_attack(state, snap, u, tid)
            if not hasattr(plan, "dice"):
                continue
            g = _plan_value(state, u, tid, plan.dice, sc)
            hits = hits_on(state, tid, plan.dice, conversions(state, uid))
        out.setdefault(uid, {})[(tid, special)] = (g, tid, target_value(state, tid, f, sc), hits)
    return out


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


def reply_value(state: HothState, seat: str) -> float:
    """What ``seat`` can gain on its coming turn: the value of its best command card now (an estimate)."""
    vals = hand_values(state, seat, fast=True)
    return max(vals.values(), default=0.0)


# -- destinations ----------------------------------------------------------------------------------------

def _stand_value(state: HothState, u: UnitState, h: tuple[int, int], gl: tuple, fo: Foes) -> float:
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


def _stand_goals(state: HothState, faction: str, sc: Scales) -> tuple:
    """The hexes a unit's stand value looks at: the faction's goals and, with ``GREEDY_GUARD``, its guards."""
    gl = goals(state, faction, sc)
    if GREEDY_GUARD:
        gl = gl + guards(state, faction, sc)
    return tuple(gl)


def dest_value(state: HothState, snap: Snapshot, u: UnitState, h: tuple[int, int], sc: Scales, gl: tuple, fo: Foes,
               can_attack_after: bool, fast: bool = False) -> float:
    v = _stand_value(state, u, h, gl, fo) - threat(state, u, h, snap.terrain, sc, fo)
    if can_attack_after:
        v += best_attack_from(state, snap, u, h, sc, fast)[0]
    return v


def _move_picks(state: HothState, seat: str, cmds: list, fast: bool) -> list[Pick]:
    """Each move: the best attack from the new hex (when the unit may still attack), objectives, closing in,
    minus the enemy's threat there, compared with staying. Only the best few hexes by everything but the
    attack (``FAST_DESTINATIONS``, or ``FULL_DESTINATIONS``) are looked at with sight and dice."""
    sc = scales(state)
    snap = snapshot(state)
    t = state.turn
    gl = _stand_goals(state, faction_of(seat), sc)
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
        pre = [(_stand_value(state, u, m.path[-1], gl, fo) - threat(state, u, m.path[-1], snap.terrain, sc, fo), m)
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


# -- the steps of a turn -------------------------------------------------------------------------------

def _play_picks(state: HothState, seat: str, cmds: list, fast: bool = False) -> list[Pick]:
    vals = hand_values(state, seat, fast)
    return [Pick(c, vals.get(c.card, 0.0)) for c in cmds
            if isinstance(c, C.PlayCard)]


def _order_picks(state: HothState, seat: str, cmds: list, fast: bool = False) -> list[Pick]:
    act = activity(state, faction_of(seat), fast)
    fits: dict[int, int] = {}
    for c in cmds:
        if isinstance(c, C.OrderUnit):
            fits[c.slot] = fits.get(c.slot, 0) + 1
    out = []
    for c in cmds:
        if isinstance(c, C.OrderUnit):
            # ordering is never worse than not ordering; among slots, the one fewer units can use
            out.append(Pick(c, act[c.unit][0] - 0.001 * fits[c.slot] if c.unit in act else 0.0))
        elif isinstance(c, C.EndOrders):
            out.append(Pick(c, -1.0))
    return out


def _attack_picks(state: HothState, seat: str, cmds: list) -> list[Pick]:
    sc = scales(state)
    snap = snapshot(state)
    out = []
    for c in cmds:
        if isinstance(c, C.Attack):
            g = attack_gain(state, snap, state.units[c.unit], c.target, c.special, sc)
            out.append(Pick(c, g))
        else:  # end_turn / skip_attack: an attack with no gain is not made
            out.append(Pick(c, 0.0))
    return out


def _support_pick(state: HothState, seat: str, cmds: list) -> Pick | None:
    """An own-turn support card (content 3.1, 5.3) when it is worth something now."""
    sc = scales(state)
    snap = snapshot(state)
    f = faction_of(seat)
    best: Pick | None = None
    for c in cmds:
        if not isinstance(c, C.PlaySupport):
            continue
        card = state.cards[c.card]
        g = 0.0
        for e in card.effects:
            if isinstance(e, Bombard) and c.target in state.units:
                g = attack_value(state, UnitState(id="", faction=f, unit="rebel_artillery", hex=(0, 0), figures=1,
                                                  start=1), c.target, e.dice, sc=sc)
            elif isinstance(e, Heal):
                g = figure_gain(state.units[c.target], sc) if c.target in state.units else 0.0
            elif isinstance(e, TreatAsTerrain) and c.target in state.units:
                u = state.units[c.target]
                g = 0.3 * threat(state, u, u.hex, snap.terrain, sc)
            elif isinstance(e, PlaceUnit) and c.hex is not None:
                g = 0.3 - 0.02 * min((board.distance(tuple(c.hex), x.hex) for x in state.units.values()
                                      if x.faction != f), default=6)
            else:
                g = 0.05
        if best is None or g > best.gain:
            best = Pick(c, g)
    return best if best is not None and best.gain > 0.1 else None


# -- pending decisions -----------------------------------------------------------------------------------

def _reroll_pick(state: HothState, seat: str, p: Any, cmds: list) -> Pick:
    ctx = state.attack
    options = [c for c in cmds if isinstance(c, C.Reroll)]
    if ctx is None or len(options) == 1:
        return Pick(options[0], 0.0)
    conv = conversions(state, ctx.attacker)
    counted = convert(ctx.faces, conv)
    tgt = state.units.get(ctx.target)
    if tgt is None:
        sdef = scales(state).structs.get(ctx.target)
        good = set(structure_symbols(state, ctx.attacker, tuple(sdef.destroyed_by))) if sdef else {"explosion"}
    else:
        spec = UNIT_SPECS[tgt.unit]
        good = set(spec.hit_by) | (set() if spec.ignores_retreat else {"retreat"})
    bad = tuple(i for i, f in enumerate(counted) if f not in good)
    if p.which == SUPPORT_REROLL and len(bad) < 2:
        return Pick(C.Reroll(dice=()), 0.0)
    for c in options:
        if tuple(c.dice) == bad:
            return Pick(c, 0.1 * len(bad))
    # "miss" re-rolls: all X results or none
    best = max(options, key=lambda c: len(c.dice))
    return Pick(best, 0.1 * len(best.dice))


def _retreat_pick(state: HothState, p: Any, cmds: list) -> Pick:
    sc = scales(state)
    snap = snapshot(state)
    u = state.units[p.unit]
    gl = _stand_goals(state, u.faction, sc)
    fo = foes(state, u.faction)

    def value(c: Any) -> float:
        h = tuple(c.path[-1]) if c.path else u.hex
        return _stand_value(state, u, h, gl, fo) - threat(state, u, h, snap.terrain, sc, fo)

    best = max(cmds, key=value)
    return Pick(best, value(best))


def _discard_pick(state: HothState, seat: str, p: Any, cmds: list) -> Pick:
    vals = hand_values(state, seat)
    top = max(vals.values(), default=0.0)

    def value(c: Any) -> float:
        if p.which == "exact":
            return -sum(vals.get(x, 0.0) for x in c.cards)
        # discard and draw: weak cards go (a card below half the best one is worth replacing)
        return sum(0.5 * top - vals.get(x, 0.0) for x in c.cards)

    best = max(cmds, key=value)
    return Pick(best, value(best))


def _place_pick(state: HothState, seat: str, cmds: list) -> Pick:
    f = faction_of(seat)

    def value(c: Any) -> float:
        return -min((board.distance(tuple(c.hex), x.hex) for x in state.units.values() if x.faction != f),
                    default=0)

    best = max(cmds, key=value)
    return Pick(best, 0.1)


def _pending_picks(state: HothState, seat: str, cmds: list) -> list[Pick]:
    p = state.pending
    k = p.kind
    if k == "reroll":
        best = _reroll_pick(state, seat, p, cmds)
    elif k == "trench":
        best = Pick(C.IgnoreRetreat(ignore=True), 0.1)
    elif k == "retreat":
        best = _retreat_pick(state, p, cmds)
    elif k == "breakthrough":
        best = Pick(C.Breakthrough(advance=True), 0.1)
    elif k == "breakthrough_attack":
        return _attack_picks(state, seat, cmds)
    elif k == "discard":
        best = _discard_pick(state, seat, p, cmds)
    elif k == "arrange":
        vals = {c: card_value(state, faction_of(seat), state.cards[c]) for c in p.cards}
        best = Pick(max(cmds, key=lambda c: [vals.get(x, 0.0) for x in c.order]), 0.0)
    elif k == "support":
        play = [c for c in cmds if isinstance(c, C.PlaySupport)]
        best = (Pick(play[0], 0.2) if play
                else Pick(cmds[-1], 0.0))
    elif k == "place":
        best = _place_pick(state, seat, cmds)
    else:
        best = Pick(cmds[0], 0.0)
    # the others rank below the choice, in their listed order
    return [best] + [Pick(c, best.gain - 1.0 - 0.001 * i) for i, c in enumerate(cmds) if c != best.command]


def picks(state: HothState, seat: str, cmds: list, fast: bool = False) -> list[Pick]:
    """Every command of ``cmds`` with its greedy value (higher is better)."""
    if state.pending is not None:
        return _pending_picks(state, seat, cmds)
    t = state.turn
    assert t is not None
    out: list[Pick] = []
    if any(isinstance(c, C.PlaySupport) for c in cmds):
        sp = _support_pick(state, seat, cmds)
        if sp is not None:
            out.append(Pick(sp.command, sp.gain + 10.0))  # a support card worth playing goes first
        out += [Pick(c, -5.0) for c in cmds if isinstance(c, C.PlaySupport)
                and (sp is None or c != sp.command)]
        cmds = [c for c in cmds if not isinstance(c, C.PlaySupport)]
    if t.phase == "play":
        out += _play_picks(state, seat, cmds, fast)
    elif t.phase == "order":
        out += _order_picks(state, seat, cmds, fast)
    elif t.phase == "move":
        out += _move_picks(state, seat, cmds, fast)
    else:
        out += _attack_picks(state, seat, cmds)
    return out


def choose(state: HothState, seat: str, cmds: list, fast: bool = False) -> Pick:
    """The greedy choice among ``cmds`` (the seat's legal commands in ``state``); the first listed on a tie."""
    if len(cmds) == 1:
        return Pick(cmds[0], 0.0)
    ps = picks(state, seat, cmds, fast)
    best = ps[0]
    for p in ps[1:]:
        if p.gain > best.gain:
            best = p
    return best


def describe(state: HothState, cmd: Any) -> str:
    """A command in words for a bot's explanation (public facts and the seat's own cards only)."""
    if isinstance(cmd, C.PlayCard):
        return f"plays {state.cards[cmd.card].title}" if cmd.card in state.cards else f"plays {cmd.card}"
    if isinstance(cmd, C.OrderUnit):
        return f"orders {cmd.unit}"
    if isinstance(cmd, C.Move):
        return f"moves {cmd.unit} to {board.label(tuple(cmd.path[-1]))}"
    if isinstance(cmd, C.Attack):
        return f"{cmd.unit} attacks {cmd.target}" + (" (special)" if cmd.special else "")
    if isinstance(cmd, C.Reroll):
        return f"re-rolls {len(cmd.dice)} dice" if cmd.dice else "keeps the roll"
    if isinstance(cmd, C.Retreat):
        return f"retreats to {board.label(tuple(cmd.path[-1]))}" if cmd.path else "retreat"
    if isinstance(cmd, C.IgnoreRetreat):
        return "ignores a retreat in the trench" if cmd.ignore else "does not use the trench"
    if isinstance(cmd, C.Breakthrough):
        return "breaks through" if cmd.advance else "stays"
    if isinstance(cmd, C.DiscardCards):
        return f"discards {len(cmd.cards)} card(s)"
    if isinstance(cmd, C.Reinforce):
        return f"places the new unit at {board.label(tuple(cmd.hex))}"
    if isinstance(cmd, C.PlaySupport):
        return f"plays support {state.cards[cmd.card].title}" if cmd.card in state.cards else "plays support"
    return {"end_orders": "ends the orders", "end_moves": "ends the moves", "end_turn": "ends the turn",
            "skip_attack": "skips the attack", "pass_support": "plays no support card",
            "arrange_deck": "rearranges the deck top"}.get(type(cmd).__struct_config__.tag, "")
