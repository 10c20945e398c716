"""The Battle of Hoth's words for people (DESIGN 12): a label for every legal command (``describe``),
the printed names of the ids summaries and rulings cite (``names``), and which steps the rules took
by themselves (``acted_by``). These were the web client's; they live here so every client (and the
API's ``described`` list) reads the same words.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel import event_type_name
from domain.kernel.messages import Message, msg, msg_n, named

from . import commands as C
from .cards import Card
from .state import HothState
from .terms import SEAT_NAMES, hex_text, path_text
from .units import UNIT_SPECS

#: Steps the rules take by themselves whoever's command set them off (a turn that ends after the
#: other side's last decision, a win, medals, objectives, a deck reshuffled).
_REFEREE_EVENTS = frozenset({"turn_ended", "turn_started", "game_won", "medals_awarded", "objective_changed",
                             "deck_shuffled", "cards_drawn", "decision_pending", "attack_finished", "support_dealt"})


def acted_by(event: Any) -> str | None:
    return "referee" if event_type_name(event) in _REFEREE_EVENTS else None


def hex_words(h: Any) -> "Message | str":
    """``c4 r2`` (HOTH-COORD-3); a half-hex says so."""
    return hex_text(h, with_id=False)


def names(state: HothState, cards: Mapping[str, Card] | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    sc = state.scenario
    if sc is not None:
        out[sc.id] = sc.title  # a ruling's ``scenario`` value
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


def _unit(state: HothState, uid: str) -> "Message | str":
    u = state.units.get(uid)
    if u is None:
        return uid
    return msg("{unit} at {hex}", unit=named(UNIT_SPECS[u.unit].name, uid), hex=hex_words(u.hex))


def _target(state: HothState, tid: str) -> "Message | str":
    s = state.structures.get(tid)
    if s is None:
        return _unit(state, tid)
    return msg("the {structure} at {hex}", structure=named(s.kind.replace("_", " "), tid), hex=hex_words(s.hex))


def _card(state: HothState, cid: str, cards: Mapping[str, Card] | None) -> str:
    """A card by its printed title alone (each title is one card of its deck; the id stays in the command)."""
    c = state.cards.get(cid) or (cards or {}).get(cid)
    return c.title if c is not None else cid


def describe(state: HothState, seat: str, cmd: Any, cards: Mapping[str, Card] | None = None) -> dict[str, Any]:  # noqa: C901
    warning = None
    label: "Message | str"
    if isinstance(cmd, C.PlayCard):
        c = state.cards.get(cmd.card) or (cards or {}).get(cmd.card)
        card = _card(state, cmd.card, cards)
        label = (msg("Play {card}: {card_text}", card=card, card_text=c.text) if c is not None and c.text
                 else msg("Play {card}", card=card))
    elif isinstance(cmd, C.OrderUnit):
        label = (msg("Order {unit} (order group {group})", unit=_unit(state, cmd.unit), group=cmd.slot + 1)
                 if cmd.slot else msg("Order {unit}", unit=_unit(state, cmd.unit)))
    elif isinstance(cmd, C.EndOrders):
        label = msg("End orders")
    elif isinstance(cmd, C.Move):
        label = msg_n("Move {unit} to {hex} ({count} hex)", "Move {unit} to {hex} ({count} hexes)", "count",
                      unit=_unit(state, cmd.unit), hex=hex_words(cmd.path[-1]), count=len(cmd.path))
    elif isinstance(cmd, C.EndMoves):
        label = msg("End moves")
    elif isinstance(cmd, C.Attack):
        p = {"unit": _unit(state, cmd.unit), "target": _target(state, cmd.target)}
        label = msg("{unit} attacks {target} (special attack)", **p) if cmd.special else msg("{unit} attacks {target}", **p)
    elif isinstance(cmd, C.EndTurn):
        label = msg("End the turn (discard the card and draw)")
    elif isinstance(cmd, C.Reroll):
        label = (msg("Re-roll dice {dice}", dice=[str(i + 1) for i in cmd.dice]) if cmd.dice
                 else msg("Keep the roll"))
    elif isinstance(cmd, C.IgnoreRetreat):
        label = msg("Ignore 1 retreat (trench)") if cmd.ignore else msg("Take every retreat")
    elif isinstance(cmd, C.Retreat):
        label = (msg("Retreat to {hex} via {path}", hex=hex_words(cmd.path[-1]), path=path_text(cmd.path, with_id=False))
                 if cmd.path else msg("Retreat: no hex to enter"))
    elif isinstance(cmd, C.Breakthrough):
        label = msg("Break through into the vacated hex") if cmd.advance else msg("Stay (no breakthrough)")
    elif isinstance(cmd, C.SkipAttack):
        label = msg("Skip the breakthrough attack")
    elif isinstance(cmd, C.DiscardCards):
        label = (msg("Discard {cards}", cards=[_card(state, c, cards) for c in cmd.cards]) if cmd.cards
                 else msg("Discard nothing"))
    elif isinstance(cmd, C.ArrangeDeck):
        label = msg("Put back on top: {cards}", cards=[_card(state, c, cards) for c in cmd.order])
    elif isinstance(cmd, C.Reinforce):
        label = msg("Place the new unit at {hex}", hex=hex_words(cmd.hex))
    elif isinstance(cmd, C.PlaySupport):
        label = _support_label(state, cmd, cards)
    elif isinstance(cmd, C.PassSupport):
        label = msg("No support card now")
    else:
        return {}
    return {"label": label, "warning": warning}


def _support_label(state: HothState, cmd: Any, cards: Mapping[str, Card] | None) -> Message:
    p = {"card": _card(state, cmd.card, cards)}
    if cmd.target and cmd.hex:
        return msg("Play support {card} on {target} at {hex}", target=_target(state, cmd.target),
                   hex=hex_words(cmd.hex), **p)
    if cmd.target:
        return msg("Play support {card} on {target}", target=_target(state, cmd.target), **p)
    if cmd.hex:
        return msg("Play support {card} at {hex}", hex=hex_words(cmd.hex), **p)
    return msg("Play support {card}", **p)


__all__ = ["SEAT_NAMES", "acted_by", "describe", "hex_words", "names"]
