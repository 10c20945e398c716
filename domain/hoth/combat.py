"""Attack (section 6): who may attack, range, sight, dice count, and scoring hits (section 7)."""
from __future__ import annotations

from typing import Any

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import Message, msg, msg_n

from . import board
from .cards import ConvertResult, ExtraDice, Reroll, SpecialAttack, StructureHitSymbols
from .context import Snapshot, bonus_effects, ordered_entry
from .movement import allowance
from .sight import sight_ruling_values
from .choices import EWEB, choice
from .state import HothState, UnitState
from .terms import hex_text, side
from .terms import terrain as terrain_word
from .terrain import RIDGE, attack_penalty, protection
from .units import UNIT_SPECS

#: Content 5.1 Focus Fire ("if both attack the same target, each rolls +1 die"), INFERRED: the first bonus
#: attack declares the focus target and rolls +1 at once; the partner ordered by the card may then only attack
#: that target while it stands (True), so no bonus is taken without both attacking it. False: the partner may
#: attack another target without the bonus.
FOCUS_FIRE_PARTNER_BOUND: bool = True

#: HOTH-DICE-3 / HOTH-GAP-1 (INFERRED): faces of the attack die, one entry per side.
DIE_FACES: tuple[str, ...] = ("infantry", "infantry", "vehicle", "explosion", "retreat", "miss")


class AttackPlan:
    """Everything decided before the roll: distance, sight and the dice count with its steps."""

    __slots__ = ("attacker", "target", "structure", "distance", "dice", "sight", "steps", "target_hex")

    def __init__(self) -> None:
        self.steps: list[tuple[str, Message, dict[str, Any]]] = []


def _target(state: HothState, target_id: str):
    if target_id in state.units:
        return state.units[target_id], False
    s = state.structures.get(target_id)
    if s is not None and not s.destroyed:
        return s, True
    return None, False


def may_attack_refusal(state: HothState, u: UnitState, breakthrough: bool) -> RuleViolation | None:
    """HOTH-ATTACK-7 (a)-(c)."""
    t = state.turn
    assert t is not None
    if ordered_entry(state, u.id) is None:
        return RuleViolation("HOTH-TURN-3", msg("{unit} was not ordered this turn, so it cannot attack.", unit=u.id))
    if not breakthrough and u.id in t.attacked:
        return RuleViolation("HOTH-ATTACK-2", msg("{unit} has already attacked this turn.", unit=u.id))
    if u.id in t.stopped:
        terrain = None
        elite = u.badge == "elite_troops"
        return RuleViolation("HOTH-SPECIAL-ELITE-2" if elite else "HOTH-MOVE-10",
                             msg("{unit} entered rocks or buildings/debris this turn and cannot attack (elite troops "
                                 "too).", unit=u.id) if elite else
                             msg("{unit} entered rocks or buildings/debris this turn and cannot attack.", unit=u.id),
                             terrain=terrain)
    moved = t.moved.get(u.id, 0)
    if moved == 0:
        return None  # a unit that has not moved may attack (allowances are never below 0)
    al = allowance(state, u)
    if not al.may_attack and moved > 0:
        return RuleViolation("HOTH-CARD-4", msg("{unit} moved with a card that forbids attacking.", unit=u.id))
    if moved > al.attack_max:
        rule = "HOTH-UNIT-SNOW-2" if u.unit == "snowtroopers" else (
            "HOTH-UNIT-ECHO-2" if u.unit == "echo_troopers" else "HOTH-MOVE-3")
        return RuleViolation(rule, msg_n("{unit} moved {count} hexes and cannot attack this turn (at most {most} to "
                                         "still attack).", "{unit} moved {count} hexes and cannot attack this turn "
                                         "(at most {most} to still attack).", "count", unit=u.id, count=moved,
                                         most=al.attack_max))
    return None


def special_attack(state: HothState, unit_id: str) -> SpecialAttack | None:
    for e in bonus_effects(state, unit_id):
        if isinstance(e, SpecialAttack):
            return e
    return None


def in_trench(state: HothState, snap: Snapshot, u: UnitState) -> bool:
    """A trench hex, or a card that treats the unit as in a trench (card effect ``treat_as_terrain``)."""
    if snap.terrain.get(u.hex) == "trench":
        return True
    return any(x.unit == u.id and x.effect == "trench" for x in state.lasting)


