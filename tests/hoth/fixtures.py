"""Test content: "Take Down the Shield" (content 2.2) and the stand-in decks (content 5.1),
built here so the engine tests do not depend on the content files."""
from __future__ import annotations

from domain.hoth.board import from_col_row
from domain.hoth.cards import (
    ArrangeTop, Card, CardSet, ConvertResult, CopyOpponentCard, DiscardAndDraw, DrawThenDiscard, ExtraDice,
    IgnoreRetreat, MoveAllowance, MoveBonus, Order, OrderGroup, PlaceUnit, Reroll, SpecialAttack,
)
from domain.hoth.scenario import (
    Scenario, SideSetup, Structure, StructuresDestroyed, SuddenDeath, TerrainTile, UnitSetup,
)


def cr(c: int, r: int):
    return from_col_row(c, r)


def take_down_the_shield() -> Scenario:
    terrain = []
    for t, hexes in (("trench", [(1, 4), (2, 4), (4, 5), (7, 4), (8, 4)]), ("ridge", [(3, 5), (5, 5)]),
                     ("rocks", [(2, 2), (7, 2), (4, 3)]), ("crevasse", [(4, 2)])):
        terrain += [TerrainTile(hex=cr(*h), terrain=t) for h in hexes]
    units = [UnitSetup(hex=cr(*h), faction="rebel", unit=u) for h, u in (
        ((2, 4), "echo_troopers"), ((4, 5), "echo_troopers"), ((7, 4), "echo_troopers"),
        ((3, 5), "rebel_artillery"), ((3, 6), "snowspeeders"), ((6, 6), "snowspeeders"))]
    units += [UnitSetup(hex=cr(*h), faction="imperial", unit=u) for h, u in (
        ((1, 1), "at_at"), ((7, 1), "at_at"), ((1, 2), "snowtroopers"), ((3, 2), "snowtroopers"),
        ((5, 2), "snowtroopers"), ((8, 2), "snowtroopers"), ((5, 1), "snowtroopers"))]
    return Scenario(
        id="SCN-TAKE-DOWN-THE-SHIELD", title="Take Down the Shield", status="source", layout_status="proposed",
        south="imperial", first="imperial",
        imperial=SideSetup(hand_size=4, victory_medals=None, elimination_medals=False),
        rebel=SideSetup(hand_size=4, victory_medals=5),
        terrain=tuple(terrain),
        structures=(Structure(id="SG-1", kind="shield_generator", hex=cr(1, 5)),
                    Structure(id="SG-2", kind="shield_generator", hex=cr(7, 5))),
        units=tuple(units),
        objectives=(SuddenDeath(id="SUDDEN-DEATH-GENERATORS", faction="imperial",
                                condition=StructuresDestroyed(structures=("SG-1", "SG-2"))),),
        special_rules=("SUDDEN-DEATH-GENERATORS", "GENERATORS-ATTACKABLE", "NO-IMPERIAL-KILL-MEDALS"),
    )


def _sec(count, *sections, same=False):
    return Order(groups=(OrderGroup(count=count, sections=tuple(sections), same_section=same),))


