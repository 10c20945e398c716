"""Resolving an attack step by step: roll, re-roll, hits, confirmation, losses, retreat, breakthrough.

Every decision of the other seat (retreat path, trench ignore) or of the attacker (re-roll,
breakthrough) stops the flow with a ``DecisionPending`` event; the matching command resumes it.

Over 500 lines on purpose: an attack is one flow (roll, re-roll, hits, confirmation, losses, retreat,
breakthrough) that stops at each decision and resumes from it; its steps share the pending attack's
state and are read in the rulebook's order.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import Message, msg, msg_n

from . import board
from .cards import EnemyDicePenalty, NoTerrainRetreatIgnore, title_of
from .combat import (
    DIE_FACES, add_plan_steps, convert, conversions, count_hits, in_trench, may_attack_refusal, plan_attack,
    plan_special, reroll_kind, special_attack, structure_symbols,
)
from .context import bonus_effects, snapshot
from .events import (
    AttackDeclared, DecisionMade, SupportPlayed,
    AttackFinished, AttackResolved, AttackRolled, BreakthroughMade, DecisionPending, DiceRerolled, RetreatIgnored,
    UnitEliminated, UnitRetreated,
)
from .medals import award, elimination_medals, entries, settle
from .outbox import Outbox
from .retreat import retreat_paths
from .scenario import Hex
from .choices import EWEB, EWEB_CONFIRM, choice, cite
from .state import AttackCtx, Pending, support_cards_for
from .terms import faces as face_words
from .terms import hex_text, path_text, side
from .terms import terrain as terrain_word
from .terrain import STOP_TERRAIN, TRENCH, enter_refusal
from .units import UNIT_SPECS


#: The unit rule beside HOTH-HIT-2 (hit only by explosions) and beside HOTH-ELIM-2/3 (medals).
_HIT_BY_RULE = {"probe_droids": "HOTH-UNIT-PROBE-4", "rebel_artillery": "HOTH-UNIT-ARTY-5"}
_MEDAL_RULE = {"at_at": "HOTH-UNIT-ATAT-7", "probe_droids": "HOTH-UNIT-PROBE-5", "rebel_artillery": "HOTH-UNIT-ARTY-6"}

#: ``Pending.which`` of the attacker's own support re-roll window (the same whatever cards it holds).
SUPPORT_REROLL = "support"


def defender_seat(out: Outbox, faction: str) -> str:
    """The seat deciding for a faction's units outside its turn (team play: the first member, HOTH-TEAM-2)."""
    return faction


def attack(out: Outbox, unit_id: str, target_id: str, breakthrough: bool = False, special: bool = False) -> None:
    st = out.state
    u = st.units.get(unit_id)
    if u is None:
        raise RuleViolation("HOTH-ATTACK-7", msg("There is no unit '{unit}' on the battlefield.", unit=unit_id))
    assert st.turn is not None
    if u.faction != st.turn.faction:
        raise RuleViolation("HOTH-GLOSS-4", msg("{unit} is an enemy unit.", unit=unit_id))
    bad = may_attack_refusal(st, u, breakthrough)
    if bad is not None:
        raise bad
    snap = snapshot(st)
    plan = (plan_special if special else plan_attack)(st, snap, u, target_id, explain=out.explain)
    if isinstance(plan, RuleViolation):
        raise plan
    o = next(x for x in st.turn.ordered if x.unit == unit_id)
    ctx = AttackCtx(attacker=unit_id, target=target_id, structure=plan.structure, distance=plan.distance, faces=(),
                    bonus=o.bonus, breakthrough=breakthrough, special=special)
    if not plan.structure:
        tgt = st.units[target_id]
        cards = reaction_window(st, tgt.faction, "on_enemy_attack")
        if cards is not None:
            # content 5.3 (e.g. Covering Fire): the defender may react once the attack is declared
            out.emit(AttackDeclared(attack=ctx, dice=plan.dice), RulingBuilder().add(
                "HOTH-ATTACK-9", msg_n("{attacker} declares an attack on {target} ({count} dice).",
                                       "{attacker} declares an attack on {target} ({count} dice).", "count",
                                       attacker=unit_id, target=target_id, count=plan.dice)),
                summary=msg("{attacker} declares an attack on {target}", attacker=unit_id, target=target_id))
            # UMPIRE-SEAL-3: the cards offered are not written into the log (the fold derives them from the
            # state, domain/hoth/evolve.py): a side's support cards outlive a campaign's battle, whose end
            # makes its log public
            out.emit(DecisionPending(pending=Pending(kind="support", which="on_enemy_attack",
                                                     seat=defender_seat(out, tgt.faction), unit=target_id)),
                     RulingBuilder().add("HOTH-CARD-4", msg("The defender may play a support card now.")),
                     summary=msg("support decision"), visibility=defender_seat(out, tgt.faction))
            return
    roll(out, plan, ctx, 0)