def _refused(explain: bool, rule: str, text, **values: Any) -> RuleViolation:
    """A refusal; ``text`` is a callable so that listing legal attacks (``explain=False``) never formats it."""
    return RuleViolation(rule, text() if explain else "", **(values if explain else {}))


def plan_special(state: HothState, snap: Snapshot, u: UnitState, target_id: str,
                 explain: bool = False) -> AttackPlan | RuleViolation:
    """A card's special attack (HOTH-CARD-4, e.g. Tow Cables): fixed dice, its own target limits.

    ``explain``: build the ruling steps, the full line of sight and the refusal texts (an attack being made);
    without it only the decision and the dice count (legal commands, bots).
    """
    sp = special_attack(state, u.id)
    if sp is None:
        return _refused(explain, "HOTH-CARD-4", lambda: msg("{unit} has no special attack this turn.", unit=u.id))
    tgt = state.units.get(target_id)
    if tgt is None or tgt.faction == u.faction:
        return _refused(explain, "HOTH-ATTACK-8", lambda: msg("{target} is not an enemy unit.", target=target_id))
    if sp.target_unit_types and tgt.unit not in sp.target_unit_types:
        return _refused(explain, "HOTH-CARD-4",
                        lambda: msg("The special attack may only target {types}.", types=", ".join(sp.target_unit_types)))
    d = board.distance(u.hex, tgt.hex)
    if sp.adjacent_only and d != 1:
        return _refused(explain, "HOTH-CARD-4", lambda: msg("The special attack needs an adjacent target."))
    if not snap.clear(u.hex, tgt.hex):  # HOTH-LOS-8 / HOTH-GAP-40: the board as it stands now
        return _refused(explain, "HOTH-LOS-1", lambda: msg("{unit} cannot see {target}.", unit=u.id, target=target_id))
    plan = AttackPlan()
    plan.attacker, plan.target, plan.structure, plan.distance = u.id, target_id, False, d
    plan.sight = snap.sight(u.hex, tgt.hex) if explain else None
    plan.target_hex = tgt.hex
    if explain:
        plan.steps.append(("HOTH-CARD-4", msg_n("Special attack of the card: {count} dice.",
                                                         "Special attack of the card: {count} dice.", "count",
                                                         count=sp.dice), {"dice": sp.dice}))
        plan.steps.append(("HOTH-LOS-1", msg("Line of sight is clear."), sight_ruling_values(plan.sight)))
    plan.dice = sp.dice
    return plan


