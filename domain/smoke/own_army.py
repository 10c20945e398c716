"""The players' own armies (SMOKE-ARMY-1..6): ``options.armies`` of ``POST /games`` maps a seat to the army
list its player built, for a battle that does not fix the armies (one whose players deploy by columns,
SMOKE-DEP-2..6; a battle that places its units fixes its armies, SMOKE-ARMY-6). Each list is checked by the
same rules the content loader applies to the shipped lists (``army.problems``); a refusal names the field
and the rule. A seat without a list of its own plays the battle's list for it.

Army lists are public: the units are deployed in the open and every seat's reserve is in the view, so
the lists recorded in the game's header (its options) reveal nothing a seat could not see.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import SetupError

from .army import PREPARATION_STEP, SKILLS, problems
from .content import ArmyList, Battle, Content, LineUp

#: the fields of an army list a player writes (the id and status are the umpire's)
FIELDS = ("name", "faction", "points", "commander", "units", "preparations")


def _refuse(seat: str, field: str, detail: str) -> SetupError:
    return SetupError(f"options.armies.{seat}{'.' + field if field else ''}", detail)


def parse(seat: str, raw: Any, content: Content) -> ArmyList:
    """One seat's list, or SetupError naming its field and the rule it breaks."""
    if not isinstance(raw, dict):
        raise _refuse(seat, "", "an army list is an object with name, faction, points, commander, units and "
                                "preparations (SMOKE-ARMY-1)")
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise _refuse(seat, unknown[0], f"unknown field (an army list has {', '.join(FIELDS)})")
    c = raw.get("commander")
    if c is None or isinstance(c, (list, tuple)):
        n = 0 if c is None else len(c)
        raise _refuse(seat, "commander", f"{n} commanders: every army includes exactly one commander, mediocre, "
                                         "competent or illustrious (SMOKE-ARMY-3)")
    try:
        army = msgspec.convert({"id": f"OWN-{seat.upper()}", "name": raw.get("name") or f"{seat}'s army",
                                **{k: v for k, v in raw.items() if k != "name"}}, ArmyList)
    except msgspec.ValidationError as e:
        where = str(e).rsplit("at `$.", 1)
        field = where[1].rstrip("`") if len(where) == 2 else ""
        raise _refuse(seat, field, f"{str(e).split(' - at ')[0]} (SMOKE-ARMY-1..5)") from None
    found = problems(army, content)
    if found:
        field, sentence = found[0]
        raise _refuse(seat, field, sentence)
    return army


def own_armies(options: dict[str, Any], battle: Battle, line_up: LineUp, content: Content) -> dict[str, ArmyList]:
    """seat -> its player's own army list (validated); empty when the options bring none."""
    if "armies" not in options:
        return {}
    raw = options["armies"]
    if not isinstance(raw, dict) or not raw:  # null too: leave the option out for the battle's own armies
        raise SetupError("options.armies", "an object mapping a seat to its army list (SMOKE-ARMY-1)")
    if battle.deployment != "columns":
        raise SetupError("options.armies", f"{battle.title} places its units, so it fixes the armies; army "
                                           "building is skipped (SMOKE-ARMY-6)")
    seats = [a.seat for a in line_up.armies]
    for s in raw:
        if s not in seats:
            raise SetupError(f"options.armies.{s}", f"not a seat of this line-up ({', '.join(seats)})")
    out = {s: parse(s, raw[s], content) for s in seats if s in raw}
    sizes = {a.points for a in out.values()} | {content.armies[a.army].points for a in line_up.armies if a.seat not in out}
    if len(sizes) > 1:
        s = next(iter(out))
        raise _refuse(s, "points", f"the players agree one army size; these lists are of {', '.join(map(str, sorted(sizes)))} "
                                   "points (SMOKE-ARMY-4)")
    return out


def catalogue(content: Content) -> dict[str, Any]:
    """What an army builder offers (the ``x-army-building`` of the options schema): each faction's units by
    class (SMOKE-ARMY-1/2), every unit's profile and cost, the commander's skills and costs (SMOKE-ARMY-3), the
    preparations and their limit (SMOKE-ARMY-5), and which battles let the players bring their armies."""
    used = {pid for f in content.factions.values() for pid in f.units}
    return {
        "factions": [{"id": f.id, "name": f.name, "units": dict(f.units)} for f in sorted(content.factions.values(), key=lambda f: f.id)],
        "profiles": {pid: {"name": p.name, "points": p.points, "speed": list(p.speed), "melee": p.melee,
                           "discipline": p.discipline, "morale": p.morale, "traits": list(p.traits),
                           "fire": [{"name": w.name, "range": w.range, "dice": w.dice} for w in p.fire]}
                     for pid, p in sorted(content.profiles.items()) if pid in used},
        "commanders": {k: {"level": v[0], "action_dice": v[1], "points": v[2]} for k, v in SKILLS.items()},
        "preparations": [{"id": p.id, "name": p.name, "points": p.points, "multiple": p.multiple}
                         for p in sorted(content.preparations.values(), key=lambda p: p.id)],
        "preparation_step": PREPARATION_STEP,
        "battles": sorted(b.id for b in content.battles.values() if b.deployment == "columns"),
    }


__all__ = ["FIELDS", "catalogue", "own_armies", "parse"]