def resume_attack(out: Outbox, penalty: int, card: str | None = None) -> None:
    """Roll the declared attack after the defender's reaction window."""
    st = out.state
    ctx = st.attack
    assert ctx is not None
    u = st.units[ctx.attacker]
    plan = (plan_special if ctx.special else plan_attack)(st, snapshot(st), u, ctx.target, explain=out.explain)
    assert not isinstance(plan, RuleViolation)  # nothing moved since the declaration
    roll(out, plan, ctx, penalty, card)


def roll(out: Outbox, plan: Any, ctx: AttackCtx, penalty: int, card: str | None = None) -> None:
    st = out.state
    unit_id, target_id = ctx.attacker, ctx.target
    u = st.units[unit_id]
    rb = RulingBuilder()
    rb.add("HOTH-ATTACK-9", msg("{attacker} attacks {target}.", attacker=unit_id, target=target_id),
           attacker=unit_id, target=target_id)
    if ctx.breakthrough:
        rb.add("HOTH-SPECIAL-ASSAULT-4", msg("Breakthrough attack: any enemy in range of the new hex."))
    add_plan_steps(rb, plan)
    if penalty:
        plan.dice -= penalty
        rb.add("HOTH-CARD-4", msg("The defender's support card {card}: -{count} die.", card=title_of(st.cards, card),
                                       count=penalty),
               dice=-penalty, card=card)
    if plan.dice <= 0:
        rb.add("HOTH-MOD-7", msg("No die is left to roll: the attack has no effect."), dice=plan.dice)
        out.emit(AttackRolled(attack=ctx, dice=0, attacker_hex=u.hex, target_hex=plan.target_hex,
                              examined=plan.sight.examined if plan.sight is not None else ()), rb,
                 summary=msg("{attacker} attacks {target}: no dice", attacker=unit_id, target=target_id))
        res = RulingBuilder().add("HOTH-MOD-7", msg("No die rolled: no hit, no retreat."), dice=plan.dice, hits=0)
        if penalty:
            res.add("HOTH-CARD-4", msg("The defender's support card {card} took the last die(s) away.",
                                           card=title_of(st.cards, card)),
                    card=card, dice=-penalty)
        out.emit(AttackResolved(attacker=unit_id, target=target_id, hits=0, losses=0), res, summary=msg("no effect"))
        finish(out)
        return
    first_index = out.dice.next_index("dice")
    faces = tuple(out.dice.faces(DIE_FACES, plan.dice))
    rb.add("HOTH-MOD-7", msg_n("Final count: {count} dice.", "Final count: {count} dice.", "count", count=plan.dice),
           dice=plan.dice)
    rb.add("HOTH-HIT-1", msg("Rolled {dice}.", dice=face_words(faces)), roll_indices=list(range(first_index, first_index + plan.dice)),
           faces=list(faces))
    if u.badge == "eweb" and not u.eweb_set:
        rb.add("HOTH-SPECIAL-EWEB-5", msg("The E-Web {unit} moved (Moved side up): no re-roll.", unit=unit_id))
    ctx = msgspec.structs.replace(ctx, faces=faces)
    out.emit(AttackRolled(attack=ctx, dice=plan.dice, attacker_hex=u.hex, target_hex=plan.target_hex,
                          examined=plan.sight.examined if plan.sight is not None else ()), rb,
             summary=msg_n("{attacker} attacks {target} with {count} dice: {dice}",
                           "{attacker} attacks {target} with {count} dice: {dice}", "count", attacker=unit_id,
                           target=target_id, count=plan.dice, dice=face_words(faces)))
    kind = reroll_kind(out.state, u)
    if kind == "miss" and "miss" not in faces:
        kind = None
    if kind is not None:
        eweb = u.badge == "eweb" and u.eweb_set
        rule = "HOTH-SPECIAL-EWEB-6" if eweb else "HOTH-CARD-4"
        rb = RulingBuilder()
        if eweb and kind != "miss":
            cite(rb, EWEB, choice(out.state, EWEB), msg("an E-Web re-rolls any dice its player picks")
                 if choice(out.state, EWEB) == "any" else msg("an E-Web re-rolls all its attack dice or none"))
        out.emit(DecisionPending(pending=Pending(kind="reroll", seat=out.state.turn.seat, unit=unit_id, which=kind)),
                 rb.add(rule, _may_reroll(unit_id, kind), which=kind), summary=msg("re-roll decision"))
        return
    cards = reaction_window(out.state, u.faction, "on_own_attack")
    if cards is not None:
        # content 5.3 (e.g. Veteran Gunners): re-rolling with the card plays it; with no such card in hand the
        # window still opens (content 3.1: hidden cards) and only keeping the roll is legal
        seat = out.state.turn.seat  # type: ignore[union-attr]
        # UMPIRE-SEAL-3: the cards are not logged (the fold derives them: domain/hoth/evolve.py)
        out.emit(DecisionPending(pending=Pending(kind="reroll", seat=seat, unit=unit_id, which=SUPPORT_REROLL)),
                 RulingBuilder().add("HOTH-CARD-4", msg("A support card may re-roll this attack's dice.")),
                 summary=msg("re-roll decision"), visibility=seat)
        return
    resolve(out)


