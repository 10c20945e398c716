"""Army building and the strategic rating (SMOKE-ARMY, SMOKE-SRAT, SMOKE-VIC-1, SMOKE-SETUP-3).

Pure checks over content; the content loader (``scenarios/smoke``) reports their findings as
problems naming the file and field, and the engine uses the same functions when a game opens.
"""
from __future__ import annotations

import math

from .content import ArmyList, Content, Faction, Preparation, Profile
from .geometry import EDGE_CONTACT_MIN

#: SMOKE-ARMY-3: skill -> (level, action dice, cost). Level = action dice is INFERRED (GAP-B-05).
SKILLS: dict[str, tuple[int, int, int]] = {
    "mediocre": (3, 3, 30),
    "competent": (4, 4, 70),
    "illustrious": (5, 5, 110),
}
#: SMOKE-ARMY-5: one preparation per started this many points.
PREPARATION_STEP = 200
#: SMOKE-SRAT-1: "per 100 points" (INFERRED: per full 100 points).
SRAT_STEP = 100


def level_of(skill: str) -> int:
    return SKILLS[skill][0]


def expanded(army: ArmyList) -> list[str]:
    return [e.profile for e in army.units for _ in range(e.count)]


def cost(army: ArmyList, profiles: dict[str, Profile], preps: dict[str, Preparation]) -> int:
    """SMOKE-ARMY-4 (INFERRED): units + commander + preparations."""
    units = sum(profiles[p].points for p in expanded(army) if p in profiles)
    return units + SKILLS[army.commander][2] + sum(preps[p].points for p in army.preparations if p in preps)


def preparation_slots(army: ArmyList, preps: dict[str, Preparation]) -> int:
    """SMOKE-ARMY-5: copies of a preparation that may be taken several times count as one."""
    seen = set()
    n = 0
    for p in army.preparations:
        if p in preps and preps[p].multiple:
            if p in seen:
                continue
            seen.add(p)
        n += 1
    return n


def problems(army: ArmyList, content: Content) -> list[tuple[str, str]]:
    """(field, sentence) for every army-building rule the list breaks."""
    out: list[tuple[str, str]] = []
    fac: Faction | None = content.factions.get(army.faction)
    if fac is None:
        return [("faction", f"unknown faction {army.faction!r} (known: {', '.join(sorted(content.factions))}).")]
    core = rare = 0
    for i, e in enumerate(army.units):
        if e.profile not in content.profiles:
            out.append((f"units[{i}].profile", f"unknown unit profile {e.profile!r}."))
            continue
        cls = fac.units.get(e.profile)
        if cls is None:
            out.append((f"units[{i}].profile", f"{e.profile!r} is not in the {fac.name} list (SMOKE-ARMY-1)."))
            continue
        if e.count < 1:
            out.append((f"units[{i}].count", "a count is at least 1."))
        core += e.count if cls == "core" else 0
        rare += e.count if cls == "rare" else 0
    if rare > core:
        out.append(("units", f"{rare} rare units but only {core} core units: rare units may not outnumber core units "
                             "(SMOKE-ARMY-2)."))
    for i, p in enumerate(army.preparations):
        if p not in content.preparations:
            out.append((f"preparations[{i}]", f"unknown preparation {p!r}."))
    dup = [p for p in set(army.preparations) if army.preparations.count(p) > 1
           and p in content.preparations and not content.preparations[p].multiple]
    for p in dup:
        out.append(("preparations", f"{p!r} may be taken only once (SMOKE-ARMY-5)."))
    limit = math.ceil(army.points / PREPARATION_STEP)
    n = preparation_slots(army, content.preparations)
    if n > limit:
        out.append(("preparations", f"{n} preparations for {army.points} points; the limit is {limit} (one per started "
                                    f"{PREPARATION_STEP} points, SMOKE-ARMY-5)."))
    total = cost(army, content.profiles, content.preparations)
    if total > army.points:
        out.append(("points", f"the army costs {total} points (units, commander, preparations), more than its "
                              f"{army.points} (SMOKE-ARMY-4)."))
    if not army.units:
        out.append(("units", "an army has units."))
    return out


