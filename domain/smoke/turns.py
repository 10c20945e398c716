"""The turn sequence (SMOKE-TURN, SMOKE-SETUP-4/5, GAP-B-16): who acts now, and the steps that
run by themselves between decisions.

A turn belongs to a side (GAP-B-16, INFERRED): each player of the active side in seat order
bombards and resolves its actions, then each places a battle marker if it must (SMOKE-MARK-1,
SMOKE-MP-4), then every battle is fought once in the active side's order (SMOKE-BAT-1). A step
with nothing to decide closes by itself (no artillery able to bombard, no tactic to play, a
single way to resolve hits), so every listed command is a real choice.
"""
from __future__ import annotations

from typing import Any

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n

from .actions import roll_action_dice
from .battle import end_of_battle, fight_roll, finish_unit, playable
from .bombardment import eligible, retreat_options, take_loss, targets
from .deployment import advance as advance_deployment
from .deployment import start as start_deployment
from .deployment import to_act as deployment_to_act
from .events import (
    ActionsEnded, ActivationEnded, BattleStarted, FireContactMeasured, MarkerRemoved, PlacementEnded,
    StepStarted, TacticsEnded,
)
from .fire import describe, fire_contacts
from .markers import battle_groups, battle_units, best_placements, marker_units, units_in_battles
from .morale import end_by_scenario
from .retreat import retreat_refusal, roll_retreat_distance
from .seat_words import seat_words
from .state import ACTIONS, BATTLE_START, BATTLES, BOMBARD, SmokeState
from .terrain_gen import advance as advance_generation
from .turn_start import start_turn


def to_act(st: SmokeState) -> tuple[str, ...]:
    if not st.opened or st.result is not None:
        return ()
    if st.broken is not None:
        return (st.broken,)
    if st.chooser is not None:
        return (st.chooser,)
    if st.edge_chooser is not None:
        return (st.edge_chooser,)
    if st.generation is not None:
        g = st.generation
        if not g.chosen:
            return (g.chooser,)
        return (g.queue[0][0],) if g.options and g.queue else ()
    if st.deployment is not None:
        return deployment_to_act(st)
    t = st.turn
    if t is None or not t.players:
        return ()
    if t.step == BOMBARD:
        if t.bombard_retreat is not None:
            u = st.units.get(t.bombard_retreat.unit)
            return (u.seat,) if u else ()
        pend = [l for l in t.losses if l.left > 0]
        if pend:
            return (pend[0].seat,)
        return (t.players[t.player],)
    if t.step in (ACTIONS, BATTLE_START):
        return (t.players[t.player],)
    if t.step == BATTLES:
        b = t.battle
        if b is None:
            return (t.players[0],)
        if b.step == "tactics":
            nxt = next((s for s in b.tactic_order if s not in b.tactics_done), None)
            return (nxt,) if nxt else ()
        if b.step == "allocate":
            return (b.choices[0].seat,) if b.choices else ()
        if b.retreat is not None:
            u = st.units.get(b.retreat.unit)
            return (u.seat,) if u else ()
        seat = resolver(st)
        return (seat,) if seat else ()
    return ()


def resolver(st: SmokeState) -> str | None:
    """SMOKE-RET-1: the active side resolves the hits on its units first, then the passive side."""
    b = st.turn.battle if st.turn else None
    if b is None:
        return None
    for seat in b.resolve_order:
        if any(k > 0 and uid in st.units and st.units[uid].seat == seat for uid, k in b.hits.items()):
            return seat
    return None


def resolve_options(st: SmokeState, seat: str) -> list[tuple[str, bool]]:
    b = st.turn.battle if st.turn else None
    if b is None:
        return []
    out = []
    for uid, k in sorted(b.hits.items()):
        u = st.units.get(uid)
        if k <= 0 or u is None or u.seat != seat:
            continue
        if retreat_refusal(st, u) is None:
            out.append((uid, True))
        out.append((uid, False))
    return out