def reroll(out: Outbox, indices: tuple[int, ...]) -> None:
    st = out.state
    p, ctx = st.pending, st.attack
    assert p is not None and ctx is not None
    idx = tuple(indices)
    if list(idx) != sorted(set(idx)) or any(not 0 <= i < len(ctx.faces) for i in idx):
        raise RuleViolation("HOTH-DICE-4", msg("Dice indices are listed once each, in increasing order, between 0 "
                                               "and {last}.", last=len(ctx.faces) - 1))
    if p.which == SUPPORT_REROLL and idx and not p.cards:
        raise RuleViolation("HOTH-CARD-4", msg("No support card of yours re-rolls dice now: keep the roll (reroll "
                                               "with no dice)."))
    if p.which == "miss":
        misses = tuple(i for i, f in enumerate(ctx.faces) if f == "miss")
        if idx and tuple(sorted(idx)) != misses:
            raise RuleViolation("HOTH-CARD-4", msg("This card re-rolls all X results or none."))
    if p.which == "all" and idx and idx != tuple(range(len(ctx.faces))):
        raise RuleViolation(EWEB, msg("Under {choice} (all): the E-Web re-rolls all its attack dice or none "
                                      "(dice {dice} or []).", choice=EWEB, dice=str(list(range(len(ctx.faces))))))
    if p.cards and idx:
        out.emit(SupportPlayed(seat=p.seat, card=p.cards[0]), RulingBuilder().add(
            "HOTH-CARD-4", msg("{seat}: support card {card} played to re-roll.", seat=side(p.seat),
                                   card=title_of(out.state.cards, p.cards[0])), card=p.cards[0]),
            summary=msg("support re-roll"))
    faces = list(ctx.faces)
    first = out.dice.next_index("dice")
    new = out.dice.faces(DIE_FACES, len(idx))
    for i, f in zip(sorted(idx), new):
        faces[i] = f
    rb = RulingBuilder().add("HOTH-DICE-4", msg("Re-rolled dice {indices}: now {dice}.", indices=str(list(sorted(idx))),
                                 dice=face_words(faces)),
                             indices=sorted(idx), roll_indices=list(range(first, first + len(idx))),
                             new_faces=list(new), faces=faces)
    out.emit(DiceRerolled(indices=tuple(sorted(idx)), faces=tuple(faces)), rb, summary=msg("dice re-rolled"))
    resolve(out)


def _may_reroll(unit_id: str, kind: str) -> Message:
    if kind == "any":
        return msg("{unit} may re-roll any number of dice once.", unit=unit_id)
    if kind == "all":
        return msg("{unit} may re-roll all the attack dice once.", unit=unit_id)
    return msg("{unit} may re-roll all X dice once.", unit=unit_id)


def _special_result(sp: Any, target: str, destroyed: bool) -> Message:
    p = {"symbols": "/".join(sp.destroys_on), "target": target}
    if sp.no_confirmation:
        return (msg("Special attack: {symbols} destroys {target} outright with no confirmation roll: destroyed.", **p)
                if destroyed else
                msg("Special attack: {symbols} destroys {target} outright with no confirmation roll: no effect.", **p))
    return (msg("Special attack: {symbols} destroys {target} outright: destroyed.", **p) if destroyed
            else msg("Special attack: {symbols} destroys {target} outright: no effect.", **p))