def plan_attack(state: HothState, snap: Snapshot, u: UnitState, target_id: str,
                explain: bool = False) -> AttackPlan | RuleViolation:
    """HOTH-ATTACK-7 (d)-(e), HOTH-ATTACK-8, HOTH-RANGE-*, HOTH-LOS-*, HOTH-MOD-*.

    ``explain``: build the ruling steps, the full line of sight and the refusal texts (an attack being made);
    without it only the decision and the dice count (legal commands, bots).
    """
    tgt, is_struct = _target(state, target_id)
    if tgt is None:
        return _refused(explain, "HOTH-ATTACK-8",
                        lambda: msg("There is no enemy unit or standing structure '{target}'.", target=target_id))
    if is_struct:
        sc = state.scenario
        assert sc is not None
        sdef = next((s for s in sc.structures if s.id == target_id), None)
        if sdef is None or not sdef.attackable:
            return _refused(explain, "HOTH-STRUCT-4", lambda: msg("The scenario does not allow attacks on {target}.", target=target_id))
        if sdef.owner == u.faction:
            return _refused(explain, "HOTH-ATTACK-8",
                            lambda: msg("{target} is a structure of your own side ({side}); only enemy units and "
                                        "structures can be attacked.", target=target_id, side=side(u.faction)),
                            structure=target_id, owner=sdef.owner)
    elif tgt.faction == u.faction:
        return _refused(explain, "HOTH-ATTACK-8", lambda: msg("Friendly units can never be attacked."))
    s = UNIT_SPECS[u.unit]
    # HOTH-RANGE-3: range is the hex distance; HOTH-ATTACK-4: one target per attack; HOTH-ATTACK-6: d=1 is
    # close combat; HOTH-ATTACK-5 / HOTH-FORCE-4: losses never reduce the dice (figures are not read here).
    d = board.distance(u.hex, tgt.hex)
    if d > len(s.attack):
        return _refused(explain, "HOTH-RANGE-1",
                        lambda: msg_n("{target} is {count} hexes away; {name} reach at most {most}.",
                                              "{target} is {count} hexes away; {name} reach at most {most}.", "count",
                                              target=target_id, count=d, name=s.name, most=len(s.attack)))
    if not snap.clear(u.hex, tgt.hex):
        return _refused(explain, "HOTH-LOS-1",
                        lambda: msg("{unit} cannot see {target}: line of sight is blocked by {hexes}.", unit=u.id,
                                    target=target_id,
                                    hexes=[hex_text(h) for h in snap.sight(u.hex, tgt.hex).blocked_by]))
    plan = AttackPlan()
    plan.attacker, plan.target, plan.structure, plan.distance = u.id, target_id, is_struct, d
    plan.sight = snap.sight(u.hex, tgt.hex) if explain else None
    plan.target_hex = tgt.hex
    base = s.attack[d - 1]
    n = base
    if explain:
        plan.steps.append(("HOTH-RANGE-2", msg_n("{name} roll {count} dice at distance {distance}.",
                                                 "{name} roll {count} dice at distance {distance}.", "count",
                                                 name=s.name, count=base, distance=d),
                           {"distance": d, "base_dice": base, "row": list(s.attack)}))
        plan.steps.append(("HOTH-LOS-1", msg("Line of sight is clear."), sight_ruling_values(plan.sight)))
    # protection of the target's hex (HOTH-MOD-2, -4, -5)
    t_terrain = snap.terrain.get(tgt.hex)
    a_on_ridge = snap.terrain.get(u.hex) == RIDGE
    if not is_struct and not UNIT_SPECS[tgt.unit].terrain_protection:
        if t_terrain and explain:
            plan.steps.append(("HOTH-MOD-4", msg("An AT-AT never benefits from terrain protection."), {"terrain": t_terrain}))
            plan.steps.append(("HOTH-UNIT-ATAT-6", msg("AT-ATs never benefit from terrain protection."), {}))
    else:
        tgt_inf = (not is_struct) and UNIT_SPECS[tgt.unit].kind == "infantry"
        if tgt_inf and t_terrain is None and in_trench(state, snap, tgt):
            t_terrain = "trench"  # a card treats it as in a trench
        minus, rule = protection(t_terrain, s.kind, a_on_ridge, tgt_inf, is_struct)
        if rule is not None:
            n -= minus
            if explain:
                plan.steps.append((rule, msg("Target on {terrain}: -{count} dice.", terrain=terrain_word(t_terrain), count=minus),
                                   {"terrain": t_terrain, "dice": -minus, "attacker_type": s.kind}))
                if is_struct:
                    plan.steps.append(("HOTH-MOD-5", msg("A structure takes the protection of its hex."), {}))
    minus, rule = attack_penalty(snap.terrain.get(u.hex), s.kind)
    if rule is not None:
        n -= minus
        if explain:
            plan.steps.append((rule, msg("A vehicle attacking from buildings/debris: -{count} dice.", count=minus),
                               {"dice": -minus}))
    # bonuses (HOTH-MOD-6)
    t = state.turn
    assert t is not None
    for e in bonus_effects(state, u.id):
        if isinstance(e, ExtraDice):
            if e.same_target:
                focus = focus_target(state, u.id)
                if focus is None:
                    if explain:
                        plan.steps.append(("HOTH-CARD-7", msg("Focus Fire: {target} becomes the focus target; its partner gets the "
                                               "bonus only against it (FOCUS_FIRE_PARTNER_BOUND, INFERRED).",
                                               target=target_id),
                                           {"focus_target": target_id, "inferred": "FOCUS_FIRE_PARTNER_BOUND"}))
                elif focus != target_id:
                    if FOCUS_FIRE_PARTNER_BOUND:
                        return _refused(explain, "HOTH-CARD-7",
                                        lambda: msg("Focus Fire: {unit} may only attack the focus target {target} "
                                                    "(FOCUS_FIRE_PARTNER_BOUND, INFERRED).", unit=u.id, target=focus),
                                        focus_target=focus)
                    continue
                elif explain:
                    plan.steps.append(("HOTH-CARD-7", msg("Focus Fire: both ordered units attack {target}.", target=target_id),
                                       {"focus_target": target_id}))
            n += e.dice
            if explain:
                plan.steps.append(("HOTH-CARD-7", msg("Card bonus: +{count} dice.", count=e.dice),
                                   {"dice": e.dice, "card": t.effects_card}))
    if not is_struct:
        scout = scout_bonus(state, snap, u, tgt)
        if scout is not None:
            n += 1
            if explain:
                plan.steps.append(("HOTH-SPECIAL-SCOUT-1", msg("Scouts {unit} on a ridge see the target: +1 die (never more than +1, "
                                       "HOTH-GAP-19).", unit=scout), {"scouts": scout, "dice": 1}))
                plan.steps.append(("HOTH-TERRAIN-RIDGE-6", msg("Scouts on a ridge grant their bonus."), {"scouts": scout}))
    plan.dice = n  # HOTH-MOD-7 / HOTH-GAP-35: base + bonuses - protection - penalties, summed
    if n <= 0:
        return _refused(explain, "HOTH-MOD-7", lambda: msg_n("After modifiers {count} dice are left; an attack needs at least 1.", "After modifiers {count} dice are left; an attack needs at least 1.", "count", count=n))
    return plan


