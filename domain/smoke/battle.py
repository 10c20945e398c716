"""Battles: tactics, results, advantage, hits and their allocation, discipline, the end of a battle
(SMOKE-BAT, SMOKE-TAC, SMOKE-RES, SMOKE-ADV, SMOKE-HIT, SMOKE-DISC, SMOKE-END, SMOKE-SR).

Over 500 lines on purpose: a battle is one sequence of the rulebook (tactics, results, advantage, hits,
discipline, its end; SMOKE-BAT..SMOKE-END), each step using the previous one's outcome.
"""
from __future__ import annotations

from typing import Any

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n

from .choices import VILLAGE, choice, cite
from .content import DisciplineBonus, Providence, Slot, Volley
from .events import (
    BattleEnded, BattleRolled, DisciplineTested, HitChoiceOffered, HitsChosen, HitsResolved, TacticPlayed,
)
from .fire import describe, line_of_fire, shortest_weapon
from .formations import formations, in_line_with, rear_partners, touching
from .geometry import EPS, flank_or_rear_position
from .markers import battle_units, covers
from .seat_words import seat_words
from .state import BattleCtx, HitChoice, SmokeState, Unit
from .units import has, profile_of
from .fire import in_fire_contact
from .geometry import box_distance
from .retreat import destroy
from .morale import lose_morale

#: GAP-B-14 (INFERRED): Countermarch "long range" is beyond this fraction of the weapon's range.
LONG_RANGE_FRACTION = 0.5
#: SMOKE-HIT-1: every this many points of result make one hit.
HIT_STEP = 10


def sides_in_battle(state: SmokeState, markers: tuple[str, ...]) -> dict[str, list[Unit]]:
    out: dict[str, list[Unit]] = {s: [] for s in state.sides}
    for uid in battle_units(state, markers):
        u = state.units[uid]
        out[state.armies[u.seat].side].append(u)
    return out


# -- tactics (SMOKE-TAC) -------------------------------------------------------------------
def _receives(state: SmokeState, u: Unit, slot: Slot) -> bool:
    """SMOKE-SR-12: Untrained never receive tactic effects; SMOKE-SR-11: a unit filter (regimental
    guns count as infantry)."""
    if has(state, u, "untrained"):
        return False
    if slot.unit_filter:
        if has(state, u, slot.unit_filter):
            return True
        return slot.unit_filter == "infantry" and has(state, u, "regimental_guns")
    return True


def tactic_units(state: SmokeState, seat: str, slot: Slot) -> tuple[list[Unit], list[Unit]]:
    """(units the player may choose, Veterans that always receive it, SMOKE-SR-7) in this battle."""
    b = state.turn.battle if state.turn else None
    assert b is not None
    mine = [u for u in (state.units[i] for i in battle_units(state, b.markers)) if u.seat == seat]
    elig = [u for u in mine if _receives(state, u, slot)]
    vets = [u for u in elig if has(state, u, "veterans")]
    return [u for u in elig if not has(state, u, "veterans")], vets


def tactic_limit(slot: Slot, d: int) -> int:
    eff = slot.effect
    if isinstance(eff, DisciplineBonus):
        return int(eff.units.value(d))
    return 0


def providence_targets(state: SmokeState, seat: str) -> list[str]:
    """SMOKE-TAC-6: opponent tactics played in this battle that Providence can cancel."""
    b = state.turn.battle if state.turn else None
    if b is None:
        return []
    side = state.armies[seat].side
    out = []
    for p in b.played:
        if p.cancelled or state.armies[p.seat].side == side:
            continue
        s = state.board_of(p.seat).slot(p.slot)
        if s is None or s.moves_units or not s.targets_units:
            continue
        out.append(p.slot)
    return out


def playable(state: SmokeState, seat: str) -> list[tuple[Slot, int]]:
    """SMOKE-TAC-1/2: the tactics with a die that ``seat`` may play in the current battle."""
    t = state.turn
    if t is None or t.battle is None or t.battle.step != "tactics":
        return []
    army = state.armies[seat]
    board = state.board_of(seat)
    active = army.side == t.side
    out = []
    for sid, d in sorted(army.tactics.items()):
        slot = board.slot(sid)
        if slot is None or slot.kind != "tactic":
            continue
        if (slot.when == "active" and not active) or (slot.when == "passive" and active):
            continue
        eff = slot.effect
        if isinstance(eff, Providence):
            if not providence_targets(state, seat):
                continue
        elif isinstance(eff, DisciplineBonus):
            ch, vets = tactic_units(state, seat, slot)
            if not ch and not vets:
                continue
        elif isinstance(eff, Volley):
            ch, vets = tactic_units(state, seat, slot)
            if not ch and not vets:
                continue
        out.append((slot, d))
    return out


