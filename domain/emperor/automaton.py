"""The Emperor: the automated opponent, deciding inside the engine (section 4 of the rules).

When the human's turn ends, ``emperor_turn`` runs the Emperor's whole turn (SOLO-TURN) and emits
every choice as an event with its ruling: the order card revealed, each step, each movement with
the cells considered and the tie-break (SOLO-MOVE, SOLO-TIE), the card chosen (SOLO-CARD), each
target and switch (SOLO-TGT, SOLO-SWITCH), pushes (SOLO-PUSH), star abilities (SOLO-STAR),
fallbacks (SOLO-FALL), the crest (SOLO-CREST) and location bonuses (SOLO-LOCB).

The turn is an agenda of :class:`~domain.emperor.state.Work` items. It stops only where the human
must decide -- the defense of its hero (BASE-DEF-1) -- and then the rest of the agenda is written
into the ``defense_requested`` event; the human's answer resumes it (``resume``). Nothing here is
random: the only draws are order-deck shuffles, on the kernel's ``automaton`` stream.
"""
from __future__ import annotations

from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import msg, msg_n

from . import orders
from .cards import boost, choose_card, requirement_now, scan_words, unique_crest_now
from .choices import PUSH_BONUS, STEP4, choice, cite
from .combat import casualties, emperor_bonus, flip, push_bonus_depends, push_bonus_locations, resolve_attack
from .content import Ability, Location, ability_text, requirement_text
from .events import (
    AbilityDone, CardActivated, CardResolved, DefenseRequested, Defended, EmperorMoved, FallbackUsed, Pushed,
    Refreshed, StarChosen, StepStarted, TargetChosen, TurnEnded, TurnStarted,
)
from .field import HAZARD_WOUNDS, Field, symbol_count
from .grid import compass_pick
from .movement import STEP4_READINGS, decide_move
from .outbox import Outbox
from .push import Plan, best_hazard_plan, truncate
from .state import EMPEROR, HELPER, HERO, HUMAN, Pending, Warrior, Work
from .targeting import RANGE_RULE, SYM_ALL, SYM_FARTHEST, SYM_NEAREST, dist_text, pick
from .turn_start import start_human_turn

_WHO = {SYM_NEAREST: "the nearest enemy warrior", SYM_FARTHEST: "the farthest enemy warrior",
        SYM_ALL: "every enemy warrior, your hero first"}


def arrow(out: Outbox) -> str:
    oc = out.state.current_order()
    return oc.compass if oc is not None else "N"


# -- the turn ----------------------------------------------------------------------------------

def emperor_turn(out: Outbox) -> None:
    """SOLO-TURN-1/2: advance the order deck, then perform the steps the order card lists."""
    with out.automaton():
        st = out.state
        n = st.turn_no + 1
        restored = tuple(sorted(k for k, v in st.flipped.items() if v == EMPEROR))
        rb = RulingBuilder().add("SOLO-GAME-1", msg("Your turn is over: the Emperor takes its turn."), turn=n)
        if restored:
            rb.add("BASE-LOC-4", msg("Locations the Emperor flipped are face up again: {restored} (PROPOSED, "
                                     "GAP-A-18).", restored=', '.join(restored)), locations=list(restored))
        rb.add("BASE-CREST-1", msg("The Emperor's applied crest initiative is cleared at the start of its turn."))
        out.emit(TurnStarted(side=EMPEROR, turn=n, restored=restored), rb, summary=msg("turn {n}: the Emperor", n=n))
        orders.advance(out, "turn")
        oc = out.state.current_order()
        assert oc is not None
        agenda = [Work(kind="step", step=s, index=i) for i, s in enumerate(oc.steps)]
        if "REFRESH_CHECK" not in oc.steps:  # SOLO-TURN-2 (INFERRED, GAP-A-04): once, after the last listed step
            agenda.append(Work(kind="step", step="REFRESH_CHECK", index=len(oc.steps)))
        agenda.append(Work(kind="end_turn"))
        run(out, agenda)


def run(out: Outbox, agenda: list[Work]) -> None:
    """Work through the agenda until it is empty, the game ends, or the human must decide."""
    with out.automaton():
        while agenda and not out.over:
            w = agenda.pop(0)
            _HANDLERS[w.kind](out, w, agenda)
            if out.state.pending is not None:
                return


def _end_turn(out: Outbox, w: Work, agenda: list[Work]) -> None:
    st = out.state
    out.emit(TurnEnded(side=EMPEROR, turn=st.turn_no), RulingBuilder().add(
        "SOLO-TURN-3", msg("The Emperor has performed every step of its order card."), card=st.order_current),
        summary=msg("the Emperor's turn ends"))
    start_human_turn(out)


