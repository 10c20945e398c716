"""The Emperor's words for people (DESIGN 12): a label and, where a choice has a consequence to see
first, a warning for every legal command of the human (``describe``), the printed names of the ids
summaries cite (``names``), and which steps the Emperor's automaton decided (``acted_by``).

Computed with the engine's own functions (``Field``, ``human_destinations``, ``path_hazards``,
``boost``, the ranges of ``human``), so a label says what the command will do.
"""
from __future__ import annotations

from typing import Any

from domain.kernel import event_type_name
from domain.kernel.messages import Message, joined, msg, msg_n, named

from . import commands as C
from .cards import boost
from .content import Location, ability_text
from .field import HAZARD_WOUNDS, Field, symbol_count
from .human import _in_range, step_options
from .push import path_hazards
from .sources import source_said
from .state import EMPEROR, HUMAN, EmperorState, Step, Warrior
from .terms import THE_EMPEROR

#: The Emperor's automaton, as the timeline names it.
AUTOMATON_TITLE = msg("the Emperor (automaton)")

#: Events the Emperor's automaton decides whatever their fields (SOLO-ORD, SOLO-MOVE, SOLO-TGT, SOLO-FALL).
_AUTOMATON_EVENTS = frozenset({"order_card_revealed", "emperor_step", "emperor_moved", "target_chosen",
                               "fallback_used", "defense_requested"})
#: Consequences the rules draw by themselves (wounds of a hazard, a death, the end).
_REFEREE_EVENTS = frozenset({"warrior_wounded", "warrior_died", "game_won", "order_deck_shuffled"})


def acted_by(event: Any) -> str | None:
    name = event_type_name(event)
    if name in _AUTOMATON_EVENTS or getattr(event, "side", None) == EMPEROR:
        return "automaton"
    if name in _REFEREE_EVENTS or (name == "turn_started" and getattr(event, "side", None) == HUMAN):
        return "referee"
    return None


def names(state: EmperorState) -> dict[str, str]:
    """Warriors, action cards, locations and hazards by id (every id a summary may cite)."""
    out: dict[str, str] = {w.id: w.name for w in state.warriors.values()}
    for h in state.heroes.values():
        out[h.id] = h.name
        out.update({c.id: c.name for c in h.cards})
    bf = state.battlefield
    if bf is not None:
        out.update({lo.id: lo.name for lo in bf.locations})
        out.update({hz.id: hz.name for hz in bf.hazards})
    return out


def _w(w: Warrior | None) -> str:
    return w.name if w is not None else "?"


def _card(state: EmperorState, cid: str) -> str:
    c = state.card(cid)
    return f"{c.name} ({c.id})"


def _named_card(state: EmperorState, cid: str) -> dict[str, str]:
    c = state.card(cid)
    return named(c.name, c.id)


def _bonus_words(state: EmperorState, ids: tuple[str, ...], symbols: tuple[str, ...]) -> "str | Message":
    """`` using Ferry (L3): +1 MOVE`` for the locations a command uses (they flip, BASE-LOC-3)."""
    if not ids:
        return ""
    f = Field(state)
    parts = []
    for lid in ids:
        lo: Location = f.location(lid)
        got = [f"+{symbol_count(lo, (s,))} {s}" for s in symbols if symbol_count(lo, (s,))]
        parts.append(msg("{location}: {bonus}", location=named(lo.name, lo.id), bonus=", ".join(got) or msg("no bonus")))
    joined: "str | Message" = parts[0]
    for p in parts[1:]:
        joined = msg("{a}; {b}", a=joined, b=p)
    return msg(" using {locations} (the location flips, BASE-LOC-3)", locations=joined)


