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

Over 500 lines on purpose: the Emperor's turn is one procedure (SOLO-TURN, section 4 of the rules), read
step by step in the order the rulebook gives it; its movement, targeting, push and star steps share the
turn's agenda, and split across files the procedure could no longer be checked against the rulebook page
by page.
"""
from __future__ import annotations

from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n, text_of

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

_WHO = {SYM_NEAREST: msg("the nearest enemy warrior"), SYM_FARTHEST: msg("the farthest enemy warrior"),
        SYM_ALL: msg("every enemy warrior, your hero first")}


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
    where = (msg("step {n} of {card} ({steps})", n=w.index + 1, card=oc.id, steps=", ".join(oc.steps)) if listed
             else msg("{card} lists no REFRESH_CHECK: it is performed once after the last step (INFERRED, GAP-A-04)",
                      card=oc.id))
    rb = RulingBuilder().add("SOLO-TURN-2", msg("{step}: {where}.", step=w.step, where=where), step=w.step, card=oc.id)
    if w.step == "MOVE":
        then = (msg("; then its helper {warrior} moves (even if the hero did not).", warrior=helper.name)
                if helper and helper.alive else ".")
        rb.add("SOLO-TURN-4", msg_n("The Emperor has {count} prepared action card(s), so its hero moves{then}",
                                    "The Emperor has {count} prepared action card(s), so its hero moves{then}", "count",
                                    count=len(prepared), then=then) if prepared else
               msg("The Emperor has no prepared action card: its hero does not move{then}", then=then),
               prepared=list(prepared))
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
        looked = joined([_prepared_or_not(c, prepared) for c in scanned], ", ")
        rb2 = RulingBuilder().add(
            "SOLO-CARD-1", msg("Compass {compass}: scan the action row {value}: {scanned} -> {card} "
                               "(PROPOSED, GAP-A-01).", compass=oc.compass, value=scan_words(oc.compass),
                               scanned=looked, card=card_id), scanned=list(scanned), card=card_id,
            compass=oc.compass).add(
            "SOLO-TIE-4", msg("Action cards are not on the battlefield: the compass points to the end of the row "
                              "to scan from.")).add(
            "SOLO-CARD-3", msg("Card choice is a replaceable policy: {card_policy}.",
                               card_policy=out.state.card_policy)).add(
            "BASE-CARD-1", msg("{card}: {abilities} -- resolved in printed order.", card=card_id,
                               abilities="; ".join(ability_text(a) for a in card.abilities)))
        out.emit(CardActivated(side=EMPEROR, card=card_id, scanned=scanned, compass=oc.compass), rb2,
                 summary=msg("the Emperor activates {card_id}", card_id=card_id))
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
            "SOLO-TURN-6", msg_n("{count} prepared card(s) ({cards}) <= refresh value {value} of {card}: the Emperor "
                                 "refreshes (BASE-REF-1: every exhausted card becomes prepared: {exhausted}).",
                                 "{count} prepared card(s) ({cards}) <= refresh value {value} of {card}: the Emperor "
                                 "refreshes (BASE-REF-1: every exhausted card becomes prepared: {exhausted}).", "count",
                                 count=n, cards=", ".join(prepared) or msg("none"), value=oc.refresh_value, card=oc.id,
                                 exhausted=", ".join(ex) or msg("none was exhausted")) if do else
            msg_n("{count} prepared card(s) ({cards}) > refresh value {value} of {card}: no refresh.",
                  "{count} prepared card(s) ({cards}) > refresh value {value} of {card}: no refresh.", "count",
                  count=n, cards=", ".join(prepared) or msg("none"), value=oc.refresh_value, card=oc.id),
            prepared=n, refresh_value=oc.refresh_value, cards=list(ex if do else ())),
            summary=((msg("the Emperor refreshes") if do else msg("the Emperor does not refresh"))))


def _prepared_or_not(card: str, prepared: Any) -> Message:
    """``AK2 (prepared)`` / ``AK1 (exhausted)``: a card of the row as the scan meets it (SOLO-CARD-1)."""
    return msg("{card} (prepared)", card=card) if card in prepared else msg("{card} (exhausted)", card=card)


def _finish_card(out: Outbox, w: Work, agenda: list[Work]) -> None:
    card = out.state.card(w.card)
    out.emit(CardResolved(side=EMPEROR, card=w.card, crest=card.crest), RulingBuilder().add(
        "SOLO-TURN-5", msg("{card} is exhausted.", card=w.card), card=w.card).add(
        "BASE-CREST-1", msg("Its crest {crest} becomes the Emperor's applied crest initiative.", crest=card.crest), crest=card.crest),
        summary=msg("{card} exhausted; crest {crest}", card=w.card, crest=card.crest))


# -- movement (SOLO-MOVE) -------------------------------------------------------------------------

def _move(out: Outbox, w: Work, agenda: list[Work]) -> None:
    do_move(out, w.warrior, None, msg("base move") if w.source == "base move" else w.source)


def do_move(out: Outbox, warrior_id: str, value: int | None, purpose: "str | Message") -> tuple[str, str]:
    """One movement of an Emperor warrior (the base move, or a movement ability with ``value``).
    Returns (from, to). ``purpose``: what moves it, in words (its English is kept in the event)."""
    st = out.state
    mover = st.warriors[warrior_id]
    assert mover.cell is not None and st.solo is not None
    base = mover.movement if value is None else value
    bonus, _ = emperor_bonus(out, mover, ("MOVE",), "movement", [(
        "SOLO-MOVE-2", msg("Before its direction is determined, {warrior} applies every location movement bonus "
                           "available to it; the cards stay flipped even if it does not leave its cell.",
                           warrior=mover.name))])
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
    emperor = st.heroes[EMPEROR].name
    why = (msg("{hero}'s solo card", hero=emperor) if mover.kind == HERO else
           msg("{hero}'s solo card (helper line)", hero=emperor) if solo.helper_direction else
           msg("{hero}'s solo card (no helper line: the hero's requirement, INFERRED SOLO-MOVE-11)", hero=emperor))
    if crest:
        via = (msg("the current order card's unique crest matches every crest (SOLO-CREST-1)")
               if unique_crest_now(st) else msg("the applied crest initiative is {crest}", crest=crest))
        rb.add("SOLO-CREST-1" if unique_crest_now(st) else "BASE-SOLO-1",
               msg("The {crest} override of the direction applies: {via}.", crest=crest, via=via), crest=crest)
    if mover.kind != HERO:
        rb.add("SOLO-MOVE-11", msg("The helper {mover_name} uses the same procedure with its own requirement and "
                                   "its own movement bonuses.", mover_name=mover.name))
    rb.add("SOLO-MOVE-3", msg("Requirement from {why}: {requirement}{more}.", why=why, requirement=requirement_text(req),
                              more=msg("; bonus types not counted: {exceptions}", exceptions=", ".join(solo.exceptions))
                              if solo.exceptions else ""),
           requirement=requirement_text(req))
    if solo.exceptions:
        rb.add("SOLO-FAQ-3", msg("The exception for {exceptions} also covers double symbols of that type.",
                                 exceptions=', '.join(solo.exceptions)),
               exceptions=list(solo.exceptions))
    rb.add("SOLO-MOVE-4", msg("Possible directions P (no location, requirement met): {value}.",
                              value=_cells(d.possible)),
           P=list(d.possible))
    rb.add("SOLO-MOVE-5", msg("Reachable cells R within movement {movement} ({base}{bonus}), start cell included: "
                              "{value}.", movement=movement, base=base,
                              bonus=msg(" + {bonus} bonus", bonus=bonus) if bonus else "", value=_cells(d.reachable)),
           R=list(d.reachable), movement=movement)
    rb.add("SOLO-MOVE-7", msg("PR = P ∩ R = {value}.", value=_cells(d.candidates)), PR=list(d.candidates))
    if d.step == 1:
        rb.add("SOLO-MOVE-7", msg("Step 1: exactly one cell in PR -> {to}.", to=d.to), step=1)
    elif d.step in (2, 3):
        rb.add("SOLO-MOVE-10", msg("Preferred is computed over PR (GAP-A-07; the other reading gives the same "
                                   "cell)."))
        rb.add("SOLO-MOVE-6", msg("Preferred = most active location bonus symbols (doubles count 2): {scores} -> "
                                  "Pref = {value}.", scores=_scores(d.bonus), value=_cells(d.preferred)),
               B=dict(d.bonus), preferred=list(d.preferred))
        if d.step == 2:
            rb.add("SOLO-MOVE-7", msg("Step 2: one preferred cell -> {to}.", to=d.to), step=2)
        else:
            rb.add("SOLO-MOVE-7", msg("Step 3: {count} preferred cells -> Compass.", count=len(d.preferred)), step=3)
            _compass(rb, d.compass, d.arrows, d.to, msg("preferred cell"))
    elif d.step == 4:
        other = next(r for r in STEP4_READINGS if r != reading)
        if decide_move(field, mover, movement, req, tuple(solo.exceptions), compass, other).to != d.to:
            cite(rb, STEP4, reading, msg("among the nearest cells, the preferred one") if reading == "nearest" else
                     msg("the preferred possible direction first, then the reachable cell nearest to it"))
        rb.add("SOLO-MOVE-8", msg("Step 4, nearest cell: D(c) = distance from c to the {what}, ignoring warriors "
                                  "(BASE-GRID-3): {distances}; nearest N = {value}.",
                                  what=msg("nearest possible direction") if reading == "nearest" else
                                  msg("preferred possible direction"),
                                  distances=joined([msg("{cell}={value}", cell=c, value=_dist(d.distances[c]))
                                                    for c in sorted(d.distances)], ", "),
                                  value=_cells(d.nearest)), D=dict(d.distances), N=list(d.nearest))
        if len(d.nearest) > 1:
            rb.add("SOLO-MOVE-6", msg("Preferred among N: {scores} -> {value}.", scores=_scores(d.bonus),
                                      value=_cells(d.preferred)), B=dict(d.bonus), preferred=list(d.preferred))
            if d.compass:
                _compass(rb, d.compass, d.arrows, d.to, msg("nearest preferred cell"))
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
    out.emit(EmperorMoved(warrior=mover.id, purpose=text_of(purpose), movement=movement, requirement=requirement_text(req),
                          possible=d.possible, reachable=d.reachable, candidates=d.candidates, bonus=d.bonus,
                          preferred=d.preferred, step=d.step, nearest=d.nearest, distances=d.distances,
                          compass=d.compass, arrows=d.arrows, frm=frm, to=d.to, path=d.path), rb,
             summary=msg("{warrior} moves {frm} -> {to} ({purpose})", warrior=mover.name, frm=frm, to=d.to,
                         purpose=purpose) if d.to != frm else
             msg("{warrior} stays on {frm} ({purpose})", warrior=mover.name, frm=frm, purpose=purpose))
    return frm, d.to


def _cells(cells: Any) -> str:
    return "{" + ", ".join(cells) + "}" if cells else "∅"


def _scores(bonus: Any) -> str:
    """``B(c)=n`` for each cell: the location bonus symbols of each (SOLO-MOVE-6), as the rules write them."""
    return ", ".join(f"B({c})={bonus[c]}" for c in sorted(bonus))


def _distances(st: Any, d: Any) -> "str | Message":
    """Each enemy's name and its distance (``Rebel 2``, ``unreachable``), nearest rule SOLO-TGT-3."""
    return joined([msg("{warrior} {distance}", warrior=st.warriors[i].name, distance=_dist(v))
                   for i, v in sorted(d.items())], ", ")