def _step(out: Outbox, w: Work, agenda: list[Work]) -> None:
    st = out.state
    oc = st.current_order()
    assert oc is not None
    prepared = st.prepared(EMPEROR)
    hero = st.hero_of(EMPEROR)
    helper = st.helper_of(EMPEROR)
    assert hero is not None
    listed = w.index < len(oc.steps)
    where = (f"step {w.index + 1} of {oc.id} ({', '.join(oc.steps)})" if listed
             else f"{oc.id} lists no REFRESH_CHECK: it is performed once after the last step (INFERRED, GAP-A-04)")
    rb = RulingBuilder().add("SOLO-TURN-2", msg("{step}: {where}.", step=w.step, where=where), step=w.step, card=oc.id)
    if w.step == "MOVE":
        rb.add("SOLO-TURN-4", (f"The Emperor has {len(prepared)} prepared action card(s), so its hero moves"
                               if prepared else "The Emperor has no prepared action card: its hero does not move")
               + (f"; then its helper {helper.name} moves (even if the hero did not)." if helper and helper.alive
                  else "."), prepared=list(prepared))
        out.emit(StepStarted(step=w.step, index=w.index, card=oc.id, performed=bool(prepared) or bool(
            helper and helper.alive)), rb, summary=msg("Emperor step: {step}", step=w.step))
        front = []
        if prepared:
            front.append(Work(kind="move", warrior=hero.id, source="base move"))
        if helper is not None and helper.alive:
            front.append(Work(kind="move", warrior=helper.id, source="base move"))
        agenda[0:0] = front
    elif w.step == "ACTIVATE":
        if not prepared:
            rb.add("SOLO-TURN-5", msg("The Emperor has no prepared action card: nothing happens in this step."))
            out.emit(StepStarted(step=w.step, index=w.index, card=oc.id, performed=False), rb,
                     summary=msg("Emperor step: ACTIVATE (no prepared card)"))
            return
        rb.add("SOLO-TURN-5", msg("The Emperor chooses one prepared card and activates it; there is no two-action "
                                  "limit (SOLO-TURN-3)."))
        out.emit(StepStarted(step=w.step, index=w.index, card=oc.id), rb, summary=msg("Emperor step: ACTIVATE"))
        card_id, scanned = choose_card(out.state, oc.compass)
        assert card_id is not None
        card = out.state.card(card_id)
        rb2 = RulingBuilder().add(
            "SOLO-CARD-1", f"Compass {oc.compass}: scan the action row {scan_words(oc.compass)}: "
                           + ", ".join(f"{c} ({'prepared' if c in prepared else 'exhausted'})" for c in scanned)
                           + f" -> {card_id} {card.name} (PROPOSED, GAP-A-01).", scanned=list(scanned), card=card_id,
            compass=oc.compass).add(
            "SOLO-TIE-4", msg("Action cards are not on the battlefield: the compass points to the end of the row "
                              "to scan from.")).add(
            "SOLO-CARD-3", msg("Card choice is a replaceable policy: {card_policy}.",
                               card_policy=out.state.card_policy)).add(
            "BASE-CARD-1", f"{card_id}: " + "; ".join(ability_text(a) for a in card.abilities)
                           + " -- resolved in printed order.")
        out.emit(CardActivated(side=EMPEROR, card=card_id, scanned=scanned, compass=oc.compass), rb2,
                 summary=msg("the Emperor activates {card_id} {card_name}", card_id=card_id, card_name=card.name))
        agenda[0:0] = [Work(kind="ability", ability=a, card=card_id, source=f"{card_id} {card.name}")
                       for a in card.abilities] + [Work(kind="finish_card", card=card_id)]
    else:  # REFRESH_CHECK
        n = len(prepared)
        ex = st.exhausted.get(EMPEROR, ())
        do = n <= oc.refresh_value
        out.emit(StepStarted(step=w.step, index=w.index, card=oc.id, performed=do), rb,
                 summary=msg("Emperor step: REFRESH_CHECK"))
        out.emit(Refreshed(side=EMPEROR, cards=ex if do else (), prepared=n, refresh_value=oc.refresh_value,
                           refreshed=do), RulingBuilder().add(
            "SOLO-TURN-6", f"{n} prepared card(s) ({', '.join(prepared) or 'none'}) {'<=' if do else '>'} refresh "
                           f"value {oc.refresh_value} of {oc.id}: "
                           + (f"the Emperor refreshes (BASE-REF-1: every exhausted card becomes prepared: "
                              f"{', '.join(ex) or 'none was exhausted'})." if do else "no refresh."),
            prepared=n, refresh_value=oc.refresh_value, cards=list(ex if do else ())),
            summary=((msg("the Emperor refreshes") if do else msg("the Emperor does not refresh"))))


def _finish_card(out: Outbox, w: Work, agenda: list[Work]) -> None:
    card = out.state.card(w.card)
    out.emit(CardResolved(side=EMPEROR, card=w.card, crest=card.crest), RulingBuilder().add(
        "SOLO-TURN-5", msg("{card} {card_name} is exhausted.", card=w.card, card_name=card.name), card=w.card).add(
        "BASE-CREST-1", msg("Its crest {crest} becomes the Emperor's applied crest initiative.", crest=card.crest), crest=card.crest),
        summary=msg("{card} exhausted; crest {crest}", card=w.card, crest=card.crest))


# -- movement (SOLO-MOVE) -------------------------------------------------------------------------

def _move(out: Outbox, w: Work, agenda: list[Work]) -> None:
    do_move(out, w.warrior, None, w.source)