def resolve(out: Outbox) -> None:
    """HOTH-HIT-1: hits first, then retreats."""
    st = out.state
    ctx = st.attack
    assert ctx is not None and st.turn is not None
    attacker = st.units[ctx.attacker]
    conv = conversions(st, ctx.attacker)
    faces = convert(ctx.faces, conv)
    rb = RulingBuilder()
    if conv and faces != ctx.faces:
        rb.add("HOTH-CARD-7", msg("Card: results converted to {dice}.", dice=face_words(faces)), faces=list(faces))
    if ctx.structure:
        sdef = next(s for s in st.scenario.structures if s.id == ctx.target)  # type: ignore[union-attr]
        symbols = structure_symbols(st, ctx.attacker, tuple(sdef.destroyed_by))
        destroyed = any(f in symbols for f in faces)
        rb.add("HOTH-STRUCT-5", (msg("{target} is destroyed by {symbols}: destroyed.", target=ctx.target,
                                     symbols="/".join(symbols)) if destroyed else
                                 msg("{target} is destroyed by {symbols}: no effect.", target=ctx.target,
                                     symbols="/".join(symbols))), symbols=list(symbols),
               destroyed=destroyed)
        if "retreat" in faces:
            rb.add("HOTH-STRUCT-1", msg("A structure never retreats."))
        out.emit(AttackResolved(attacker=ctx.attacker, target=ctx.target, hits=int(destroyed), losses=0,
                                structure_destroyed=destroyed), rb,
                 summary=msg("{target} destroyed", target=ctx.target) if destroyed else
                 msg("{target} undamaged", target=ctx.target))
        if destroyed and sdef.medal_to:
            award(out, sdef.medal_to, 1, msg("destroyed {target}", target=ctx.target), "HOTH-STRUCT-6")
        if settle(out):
            return
        finish(out)
        return
    target = st.units[ctx.target]
    tspec = UNIT_SPECS[target.unit]
    sp = special_attack(st, ctx.attacker) if ctx.special else None
    if sp is not None:
        destroyed = bool(sp.destroys_on) and any(f in sp.destroys_on for f in faces)
        rb.add("HOTH-CARD-4", _special_result(sp, target.id, destroyed), destroyed=destroyed)
        losses = target.figures if destroyed else 0
        out.emit(AttackResolved(attacker=ctx.attacker, target=ctx.target, hits=int(destroyed), losses=losses,
                                eliminated=destroyed), rb,
                 summary=msg("{target} destroyed", target=ctx.target) if destroyed else
                 msg("{target} unharmed", target=ctx.target))
        if destroyed:
            eliminate(out, target.id, attacker.faction)
            if settle(out):
                return
        finish(out)
        return
    by = count_hits(faces, tspec.hit_by)
    hits = sum(by.values())
    rb.add("HOTH-HIT-2", msg_n("{name} are hit by {symbols}: {count} hit(s).", "{name} are hit by {symbols}: {count} hit(s).",
                 "count", name=tspec.name, symbols="/".join(tspec.hit_by), count=hits),
           hits_by_symbol=by, hits=hits)
    if target.unit in _HIT_BY_RULE:
        rb.add(_HIT_BY_RULE[target.unit], msg("{name} are hit only by explosions.", name=tspec.name))
    confirmation: tuple[str, ...] = ()
    # HOTH-GAP-20: a card re-roll applies to the initial roll only (above), never to this roll; an E-Web's
    # re-roll too, unless the table reads HOTH-CHOICE-EWEB-CONFIRM "yes"
    if tspec.confirmation_roll and hits:
        first = out.dice.next_index("dice")
        raw = tuple(out.dice.faces(DIE_FACES, hits))
        confirmation = convert(raw, conv, confirmation=True)
        ok = "explosion" in confirmation
        rb.add("HOTH-HIT-5", (msg_n("AT-AT confirmation roll of {count} dice: {dice}: destroyed.",
                                     "AT-AT confirmation roll of {count} dice: {dice}: destroyed.", "count",
                                     count=hits, dice=face_words(raw)) if ok else
                               msg_n("AT-AT confirmation roll of {count} dice: {dice}: unharmed.",
                                     "AT-AT confirmation roll of {count} dice: {dice}: unharmed.", "count",
                                     count=hits, dice=face_words(raw))), roll_indices=list(range(first, first + hits)),
               faces=list(raw), counted_as=list(confirmation), destroyed=ok)
        if attacker.badge == "eweb" and attacker.eweb_set:
            raw, confirmation, ok = _eweb_confirmation(out, rb, raw, confirmation, conv, ok)
        rb.add("HOTH-UNIT-ATAT-4", msg("Hits on an AT-AT are confirmed: it is destroyed only by an explosion in this "
                                   "roll."))
        losses = 1 if ok else 0
    else:
        losses = min(hits, target.figures)
        if hits > target.figures:
            rb.add("HOTH-HIT-4", msg_n("{count} hit(s) wasted.", "{count} hit(s) wasted.", "count",
                                         count=hits - target.figures), wasted=hits - target.figures)
    rb.add("HOTH-HIT-3", msg_n("{unit} loses {count} figure(s).", "{unit} loses {count} figure(s).", "count",
                              unit=target.id, count=losses), losses=losses,
           figures_left=target.figures - losses)
    eliminated = losses >= target.figures
    retreats = faces.count("retreat")
    out.emit(AttackResolved(attacker=ctx.attacker, target=ctx.target, hits=hits, losses=losses,
                            confirmation=confirmation, eliminated=eliminated, retreats=retreats), rb,
             summary=msg("{target}: {hits} hit(s), {losses} loss(es)", target=ctx.target, hits=hits, losses=losses))
    if eliminated:
        vacated = target.hex
        eliminate(out, target.id, attacker.faction)
        if settle(out):
            return
        breakthrough_or_finish(out, vacated)
        return
    if retreats == 0:
        finish(out)
        return
    # HOTH-RETREAT-8: units that ignore retreats
    if tspec.ignores_retreat:
        rule = "HOTH-UNIT-ATAT-5" if target.unit == "at_at" else "HOTH-UNIT-ARTY-3"
        out.emit(RetreatIgnored(unit=target.id, count=retreats, reason=rule),
                 RulingBuilder().add("HOTH-RETREAT-8", msg("{name} ignore every retreat result.", name=tspec.name),
                                     by_rule=rule, ignored=retreats),
                 summary=msg_n("{unit} ignores {count} retreat(s)", "{unit} ignores {count} retreat(s)", "count",
                               unit=target.id, count=retreats))
        finish(out)
        return
    cards = reaction_window(out.state, target.faction, "on_own_retreat")
    if cards is not None:
        seat = defender_seat(out, target.faction)
        out.emit(DecisionPending(pending=Pending(kind="support", which="on_own_retreat", seat=seat, unit=target.id,
                                                 steps=retreats)),  # UMPIRE-SEAL-3: cards derived by the fold
                 RulingBuilder().add("HOTH-CARD-4", msg("The defender may play a support card against the retreat.")),
                 summary=msg("support decision"), visibility=seat)
        return
    retreat_stage(out, retreats)