def _dist(v: int) -> "int | Message":
    """A distance as :func:`~domain.emperor.targeting.dist_text` writes it, in words when there is none."""
    return msg("unreachable") if dist_text(v) == "unreachable" else v


def _compass(rb: RulingBuilder, compass: str, arrows: Any, to: str, what: Message) -> None:
    """SOLO-TIE-1..3 (and SOLO-FAQ-2) as ruling steps; ``what``: the kind of thing chosen, in words."""
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
              why=msg("The swap part is optional (INFERRED, GAP-A-21); the Emperor does not swap unless its solo "
                      "card says so."))
    else:  # WOUND / HEAL printed on a card
        _direct(out, w, a, w.source)


def _done(out: Outbox, w: Work, *, skipped: bool, rule: str, why: Message) -> None:
    a = w.ability
    assert a is not None
    out.emit(AbilityDone(side=EMPEROR, source=w.source, ability=ability_text(a), skipped=skipped, why=text_of(why)),
             RulingBuilder().add(rule, why),
             summary=msg("{source}: {ability} skipped", source=w.source, ability=ability_text(a)) if skipped else
             msg("{source}: {ability} done", source=w.source, ability=ability_text(a)))


def _performer(out: Outbox, a: Ability) -> Warrior | None:
    st = out.state
    w = st.helper_of(EMPEROR) if a.kind == "HELPER_ATTACK" else st.hero_of(EMPEROR)
    return w if w is not None and w.alive else None


