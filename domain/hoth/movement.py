"""Movement (section 5): allowances, paths, terrain stops."""
from __future__ import annotations

from domain.kernel import RuleViolation
from domain.kernel.messages import Message, msg, msg_n

from . import board
from .cards import MoveAllowance, MoveBonus
from .context import NEIGHBOURS, TOWARDS, Snapshot, bonus_effects, is_south, ordered_entry
from .scenario import Hex
from .state import HothState, UnitState
from .terms import hex_text
from .terms import terrain as terrain_word
from .terrain import STOP_TERRAIN, enter_refusal
from .units import ELITE_TROOPS_MOVE, UNIT_SPECS


class Allowance:
    __slots__ = ("max", "attack_max", "free_max", "towards_baseline", "may_attack", "rules")

    def __init__(self, max_: int, attack_max: int, free_max: int, towards_baseline: bool, may_attack: bool,
                 rules: tuple[str, ...]):
        self.max = max_
        self.attack_max = attack_max
        #: Steps beyond this must go towards the own baseline (card bonus).
        self.free_max = free_max
        self.towards_baseline = towards_baseline
        self.may_attack = may_attack
        self.rules = rules


def allowance(state: HothState, u: UnitState) -> Allowance:
    """HOTH-MOVE-3, HOTH-SPECIAL-ELITE-1, card move bonuses (HOTH-CARD-4)."""
    s = UNIT_SPECS[u.unit]
    mx, att = s.move_max, s.move_attack
    rules: list[str] = ["HOTH-MOVE-3", *s.rules[:1]]
    if u.badge == "elite_troops":
        mx, att = max(mx, ELITE_TROOPS_MOVE), max(att, ELITE_TROOPS_MOVE)
        rules.append("HOTH-SPECIAL-ELITE-1")
    free = mx
    towards = False
    may_attack = True
    if mx > 0:  # artillery never moves (HOTH-UNIT-ARTY-2)
        for e in bonus_effects(state, u.id):
            if isinstance(e, MoveAllowance):
                mx = max(mx, e.hexes)
                free = mx
                if e.may_attack:
                    att = max(att, e.hexes)
                rules.append("HOTH-CARD-4")
            elif isinstance(e, MoveBonus):
                if e.towards_baseline:
                    towards = True
                else:
                    free = mx + e.extra
                mx += e.extra
                if e.may_attack:
                    att += e.extra
                else:
                    may_attack = False
                rules.append("HOTH-CARD-4")
    return Allowance(mx, att, free, towards, may_attack, tuple(rules))


def _step_refusal(snap: Snapshot, u: UnitState, h: Hex) -> str | None:
    if h in snap.occ and snap.occ[h] != u.id:
        return "HOTH-MOVE-6"
    s = UNIT_SPECS[u.unit]
    return enter_refusal(snap.terrain.get(h), h in snap.structs, s.flying, s.cannot_enter)


# HOTH-MOVE-5: an ordered unit may leave its section; HOTH-MOVE-7: a unit moves as one body;
# HOTH-MOVE-11 / HOTH-UNIT-SPEEDER-4 / HOTH-GAP-28: extra movement never cancels terrain stops;
# HOTH-GAP-34: the steps actually taken are counted; HOTH-MOVE-13: retreats use retreat.py instead.
def move_refusal(state: HothState, snap: Snapshot, faction: str, unit_id: str, path: tuple[Hex, ...]) -> RuleViolation | None:
    u = state.units.get(unit_id)
    if u is None:
        return RuleViolation("HOTH-MOVE-1", msg("There is no unit '{unit}' on the battlefield.", unit=unit_id))
    if u.faction != faction:
        return RuleViolation("HOTH-GLOSS-4", msg("{unit} is an enemy unit.", unit=unit_id))
    if ordered_entry(state, unit_id) is None:
        return RuleViolation("HOTH-TURN-3", msg("{unit} was not ordered this turn, so it cannot move.", unit=unit_id))
    t = state.turn
    assert t is not None
    if unit_id in t.moved:
        return RuleViolation("HOTH-MOVE-2", msg("{unit} has already moved this turn.", unit=unit_id))
    al = allowance(state, u)
    if al.max == 0:
        return RuleViolation("HOTH-UNIT-ARTY-2", msg("{unit} cannot move.", unit=unit_id))
    if not path:
        return RuleViolation("HOTH-MOVE-4", msg("A move enters at least one hex (not moving needs no command)."))
    if len(path) > al.max:
        elite = u.badge == "elite_troops"
        return RuleViolation("HOTH-SPECIAL-ELITE-3" if elite else "HOTH-MOVE-3",
                             msg_n("{unit} may move at most {most} hex(es) (elite troops still move at most 2); "
                                   "this path has {count}.", "{unit} may move at most {most} hex(es) (elite troops "
                                   "still move at most 2); this path has {count}.", "most", unit=unit_id,
                                   most=al.max, count=len(path)) if elite else
                             msg_n("{unit} may move at most {most} hex(es); this path has {count}.",
                                   "{unit} may move at most {most} hex(es); this path has {count}.", "most",
                                   unit=unit_id, most=al.max, count=len(path)),
                             max=al.max, steps=len(path))
    south = is_south(state, u.faction)
    prev = u.hex
    # HOTH-MOVE-4: the steps actually taken are counted; a path may enter a hex again (the start hex included).
    for i, h in enumerate(path):
        h = tuple(h)  # type: ignore[assignment]
        if not board.is_playable(h):
            return RuleViolation("HOTH-MOVE-12", msg("{hex} is not a playable hex of the battlefield.", hex=str(list(h))), hex=list(h))
        if board.distance(prev, h) != 1:
            return RuleViolation("HOTH-MOVE-4", msg("Each step of a move goes to an adjacent hex; {hex} is not next "
                                                    "to {other}.", hex=hex_text(h), other=hex_text(prev)),
                                 hex=list(h), from_hex=list(prev))
        rule = _step_refusal(snap, u, h)
        if rule is not None:
            return RuleViolation(rule, _refusal_text(rule, h), hex=list(h))
        if i >= al.free_max and al.towards_baseline and h not in board.towards_baseline(prev, south):
            return RuleViolation("HOTH-CARD-4", msg("The extra hexes of this card must go towards your baseline."))
        if snap.terrain.get(h) in STOP_TERRAIN and i != len(path) - 1:
            return RuleViolation("HOTH-MOVE-9", msg("A unit entering {terrain} at {hex} must stop there.",
                                                    terrain=terrain_word(snap.terrain.get(h)), hex=hex_text(h)),
                                 hex=list(h), terrain=snap.terrain.get(h))
        prev = h
    return None


