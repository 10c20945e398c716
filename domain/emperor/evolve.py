"""``evolve``: apply one recorded event to the state. No decision is taken here: every outcome is in
the event (DESIGN 1), so a fold of the log never runs the automaton."""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.kernel import Event

from . import events as E
from .state import EMPEROR, HUMAN, Activation, EmperorState, MoveRecord, Step, TurnInfo, Warrior


def _warrior(state: EmperorState, wid: str, **changes: Any) -> dict[str, Warrior]:
    ws = dict(state.warriors)
    ws[wid] = replace(ws[wid], **changes)
    return ws


def _wound(state: EmperorState, wid: str, n: int) -> dict[str, Warrior]:
    w = state.warriors[wid]
    return _warrior(state, wid, wounds=min(w.health, w.wounds + n))


def _turn(state: EmperorState, **changes: Any) -> TurnInfo | None:
    return replace(state.turn, **changes) if state.turn is not None else None


def _pop_step(state: EmperorState) -> Activation | None:
    a = state.activation
    if a is None:
        return None
    return replace(a, queue=a.queue[1:])


def card_steps(state: EmperorState, side: str, card_id: str) -> tuple[Step, ...]:
    """BASE-CARD-1: the card's abilities in printed order, each with the warrior that performs it."""
    hero = state.hero_of(side)
    helper = state.helper_of(side)
    out = []
    for a in state.card(card_id).abilities:
        performer = helper.id if (a.kind == "HELPER_ATTACK" and helper is not None) else (hero.id if hero else "")
        out.append(Step(ability=a, performer=performer, source=card_id))
    return tuple(out)


def evolve(state: EmperorState, ev: Event) -> EmperorState:
    fn = _HANDLERS.get(type(ev))
    return fn(state, ev) if fn is not None else state


def _opened(s: EmperorState, e: E.GameOpened) -> EmperorState:
    return replace(s, opened=True, setup_title=e.title, battlefield=e.battlefield,
                   heroes={HUMAN: e.human, EMPEROR: e.emperor}, solo=e.solo, orders={o.id: o for o in e.orders},
                   card_policy=e.card_policy, warriors={w.id: w for w in e.warriors},
                   exhausted={HUMAN: (), EMPEROR: ()}, crest={HUMAN: "", EMPEROR: ""}, flipped={})


def _shuffled(s: EmperorState, e: E.OrderDeckShuffled) -> EmperorState:
    if e.reshuffle:  # the discard pile (with the card just discarded) becomes the deck (SOLO-ORD-2)
        return replace(s, order_deck=e.deck, order_discard=(), order_current="")
    return replace(s, order_deck=e.deck)


def _revealed(s: EmperorState, e: E.OrderCardRevealed) -> EmperorState:
    discard = s.order_discard + ((s.order_current,) if s.order_current else ())
    deck = s.order_deck
    if deck and deck[0] == e.card:
        deck = deck[1:]
    else:  # the deck's order is private; a fold without it still follows the public reveals
        deck = tuple(c for c in deck if c != e.card)
    return replace(s, order_current=e.card, order_deck=deck, order_discard=discard)


def _turn_started(s: EmperorState, e: E.TurnStarted) -> EmperorState:
    flipped = {k: v for k, v in s.flipped.items() if k not in e.restored}
    crest = dict(s.crest)
    crest[e.side] = ""  # BASE-CREST-1: cleared at the start of the side's turn
    return replace(s, turn=TurnInfo(side=e.side, number=e.turn), turn_no=e.turn, flipped=flipped, crest=crest,
                   activation=None)


def _flipped(s: EmperorState, e: E.LocationsFlipped) -> EmperorState:
    f = dict(s.flipped)
    for lo in e.locations:
        f[lo] = e.side
    return replace(s, flipped=f)


def _action(s: EmperorState, e: E.ActionTaken) -> EmperorState:
    t = s.turn
    assert t is not None
    return replace(s, turn=replace(t, actions=t.actions + (e.action,), current=e.action))


def _moved(s: EmperorState, e: E.WarriorMoved) -> EmperorState:
    ws = _warrior(s, e.warrior, cell=e.path[-1]) if e.path else s.warriors
    t = s.turn
    if e.purpose == "move" and t is not None:
        t = replace(t, moved=t.moved + (e.warrior,))
    return replace(s, warriors=ws, turn=t)


def _emperor_moved(s: EmperorState, e: E.EmperorMoved) -> EmperorState:
    rec = MoveRecord(warrior=e.warrior, frm=e.frm, to=e.to, path=e.path, possible=e.possible,
                     reachable=e.reachable, candidates=e.candidates, step=e.step)
    return replace(s, warriors=_warrior(s, e.warrior, cell=e.to), last_move=rec)


def _activated(s: EmperorState, e: E.CardActivated) -> EmperorState:
    if e.side != HUMAN:
        return s
    return replace(s, activation=Activation(card=e.card, queue=card_steps(s, HUMAN, e.card)))