def focus_target(state: HothState, unit_id: str) -> str | None:
    """Content 5.1 Focus Fire: the standing target already attacked by a bonus unit of the card (or this one)."""
    t = state.turn
    assert t is not None
    for o in t.ordered:
        if not o.bonus:
            continue
        tid = t.targets.get(o.unit)
        if tid is None:
            continue
        if tid in state.units or (tid in state.structures and not state.structures[tid].destroyed):
            return tid
    return None


def scout_bonus(state: HothState, snap: Snapshot, u: UnitState, tgt: UnitState) -> str | None:
    """HOTH-SPECIAL-SCOUT-1/2: +1 die when another friendly Scouts unit on a ridge sees the target."""
    for o in state.units.values():
        if o.faction != u.faction or o.id == u.id or o.badge != "scouts":
            continue
        if snap.terrain.get(o.hex) != RIDGE:
            continue
        if snap.clear(o.hex, tgt.hex):
            return o.id
    return None


def conversions(state: HothState, unit_id: str) -> tuple[ConvertResult, ...]:
    return tuple(e for e in bonus_effects(state, unit_id) if isinstance(e, ConvertResult))


def convert(faces: tuple[str, ...], conv: tuple[ConvertResult, ...], confirmation: bool = False) -> tuple[str, ...]:
    """HOTH-CARD-7: die results that count as another result."""
    out = list(faces)
    for c in conv:
        if confirmation and not c.in_confirmation:
            continue
        out = [c.to_symbol if f == c.from_symbol else f for f in out]
    return tuple(out)


def reroll_kind(state: HothState, u: UnitState) -> str | None:
    """HOTH-SPECIAL-EWEB-6 (E-Web set: any dice, or all of them under HOTH-CHOICE-EWEB "all") and card
    re-rolls; None if no re-roll. The widest wins: any > all > miss."""
    kinds: list[str] = []
    if u.badge == "eweb" and u.eweb_set:
        kinds.append(choice(state, EWEB))
    for e in bonus_effects(state, u.id):
        if isinstance(e, Reroll):
            kinds.append(e.which)
    if not kinds:
        return None
    return next(k for k in ("any", "all", "miss") if k in kinds)


def structure_symbols(state: HothState, attacker_id: str, base: tuple[str, ...]) -> tuple[str, ...]:
    extra: list[str] = []
    for e in bonus_effects(state, attacker_id):
        if isinstance(e, StructureHitSymbols):
            extra.extend(e.symbols)
    return tuple(dict.fromkeys(base + tuple(extra)))


def count_hits(faces: tuple[str, ...], hit_by: tuple[str, ...]) -> dict[str, int]:
    """HOTH-HIT-2: hits by symbol."""
    out: dict[str, int] = {}
    for f in faces:
        if f in hit_by:
            out[f] = out.get(f, 0) + 1
    return out


def add_plan_steps(rb: RulingBuilder, plan: AttackPlan) -> None:
    for rule, text, values in plan.steps:
        rb.add(rule, text, **values)
