"""The Battle of Hoth's words for people (DESIGN 12): a label for every legal command (``describe``),
the printed names of the ids summaries and rulings cite (``names``), and which steps the rules took
by themselves (``acted_by``). These were the web client's; they live here so every client (and the
API's ``described`` list) reads the same words.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel import event_type_name

from . import commands as C
from .board import to_col_row
from .cards import Card
from .state import HothState
from .units import UNIT_SPECS

#: Steps the rules take by themselves whoever's command set them off (a turn that ends after the
#: other side's last decision, a win, medals, objectives, a deck reshuffled).
_REFEREE_EVENTS = frozenset({"turn_ended", "turn_started", "game_won", "medals_awarded", "objective_changed",
                             "deck_shuffled", "cards_drawn", "decision_pending", "attack_finished", "support_dealt"})


def acted_by(event: Any) -> str | None:
    return "referee" if event_type_name(event) in _REFEREE_EVENTS else None


def hex_words(h: Any) -> str:
    """``c4 r2`` (HOTH-COORD-3); a half-hex says so."""
    c, r = to_col_row(tuple(h))
    return ("half-hex " if h[0] in (-1, 19) else "") + f"c{c} r{r}"


def names(state: HothState, cards: Mapping[str, Card] | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    sc = state.scenario
    if sc is not None:
        for s in sc.structures:
            out[s.id] = s.kind.replace("_", " ")
        # the scenario's units, numbered per faction as the opening numbers them (HothRuleset.open)
        counters: dict[str, int] = {}
        for us in sc.units:
            counters[us.faction] = counters.get(us.faction, 0) + 1
            uid = us.id or f"{'E' if us.faction == 'imperial' else 'R'}{counters[us.faction]}"
            out[uid] = UNIT_SPECS[us.unit].name
    for u in state.units.values():
        out[u.id] = UNIT_SPECS[u.unit].name
    for cid, c in {**(cards or {}), **state.cards}.items():
        out[cid] = c.title
    return out


def _unit(state: HothState, uid: str) -> str:
    u = state.units.get(uid)
    return f"{UNIT_SPECS[u.unit].name} ({uid}) at {hex_words(u.hex)}" if u is not None else uid


def _target(state: HothState, tid: str) -> str:
    s = state.structures.get(tid)
    return f"the {s.kind.replace('_', ' ')} ({tid}) at {hex_words(s.hex)}" if s is not None else _unit(state, tid)


def _card(state: HothState, cid: str, cards: Mapping[str, Card] | None) -> str:
    c = state.cards.get(cid) or (cards or {}).get(cid)
    return f"{c.title} ({cid})" if c is not None else cid


def describe(state: HothState, seat: str, cmd: Any, cards: Mapping[str, Card] | None = None) -> dict[str, Any]:  # noqa: C901
    warning = None
    if isinstance(cmd, C.PlayCard):
        c = state.cards.get(cmd.card) or (cards or {}).get(cmd.card)
        label = f"Play {_card(state, cmd.card, cards)}" + (f": {c.text}" if c is not None and c.text else "")
    elif isinstance(cmd, C.OrderUnit):
        label = f"Order {_unit(state, cmd.unit)}" + (f" (order group {cmd.slot + 1})" if cmd.slot else "")
    elif isinstance(cmd, C.EndOrders):
        label = "End orders"
    elif isinstance(cmd, C.Move):
        n = len(cmd.path)
        label = f"Move {_unit(state, cmd.unit)} to {hex_words(cmd.path[-1])} ({n} {'hex' if n == 1 else 'hexes'})"
    elif isinstance(cmd, C.EndMoves):
        label = "End moves"
    elif isinstance(cmd, C.Attack):
        label = f"{_unit(state, cmd.unit)} attacks {_target(state, cmd.target)}" + (" (special attack)" if cmd.special else "")
    elif isinstance(cmd, C.EndTurn):
        label = "End the turn (discard the card and draw)"
    elif isinstance(cmd, C.Reroll):
        label = f"Re-roll dice {', '.join(str(i + 1) for i in cmd.dice)}" if cmd.dice else "Keep the roll"
    elif isinstance(cmd, C.IgnoreRetreat):
        label = "Ignore 1 retreat (trench)" if cmd.ignore else "Take every retreat"
    elif isinstance(cmd, C.Retreat):
        label = (f"Retreat to {hex_words(cmd.path[-1])} via {' -> '.join(hex_words(h) for h in cmd.path)}"
                 if cmd.path else "Retreat: no hex to enter")
    elif isinstance(cmd, C.Breakthrough):
        label = "Break through into the vacated hex" if cmd.advance else "Stay (no breakthrough)"
    elif isinstance(cmd, C.SkipAttack):
        label = "Skip the breakthrough attack"
    elif isinstance(cmd, C.DiscardCards):
        label = (f"Discard {', '.join(_card(state, c, cards) for c in cmd.cards)}" if cmd.cards else "Discard nothing")
    elif isinstance(cmd, C.ArrangeDeck):
        label = f"Put back on top: {', '.join(_card(state, c, cards) for c in cmd.order)}"
    elif isinstance(cmd, C.Reinforce):
        label = f"Place the new unit at {hex_words(cmd.hex)}"
    elif isinstance(cmd, C.PlaySupport):
        label = (f"Play support {_card(state, cmd.card, cards)}" + (f" on {_target(state, cmd.target)}" if cmd.target else "")
                 + (f" at {hex_words(cmd.hex)}" if cmd.hex else ""))
    elif isinstance(cmd, C.PassSupport):
        label = "No support card now"
    else:
        return {}
    return {"label": label, "warning": warning}


__all__ = ["acted_by", "describe", "hex_words", "names"]
