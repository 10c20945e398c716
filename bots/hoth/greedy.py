"""The greedy Battle of Hoth policy: best expected gain now, objectives, safe ground. Fast; also the playout
policy of the search bot.

It looks one step ahead with the values of ``values.py``: the card that orders the units with the most
to do (``activity.py``), the units with the most to do, the hex that gives the best attack plus objectives
minus the enemy's threat there (``destinations.py``, ``threat.py``: enemy dice that can reach the hex next
turn, each enemy unit ordered with chance ``P_ORDERED``), the attack with the best expected gain (hits,
eliminations, medals, structures, retreats into a blocked baseline: ``attacks.py``), re-rolls of the dice
that did not score, the safest retreat path (``pending.py``).

:func:`choose` works on a full engine state (for a bot: a state sampled by ``knowledge.py``; of the hidden
cards it reads only the seat's own hand) and returns one of the commands it is given, with its expected
gain. ``fast=True`` (playouts) looks at fewer destinations per unit.
"""
from __future__ import annotations

from typing import Any

from domain.hoth import board
from domain.hoth import commands as C
from domain.hoth.cards import Bombard, Heal, PlaceUnit, TreatAsTerrain
from domain.hoth.context import snapshot
from domain.hoth.state import HothState, UnitState, faction_of

from .activity import activity, hand_values
from .attacks import attack_picks
from .destinations import move_picks
from .gains import Pick
from .pending import pending_picks
from .threat import threat
from .values import attack_value, figure_gain, scales

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


def picks(state: HothState, seat: str, cmds: list, fast: bool = False) -> list[Pick]:
    """Every command of ``cmds`` with its greedy value (higher is better)."""
    if state.pending is not None:
        return pending_picks(state, seat, cmds)
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
        out += move_picks(state, seat, cmds, fast)
    else:
        out += attack_picks(state, seat, cmds)
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