def play_tactic(out: Any, seat: str, sid: str, units: tuple[str, ...], target: str | None) -> None:
    st: SmokeState = out.state
    t = st.turn
    assert t is not None and t.battle is not None
    board = st.board_of(seat)
    slot = board.slot(sid)
    if slot is None or slot.kind != "tactic":
        raise RuleViolation("SMOKE-TAC-1", msg("{slot} is not a tactic of {seat}'s action board.",
                                               slot=repr(sid), seat=seat_words(seat)), slot=sid)
    d = st.armies[seat].tactics.get(sid)
    if d is None:
        raise RuleViolation("SMOKE-TAC-1", msg("There is no die on the tactic {slot_name} ({slot}).",
                                               slot_name=slot.name, slot=sid), slot=sid)
    active = st.armies[seat].side == t.side
    if slot.when == "active" and not active:
        raise RuleViolation("SMOKE-TAC-2", msg('{slot_name} is an "active player" tactic: only in your own turn.',
                                               slot_name=slot.name))
    if slot.when == "passive" and active:
        raise RuleViolation("SMOKE-TAC-2", msg('{slot_name} is a "passive player" tactic: only in the opponent\'s '
                                               "turn.", slot_name=slot.name))
    eff = slot.effect
    rb = RulingBuilder().add("SMOKE-TAC-1", msg("{seat} plays {slot_name} (D = {d}) in this battle.",
                                                seat=seat_words(seat), slot_name=slot.name, d=d), slot=sid, d=d)
    effect: dict[str, Any] = {"kind": type(eff).__struct_config__.tag}
    chosen: tuple[str, ...] = ()
    if isinstance(eff, Providence):
        if target is None or target not in providence_targets(st, seat):
            played = [p.slot for p in t.battle.played if st.armies[p.seat].side != st.armies[seat].side]
            raise RuleViolation("SMOKE-TAC-6", msg("Providence cancels one opponent tactic played in this battle "
                                                   "that did not move units and has unit targets; {target} is not "
                                                   "one (played: {played}).",
                                                   target=repr(target), played=', '.join(played) or msg("none")), target=target)
        rb.add("SMOKE-TAC-6", msg("Providence cancels the opponent's tactic {target}.", target=target), target=target)
        if units:
            raise RuleViolation("SMOKE-TAC-1", msg("Providence takes a `target`, not units."), field="units")
    else:
        if target is not None:
            raise RuleViolation("SMOKE-TAC-1", msg("{slot_name} takes no `target`.", slot_name=slot.name), field="target")
        ch, vets = tactic_units(st, seat, slot)
        allowed = {u.id for u in ch}
        if isinstance(eff, DisciplineBonus):
            limit = tactic_limit(slot, d)
            bad = [u for u in units if u not in allowed]
            if bad:
                raise RuleViolation("SMOKE-TAC-5", msg("{bad} cannot receive {slot_name}: only your units in this "
                                                       "battle do (not Untrained; Veterans always do).",
                                                       bad=', '.join(bad), slot_name=slot.name), units=bad)
            if len(set(units)) != len(units):
                raise RuleViolation("SMOKE-TAC-3", msg("A unit is named twice."), field="units")
            if len(units) > limit:
                raise RuleViolation("SMOKE-TAC-3", msg("{slot_name} affects up to {limit} units (D = {d}); {count} "
                                                       "were named.",
                                                       slot_name=slot.name, limit=limit, d=d, count=len(units)), limit=limit)
            chosen = tuple(units) + tuple(v.id for v in vets)
            effect["discipline"] = eff.bonus
            rb.add("SMOKE-TAC-3", msg("Up to {limit} units: {units}.", limit=limit, units=', '.join(units) or msg("none")), limit=limit)
            if vets:
                rb.add("SMOKE-SR-7", msg("Veterans always receive it, outside the limit: {items}.",
                                         items=', '.join(v.id for v in vets)))
        elif isinstance(eff, Volley):
            if units:
                raise RuleViolation("SMOKE-TAC-1", msg("{slot_name} takes no units: it adds to the side's pool.",
                                                       slot_name=slot.name))
            effect["max"] = int(eff.max.value(d))
            effect["per_units"] = eff.per_units
    out.emit(TacticPlayed(seat=seat, slot=sid, d=d, units=chosen, target=target, effect=effect), rb,
             summary=msg("{seat} plays {slot_name}", seat=seat_words(seat), slot_name=slot.name))


# -- results (SMOKE-RES, SMOKE-ADV) ------------------------------------------------------------
def _tactic_slots(state: SmokeState, b: BattleCtx, side: str, kind: type) -> list[tuple[Any, Any, Slot]]:
    out = []
    for p in b.played:
        if p.cancelled or state.armies[p.seat].side != side:
            continue
        s = state.board_of(p.seat).slot(p.slot)
        if s is not None and isinstance(s.effect, kind):
            out.append((p, s.effect, s))
    return out


def _bonus(rule: str, why: Message, dice: int = 1) -> tuple[dict[str, Any], Message]:
    """A bonus die as the log keeps it (its ``why`` as English text) and its reason as a message for the ruling."""
    return {"rule": rule, "dice": dice, "why": why.english()}, why


