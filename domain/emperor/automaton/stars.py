"""The Emperor's stars (SOLO-STAR): the walk down its solo card's star priority list to the first ability it
can apply, hero stars and location abilities alike."""
from __future__ import annotations

from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, joined, msg, text_of

from .. import orders
from ..cards import boost, requirement_now
from ..choices import STEP4, choice
from ..combat import flip, push_bonus_locations
from ..content import Ability, Location, ability_text
from ..events import StarChosen
from ..field import Field, symbol_count
from ..grid import compass_pick
from ..movement import decide_move
from ..outbox import Outbox
from ..push import best_hazard_plan
from ..sources import source_said
from ..state import EMPEROR, HUMAN, Warrior, Work
from .fallback import fallback

#: A star priority entry naming no location (SOLO-STAR-1).
_ANY_LOCATION = msg("any available location ability")


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
        arrow_ = orders.compass(state)
        ok = [e for e in enemies if best_hazard_plan(f2, e.id, v, arrow_) is not None]
        return (bool(ok), msg("push {value}: {names} can reach an active hazard", value=v,
                              names=", ".join(e.name for e in ok)) if ok else
                msg("push {value}: no enemy can be pushed into an active hazard", value=v))
    if a.kind == "MARCH":
        locs = field.bonus_locations(performer.cell, ("MOVE",))
        f2 = field.with_flipped(lo.id for lo, _ in locs)
        solo = state.solo
        req, _ = requirement_now(state, solo.direction)
        arrow_ = orders.compass(state)
        mv = a.value + sum(n for _, n in locs) + boost(state, EMPEROR, a.boost)
        to = decide_move(f2, performer, mv, req, tuple(solo.exceptions), arrow_, choice(state, STEP4)).to
        return (to != performer.cell, msg("it would move {frm} -> {to}", frm=performer.cell, to=to)
                if to != performer.cell else msg("it would stay in its cell"))
    if a.kind == "HEAL":
        return (performer.wounds > 0, msg("the hero is wounded") if performer.wounds else msg("the hero has no wound"))
    if a.kind == "WOUND":
        return (bool(state.hero_of(HUMAN)), msg("your hero is there"))
    return False, msg("{kind} has no effect for the Emperor", kind=a.kind)


def star(out: Outbox, w: Work, agenda: list[Work]) -> None:
    st = out.state
    solo = st.solo
    hero = st.hero_of(EMPEROR)
    assert solo is not None and hero is not None and hero.cell is not None and st.turn is not None
    stars = {s.name: s.ability for s in st.heroes[EMPEROR].stars}
    #: (rule, line): each line of the walk with the rule that decided it (SOLO-STAR-4/5/6).
    walk: list[tuple[str, Message]] = []
    chosen: tuple[str, str, Ability, Location | None] | None = None
    compass = orders.compass(out.state)
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
                              "Emperor can apply.", source=source_said(w.source)), walk=list(lines))
    for rule, line in walk:
        rb.add(rule, line)
    if chosen is None:
        rb.add("SOLO-STAR-3", msg("No listed ability can be applied: the fallback ability is used for this star."))
        out.emit(StarChosen(side=EMPEROR, choice="", kind="none", walk=lines), rb,
                 summary=msg("{source}: star -> fallback", source=source_said(w.source)))
        fallback(out, "SOLO-FALL-1a", msg("it has a star but can choose no ability from its star priority list"),
                  agenda)
        return
    name, kind, ab, lo = chosen
    rb.add("SOLO-STAR-2", msg("-> {name}: {value}.", name=name, value=ability_text(ab)), choice=name)
    if kind == "location":
        rb.add("SOLO-STAR-6", msg("Location abilities are identified by (location card, ability); each once per "
                                  "turn."))
    out.emit(StarChosen(side=EMPEROR, choice=name, kind=kind, ability=ab, walk=lines), rb,
             summary=msg("{source}: star -> {name}", source=source_said(w.source), name=name))
    if lo is not None:  # GAP-A-27: using the ability flips the card before it resolves
        flip(out, EMPEROR, hero, [(lo, symbol_count(lo, ()))], (), "location ability", [
            ("BASE-LOC-3", msg("Using {location}'s ability flips the card.", location=lo.id))])
    agenda.insert(0, Work(kind="ability", ability=ab, source=f"star: {name}"))


def _on(lo: Location) -> Message:
    """``L3 on B2``: a location and its cell."""
    return msg("{location} on {cell}", location=lo.id, cell=lo.cell)
