"""Semantic checks of Battle of Hoth content: what a schema cannot say.

Each check appends a :class:`~scenarios.loader.Problem` naming the file, the
field and a sentence that cites the rule it enforces; nothing stops at the
first problem. The unit facts below are SOURCE (battle-of-hoth.md 1.2, 8).

Over 500 lines on purpose: every consistency check of the Hoth content (cards, units, scenarios,
campaigns) runs over the same loaded catalog and reports into one list.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from domain.hoth import board
from domain.hoth.campaign.graph import LEADERS, AddLeader, AddUnit, Campaign, DrawSupport, RemoveUnit
from domain.hoth.campaign.variants import variants
from domain.hoth.cards import Card, Order
from domain.hoth.scenario import (
    FACTIONS, HexesOccupied, PermanentMedal, Scenario, StructuresDestroyed, SuddenDeath, TemporaryMedal,
    UnitsEliminated,
)
from scenarios.hoth.content_set import Catalog
from scenarios.loader import Problem

#: Faction and class of each unit type (HOTH-FORCE-1, HOTH-GLOSS-3).
UNIT_FACTION: dict[str, str] = {
    "snowtroopers": "imperial", "at_at": "imperial", "probe_droids": "imperial",
    "echo_troopers": "rebel", "snowspeeders": "rebel", "rebel_artillery": "rebel",
}
UNIT_CLASS: dict[str, str] = {
    "snowtroopers": "infantry", "at_at": "vehicle", "probe_droids": "special",
    "echo_troopers": "infantry", "snowspeeders": "vehicle", "rebel_artillery": "special",
}
#: Figures per unit (HOTH-FORCE-1) and per elite squadron (HOTH-FORCE-2).
FIGURES: dict[str, int] = {"snowtroopers": 4, "at_at": 1, "probe_droids": 2,
                           "echo_troopers": 3, "snowspeeders": 3, "rebel_artillery": 1}
ELITE_SQUADRON_FIGURES = 4
#: Figures in the box (HOTH-COMP-4, HOTH-COMP-5): a scenario never goes over them (HOTH-FORCE-3).
BOX_FIGURES: dict[str, int] = {"snowtroopers": 32, "at_at": 3, "probe_droids": 4,
                               "echo_troopers": 24, "snowspeeders": 9, "rebel_artillery": 2}
#: Which unit types may carry each badge (HOTH-SPECIAL-3).
BADGE_UNITS: dict[str, tuple[str, ...]] = {
    "elite_squadron": ("snowspeeders",),
    "assault": ("snowtroopers", "echo_troopers"),
    "eweb": ("snowtroopers", "echo_troopers"),
    "scouts": ("snowtroopers", "echo_troopers"),
    "elite_troops": ("snowtroopers", "echo_troopers"),
}
#: Terrain no unit may stand on, and the unit types excepted (HOTH-MOVE-8).
IMPASSABLE: dict[str, tuple[str, ...]] = {"serac": (), "crevasse": ("snowspeeders",)}
#: Terrain a unit type may never enter (HOTH-UNIT-ATAT-2).
FORBIDDEN_TERRAIN: dict[str, tuple[str, ...]] = {"at_at": ("ridge",)}
#: Terrain a structure piece cannot stand on: impassable tiles, which are pieces of their own
#: (a structure takes the protection of the terrain it stands on, HOTH-STRUCT-4, HOTH-GAP-37;
#: seracs and crevasses give none, and a piece cannot stand on a chasm or an ice pinnacle).
NO_STRUCTURE_ON: tuple[str, ...] = ("serac", "crevasse")
#: Deck sizes (HOTH-COMP-7, HOTH-LEADER-1, HOTH-COMP-10).
STANDARD_CARDS_PER_FACTION = 16
CARDS_PER_LEADER = 3
SUPPORT_CARDS_TOTAL = 10
#: Card id prefixes by faction and kind (DESIGN 8: ids are faction-prefixed); "PROP-" may precede them.
COMMAND_PREFIX = {"imperial": "EMP-", "rebel": "REB-"}
SUPPORT_PREFIX = {"imperial": "SUP-EMP-", "rebel": "SUP-REB-"}
PROPOSED_PREFIX = "PROP-"


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


class _Out:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, file: str, field: str, message: str) -> None:
        self.problems.append(Problem(file=file, field=field, message=message))

    def hex(self, file: str, field: str, h: Any) -> bool:
        try:
            board.parse_hex(list(h), field)
        except ValueError as exc:
            self.add(file, field, f"{exc}.")
            return False
        return True


def _proposed_id_status(out: _Out, file: str, field: str, id_: str, status: str) -> None:
    if id_.startswith(PROPOSED_PREFIX) and status != "proposed":
        out.add(file, f"{field}status", f"`{id_}` starts with PROP- (a stand-in), so its status must be "
                                        f"\"proposed\", not \"{status}\".")


# -- scenarios --------------------------------------------------------------------------------

def check_scenario(out: _Out, file: str, s: Scenario, provenance: dict[str, str]) -> None:
    if not (s.id.startswith("SCN-") or s.id.startswith("PROP-SCN-")):
        out.add(file, "id", f"`{s.id}` is not a scenario id: scenario ids are SCN-<NAME> (from the sources) "
                            f"or PROP-SCN-<NAME> (proposed stand-ins).")
    _proposed_id_status(out, file, "", s.id, s.status)
    if s.status == "proposed" and not s.id.startswith(PROPOSED_PREFIX):
        out.add(file, "id", f"a proposed scenario's id starts with PROP- (got `{s.id}`).")
    if "layout" in provenance and provenance["layout"] != s.layout_status:
        out.add(file, "provenance.layout", f"says \"{provenance['layout']}\" but layout_status is "
                                           f"\"{s.layout_status}\"; make them agree.")
    if not s.title.strip():
        out.add(file, "title", "a scenario needs a title players can read.")

    terrain: dict[tuple[int, int], str] = {}
    for i, t in enumerate(s.terrain):
        f = f"terrain[{i}].hex"
        if not out.hex(file, f, t.hex):
            continue
        if t.hex in terrain:
            out.add(file, f, f"hex {list(t.hex)} already holds {terrain[t.hex]}; one terrain tile per hex "
                             f"(HOTH-GAP-37).")
        else:
            terrain[t.hex] = t.terrain

    structures: dict[tuple[int, int], str] = {}
    structure_ids: dict[str, Any] = {}
    for i, st in enumerate(s.structures):
        f = f"structures[{i}]"
        if st.id in structure_ids:
            out.add(file, f"{f}.id", f"structure id `{st.id}` is used twice in this scenario.")
        structure_ids[st.id] = st
        if not out.hex(file, f"{f}.hex", st.hex):
            continue
        if st.hex in structures:
            out.add(file, f"{f}.hex", f"hex {list(st.hex)} already holds structure {structures[st.hex]}.")
        structures.setdefault(st.hex, st.id)
        if terrain.get(st.hex) in NO_STRUCTURE_ON:
            out.add(file, f"{f}.hex", f"terrain on a structure: the {st.kind.replace('_', ' ')} stands on "
                                      f"{terrain[st.hex]} at {list(st.hex)}; a structure may stand on terrain "
                                      f"that protects it (HOTH-STRUCT-4) but not on "
                                      f"{' or '.join(NO_STRUCTURE_ON)}.")
        if st.medal_to is not None and st.medal_to == st.owner:
            out.add(file, f"{f}.medal_to", f"the medal for destroying {st.id} would go to its owner "
                                           f"{st.owner}, whose units may not attack it (HOTH-ATTACK-8).")
        for j, o in enumerate(s.objectives):
            cond = getattr(o, "condition", None)
            if isinstance(cond, StructuresDestroyed) and st.id in cond.structures and o.faction == st.owner:
                out.add(file, f"objectives[{j}].faction", f"{o.faction} owns {st.id}; destroying it cannot be "
                                                          f"its own sudden-death objective (HOTH-ATTACK-8).")
        if not st.destroyed_by and st.attackable:
            out.add(file, f"{f}.destroyed_by", "an attackable structure needs at least one die symbol that "
                                               "destroys it (HOTH-STRUCT-5).")

    units: dict[tuple[int, int], int] = {}
    unit_ids: set[str] = set()
    count: Counter[str] = Counter()
    figures: Counter[str] = Counter()
    for i, u in enumerate(s.units):
        f = f"units[{i}]"
        if UNIT_FACTION[u.unit] != u.faction:
            out.add(file, f"{f}.faction", f"{u.unit} are {UNIT_FACTION[u.unit]} units, not {u.faction} "
                                          f"(HOTH-FORCE-1).")
        if u.badge is not None and u.unit not in BADGE_UNITS[u.badge]:
            out.add(file, f"{f}.badge", f"the {u.badge} badge goes on {' or '.join(BADGE_UNITS[u.badge])} "
                                        f"only, not on {u.unit} (HOTH-SPECIAL-3).")
        if u.id is not None:
            if u.id in unit_ids:
                out.add(file, f"{f}.id", f"unit id `{u.id}` is used twice in this scenario.")
            unit_ids.add(u.id)
        count[u.unit] += 1
        figures[u.unit] += (ELITE_SQUADRON_FIGURES if u.badge == "elite_squadron" and u.unit == "snowspeeders"
                             else FIGURES[u.unit])
        if not out.hex(file, f"{f}.hex", u.hex):
            continue
        if u.hex in units:
            out.add(file, f"{f}.hex", f"two units on one hex: units[{units[u.hex]}] already stands on "
                                      f"{list(u.hex)} (HOTH-MOVE-6).")
        else:
            units[u.hex] = i
        if u.hex in structures:
            out.add(file, f"{f}.hex", f"{list(u.hex)} holds structure {structures[u.hex]}; no unit may stand "
                                      f"on a structure hex (HOTH-STRUCT-2).")
        ter = terrain.get(u.hex)
        if ter in IMPASSABLE and u.unit not in IMPASSABLE[ter]:
            out.add(file, f"{f}.hex", f"{u.unit} cannot stand on {ter} at {list(u.hex)}: it is impassable "
                                      f"to them (HOTH-MOVE-8).")
        if ter in FORBIDDEN_TERRAIN.get(u.unit, ()):
            out.add(file, f"{f}.hex", f"{u.unit} can never be on {ter} ({list(u.hex)}) (HOTH-UNIT-ATAT-2).")
    for unit, n in sorted(figures.items()):
        if n > BOX_FIGURES[unit]:
            out.add(file, "units", f"{count[unit]} {unit} units need {n} figures but the box holds "
                                   f"{BOX_FIGURES[unit]} (HOTH-FORCE-3).")
    for faction in FACTIONS:
        if not any(u.faction == faction for u in s.units):
            out.add(file, "units", f"the {faction} side has no units.")

    objective_ids: set[str] = set()
    sudden: set[str] = set()
    medal_sources: Counter[str] = Counter()
    for i, o in enumerate(s.objectives):
        f = f"objectives[{i}]"
        if o.id in objective_ids:
            out.add(file, f"{f}.id", f"objective id `{o.id}` is used twice in this scenario.")
        objective_ids.add(o.id)
        if isinstance(o, (TemporaryMedal, PermanentMedal)):
            medal_sources[o.faction] += 1
            if o.medals < 1:
                out.add(file, f"{f}.medals", "an objective is worth at least 1 medal (HOTH-OBJ-1).")
            if out.hex(file, f"{f}.hex", o.hex):
                if o.hex in structures:
                    out.add(file, f"{f}.hex", f"the medal hex {list(o.hex)} holds a structure, which no unit "
                                              f"can enter (HOTH-STRUCT-2).")
                ter = terrain.get(o.hex)
                if ter == "serac":
                    out.add(file, f"{f}.hex", f"the medal hex {list(o.hex)} is a serac, which no unit can "
                                              f"enter (HOTH-MOVE-8).")
        elif isinstance(o, SuddenDeath):
            sudden.add(o.faction)
            c = o.condition
            if isinstance(c, StructuresDestroyed):
                if not c.structures:
                    out.add(file, f"{f}.condition.structures", "name the structures to destroy "
                                                               "(HOTH-OBJ-SUDDEN-1).")
                for j, sid in enumerate(c.structures):
                    st = structure_ids.get(sid)
                    if st is None:
                        out.add(file, f"{f}.condition.structures[{j}]",
                                f"`{sid}` is not a structure of this scenario (structures: "
                                f"{', '.join(structure_ids) or 'none'}).")
                    elif not st.attackable:
                        out.add(file, f"{f}.condition.structures[{j}]",
                                f"`{sid}` is not attackable, so this condition can never be met (HOTH-STRUCT-4).")
            elif isinstance(c, HexesOccupied):
                if not c.hexes:
                    out.add(file, f"{f}.condition.hexes", "name the hexes to occupy (HOTH-OBJ-SUDDEN-1).")
                for j, h in enumerate(c.hexes):
                    if out.hex(file, f"{f}.condition.hexes[{j}]", h) and (h in structures or
                                                                          terrain.get(h) == "serac"):
                        out.add(file, f"{f}.condition.hexes[{j}]", f"no unit can enter {list(h)}, so this "
                                                                   f"condition can never be met.")
            elif isinstance(c, UnitsEliminated):
                for j, ut in enumerate(c.unit_types):
                    if UNIT_FACTION[ut] == o.faction:
                        out.add(file, f"{f}.condition.unit_types[{j}]",
                                f"{ut} are {o.faction} units; the condition counts the enemy's units.")
    for st in s.structures:
        if st.medal_to is not None:
            medal_sources[st.medal_to] += 1

    for faction in FACTIONS:
        side = s.side(faction)
        if side.victory_medals is None and faction not in sudden:
            out.add(file, f"{faction}.victory_medals",
                    f"a victory condition is missing: the {faction} side has neither a medal target nor a "
                    f"sudden-death objective, so it can never win (HOTH-WIN-1, HOTH-WIN-4).")
        if side.victory_medals is not None:
            if side.victory_medals < 1:
                out.add(file, f"{faction}.victory_medals", "a medal target is at least 1 (HOTH-WIN-1).")
            elif not side.elimination_medals and not medal_sources[faction] and not side.unit_medal_values:
                out.add(file, f"{faction}.victory_medals",
                        f"the {faction} side earns no medals (elimination_medals is false and no objective "
                        f"gives it any), so its medal target can never be reached (HOTH-ELIM-4).")
        if side.hand_size < 1:
            out.add(file, f"{faction}.hand_size", "the opening hand is at least 1 card (HOTH-SETUP-9).")
        for ut, n in side.unit_medal_values.items():
            if ut not in UNIT_FACTION:
                out.add(file, f"{faction}.unit_medal_values.{ut}", f"`{ut}` is not a unit type "
                                                                   f"({', '.join(UNIT_FACTION)}).")
            elif UNIT_FACTION[ut] == faction:
                out.add(file, f"{faction}.unit_medal_values.{ut}", f"{ut} are {faction}'s own units; the "
                                                                   f"values are for eliminating enemy units.")
            if n < 0:
                out.add(file, f"{faction}.unit_medal_values.{ut}", "a medal value cannot be negative.")
        for j, leader in enumerate(side.leaders):
            if leader not in LEADERS[faction]:
                out.add(file, f"{faction}.leaders[{j}]", f"`{leader}` is not {_a(faction)} leader "
                                                         f"({', '.join(LEADERS[faction])}; HOTH-LEADER-1).")


# -- cards -------------------------------------------------------------------------------------

def check_card(out: _Out, file: str, field: str, c: Card) -> None:
    f = f"{field}."
    base = c.id[len(PROPOSED_PREFIX):] if c.id.startswith(PROPOSED_PREFIX) else c.id
    want = SUPPORT_PREFIX[c.faction] if c.kind == "support" else COMMAND_PREFIX[c.faction]
    if not base.startswith(want):
        out.add(file, f"{f}id", f"card id `{c.id}` is not faction-prefixed: {_a(c.faction)} {c.kind} card's id "
                                f"starts with {want} (or PROP-{want} for a stand-in).")
    _proposed_id_status(out, file, f, c.id, c.status)
    if not c.text.strip():
        out.add(file, f"{f}text", "every card needs its player-facing text (in our own words).")
    if not c.effects:
        out.add(file, f"{f}effects", "a card needs at least one effect in the engine's vocabulary.")
    if c.copies < 1:
        out.add(file, f"{f}copies", "a card has at least 1 copy.")
    if c.kind == "leader":
        if c.leader is None:
            out.add(file, f"{f}leader", f"a leader card names its leader ({', '.join(LEADERS[c.faction])}).")
        elif c.leader not in LEADERS[c.faction]:
            out.add(file, f"{f}leader", f"`{c.leader}` is not {_a(c.faction)} leader "
                                        f"({', '.join(LEADERS[c.faction])}; HOTH-LEADER-1).")
        elif f"-{c.leader.upper()}-" not in c.id:
            out.add(file, f"{f}id", f"a leader card id names its leader: `{c.id}` should contain "
                                    f"-{c.leader.upper()}- (content 0.2).")
    elif c.leader is not None:
        out.add(file, f"{f}leader", f"only leader cards name a leader (this is a {c.kind} card).")
    if c.kind == "support":
        if c.timing is None:
            out.add(file, f"{f}timing", "a support card says when it may be played (content 3.1).")
        if any(isinstance(e, Order) for e in c.effects):
            out.add(file, f"{f}effects", "support cards are not command cards and order no units (content 3.1).")
    else:
        if c.timing is not None or c.conditions:
            out.add(file, f"{f}timing", "only support cards have a timing and play conditions.")
    for j, e in enumerate(c.effects):
        _unit_sides(out, file, f"{f}effects[{j}]", c.faction, e)
    for j, cond in enumerate(c.conditions):
        _unit_sides(out, file, f"{f}conditions[{j}]", c.faction, cond)
    for j, e in enumerate(c.effects):
        if isinstance(e, Order):
            if not e.groups:
                out.add(file, f"{f}effects[{j}].groups", "an order effect names at least one group of units.")
            for k, g in enumerate(e.groups):
                if g.count < 1:
                    out.add(file, f"{f}effects[{j}].groups[{k}].count", "a group orders at least 1 unit.")
                if g.same_section and len(g.sections) < 2:
                    out.add(file, f"{f}effects[{j}].groups[{k}].same_section",
                            "same_section chooses among two or more sections.")


def _unit_sides(out: _Out, file: str, field: str, faction: str, item: Any) -> None:
    """Own units are ordered, placed and counted; enemy units are targeted (HOTH-GLOSS-4)."""
    own: list[tuple[str, str]] = []
    enemy: list[tuple[str, str]] = []
    if isinstance(item, Order):
        own += [(f"groups[{k}].unit_types", ut) for k, g in enumerate(item.groups) for ut in g.unit_types]
    for name in ("unit",):  # place_unit, fewer_units
        ut = getattr(item, name, None)
        if isinstance(ut, str) and ut in UNIT_FACTION:
            own.append((name, ut))
    enemy += [("target_unit_types", ut) for ut in getattr(item, "target_unit_types", ())]
    for where, ut in own:
        if UNIT_FACTION[ut] != faction:
            out.add(file, f"{field}.{where}", f"{ut} are {UNIT_FACTION[ut]} units; {_a(faction)} card can only "
                                              f"order, place or count its own units (HOTH-GLOSS-4).")
    for where, ut in enemy:
        if UNIT_FACTION[ut] == faction:
            out.add(file, f"{field}.{where}", f"{ut} are {faction}'s own units; a card targets enemy units "
                                              f"(HOTH-ATTACK-8).")


def check_decks(out: _Out, root: str, cards: dict[str, tuple[str, Card]]) -> None:
    standard: Counter[str] = Counter()
    leaders: dict[str, list[str]] = defaultdict(list)
    support = 0
    for _id, (_file, c) in cards.items():
        if c.kind in ("section", "tactic"):
            standard[c.faction] += c.copies
        elif c.kind == "leader" and c.leader:
            leaders[c.leader].append(c.id)
        elif c.kind == "support":
            support += c.copies
    for faction in FACTIONS:
        if standard[faction] != STANDARD_CARDS_PER_FACTION:
            out.add(root, f"cards.{faction}", f"the {faction} standard deck has {standard[faction]} cards; it "
                                              f"has {STANDARD_CARDS_PER_FACTION} (HOTH-COMP-7, HOTH-SETUP-9).")
        for leader in LEADERS[faction]:
            if len(leaders[leader]) != CARDS_PER_LEADER:
                out.add(root, f"cards.{leader}", f"{leader} has {len(leaders[leader])} leader cards; every "
                                                 f"leader has {CARDS_PER_LEADER} (HOTH-LEADER-1).")
    if support != SUPPORT_CARDS_TOTAL:
        out.add(root, "cards.support", f"there are {support} support cards; the box holds "
                                       f"{SUPPORT_CARDS_TOTAL} (HOTH-COMP-10).")


# -- campaigns ---------------------------------------------------------------------------------

def check_campaign(out: _Out, file: str, c: Campaign, scenarios: dict[str, Scenario],
                   cards: dict[str, tuple[str, Card]]) -> None:
    if not c.id.startswith("CMP-"):
        out.add(file, "id", f"`{c.id}` is not a campaign id: campaign ids are CMP-<N>-<NAME>.")
    if c.start not in c.nodes:
        out.add(file, "start", f"the start node `{c.start}` is not among the nodes ({', '.join(c.nodes)}).")
    support_factions = {card.faction for _f, card in cards.values() if card.kind == "support"}
    secret_ids: set[str] = set()

    def effects(field: str, effs: Any, next_scenario: Scenario | None) -> None:
        for j, e in enumerate(effs):
            f = f"{field}[{j}]"
            if isinstance(e, AddLeader):
                if e.leader not in LEADERS[e.faction]:
                    out.add(file, f"{f}.leader", f"`{e.leader}` is not {_a(e.faction)} leader "
                                                 f"({', '.join(LEADERS[e.faction])}; HOTH-LEADER-1).")
            elif isinstance(e, DrawSupport):
                if e.count < 1:
                    out.add(file, f"{f}.count", "draw at least 1 support card.")
                if cards and e.faction not in support_factions:
                    out.add(file, f"{f}.faction", f"the {e.faction} side has no support cards to draw.")
            elif isinstance(e, (AddUnit, RemoveUnit)):
                if UNIT_FACTION[e.unit] != e.faction:
                    out.add(file, f"{f}.faction", f"{e.unit} are {UNIT_FACTION[e.unit]} units, not {e.faction} "
                                                  f"(HOTH-FORCE-1).")
                if not out.hex(file, f"{f}.hex", e.hex):
                    continue
                if next_scenario is None:
                    out.add(file, f, "a setup change needs a next battle to change.")
                    continue
                here = [u for u in next_scenario.units if u.hex == e.hex]
                if isinstance(e, RemoveUnit):
                    if not any(u.unit == e.unit and u.faction == e.faction for u in here):
                        out.add(file, f"{f}.hex", f"{next_scenario.id} has no {e.faction} {e.unit} at "
                                                  f"{list(e.hex)} to remove.")
                else:
                    if here:
                        out.add(file, f"{f}.hex", f"two units on one hex: {next_scenario.id} already has a unit "
                                                  f"at {list(e.hex)} (HOTH-MOVE-6).")
                    if any(s.hex == e.hex for s in next_scenario.structures):
                        out.add(file, f"{f}.hex", f"{list(e.hex)} holds a structure in {next_scenario.id} "
                                                  f"(HOTH-STRUCT-2).")
                    ter = next((t.terrain for t in next_scenario.terrain if t.hex == e.hex), None)
                    if (ter in IMPASSABLE and e.unit not in IMPASSABLE[ter]) or \
                            ter in FORBIDDEN_TERRAIN.get(e.unit, ()):
                        out.add(file, f"{f}.hex", f"{e.unit} cannot stand on {ter} at {list(e.hex)} "
                                                  f"(HOTH-MOVE-8).")
                    if e.badge is not None and e.unit not in BADGE_UNITS[e.badge]:
                        out.add(file, f"{f}.badge", f"the {e.badge} badge goes on "
                                                    f"{' or '.join(BADGE_UNITS[e.badge])} only (HOTH-SPECIAL-3).")

    for nid, node in c.nodes.items():
        nf = f"nodes.{nid}"
        scenario = scenarios.get(node.scenario)
        if scenario is None:
            out.add(file, f"{nf}.scenario", f"`{node.scenario}` is not a scenario of the catalog.")
        for faction in FACTIONS:
            if faction not in node.outcomes:
                out.add(file, f"{nf}.outcomes.{faction}", f"every battle can be won by either side: say what "
                                                          f"happens when the {faction} side wins (content 3.1).")
        for winner, o in node.outcomes.items():
            of = f"{nf}.outcomes.{winner}"
            nxt = None
            if o.next is None:
                if o.campaign_winner is None:
                    out.add(file, f"{of}.campaign_winner", "the campaign ends here (no next node), so name its "
                                                           "winner.")
            else:
                if o.next not in c.nodes:
                    out.add(file, f"{of}.next", f"`{o.next}` is not a node of this campaign.")
                else:
                    nxt = scenarios.get(c.nodes[o.next].scenario)
                if o.campaign_winner is not None:
                    out.add(file, f"{of}.campaign_winner", "the campaign goes on to another battle here, so it "
                                                           "has no winner yet.")
            effects(f"{of}.effects", o.effects, nxt)
        for k, so in enumerate(node.secret_objectives):
            sf = f"{nf}.secret_objectives[{k}]"
            if so.id in secret_ids:
                out.add(file, f"{sf}.id", f"secret objective id `{so.id}` is used twice.")
            secret_ids.add(so.id)
            cond = so.condition
            if hasattr(cond, "hex"):
                out.hex(file, f"{sf}.condition.hex", cond.hex)
            if hasattr(cond, "unit") and UNIT_FACTION[cond.unit] == so.faction:
                out.add(file, f"{sf}.condition.unit", f"{cond.unit} are {so.faction}'s own units; the condition "
                                                      f"counts enemy losses.")
            for j, e in enumerate(so.reward):
                if getattr(e, "faction", so.faction) != so.faction:
                    out.add(file, f"{sf}.reward[{j}].faction", "a secret objective rewards its own side.")
                if isinstance(e, (AddUnit, RemoveUnit)):
                    out.add(file, f"{sf}.reward[{j}]", "a secret objective's reward is immediate: a support card "
                                                       "or leader cards, not a setup change.")
            effects(f"{sf}.reward", [e for e in so.reward if not isinstance(e, (AddUnit, RemoveUnit))], None)

    # Every node reachable; the campaign always ends (no cycle).
    if c.start in c.nodes:
        seen: set[str] = set()
        stack = [c.start]
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            stack += [o.next for o in c.nodes[n].outcomes.values() if o.next in c.nodes]
        for n in c.nodes:
            if n not in seen:
                out.add(file, f"nodes.{n}", f"node `{n}` cannot be reached from the start node `{c.start}`.")
        state: dict[str, int] = {}

        def dfs(n: str) -> bool:
            state[n] = 1
            for o in c.nodes[n].outcomes.values():
                if o.next in c.nodes:
                    if state.get(o.next) == 1 or (state.get(o.next) is None and dfs(o.next)):
                        return True
            state[n] = 2
            return False

        if dfs(c.start):
            out.add(file, "nodes", "the campaign graph has a cycle, so a campaign might never end.")


# -- the whole catalog -------------------------------------------------------------------------

def check_catalog(root: str, decoded: dict[str, Any]) -> tuple[Catalog, list[Problem]]:
    out = _Out()
    scenarios: dict[str, Scenario] = {}
    provenance: dict[str, dict[str, str]] = {}
    sources: dict[str, str] = {}
    for file, s, prov in decoded.get("scenarios", []):
        if s.id in scenarios:
            out.add(file, "id", f"duplicate scenario id `{s.id}` (also in {sources[s.id]}).")
            continue
        check_scenario(out, file, s, prov)
        scenarios[s.id] = s
        provenance[s.id] = prov
        sources[s.id] = file
    cards: dict[str, tuple[str, Card]] = {}
    for file, field, c in decoded.get("cards", []):
        if c.id in cards:
            out.add(file, f"{field}.id", f"duplicate card id `{c.id}` (also in {cards[c.id][0]}); card ids are "
                                         f"unique across the ruleset (DESIGN 8).")
            continue
        check_card(out, file, field, c)
        cards[c.id] = (file, c)
        sources[c.id] = file
    if cards:
        check_decks(out, root, cards)
    campaigns: dict[str, Campaign] = {}
    for file, c in decoded.get("campaigns", []):
        if c.id in campaigns:
            out.add(file, "id", f"duplicate campaign id `{c.id}` (also in {sources[c.id]}).")
            continue
        before = len(out.problems)
        check_campaign(out, file, c, scenarios, cards)
        campaigns[c.id] = c
        sources[c.id] = file
        if len(out.problems) == before:
            # The changed setups the campaign leads to are scenarios of their own (checked like any other).
            for vid, v in variants(c, scenarios).items():
                check_scenario(out, file, v, {})
                scenarios[vid] = v
                sources[vid] = file
                provenance[vid] = {**provenance.get(vid.split("@", 1)[0], {}), "campaign_setup": c.status}
    catalog = Catalog(root=root, scenarios=scenarios, cards={k: v[1] for k, v in cards.items()},
                      campaigns=campaigns, provenance=provenance, sources=sources)
    return catalog, out.problems
