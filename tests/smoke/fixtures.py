"""Tables built for a test: units where the test wants them, on the shipped profiles and board."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import Dice, Setup
from domain.kernel.choices import resolve
from domain.smoke.choices import CHOICES
from domain.smoke.content import (
    ArmyEntry, ArmyList, Battle, CommanderAt, Content, EndCondition, LineUp, ArmySlot, Placed, Side, TerrainElement,
)
from domain.smoke.decider import SmokeRuleset
from domain.smoke.evolve import evolve
from domain.smoke.events import GameOpened
from domain.smoke.state import Army, Commander, SmokeState, Unit
from scenarios.smoke import shipped

SOUTH = Side(id="south", name="South", edge="south", zone=((0, 0), (30, 0), (30, 4), (0, 4)))
NORTH = Side(id="north", name="North", edge="north", zone=((0, 18), (30, 18), (30, 22), (0, 22)))


def table_state(units: list[tuple[Any, ...]], commanders: list[tuple[str, float, float]] = (), width: float = 30,
                height: float = 22, terrain: tuple[TerrainElement, ...] = (), profile: str = "line_infantry",
                options: dict | None = None, choices: dict | None = None) -> SmokeState:
    """A state with ``units`` = [(seat, Box) or (seat, profile, Box)] on a table; player-1 is south,
    player-2 north."""
    c = shipped()
    battle = Battle(id="T", title="test table", width=width, height=height, sides=(SOUTH, NORTH), terrain=terrain,
                    line_ups=())
    us = []
    n: dict[str, int] = {}
    for item in units:
        seat, prof, b = (item[0], profile, item[1]) if len(item) == 2 else item
        n[seat] = n.get(seat, 0) + 1
        p = c.profiles[prof]
        us.append(Unit(id=f"P{seat[-1]}-{n[seat]:02d}", seat=seat, profile=prof, x=b.cx, y=b.cy, facing=b.theta,
                       w=b.w if len(item) == 2 else p.width, d=b.d if len(item) == 2 else p.depth))
    cs = [Commander(id=f"P{s[-1]}-G{i}", seat=s, x=x, y=y) for i, (s, x, y) in enumerate(commanders)]
    armies = tuple(Army(seat=s, side="south" if s == "player-1" else "north", army="A", faction="FAC-KARL",
                        board="BOARD-TEST-1", morale=20, start_morale=20, level=4, skill="competent")
                   for s in ("player-1", "player-2"))
    st = SmokeState(game_id="t", battle_id="T", seats=("player-1", "player-2"), options=options or {},
                    choices=choices or {})
    ev = GameOpened(battle=battle, kinds=tuple(c.terrain_kinds.values()), profiles=tuple(c.profiles.values()),
                    boards=tuple(c.boards.values()), sides={"south": ("player-1",), "north": ("player-2",)},
                    armies=armies, units=tuple(us), commanders=tuple(cs))
    return evolve(st, ev)


def battle_content(units1: list[tuple[str, float, float, float]], units2: list[tuple[str, float, float, float]],
                   terrain: tuple[TerrainElement, ...] = (), commanders1=((15.0, 1.0),), commanders2=((15.0, 21.0),),
                   first_side: str | None = "south", skill: str = "competent", end_phase: int = 6,
                   width: float = 30, height: float = 22, kinds: dict | None = None) -> Content:
    """The shipped content plus a battle "T" with exactly these units ((profile, x, y, facing))."""
    c = shipped()

    def army(aid: str, units, fac: str) -> ArmyList:
        counts: dict[str, int] = {}
        for p, *_ in units:
            counts[p] = counts.get(p, 0) + 1
        return ArmyList(id=aid, name=aid, faction=fac, points=5000, commander=skill,
                        units=tuple(ArmyEntry(profile=p, count=k) for p, k in counts.items()),
                        preparations=("PREP-ADC",) * (len(commanders1 if aid == "A1" else commanders2) - 1))

    a1, a2 = army("A1", units1, "FAC-KARL"), army("A2", units2, "FAC-KARL")
    slot1 = ArmySlot(seat="player-1", side="south", army="A1", units=tuple(Placed(profile=p, x=x, y=y, facing=f)
                                                                              for p, x, y, f in units1),
                     commanders=tuple(CommanderAt(x=x, y=y) for x, y in commanders1))
    slot2 = ArmySlot(seat="player-2", side="north", army="A2", units=tuple(Placed(profile=p, x=x, y=y, facing=f)
                                                                              for p, x, y, f in units2),
                     commanders=tuple(CommanderAt(x=x, y=y) for x, y in commanders2))
    battle = Battle(id="T", title="test battle", width=width, height=height, sides=(SOUTH, NORTH), terrain=terrain,
                    line_ups=(LineUp(players=2, armies=(slot1, slot2)),), first_side=first_side,
                    end=EndCondition(phase=end_phase))
    fac = c.factions["FAC-KARL"]
    allp = {p: "core" for p in c.profiles}
    facs = dict(c.factions)
    facs["FAC-KARL"] = msgspec.structs.replace(fac, units=allp)
    return Content(profiles=c.profiles, boards=c.boards, factions=facs, preparations=c.preparations,
                   armies={**c.armies, "A1": a1, "A2": a2}, terrain_kinds=kinds or c.terrain_kinds,
                   battles={**c.battles, "T": battle})


class Scripted:
    """A game on a test battle whose dice are forced: ``faces`` are the d6 faces the next draws give."""

    def __init__(self, content: Content, options: dict | None = None, seed: bytes = b"\x01" * 32,
                 faces: list[int] | None = None, battle: str = "T", choices: dict | None = None):
        self.rs = SmokeRuleset(content)
        opts = options or {}
        self.setup = Setup(game_id="s1", ruleset="smoke", scenario=battle, seats=self.rs.seats(battle, opts),
                           options=opts, choices=resolve(CHOICES, choices))
        self.state = self.rs.initial_state(self.setup)
        self.seed = seed
        self.counters: dict[str, int] = {}
        self.events: list[Any] = []
        self.emitted: list[Any] = []
        self.faces: list[int] = list(faces or [])
        self._apply(self.rs.open(self.state, self.dice()))

    def dice(self) -> Dice:
        return ForcedDice(self.seed, "s1", self.counters, self.faces)

    def _apply(self, items) -> None:
        for em in items:
            for r in em.rolls:
                self.counters[r.stream] = max(self.counters.get(r.stream, 0), r.index + 1)
            self.state = self.rs.evolve(self.state, em.event)
            self.events.append(em.event)
            self.emitted.append(em)

    def do(self, seat: str, cmd: Any) -> list[Any]:
        if isinstance(cmd, dict):
            cmd = msgspec.convert(cmd, self.rs.command_type)
        d = self.dice()
        items = self.rs.decide(self.state, seat, cmd, d)
        assert not d.untaken()
        self._apply(items)
        return items

    def to_act(self) -> str | None:
        st = self.rs.status(self.state)
        return st.to_act[0] if st.to_act else None


class ForcedDice(Dice):
    """Dice whose d6 draws come from ``faces`` while it has some (then from the seed)."""

    def __init__(self, seed: bytes, game_id: str, counters: dict[str, int], faces: list[int]):
        super().__init__(seed, game_id, counters)
        self._faces = faces

    def value(self, sides: int, stream: str = "dice") -> int:
        if sides == 6 and self._faces:
            from domain.kernel.dice import Roll

            v = self._faces.pop(0) - 1
            i = self._next.get(stream, 0)
            self._next[stream] = i + 1
            roll = Roll(stream=stream, index=i, sides=sides, value=v)
            self._pending.append(roll)
            self.drawn.append(roll)
            return v
        return super().value(sides, stream)
