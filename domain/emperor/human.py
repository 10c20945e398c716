"""The human's side: the turn (BASE-TURN-1), its actions, the abilities of an activated card
(BASE-CARD-1, BASE-STAR-1, SOLO-FAQ-4), and the defense of its hero (BASE-DEF-1).

``options`` lists every legal command; ``handle`` executes one (a command not listed is refused
with the rule it breaks); ``settle`` closes whatever has no choice left (an ability without any
target is skipped, a finished card is exhausted, a turn with no action left ends and the Emperor
plays).

Over 500 lines on purpose: ``options`` and ``handle`` list and execute the same actions; each action's
listing and its execution stand next to each other, so a legal command and its effect cannot drift apart.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import Message, msg, msg_n, text_of

from . import commands as C
from .automaton.turn import defense_card_abilities, emperor_turn, resume
from .choices import DEFENSE_CARD, choice
from .cards import boost
from .combat import casualties, emperor_defense, flip, resolve_attack
from .content import Location, ability_text
from .events import (
    AbilityDone, ActionTaken, CardActivated, CardResolved, Defended, Pushed, Refreshed, StarChosen, Swapped,
    TurnEnded, WarriorMoved, WarriorWounded,
)
from .field import HAZARD_WOUNDS, Field, symbol_count
from .movement import human_destinations
from .outbox import Outbox
from .push import human_push_paths, path_hazards
from .sources import source_said
from .state import EMPEROR, HERO, HUMAN, EmperorState, Step, Warrior
from .terms import hazard_cause
from .turn_start import start_human_turn
import msgspec

#: GAP-A-24 (PROPOSED): the human may leave any ability of its activated card unused.
ABILITIES_OPTIONAL = True  # GAP-A-24
#: BASE-RANGE-1 (PROPOSED): ranges of the human's abilities.
MELEE_RANGE = 1
RANGED_RANGE = 3
AREA_RANGE = 2

ACTIONS = ("MOVE", "ACTIVATE", "REFRESH")


# -- turn --------------------------------------------------------------------------------------

def _end_turn(out: Outbox, why: Message) -> None:
    st = out.state
    out.emit(TurnEnded(side=HUMAN, turn=st.turn_no), RulingBuilder().add("BASE-TURN-1", why,
                                                                         actions=list(st.turn.actions if st.turn else ())),
             summary=msg("your turn ends"))
    emperor_turn(out)


def _move_open(st: EmperorState) -> bool:
    t = st.turn
    assert t is not None
    return t.current == "MOVE" or ("MOVE" not in t.actions and len(t.actions) < 2)


def _new_action_ok(st: EmperorState, action: str) -> bool:
    t = st.turn
    assert t is not None
    return action not in t.actions and len(t.actions) < 2


def _turn_over(st: EmperorState) -> bool:
    """BASE-TURN-1 / GAP-A-25 (PROPOSED): two different actions taken and nothing left to move."""
    t = st.turn
    if t is None or t.side != HUMAN or st.activation is not None or st.pending is not None:
        return False
    if len(t.actions) < 2:
        return False
    if t.current == "MOVE":
        return not _move_commands(st)
    return True


def settle(out: Outbox) -> None:
    """Close what has no choice left (see the module doc)."""
    while not out.over:
        st = out.state
        if st.pending is not None or st.turn is None or st.turn.side != HUMAN:
            return
        a = st.activation
        if a is not None:
            if not a.queue:
                card = st.card(a.card)
                out.emit(CardResolved(side=HUMAN, card=a.card, crest=card.crest), RulingBuilder().add(
                    "BASE-CARD-1", msg("{card} is resolved and exhausted.",
                                       card=a.card), card=a.card).add(
                    "BASE-CREST-1", msg("Its crest {crest} becomes your applied crest initiative.", crest=card.crest), crest=card.crest),
                    summary=msg("{card} exhausted; crest {crest}", card=a.card, crest=card.crest))
                continue
            step = a.queue[0]
            if not step_options(st, step):
                why = _no_option_reason(st, step)
                out.emit(AbilityDone(side=HUMAN, source=step.source, ability=ability_text(step.ability), skipped=True,
                                     why=text_of(why)), RulingBuilder().add(_RULE_OF.get(step.ability.kind, "BASE-CARD-1"), why),
                         summary=msg("{source}: {value} has no possible use",
                                     source=source_said(step.source, out.state), value=ability_text(step.ability)))
                continue
            return
        if _turn_over(st):
            _end_turn(out, msg("You took two different actions ({actions}); your turn ends.",
                               actions=", ".join(st.turn.actions)))  # type: ignore[union-attr]
        return


# -- options -----------------------------------------------------------------------------------

def options(st: EmperorState) -> list[Any]:
    """Every legal command of the human now."""
    if not st.opened or st.winner is not None or st.turn is None:
        return []
    if st.pending is not None:
        p = st.pending
        return [C.Defend(card=c, bonuses=s) for c in (None, *p.cards) for s in _subsets(p.locations)]
    if st.activation is not None:
        if st.turn.side != HUMAN or not st.activation.queue:
            return []
        opts = step_options(st, st.activation.queue[0])
        return opts + [C.Skip()] if opts and ABILITIES_OPTIONAL else opts
    if st.turn.side != HUMAN:
        return []
    out: list[Any] = _move_commands(st) if _move_open(st) else []
    if _new_action_ok(st, "ACTIVATE"):
        out += [C.Activate(card=c) for c in st.prepared(HUMAN)]
    if _new_action_ok(st, "REFRESH"):
        out.append(C.Refresh())
    out.append(C.EndTurn())
    return out


def _subsets(ids: tuple[str, ...]) -> list[tuple[str, ...]]:
    ids = tuple(sorted(ids))
    return [c for r in range(len(ids) + 1) for c in combinations(ids, r)]


def _bonus_sets(field: Field, cell: str, symbols: tuple[str, ...]) -> list[tuple[tuple[str, ...], dict[str, int]]]:
    """Every set of available locations with a relevant symbol, and what each set gives per symbol."""
    locs = {lo.id: lo for lo, _ in field.bonus_locations(cell, symbols)}
    out = []
    for s in _subsets(tuple(locs)):
        out.append((s, {sym: sum(symbol_count(locs[i], (sym,)) for i in s) for sym in symbols}))
    return out


def _move_commands(st: EmperorState) -> list[Any]:
    t = st.turn
    assert t is not None
    field = Field(st)
    out = []
    for w in sorted(st.warriors.values(), key=lambda w: (w.kind != HERO, w.id)):
        if w.side != HUMAN or not w.alive or w.id in t.moved:
            continue
        for s, by in _bonus_sets(field, w.cell, ("MOVE",)):  # type: ignore[arg-type]
            f = field.with_flipped(s) if s else field
            for dest in sorted(human_destinations(f, w, w.movement + by["MOVE"])):
                out.append(C.Move(warrior=w.id, to=dest, bonuses=s))
    return out


def _performer(st: EmperorState, step: Step) -> Warrior | None:
    w = st.warriors.get(step.performer)
    return w if w is not None and w.alive else None


def _in_range(field: Field, frm: str, enemies: list[Warrior], rng: str, extra: int) -> list[Warrior]:
    """BASE-RANGE-1: MELEE dist 1; RANGED dist 1-3 plus the RANGE bonuses used; AREA dist <= 2."""
    hi = {"MELEE": MELEE_RANGE, "RANGED": RANGED_RANGE + extra, "AREA": AREA_RANGE}[rng]
    return [e for e in enemies if 1 <= field.dist(frm, e.cell) <= hi]  # type: ignore[arg-type]


def step_options(st: EmperorState, step: Step) -> list[Any]:
    """The commands that use ``step`` (Skip not included)."""
    a = step.ability
    k = a.kind
    me = _performer(st, step)
    field = Field(st)
    enemies = st.enemies(HUMAN)
    if k in ("ATTACK", "HELPER_ATTACK"):
        if me is None:
            return []
        rng = "MELEE" if k == "HELPER_ATTACK" else (a.range or "MELEE")
        syms = ("ATTACK", "RANGE") if rng == "RANGED" else ("ATTACK",)
        out: list[Any] = []
        for s, by in _bonus_sets(field, me.cell, syms):  # type: ignore[arg-type]
            targets = _in_range(field, me.cell, enemies, rng, by.get("RANGE", 0))  # type: ignore[arg-type]
            if rng == "AREA":
                if targets:
                    out.append(C.Attack(target=None, bonuses=s))
            else:
                out += [C.Attack(target=t.id, bonuses=s) for t in sorted(targets, key=lambda w: w.id)]
        return out
    if k == "PUSH":
        if me is None:
            return []
        rng = a.range or "MELEE"
        syms = ("PUSH", "RANGE") if rng == "RANGED" else ("PUSH",)
        out = []
        for s, by in _bonus_sets(field, me.cell, syms):  # type: ignore[arg-type]
            f = field.with_flipped(s) if s else field
            v = a.value + by["PUSH"] + boost(st, HUMAN, a.boost)
            targets = [t for t in _in_range(field, me.cell, enemies, rng, by.get("RANGE", 0))  # type: ignore[arg-type]
                       if not step.target or t.id == step.target]
            for t in sorted(targets, key=lambda w: w.id):
                out += [C.Push(target=t.id, path=p, bonuses=s) for p in human_push_paths(f, t.id, v, t.left)]
        return out
    if k == "MARCH":
        if me is None:
            return []
        out = []
        for s, by in _bonus_sets(field, me.cell, ("MOVE",)):  # type: ignore[arg-type]
            f = field.with_flipped(s) if s else field
            v = a.value + by["MOVE"] + boost(st, HUMAN, a.boost)
            out += [C.March(to=d, bonuses=s) for d in sorted(human_destinations(f, me, v))]
        return out
    if k == "STAR":
        hero = st.hero_of(HUMAN)
        if hero is None or not hero.alive or st.turn is None:
            return []
        out = [C.Star(choice=s.name) for s in st.heroes[HUMAN].stars if s.name not in st.turn.stars_used]
        out += [C.Star(choice=lo.id) for lo in field.available(hero.cell)  # type: ignore[arg-type]
                if lo.ability is not None and lo.id not in st.turn.location_abilities_used]
        return out
    if k == "SWAP":
        t = st.warriors.get(st.activation.last_target) if st.activation and st.activation.last_target else None
        return [C.Swap()] if (t is not None and t.alive and me is not None) else []
    return []  # WOUND / HEAL are fallback abilities, never on a card (content check)


_RULE_OF = {"ATTACK": "BASE-RANGE-1", "HELPER_ATTACK": "BASE-RANGE-1", "PUSH": "BASE-PUSH-1", "MARCH": "BASE-MOVE-1",
            "STAR": "BASE-STAR-1", "SWAP": "SOLO-FAQ-4"}


def _no_option_reason(st: EmperorState, step: Step) -> Message:
    a = step.ability
    txt = ability_text(a)
    if _performer(st, step) is None:
        return msg("{ability}: the warrior that would perform it is gone.", ability=txt)
    k = a.kind
    if k == "ATTACK":
        return msg("{ability}: no enemy warrior in range (BASE-RANGE-1).", ability=txt)
    if k == "HELPER_ATTACK":
        return msg("{ability}: no enemy warrior next to your helper (BASE-RANGE-1).", ability=txt)
    if k == "PUSH":
        return msg("{ability}: no enemy in range can be pushed (BASE-PUSH-1).", ability=txt)
    if k == "MARCH":
        return msg("{ability}: no cell to move to (BASE-MOVE-1).", ability=txt)
    if k == "STAR":
        return msg("{ability}: every star ability was used this turn and no location ability is available "
                   "(BASE-STAR-1).", ability=txt)
    if k == "SWAP":
        return msg("{ability}: the warrior your attack hit is gone, so there is nothing to swap with (SOLO-FAQ-4).",
                   ability=txt)
    return msg("{ability}: nothing to do.", ability=txt)


# -- handling a command ---------------------------------------------------------------------------

def _norm(cmd: Any) -> Any:
    """The command with its bonus list sorted (the order the human lists them in does not matter)."""
    b = getattr(cmd, "bonuses", None)
    if b:
        return msgspec.structs.replace(cmd, bonuses=tuple(sorted(b)))
    return cmd


def handle(out: Outbox, cmd: Any) -> None:
    st = out.state
    cmd = _norm(cmd)
    if st.pending is not None:
        if not isinstance(cmd, C.Defend):
            raise RuleViolation("BASE-DEF-1", msg("Your hero {hero} is attacked with {attack}: choose its defense first "
                                                  "(send defend).", hero=st.warriors[st.pending.target].name,
                                                  attack=st.pending.attack))
        if cmd not in options(st):
            raise _defend_refusal(st, cmd)
        _defend(out, cmd)
        return
    if isinstance(cmd, C.Defend):
        raise RuleViolation("BASE-DEF-1", msg("No attack on your hero is waiting for your defense."))
    if st.activation is not None:
        step = st.activation.queue[0]
        if isinstance(cmd, C.Skip):
            out.emit(AbilityDone(side=HUMAN, source=step.source, ability=ability_text(step.ability), skipped=True,
                                 why="you chose not to use it"), RulingBuilder().add(
                "GAP-A-24", msg("You leave {value} ({source}) unused (PROPOSED: abilities are optional).",
                                value=ability_text(step.ability), source=source_said(step.source, out.state))), summary=msg("{source}: {value} skipped",
                                                       source=source_said(step.source, out.state), value=ability_text(step.ability)))
            return
        if cmd not in step_options(st, step):
            raise _step_refusal(st, step, cmd)
        _use_step(out, step, cmd)
        return
    if isinstance(cmd, (C.Attack, C.Push, C.March, C.Star, C.Swap, C.Skip)):
        raise RuleViolation("BASE-CARD-1", msg("{command} uses an ability of an activated card; no card is being "
                                               "resolved (activate one first).", command=type(cmd).__name__))
    if isinstance(cmd, C.EndTurn):
        _end_turn(out, msg("You end your turn after {actions}.", actions=", ".join(st.turn.actions))
                  if st.turn and st.turn.actions else msg("You end your turn without an action."))
        return
    if cmd not in options(st):
        raise _action_refusal(st, cmd)
    if isinstance(cmd, C.Move):
        _move(out, cmd)
    elif isinstance(cmd, C.Activate):
        _activate(out, cmd)
    elif isinstance(cmd, C.Refresh):
        ex = st.exhausted.get(HUMAN, ())
        out.emit(ActionTaken(action="REFRESH"), RulingBuilder().add("BASE-TURN-1", msg("Action: REFRESH.")),
                 summary=msg("you refresh"))
        out.emit(Refreshed(side=HUMAN, cards=ex), RulingBuilder().add(
            "BASE-REF-1", msg("Every exhausted card becomes prepared: {value}.",
                              value=', '.join(ex) or msg("none was exhausted")),
            cards=list(ex)), summary=msg_n("refreshed {count} card(s)",
                                           "refreshed {count} card(s)", "count", count=len(ex)))


def _action_refusal(st: EmperorState, cmd: Any) -> RuleViolation:
    t = st.turn
    assert t is not None
    if isinstance(cmd, C.Move):
        if not _move_open(st):
            return RuleViolation("BASE-TURN-1", msg("MOVE is not available: you take at most two different actions "
                                                    "per turn and MOVE is over or already taken."),
                                 actions=list(t.actions))
        w = st.warriors.get(cmd.warrior)
        if w is None or w.side != HUMAN or not w.alive:
            return RuleViolation("BASE-MOVE-1", msg("{warrior} is not one of your warriors on the battlefield.",
                                                    warrior=repr(cmd.warrior)))
        if w.id in t.moved:
            return RuleViolation("BASE-TURN-1", msg("{warrior} has already moved in this MOVE action.", warrior=w.name))
        bad = _bad_bonus(st, w, cmd.bonuses, ("MOVE",))
        if bad:
            return bad
        return RuleViolation("BASE-MOVE-1", msg("{warrior} cannot reach {to}: it moves up to its movement in "
                                                "orthogonal steps, crossing allies but not enemies or locations, and "
                                                "ends on a free cell; entering an active hazard ends the move.",
                                                warrior=w.name, to=cmd.to),
                             warrior=w.id, to=cmd.to)
    if isinstance(cmd, C.Activate):
        if not _new_action_ok(st, "ACTIVATE"):
            return RuleViolation("BASE-TURN-1", msg("ACTIVATE is not available: at most two different actions per turn."),
                                 actions=list(t.actions))
        if cmd.card not in (c.id for c in st.heroes[HUMAN].cards):
            return RuleViolation("BASE-CARD-1", msg("{card} is not one of your action cards.", card=repr(cmd.card)))
        return RuleViolation("BASE-CARD-1", msg("{card} is exhausted; only a prepared card can be activated.", card=cmd.card))
    if isinstance(cmd, C.Refresh):
        return RuleViolation("BASE-TURN-1", msg("REFRESH is not available: at most two different actions per turn."),
                             actions=list(t.actions))
    return RuleViolation("BASE-TURN-1", msg("{command} is not possible now.", command=type(cmd).__name__))


def _bad_bonus(st: EmperorState, w: Warrior, bonuses: tuple[str, ...], symbols: tuple[str, ...]) -> RuleViolation | None:
    field = Field(st)
    if len(set(bonuses)) != len(bonuses):
        return RuleViolation("BASE-LOC-3", msg("A location is listed twice in bonuses; a card is used (and flipped) once."))
    for b in bonuses:
        if b not in field.static.locations:
            return RuleViolation("BASE-LOC-1", msg("{location} is not a location of this battlefield.", location=repr(b)))
        lo = field.location(b)
        if not field.face_up(b):
            return RuleViolation("BASE-LOC-3", msg("{location} {name} is flipped: it gives no bonus.", location=b, name=lo.name))
        if lo not in field.available(w.cell):  # type: ignore[arg-type]
            return RuleViolation("BASE-LOC-2", msg("{location} {name} is not next to {warrior} ({cell}): its bonuses "
                                                   "are available only from orthogonally adjacent cells.", location=b,
                                                   name=lo.name, warrior=w.name, cell=w.cell))
        if not symbol_count(lo, symbols):
            return RuleViolation("BASE-LOC-5", msg("{location} {name} has no {symbols} symbol for this.", location=b,
                                                   name=lo.name, symbols="/".join(symbols)))
    return None


def _step_refusal(st: EmperorState, step: Step, cmd: Any) -> RuleViolation:
    a = step.ability
    want = {"ATTACK": C.Attack, "HELPER_ATTACK": C.Attack, "PUSH": C.Push, "MARCH": C.March, "STAR": C.Star,
            "SWAP": C.Swap}.get(a.kind)
    if want is None or not isinstance(cmd, want):
        name = {C.Attack: "attack", C.Push: "push", C.March: "march", C.Star: "star", C.Swap: "swap"}.get(want, "skip")  # type: ignore[call-overload]
        return RuleViolation("BASE-CARD-1", msg("Finish resolving {card} first (abilities in printed order): its "
                                                "current ability is {ability} -- send {command} or skip.",
                                                card=st.activation.card, ability=ability_text(a), command=name))  # type: ignore[union-attr]
    me = _performer(st, step)
    if me is None:
        return RuleViolation("BASE-CARD-1", msg("The warrior that would perform this ability is gone."))
    if hasattr(cmd, "bonuses"):
        syms = {"ATTACK": ("ATTACK", "RANGE"), "HELPER_ATTACK": ("ATTACK",), "PUSH": ("PUSH", "RANGE"),
                "MARCH": ("MOVE",)}[a.kind]
        if a.range != "RANGED":
            syms = tuple(s for s in syms if s != "RANGE")
        bad = _bad_bonus(st, me, cmd.bonuses, syms)
        if bad:
            return bad
    if isinstance(cmd, C.Attack):
        if a.range == "AREA" and a.kind == "ATTACK":
            if cmd.target is not None:
                return RuleViolation("BASE-RANGE-1", msg("An AREA attack affects every enemy within 2: send no target."))
            return RuleViolation("BASE-RANGE-1", msg("No enemy is within 2 of your hero."))
        t = st.warriors.get(cmd.target or "")
        if t is None or t.side != EMPEROR or not t.alive:
            return RuleViolation("BASE-RANGE-1", msg("{target} is not an enemy warrior on the battlefield.", target=repr(cmd.target)))
        d = Field(st).dist(me.cell, t.cell)  # type: ignore[arg-type]
        return RuleViolation("BASE-RANGE-1", msg("{target} is at distance {distance} from {warrior}: out of range for "
                                                 "{ability} (MELEE 1, RANGED 1-3 plus RANGE bonuses).", target=t.name,
                                                 distance=d, warrior=me.name, ability=ability_text(a)),
                             distance=d)
    if isinstance(cmd, C.Push):
        t = st.warriors.get(cmd.target)
        if t is None or t.side != EMPEROR or not t.alive:
            return RuleViolation("BASE-PUSH-1", msg("{target} is not an enemy warrior on the battlefield.", target=repr(cmd.target)))
        return RuleViolation("BASE-PUSH-1", msg("Not a legal push: the target must be in range, and each of at most "
                                                "value steps goes to an adjacent cell inside the grid with no location "
                                                "and no warrior (a push stops when the target dies)."))
    if isinstance(cmd, C.March):
        return RuleViolation("BASE-MOVE-1", msg("{warrior} cannot reach {to} with {ability}.", warrior=me.name, to=cmd.to,
                                                ability=ability_text(a)))
    if isinstance(cmd, C.Star):
        if st.turn is not None and (cmd.choice in st.turn.stars_used or cmd.choice in st.turn.location_abilities_used):
            return RuleViolation("BASE-STAR-1", msg("{choice} was already used this turn (each once per turn).",
                                                choice=cmd.choice))
        return RuleViolation("BASE-STAR-1", msg("{choice} is neither one of your hero's star abilities nor the "
                                                "ability of a face-up location next to your hero.",
                                                choice=repr(cmd.choice)))
    return RuleViolation("SOLO-FAQ-4", msg("There is no warrior to swap places with."))


def _defend_refusal(st: EmperorState, cmd: Any) -> RuleViolation:
    p = st.pending
    assert p is not None
    if cmd.card is not None and cmd.card not in p.cards:
        return RuleViolation("BASE-DEF-1", msg("{card} is not a prepared card of yours: defend with one of {cards} or "
                                               "with no card.", card=repr(cmd.card), cards=", ".join(p.cards) or msg("none")))
    hero = st.warriors[p.target]
    return _bad_bonus(st, hero, cmd.bonuses, ("DEFENSE",)) or RuleViolation(
        "BASE-DEF-1", msg("Not a legal defense."))


# -- executing --------------------------------------------------------------------------------------

def _human_flip(out: Outbox, w: Warrior, ids: tuple[str, ...], symbols: tuple[str, ...], purpose: str) -> dict[str, int]:
    field = Field(out.state)
    locs: list[tuple[Location, int]] = [(field.location(i), symbol_count(field.location(i), symbols)) for i in ids]
    by = {s: sum(symbol_count(lo, (s,)) for lo, _ in locs) for s in symbols}
    flip(out, HUMAN, w, locs, symbols, purpose, [("BASE-LOC-5", msg("You choose which available bonuses to use; "
                                                                    "each symbol gives +1 (a double symbol +2)."))])
    return by


def _hazard_wound(out: Outbox, w: Warrior, hazard: str, why: Message) -> None:
    out.emit(WarriorWounded(warrior=w.id, wounds=HAZARD_WOUNDS, cause=hazard_cause(hazard)), RulingBuilder().add(
        "BASE-HAZ-2", msg_n("{w_name} enters the active hazard {hazard} ({why}): {hazard_wounds} wound(s), no "
                            "defense; its movement ends there.",
                            "{w_name} enters the active hazard {hazard} ({why}): {hazard_wounds} wound(s), no "
                            "defense; its movement ends there.", "hazard_wounds", w_name=w.name, hazard=hazard, why=why, hazard_wounds=HAZARD_WOUNDS), hazard=hazard), summary=msg("{w_name} is wounded by hazard {hazard}",
                                                            w_name=w.name, hazard=hazard))
    casualties(out)


def _move(out: Outbox, cmd: C.Move) -> None:
    st = out.state
    if st.turn is not None and st.turn.current != "MOVE":
        out.emit(ActionTaken(action="MOVE"), RulingBuilder().add(
            "BASE-TURN-1", msg("Action: MOVE -- each of your warriors may move once.")), summary=msg("you move"))
    w = out.state.warriors[cmd.warrior]
    by = _human_flip(out, w, cmd.bonuses, ("MOVE",), "movement") if cmd.bonuses else {"MOVE": 0}
    _walk(out, w, cmd.to, w.movement + by["MOVE"], "move")


def _walk(out: Outbox, w: Warrior, to: str, movement: int, purpose: str) -> None:
    field = Field(out.state)
    path = human_destinations(field, w, movement)[to]
    hz = field.active_hazard(to)
    out.emit(WarriorMoved(side=HUMAN, warrior=w.id, frm=w.cell or '', path=path, movement=movement, purpose=purpose,
                          hazard=hz.id if hz else ""), RulingBuilder().add(
        "BASE-MOVE-1", msg("{w_name} moves {cell} -> {path} (movement {movement}).",
                           w_name=w.name, cell=w.cell, path=' -> '.join(path), movement=movement), path=list(path)),
        summary=msg("{w_name} moves to {to}", w_name=w.name, to=to))
    if hz is not None:
        _hazard_wound(out, out.state.warriors[w.id], hz.id, msg("by its own movement"))


def _activate(out: Outbox, cmd: C.Activate) -> None:
    card = out.state.card(cmd.card)
    out.emit(ActionTaken(action="ACTIVATE"), RulingBuilder().add("BASE-TURN-1", msg("Action: ACTIVATE.")),
             summary=msg("you activate"))
    out.emit(CardActivated(side=HUMAN, card=cmd.card), RulingBuilder().add(
        "BASE-CARD-1", msg("{card}: {abilities} -- resolved in printed order, then exhausted.",
                           card=cmd.card,
                           abilities="; ".join(ability_text(a) for a in card.abilities)), card=cmd.card),
        summary=msg("you activate {card}", card=cmd.card))


def _use_step(out: Outbox, step: Step, cmd: Any) -> None:
    st = out.state
    a = step.ability
    me = st.warriors[step.performer]
    src = f"{step.source}: {ability_text(a)}"
    if isinstance(cmd, C.Attack):
        syms = ("ATTACK", "RANGE") if a.range == "RANGED" and a.kind == "ATTACK" else ("ATTACK",)
        by = _human_flip(out, me, cmd.bonuses, syms, "attack") if cmd.bonuses else {}
        st = out.state
        me = st.warriors[me.id]
        crest = boost(st, HUMAN, a.boost)
        value = a.value + by.get("ATTACK", 0) + crest
        parts = {"printed": a.value, "attack": by.get("ATTACK", 0), "crest": crest}
        if cmd.target is None:  # AREA: every enemy within 2, the Emperor's hero first (GAP-A-29)
            field = Field(st)
            targets = sorted(_in_range(field, me.cell, st.enemies(HUMAN), "AREA", 0),  # type: ignore[arg-type]
                             key=lambda w: (w.kind != HERO, field.dist(me.cell, w.cell), w.id))  # type: ignore[arg-type]
            ids = [t.id for t in targets]
        else:
            ids = [cmd.target]
        cards: list[str] = []  # the Emperor's defense cards whose abilities resolve (SOLO-CHOICE-DEFENSE-CARD)
        for tid in ids:
            if out.over:
                return
            target = out.state.warriors[tid]
            if not target.alive:
                continue
            before = len(out.items)
            defense, dparts = emperor_defense(out, target, value, src)
            if out.over:
                return
            cards += [e.event.card for e in out.items[before:] if isinstance(e.event, Defended)
                      and e.event.side == EMPEROR and e.event.card and choice(out.state, DEFENSE_CARD) == "abilities"]
            rb = RulingBuilder().add("BASE-ATK-1", msg("Attack value = {value} printed + {value2} ATTACK bonus + "
                                                       "{crest} crest = {value3}.",
                                                       value=a.value, value2=by.get('ATTACK', 0), crest=crest, value3=value), attack=value)
            if by.get("RANGE"):
                rb.add("BASE-RANGE-1", msg("RANGE bonus +{range_bonus}: range 1-{value}.",
                                           range_bonus=by["RANGE"], value=RANGED_RANGE + by['RANGE']))
            resolve_attack(out, HUMAN, out.state.warriors[me.id], out.state.warriors[tid], src, value, defense,
                           {**parts, **{f"defense_{k}": v for k, v in dparts.items()}}, rb)
        if cards and not out.over:
            defense_card_abilities(out, cards)
    elif isinstance(cmd, C.Push):
        syms = ("PUSH", "RANGE") if a.range == "RANGED" else ("PUSH",)
        by = _human_flip(out, me, cmd.bonuses, syms, "push") if cmd.bonuses else {"PUSH": 0}
        st = out.state
        target = st.warriors[cmd.target]
        v = a.value + by.get("PUSH", 0) + boost(st, HUMAN, a.boost)
        field = Field(st)
        hz = path_hazards(field, target.cell, cmd.path, target.id)  # type: ignore[arg-type]
        assert hz is not None
        out.emit(Pushed(side=HUMAN, pusher=me.id, target=target.id, source=src, value=v, frm=target.cell or '',
                        path=cmd.path, hazards=hz,
                        wounds=len(hz) * HAZARD_WOUNDS), RulingBuilder().add(
            "BASE-PUSH-1", msg_n("{target_name} is pushed {cell} -> {path} ({count} of {v} step(s)).",
                                 "{target_name} is pushed {cell} -> {path} ({count} of {v} step(s)).", "v", target_name=target.name, cell=target.cell, path=' -> '.join(cmd.path), count=len(cmd.path), v=v), path=list(cmd.path), value=v).add(
            "BASE-HAZ-2", msg_n("Entries into active hazards: {value} -- {hazard_wounds} wound(s) each, no defense "
                                "(the Emperor's warriors are affected in your turn, SOLO-MOVE-1).",
                                "Entries into active hazards: {value} -- {hazard_wounds} wound(s) each, no defense "
                                "(the Emperor's warriors are affected in your turn, SOLO-MOVE-1).", "hazard_wounds", value=', '.join(hz) or msg("none"), hazard_wounds=HAZARD_WOUNDS),
            wounds=len(hz) * HAZARD_WOUNDS),
            summary=msg_n("{target_name} pushed to {value}: {value2} wound(s)",
                          "{target_name} pushed to {value}: {value2} wound(s)", "value2", target_name=target.name, value=cmd.path[-1], value2=len(hz) * HAZARD_WOUNDS))
        casualties(out)
    elif isinstance(cmd, C.March):
        by = _human_flip(out, me, cmd.bonuses, ("MOVE",), "movement") if cmd.bonuses else {"MOVE": 0}
        st = out.state
        _walk(out, st.warriors[me.id], cmd.to, a.value + by["MOVE"] + boost(st, HUMAN, a.boost), "march")
    elif isinstance(cmd, C.Star):
        stars = {s.name: s.ability for s in st.heroes[HUMAN].stars}
        if cmd.choice in stars:
            out.emit(StarChosen(side=HUMAN, choice=cmd.choice, kind="hero_star", ability=stars[cmd.choice]),
                     RulingBuilder().add("BASE-STAR-1", msg("The star is spent on {ability_name} ({value}), once per "
                                                            "turn.",
                                                            ability_name=cmd.choice,
                                                            value=ability_text(stars[cmd.choice]))),
                     summary=msg("star: {ability_name}", ability_name=cmd.choice))
        else:
            lo = Field(st).location(cmd.choice)
            assert lo.ability is not None
            out.emit(StarChosen(side=HUMAN, choice=lo.id, kind="location", ability=lo.ability.ability),
                     RulingBuilder().add("BASE-STAR-1", msg("The star is spent on {id} {lo_name}'s ability "
                                                            "{ability_name} ({value}).",
                                                            id=lo.id, lo_name=lo.name, ability_name=lo.ability.name, value=ability_text(lo.ability.ability))),
                     summary=msg("star: {id} {ability_name}", id=lo.id, ability_name=lo.ability.name))
            flip(out, HUMAN, me, [(lo, 0)], (), "location ability", [("BASE-LOC-3", msg("Using a location's "
                                                                                         "ability flips the card."))])
        return  # the chosen ability takes the star's place in the queue
    elif isinstance(cmd, C.Swap):
        other = st.warriors[st.activation.last_target]  # type: ignore[union-attr]
        out.emit(Swapped(warrior=me.id, other=other.id, cells=(me.cell, other.cell)),  # type: ignore[arg-type]
                 RulingBuilder().add("SOLO-FAQ-4", msg("{me_name} swaps places with {other_name} ({cell} <-> "
                                                       "{cell2}); the swap is optional (INFERRED, GAP-A-21) and "
                                                       "enters no hazard (PROPOSED, GAP-A-26).",
                                                       me_name=me.name, other_name=other.name, cell=me.cell, cell2=other.cell)),
                 summary=msg("{me_name} swaps with {other_name}", me_name=me.name, other_name=other.name))
    if not out.over:
        out.emit(AbilityDone(side=HUMAN, source=step.source, ability=ability_text(a)), RulingBuilder().add(
            "BASE-CARD-1", msg("{value} resolved.", value=ability_text(a))), summary=msg("{source}: {value} done",
                                                                        source=source_said(step.source, out.state), value=ability_text(a)))


def _defend(out: Outbox, cmd: C.Defend) -> None:
    st = out.state
    p = st.pending
    assert p is not None
    hero = st.warriors[p.target]
    by = _human_flip(out, hero, cmd.bonuses, ("DEFENSE",), "defense") if cmd.bonuses else {"DEFENSE": 0}
    st = out.state
    card = st.card(cmd.card) if cmd.card else None
    crest = boost(st, HUMAN, card.defense_boost) if card is not None else 0
    value = (card.defense if card else 0) + crest + by["DEFENSE"]
    parts = {"card": card.defense if card else 0, "crest": crest, "locations": by["DEFENSE"]}
    rb = RulingBuilder().add("BASE-DEF-1", msg("You activate {card} for its defense {defense}{crest} + "
                                               "{bonus} DEFENSE bonus = {value}.", card=card.id,
                                               defense=card.defense, bonus=by["DEFENSE"], value=value,
                                               crest=msg(" + {crest} crest", crest=crest) if card.defense_boost else "")
                             if card else msg("You defend without a card (0) + {bonus} DEFENSE bonus = {value}.",
                                              bonus=by["DEFENSE"], value=value), defense=value)
    if card is not None:
        rb.add("BASE-CREST-1", msg("{id} is exhausted and its crest {crest} becomes your applied crest initiative.",
                                   id=card.id, crest=card.crest))
    out.emit(Defended(side=HUMAN, warrior=hero.id, card=cmd.card or "", value=value, parts=parts), rb,
             summary=msg("you defend with {value}: {value2}", value=cmd.card or msg("no card"), value2=value))
    with out.automaton():
        attacker = out.state.warriors[p.attacker]
        resolve_attack(out, EMPEROR, attacker, out.state.warriors[hero.id], p.source, p.attack, value,
                       {**p.parts, **{"defense_" + k: v for k, v in parts.items()}}, RulingBuilder())
        if not out.over:
            resume(out, p.resume)


__all__ = ["options", "handle", "settle", "start_human_turn", "step_options"]