def starting_morale(profiles: list[Profile]) -> int:
    """SMOKE-VIC-1: the sum of the units' Morale."""
    return sum(p.morale for p in profiles)


def strategic_rating(army: ArmyList, profiles: dict[str, Profile]) -> int:
    """SMOKE-SRAT-1."""
    units = [profiles[p] for p in expanded(army)]
    n = len(units)
    r = level_of(army.commander)
    if n and 3 * sum(1 for u in units if u.has("veterans")) >= n:
        r += 1
    if sum(1 for u in units if u.has("light")) >= army.points // SRAT_STEP:
        r += 1
    if n and 3 * sum(1 for u in units if u.has("cavalry")) >= n:
        r += 1
    if n and 3 * sum(1 for u in units if u.has("untrained")) >= n:
        r -= 1
    arty = sum(2 if u.has("heavy") else 1 for u in units if u.has("artillery"))  # SMOKE-SR-19
    r -= max(0, arty - army.points // SRAT_STEP)
    return r


def additional_commanders(army: ArmyList, preps: dict[str, Preparation]) -> int:
    return sum(1 for p in army.preparations if p in preps and preps[p].effect == "additional_commander")


#: SMOKE-UNIT-2: bases of one unit are joined along an edge this long at least (as a formation's
#: edge contact, SMOKE-GEO-5), and their bounding rectangle is the unit (within this tolerance).
BASE_TOLERANCE = 1e-6


def bases_problems(p: Profile) -> list[str]:
    """SMOKE-UNIT-2: a multi-base unit is one rigid body: two or more bases, not overlapping, each joined
    to the others along an edge, whose bounding rectangle is the profile's ``width`` x ``depth``
    (SMOKE-GEO-2). A sentence per problem."""
    bs = p.bases
    if not bs:
        return []
    out = []
    if len(bs) < 2:
        out.append("a multi-base unit has two or more bases (one base: leave `bases` out, SMOKE-UNIT-2).")
    if any(b.w <= 0 or b.d <= 0 for b in bs):
        out.append("every base has a positive width and depth.")
        return out
    tol = BASE_TOLERANCE
    x0, y0 = min(b.x for b in bs), min(b.y for b in bs)
    x1, y1 = max(b.x + b.w for b in bs), max(b.y + b.d for b in bs)
    if abs(x0) > tol or abs(y0) > tol or abs(x1 - p.width) > tol or abs(y1 - p.depth) > tol:
        out.append(f"the bases' bounding rectangle ({x1 - x0:g} x {y1 - y0:g} from ({x0:g}, {y0:g})) is the unit: "
                   f"{p.width:g} x {p.depth:g} from its front-left corner (SMOKE-UNIT-2, SMOKE-GEO-2).")

    def span(a0: float, a1: float, b0: float, b1: float) -> float:
        return min(a1, b1) - max(a0, b0)

    n = len(bs)
    joined: dict[int, set[int]] = {i: set() for i in range(n)}
    for i in range(n):
        a = bs[i]
        for j in range(i + 1, n):
            b = bs[j]
            if span(a.x, a.x + a.w, b.x, b.x + b.w) > tol and span(a.y, a.y + a.d, b.y, b.y + b.d) > tol:
                out.append(f"bases {i} and {j} overlap (SMOKE-UNIT-2).")
            side = (abs(a.x + a.w - b.x) <= tol or abs(b.x + b.w - a.x) <= tol) and \
                span(a.y, a.y + a.d, b.y, b.y + b.d) >= EDGE_CONTACT_MIN
            front = (abs(a.y + a.d - b.y) <= tol or abs(b.y + b.d - a.y) <= tol) and \
                span(a.x, a.x + a.w, b.x, b.x + b.w) >= EDGE_CONTACT_MIN
            if side or front:
                joined[i].add(j)
                joined[j].add(i)
    seen, todo = {0}, [0]
    while todo:
        for k in joined[todo.pop()]:
            if k not in seen:
                seen.add(k)
                todo.append(k)
    if len(seen) < n:
        out.append("the bases are one rigid body: each is joined to another along an edge (SMOKE-UNIT-2).")
    return out