def _hazard_warning(state: EmperorState, w: Warrior, to: str, bonuses: tuple[str, ...]) -> str | None:
    f = Field(state).with_flipped(bonuses) if bonuses else Field(state)
    hz = f.active_hazard(to)
    if hz is None:
        return None
    left = w.left - HAZARD_WOUNDS
    p = {"to": to, "hazard": hz.name, "warrior": w.name, "wounds": HAZARD_WOUNDS, "health": left}
    if left <= 0 and w.kind == "hero":
        return msg_n("{to} {hazard} is an active hazard: {warrior} takes {wounds} wound(s), no defense, and its "
                     "movement ends there (BASE-HAZ-2) and dies: the game is lost (SOLO-GAME-2).",
                     "{to} {hazard} is an active hazard: {warrior} takes {wounds} wound(s), no defense, and its "
                     "movement ends there (BASE-HAZ-2) and dies: the game is lost (SOLO-GAME-2).", "wounds", **p)
    if left <= 0:
        return msg_n("{to} {hazard} is an active hazard: {warrior} takes {wounds} wound(s), no defense, and its "
                     "movement ends there (BASE-HAZ-2) and dies.",
                     "{to} {hazard} is an active hazard: {warrior} takes {wounds} wound(s), no defense, and its "
                     "movement ends there (BASE-HAZ-2) and dies.", "wounds", **p)
    return msg_n("{to} {hazard} is an active hazard: {warrior} takes {wounds} wound(s), no defense, and its "
                 "movement ends there (BASE-HAZ-2) ({health} health left).",
                 "{to} {hazard} is an active hazard: {warrior} takes {wounds} wound(s), no defense, and its "
                 "movement ends there (BASE-HAZ-2) ({health} health left).", "wounds", **p)


def _card_warning(state: EmperorState, cid: str) -> str | None:
    """A card whose attacks and pushes have no enemy in reach now: those abilities would be wasted."""
    card = state.card(cid)
    f = Field(state)
    enemies = state.enemies(HUMAN)
    wasted = []
    for a in card.abilities:
        if a.kind not in ("ATTACK", "PUSH", "HELPER_ATTACK"):
            continue
        me = state.helper_of(HUMAN) if a.kind == "HELPER_ATTACK" else state.hero_of(HUMAN)
        if me is None or not me.alive or me.cell is None:
            wasted.append(ability_text(a))
            continue
        rng = "MELEE" if a.kind == "HELPER_ATTACK" else (a.range or "MELEE")
        # the most a RANGE bonus of this cell could add (BASE-RANGE-1)
        extra = sum(symbol_count(lo, ("RANGE",)) for lo, _ in f.bonus_locations(me.cell, ("RANGE",)))
        if not _in_range(f, me.cell, enemies, rng, extra if rng == "RANGED" else 0):
            wasted.append(ability_text(a))
    if not wasted:
        return None
    if all("MELEE" in x for x in wasted):
        return msg_n("No enemy is next to the warrior that would perform {abilities}: it would be wasted "
                     "(BASE-RANGE-1).", "No enemy is next to the warrior that would perform {abilities}: they would "
                     "be wasted (BASE-RANGE-1).", "count", abilities=", ".join(wasted), count=len(wasted))
    return msg_n("No enemy is in range of the warrior that would perform {abilities}: it would be wasted "
                 "(BASE-RANGE-1).", "No enemy is in range of the warrior that would perform {abilities}: they would "
                 "be wasted (BASE-RANGE-1).", "count", abilities=", ".join(wasted), count=len(wasted))


def _abilities(state: EmperorState, cid: str) -> "str | Message":
    """The card's abilities in order; a STAR says what it may become (BASE-STAR-1)."""
    c = state.card(cid)
    stars = [s.name for s in state.heroes[HUMAN].stars]
    star = msg("STAR (one of your hero's stars: {names}; or a location's ability where you stand)",
               names=", ".join(stars)) if stars else "STAR"
    return joined([star if a.kind == "STAR" else ability_text(a) for a in c.abilities], msg(", then "))