def end_turn(out: Any) -> None:
    """SMOKE-TURN-3: after all battles the next side's turn; the game ends if the last phase has ended."""
    st: SmokeState = out.state
    if st.ending:
        end_by_scenario(out)
        return
    order = st.side_order
    t = st.turn
    assert t is not None
    i = order.index(t.side)
    start_turn(out, order[(i + 1) % len(order)])


def _step(out: Any, step: str, player: int, why: Message, rule: str) -> None:
    out.emit(StepStarted(step=step, player=player), RulingBuilder().add(rule, why), summary=why)


def marker_offer(st: SmokeState, seat: str) -> FireContactMeasured:
    """SMOKE-MARK-1/3, SMOKE-MP-4, SMOKE-GEO-15: who is eligible and where the marker may go."""
    assert st.battle is not None and st.turn is not None
    engaged = units_in_battles(st)
    pairs = fire_contacts(st)
    eligible_ids = sorted({x for a, b, _ in pairs for x in (a, b) if x not in engaged})
    side = st.armies[seat].side
    forbidden_seats = sorted({o for ally, opps in st.turn.marked.items() if ally != seat
                              and st.armies[ally].side == side for o in opps})
    elig = [st.units[u].box() for u in eligible_ids if st.units[u].seat not in forbidden_seats]
    forb = [u.box() for u in st.units.values() if u.seat in forbidden_seats]
    others = [u.box() for u in st.units.values()]
    best, points = best_placements(elig, forb, others, st.battle.width, st.battle.height)
    contacts = tuple({"units": [a, b], **{k: v for k, v in m.items() if k in ("shooter", "target", "how", "range",
                                                                               "distance", "lines")}}
                     for a, b, m in pairs if a in eligible_ids or b in eligible_ids)
    return FireContactMeasured(seat=seat, contacts=contacts, eligible=tuple(eligible_ids),
                               forbidden=tuple(forbidden_seats), best=best, points=tuple(points))