def _eweb_confirmation(out: Outbox, rb: RulingBuilder, raw: tuple[str, ...], confirmation: tuple[str, ...],
                       conv: Any, ok: bool) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """HOTH-CHOICE-EWEB-CONFIRM: an E-Web with its token Set whose hits on an AT-AT are being confirmed. Under
    "yes" it re-rolls the confirmation roll once when that shows no explosion (a re-roll can then only help
    it, so the engine does not ask: every die, which "any" and "all" of HOTH-CHOICE-EWEB both allow); under
    "no" the confirmation roll stands. (raw faces, counted as, destroyed)."""
    opt = choice(out.state, EWEB_CONFIRM)
    if opt == "no":
        cite(rb, EWEB_CONFIRM, opt, msg("the E-Web's re-roll is for its attack dice only; the confirmation roll "
                                        "stands (an explosion).") if ok else
             msg("the E-Web's re-roll is for its attack dice only; the confirmation roll stands (no explosion)."))
        return raw, confirmation, ok
    if ok:
        cite(rb, EWEB_CONFIRM, opt, msg("the E-Web may re-roll the confirmation roll, but it already shows an "
                                        "explosion: kept."))
        return raw, confirmation, ok
    first = out.dice.next_index("dice")
    raw = tuple(out.dice.faces(DIE_FACES, len(raw)))
    confirmation = convert(raw, conv, confirmation=True)
    ok = "explosion" in confirmation
    cite(rb, EWEB_CONFIRM, opt, msg("the E-Web re-rolls the confirmation roll once (it showed no explosion): "
                                    "{dice}: destroyed.", dice=face_words(raw)) if ok else
         msg("the E-Web re-rolls the confirmation roll once (it showed no explosion): {dice}: unharmed.",
             dice=face_words(raw)),
         roll_indices=list(range(first, first + len(raw))), faces=list(raw), counted_as=list(confirmation),
         destroyed=ok)
    return raw, confirmation, ok


def retreat_stage(out: Outbox, retreats: int) -> None:
    """Lasting card effects, the trench choice, then the retreat itself (HOTH-RETREAT-*)."""
    ctx = out.state.attack
    assert ctx is not None
    target = out.state.units[ctx.target]
    tspec = UNIT_SPECS[target.unit]
    lasting = [x for x in out.state.lasting if x.unit == target.id and x.effect == "ignore_retreat"]
    if lasting:
        n = min(retreats, sum(x.count for x in lasting))
        out.emit(RetreatIgnored(unit=target.id, count=n, reason="HOTH-CARD-4"),
                 RulingBuilder().add("HOTH-CARD-4", msg_n("A card lets {unit} ignore {count} retreat result(s).",
                                                        "A card lets {unit} ignore {count} retreat result(s).",
                                                        "count", unit=target.id, count=n), ignored=n),
                 summary=msg_n("{unit} ignores {count} retreat(s)", "{unit} ignores {count} retreat(s)", "count",
                               unit=target.id, count=n))
        retreats -= n
        if retreats == 0:
            finish(out)
            return
    snap = snapshot(out.state)
    if tspec.kind == "infantry" and in_trench(out.state, snap, target):
        if any(isinstance(e, NoTerrainRetreatIgnore) for e in bonus_effects(out.state, ctx.attacker)):
            pass
        else:
            out.emit(DecisionPending(pending=Pending(kind="trench", seat=defender_seat(out, target.faction),
                                                     unit=target.id, steps=retreats)),
                     RulingBuilder().add("HOTH-TERRAIN-TRENCH-3", msg("{unit} is infantry in a trench and may ignore 1 "
                                                                     "retreat result.", unit=target.id),
                                         retreats=retreats),
                     summary=msg("trench decision"))
            return
    start_retreat(out, retreats)