def _attack_ability(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    performer = _performer(out, a)
    if performer is None:
        _done(out, w, skipped=True, rule="BASE-CARD-1", why=msg("The Emperor's helper is gone: the helper attack "
                                                                "does nothing."))
        return
    rng = "MELEE" if a.kind == "HELPER_ATTACK" else (a.range or "MELEE")
    symbols = ("ATTACK", "RANGE") if rng == "RANGED" else ("ATTACK",)
    rules = [("SOLO-LOCB-1", msg("The Emperor always uses every available bonus relevant to the ability (PROPOSED, "
                                 "GAP-A-19)."))]
    if rng == "RANGED":
        rules.append(("SOLO-LOCB-2", msg("Long range: instead of extending its range, each RANGE symbol it is "
                                         "adjacent to gives +1 attack (doubles +2).")))
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
        _done(out, w, skipped=True, rule="SOLO-TGT-1", why=msg("No enemy warrior is left to target."))
        return
    rb = RulingBuilder().add("SOLO-TGT-1", msg("The Emperor targets at any distance; the range symbol only selects "
                                               "the target.")).add(
        "BASE-RANGE-2", msg("{rng} -> {rule}: {value} (PROPOSED mapping, GAP-A-03).",
                            rng=rng, rule=rule, value=_WHO[rule]), range=rng, targeting=rule).add(
        "SOLO-TGT-3", msg("Distances from {warrior} ({cell}): {distances}.", warrior=performer.name,
                          cell=performer.cell, distances=_distances(st, d)), distances=dict(d))
    if a.boost is not None:
        if not unique_crest_now(st):
            rb.add("SOLO-CREST-3", msg("No unique crest on the order card: the Emperor's ordinary crest initiative "
                                       "follows the base rule (BASE-CREST-1)."))
        rb.add("SOLO-CREST-1" if unique_crest_now(st) else "BASE-CREST-1",
               msg("Crest boost +{amount} if {crest}: {how} -> +{boost}.", amount=a.boost.amount, crest=a.boost.crest,
                   how=msg("the unique crest of the order card matches every crest") if unique_crest_now(st) else
                   msg("applied crest initiative {value}", value=st.crest.get(EMPEROR) or msg("none")), boost=crest),
               boost=crest)
    rb.add("BASE-ATK-1", msg("Attack value = {value} printed{bonuses} + {crest} crest = {total}.", value=a.value,
                             bonuses="".join(f" + {v} {s}" for s, v in by.items()), crest=crest, total=value),
           attack=value)
    if tie and rule != SYM_ALL:
        rb.add("SOLO-TGT-4", msg("Equally {value} targets: the compass chooses.",
                                 value=msg("near") if rule == SYM_NEAREST else msg("far")))
        rb.add("SOLO-FAQ-1", msg("Among equally valid attack targets the Emperor uses the compass of the order "
                                 "card."))
        _compass(rb, compass, [compass], st.warriors[targets[0]].cell or "", _TARGET)
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
            rb.add("SOLO-SWITCH-3", msg("No switch: {warrior} is a helper with defense {defense} < attack {value}.",
                                        warrior=t.name, defense=t.defense, value=value) if t.kind == HELPER else
                   msg("No switch: {warrior} is your hero.", warrior=t.name))
    names = ", ".join(st.warriors[t].name for t in targets)
    out.emit(TargetChosen(performer=performer.id, source=w.source, ability=ability_text(a), rule=rule, distances=d,
                          targets=tuple(targets), compass=compass if tie else "", switched_from=switched,
                          switch_rule=switch_rule), rb, summary=msg("{source}: target {names}",
                                                                    source=w.source, names=names))
    agenda[0:0] = [Work(kind="attack", warrior=performer.id, target=t, value=value, source=w.source,
                        ability=a, parts=parts) for t in targets] + [
        Work(kind="ability_done", source=w.source, ability=a)]


def _ability_done(out: Outbox, w: Work, agenda: list[Work]) -> None:
    _done(out, w, skipped=False, rule="BASE-CARD-1", why=msg("{value} resolved.", value=ability_text(w.ability))
          if w.ability else msg("resolved."))


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
                          attacker_name=attacker.name, target_name=target.name, value=w.value, source=w.source, value2=', '.join(cards) or msg("none"), value3=', '.join(locs) or msg("none")), attack=w.value, cards=list(cards), locations=list(locs)),
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
        _done(out, w, skipped=True, rule="BASE-CARD-1", why=msg("No Emperor warrior can perform this push."))
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
    compass = arrow(out)
    rule = RANGE_RULE[rng]
    enemies = st.enemies(EMPEROR)
    targets, d, tie = pick(field, performer.cell, enemies, rule, compass)  # type: ignore[arg-type]
    rb = RulingBuilder()
    if depends:
        cite(rb, PUSH_BONUS, reading, msg("the push bonuses of the locations next to the pusher only")
             if reading == "adjacent" else msg("every face-up push bonus on the battlefield"))
    rb.add("SOLO-PUSH-2", msg("Push value V = {value} printed + {bonus} bonus + {crest} crest = {value2}.",
                              value=a.value, bonus=bonus, crest=crest, value2=value), V=value).add(
        "BASE-RANGE-2", msg("{rng} -> {rule}: {value} (PROPOSED, GAP-A-03).", rng=rng, rule=rule, value=_WHO[rule]), targeting=rule).add(
        "SOLO-TGT-3", msg("Distances from {warrior}: {distances}.", warrior=performer.name,
                          distances=_distances(st, d)), distances=dict(d))
    plans = {e.id: best_hazard_plan(field, e.id, value, compass) for e in enemies}
    if rule == SYM_ALL:
        rb.add("SOLO-SWITCH-4", msg("A push on every enemy never switches; an enemy that cannot reach a hazard is "
                                    "not pushed (INFERRED)."))
        doable = [t for t in targets if plans.get(t) is not None]
        out.emit(TargetChosen(performer=performer.id, source=w.source, ability=ability_text(a), rule=rule,
                              distances=d, targets=tuple(doable)), rb,
                 summary=msg("{source}: push targets {names}", source=w.source,
                             names=", ".join(st.warriors[t].name for t in doable) or msg("none")))
        if not doable:
            _fallback(out, "SOLO-FALL-1b", _NO_PUSH, agenda)
            return
        for t in doable:
            if out.over:
                return
            _execute_push(out, performer, st.warriors[t], value, w.source, compass)
        _done(out, w, skipped=False, rule="SOLO-PUSH-4", why=msg("Every push of the ability is done."))
        return
    if not targets:
        _done(out, w, skipped=True, rule="SOLO-TGT-1", why=msg("No enemy warrior is left to push."))
        return
    t = targets[0]
    if tie:
        rb.add("SOLO-TGT-4", msg("Equally {value}: compass {compass} chooses {x_name}.",
                                 value=msg("near") if rule == SYM_NEAREST else msg("far"), compass=compass, x_name=st.warriors[t].name), compass=compass)
        _compass(rb, compass, [compass], st.warriors[t].cell or "", _TARGET)
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
            _fallback(out, "SOLO-FALL-1b", _NO_PUSH, agenda)
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
             summary=msg("{source}: push target {x_name}", source=w.source, x_name=st.warriors[t].name))
    _execute_push(out, performer, st.warriors[t], value, w.source, compass)
    if not out.over:
        _done(out, w, skipped=False, rule="SOLO-PUSH-4", why=msg("The push is done."))


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
        _compass(rb, compass, plan.arrows, plan.first, msg("hazard"))
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


