"""``drill``: the smallest ruleset that exercises the whole command path.

Four seats (``a``..``d``) may all act at any time, so clients of one game race
for the same version (409s) -- the point of a drill. ``tick`` rolls ``events``
dice (1 to 3) and records each face in its own event: a multi-event command
whose events must be stored all or none. Rule ids (``DRILL-*``) are this
ruleset's own; it is not a game anybody plays.

Importing this module registers the ruleset (``UMPIRE_CLI_PLUGINS=tests.rulesets.drill``
makes every ``umpire`` process, and every worker, import it). The battery of every ruleset
(tests/harness) plays it; so do the fault drills (ops/drills) and some benchmarks (ops/).
"""
from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from domain.kernel import (
    ACTIVE,
    Choice,
    Command,
    Dice,
    Emitted,
    Event,
    RuleStep,
    RuleViolation,
    Ruling,
    Setup,
    SetupError,
    Status,
    registry,
)

SEATS = ("a", "b", "c", "d")
SCENARIO = "race"
#: Most events one ``tick`` may produce (DRILL-TICK-2).
MAX_EVENTS = 3


class Tick(Command, tag="tick"):
    events: int = 1


class Ticked(Event, tag="ticked"):
    seat: str
    face: int
    total: int


class DrillState(msgspec.Struct, frozen=True, kw_only=True):
    total: int = 0
    ticks: dict[str, int] = {}


class DrillRuleset:
    id: ClassVar[str] = "drill"
    engine_version: ClassVar[str] = "drill-1"
    command_type: ClassVar[Any] = Tick
    event_type: ClassVar[Any] = Ticked
    state_type: ClassVar[Any] = DrillState

    def scenarios(self) -> list[Choice]:
        return [Choice(id=SCENARIO, title="Fault drill: four seats racing")]

    def rules_reference(self) -> str:
        """The drill's rules reference (kernel protocol)."""
        return ("# Drill rules\n\n"
                "* **DRILL-TICK-1 (Tick).** The only command is tick: each of its events rolls a d6 and adds "
                "the face to the total.\n"
                f"* **DRILL-TICK-2 (Size).** A tick makes 1 to {MAX_EVENTS} events.\n")

    def campaigns(self) -> list[Choice]:
        return []

    def seats(self, scenario: str, options: dict[str, Any]) -> tuple[str, ...]:
        if scenario != SCENARIO:
            raise SetupError("scenario", f"unknown scenario {scenario!r}; known: {SCENARIO}")
        if options:
            raise SetupError("options", f"unknown option {sorted(options)[0]!r}")
        return SEATS

    def initial_state(self, setup: Setup) -> DrillState:
        return DrillState(ticks={s: 0 for s in setup.seats})

    def open(self, state: DrillState, dice: Dice) -> list[Emitted]:
        return []

    def decide(self, state: DrillState, seat: str, command: Command, dice: Dice) -> list[Emitted]:
        if not isinstance(command, Tick):  # pragma: no cover - the union has one member
            raise RuleViolation("DRILL-TICK-1", "the only command is tick")
        if not 1 <= command.events <= MAX_EVENTS:
            raise RuleViolation("DRILL-TICK-2", f"a tick makes 1 to {MAX_EVENTS} events", events=command.events)
        out: list[Emitted] = []
        total = state.total
        for _ in range(command.events):
            face = dice.value(6) + 1
            total += face
            out.append(Emitted(
                event=Ticked(seat=seat, face=face, total=total), rolls=dice.take(),
                ruling=Ruling(summary=f"{seat} rolls {face}",
                              steps=(RuleStep(rule="DRILL-TICK-1", text="add the face to the total",
                                              values={"face": face}),))))
        return out

    def evolve(self, state: DrillState, event: Event) -> DrillState:
        if isinstance(event, Ticked):
            ticks = dict(state.ticks)
            ticks[event.seat] = ticks.get(event.seat, 0) + 1
            return DrillState(total=event.total, ticks=ticks)
        return state

    def legal_commands(self, state: DrillState, seat: str) -> list[Command]:
        return [Tick(events=n) for n in range(1, MAX_EVENTS + 1)]

    def view(self, state: DrillState, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
        return {"total": state.total, "ticks": dict(state.ticks)}

    def status(self, state: DrillState) -> Status:
        return Status(status=ACTIVE, to_act=tuple(state.ticks) or SEATS, turn=1, turn_seat=None)

    def summary(self, event: Event) -> str:
        if isinstance(event, Ticked):
            return f"{event.seat} rolls {event.face} (total {event.total})"
        return type(event).__name__

    def render_svg(self, state: DrillState, seat: str | None, recent: list[Event]) -> str:
        return f'<svg xmlns="http://www.w3.org/2000/svg"><text x="4" y="16">{state.total}</text></svg>'


RULESET = DrillRuleset()
registry.register(RULESET)