def reaction_window(state: Any, faction: str, timing: str) -> tuple[str, ...] | None:
    """Content 3.1 / 5.3: whether a support window opens for ``faction`` now, and the cards it may play in it.

    Support cards are hidden (content 3.1), so whether the window opens depends on public information only:
    the faction holds at least one support card (the count is public) and has not played one this turn
    (at most 1 per turn; plays are public). The cards offered are its cards with this reactive ``timing``,
    possibly none (then only passing is legal). None: no window.
    """
    if state.support_turn.get(faction) == state.turn_no:
        return None
    if not state.support.get(faction, ()):
        return None
    return support_cards_for(state, faction, timing)


def support_reaction(out: Outbox, play: bool, card: str | None = None) -> None:
    """The defender's answer in a support window (content 5.3 reactive cards)."""
    p = out.state.pending
    assert p is not None and p.kind == "support"
    if play:
        if card not in p.cards:
            raise RuleViolation("HOTH-CARD-4", msg("That support card cannot be played in this window."))
        out.emit(SupportPlayed(seat=p.seat, card=card, target=p.unit),  # type: ignore[arg-type]
                 RulingBuilder().add("HOTH-CARD-4", msg("{seat}: support card {card} played.", seat=side(p.seat),
                                                        card=title_of(out.state.cards, card)), card=card),
                 summary=msg("{seat}: support card {card} played", seat=side(p.seat),
                             card=title_of(out.state.cards, card)))
    else:
        out.emit(DecisionMade(seat=p.seat, kind="support", choice="pass"), RulingBuilder().add(
            "HOTH-CARD-4", msg("{seat}: no support card played.", seat=side(p.seat))), summary=msg("no support card"))
    if p.which == "on_enemy_attack":
        penalty = 0
        if play:
            c = out.state.cards[card]  # type: ignore[index]
            penalty = sum(e.dice for e in c.effects if isinstance(e, EnemyDicePenalty))
        resume_attack(out, penalty, card if play else None)
    elif p.which == "on_own_retreat":
        if play:
            out.emit(RetreatIgnored(unit=p.unit or "", count=p.steps, reason="HOTH-CARD-4"), RulingBuilder().add(
                "HOTH-CARD-4", msg_n("{unit} ignores all {count} retreat result(s).",
                                     "{unit} ignores all {count} retreat result(s).", "count", unit=p.unit,
                                     count=p.steps)), summary=msg("retreats ignored"))
            finish(out)
        else:
            retreat_stage(out, p.steps)


def trench_choice(out: Outbox, ignore: bool) -> None:
    p = out.state.pending
    assert p is not None and p.unit is not None
    steps = p.steps
    if ignore:
        out.emit(RetreatIgnored(unit=p.unit, count=1, reason="HOTH-TERRAIN-TRENCH-3"),
                 RulingBuilder().add("HOTH-TERRAIN-TRENCH-3", msg("{unit} ignores 1 retreat result in its trench.",
                                                                  unit=p.unit), ignored=1),
                 summary=msg("{unit} ignores 1 retreat (trench)", unit=p.unit))
        steps -= 1
    else:
        out.emit(RetreatIgnored(unit=p.unit, count=0, reason="HOTH-TERRAIN-TRENCH-3"),
                 RulingBuilder().add("HOTH-TERRAIN-TRENCH-3", msg("{unit} does not use its trench.", unit=p.unit),
                                     ignored=0),
                 summary=msg("{unit} does not use the trench", unit=p.unit))
    if steps <= 0:
        finish(out)
        return
    start_retreat(out, steps)


def start_retreat(out: Outbox, steps: int) -> None:
    st = out.state
    ctx = st.attack
    assert ctx is not None
    u = st.units[ctx.target]
    n, paths = retreat_paths(st, snapshot(st), u, steps)
    distinct = sorted(set(paths))
    if len(distinct) > 1:
        out.emit(DecisionPending(pending=Pending(kind="retreat", seat=defender_seat(out, u.faction), unit=u.id,
                                                 steps=steps, options=tuple(distinct))),
                 RulingBuilder().add("HOTH-RETREAT-3", msg_n("The owner of {unit} chooses its retreat path ({n} of "
                                                             "{count} hex(es)).", "The owner of {unit} chooses its "
                                                             "retreat path ({n} of {count} hex(es)).", "count",
                                                             unit=u.id, n=n, count=steps), steps=steps,
                                     options=[[list(h) for h in p] for p in distinct]),
                 summary=msg("retreat decision"))
        return
    apply_retreat(out, distinct[0] if distinct else (), steps)


def retreat_choice(out: Outbox, path: tuple[Hex, ...]) -> None:
    p = out.state.pending
    assert p is not None
    path = tuple(tuple(h) for h in path)  # type: ignore[misc]
    if path not in p.options:
        raise RuleViolation("HOTH-RETREAT-7", msg("That is not a legal retreat path: each step goes towards your "
                                                  "baseline, avoids units and impassable hexes, and the retreat goes "
                                                  "as far as it can."), options=[list(map(list, o)) for o in p.options])
    apply_retreat(out, path, p.steps)