def do_move(out: Outbox, warrior_id: str, value: int | None, purpose: str) -> tuple[str, str]:
    """One movement of an Emperor warrior (the base move, or a movement ability with ``value``).
    Returns (from, to)."""
    st = out.state
    mover = st.warriors[warrior_id]
    assert mover.cell is not None and st.solo is not None
    base = mover.movement if value is None else value
    bonus, _ = emperor_bonus(out, mover, ("MOVE",), "movement", [(
        "SOLO-MOVE-2", f"Before its direction is determined, {mover.name} applies every location movement bonus "
                       "available to it; the cards stay flipped even if it does not leave its cell.")])
    st = out.state
    mover = st.warriors[warrior_id]
    movement = base + bonus
    solo = st.solo
    assert solo is not None
    direction = solo.direction if mover.kind == HERO else (solo.helper_direction or solo.direction)
    req, crest = requirement_now(st, direction)
    compass = arrow(out)
    field = Field(st)
    reading = choice(st, STEP4)
    d = decide_move(field, mover, movement, req, tuple(solo.exceptions), compass, reading)
    rb = RulingBuilder()
    rb.add("SOLO-MOVE-1", msg("During the Emperor's turn its warriors ignore hazards (no restriction, no wound)."))
    why = f"{st.heroes[EMPEROR].name}'s solo card" + (
        "" if mover.kind == HERO else (" (helper line)" if solo.helper_direction else
                                       " (no helper line: the hero's requirement, INFERRED SOLO-MOVE-11)"))
    if crest:
        via = ("the current order card's unique crest matches every crest (SOLO-CREST-1)"
               if unique_crest_now(st) else f"the applied crest initiative is {crest}")
        rb.add("SOLO-CREST-1" if unique_crest_now(st) else "BASE-SOLO-1",
               msg("The {crest} override of the direction applies: {via}.", crest=crest, via=via), crest=crest)
    if mover.kind != HERO:
        rb.add("SOLO-MOVE-11", msg("The helper {mover_name} uses the same procedure with its own requirement and "
                                   "its own movement bonuses.", mover_name=mover.name))
    rb.add("SOLO-MOVE-3", f"Requirement from {why}: {requirement_text(req)}"
           + (f"; bonus types not counted: {', '.join(solo.exceptions)}" if solo.exceptions else "") + ".",
           requirement=requirement_text(req))
    if solo.exceptions:
        rb.add("SOLO-FAQ-3", msg("The exception for {exceptions} also covers double symbols of that type.",
                                 exceptions=', '.join(solo.exceptions)),
               exceptions=list(solo.exceptions))
    rb.add("SOLO-MOVE-4", msg("Possible directions P (no location, requirement met): {value}.",
                              value=_cells(d.possible)),
           P=list(d.possible))
    rb.add("SOLO-MOVE-5", f"Reachable cells R within movement {movement} ({base}"
           + (f" + {bonus} bonus" if bonus else "") + f"), start cell included: {_cells(d.reachable)}.",
           R=list(d.reachable), movement=movement)
    rb.add("SOLO-MOVE-7", msg("PR = P ∩ R = {value}.", value=_cells(d.candidates)), PR=list(d.candidates))
    if d.step == 1:
        rb.add("SOLO-MOVE-7", msg("Step 1: exactly one cell in PR -> {to}.", to=d.to), step=1)
    elif d.step in (2, 3):
        rb.add("SOLO-MOVE-10", msg("Preferred is computed over PR (GAP-A-07; the other reading gives the same "
                                   "cell)."))
        rb.add("SOLO-MOVE-6", "Preferred = most active location bonus symbols (doubles count 2): "
               + ", ".join(f"B({c})={d.bonus[c]}" for c in sorted(d.bonus)) + f" -> Pref = {_cells(d.preferred)}.",
               B=dict(d.bonus), preferred=list(d.preferred))
        if d.step == 2:
            rb.add("SOLO-MOVE-7", msg("Step 2: one preferred cell -> {to}.", to=d.to), step=2)
        else:
            rb.add("SOLO-MOVE-7", msg("Step 3: {count} preferred cells -> Compass.", count=len(d.preferred)), step=3)
            _compass(rb, d.compass, d.arrows, d.to, "preferred cell")
    elif d.step == 4:
        other = next(r for r in STEP4_READINGS if r != reading)
        if decide_move(field, mover, movement, req, tuple(solo.exceptions), compass, other).to != d.to:
            cite(rb, STEP4, reading, "among the nearest cells, the preferred one" if reading == "nearest" else
                     "the preferred possible direction first, then the reachable cell nearest to it")
        rb.add("SOLO-MOVE-8", "Step 4, nearest cell: D(c) = distance from c to the "
               + ("nearest possible direction" if reading == "nearest" else "preferred possible direction")
               + ", ignoring warriors (BASE-GRID-3): "
               + ", ".join(f"{c}={dist_text(d.distances[c])}" for c in sorted(d.distances))
               + f"; nearest N = {_cells(d.nearest)}.", D=dict(d.distances), N=list(d.nearest))
        if len(d.nearest) > 1:
            rb.add("SOLO-MOVE-6", "Preferred among N: " + ", ".join(f"B({c})={d.bonus[c]}" for c in sorted(d.bonus))
                   + f" -> {_cells(d.preferred)}.", B=dict(d.bonus), preferred=list(d.preferred))
            if d.compass:
                _compass(rb, d.compass, d.arrows, d.to, "nearest preferred cell")
    else:
        rb.add("SOLO-MOVE-8", msg("No possible direction can be approached (f, INFERRED): the warrior stays."))
    if d.to == mover.cell:
        rb.add("SOLO-MOVE-9", msg("The destination is its own cell {to}: {mover_name} does not move.",
                                  to=d.to, mover_name=mover.name))
    else:
        rb.add("SOLO-MOVE-9", msg("{mover_name} moves {cell} -> {path} (a shortest legal path; ties broken by the "
                                  "compass {compass} of the current order card at the first differing step, "
                                  "PROPOSED; SOLO-TIE-1).",
                                  mover_name=mover.name, cell=mover.cell, path=' -> '.join(d.path), compass=compass), path=list(d.path), compass=compass)
    frm = mover.cell
    out.emit(EmperorMoved(warrior=mover.id, purpose=purpose, movement=movement, requirement=requirement_text(req),
                          possible=d.possible, reachable=d.reachable, candidates=d.candidates, bonus=d.bonus,
                          preferred=d.preferred, step=d.step, nearest=d.nearest, distances=d.distances,
                          compass=d.compass, arrows=d.arrows, frm=frm, to=d.to, path=d.path), rb,
             summary=(f"{mover.name} moves {frm} -> {d.to}" if d.to != frm else f"{mover.name} stays on {frm}")
             + f" ({purpose})")
    return frm, d.to


def _cells(cells: Any) -> str:
    return "{" + ", ".join(cells) + "}" if cells else "∅"


def _compass(rb: RulingBuilder, compass: str, arrows: Any, to: str, what: str = "candidate") -> None:
    """SOLO-TIE-1..3 (and SOLO-FAQ-2) as ruling steps."""
    rb.add("SOLO-TIE-1", msg("Otherwise equal options: the compass of the current order card ({compass}) decides.",
                             compass=compass),
           compass=compass)
    rb.add("SOLO-TIE-2", msg("The {what} farthest {compass} on the battlefield as a whole is {to} (not relative to "
                             "any warrior or location, SOLO-FAQ-2).", what=what, compass=compass, to=to), chosen=to)
    if len(arrows) > 1:
        rb.add("SOLO-TIE-3", msg("Tie on that axis: the arrow turns clockwise to {value} (PROPOSED, GAP-A-10).",
                                 value=', '.join(arrows[1:])), arrows=list(arrows))