def describe(state: EmperorState, seat: str, cmd: Any) -> dict[str, Any]:  # noqa: C901 - one case per command
    warning = None
    if isinstance(cmd, C.Move):
        w = state.warriors[cmd.warrior]
        label = msg("Move {warrior} from {frm} to {to}{bonus}", warrior=w.name, frm=w.cell, to=cmd.to,
                    bonus=_bonus_words(state, cmd.bonuses, ("MOVE",)))
        warning = _hazard_warning(state, w, cmd.to, cmd.bonuses)
    elif isinstance(cmd, C.Activate):
        c = state.card(cmd.card)
        label = msg("Activate {card}: {abilities}; then it is exhausted and its crest {crest} becomes your "
                    "initiative (BASE-CARD-1)", card=named(c.name, c.id), abilities=_abilities(state, cmd.card),
                    crest=c.crest)
        warning = _card_warning(state, cmd.card)
    elif isinstance(cmd, C.Refresh):
        ex = state.exhausted.get(HUMAN, ())
        label = msg("Refresh: your exhausted cards ({cards}) become prepared (BASE-REF-1)",
                    cards=", ".join(_card(state, c) for c in ex) or msg("none"))
        if not ex:
            warning = msg("No card of yours is exhausted: the REFRESH action would do nothing.")
    elif isinstance(cmd, C.EndTurn):
        t = state.turn
        done = ", ".join(t.actions) if t and t.actions else msg("no action")
        label = msg("End your turn (you took {actions}); the Emperor plays", actions=done)
    elif isinstance(cmd, C.Skip):
        step = state.activation.queue[0] if state.activation and state.activation.queue else None
        label = (msg("Do not use {ability} (abilities are optional, GAP-A-24)", ability=ability_text(step.ability))
                 if step else msg("Skip this ability (abilities are optional, GAP-A-24)"))
    elif isinstance(cmd, C.Swap):
        a = state.activation
        other = state.warriors.get(a.last_target) if a and a.last_target else None
        me = state.warriors.get(a.queue[0].performer) if a and a.queue else None
        label = msg("Swap {warrior} ({cell}) with {other} ({other_cell}) (SOLO-FAQ-4)", warrior=_w(me),
                    cell=me.cell if me else "?", other=_w(other), other_cell=other.cell if other else "?")
    elif isinstance(cmd, (C.Attack, C.Push, C.March, C.Star)):
        return _describe_step(state, cmd)
    elif isinstance(cmd, C.Defend):
        return _describe_defend(state, cmd)
    else:
        return {}
    return {"label": label, "warning": warning}


def _describe_step(state: EmperorState, cmd: Any) -> dict[str, Any]:
    a = state.activation
    assert a is not None and a.queue
    step = a.queue[0]
    ab = step.ability
    me = state.warriors.get(step.performer)
    src = _named_card(state, step.source) if _is_card(state, step.source) else source_said(step.source, state)
    warning = None
    if isinstance(cmd, C.Attack):
        syms = ("ATTACK", "RANGE") if ab.range == "RANGED" and ab.kind == "ATTACK" else ("ATTACK",)
        f = Field(state)
        plus = sum(symbol_count(f.location(b), ("ATTACK",)) for b in cmd.bonuses)
        value = ab.value + plus + boost(state, HUMAN, ab.boost)
        if cmd.target is None:
            label = msg("{warrior} attacks every enemy within 2 with {value} ({ability} of {source})", warrior=_w(me),
                        value=value, ability=ability_text(ab), source=src)
        else:
            t = state.warriors[cmd.target]
            label = msg("{warrior} attacks {target} on {cell} with {value} ({ability} of {source}); {target} has "
                        "{health} health", warrior=_w(me), target=t.name, cell=t.cell, value=value,
                        ability=ability_text(ab), source=src, health=t.left)
        label = msg("{label}{bonus}", label=label, bonus=_bonus_words(state, cmd.bonuses, syms))
    elif isinstance(cmd, C.Push):
        t = state.warriors[cmd.target]
        f = Field(state).with_flipped(cmd.bonuses) if cmd.bonuses else Field(state)
        hz = path_hazards(f, t.cell, cmd.path, t.id) or ()  # type: ignore[arg-type]
        label = msg("Push {target} {cell} -> {path} ({ability} of {source}){bonus}", target=t.name, cell=t.cell,
                    path=" -> ".join(cmd.path), ability=ability_text(ab), source=src,
                    bonus=_bonus_words(state, cmd.bonuses, ("PUSH", "RANGE")))
        if hz:
            label = msg_n("{label}: {wounds} wound(s) from {hazards} (BASE-HAZ-2)",
                          "{label}: {wounds} wound(s) from {hazards} (BASE-HAZ-2)", "wounds", label=label,
                          wounds=len(hz) * HAZARD_WOUNDS, hazards=", ".join(hz))
    elif isinstance(cmd, C.March):
        label = msg("{warrior} marches from {frm} to {to} ({ability} of {source}){bonus}", warrior=_w(me),
                    frm=me.cell if me else "?", to=cmd.to, ability=ability_text(ab), source=src,
                    bonus=_bonus_words(state, cmd.bonuses, ("MOVE",)))
        if me is not None:
            warning = _hazard_warning(state, me, cmd.to, cmd.bonuses)
    else:  # Star
        stars = {s.name: s.ability for s in state.heroes[HUMAN].stars}
        if cmd.choice in stars:
            label = msg("Star: {ability_name}, {ability} (your hero's star ability, once per turn, BASE-STAR-1)",
                        ability_name=cmd.choice, ability=ability_text(stars[cmd.choice]))
        else:
            lo = Field(state).location(cmd.choice)
            assert lo.ability is not None
            label = msg("Star: {ability_name} of {location}, {ability}; the location flips (BASE-STAR-1, BASE-LOC-3)",
                        ability_name=lo.ability.name, location=named(lo.name, lo.id),
                        ability=ability_text(lo.ability.ability))
        # what the chosen ability could do now: none of its targets in reach means it is wasted
        ability = stars.get(cmd.choice) or (Field(state).location(cmd.choice).ability.ability  # type: ignore[union-attr]
                                            if cmd.choice not in stars else None)
        if ability is not None and ability.kind in ("ATTACK", "PUSH", "MARCH"):
            probe = Step(ability=ability, performer=step.performer, source=step.source)
            if not step_options(state, probe):
                warning = msg("{ability} has no possible use now: the star would be wasted.",
                              ability=ability_text(ability))
    return {"label": label, "warning": warning}