def _unit_dice(state: SmokeState, u: Unit, targets: list[Unit], active: bool, one_unit_formations: set[str]
               ) -> dict[str, Any] | None:
    """SMOKE-RES-1/2 and the unit's bonus dice (SMOKE-BAT-4, SMOKE-SR), as the log keeps them."""
    got = _unit_dice_said(state, u, targets, active, one_unit_formations)
    return None if got is None else got[0]


def _unit_dice_said(state: SmokeState, u: Unit, targets: list[Unit], active: bool, one_unit_formations: set[str]
                    ) -> tuple[dict[str, Any], list[Message]] | None:
    """SMOKE-RES-1/2 and the unit's bonus dice (SMOKE-BAT-4, SMOKE-SR); beside it, each bonus's reason as a
    message (the dict keeps them as English text, as the log always did)."""
    p = profile_of(state, u)
    contact = [e for e in targets if touching(state, u, e)]
    terrain = state.terrain()
    ub = u.box()
    found: list[tuple[dict[str, Any], Message]] = []
    if contact:
        flanked = [e.id for e in contact if flank_or_rear_position(ub, e.box())]
        if flanked:
            found.append(_bonus("SMOKE-BAT-4", msg("in the flank or rear of {units}", units=', '.join(flanked))))
            if has(state, u, "nimble"):
                found.append(_bonus("SMOKE-SR-15", msg("Nimble, attacking a flank")))
        if active and has(state, u, "gallop_charge") and any(has(state, e, "cavalry") for e in contact):
            found.append(_bonus("SMOKE-SR-14", msg("Gallop charge against cavalry in its own turn")))
        if has(state, u, "mounted_lancers") and any(e.id in one_unit_formations for e in contact):
            found.append(_bonus("SMOKE-SR-17", msg("Mounted lancers against a one-unit formation")))
        if has(state, u, "use_cover") and (terrain.partially_in(ub, "difficult")
                                           or terrain.partially_in(ub, "very_difficult")):
            found.append(_bonus("SMOKE-SR-21", msg("Use cover, in difficult terrain")))
        if has(state, u, "garrison") and terrain.entirely_in(ub, "village"):
            found.append(_bonus("SMOKE-SR-29", msg("Garrison troops in a village")))
        if (not active and has(state, u, "mercenary_musketeers")
                and any(has(state, o, "musketeer_cover") and o.seat == u.seat for o in in_line_with(state, u))):
            found.append(_bonus("SMOKE-SR-26", msg("Musketeer cover, in the passive turn")))
        bonus = [b for b, _ in found]
        dice = p.melee + sum(b["dice"] for b in bonus)
        return ({"unit": u.id, "weapon": "melee", "base": p.melee, "bonus": bonus, "dice": dice,
                 "contact": sorted(e.id for e in contact), "rule": "SMOKE-RES-2"}, [why for _, why in found])
    shortest = shortest_weapon(state, u, targets)
    if shortest is None:
        return None
    w, measure = shortest
    if has(state, u, "countermarch") and measure.get("distance", 0.0) > LONG_RANGE_FRACTION * w.range:
        if any(has(state, o, "countermarch") and o.seat == u.seat for o in rear_partners(state, u)):
            found.append(_bonus("SMOKE-SR-24", msg("Countermarch at long range (> {fraction:g} x {range:g} UW, "
                                                   "GAP-B-14)", fraction=LONG_RANGE_FRACTION, range=w.range)))
    bonus = [b for b, _ in found]
    return ({"unit": u.id, "weapon": w.name, "base": w.dice, "bonus": bonus,
             "dice": w.dice + sum(b["dice"] for b in bonus), "line": _slim(measure), "rule": "SMOKE-RES-2"},
            [why for _, why in found])


def _slim(m: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in m.items() if k in ("target", "how", "range", "distance", "lines", "weapon")}


def _on_lof_of_enemy(state: SmokeState, u: Unit, enemies: list[Unit]) -> bool:
    return any(line_of_fire(state, e, u, ok_only=True)["ok"] for e in enemies)