# -- abilities ----------------------------------------------------------------------------------

def _ability(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    k = a.kind
    if k in ("ATTACK", "HELPER_ATTACK"):
        _attack_ability(out, w, agenda)
    elif k == "PUSH":
        _push_ability(out, w, agenda)
    elif k == "MARCH":
        _march(out, w, agenda)
    elif k == "STAR":
        _star(out, w, agenda)
    elif k == "SWAP":
        _done(out, w, skipped=True, rule="SOLO-FAQ-4",
              why="The swap part is optional (INFERRED, GAP-A-21); the Emperor does not swap unless its solo card "
                  "says so.")
    else:  # WOUND / HEAL printed on a card
        _direct(out, w, a, w.source)


def _done(out: Outbox, w: Work, *, skipped: bool, rule: str, why: str) -> None:
    a = w.ability
    assert a is not None
    out.emit(AbilityDone(side=EMPEROR, source=w.source, ability=ability_text(a), skipped=skipped, why=why),
             RulingBuilder().add(rule, why), summary=f"{w.source}: {ability_text(a)} " + ("skipped" if skipped else "done"))


def _performer(out: Outbox, a: Ability) -> Warrior | None:
    st = out.state
    w = st.helper_of(EMPEROR) if a.kind == "HELPER_ATTACK" else st.hero_of(EMPEROR)
    return w if w is not None and w.alive else None


def _attack_ability(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    performer = _performer(out, a)
    if performer is None:
        _done(out, w, skipped=True, rule="BASE-CARD-1", why="The Emperor's helper is gone: the helper attack does "
                                                            "nothing.")
        return
    rng = "MELEE" if a.kind == "HELPER_ATTACK" else (a.range or "MELEE")
    symbols = ("ATTACK", "RANGE") if rng == "RANGED" else ("ATTACK",)
    rules = [("SOLO-LOCB-1", "The Emperor always uses every available bonus relevant to the ability (PROPOSED, "
                             "GAP-A-19).")]
    if rng == "RANGED":
        rules.append(("SOLO-LOCB-2", "Long range: instead of extending its range, each RANGE symbol it is adjacent to "
                                     "gives +1 attack (doubles +2)."))
    bonus, by = emperor_bonus(out, performer, symbols, "attack", rules)  # once, for every target (GAP-A-31)
    st = out.state
    performer = st.warriors[performer.id]
    crest = boost(st, EMPEROR, a.boost)
    value = a.value + bonus + crest
    parts = {"printed": a.value, **{s.lower(): v for s, v in by.items()}, "crest": crest}
    rule = RANGE_RULE[rng]
    compass = arrow(out)
    field = Field(st)
    enemies = st.enemies(EMPEROR)
    targets, d, tie = pick(field, performer.cell, enemies, rule, compass)  # type: ignore[arg-type]
    if not targets:
        _done(out, w, skipped=True, rule="SOLO-TGT-1", why="No enemy warrior is left to target.")
        return
    rb = RulingBuilder().add("SOLO-TGT-1", msg("The Emperor targets at any distance; the range symbol only selects "
                                               "the target.")).add(
        "BASE-RANGE-2", msg("{rng} -> {rule}: {value} (PROPOSED mapping, GAP-A-03).",
                            rng=rng, rule=rule, value=_WHO[rule]), range=rng, targeting=rule).add(
        "SOLO-TGT-3", "Distances from " + performer.name + f" ({performer.cell}): "
        + ", ".join(f"{st.warriors[i].name} {dist_text(v)}" for i, v in sorted(d.items())) + ".", distances=dict(d))
    if a.boost is not None:
        if not unique_crest_now(st):
            rb.add("SOLO-CREST-3", msg("No unique crest on the order card: the Emperor's ordinary crest initiative "
                                       "follows the base rule (BASE-CREST-1)."))
        rb.add("SOLO-CREST-1" if unique_crest_now(st) else "BASE-CREST-1",
               f"Crest boost +{a.boost.amount} if {a.boost.crest}: " + (
                   "the unique crest of the order card matches every crest" if unique_crest_now(st)
                   else f"applied crest initiative {st.crest.get(EMPEROR) or 'none'}") + f" -> +{crest}.", boost=crest)
    rb.add("BASE-ATK-1", f"Attack value = {a.value} printed"
           + "".join(f" + {v} {s}" for s, v in by.items()) + f" + {crest} crest = {value}.", attack=value)
    if tie and rule != SYM_ALL:
        rb.add("SOLO-TGT-4", msg("Equally {value} targets: the compass chooses.",
                                 value='near' if rule == SYM_NEAREST else 'far'))
        rb.add("SOLO-FAQ-1", msg("Among equally valid attack targets the Emperor uses the compass of the order "
                                 "card."))
        _compass(rb, compass, [compass], st.warriors[targets[0]].cell or "", "target")
    if rule != SYM_ALL:
        rb.add("SOLO-TGT-5", msg("With the target selected, the switching rules are checked before the ability "
                                 "resolves."))
    switched = ""
    switch_rule = ""
    if rule == SYM_ALL:
        rb.add("SOLO-TGT-2", msg("Every enemy, starting with your hero; then by ascending distance, compass on "
                                 "ties (INFERRED): {items}.", items=', '.join(st.warriors[t].name for t in targets)), targets=list(targets))
        rb.add("SOLO-SWITCH-4", msg("An ability that targets every enemy never switches (INFERRED)."))
    else:
        t = st.warriors[targets[0]]
        if t.kind == HELPER and value <= t.defense:
            hero = st.hero_of(HUMAN)
            assert hero is not None
            switched, switch_rule = t.id, "SOLO-SWITCH-1"
            rb.add("SOLO-SWITCH-1", msg("{t_name} is a helper and attack {value} cannot beat its defense "
                                        "{defense}: the Emperor switches to the warrior it can wound most -- your "
                                        "hero {hero_name} (its defense is chosen after targeting, PROPOSED "
                                        "GAP-A-12).",
                                        t_name=t.name, value=value, defense=t.defense, hero_name=hero.name), attack=value,
                   helper_defense=t.defense)
            targets = [hero.id]
        else:
            rb.add("SOLO-SWITCH-3", f"No switch: {t.name} "
                   + (f"is a helper with defense {t.defense} < attack {value}." if t.kind == HELPER
                      else "is your hero."))
    names = ", ".join(st.warriors[t].name for t in targets)
    out.emit(TargetChosen(performer=performer.id, source=w.source, ability=ability_text(a), rule=rule, distances=d,
                          targets=tuple(targets), compass=compass if tie else "", switched_from=switched,
                          switch_rule=switch_rule), rb, summary=msg("{source}: target {names}",
                                                                    source=w.source, names=names))
    agenda[0:0] = [Work(kind="attack", warrior=performer.id, target=t, value=value, source=w.source,
                        ability=a, parts=parts) for t in targets] + [
        Work(kind="ability_done", source=w.source, ability=a)]


def _ability_done(out: Outbox, w: Work, agenda: list[Work]) -> None:
    _done(out, w, skipped=False, rule="BASE-CARD-1", why=f"{ability_text(w.ability)} resolved."
          if w.ability else "resolved.")


def _attack_one(out: Outbox, w: Work, agenda: list[Work]) -> None:
    """One attack of the Emperor on one enemy: a helper defends with its fixed value, the human's hero
    waits for the human's defense choice (BASE-DEF-1)."""
    st = out.state
    attacker = st.warriors[w.warrior]
    target = st.warriors[w.target]
    if not target.alive or not attacker.alive:
        return
    if target.kind == HELPER:
        rb = RulingBuilder().add("BASE-DEF-1", msg("Your helper {target_name} defends with its fixed value "
                                                   "{defense} (no bonuses, no cards).",
                                                   target_name=target.name, defense=target.defense), defense=target.defense)
        resolve_attack(out, EMPEROR, attacker, target, w.source, w.value, target.defense,
                       {**w.parts, "defense_fixed": target.defense}, rb)
        return
    cards, locs = defense_options(out.state)
    if not cards and not locs:
        out.emit(Defended(side=HUMAN, warrior=target.id, value=0, parts={"card": 0}), RulingBuilder().add(
            "BASE-DEF-1", msg("{target_name} has no prepared action card and no DEFENSE bonus available: defense 0.",
                              target_name=target.name)),
            summary=msg("{target_name} cannot defend", target_name=target.name))
        resolve_attack(out, EMPEROR, attacker, target, w.source, w.value, 0, {**w.parts, "defense_card": 0},
                       RulingBuilder())
        return
    p = Pending(kind="defend", attacker=attacker.id, target=target.id, attack=w.value, source=w.source, cards=cards,
                locations=locs, parts=w.parts, resume=tuple(agenda))
    agenda.clear()
    out.emit(DefenseRequested(pending=p), RulingBuilder().add(
        "BASE-DEF-1", msg("{attacker_name} attacks your hero {target_name} with {value} ({source}): you may "
                          "activate one prepared card for its defense ({value2}) and use DEFENSE bonuses "
                          "({value3}).",
                          attacker_name=attacker.name, target_name=target.name, value=w.value, source=w.source, value2=', '.join(cards) or 'none', value3=', '.join(locs) or 'none'), attack=w.value, cards=list(cards), locations=list(locs)),
        summary=msg("you defend against {value}", value=w.value))


def defense_options(state: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """BASE-DEF-1: the human hero's prepared cards and the locations whose DEFENSE it may use."""
    hero = state.hero_of(HUMAN)
    if hero is None or hero.cell is None:
        return (), ()
    field = Field(state)
    locs = tuple(lo.id for lo, _ in field.bonus_locations(hero.cell, ("DEFENSE",)))
    return state.prepared(HUMAN), locs


def defense_card_abilities(out: Outbox, card_ids: list[str]) -> None:
    """SOLO-CHOICE-DEFENSE-CARD "abilities": the abilities of the cards the Emperor's hero defended with in this
    attack resolve now, in printed order, as on an ACTIVATE step (BASE-CARD-1), while the hero stands. The
    automaton may wait for your defense on the way (the rest is resumed after it, SOLO-DEF-5)."""
    hero = out.state.hero_of(EMPEROR)
    if hero is None or not hero.alive or out.over:
        return
    agenda = [Work(kind="ability", ability=a, card=cid, source=f"{cid} {out.state.card(cid).name} (defense card)")
              for cid in card_ids for a in out.state.card(cid).abilities]
    run(out, agenda)


def resume(out: Outbox, agenda: tuple[Work, ...]) -> None:
    """Continue the Emperor's turn after the human's decision."""
    run(out, list(agenda))


# -- push (SOLO-PUSH) ---------------------------------------------------------------------------

def _push_ability(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    performer = _performer(out, a)
    if performer is None:
        _done(out, w, skipped=True, rule="BASE-CARD-1", why="No Emperor warrior can perform this push.")
        return
    rng = a.range or "MELEE"
    assert performer.cell is not None
    depends = push_bonus_depends(out.state, performer.cell)
    reading = choice(out.state, PUSH_BONUS)
    bonus, by = emperor_bonus(out, performer, ("PUSH",), "push", [(
        "SOLO-PUSH-1", "Before pushing, the Emperor adds every push bonus available to the pusher and flips those "
                       "cards; they stay flipped even if no push happens, and hazards they feed are already off.")],
        locs=push_bonus_locations(out.state, Field(out.state), performer.cell))
    st = out.state
    performer = st.warriors[performer.id]
    crest = boost(st, EMPEROR, a.boost)
    value = a.value + bonus + crest
    field = Field(st)
    compass = arrow(out)
    rule = RANGE_RULE[rng]
    enemies = st.enemies(EMPEROR)
    targets, d, tie = pick(field, performer.cell, enemies, rule, compass)  # type: ignore[arg-type]
    rb = RulingBuilder()
    if depends:
        cite(rb, PUSH_BONUS, reading, "the push bonuses of the locations next to the pusher only"
                 if reading == "adjacent" else "every face-up push bonus on the battlefield")
    rb.add("SOLO-PUSH-2", msg("Push value V = {value} printed + {bonus} bonus + {crest} crest = {value2}.",
                              value=a.value, bonus=bonus, crest=crest, value2=value), V=value).add(
        "BASE-RANGE-2", msg("{rng} -> {rule}: {value} (PROPOSED, GAP-A-03).", rng=rng, rule=rule, value=_WHO[rule]), targeting=rule).add(
        "SOLO-TGT-3", "Distances from " + performer.name + ": "
        + ", ".join(f"{st.warriors[i].name} {dist_text(v)}" for i, v in sorted(d.items())) + ".", distances=dict(d))
    plans = {e.id: best_hazard_plan(field, e.id, value, compass) for e in enemies}
    if rule == SYM_ALL:
        rb.add("SOLO-SWITCH-4", msg("A push on every enemy never switches; an enemy that cannot reach a hazard is "
                                    "not pushed (INFERRED)."))
        doable = [t for t in targets if plans.get(t) is not None]
        out.emit(TargetChosen(performer=performer.id, source=w.source, ability=ability_text(a), rule=rule,
                              distances=d, targets=tuple(doable)), rb, summary=f"{w.source}: push targets "
                 + (", ".join(st.warriors[t].name for t in doable) or "none"))
        if not doable:
            _fallback(out, "SOLO-FALL-1b", "it performs a push but cannot push any enemy into an active hazard",
                      agenda)
            return
        for t in doable:
            if out.over:
                return
            _execute_push(out, performer, st.warriors[t], value, w.source, compass)
        _done(out, w, skipped=False, rule="SOLO-PUSH-4", why="Every push of the ability is done.")
        return
    if not targets:
        _done(out, w, skipped=True, rule="SOLO-TGT-1", why="No enemy warrior is left to push.")
        return
    t = targets[0]
    if tie:
        rb.add("SOLO-TGT-4", msg("Equally {value}: compass {compass} chooses {x_name}.",
                                 value='near' if rule == SYM_NEAREST else 'far', compass=compass, x_name=st.warriors[t].name), compass=compass)
        _compass(rb, compass, [compass], st.warriors[t].cell or "", "target")
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
                                                                            source=w.source))
            _fallback(out, "SOLO-FALL-1b", "it performs a push but cannot push any enemy into an active hazard",
                      agenda)
            return
        best = max(p.wounds for p in alts.values())
        top = {st.warriors[i].cell: i for i, p in alts.items() if p.wounds == best}
        cell, _ = compass_pick(top, compass)
        switched, t = t, top[cell]
        rb.add("SOLO-SWITCH-2", f"{st.warriors[switched].name} cannot be pushed into any active hazard, but "
               + ", ".join(f"{st.warriors[i].name} ({p.wounds} wound(s))" for i, p in sorted(alts.items()))
               + f" can: switch to the one suffering most -> {st.warriors[t].name}"
               + (f" (tie: compass {compass}, PROPOSED)" if len(top) > 1 else "") + ".", switched_to=t)
    else:
        rb.add("SOLO-SWITCH-3", msg("{x_name} can be pushed into an active hazard: it stays the target.",
                                    x_name=st.warriors[t].name))
    out.emit(TargetChosen(performer=performer.id, source=w.source, ability=ability_text(a), rule=rule, distances=d,
                          targets=(t,), compass=compass if tie else "", switched_from=switched,
                          switch_rule="SOLO-SWITCH-2" if switched else ""), rb,
             summary=msg("{source}: push target {x_name}", source=w.source, x_name=st.warriors[t].name))
    _execute_push(out, performer, st.warriors[t], value, w.source, compass)
    if not out.over:
        _done(out, w, skipped=False, rule="SOLO-PUSH-4", why="The push is done.")


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
    rb = RulingBuilder().add(
        "SOLO-PUSH-2", f"Push value V = {value}. "
        + (f"The active hazards {target.name} ({target.cell}) can reach in the fewest push steps ({plan.k}): "
           f"{', '.join(plan.candidates)}; the compass {compass} of the current order card chooses {plan.first}"
           if ties else f"The nearest active hazard {target.name} ({target.cell}) can reach is {plan.first}, in "
                        f"{plan.k} push step(s)")
        + (" (a target on a hazard must leave and re-enter, PROPOSED GAP-A-13)"
           if plan.k > 1 and target.cell == plan.first else "") + ".",
        V=value, k=plan.k, candidates=list(plan.candidates), hazard=plan.first)
    if ties:  # SOLO-PUSH-2: equal candidates by the compass (PROPOSED)
        _compass(rb, compass, plan.arrows, plan.first, "hazard")
    if value > plan.k:
        rb.add("SOLO-PUSH-3", msg("{value} push left after {first}: the Emperor keeps pushing only while each step "
                                  "still wounds (a: between two adjacent active hazards first; b: out to a free "
                                  "neighbour and back).", value=value - plan.k, first=plan.first))
    for rule, note in plan.notes:
        rb.add(rule, note + ".")
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
                    hazards=entries, wounds=wounds, plan="; ".join((first, *(t for _, t in plan.notes)))), rb,
             summary=msg_n("{target_name} pushed {items}: {wounds} wound(s)",
                           "{target_name} pushed {items}: {wounds} wound(s)", "wounds", target_name=target.name, items=' -> '.join((target.cell or '',) + path), wounds=wounds))
    casualties(out)