def advance(out: Any) -> None:  # noqa: C901 - the turn's state machine
    for _ in range(100_000):
        st: SmokeState = out.state
        if st.generation is not None:
            if not advance_generation(out):
                return
            after_terrain(out)
            continue
        if st.deployment is not None:
            if not advance_deployment(out):
                return
            continue
        if (st.result is not None or st.broken is not None or st.chooser is not None or st.edge_chooser is not None
                or st.turn is None):
            return
        t = st.turn
        if not t.players:
            end_turn(out)
            continue
        seat = t.players[min(t.player, len(t.players) - 1)]
        if t.step == BOMBARD:
            if t.bombard_retreat is not None:
                return
            pend = [l for l in t.losses if l.left > 0]
            if pend:
                if not retreat_options(st, pend[0]):
                    take_loss(out, pend[0].seat, None)
                    continue
                return
            if t.fired:
                _step(out, ACTIONS, t.player, msg("{seat}'s actions phase.", seat=seat_words(seat)), "SMOKE-TURN-2")
                continue
            if not t.aims and not any(targets(st, u) for u in eligible(st, seat)):
                _step(out, ACTIONS, t.player, msg("{seat} has no artillery able to bombard a target: actions phase.",
                                                  seat=seat_words(seat)),
                      "SMOKE-BOMB-2")
                continue
            return
        if t.step == ACTIONS:
            a = t.actions
            if a is None:
                roll_action_dice(out, seat)
                continue
            if a.stage in ("risk", "place"):
                if len(a.used) >= len(a.dice):
                    out.emit(PlacementEnded(seat=seat, discarded=()),
                             RulingBuilder().add("SMOKE-ACT-4", msg("Every die is placed.")), summary=msg("placement ends"))
                    continue
                return
            if a.stage == "resolve":
                if a.activation is not None:
                    if all(u in a.activation.moved or u not in st.units for u in a.activation.units):
                        out.emit(ActivationEnded(seat=seat), RulingBuilder().add(
                            "SMOKE-ACT-5", msg("Every activated unit has moved: the action is complete.")),
                            summary=msg("activation complete"))
                        continue
                    return
                if not a.placed:
                    out.emit(ActionsEnded(seat=seat, discarded=()), RulingBuilder().add(
                        "SMOKE-ACT-10", msg("No dice are left on actions: the actions phase ends.")),
                        summary=msg("{seat}'s actions end", seat=seat_words(seat)))
                    continue
                return
            # done
            if t.player + 1 < len(t.players):
                _step(out, BOMBARD, t.player + 1, msg("{seat} bombards (GAP-B-16).", seat=seat_words(t.players[t.player + 1])), "SMOKE-TURN-2")
            else:
                _step(out, BATTLE_START, 0, msg("Battle start phase."), "SMOKE-TURN-2")
            continue
        if t.step == BATTLE_START:
            if t.marker_offer is not None:
                return
            if seat in t.marked or t.player >= len(t.players):
                nxt = t.player + 1
                if nxt < len(t.players):
                    _step(out, BATTLE_START, nxt, msg("{seat} may have to place a battle marker.",
                                                      seat=seat_words(t.players[nxt])),
                          "SMOKE-MARK-1")
                else:
                    _step(out, BATTLES, 0, msg("Battles phase."), "SMOKE-BAT-1")
                continue
            offer = marker_offer(st, seat)
            if offer.best == 0:
                nxt = t.player + 1
                why = (msg("no units are in fire contact outside a battle") if not offer.eligible else
                       msg("every eligible unit belongs to an opponent an ally already marked this turn (SMOKE-MP-4)"))
                if nxt < len(t.players):
                    _step(out, BATTLE_START, nxt, msg("No marker for {seat}: {why}.", seat=seat_words(seat), why=why), "SMOKE-MARK-1")
                else:
                    _step(out, BATTLES, 0, msg("No marker for {seat}: {why}. Battles phase.", seat=seat_words(seat), why=why), "SMOKE-MARK-1")
                continue
            rb = RulingBuilder().add("SMOKE-MARK-1", msg_n("{count} unit(s) are in fire contact and in no battle: "
                                                           "{seat} must place exactly one marker.",
                                                           "{count} unit(s) are in fire contact and in no battle: "
                                                           "{seat} must place exactly one marker.", "count", count=len(offer.eligible), seat=seat_words(seat)),
                                     eligible=list(offer.eligible))
            for c in offer.contacts:
                rb.add("SMOKE-LOF-3", msg("{unit} and {other} are in fire contact: {contact}.",
                                          unit=c['units'][0], other=c['units'][1], contact=describe(c)),
                       **{k: v for k, v in c.items() if k in ("units", "shooter", "target", "how", "distance", "range",
                                                              "lines")})
            rb.add("SMOKE-MARK-3", msg("It must cover as many of them as possible: {best} (both sides count, "
                                       "FAQ-24).", best=offer.best), best=offer.best, points=[list(p) for p in offer.points])
            if offer.forbidden:
                rb.add("SMOKE-MP-4", msg("It may not include units of {forbidden} (an ally's marker did this turn).",
                                         forbidden=joined([seat_words(f) for f in offer.forbidden], ", ")))
            out.emit(offer, rb, summary=msg("{seat} must place a battle marker", seat=seat_words(seat)))
            return
        if t.step == BATTLES:
            b = t.battle
            if b is None:
                for mid in sorted(st.markers):
                    if not marker_units(st, mid):
                        out.emit(MarkerRemoved(marker=mid, reason="empty"), RulingBuilder().add(
                            "SMOKE-MARK-6", msg("No unit is within 2 UW of {marker}: it is removed, nobody loses "
                                                "morale (FAQ-29).", marker=mid)), summary=msg("{marker} removed", marker=mid))
                        break
                else:
                    groups = unfought(st)
                    if not groups:
                        end_turn(out)
                        continue
                    if len(groups) == 1:
                        start_battle(out, groups[0])
                        continue
                    return
                continue
            if b.step == "tactics":
                nxt = next((s for s in b.tactic_order if s not in b.tactics_done), None)
                if nxt is None:
                    fight_roll(out)
                    continue
                if not playable(st, nxt):
                    out.emit(TacticsEnded(seat=nxt), RulingBuilder().add(
                        "SMOKE-BAT-2", msg("{nxt} has no tactic to play in this battle.", nxt=seat_words(nxt))), summary=msg("{nxt}: no tactics",
                                                                                                    nxt=seat_words(nxt)))
                    continue
                return
            if b.step == "allocate" or b.retreat is not None:
                return
            who = resolver(st)
            if who is None:
                end_of_battle(out)
                continue
            opts = resolve_options(st, who)
            if len(opts) == 1:
                resolve_hits(out, who, opts[0][0], opts[0][1], auto=True)
                continue
            return
        return


