"""The Emperor's attacks: its targets (SOLO-TGT), the switch away from a helper it cannot wound (SOLO-SWITCH-1),
each attack on one enemy, and the defense the human is asked for (BASE-DEF-1)."""
from __future__ import annotations

from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import msg

from .. import orders
from ..cards import boost, unique_crest_now
from ..combat import emperor_bonus, resolve_attack
from ..content import ability_text
from ..events import Defended, DefenseRequested, TargetChosen
from ..field import Field
from ..outbox import Outbox
from ..sources import source_said
from ..state import EMPEROR, HELPER, HUMAN, Pending, Work
from ..targeting import RANGE_RULE, SYM_ALL, SYM_NEAREST, pick
from .abilities import done, performer_of
from .wording import TARGET, WHO, enemy_distances, tie_steps


def attack_ability(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    performer = performer_of(out, a)
    if performer is None:
        done(out, w, skipped=True, rule="BASE-CARD-1", why=msg("The Emperor's helper is gone: the helper attack "
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
    compass = orders.compass(out.state)
    field = Field(st)
    enemies = st.enemies(EMPEROR)
    targets, d, tie = pick(field, performer.cell, enemies, rule, compass)  # type: ignore[arg-type]
    if not targets:
        done(out, w, skipped=True, rule="SOLO-TGT-1", why=msg("No enemy warrior is left to target."))
        return
    rb = RulingBuilder().add("SOLO-TGT-1", msg("The Emperor targets at any distance; the range symbol only selects "
                                               "the target.")).add(
        "BASE-RANGE-2", msg("{rng} -> {rule}: {value} (PROPOSED mapping, GAP-A-03).",
                            rng=rng, rule=rule, value=WHO[rule]), range=rng, targeting=rule).add(
        "SOLO-TGT-3", msg("Distances from {warrior} ({cell}): {distances}.", warrior=performer.name,
                          cell=performer.cell, distances=enemy_distances(st, d)), distances=dict(d))
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
        tie_steps(rb, compass, [compass], st.warriors[targets[0]].cell or "", TARGET)
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
                                                                    source=source_said(w.source), names=names))
    agenda[0:0] = [Work(kind="attack", warrior=performer.id, target=t, value=value, source=w.source,
                        ability=a, parts=parts) for t in targets] + [
        Work(kind="ability_done", source=w.source, ability=a)]

def attack_one(out: Outbox, w: Work, agenda: list[Work]) -> None:
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
                          attacker_name=attacker.name, target_name=target.name, value=w.value, source=source_said(w.source), value2=', '.join(cards) or msg("none"), value3=', '.join(locs) or msg("none")), attack=w.value, cards=list(cards), locations=list(locs)),
        summary=msg("you defend against {value}", value=w.value))


def defense_options(state: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """BASE-DEF-1: the human hero's prepared cards and the locations whose DEFENSE it may use."""
    hero = state.hero_of(HUMAN)
    if hero is None or hero.cell is None:
        return (), ()
    field = Field(state)
    locs = tuple(lo.id for lo, _ in field.bonus_locations(hero.cell, ("DEFENSE",)))
    return state.prepared(HUMAN), locs