# -- movement abilities ---------------------------------------------------------------------------

def _march(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    hero = out.state.hero_of(EMPEROR)
    assert hero is not None
    value = a.value + boost(out.state, EMPEROR, a.boost)
    frm, to = do_move(out, hero.id, value, f"{w.source}: {ability_text(a)}")
    if to == frm:
        _fallback(out, "SOLO-FALL-1c", "it used a movement ability and ended in the cell it started from", agenda)
        return
    _done(out, w, skipped=False, rule="SOLO-MOVE-9", why=f"{ability_text(a)}: {frm} -> {to}.")


# -- stars (SOLO-STAR) ----------------------------------------------------------------------------

def can_apply(state: Any, performer: Warrior, a: Ability, extra_flipped: tuple[str, ...] = ()) -> tuple[bool, str]:
    """SOLO-STAR-5 (INFERRED): requirements other than range met, and it would have an effect."""
    field = Field(state).with_flipped(extra_flipped) if extra_flipped else Field(state)
    enemies = state.enemies(EMPEROR)
    assert performer.cell is not None
    if a.kind in ("ATTACK", "HELPER_ATTACK"):
        if a.kind == "HELPER_ATTACK":
            h = state.helper_of(EMPEROR)
            if h is None or not h.alive:
                return False, "no helper to attack with"
        return (bool(enemies), "an enemy warrior exists" if enemies else "no enemy warrior")
    if a.kind == "PUSH":
        locs = push_bonus_locations(state, field, performer.cell)
        f2 = field.with_flipped(lo.id for lo, _ in locs)
        v = a.value + sum(n for _, n in locs) + boost(state, EMPEROR, a.boost)
        arrow_ = state.current_order().compass if state.current_order() else "N"
        ok = [e for e in enemies if best_hazard_plan(f2, e.id, v, arrow_) is not None]
        return (bool(ok), f"push {v}: " + (f"{', '.join(e.name for e in ok)} can reach an active hazard" if ok
                                            else "no enemy can be pushed into an active hazard"))
    if a.kind == "MARCH":
        locs = field.bonus_locations(performer.cell, ("MOVE",))
        f2 = field.with_flipped(lo.id for lo, _ in locs)
        solo = state.solo
        req, _ = requirement_now(state, solo.direction)
        arrow_ = state.current_order().compass if state.current_order() else "N"
        mv = a.value + sum(n for _, n in locs) + boost(state, EMPEROR, a.boost)
        to = decide_move(f2, performer, mv, req, tuple(solo.exceptions), arrow_, choice(state, STEP4)).to
        return (to != performer.cell, f"it would move {performer.cell} -> {to}" if to != performer.cell
                else "it would stay in its cell")
    if a.kind == "HEAL":
        return (performer.wounds > 0, "the hero is wounded" if performer.wounds else "the hero has no wound")
    if a.kind == "WOUND":
        return (bool(state.hero_of(HUMAN)), "your hero is there")
    return False, f"{a.kind} has no effect for the Emperor"


def _star(out: Outbox, w: Work, agenda: list[Work]) -> None:
    st = out.state
    solo = st.solo
    hero = st.hero_of(EMPEROR)
    assert solo is not None and hero is not None and hero.cell is not None and st.turn is not None
    stars = {s.name: s.ability for s in st.heroes[EMPEROR].stars}
    #: (rule, line): each line of the walk with the rule that decided it (SOLO-STAR-4/5/6).
    walk: list[tuple[str, str]] = []
    chosen: tuple[str, str, Ability, Location | None] | None = None
    compass = arrow(out)
    for i, entry in enumerate(solo.star_priority, 1):
        if entry.kind == "hero_star":
            name = entry.name
            if name in st.turn.stars_used:
                walk.append(("SOLO-STAR-4", f"{i}. {name}: already used this turn"))
                continue
            ok, why = can_apply(st, hero, stars[name])
            walk.append(("SOLO-STAR-5", f"{i}. {name} ({ability_text(stars[name])}): "
                                        f"{'applies' if ok else 'cannot apply'} -- {why}"))
            if ok:
                chosen = (name, "hero_star", stars[name], None)
                break
        else:
            field = Field(st)
            label = "any available location ability" if entry.kind == "any_location" else f"{entry.name}'s ability"
            wanted = [lo for lo in field.static.adjacent[hero.cell] if lo.ability is not None
                      and (entry.kind == "any_location" or lo.id == entry.name)]
            used = [lo.id for lo in wanted if lo.id in st.turn.location_abilities_used]
            cands = [lo for lo in wanted if lo.id not in used and field.face_up(lo.id)]
            if used:
                walk.append(("SOLO-STAR-6", f"{i}. {label}: {', '.join(used)} already used this turn"))
            usable = []
            for lo in cands:  # GAP-A-28: face up, available, and it would have an effect (its card flipped)
                ok, why = can_apply(st, hero, lo.ability.ability, (lo.id,))  # type: ignore[union-attr]
                walk.append(("SOLO-STAR-5", f"{i}. {lo.id} {lo.ability.name}: "  # type: ignore[union-attr]
                                            f"{'applies' if ok else 'cannot apply'} -- {why}"))
                if ok:
                    usable.append(lo)
            if not cands:
                walk.append(("SOLO-STAR-5", f"{i}. {label}: no face-up location with an ability is next to "
                                            f"{hero.name} ({hero.cell}, BASE-LOC-2)"
                             + (" other than those used" if used else "")))
            if usable:
                cell, arrows = compass_pick([lo.cell for lo in usable], compass)
                lo = next(x for x in usable if x.cell == cell)
                if len(usable) > 1:
                    walk.append(("SOLO-STAR-6", "equivalent location abilities "
                                 + ", ".join(f"{x.id} on {x.cell}" for x in usable)
                                 + f": compass {compass} (SOLO-TIE-1"
                                 + (f", turned to {', '.join(arrows[1:])} on a tie, SOLO-TIE-3" if len(arrows) > 1
                                    else "") + f") -> {lo.id}"))
                chosen = (lo.id, "location", lo.ability.ability, lo)  # type: ignore[union-attr]
                break
    lines = tuple(text for _, text in walk)
    rb = RulingBuilder().add("SOLO-STAR-1", f"{st.heroes[EMPEROR].name}'s solo card: star priority "
                             + " > ".join(e.name or "any available location ability" for e in solo.star_priority) + ".")
    rb.add("SOLO-STAR-2", msg("For this star ({source}) walk the list from the top; take the first ability the "
                              "Emperor can apply.", source=w.source), walk=list(lines))
    for rule, line in walk:
        rb.add(rule, line)
    if chosen is None:
        rb.add("SOLO-STAR-3", msg("No listed ability can be applied: the fallback ability is used for this star."))
        out.emit(StarChosen(side=EMPEROR, choice="", kind="none", walk=lines), rb,
                 summary=msg("{source}: star -> fallback", source=w.source))
        _fallback(out, "SOLO-FALL-1a", "it has a star but can choose no ability from its star priority list", agenda)
        return
    name, kind, ab, lo = chosen
    rb.add("SOLO-STAR-2", msg("-> {name}: {value}.", name=name, value=ability_text(ab)), choice=name)
    if kind == "location":
        rb.add("SOLO-STAR-6", msg("Location abilities are identified by (location card, ability); each once per "
                                  "turn."))
    out.emit(StarChosen(side=EMPEROR, choice=name, kind=kind, ability=ab, walk=lines), rb,
             summary=msg("{source}: star -> {name}", source=w.source, name=name))
    if lo is not None:  # GAP-A-27: using the ability flips the card before it resolves
        flip(out, EMPEROR, hero, [(lo, symbol_count(lo, ()))], (), "location ability", [
            ("BASE-LOC-3", f"Using {lo.id}'s ability flips the card.")])
    agenda.insert(0, Work(kind="ability", ability=ab, source=f"star: {name}"))


# -- fallback (SOLO-FALL) -------------------------------------------------------------------------

def _fallback(out: Outbox, trigger: str, why: str, agenda: list[Work]) -> None:
    st = out.state
    solo = st.solo
    assert solo is not None and st.turn is not None
    fb = solo.fallback
    if st.turn.fallback_used:
        out.emit(FallbackUsed(name=fb.name, trigger=trigger, applied=False), RulingBuilder().add(
            "SOLO-FALL-1", msg("The fallback would be used: {why} ({trigger}).", why=why, trigger=trigger)).add(
            "SOLO-FALL-2", msg("{fb_name} was already used this turn: nothing happens.", fb_name=fb.name)),
            summary=msg("fallback {fb_name}: already used this turn", fb_name=fb.name))
        return
    _direct(out, Work(kind="ability", ability=fb.ability, source=f"fallback {fb.name}"), fb.ability,
            f"fallback {fb.name}", trigger=trigger, why=why, agenda=agenda)


def _direct(out: Outbox, w: Work, a: Ability, source: str, *, trigger: str = "", why: str = "",
            agenda: list[Work] | None = None) -> None:
    """An ability with no target choice: WOUND n (your hero, no defense) or HEAL n; a fallback that
    is another kind of ability is resolved like any ability (SOLO-FALL-3)."""
    st = out.state
    solo = st.solo
    assert solo is not None
    rb = RulingBuilder()
    if trigger:
        rb.add("SOLO-FALL-1", msg("{why}: the Emperor uses its fallback ability {fallback_name} ({value}).",
                                  why=why, fallback_name=solo.fallback.name, value=ability_text(a)), trigger=trigger)
        rb.add("SOLO-FALL-2", msg("At most once per turn."))
    name = solo.fallback.name if trigger else source
    if a.kind == "WOUND":
        hero = st.hero_of(HUMAN)
        assert hero is not None
        rb.add("SOLO-FALL-3", msg_n("It targets your hero {hero_name}: {value} wound(s), no defense.",
                                    "It targets your hero {hero_name}: {value} wound(s), no defense.", "value", hero_name=hero.name, value=a.value))
        out.emit(FallbackUsed(name=name, trigger=trigger or "card", applied=True, target=hero.id, wounds=a.value), rb,
                 summary=msg_n("{name}: {hero_name} suffers {value} wound(s)",
                               "{name}: {hero_name} suffers {value} wound(s)", "value", name=name, hero_name=hero.name, value=a.value))
        casualties(out)
    elif a.kind == "HEAL":
        hero = st.hero_of(EMPEROR)
        assert hero is not None
        healed = min(a.value, hero.wounds)
        rb.add("BASE-WAR-2", msg_n("{hero_name} heals {healed} wound(s) (never above its starting health).",
                                   "{hero_name} heals {healed} wound(s) (never above its starting health).", "healed", hero_name=hero.name, healed=healed), healed=healed)
        out.emit(FallbackUsed(name=name, trigger=trigger or "card", applied=True, target=hero.id, healed=healed), rb,
                 summary=msg("{name}: {hero_name} heals {healed}", name=name, hero_name=hero.name, healed=healed))
    else:
        out.emit(FallbackUsed(name=name, trigger=trigger, applied=True), rb, summary=msg("fallback {name}", name=name))
        if agenda is not None:
            agenda.insert(0, Work(kind="ability", ability=a, source=f"fallback {name}"))


_HANDLERS: dict[str, Any] = {
    "step": _step,
    "move": _move,
    "ability": _ability,
    "attack": _attack_one,
    "ability_done": _ability_done,
    "finish_card": _finish_card,
    "end_turn": _end_turn,
}