def standard_deck(faction: str) -> list[Card]:
    p = "PROP-EMP-" if faction == "imperial" else "PROP-REB-"
    out = [
        Card(id=p + "PROBE-LEFT", faction=faction, kind="section", status="proposed", title="Probe Left",
             effects=(_sec(2, "left"),)),
        Card(id=p + "PROBE-CENTER", faction=faction, kind="section", status="proposed", title="Probe Centre",
             effects=(_sec(2, "centre"),)),
        Card(id=p + "PROBE-RIGHT", faction=faction, kind="section", status="proposed", title="Probe Right",
             effects=(_sec(2, "right"),)),
        Card(id=p + "ATTACK-LEFT", faction=faction, kind="section", status="proposed", title="Attack Left",
             effects=(_sec(3, "left"),)),
        Card(id=p + "ATTACK-CENTER", faction=faction, kind="section", status="proposed", title="Attack Centre",
             effects=(_sec(3, "centre"),)),
        Card(id=p + "ATTACK-RIGHT", faction=faction, kind="section", status="proposed", title="Attack Right",
             effects=(_sec(3, "right"),)),
        Card(id=p + "ASSAULT-CENTER", faction=faction, kind="section", status="proposed", title="Assault Centre",
             effects=(_sec(4, "centre"),)),
        Card(id=p + "RECON-IN-FORCE", faction=faction, kind="section", status="proposed", title="Recon in Force",
             effects=(Order(groups=(OrderGroup(count=1, sections=("left",)), OrderGroup(count=1, sections=("centre",)),
                                    OrderGroup(count=1, sections=("right",)))),)),
        Card(id=p + "PINCER", faction=faction, kind="section", status="proposed", title="Pincer Move",
             effects=(Order(groups=(OrderGroup(count=2, sections=("left",)),
                                    OrderGroup(count=2, sections=("right",)))),)),
        Card(id=p + "GENERAL-ADVANCE", faction=faction, kind="section", status="proposed", title="General Advance",
             effects=(Order(groups=(OrderGroup(count=2, sections=("left",)), OrderGroup(count=2, sections=("centre",)),
                                    OrderGroup(count=2, sections=("right",)))),)),
        Card(id=("EMP-BLITZ" if faction == "imperial" else "REB-BLITZ"), faction=faction, kind="tactic",
             status="proposed", title="Blitz",
             effects=(Order(groups=(OrderGroup(count=2, unit_classes=("vehicle",), fallback=True),)),
                      MoveBonus(extra=1, may_attack=True))),
        Card(id=p + "INFANTRY-ADVANCE", faction=faction, kind="tactic", status="proposed", title="Infantry Advance",
             effects=(Order(groups=(OrderGroup(count=3, unit_classes=("infantry",), fallback=True),)),
                      MoveAllowance(hexes=2, may_attack=True))),
        Card(id=p + "FOCUS-FIRE", faction=faction, kind="tactic", status="proposed", title="Focus Fire",
             effects=(Order(groups=(OrderGroup(count=2),)), ExtraDice(dice=1, same_target=True))),
        Card(id=p + "COUNTER-ATTACK", faction=faction, kind="tactic", status="proposed", title="Counter-Attack",
             effects=(CopyOpponentCard(),)),
        Card(id=("EMP-DEPLOY-THE-FLEET" if faction == "imperial" else "PROP-REB-REGROUP"), faction=faction,
             kind="tactic", status="proposed", title="Deploy the Fleet!" if faction == "imperial" else "Regroup",
             effects=(DiscardAndDraw(max_discard=3, extra=1),)),
        Card(id=p + "COMBINED-ARMS", faction=faction, kind="tactic", status="proposed", title="Combined Arms",
             effects=(Order(groups=(OrderGroup(count=1, unit_classes=("infantry",), fallback=True),
                                    OrderGroup(count=1, unit_classes=("vehicle",), fallback=True))),
                      ExtraDice(dice=1))),
    ]
    return out


def leader_cards() -> list[Card]:
    return [
        Card(id="EMP-VADER-POWER-OF-THE-FORCE", faction="imperial", kind="leader", leader="vader",
             title="Power of the Force", effects=(Order(groups=(OrderGroup(count=2),)),
                                                  ConvertResult(from_symbol="retreat", to_symbol="explosion"))),
        Card(id="REB-LEIA-PRINCESS-ORDERS", faction="rebel", kind="leader", leader="leia", title="Princess's Orders",
             effects=(Order(groups=(OrderGroup(count=2),)), ExtraDice(dice=1))),
        Card(id="PROP-REB-LUKE-TRUST-YOUR-INSTINCTS", faction="rebel", kind="leader", leader="luke",
             status="proposed", title="Trust Your Instincts",
             effects=(Order(groups=(OrderGroup(count=2),)), Reroll(which="any"))),
    ]