# -- movement abilities ---------------------------------------------------------------------------

def _march(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    hero = out.state.hero_of(EMPEROR)
    assert hero is not None
    value = a.value + boost(out.state, EMPEROR, a.boost)
    frm, to = do_move(out, hero.id, value, msg("{source}: {ability}", source=w.source, ability=ability_text(a)))
    if to == frm:
        _fallback(out, "SOLO-FALL-1c", msg("it used a movement ability and ended in the cell it started from"), agenda)
        return
    _done(out, w, skipped=False, rule="SOLO-MOVE-9", why=msg("{ability}: {frm} -> {to}.", ability=ability_text(a),
                                                             frm=frm, to=to))


# -- stars (SOLO-STAR) ----------------------------------------------------------------------------

def can_apply(state: Any, performer: Warrior, a: Ability, extra_flipped: tuple[str, ...] = ()) -> tuple[bool, Message]:
    """SOLO-STAR-5 (INFERRED): requirements other than range met, and it would have an effect (and why, in words)."""
    field = Field(state).with_flipped(extra_flipped) if extra_flipped else Field(state)
    enemies = state.enemies(EMPEROR)
    assert performer.cell is not None
    if a.kind in ("ATTACK", "HELPER_ATTACK"):
        if a.kind == "HELPER_ATTACK":
            h = state.helper_of(EMPEROR)
            if h is None or not h.alive:
                return False, msg("no helper to attack with")
        return (bool(enemies), msg("an enemy warrior exists") if enemies else msg("no enemy warrior"))
    if a.kind == "PUSH":
        locs = push_bonus_locations(state, field, performer.cell)
        f2 = field.with_flipped(lo.id for lo, _ in locs)
        v = a.value + sum(n for _, n in locs) + boost(state, EMPEROR, a.boost)
        arrow_ = state.current_order().compass if state.current_order() else "N"
        ok = [e for e in enemies if best_hazard_plan(f2, e.id, v, arrow_) is not None]
        return (bool(ok), msg("push {value}: {names} can reach an active hazard", value=v,
                              names=", ".join(e.name for e in ok)) if ok else
                msg("push {value}: no enemy can be pushed into an active hazard", value=v))
    if a.kind == "MARCH":
        locs = field.bonus_locations(performer.cell, ("MOVE",))
        f2 = field.with_flipped(lo.id for lo, _ in locs)
        solo = state.solo
        req, _ = requirement_now(state, solo.direction)
        arrow_ = state.current_order().compass if state.current_order() else "N"
        mv = a.value + sum(n for _, n in locs) + boost(state, EMPEROR, a.boost)
        to = decide_move(f2, performer, mv, req, tuple(solo.exceptions), arrow_, choice(state, STEP4)).to
        return (to != performer.cell, msg("it would move {frm} -> {to}", frm=performer.cell, to=to)
                if to != performer.cell else msg("it would stay in its cell"))
    if a.kind == "HEAL":
        return (performer.wounds > 0, msg("the hero is wounded") if performer.wounds else msg("the hero has no wound"))
    if a.kind == "WOUND":
        return (bool(state.hero_of(HUMAN)), msg("your hero is there"))
    return False, msg("{kind} has no effect for the Emperor", kind=a.kind)


def _star(out: Outbox, w: Work, agenda: list[Work]) -> None:
    st = out.state
    solo = st.solo
    hero = st.hero_of(EMPEROR)
    assert solo is not None and hero is not None and hero.cell is not None and st.turn is not None
    stars = {s.name: s.ability for s in st.heroes[EMPEROR].stars}
    #: (rule, line): each line of the walk with the rule that decided it (SOLO-STAR-4/5/6).
    walk: list[tuple[str, Message]] = []
    chosen: tuple[str, str, Ability, Location | None] | None = None
    compass = arrow(out)
    for i, entry in enumerate(solo.star_priority, 1):
        if entry.kind == "hero_star":
            name = entry.name
            if name in st.turn.stars_used:
                walk.append(("SOLO-STAR-4", msg("{i}. {name}: already used this turn", i=i, name=name)))
                continue
            ok, why = can_apply(st, hero, stars[name])
            walk.append(("SOLO-STAR-5", (msg("{i}. {name} ({ability}): applies -- {why}", i=i, name=name,
                                             ability=ability_text(stars[name]), why=why) if ok else
                                         msg("{i}. {name} ({ability}): cannot apply -- {why}", i=i, name=name,
                                             ability=ability_text(stars[name]), why=why))))
            if ok:
                chosen = (name, "hero_star", stars[name], None)
                break
        else:
            field = Field(st)
            label = (_ANY_LOCATION if entry.kind == "any_location" else
                     msg("{name}'s ability", name=entry.name))
            wanted = [lo for lo in field.static.adjacent[hero.cell] if lo.ability is not None
                      and (entry.kind == "any_location" or lo.id == entry.name)]
            used = [lo.id for lo in wanted if lo.id in st.turn.location_abilities_used]
            cands = [lo for lo in wanted if lo.id not in used and field.face_up(lo.id)]
            if used:
                walk.append(("SOLO-STAR-6", msg("{i}. {label}: {used} already used this turn", i=i, label=label,
                                                used=", ".join(used))))
            usable = []
            for lo in cands:  # GAP-A-28: face up, available, and it would have an effect (its card flipped)
                ok, why = can_apply(st, hero, lo.ability.ability, (lo.id,))  # type: ignore[union-attr]
                said = (msg("{i}. {location} {name}: applies -- {why}", i=i, location=lo.id,
                            name=lo.ability.name, why=why) if ok else  # type: ignore[union-attr]
                        msg("{i}. {location} {name}: cannot apply -- {why}", i=i, location=lo.id,
                            name=lo.ability.name, why=why))  # type: ignore[union-attr]
                walk.append(("SOLO-STAR-5", said))
                if ok:
                    usable.append(lo)
            if not cands:
                walk.append(("SOLO-STAR-5", msg("{i}. {label}: no face-up location with an ability is next to "
                                                "{warrior} ({cell}, BASE-LOC-2){other}", i=i, label=label,
                                                warrior=hero.name, cell=hero.cell,
                                                other=msg(" other than those used") if used else "")))
            if usable:
                cell, arrows = compass_pick([lo.cell for lo in usable], compass)
                lo = next(x for x in usable if x.cell == cell)
                if len(usable) > 1:
                    items = joined([_on(x) for x in usable], ", ")
                    walk.append(("SOLO-STAR-6", msg("equivalent location abilities {items}: compass {compass} "
                                                    "(SOLO-TIE-1{turned}) -> {location}",
                                                    items=items, compass=compass,
                                                    turned=msg(", turned to {value} on a tie, SOLO-TIE-3",
                                                               value=", ".join(arrows[1:])) if len(arrows) > 1 else "",
                                                    location=lo.id)))
                chosen = (lo.id, "location", lo.ability.ability, lo)  # type: ignore[union-attr]
                break
    lines = tuple(text_of(said) for _, said in walk)
    rb = RulingBuilder().add("SOLO-STAR-1", msg("{hero}'s solo card: star priority {priority}.",
                                                hero=st.heroes[EMPEROR].name,
                                                priority=joined([e.name or _ANY_LOCATION for e in solo.star_priority],
                                                                " > ")))
    rb.add("SOLO-STAR-2", msg("For this star ({source}) walk the list from the top; take the first ability the "
                              "Emperor can apply.", source=w.source), walk=list(lines))
    for rule, line in walk:
        rb.add(rule, line)
    if chosen is None:
        rb.add("SOLO-STAR-3", msg("No listed ability can be applied: the fallback ability is used for this star."))
        out.emit(StarChosen(side=EMPEROR, choice="", kind="none", walk=lines), rb,
                 summary=msg("{source}: star -> fallback", source=w.source))
        _fallback(out, "SOLO-FALL-1a", msg("it has a star but can choose no ability from its star priority list"),
                  agenda)
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
            ("BASE-LOC-3", msg("Using {location}'s ability flips the card.", location=lo.id))])
    agenda.insert(0, Work(kind="ability", ability=ab, source=f"star: {name}"))


def _on(lo: Location) -> Message:
    """``L3 on B2``: a location and its cell."""
    return msg("{location} on {cell}", location=lo.id, cell=lo.cell)


# -- fallback (SOLO-FALL) -------------------------------------------------------------------------

def _fallback(out: Outbox, trigger: str, why: Message, agenda: list[Work]) -> None:
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


def _direct(out: Outbox, w: Work, a: Ability, source: str, *, trigger: str = "", why: "str | Message" = "",
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


#: SOLO-FALL-1b, in words.
_NO_PUSH = msg("it performs a push but cannot push any enemy into an active hazard")
#: What the compass chooses among equally valid attack or push targets (SOLO-TIE-2).
_TARGET = msg("target")
#: A star priority entry naming no location (SOLO-STAR-1).
_ANY_LOCATION = msg("any available location ability")

_HANDLERS: dict[str, Any] = {
    "step": _step,
    "move": _move,
    "ability": _ability,
    "attack": _attack_one,
    "ability_done": _ability_done,
    "finish_card": _finish_card,
    "end_turn": _end_turn,
}
