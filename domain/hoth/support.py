"""Support cards (content 3.1 and 5.3): played in addition to the command card, at most one per turn.

Timings ``start_of_turn`` (before the command card) and ``own_turn`` (any step of the own turn
with no decision pending) are played with ``play_support`` here. The reactive timings open a
decision window in the attack flow (resolution.py): ``on_enemy_attack`` after an attack is
declared (defender), ``on_own_attack`` as a re-roll after the roll (attacker), ``on_own_retreat``
before a retreat (defender). A window opens only for a faction that holds such a card, so the
opponent learns that *some* reaction was possible (the card itself stays private until played).
"""
from __future__ import annotations

from typing import Any

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import msg, msg_n

from .cards import Bombard, Card, DamagedUnit, FewerUnits, Heal, NoStructure, OwnUnitsLost, PeekHand, PlaceUnit, TreatAsTerrain
from .combat import DIE_FACES, count_hits
from .context import NEIGHBOURS, snapshot
from .events import Bombarded, EffectAdded, HandPeeked, SupportPlayed, UnitHealed, UnitPlaced
from .medals import settle
from .outbox import Outbox
from .reinforcements import reinforcement_hexes
from .resolution import eliminate
from .scenario import Hex
from .state import PLAY, HothState, faction_of
from .team import faction_seats, other
from .terms import faces as face_words
from .terms import hex_text, side
from .terms import terrain as terrain_word
from .terrain import protection
from .units import UNIT_SPECS, starting_figures

#: Timings played with play_support outside a reaction window.
OFFERED_TIMINGS = ("start_of_turn", "own_turn")
#: INFERRED: a bombard resolves hits (and the AT-AT confirmation roll) but no retreats.
BOMBARD_RETREATS = False


def _condition_ok(state: HothState, faction: str, card: Card) -> bool:
    for c in card.conditions:
        if isinstance(c, OwnUnitsLost) and state.lost_units.get(faction, 0) < c.count:
            return False
        if isinstance(c, NoStructure) and any(s.kind == c.kind and not s.destroyed for s in state.structures.values()):
            return False
        if isinstance(c, FewerUnits) and sum(1 for u in state.units.values()
                                             if u.faction == faction and u.unit == c.unit) >= c.count:
            return False
        if isinstance(c, DamagedUnit) and not _damaged(state, faction, c.unit_classes, c.not_adjacent_to_enemy):
            return False
    return True


def _damaged(state: HothState, faction: str, classes: tuple[str, ...], not_adjacent: bool) -> list[str]:
    at = {u.hex: u for u in state.units.values()}
    out = []
    for u in state.units.values():
        if u.faction != faction or u.figures >= u.start or not (UNIT_SPECS[u.unit].classes & set(classes)):
            continue
        if not_adjacent and any(at.get(n) is not None and at[n].faction != faction for n in NEIGHBOURS[u.hex]):
            continue
        out.append(u.id)
    return sorted(out)


def window_open(state: HothState, seat: str, card: Card) -> bool:
    t = state.turn
    if t is None or t.seat != seat or state.pending is not None or state.winner is not None:
        return False
    f = faction_of(seat)
    if state.support_turn.get(f) == state.turn_no:
        return False  # at most one support card per turn (content 3.1)
    if card.timing == "start_of_turn":
        return t.phase == PLAY
    return card.timing == "own_turn"


def _targets(state: HothState, seat: str, card: Card) -> list[dict[str, Any]]:
    """Every legal way to play ``card`` now: [{"target": ..., "hex": ...}]."""
    f = faction_of(seat)
    out: list[dict[str, Any]] = []
    for e in card.effects:
        if isinstance(e, PlaceUnit):
            out += [{"hex": h} for h in reinforcement_hexes(state, f, e.unit)]
        elif isinstance(e, PeekHand):
            if any(state.hands.get(s) for s in faction_seats(state.seats, other(f))):
                out.append({})
        elif isinstance(e, Bombard):
            out += [{"target": u.id} for u in sorted(state.units.values(), key=lambda u: u.id)
                    if u.faction != f and (not e.target_unit_types or u.unit in e.target_unit_types)]
        elif isinstance(e, Heal):
            out += [{"target": uid} for uid in _damaged(state, f, e.unit_classes, e.not_adjacent_to_enemy)]
        elif isinstance(e, TreatAsTerrain):
            out += [{"target": u.id} for u in sorted(state.units.values(), key=lambda u: u.id)
                    if u.faction == f and UNIT_SPECS[u.unit].classes & set(e.unit_classes)]
        else:
            continue
        break
    return out


def support_options(state: HothState, seat: str) -> list[tuple[str, dict[str, Any]]]:
    f = faction_of(seat)
    out = []
    for cid in dict.fromkeys(state.support.get(f, ())):
        card = state.cards.get(cid)
        if card is None or card.timing not in OFFERED_TIMINGS or not window_open(state, seat, card):
            continue
        if not _condition_ok(state, f, card):
            continue
        out += [(cid, t) for t in _targets(state, seat, card)]
    return out


