"""The Emperor's movement (SOLO-MOVE): the base move of the MOVE step and a movement ability (MARCH),
each decided by :func:`domain.emperor.movement.decide_move` and written with every set it looked at."""
from __future__ import annotations

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, joined, msg, text_of

from .. import orders
from ..cards import boost, requirement_now, unique_crest_now
from ..choices import STEP4, choice, cite
from ..combat import emperor_bonus
from ..content import ability_text, requirement_text
from ..events import EmperorMoved
from ..field import Field
from ..movement import STEP4_READINGS, decide_move
from ..outbox import Outbox
from ..sources import source_said
from ..state import EMPEROR, HERO, Work
from .abilities import done
from .fallback import fallback
from .wording import bonus_scores, cell_set, distance, tie_steps


def move(out: Outbox, w: Work, agenda: list[Work]) -> None:
    do_move(out, w.warrior, None, source_said(w.source))


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
    compass = orders.compass(out.state)
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
                              value=cell_set(d.possible)),
           P=list(d.possible))
    rb.add("SOLO-MOVE-5", msg("Reachable cells R within movement {movement} ({base}{bonus}), start cell included: "
                              "{value}.", movement=movement, base=base,
                              bonus=msg(" + {bonus} bonus", bonus=bonus) if bonus else "", value=cell_set(d.reachable)),
           R=list(d.reachable), movement=movement)
    rb.add("SOLO-MOVE-7", msg("PR = P ∩ R = {value}.", value=cell_set(d.candidates)), PR=list(d.candidates))
    if d.step == 1:
        rb.add("SOLO-MOVE-7", msg("Step 1: exactly one cell in PR -> {to}.", to=d.to), step=1)
    elif d.step in (2, 3):
        rb.add("SOLO-MOVE-10", msg("Preferred is computed over PR (GAP-A-07; the other reading gives the same "
                                   "cell)."))
        rb.add("SOLO-MOVE-6", msg("Preferred = most active location bonus symbols (doubles count 2): {scores} -> "
                                  "Pref = {value}.", scores=bonus_scores(d.bonus), value=cell_set(d.preferred)),
               B=dict(d.bonus), preferred=list(d.preferred))
        if d.step == 2:
            rb.add("SOLO-MOVE-7", msg("Step 2: one preferred cell -> {to}.", to=d.to), step=2)
        else:
            rb.add("SOLO-MOVE-7", msg("Step 3: {count} preferred cells -> Compass.", count=len(d.preferred)), step=3)
            tie_steps(rb, d.compass, d.arrows, d.to, msg("preferred cell"))
    elif d.step == 4:
        other = next(r for r in STEP4_READINGS if r != reading)
        if decide_move(field, mover, movement, req, tuple(solo.exceptions), compass, other).to != d.to:
            cite(rb, STEP4, reading, msg("among the nearest cells, the preferred one") if reading == "nearest" else
                     msg("the preferred possible direction first, then the reachable cell nearest to it"))
        rb.add("SOLO-MOVE-8", msg("Step 4, nearest cell: D(c) = distance from c to the {what}, ignoring warriors "
                                  "(BASE-GRID-3): {distances}; nearest N = {value}.",
                                  what=msg("nearest possible direction") if reading == "nearest" else
                                  msg("preferred possible direction"),
                                  distances=joined([msg("{cell}={value}", cell=c, value=distance(d.distances[c]))
                                                    for c in sorted(d.distances)], ", "),
                                  value=cell_set(d.nearest)), D=dict(d.distances), N=list(d.nearest))
        if len(d.nearest) > 1:
            rb.add("SOLO-MOVE-6", msg("Preferred among N: {scores} -> {value}.", scores=bonus_scores(d.bonus),
                                      value=cell_set(d.preferred)), B=dict(d.bonus), preferred=list(d.preferred))
            if d.compass:
                tie_steps(rb, d.compass, d.arrows, d.to, msg("nearest preferred cell"))
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

def march(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    hero = out.state.hero_of(EMPEROR)
    assert hero is not None
    value = a.value + boost(out.state, EMPEROR, a.boost)
    frm, to = do_move(out, hero.id, value, msg("{source}: {ability}", source=source_said(w.source), ability=ability_text(a)))
    if to == frm:
        fallback(out, "SOLO-FALL-1c", msg("it used a movement ability and ended in the cell it started from"), agenda)
        return
    done(out, w, skipped=False, rule="SOLO-MOVE-9", why=msg("{ability}: {frm} -> {to}.", ability=ability_text(a),
                                                             frm=frm, to=to))