def _defended(s: EmperorState, e: E.Defended) -> EmperorState:
    out = s
    if e.card:
        ex = dict(s.exhausted)
        ex[e.side] = ex.get(e.side, ()) + (e.card,)
        crest = dict(s.crest)
        crest[e.side] = s.card(e.card).crest  # BASE-CREST-1: also a card activated to defend
        out = replace(out, exhausted=ex, crest=crest)
    if e.side == HUMAN:
        out = replace(out, pending=None)
    return out


def _attacked(s: EmperorState, e: E.AttackResolved) -> EmperorState:
    out = replace(s, warriors=_wound(s, e.target, e.wounds))
    if e.side == HUMAN and out.activation is not None:
        out = replace(out, activation=replace(out.activation, last_target=e.target))
    return out


def _pending(s: EmperorState, e: E.DefenseRequested) -> EmperorState:
    return replace(s, pending=e.pending)


def _pushed(s: EmperorState, e: E.Pushed) -> EmperorState:
    ws = _warrior(s, e.target, cell=e.path[-1]) if e.path else s.warriors
    s2 = replace(s, warriors=ws)
    return replace(s2, warriors=_wound(s2, e.target, e.wounds)) if e.wounds else s2


def _star(s: EmperorState, e: E.StarChosen) -> EmperorState:
    t = s.turn
    assert t is not None
    if e.kind == "location":
        t = replace(t, location_abilities_used=t.location_abilities_used + (e.choice,))
    else:
        t = replace(t, stars_used=t.stars_used + (e.choice,))
    out = replace(s, turn=t)
    if e.side == HUMAN and s.activation is not None and e.ability is not None:
        hero = s.hero_of(HUMAN)
        step = Step(ability=e.ability, performer=hero.id if hero else "", source=e.choice)
        out = replace(out, activation=replace(s.activation, queue=(step,) + s.activation.queue[1:]))
    return out


def _fallback(s: EmperorState, e: E.FallbackUsed) -> EmperorState:
    if not e.applied:
        return s
    out = replace(s, turn=_turn(s, fallback_used=True))
    if e.wounds and e.target:
        out = replace(out, warriors=_wound(out, e.target, e.wounds))
    if e.healed and e.target:
        w = out.warriors[e.target]
        out = replace(out, warriors=_warrior(out, e.target, wounds=max(0, w.wounds - e.healed)))
    return out


def _done(s: EmperorState, e: E.AbilityDone) -> EmperorState:
    if e.side == HUMAN and s.activation is not None:
        return replace(s, activation=_pop_step(s))
    return s


def _resolved(s: EmperorState, e: E.CardResolved) -> EmperorState:
    ex = dict(s.exhausted)
    ex[e.side] = ex.get(e.side, ()) + (e.card,)
    crest = dict(s.crest)
    crest[e.side] = e.crest
    out = replace(s, exhausted=ex, crest=crest)
    if e.side == HUMAN:
        out = replace(out, activation=None, turn=_turn(out, current=""))
    return out


def _refreshed(s: EmperorState, e: E.Refreshed) -> EmperorState:
    out = s
    if e.refreshed:
        ex = dict(s.exhausted)
        ex[e.side] = tuple(c for c in ex.get(e.side, ()) if c not in e.cards)
        out = replace(out, exhausted=ex)
    if e.side == HUMAN:
        out = replace(out, turn=_turn(out, current=""))
    return out


def _swapped(s: EmperorState, e: E.Swapped) -> EmperorState:
    a, b = e.cells
    ws = _warrior(s, e.warrior, cell=b)
    ws[e.other] = replace(ws[e.other], cell=a)
    return replace(s, warriors=ws)


def _healed(s: EmperorState, e: E.WarriorHealed) -> EmperorState:
    w = s.warriors[e.warrior]
    return replace(s, warriors=_warrior(s, e.warrior, wounds=max(0, w.wounds - e.amount)))


def _wounded(s: EmperorState, e: E.WarriorWounded) -> EmperorState:
    return replace(s, warriors=_wound(s, e.warrior, e.wounds))


def _died(s: EmperorState, e: E.WarriorDied) -> EmperorState:
    w = s.warriors[e.warrior]
    return replace(s, warriors=_warrior(s, e.warrior, cell=None, wounds=w.health))


def _won(s: EmperorState, e: E.GameWon) -> EmperorState:
    return replace(s, winner=e.winner, win_reason=e.reason, pending=None)


_HANDLERS: dict[type, Any] = {
    E.GameOpened: _opened,
    E.OrderDeckShuffled: _shuffled,
    E.OrderCardRevealed: _revealed,
    E.TurnStarted: _turn_started,
    E.LocationsFlipped: _flipped,
    E.ActionTaken: _action,
    E.WarriorMoved: _moved,
    E.EmperorMoved: _emperor_moved,
    E.CardActivated: _activated,
    E.Defended: _defended,
    E.AttackResolved: _attacked,
    E.DefenseRequested: _pending,
    E.Pushed: _pushed,
    E.StarChosen: _star,
    E.FallbackUsed: _fallback,
    E.AbilityDone: _done,
    E.CardResolved: _resolved,
    E.Refreshed: _refreshed,
    E.Swapped: _swapped,
    E.WarriorHealed: _healed,
    E.WarriorWounded: _wounded,
    E.WarriorDied: _died,
    E.GameWon: _won,
}

__all__ = ["evolve", "card_steps"]
