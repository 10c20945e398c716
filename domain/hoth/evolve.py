"""evolve: apply one event to the state. Pure and cheap; never rolls, never reads content."""
from __future__ import annotations

import msgspec

from .cards import DiscardAndDraw, IgnoreRetreat
from .events import (
    AttackFinished, AttackResolved, AttackRolled, BreakthroughMade, CardPlayed, CardsDiscarded, CardsDrawn,
    DecisionPending, DeckShuffled, DiceRerolled, GameOpened, GameWon, MedalsAwarded, MovesEnded, ObjectiveChanged,
    OrdersEnded, RetreatIgnored, TurnEnded, TurnStarted, UnitEliminated, UnitMoved, UnitOrdered, UnitRetreated,
    DeckArranged, UnitPlaced, SupportDealt, SupportPlayed, HandPeeked, UnitHealed, EffectAdded, Bombarded,
    AttackDeclared, DecisionMade,
)
from .state import (
    ATTACK, MOVE, ORDER, HothState, LastAttack, Lasting, Ordered, StructureState, TurnState, UnitState, faction_of,
    SUPPORT_WINDOWS, support_cards_for,
)
from .units import starting_figures

replace = msgspec.structs.replace


def _remove_one(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    lst = list(cards)
    lst.remove(card)
    return tuple(lst)


def _turn(state: HothState, **kw) -> HothState:
    assert state.turn is not None
    return replace(state, turn=replace(state.turn, **kw))


def evolve(state: HothState, ev: object) -> HothState:
    fn = _HANDLERS.get(type(ev))
    if fn is None:
        return state
    return fn(state, ev)


def _opened(s: HothState, e: GameOpened) -> HothState:
    units = {}
    for uid, us in zip(e.unit_ids, e.scenario.units):
        fig = starting_figures(us.unit, us.badge)
        units[uid] = UnitState(id=uid, faction=us.faction, unit=us.unit, hex=tuple(us.hex), figures=fig,  # type: ignore[arg-type]
                               start=fig, badge=us.badge)
    structs = {st.id: StructureState(id=st.id, kind=st.kind, hex=tuple(st.hex)) for st in e.scenario.structures}  # type: ignore[arg-type]
    empty = {seat: () for seat in e.seats}
    return replace(s, opened=True, scenario=e.scenario, cards={c.id: c for c in e.cards}, units=units,
                   structures=structs, medals={"imperial": 0, "rebel": 0}, hands=dict(empty), decks=dict(empty),
                   discards=dict(empty), turn_order=e.turn_order, lost_units={"imperial": 0, "rebel": 0})


def _shuffled(s: HothState, e: DeckShuffled) -> HothState:
    decks = dict(s.decks)
    decks[e.seat] = e.deck
    out = replace(s, decks=decks)
    if e.reshuffle:
        d = dict(s.discards)
        d[e.seat] = ()
        out = replace(out, discards=d)
    return out


def _drawn(s: HothState, e: CardsDrawn) -> HothState:
    decks, hands = dict(s.decks), dict(s.hands)
    decks[e.seat] = s.decks[e.seat][e.count:]
    hands[e.seat] = s.hands[e.seat] + e.cards
    return replace(s, decks=decks, hands=hands)


def _turn_started(s: HothState, e: TurnStarted) -> HothState:
    lasting = tuple(x for x in s.lasting if x.until_seat != e.seat)
    return replace(s, turn=TurnState(seat=e.seat, faction=faction_of(e.seat)), turn_no=e.turn,
                   turn_index=(e.turn - 1) % max(1, len(s.turn_order)), pending=None, attack=None, lasting=lasting)


def _played(s: HothState, e: CardPlayed) -> HothState:
    hands = dict(s.hands)
    hands[e.seat] = _remove_one(s.hands[e.seat], e.card)
    eff = s.cards.get(e.effects_card)
    replaced = eff is not None and any(isinstance(x, DiscardAndDraw) and x.replaces_turn_draw for x in eff.effects)
    last = dict(s.last_card)
    last[faction_of(e.seat)] = e.effects_card
    s = replace(s, hands=hands, last_card=last)
    return _turn(s, phase=ORDER, card=e.card, effects_card=e.effects_card, mirrored=e.mirrored, slots=e.slots,
                 draw_replaced=replaced)


def _ordered(s: HothState, e: UnitOrdered) -> HothState:
    assert s.turn is not None
    card = s.cards.get(s.turn.effects_card or "")
    if e.bonus and card is not None:
        for x in card.effects:
            if isinstance(x, IgnoreRetreat):
                until = s.turn.seat if x.duration == "until_your_next_turn" else ""
                s = replace(s, lasting=s.lasting + (Lasting(unit=e.unit, effect="ignore_retreat", count=x.count,
                                                            until_seat=until),))
    return _turn(s, ordered=s.turn.ordered + (Ordered(unit=e.unit, slot=e.slot, bonus=e.bonus),))


def _orders_ended(s: HothState, e: OrdersEnded) -> HothState:
    return _turn(s, phase=MOVE)


def _move_unit(s: HothState, uid: str, to) -> HothState:
    units = dict(s.units)
    units[uid] = replace(units[uid], hex=tuple(to))
    return replace(s, units=units)


def _moved(s: HothState, e: UnitMoved) -> HothState:
    assert s.turn is not None
    s2 = _move_unit(s, e.unit, e.path[-1])
    moved = dict(s.turn.moved)
    moved[e.unit] = len(e.path)
    stopped = s.turn.stopped + ((e.unit,) if e.stopped else ())
    return _turn(s2, moved=moved, stopped=stopped)


def _moves_ended(s: HothState, e: MovesEnded) -> HothState:
    if e.eweb:
        units = dict(s.units)
        for uid, st in e.eweb.items():
            if uid in units:
                units[uid] = replace(units[uid], eweb_set=st)
        s = replace(s, units=units)
    return _turn(s, phase=ATTACK)


def _rolled(s: HothState, e: AttackRolled) -> HothState:
    return replace(s, attack=e.attack, last_attack=LastAttack(attacker=e.attacker_hex, target=e.target_hex,
                                                                 examined=e.examined, faces=e.attack.faces))


def _rerolled(s: HothState, e: DiceRerolled) -> HothState:
    assert s.attack is not None
    la = replace(s.last_attack, faces=e.faces) if s.last_attack is not None else None
    return replace(s, attack=replace(s.attack, faces=e.faces, rerolled=True), pending=None, last_attack=la)


def _resolved(s: HothState, e: AttackResolved) -> HothState:
    assert s.turn is not None
    if e.target in s.units and e.losses:
        units = dict(s.units)
        u = units[e.target]
        units[e.target] = replace(u, figures=u.figures - e.losses)
        s = replace(s, units=units)
    if e.structure_destroyed and e.target in s.structures:
        structs = dict(s.structures)
        structs[e.target] = replace(structs[e.target], destroyed=True)
        s = replace(s, structures=structs)
    attacked = s.turn.attacked if e.attacker in s.turn.attacked else s.turn.attacked + (e.attacker,)
    targets = dict(s.turn.targets)
    targets[e.attacker] = e.target
    return _turn(s, attacked=attacked, targets=targets)


def _eliminated(s: HothState, e: UnitEliminated) -> HothState:
    units = dict(s.units)
    u = units.pop(e.unit)
    lost = dict(s.lost_units)
    lost[u.faction] = lost.get(u.faction, 0) + 1
    return replace(s, units=units, lost_units=lost)


def _medals(s: HothState, e: MedalsAwarded) -> HothState:
    m = dict(s.medals)
    m[e.faction] = e.total
    return replace(s, medals=m)


def _objective(s: HothState, e: ObjectiveChanged) -> HothState:
    if e.permanent:
        return replace(s, captured=s.captured + (e.objective,))
    held = tuple(x for x in s.held if x != e.objective)
    if e.held:
        held += (e.objective,)
    return replace(s, held=held)


def _pending(s: HothState, e: DecisionPending) -> HothState:
    if e.cards:  # also a support window of a log written before UMPIRE-SEAL-3, which listed its cards
        return replace(s, pending=replace(e.pending, cards=e.cards))
    timing = SUPPORT_WINDOWS.get((e.pending.kind, e.pending.which))
    if timing is not None:
        # UMPIRE-SEAL-3: a support window's cards are never logged (the battle's end would show them, and a
        # campaign side keeps them into the next battle): the fold derives them from the side's support cards
        return replace(s, pending=replace(e.pending, cards=support_cards_for(s, faction_of(e.pending.seat), timing)))
    return replace(s, pending=e.pending)


def _ignored(s: HothState, e: RetreatIgnored) -> HothState:
    return replace(s, pending=None)


def _retreated(s: HothState, e: UnitRetreated) -> HothState:
    if e.path:
        s = _move_unit(s, e.unit, e.path[-1])
    if e.losses:
        units = dict(s.units)
        u = units[e.unit]
        units[e.unit] = replace(u, figures=u.figures - e.losses)
        s = replace(s, units=units)
    return replace(s, pending=None)


def _breakthrough(s: HothState, e: BreakthroughMade) -> HothState:
    assert s.turn is not None
    if e.to is not None:
        s = _move_unit(s, e.unit, e.to)
        s = _turn(s, breakthroughs=s.turn.breakthroughs + (e.unit,),
                  stopped=s.turn.stopped + ((e.unit,) if e.stopped else ()))
    return replace(s, pending=None)


def _finished(s: HothState, e: AttackFinished) -> HothState:
    return replace(s, attack=None, pending=None)


def _discarded(s: HothState, e: CardsDiscarded) -> HothState:
    hands, disc = dict(s.hands), dict(s.discards)
    h = s.hands[e.seat]
    for c in e.cards:
        h = _remove_one(h, c)
    hands[e.seat] = h
    disc[e.seat] = s.discards[e.seat] + e.cards
    return replace(s, hands=hands, discards=disc, pending=None)


def _turn_ended(s: HothState, e: TurnEnded) -> HothState:
    disc = dict(s.discards)
    if e.card is not None:
        disc[e.seat] = s.discards[e.seat] + (e.card,)
    lasting = tuple(x for x in s.lasting if x.until_seat != "")  # "this turn" effects end
    return replace(s, discards=disc, pending=None, attack=None, lasting=lasting)


def _arranged(s: HothState, e: DeckArranged) -> HothState:
    decks = dict(s.decks)
    decks[e.seat] = e.top + s.decks[e.seat][e.count:]
    return replace(s, decks=decks, pending=None)


def _placed(s: HothState, e: UnitPlaced) -> HothState:
    units = dict(s.units)
    units[e.unit] = UnitState(id=e.unit, faction=e.faction, unit=e.unit_type, hex=tuple(e.hex), figures=e.figures,  # type: ignore[arg-type]
                              start=e.figures)
    return replace(s, units=units, pending=None)


def _support_dealt(s: HothState, e: SupportDealt) -> HothState:
    sup = dict(s.support)
    sup[e.faction] = e.cards
    return replace(s, support=sup)


def _support_played(s: HothState, e: SupportPlayed) -> HothState:
    f = faction_of(e.seat)
    sup = dict(s.support)
    sup[f] = _remove_one(s.support.get(f, ()), e.card)
    used = dict(s.support_turn)
    used[f] = s.turn_no
    pending = None if (s.pending is not None and s.pending.kind == "support") else s.pending
    return replace(s, support=sup, support_turn=used, pending=pending)


def _peeked(s: HothState, e: HandPeeked) -> HothState:
    return s


def _healed(s: HothState, e: UnitHealed) -> HothState:
    units = dict(s.units)
    u = units[e.unit]
    units[e.unit] = replace(u, figures=u.figures + e.figures)
    return replace(s, units=units)


def _effect_added(s: HothState, e: EffectAdded) -> HothState:
    return replace(s, lasting=s.lasting + (Lasting(unit=e.unit, effect=e.effect, count=e.count,
                                                   until_seat=e.until_seat),))


def _bombarded(s: HothState, e: Bombarded) -> HothState:
    if e.losses and e.target in s.units:
        units = dict(s.units)
        u = units[e.target]
        units[e.target] = replace(u, figures=u.figures - e.losses)
        s = replace(s, units=units)
    return s


def _declared(s: HothState, e: AttackDeclared) -> HothState:
    return replace(s, attack=e.attack)


def _won(s: HothState, e: GameWon) -> HothState:
    return replace(s, winner=e.winner, win_reason=e.reason, pending=None)


_HANDLERS = {
    GameOpened: _opened, DeckShuffled: _shuffled, CardsDrawn: _drawn, TurnStarted: _turn_started,
    CardPlayed: _played, UnitOrdered: _ordered, OrdersEnded: _orders_ended, UnitMoved: _moved,
    MovesEnded: _moves_ended, AttackRolled: _rolled, DiceRerolled: _rerolled, AttackResolved: _resolved,
    UnitEliminated: _eliminated, MedalsAwarded: _medals, ObjectiveChanged: _objective, DecisionPending: _pending,
    RetreatIgnored: _ignored, UnitRetreated: _retreated, BreakthroughMade: _breakthrough, AttackFinished: _finished,
    CardsDiscarded: _discarded, TurnEnded: _turn_ended, GameWon: _won, DeckArranged: _arranged, UnitPlaced: _placed,
    SupportDealt: _support_dealt, SupportPlayed: _support_played, HandPeeked: _peeked, UnitHealed: _healed,
    EffectAdded: _effect_added, Bombarded: _bombarded, AttackDeclared: _declared,
    DecisionMade: lambda s, e: replace(s, pending=None),
}
