"""Unit activity: how much each own unit has to do this turn (attack now, attack after a move, reach a hex
objective), and so what a command card is worth -- the units it orders, best first, with its bonuses -- and
a seat's hand and best reply."""
from __future__ import annotations

import msgspec
from domain.hoth.board import DISTANCES as DIST
from domain.hoth.cards import (
    Card, DiscardAndDraw, DrawThenDiscard, ExtraDice, MoveAllowance, MoveBonus, PlaceUnit, Reroll,
)
from domain.hoth.context import snapshot, unit_sections
from domain.hoth.orders import copies_opponent, group_fits, resolve_slots
from domain.hoth.state import HothState, faction_of
from domain.hoth.team import other
from domain.hoth.units import UNIT_SPECS

from .attacks import best_attack_from, target_value
from .gains import Act, combined
from .values import Scales, attack_value, goals, hits_on, scales

replace = msgspec.structs.replace


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


def reply_value(state: HothState, seat: str) -> float:
    """What ``seat`` can gain on its coming turn: the value of its best command card now (an estimate)."""
    vals = hand_values(state, seat, fast=True)
    return max(vals.values(), default=0.0)
