"""The Emperor's pushes (SOLO-PUSH): the push value, the target and its switch (SOLO-SWITCH-2), and each push
into the active hazards."""
from __future__ import annotations

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n, text_of

from .. import orders
from ..cards import boost
from ..choices import PUSH_BONUS, choice, cite
from ..combat import casualties, emperor_bonus, push_bonus_depends, push_bonus_locations
from ..content import ability_text
from ..events import Pushed, TargetChosen
from ..field import HAZARD_WOUNDS, Field
from ..grid import compass_pick
from ..outbox import Outbox
from ..push import Plan, best_hazard_plan, truncate
from ..sources import source_said
from ..state import EMPEROR, Warrior, Work
from ..targeting import RANGE_RULE, SYM_ALL, SYM_NEAREST, pick
from .abilities import done, performer_of
from .fallback import fallback
from .wording import TARGET, WHO, enemy_distances, tie_steps

#: SOLO-FALL-1b, in words.
_NO_PUSH = msg("it performs a push but cannot push any enemy into an active hazard")


def push_ability(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    performer = performer_of(out, a)
    if performer is None:
        done(out, w, skipped=True, rule="BASE-CARD-1", why=msg("No Emperor warrior can perform this push."))
        return
    rng = a.range or "MELEE"
    assert performer.cell is not None
    depends = push_bonus_depends(out.state, performer.cell)
    reading = choice(out.state, PUSH_BONUS)
    bonus, by = emperor_bonus(out, performer, ("PUSH",), "push", [(
        "SOLO-PUSH-1", msg("Before pushing, the Emperor adds every push bonus available to the pusher and flips "
                           "those cards; they stay flipped even if no push happens, and hazards they feed are already "
                           "off."))],
        locs=push_bonus_locations(out.state, Field(out.state), performer.cell))
    st = out.state
    performer = st.warriors[performer.id]
    crest = boost(st, EMPEROR, a.boost)
    value = a.value + bonus + crest
    field = Field(st)
    compass = orders.compass(out.state)
    rule = RANGE_RULE[rng]
    enemies = st.enemies(EMPEROR)
    targets, d, tie = pick(field, performer.cell, enemies, rule, compass)  # type: ignore[arg-type]
    rb = RulingBuilder()
    if depends:
        cite(rb, PUSH_BONUS, reading, msg("the push bonuses of the locations next to the pusher only")
             if reading == "adjacent" else msg("every face-up push bonus on the battlefield"))
    rb.add("SOLO-PUSH-2", msg("Push value V = {value} printed + {bonus} bonus + {crest} crest = {value2}.",
                              value=a.value, bonus=bonus, crest=crest, value2=value), V=value).add(
        "BASE-RANGE-2", msg("{rng} -> {rule}: {value} (PROPOSED, GAP-A-03).", rng=rng, rule=rule, value=WHO[rule]), targeting=rule).add(
        "SOLO-TGT-3", msg("Distances from {warrior}: {distances}.", warrior=performer.name,
                          distances=enemy_distances(st, d)), distances=dict(d))
    plans = {e.id: best_hazard_plan(field, e.id, value, compass) for e in enemies}
    if rule == SYM_ALL:
        rb.add("SOLO-SWITCH-4", msg("A push on every enemy never switches; an enemy that cannot reach a hazard is "
                                    "not pushed (INFERRED)."))
        doable = [t for t in targets if plans.get(t) is not None]
        out.emit(TargetChosen(performer=performer.id, source=w.source, ability=ability_text(a), rule=rule,
                              distances=d, targets=tuple(doable)), rb,
                 summary=msg("{source}: push targets {names}", source=source_said(w.source),
                             names=", ".join(st.warriors[t].name for t in doable) or msg("none")))
        if not doable:
            fallback(out, "SOLO-FALL-1b", _NO_PUSH, agenda)
            return
        for t in doable:
            if out.over:
                return
            _execute_push(out, performer, st.warriors[t], value, w.source, compass)
        done(out, w, skipped=False, rule="SOLO-PUSH-4", why=msg("Every push of the ability is done."))
        return
    if not targets:
        done(out, w, skipped=True, rule="SOLO-TGT-1", why=msg("No enemy warrior is left to push."))
        return
    t = targets[0]
    if tie:
        rb.add("SOLO-TGT-4", msg("Equally {value}: compass {compass} chooses {x_name}.",
                                 value=msg("near") if rule == SYM_NEAREST else msg("far"), compass=compass, x_name=st.warriors[t].name), compass=compass)
        tie_steps(rb, compass, [compass], st.warriors[t].cell or "", TARGET)
    rb.add("SOLO-TGT-5", msg("With the target selected, the switching rule for pushes is checked."))
    switched = ""
    plan = plans.get(t)
    if plan is None:
        alts = {i: p for i, p in plans.items() if p is not None and i != t}
        if not alts:
            rb.add("SOLO-PUSH-2", msg_n("{x_name} cannot be pushed into any active hazard within {value} step(s), "
                                        "and no other enemy can: the push is not performed.",
                                        "{x_name} cannot be pushed into any active hazard within {value} step(s), "
                                        "and no other enemy can: the push is not performed.", "value", x_name=st.warriors[t].name, value=value))
            out.emit(TargetChosen(performer=performer.id, source=w.source, ability=ability_text(a), rule=rule,
                                  distances=d, targets=()), rb, summary=msg("{source}: no enemy reaches a hazard",
                                                                            source=source_said(w.source)))
            fallback(out, "SOLO-FALL-1b", _NO_PUSH, agenda)
            return
        best = max(p.wounds for p in alts.values())
        top = {st.warriors[i].cell: i for i, p in alts.items() if p.wounds == best}
        cell, _ = compass_pick(top, compass)
        switched, t = t, top[cell]
        others = joined([_suffers(st.warriors[i].name, p.wounds) for i, p in sorted(alts.items())], ", ")
        rb.add("SOLO-SWITCH-2", msg("{warrior} cannot be pushed into any active hazard, but {others} can: switch to "
                                    "the one suffering most -> {target}{tie}.", warrior=st.warriors[switched].name,
                                    others=others, target=st.warriors[t].name,
                                    tie=msg(" (tie: compass {compass}, PROPOSED)", compass=compass) if len(top) > 1
                                    else ""), switched_to=t)
    else:
        rb.add("SOLO-SWITCH-3", msg("{x_name} can be pushed into an active hazard: it stays the target.",
                                    x_name=st.warriors[t].name))
    out.emit(TargetChosen(performer=performer.id, source=w.source, ability=ability_text(a), rule=rule, distances=d,
                          targets=(t,), compass=compass if tie else "", switched_from=switched,
                          switch_rule="SOLO-SWITCH-2" if switched else ""), rb,
             summary=msg("{source}: push target {x_name}", source=source_said(w.source), x_name=st.warriors[t].name))
    _execute_push(out, performer, st.warriors[t], value, w.source, compass)
    if not out.over:
        done(out, w, skipped=False, rule="SOLO-PUSH-4", why=msg("The push is done."))


def _suffers(name: str, wounds: int) -> Message:
    """``Rebel (2 wound(s))``: an enemy and the hazard wounds a push would give it (SOLO-SWITCH-2)."""
    return msg_n("{warrior} ({wounds} wound(s))", "{warrior} ({wounds} wound(s))", "wounds", warrior=name, wounds=wounds)


def _execute_push(out: Outbox, pusher: Warrior, target: Warrior, value: int, source: str, compass: str) -> None:
    st = out.state
    field = Field(st)
    plan: Plan | None = best_hazard_plan(field, target.id, value, compass)
    if plan is None:  # only after an earlier push of the same ability changed the battlefield (SYM_ALL)
        out.emit(Pushed(side=EMPEROR, pusher=pusher.id, target=target.id, source=source, value=value,
                        frm=target.cell or "", path=()), RulingBuilder().add(
            "SOLO-SWITCH-4", msg_n("{target_name} ({cell}) can no longer be pushed into an active hazard within "
                                   "{value} step(s) after the earlier push of this ability: the push does nothing to "
                                   "it (INFERRED).",
                                   "{target_name} ({cell}) can no longer be pushed into an active hazard within "
                                   "{value} step(s) after the earlier push of this ability: the push does nothing to "
                                   "it (INFERRED).", "value", target_name=target.name, cell=target.cell, value=value), target=target.id, V=value),
            summary=msg("{target_name} is not pushed (no active hazard in reach any more)", target_name=target.name))
        return
    path, entries = truncate(plan.path, field.active_hazard_cells(), target.left)
    ties = len(plan.candidates) > 1
    again = (msg(" (a target on a hazard must leave and re-enter, PROPOSED GAP-A-13)")
             if plan.k > 1 and target.cell == plan.first else "")
    rb = RulingBuilder().add(
        "SOLO-PUSH-2", msg("Push value V = {value}. The active hazards {warrior} ({cell}) can reach in the fewest "
                           "push steps ({k}): {candidates}; the compass {compass} of the current order card chooses "
                           "{first}{again}.", value=value, warrior=target.name, cell=target.cell, k=plan.k,
                           candidates=", ".join(plan.candidates), compass=compass, first=plan.first, again=again)
        if ties else msg_n("Push value V = {value}. The nearest active hazard {warrior} ({cell}) can reach is {first}, "
                           "in {count} push step(s){again}.", "Push value V = {value}. The nearest active hazard "
                           "{warrior} ({cell}) can reach is {first}, in {count} push step(s){again}.", "count",
                           value=value, warrior=target.name, cell=target.cell, first=plan.first, count=plan.k,
                           again=again),
        V=value, k=plan.k, candidates=list(plan.candidates), hazard=plan.first)
    if ties:  # SOLO-PUSH-2: equal candidates by the compass (PROPOSED)
        tie_steps(rb, compass, plan.arrows, plan.first, msg("hazard"))
    if value > plan.k:
        rb.add("SOLO-PUSH-3", msg("{value} push left after {first}: the Emperor keeps pushing only while each step "
                                  "still wounds (a: between two adjacent active hazards first; b: out to a free "
                                  "neighbour and back).", value=value - plan.k, first=plan.first))
    for rule, note in plan.notes:
        rb.add(rule, msg("{text}.", text=note))
    if len(path) < len(plan.path):
        rb.add("SOLO-PUSH-4", msg("{target_name} dies after {count} hazard wound(s): the push stops.",
                                  target_name=target.name, count=len(entries)))
    rb.add("SOLO-PUSH-5", msg_n("Your warriors are not exempt from hazards in the Emperor's turn: {count} entry(ies) "
                                "into active hazards, {hazard_wounds} wound(s) each (BASE-HAZ-2).",
                                "Your warriors are not exempt from hazards in the Emperor's turn: {count} entry(ies) "
                                "into active hazards, {hazard_wounds} wound(s) each (BASE-HAZ-2).", "hazard_wounds", count=len(entries), hazard_wounds=HAZARD_WOUNDS),
           wounds=len(entries) * HAZARD_WOUNDS, path=list(path))
    wounds = len(entries) * HAZARD_WOUNDS
    first = (f"nearest active hazard {plan.first} in {plan.k} step(s)"
             + (f" (of {', '.join(plan.candidates)}, compass {compass})" if ties else ""))
    out.emit(Pushed(side=EMPEROR, pusher=pusher.id, target=target.id, source=source, value=value,
                    frm=target.cell or '', path=path,
                    hazards=entries, wounds=wounds, plan="; ".join((first, *(text_of(t) for _, t in plan.notes)))), rb,
             summary=msg_n("{target_name} pushed {items}: {wounds} wound(s)",
                           "{target_name} pushed {items}: {wounds} wound(s)", "wounds", target_name=target.name, items=' -> '.join((target.cell or '',) + path), wounds=wounds))
    casualties(out)