def unfought(st: SmokeState) -> list[tuple[str, ...]]:
    t = st.turn
    assert t is not None
    return [g for g in battle_groups(st) if not any(m in t.fought for m in g)]


def start_battle(out: Any, group: tuple[str, ...]) -> None:
    st: SmokeState = out.state
    t = st.turn
    assert t is not None
    units = tuple(battle_units(st, group))
    price = sum(st.markers[m].price for m in group)
    order = tuple(t.players) + tuple(p for s in st.passive_sides() for p in st.seats_of_side(s))
    rb = RulingBuilder().add("SMOKE-BAT-1", msg_n("The battle of {group} is fought: {count} unit(s) within 2 UW, "
                                                  "price {price}.",
                                                  "The battle of {group} is fought: {count} unit(s) within 2 UW, "
                                                  "price {price}.", "count", group=', '.join(group), count=len(units), price=price), markers=list(group), units=list(units),
                             price=price)
    if len(group) > 1:
        rb.add("SMOKE-MARK-5", msg("A unit within 2 UW of several markers joins them into one battle."))
    rb.add("SMOKE-BAT-2", msg("Tactics: the active player first, then the passive player."), order=list(order))
    out.emit(BattleStarted(markers=group, units=units, price=price, tactic_order=order), rb,
             summary=msg("battle of {group}", group=', '.join(group)))


def after_terrain(out: Any) -> None:
    if out.state.reserve or out.state.reserve_commanders:
        start_deployment(out)
    else:
        start_turn(out, out.state.side_order[0])


def resolve_hits(out: Any, seat: str, uid: str, retreat: bool, auto: bool = False) -> None:
    """SMOKE-RET-1/2/3, SMOKE-DISC-1: one unit's hits, retreating first if chosen."""
    st = out.state
    t = st.turn
    b = t.battle if t else None
    if b is None or b.step != "resolve" or b.retreat is not None:
        raise RuleViolation("SMOKE-BAT-2", msg("No hits are being resolved now."))
    u = st.units.get(uid)
    if u is None or u.seat != seat or b.hits.get(uid, 0) <= 0:
        mine = ", ".join(k for k, v in sorted(b.hits.items()) if v > 0 and k in st.units and st.units[k].seat == seat)
        raise RuleViolation("SMOKE-HIT-2", msg("{unit} has no hits of yours to resolve (yours: {yours}).",
                                               unit=repr(uid), yours=mine or msg("none")),
                            unit=uid)
    if retreat:
        why = retreat_refusal(st, u)
        if why is not None:
            raise RuleViolation(why[0], msg("{why}: it cannot retreat.", why=why[1]), unit=uid)
        roll_retreat_distance(out, uid, "battle")
        tb = out.state.turn.battle if out.state.turn else None
        if tb is not None and tb.retreat is None and not out.over:
            finish_unit(out, uid, True)
        return
    finish_unit(out, uid, False)