def apply_retreat(out: Outbox, path: tuple[Hex, ...], steps: int) -> None:
    st = out.state
    ctx = st.attack
    assert ctx is not None
    u = st.units[ctx.target]
    losses = steps - len(path)
    rb = RulingBuilder().add("HOTH-RETREAT-1", msg_n("{count} retreat result(s): {unit} retreats {count} hex(es) towards "
                                                     "its baseline.", "{count} retreat result(s): {unit} retreats "
                                                     "{count} hex(es) towards its baseline.", "count", unit=u.id,
                                                     count=steps), steps=steps)
    rb.add("HOTH-RETREAT-2", msg("Each step goes to one of the two hexes in the next row towards the baseline: "
                                 "{path}.", path=path_text((u.hex, *path))) if path else
           msg("Each step goes to one of the two hexes in the next row towards the baseline."),
           path=[list(h) for h in path], from_hex=list(u.hex))
    snap = snapshot(st)
    passed = {snap.terrain.get(h) for h in path}
    for terrain, rule in (("rocks", "HOTH-TERRAIN-ROCKS-5"), ("buildings", "HOTH-TERRAIN-BUILDING-5")):
        if terrain in passed:
            rb.add("HOTH-RETREAT-4", msg("A retreating unit passes through {terrain} without stopping.",
                                                 terrain=terrain_word(terrain)), terrain=terrain)
            rb.add(rule, msg("Retreating through {terrain} does not stop the unit.", terrain=terrain_word(terrain)))
    if losses:
        rb.add("HOTH-RETREAT-6", msg_n("{count} step(s) cannot be made: {unit} loses {count} figure(s).",
                                         "{count} step(s) cannot be made: {unit} loses {count} figure(s).", "count",
                                         unit=u.id, count=losses),
               losses=losses)
    entered = entries(out, rb, u.id, path)
    out.emit(UnitRetreated(unit=u.id, path=path, losses=min(losses, u.figures)), rb,
             summary=_retreat_summary(u.id, path, losses))
    # HOTH-RETREAT-9 / HOTH-OBJ-PERM-3: the hexes are entered before the missing steps cost figures, so a
    # unit eliminated by retreat losses still captures; HOTH-WIN-5: a victory by that capture ends the game first.
    if settle(out, entered, by_retreat=True):
        return
    if losses >= u.figures:
        attacker_faction = out.state.units[ctx.attacker].faction if ctx.attacker in out.state.units else \
            ("rebel" if u.faction == "imperial" else "imperial")
        eliminate(out, u.id, attacker_faction, rule="HOTH-GAP-14")
        if settle(out):
            return
        breakthrough_or_finish(out, u.hex)
        return
    breakthrough_or_finish(out, u.hex if path else None)


def _retreat_summary(uid: str, path: tuple[Hex, ...], losses: int) -> Message:
    p = {"unit": uid, "count": len(path), "losses": losses}
    if path and losses:
        return msg_n("{unit} retreats {count} hex(es) to {hex}, loses {losses}",
                     "{unit} retreats {count} hex(es) to {hex}, loses {losses}", "count", hex=hex_text(path[-1]), **p)
    if path:
        return msg_n("{unit} retreats {count} hex(es) to {hex}", "{unit} retreats {count} hex(es) to {hex}", "count",
                     hex=hex_text(path[-1]), **p)
    if losses:
        return msg_n("{unit} retreats {count} hex(es), loses {losses}", "{unit} retreats {count} hex(es), loses {losses}",
                     "count", **p)
    return msg_n("{unit} retreats {count} hex(es)", "{unit} retreats {count} hex(es)", "count", **p)


def eliminate(out: Outbox, unit_id: str, attacker_faction: str, rule: str = "HOTH-ELIM-1") -> None:
    u = out.state.units[unit_id]
    n, mrule = elimination_medals(out, attacker_faction, u.unit)
    rb = RulingBuilder().add("HOTH-ELIM-1", msg("The last figure of {unit} is removed: eliminated.", unit=unit_id))
    if rule != "HOTH-ELIM-1":
        rb.add(rule, msg("Eliminated by retreat losses: the attacker earns the medal."))
    rb.add(mrule, msg_n("{faction}: {count} medal(s) earned for it.", "{faction}: {count} medal(s) earned for it.",
                          "count", faction=side(attacker_faction), count=n), medals=n)
    if mrule in ("HOTH-ELIM-2", "HOTH-ELIM-3") and u.unit in _MEDAL_RULE:
        rb.add(_MEDAL_RULE[u.unit], msg_n("{name}: {count} medal(s).", "{name}: {count} medal(s).", "count",
                                                 name=UNIT_SPECS[u.unit].name, count=n), medals=n)
    out.emit(UnitEliminated(unit=unit_id, by=attacker_faction), rb, summary=msg("{unit} eliminated", unit=unit_id))
    if n:
        award(out, attacker_faction, n, msg("eliminated {unit}", unit=unit_id), mrule)


