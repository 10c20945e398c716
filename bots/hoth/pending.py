"""The Battle of Hoth bots' answers to a pending decision: re-rolls of the dice that did not score, the safest
retreat, trench and breakthrough, discards, the deck's arrangement, support cards, the new unit's hex."""
from __future__ import annotations

from typing import Any

from domain.hoth import board
from domain.hoth import commands as C
from domain.hoth.combat import conversions, convert, structure_symbols
from domain.hoth.context import snapshot
from domain.hoth.resolution import SUPPORT_REROLL
from domain.hoth.state import HothState, faction_of
from domain.hoth.units import UNIT_SPECS

from .activity import card_value, hand_values
from .attacks import attack_picks
from .destinations import stand_goals, stand_value
from .gains import Pick
from .threat import foes, threat
from .values import scales


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
    gl = stand_goals(state, u.faction, sc)
    fo = foes(state, u.faction)

    def value(c: Any) -> float:
        h = tuple(c.path[-1]) if c.path else u.hex
        return stand_value(state, u, h, gl, fo) - threat(state, u, h, snap.terrain, sc, fo)

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


def pending_picks(state: HothState, seat: str, cmds: list) -> list[Pick]:
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
        return attack_picks(state, seat, cmds)
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
