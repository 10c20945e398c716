"""Attacks as the Battle of Hoth bots weigh them: the expected gain of an attack (hits, eliminations, medals,
structures, retreats), the best attack from a hex, every attack the seat's units may still make this step,
and the attack step's commands ranked by their gain."""
from __future__ import annotations

import msgspec
from domain.hoth import commands as C
from domain.hoth.board import DISTANCES as DIST
from domain.hoth.combat import conversions, plan_attack, plan_special, special_attack, structure_symbols
from domain.hoth.context import Snapshot, snapshot
from domain.hoth.state import HothState, UnitState, faction_of
from domain.hoth.turns import all_attacks
from domain.hoth.units import UNIT_SPECS

from .gains import Act, Pick, combined
from .values import Scales, _faces, attack_value, count6, expected_dice, hits_on, kill_gain, scales, structure_gain

replace = msgspec.structs.replace


def attack_gain(state: HothState, snap: Snapshot, u: UnitState, target: str, special: bool = False,
                sc: Scales | None = None) -> float:
    plan = (plan_special if special else plan_attack)(state, snap, u, target)
    if not hasattr(plan, "dice"):
        return 0.0
    sc = sc or scales(state)
    if not special:
        return plan_value(state, u, target, plan.dice, sc)
    tgt = state.units.get(target)
    if tgt is None:
        return 0.0
    # a special attack destroys outright on its symbols (card effect special_attack)
    sp = special_attack(state, u.id)
    if sp is None:
        return 0.0
    s6 = count6(_faces(conversions(state, u.id))[0], sp.destroys_on)
    return (1 - (1 - s6 / 6.0) ** plan.dice) * kill_gain(state, tgt, u.faction, sc)


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
        v = plan_value(state, uu, tid, plan.dice, sc)
        if v > best:
            best, target, dice = v, tid, plan.dice
    return best, target, dice


def plan_value(state: HothState, u: UnitState, tid: str, dice: int, sc: Scales) -> float:
    """The expected gain of a plain attack of ``dice`` dice on ``tid``: the attacker's die conversions, and a
    structure's symbols that destroy it (``values.attack_value``)."""
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
            g = plan_value(state, u, tid, plan.dice, sc)
            hits = hits_on(state, tid, plan.dice, conversions(state, uid))
        out.setdefault(uid, {})[(tid, special)] = (g, tid, target_value(state, tid, f, sc), hits)
    return out


def attack_picks(state: HothState, seat: str, cmds: list) -> list[Pick]:
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