def breakthrough_or_finish(out: Outbox, vacated: Hex | None) -> None:
    """HOTH-SPECIAL-ASSAULT-1..6: offer the breakthrough when it is possible."""
    st = out.state
    ctx = st.attack
    assert ctx is not None and st.turn is not None
    a = st.units.get(ctx.attacker)
    if (vacated is None or a is None or a.badge != "assault" or ctx.breakthrough or ctx.distance != 1
            or ctx.structure or a.id in st.turn.breakthroughs):
        finish(out)
        return
    snap = snapshot(st)
    s = UNIT_SPECS[a.unit]
    if vacated in snap.occ or enter_refusal(snap.terrain.get(vacated), vacated in snap.structs, s.flying,
                                            s.cannot_enter) is not None:
        finish(out)
        return
    out.emit(DecisionPending(pending=Pending(kind="breakthrough", seat=st.turn.seat, unit=a.id, vacated=vacated)),
             RulingBuilder().add("HOTH-SPECIAL-ASSAULT-1", msg("Assault troops {unit} may take the vacated hex {hex} and attack "
                                                               "again.", unit=a.id, hex=hex_text(vacated)),
                                 hex=list(vacated)), summary=msg("breakthrough decision"))


def breakthrough_choice(out: Outbox, advance: bool) -> None:
    p = out.state.pending
    assert p is not None and p.unit is not None and p.vacated is not None
    uid = p.unit
    if not advance:
        out.emit(BreakthroughMade(unit=uid, to=None),
                 RulingBuilder().add("HOTH-SPECIAL-ASSAULT-6", msg("{unit} does not break through (optional).", unit=uid)),
                 summary=msg("{unit} declines the breakthrough", unit=uid))
        finish(out)
        return
    snap = snapshot(out.state)
    terrain = snap.terrain.get(tuple(p.vacated))  # type: ignore[arg-type]
    stopped = terrain in STOP_TERRAIN
    rb = RulingBuilder().add("HOTH-SPECIAL-ASSAULT-1", msg("{unit} moves into {hex}.", unit=uid, hex=hex_text(p.vacated)),
                             hex=list(p.vacated))
    if stopped:
        rb.add("HOTH-SPECIAL-ASSAULT-5", msg("It entered {terrain}, so it cannot attack again (HOTH-MOVE-10).",
                                                   terrain=terrain_word(terrain)))
    out.emit(BreakthroughMade(unit=uid, to=p.vacated, stopped=stopped), rb, summary=msg("{unit} breaks through", unit=uid))
    if settle(out, [(uid, p.vacated)]):
        return
    out.emit(AttackFinished(attacker=uid), None, summary=msg("attack finished"))
    u = out.state.units.get(uid)
    if u is None or stopped or not breakthrough_targets(out.state, uid):
        return
    out.emit(DecisionPending(pending=Pending(kind="breakthrough_attack", seat=out.state.turn.seat, unit=uid)),  # type: ignore[union-attr]
             RulingBuilder().add("HOTH-SPECIAL-ASSAULT-3", msg("{unit} may attack again now, before any other unit.", unit=uid)),
             summary=msg("breakthrough attack decision"))


def breakthrough_targets(state, uid: str) -> list[str]:
    u = state.units[uid]
    if may_attack_refusal(state, u, True) is not None:
        return []
    snap = snapshot(state)
    out = [(t, False) for t in _candidate_targets(state, u)
           if not isinstance(plan_attack(state, snap, u, t), RuleViolation)]
    if special_attack(state, uid) is not None:
        out += [(t, True) for t in _candidate_targets(state, u)
                if t in state.units and not isinstance(plan_special(state, snap, u, t), RuleViolation)]
    return out


def _candidate_targets(state, u) -> list[str]:
    rng = len(UNIT_SPECS[u.unit].attack)
    out = [e.id for e in state.units.values() if e.faction != u.faction and board.distance(u.hex, e.hex) <= rng]
    sc = state.scenario
    for s in sc.structures:
        ss = state.structures.get(s.id)
        if s.attackable and s.owner != u.faction and ss is not None and not ss.destroyed \
                and board.distance(u.hex, ss.hex) <= rng:  # HOTH-ATTACK-8: never an own structure
            out.append(s.id)
    return out


def candidate_targets(state, u) -> list[str]:
    return _candidate_targets(state, u)


def finish(out: Outbox) -> None:
    ctx = out.state.attack
    out.emit(AttackFinished(attacker=ctx.attacker if ctx else ""), None, summary=msg("attack finished"))