def _is_card(state: EmperorState, cid: str) -> bool:
    try:
        state.card(cid)
    except KeyError:
        return False
    return True


def _describe_defend(state: EmperorState, cmd: C.Defend) -> dict[str, Any]:
    p = state.pending
    assert p is not None
    hero = state.warriors[p.target]
    f = Field(state)
    plus = sum(symbol_count(f.location(b), ("DEFENSE",)) for b in cmd.bonuses)
    if cmd.card:
        c = state.card(cmd.card)
        value = c.defense + boost(state, HUMAN, c.defense_boost) + plus
        label = msg("Defend {hero} with {card}: defense {value}; the card is exhausted (BASE-DEF-1){bonus}",
                    hero=hero.name, card=named(c.name, c.id), value=value,
                    bonus=_bonus_words(state, cmd.bonuses, ("DEFENSE",)))
    else:
        value = plus
        label = msg("Defend {hero} without a card: defense {value} (BASE-DEF-1){bonus}", hero=hero.name, value=value,
                    bonus=_bonus_words(state, cmd.bonuses, ("DEFENSE",)))
    wounds = max(0, p.attack - value)
    warning = None
    if wounds:
        left = hero.left - wounds
        if left <= 0:
            warning = msg_n("The attack is {attack} against your defense {value}: {hero} takes {wounds} wound(s) and "
                            "dies: the game is lost (SOLO-GAME-2).", "The attack is {attack} against your defense "
                            "{value}: {hero} takes {wounds} wound(s) and dies: the game is lost (SOLO-GAME-2).",
                            "wounds", attack=p.attack, value=value, hero=hero.name, wounds=wounds)
        else:
            warning = msg_n("The attack is {attack} against your defense {value}: {hero} takes {wounds} wound(s) "
                            "({health} health left).", "The attack is {attack} against your defense {value}: {hero} "
                            "takes {wounds} wound(s) ({health} health left).", "wounds", attack=p.attack,
                            value=value, hero=hero.name, wounds=wounds, health=left)
    return {"label": label, "warning": warning}


#: The seat and the automaton's side in words (kernel words.py ``seat_names``, docs/seat-names.md): the rulebook
#: speaks of the human player (Ukrainian: ви, гравець) and the Emperor (Імператор).
SEAT_NAMES: "dict[str, Message]" = {HUMAN: msg("the player"), EMPEROR: THE_EMPEROR}


__all__ = ["AUTOMATON_TITLE", "SEAT_NAMES", "acted_by", "describe", "names"]