def play_support(out: Outbox, seat: str, cid: str, target: str | None, hex_: Hex | None) -> None:
    st = out.state
    f = faction_of(seat)
    if cid not in st.support.get(f, ()):
        raise RuleViolation("HOTH-CARD-1", msg("{card} is not a support card you hold.", card=cid))
    card = st.cards[cid]
    if card.timing not in OFFERED_TIMINGS:
        raise RuleViolation("HOTH-CARD-4", msg("{card} is played in reaction ({timing}); not offered here.", card=card.title,
                                               timing=card.timing))
    if not window_open(st, seat, card):
        raise RuleViolation("HOTH-CARD-4", msg("{card} cannot be played now (its timing is {timing}; at most one "
                                               "support card per turn).", card=card.title, timing=card.timing))
    if not _condition_ok(st, f, card):
        raise RuleViolation("HOTH-CARD-4", msg("The condition of {card} is not met.", card=card.title))
    want: dict[str, Any] = {}
    if target is not None:
        want["target"] = target
    if hex_ is not None:
        want["hex"] = tuple(hex_)
    if want not in _targets(st, seat, card):
        raise RuleViolation("HOTH-CARD-4", msg("{card} cannot be played on that target.", card=card.title))
    rb = RulingBuilder().add("HOTH-CARD-4", msg("{seat}: support card {card} played in addition to the "
                                                "command card.", seat=side(seat), card=card.title), card=cid, timing=card.timing)
    out.emit(SupportPlayed(seat=seat, card=cid, target=target, hex=want.get("hex")), rb,
             summary=msg("{seat}: support card {card} played", seat=side(seat), card=card.title))
    for e in card.effects:
        if isinstance(e, PlaceUnit):
            h = want["hex"]
            uid = f"{'E' if f == 'imperial' else 'R'}+{st.turn_no}s"
            out.emit(UnitPlaced(unit=uid, faction=f, unit_type=e.unit, hex=h, figures=starting_figures(e.unit, None)),
                     RulingBuilder().add("HOTH-CARD-4", msg("A new {unit_type} unit {unit} enters at {hex}.",
                                                            unit_type=e.unit, unit=uid, hex=hex_text(h))),
                     summary=msg("{unit} placed", unit=uid))
            settle(out, [(uid, h)])
        elif isinstance(e, PeekHand):
            opp = next(s for s in faction_seats(st.seats, other(f)) if st.hands.get(s))
            shown = tuple(out.dice.shuffle(st.hands[opp])[: e.count])
            out.emit(HandPeeked(seat=seat, of=opp, cards=shown),
                     RulingBuilder().add("HOTH-CARD-4", msg_n("{seat}: a look at {count} card(s) of the hand of {other}, "
                                                              "chosen at random.", "{seat}: a look at {count} card(s) of "
                                                              "the hand of {other}, chosen at random.", "count", seat=side(seat),
                                                              count=len(shown), other=side(opp))),
                     summary=msg("{seat}: a look at the hand of {other}", seat=side(seat), other=side(opp)),
                     visibility=seat, reveals=True)
        elif isinstance(e, Heal):
            out.emit(UnitHealed(unit=target, figures=e.figures),  # type: ignore[arg-type]
                     RulingBuilder().add("HOTH-CARD-4", msg_n("{unit} gets {count} figure(s) back.",
                                                              "{unit} gets {count} figure(s) back.", "count",
                                                              unit=target, count=e.figures)),
                     summary=msg("{unit} healed", unit=target))
        elif isinstance(e, TreatAsTerrain):
            out.emit(EffectAdded(unit=target, effect=e.terrain, until_seat=seat),  # type: ignore[arg-type]
                     RulingBuilder().add("HOTH-CARD-4", msg("{unit} counts as in a {terrain} until the next turn of {seat}.",
                                                            unit=target, terrain=terrain_word(e.terrain),
                                                            seat=side(seat))),
                     summary=msg("{unit} dug in", unit=target))
        elif isinstance(e, Bombard):
            bombard(out, seat, target, e)  # type: ignore[arg-type]


def bombard(out: Outbox, seat: str, target: str, e: Bombard) -> None:
    st = out.state
    u = st.units[target]
    spec = UNIT_SPECS[u.unit]
    snap = snapshot(st)
    n = e.dice
    rb = RulingBuilder().add("HOTH-CARD-4", msg_n("{count} dice against {target}, ignoring range and line of sight.",
                                              "{count} dice against {target}, ignoring range and line of sight.",
                                              "count", count=n, target=target), dice=n)
    if e.terrain_protection and spec.terrain_protection:
        minus, rule = protection(snap.terrain.get(u.hex), "special", False, spec.kind == "infantry", False)
        if rule is not None:
            n -= minus
            rb.add(rule, msg("Terrain protection: -{count}.", count=minus), dice=-minus)
    if n <= 0:
        rb.add("HOTH-MOD-7", msg("No die is left to roll."))
        out.emit(Bombarded(seat=seat, target=target, dice=0, faces=(), hits=0, losses=0), rb, summary=msg("no effect"))
        return
    faces = tuple(out.dice.faces(DIE_FACES, n))
    hits = sum(count_hits(faces, spec.hit_by).values())
    confirmation: tuple[str, ...] = ()
    if spec.confirmation_roll and hits and e.confirmation:
        confirmation = tuple(out.dice.faces(DIE_FACES, hits))
        losses = 1 if "explosion" in confirmation else 0
        rb.add("HOTH-HIT-5", msg("Confirmation roll: {dice}.", dice=face_words(confirmation)))
    else:
        losses = min(hits, u.figures)
    rb.add("HOTH-HIT-2", msg("Rolled {dice}: {hits} hit(s), {losses} loss(es).", dice=face_words(faces), hits=hits,
                               losses=losses), faces=list(faces))
    if "retreat" in faces and not BOMBARD_RETREATS:
        rb.add("HOTH-CARD-4", msg("Retreat results of a bombardment have no effect (BOMBARD_RETREATS, INFERRED)."))
    eliminated = losses >= u.figures
    out.emit(Bombarded(seat=seat, target=target, dice=n, faces=faces, hits=hits, losses=losses,
                       confirmation=confirmation, eliminated=eliminated), rb,
             summary=msg_n("{target}: {losses} loss(es)", "{target}: {losses} loss(es)", "losses", target=target,
                           losses=losses))
    if eliminated:
        eliminate(out, target, faction_of(seat))
        settle(out)