def _refusal_text(rule: str, h: Hex) -> Message:
    """Why hex ``h`` cannot be entered, by the rule that forbids it."""
    at = hex_text(h)
    if rule == "HOTH-MOVE-6":
        return msg("Hex {hex} holds another unit; units cannot enter or pass through it.", hex=at)
    if rule == "HOTH-STRUCT-2":
        return msg("Hex {hex} holds a structure, which is impassable.", hex=at)
    if rule == "HOTH-TERRAIN-SERAC-1":
        return msg("Hex {hex} is a serac, impassable to every unit.", hex=at)
    if rule == "HOTH-TERRAIN-CREVASSE-1":
        return msg("Hex {hex} is a crevasse, impassable except to flying units.", hex=at)
    if rule == "HOTH-TERRAIN-RIDGE-1":
        return msg("AT-ATs cannot enter the ridge at {hex}.", hex=at)
    return msg("Hex {hex} cannot be entered.", hex=at)


def move_paths(state: HothState, snap: Snapshot, u: UnitState) -> list[tuple[Hex, ...]]:
    """One shortest legal path to each hex an ordered, unmoved unit can end on (HOTH-MOVE-4..12).

    HOTH-MOVE-4: any path of adjacent steps is legal (``move_refusal`` accepts revisits too); listing one
    shortest path per destination keeps ``legal_commands`` small, and the shortest path is never worse (it
    counts fewest steps for HOTH-MOVE-3). The start hex is a destination too when a path can come back to it.
    """
    al = allowance(state, u)
    if al.max == 0:
        return []
    south = is_south(state, u.faction)
    s = UNIT_SPECS[u.unit]

    def ok(h: Hex) -> bool:
        if h == u.hex:
            return True
        if h in snap.occ or h in snap.structs:
            return False
        return enter_refusal(snap.terrain.get(h), False, s.flying, s.cannot_enter) is None

    best: dict[Hex, tuple[Hex, ...]] = {}
    layer: list[tuple[Hex, tuple[Hex, ...]]] = [(u.hex, ())]
    expanded = {u.hex}
    for i in range(al.max):  # breadth first: the first path found to a hex is a shortest one
        nxt: list[tuple[Hex, tuple[Hex, ...]]] = []
        for cur, path in layer:
            steps = TOWARDS[south][cur] if (i >= al.free_max and al.towards_baseline) else NEIGHBOURS[cur]
            for h in steps:
                if h in best or not ok(h):
                    continue
                p = path + (h,)
                best[h] = p
                if h not in expanded and snap.terrain.get(h) not in STOP_TERRAIN:  # HOTH-MOVE-9
                    expanded.add(h)
                    nxt.append((h, p))
        layer = nxt
    return list(best.values())


def can_move(state: HothState, snap: Snapshot, u: UnitState) -> bool:
    """Cheap test: does the unit have at least one legal step?"""
    al = allowance(state, u)
    if al.max == 0:
        return False
    s = UNIT_SPECS[u.unit]
    steps = TOWARDS[is_south(state, u.faction)][u.hex] if (al.free_max == 0 and al.towards_baseline) \
        else NEIGHBOURS[u.hex]
    for h in steps:
        if h in snap.occ or h in snap.structs:
            continue
        if enter_refusal(snap.terrain.get(h), False, s.flying, s.cannot_enter) is None:
            return True
    return False
