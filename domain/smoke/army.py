"""Army building and the strategic rating (SMOKE-ARMY, SMOKE-SRAT, SMOKE-VIC-1, SMOKE-SETUP-3).

Pure checks over content; the content loader (``scenarios/smoke``) reports their findings as
problems naming the file and field, and the engine uses the same functions when a game opens.
"""
from __future__ import annotations

import math

from .content import ArmyList, Content, Faction, Preparation, Profile

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
    arty = sum(2 if u.has("heavy") else 1 for u in units if u.has("artillery"))
    r -= max(0, arty - army.points // SRAT_STEP)
    return r


def additional_commanders(army: ArmyList, preps: dict[str, Preparation]) -> int:
    return sum(1 for p in army.preparations if p in preps and preps[p].effect == "additional_commander")