def side_result(state: SmokeState, side: str, mine: list[Unit], enemies: list[Unit], b: BattleCtx,
                active: bool) -> dict[str, Any]:
    one_unit = {k for k, v in formations(state).items() if len(v) == 1}
    one_unit = {v[0] for k, v in formations(state).items() if len(v) == 1}
    rolling = []
    whys: dict[str, list[Message]] = {}
    for u in sorted(mine, key=lambda u: u.id):
        got = _unit_dice_said(state, u, enemies, active, one_unit)
        if got is not None:
            rolling.append(got[0])
            whys[u.id] = got[1]
    pool = sum(r["dice"] for r in rolling)
    extra: list[dict[str, Any]] = []
    for p, eff, slot in _tactic_slots(state, b, side, Volley):
        on_line = sum(1 for r in rolling if not has(state, state.units[r["unit"]], "untrained"))
        n = min(on_line // eff.per_units, int(eff.max.value(p.d)))
        if n:
            extra.append({"rule": "SMOKE-TEST-1", "dice": n, "why": f"{slot.name}: {on_line} units on the line of "
                                                                      f"fire, max {int(eff.max.value(p.d))}"})
    pool += sum(e["dice"] for e in extra)
    # advantages and disadvantages (SMOKE-ADV-4/5): each condition once per unit, different ones stack
    adv: list[dict[str, Any]] = []
    dis: list[dict[str, Any]] = []
    terrain = state.terrain()
    for u in sorted(mine, key=lambda u: u.id):
        ub = u.box()
        if has(state, u, "use_cover") and terrain.entirely_in(ub, "cover"):
            adv.append({"unit": u.id, "rule": "SMOKE-TERR-3", "why": "Use cover, entirely in cover"})
        vd = terrain.partially_in(ub, "very_difficult")
        if vd and not has(state, u, "light"):
            dis.append({"unit": u.id, "rule": "SMOKE-TERR-2", "why": "not Light, in very difficult terrain"})
        if has(state, u, "cavalry") and (vd or terrain.partially_in(ub, "difficult")):
            if in_fire_contact(state, u):
                dis.append({"unit": u.id, "rule": "SMOKE-SR-8", "why": "cavalry in fire contact, in difficult terrain"})
    for e in sorted(enemies, key=lambda u: u.id):
        if has(state, e, "armour") and _on_lof_of_enemy(state, e, mine):
            dis.append({"unit": e.id, "rule": "SMOKE-SR-13", "why": f"the enemy's armoured {e.id} is on the line of fire"})
    strength = sum(profile_of(state, u).strength for u in mine)
    return {"rolling": rolling, "extra": extra, "pool": pool, "advantages": adv, "disadvantages": dis,
            "net": len(adv) - len(dis), "strength": strength, "bonus_why": whys}


def roll_side(dice: Any, res: dict[str, Any]) -> None:
    """SMOKE-ADV-1/2/3 (GAP-B-17): n net advantages roll n extra d6 and drop the n lowest; net
    disadvantages drop the highest. A side with no dice rolls none."""
    pool, net = res["pool"], res["net"]
    if pool <= 0:
        res.update(faces=[], kept=[], dropped=[], total=0)
    else:
        faces = [dice.value(6) + 1 for _ in range(pool + abs(net))]  # SMOKE-DICE-1: Xd6 kept separate here
        order = sorted(range(len(faces)), key=lambda i: (faces[i], i))
        if net > 0:
            drop = set(order[:net])
        elif net < 0:
            drop = set(order[len(faces) + net:])
        else:
            drop = set()
        kept = [f for i, f in enumerate(faces) if i not in drop]
        res.update(faces=faces, kept=kept, dropped=[faces[i] for i in sorted(drop)], total=sum(kept))
    res["result"] = res["total"] + res["strength"]


def hits_inflicted(r: int, r_opp: int) -> int:
    """SMOKE-HIT-1: floor(R/10) + floor(max(0, R - R_opp)/10) (rounded down, SMOKE-DICE-3)."""
    return r // HIT_STEP + max(0, r - r_opp) // HIT_STEP


def _hit_groups(state: SmokeState, receivers: list[Unit], attackers: list[Unit]
                ) -> list[list[tuple[float, str, str | None]]]:
    """SMOKE-HIT-3, SMOKE-GEO-20: (key, unit, nearest enemy) grouped by key (equal within EPS),
    nearest first; within a group by unit id."""
    keyed = []
    for u in receivers:
        best = None
        ux0, uy0, ux1, uy1 = u.bbox()
        for a in attackers:
            if touching(state, u, a):
                d = 0.0
            else:
                if best is not None:
                    ax0, ay0, ax1, ay1 = a.bbox()
                    if max(ax0 - ux1, ux0 - ax1, ay0 - uy1, uy0 - ay1) > best[0] + _FAR:
                        continue  # the boxes' gap along an axis is less than their distance: not nearer than best
                d = _dist(u, a)
            if best is None or d < best[0]:
                best = (d, a.id)
        keyed.append((best[0] if best else float("inf"), u.id, best[1] if best else None))
    keyed.sort()
    out: list[list[tuple[float, str, str | None]]] = []
    i = 0
    while i < len(keyed):
        j = i
        while j + 1 < len(keyed) and keyed[j + 1][0] - keyed[i][0] <= EPS:
            j += 1
        out.append(sorted(keyed[i:j + 1], key=lambda k: k[1]))
        i = j + 1
    return out


def hit_order(state: SmokeState, receivers: list[Unit], attackers: list[Unit]) -> list[dict[str, Any]]:
    """SMOKE-HIT-3, SMOKE-GEO-20: nearest to the enemy units of the battle first (contact: 0); units
    equally near (within EPS) listed by id (their owner chooses among them, ``allocate``)."""
    return [{"unit": uid, "key": round(k, 4), "nearest": near}
            for g in _hit_groups(state, receivers, attackers) for k, uid, near in g]


def allocate(order: list[dict[str, Any]], n: int) -> dict[str, int]:
    """SMOKE-HIT-4: rounds in the nearest-first order; a (k+1)-th hit only after every unit has k."""
    alloc = {o["unit"]: 0 for o in order}
    if not order:
        return alloc
    while n > 0:
        for o in order:
            if n == 0:
                break
            alloc[o["unit"]] += 1
            n -= 1
    return alloc


def allocate_groups(groups: list[list[tuple[float, str, str | None]]], n: int
                    ) -> tuple[dict[str, int], tuple[tuple[str, ...], int, float] | None]:
    """SMOKE-HIT-3/4: the hits every unit surely gets, and the choice left to the owner when the last
    round reaches only part of a group of equally near units: (those units, how many, their key)."""
    order = [uid for g in groups for _, uid, _ in g]
    if not order:
        return {}, None
    full, rest = divmod(n, len(order))
    alloc = {uid: full for uid in order}
    for g in groups:
        if rest <= 0:
            break
        if len(g) <= rest:
            for _, uid, _ in g:
                alloc[uid] += 1
            rest -= len(g)
            continue
        return alloc, (tuple(uid for _, uid, _ in g), rest, g[0][0])
    return alloc, None


#: See ``_hit_groups``: far above the rounding of a distance, far below any difference the rules see.
_FAR = 1e-9


def _dist(a: Unit, b: Unit) -> float:
    return box_distance(a.box(), b.box())


def chooser_of(state: SmokeState, side: str, units: tuple[str, ...]) -> str:
    """The owner who chooses among ``units`` (SMOKE-HIT-3; INFERRED for allies' units mixed in one
    group, GAP-B-16: the seat owning most of them, then the first in seat order)."""
    seats = state.seats_of_side(side)
    owners = [state.units[u].seat for u in units if u in state.units]
    return max(seats, key=lambda s: (owners.count(s), -seats.index(s)))


def fight_roll(out: Any) -> None:
    """SMOKE-BAT-2 steps 3-4: results, hits, allocation (SMOKE-RES, SMOKE-HIT)."""
    st: SmokeState = out.state
    t = st.turn
    assert t is not None and t.battle is not None
    b = t.battle
    by_side = sides_in_battle(st, b.markers)
    sides = list(st.sides)
    results: dict[str, dict[str, Any]] = {}
    for s in sides:
        enemies = [u for o in sides if o != s for u in by_side[o]]
        results[s] = side_result(st, s, by_side[s], enemies, b, s == t.side)
    for s in sides:
        roll_side(out.dice, results[s])
    hits: dict[str, int] = {}
    for s in sides:
        opp = max((results[o]["result"] for o in sides if o != s), default=0)
        hits[s] = hits_inflicted(results[s]["result"], opp)
    allocation: dict[str, int] = {}
    ignored: dict[str, int] = {}
    orders: dict[str, tuple[dict[str, Any], ...]] = {}
    terrain = st.terrain()
    choices: dict[str, tuple[tuple[str, ...], int, float]] = {}
    for s in sides:
        received = sum(hits[o] for o in sides if o != s)
        attackers = [u for o in sides if o != s for u in by_side[o]]
        groups = _hit_groups(st, by_side[s], attackers)
        orders[s] = tuple({"unit": uid, "key": round(k, 4), "nearest": near} for g in groups for k, uid, near in g)
        alloc, choice = allocate_groups(groups, received)
        if choice is not None:
            choices[s] = choice
        for uid, k in alloc.items():
            if k <= 0:
                continue
            allocation[uid] = k
            if uid not in t.fort_used and terrain.fortification_of(st.units[uid].box()) is not None:
                ignored[uid] = 1
    hit = set(allocation) | {u for among, _, _ in choices.values() for u in among}
    resolve_order = tuple(p for p in t.players if any(st.units[u].seat == p for u in hit)) + tuple(
        p for s in sides if s != t.side for p in st.seats_of_side(s) if any(st.units[u].seat == p for u in hit))
    rb = RulingBuilder()
    for s in sides:
        r = results[s]
        rolled = dict(side=s, pool=r["pool"], count=len(r["rolling"]), net=r["net"], faces=str(r["faces"]),
                      dropped=str(r["dropped"]))
        said = (msg_n("Side {side}: {pool} dice from {count} unit(s), net {net:+d} advantage: {faces}",
                      "Side {side}: {pool} dice from {count} unit(s), net {net:+d} advantage: {faces}", "count",
                      **rolled) if r["net"] else
                msg_n("Side {side}: {pool} dice from {count} unit(s): {faces}",
                      "Side {side}: {pool} dice from {count} unit(s): {faces}", "count", **rolled))
        rb.add("SMOKE-RES-3", msg("{rolled}, dropped {dropped}.", rolled=said, dropped=rolled["dropped"])
               if r["dropped"] else msg("{rolled}.", rolled=said),
               side=s, rolling=r["rolling"], extra=r["extra"], faces=r["faces"], dropped=r["dropped"])
        for d in r["rolling"]:
            if d["weapon"] == "melee":
                how = msg("melee, in base contact with {units}", units=", ".join(d["contact"]))
            else:
                how = msg("{weapon}: {line}", weapon=d["weapon"], line=describe({**d["line"], "shooter": d["unit"]}))
            rb.add("SMOKE-RES-2", msg("{unit} rolls {base} dice ({how}).", unit=d['unit'], base=d['base'], how=how), unit=d["unit"], weapon=d["weapon"])
            for bo, why in zip(d["bonus"], r["bonus_why"][d["unit"]]):
                rb.add(bo["rule"], msg("{unit}: +{dice}d6, {why}.", unit=d['unit'], dice=bo['dice'], why=why), unit=d["unit"])
        if r["advantages"] or r["disadvantages"]:
            rb.add("SMOKE-ADV-3", msg_n("Side {s}: {count} advantage(s), {count2} disadvantage(s), netted (GAP-B-17).",
                                        "Side {s}: {count} advantage(s), {count2} disadvantage(s), netted (GAP-B-17).", "count", s=s, count=len(r['advantages']), count2=len(r['disadvantages'])), advantages=r["advantages"],
                   disadvantages=r["disadvantages"])
        rb.add("SMOKE-RES-4", msg("Side {s}: result {total} + strength {strength} = {result}.",
                                  s=s, total=r['total'], strength=r['strength'], result=r['result']),
               side=s, result=r["result"])
    for s in sides:
        opp = max((results[o]["result"] for o in sides if o != s), default=0)
        rb.add("SMOKE-HIT-1", msg_n("Side {s} inflicts {result} // 10 + max(0, {result} - {opp}) // 10 = {hits} "
                                    "hit(s).",
                                    "Side {s} inflicts {result} // 10 + max(0, {result} - {opp}) // 10 = {hits} "
                                    "hit(s).", "hits", s=s, result=results[s]['result'], opp=opp, hits=hits[s]), side=s, hits=hits[s])
    for s in sides:
        if orders[s] and any(hits[o] for o in sides if o != s):
            rb.add("SMOKE-GEO-20", msg("Side {side}, nearest to the enemy units of the battle first (rectangle to "
                                       "rectangle): {order}.", side=s, order=joined(
                                           [msg("{unit} {distance:.3f} UW from {nearest}", unit=o["unit"],
                                                distance=o["key"], nearest=o["nearest"]) for o in orders[s]], ", ")),
                   side=s)
    if allocation:
        rb.add("SMOKE-HIT-3", msg("Hits go nearest to the enemy first, spread before doubling (SMOKE-HIT-4): "
                                  "{allocation}.", allocation=", ".join(f"{u} {k}" for u, k in sorted(allocation.items()))),
               allocation=allocation, order={s: list(o) for s, o in orders.items()})
    for uid in ignored:
        rb.add("SMOKE-HIT-5", msg("{unit} is in a fortification: it ignores one hit this turn.", unit=uid), unit=uid)
    out.emit(BattleRolled(markers=b.markers, sides={s: _public(results[s]) for s in sides}, hits=hits,
                          allocation=allocation, ignored=ignored, order=orders, resolve_order=resolve_order),
             rb, summary=msg("battle: {results}", results=" vs ".join(f"{s} {results[s]['result']}" for s in sides)))
    for s in sorted(choices, key=lambda x: (x != t.side, sides.index(x))):  # the active side chooses first
        among, count, key = choices[s]
        seat = chooser_of(out.state, s, among)
        out.emit(HitChoiceOffered(choice=HitChoice(side=s, seat=seat, among=among, count=count), distance=round(key, 4)),
                 RulingBuilder().add("SMOKE-HIT-3", msg("The last round of hits on side {s} reaches {count} of "
                                                        "{among}, equally near the enemy ({key:.3f} UW): their "
                                                        "owner {seat} chooses which.",
                                                        s=s, count=count, among=', '.join(among), key=key, seat=seat_words(seat)), among=list(among),
                                     count=count, distance=round(key, 4))
                 .add("SMOKE-HIT-4", msg("Every unit of the side already has as many hits as any other before "
                                         "these.")),
                 summary=msg("{seat} chooses {count} of {among}", seat=seat_words(seat), count=count, among=', '.join(among)))


def choose_hits(out: Any, seat: str, units: tuple[str, ...]) -> None:
    """SMOKE-HIT-3: the owner's choice among equally near units (SMOKE-HIT-5 for a fortified one)."""
    st: SmokeState = out.state
    t = st.turn
    b = t.battle if t else None
    if b is None or b.step != "allocate" or not b.choices:
        raise RuleViolation("SMOKE-HIT-3", msg("No hits wait for their owner's choice now."))
    c = b.choices[0]
    if c.seat != seat:
        raise RuleViolation("SMOKE-HIT-3", msg("{seat} chooses these hits.", seat=seat_words(c.seat)))
    picked = tuple(units)
    if len(set(picked)) != len(picked) or not set(picked) <= set(c.among) or len(picked) != c.count:
        raise RuleViolation("SMOKE-HIT-3", msg("Choose exactly {count} of {among} (the equally near units), each "
                                               "once; got {picked}.",
                                               count=c.count, among=', '.join(c.among), picked=str(list(picked))), among=list(c.among),
                            count=c.count)
    terrain = st.terrain()
    # SMOKE-HIT-5: the first hit of a fortified unit this turn (one with no hit from the earlier rounds)
    ignored = tuple(u for u in picked if b.allocated.get(u, 0) == 0 and u not in t.fort_used  # type: ignore[union-attr]
                    and terrain.fortification_of(st.units[u].box()) is not None)
    rb = RulingBuilder().add("SMOKE-HIT-3", msg("{seat} gives the hit(s) to {picked}.",
                                                seat=seat_words(seat), picked=', '.join(picked)), units=list(picked))
    for u in ignored:
        rb.add("SMOKE-HIT-5", msg("{u} is in a fortification: it ignores one hit this turn.", u=u), unit=u)
    out.emit(HitsChosen(seat=seat, units=picked, ignored=ignored), rb, summary=msg("{seat} allocates hits", seat=seat_words(seat)))



def _public(r: dict[str, Any]) -> dict[str, Any]:
    return {k: r[k] for k in ("rolling", "extra", "pool", "advantages", "disadvantages", "net", "faces", "kept",
                              "dropped", "total", "strength", "result")}


# -- discipline (SMOKE-DISC) ------------------------------------------------------------------
def village_reading(state: SmokeState, u: Unit) -> tuple[bool, str]:
    """Whether ``u`` counts as in a village for its discipline bonus (SMOKE-SR-9/29, SMOKE-TERR-7), under
    SMOKE-CHOICE-VILLAGE: ``entirely`` inside, or at least ``partly``; and the reading's word."""
    terrain = state.terrain()
    if choice(state, VILLAGE) == "partly":
        return bool(terrain.partially_in(u.box(), "village")), "partly"
    return bool(terrain.entirely_in(u.box(), "village")), "entirely"


def village_depends(state: SmokeState, u: Unit) -> bool:
    """True when the reading of SMOKE-CHOICE-VILLAGE decides ``u``'s bonus: an infantry or Garrison unit partly
    but not entirely inside a village."""
    if not (has(state, u, "infantry") or has(state, u, "garrison")):
        return False
    terrain = state.terrain()
    return bool(terrain.partially_in(u.box(), "village")) and not terrain.entirely_in(u.box(), "village")


def discipline_modifiers(state: SmokeState, u: Unit) -> list[dict[str, Any]]:
    """SMOKE-DISC-2 modifiers (GAP-B-23: entirely in the village, a single +1; Garrison adds its own)."""
    mods = []
    in_village, how = village_reading(state, u)
    if in_village and has(state, u, "infantry"):
        mods.append({"rule": "SMOKE-SR-9", "value": 1, "why": f"infantry {how} in a village"})
    if in_village and has(state, u, "garrison"):
        mods.append({"rule": "SMOKE-SR-29", "value": 1, "why": f"Garrison troops {how} in a village"})
    if has(state, u, "mutiny"):
        mods.append({"rule": "SMOKE-SR-25", "value": 1, "why": "Mutiny"})
    b = state.turn.battle if state.turn else None
    if b is not None:
        for p in b.played:
            if p.cancelled or u.id not in p.units:
                continue
            s = state.board_of(p.seat).slot(p.slot)
            if s is not None and isinstance(s.effect, DisciplineBonus):
                mods.append({"rule": "SMOKE-TAC-1", "value": s.effect.bonus, "why": f"tactic {s.name}"})
    return mods


def test_discipline(out: Any, uid: str, hits: int) -> bool:
    """SMOKE-DISC-1/2/3: a d6 per remaining hit; a natural 1 always fails (GAP-B-25: no automatic
    pass); the first failure destroys the unit and skips the rest. True: it survived."""
    st: SmokeState = out.state
    u = st.units[uid]
    p = profile_of(st, u)
    mods = discipline_modifiers(st, u)
    plus = sum(m["value"] for m in mods)
    tests = []
    passed = True
    for _ in range(hits):
        face = out.dice.value(6) + 1
        ok = face != 1 and face + plus >= p.discipline
        tests.append({"face": face, "total": face + plus, "need": p.discipline, "passed": ok})
        if not ok:
            passed = False
            break
    rb = RulingBuilder().add("SMOKE-DISC-1", msg_n("{unit} has {hits} hit(s) left: one discipline test each.",
                                                   "{unit} has {hits} hit(s) left: one discipline test each.", "hits", unit=uid, hits=hits), hits=hits)
    if village_depends(st, u):
        opt = choice(st, VILLAGE)
        cite(rb, VILLAGE, opt, msg("{unit} stands partly inside a village: that is enough for the +1.", unit=uid)
             if opt == "partly" else
             msg("{unit} stands partly inside a village: no +1 (only a unit entirely inside gets it).", unit=uid))
    bonus = f"+{plus}" if plus else ""
    rb.add("SMOKE-DISC-2", msg("d6{bonus} >= {discipline}; a 1 always fails: {tests}.", bonus=bonus,
                               discipline=p.discipline, tests=joined(
                                   [msg("{face}{bonus} pass", face=t["face"], bonus=bonus) if t["passed"] else
                                    msg("{face}{bonus} FAIL", face=t["face"], bonus=bonus) for t in tests], ", ")),
           tests=tests, modifiers=mods)
    out.emit(DisciplineTested(unit=uid, seat=u.seat, hits=hits, tests=tuple(tests), modifiers=tuple(mods),
                              passed=passed), rb, summary=msg("{unit} discipline passed", unit=uid)
                              if passed else msg("{unit} discipline failed", unit=uid))
    if not passed:
        destroy(out, uid, "failed a discipline test")
        return False
    return True


def finish_unit(out: Any, uid: str, retreated: bool) -> None:
    """After an optional retreat: discipline for the remaining hits, then the unit is resolved."""
    st: SmokeState = out.state
    t = st.turn
    assert t is not None and t.battle is not None
    if uid in st.units:
        left = t.battle.hits.get(uid, 0)
        if left > 0 and not test_discipline(out, uid, left):
            return
        if out.over:
            return
        out.emit(HitsResolved(unit=uid, retreated=retreated),
                 RulingBuilder().add("SMOKE-RET-1", msg("The hits on {unit} are resolved.", unit=uid)), summary=msg("{unit} resolved",
                                                                                                     unit=uid))


def end_of_battle(out: Any) -> None:
    """SMOKE-END-1..4, GAP-B-11 (merged markers: the sum of their prices)."""
    st: SmokeState = out.state
    t = st.turn
    assert t is not None and t.battle is not None
    b = t.battle
    remaining: dict[str, list[str]] = {s: [] for s in st.sides}
    for u in st.units.values():
        if any(covers((st.markers[m].x, st.markers[m].y), u.box()) for m in b.markers if m in st.markers):
            remaining[st.armies[u.seat].side].append(u.id)
    present = [s for s, us in remaining.items() if us]
    price = sum(st.markers[m].price for m in b.markers if m in st.markers)
    rem = {s: tuple(sorted(v)) for s, v in remaining.items()}
    if len(present) == 1:
        winner = present[0]
        loser = next(s for s in st.sides if s != winner)
        payer = _payer(st, loser, b)
        rb = RulingBuilder().add("SMOKE-END-2", msg("Only side {winner} has units within 2 UW of the marker(s): it "
                                                    "wins the battle; {payer} pays the price {price}.",
                                                    winner=winner, payer=seat_words(payer), price=price), price=price,
                                 remaining=rem)
        if len(b.markers) > 1:
            rb.add("SMOKE-MARK-5", msg("Merged markers {markers}: their prices add up (GAP-B-11).",
                                       markers=', '.join(b.markers)))
        out.emit(BattleEnded(markers=b.markers, outcome="won", winner=winner, price=price, payer=payer,
                             remaining=rem), rb, summary=msg("side {winner} wins the battle", winner=winner))
        if payer is not None:
            lose_morale(out, payer, price, "SMOKE-END-2", f"lost the battle of {', '.join(b.markers)}")
    elif not present:
        out.emit(BattleEnded(markers=b.markers, outcome="empty", price=price, remaining=rem),
                 RulingBuilder().add("SMOKE-END-3", msg("No units remain in the battle: the marker(s) are removed "
                                                        "with no loss of morale.")), summary=msg("battle empties"))
    else:
        out.emit(BattleEnded(markers=b.markers, outcome="continues", price=price, remaining=rem),
                 RulingBuilder().add("SMOKE-END-4", msg("Both sides remain: the battle goes on next battle phase "
                                                        "(price {price}).", price=price)), summary=msg("battle goes on"))


def _payer(st: SmokeState, side: str, b: BattleCtx) -> str | None:
    """The losing side's army that pays (INFERRED for several armies a side, GAP-B-16: the one with the
    most units in the battle when it started; ties: the first seat)."""
    seats = st.seats_of_side(side)
    if not seats:
        return None
    counts = {s: 0 for s in seats}
    for uid in b.units:
        u = st.units.get(uid)
        seat = u.seat if u is not None else _seat_from_id(uid)
        if seat in counts:
            counts[seat] += 1
    return max(seats, key=lambda s: (counts[s], -seats.index(s)))


def _seat_from_id(uid: str) -> str:
    return uid.rsplit("-", 1)[0] if "-" in uid else uid