def _leader_test(cid, faction, title, *effects):
    # leader "test": never in a deck unless asked for; example() adds them to the game's cards
    return Card(id=cid, faction=faction, kind="leader", leader="test", status="proposed", title=title,
                effects=tuple(effects))


#: Content 5.2 stand-ins whose effects need their own tests.
EXTRA_CARDS = [
    _leader_test("PROP-REB-LEIA-HOLD-THE-LINE", "rebel", "Hold the Line",
                 Order(groups=(OrderGroup(count=3, unit_classes=("infantry",)),)), IgnoreRetreat(count=1)),
    _leader_test("PROP-REB-LEIA-EVACUATE", "rebel", "Evacuation", Order(groups=(OrderGroup(count=2),)),
                 MoveBonus(extra=2, may_attack=False, towards_baseline=True), DrawThenDiscard(draw=1, discard=1)),
    _leader_test("PROP-EMP-PIETT-ORBITAL-RECON", "imperial", "Orbital Recon", Order(groups=(OrderGroup(count=2),)),
                 ArrangeTop(count=3)),
    _leader_test("PROP-EMP-PIETT-REINFORCEMENTS", "imperial", "Reinforcements", Order(groups=(OrderGroup(count=1),)),
                 PlaceUnit(unit="snowtroopers")),
    _leader_test("PROP-REB-LUKE-TOW-CABLES", "rebel", "Tow Cables",
                 Order(groups=(OrderGroup(count=1, unit_types=("snowspeeders",)),)),
                 SpecialAttack(dice=3, target_unit_types=("at_at",), destroys_on=("explosion",), no_confirmation=True)),
]


class FixtureCatalog:
    """The catalog interface the engine uses (scenarios, cards, deck, leader_cards)."""

    def __init__(self, scenarios: list[Scenario] | None = None):
        scs = scenarios or [take_down_the_shield()]
        self.scenarios = {s.id: s for s in scs}
        cards = standard_deck("imperial") + standard_deck("rebel") + leader_cards() + EXTRA_CARDS
        self.cards = {c.id: c for c in cards}
        self.campaigns: dict = {}

    def deck(self, faction: str) -> CardSet:
        return CardSet(faction=faction, cards=tuple(c.id for c in self.cards.values()
                                                    if c.faction == faction and c.kind in ("section", "tactic")))

    def leader_cards(self, leader: str) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards.values() if c.leader == leader)


#: Test-only cards (never in a deck): order up to N units anywhere, no bonus.
ORDER_ANY = {
    f: Card(id=f"TEST-{'EMP' if f == 'imperial' else 'REB'}-ORDER-ANY", faction=f, kind="tactic", status="proposed",
            title="Order any (test)", effects=(Order(groups=(OrderGroup(count=6, bonus=False),)),))
    for f in ("imperial", "rebel")
}


def scenario(units, terrain=None, structures=(), objectives=(), south="rebel", first="rebel",
             imperial=None, rebel=None, sid="TEST-SCN") -> Scenario:
    """A small scenario for worked examples: units as (hex, faction, unit[, badge[, id]])."""
    us = []
    for u in units:
        h, f, t = u[0], u[1], u[2]
        badge = u[3] if len(u) > 3 else None
        uid = u[4] if len(u) > 4 else None
        us.append(UnitSetup(hex=h, faction=f, unit=t, badge=badge, id=uid))
    return Scenario(id=sid, title="Test", south=south, first=first,
                    imperial=imperial or SideSetup(hand_size=4, victory_medals=5),
                    rebel=rebel or SideSetup(hand_size=4, victory_medals=5),
                    terrain=tuple(TerrainTile(hex=h, terrain=t) for h, t in (terrain or {}).items()),
                    structures=tuple(structures), units=tuple(us), objectives=tuple(objectives))
