"""Helpers to run Battle of Hoth games in process (tests and ops/bench_hoth.py)."""
from __future__ import annotations

import random
from typing import Any

import msgspec

from domain.hoth.decider import HothRuleset
from domain.kernel import Dice, RuleViolation, Setup


class Game:
    """A game folded in memory: state, the emitted events, and the dice counters."""

    def __init__(self, rs: HothRuleset, scenario: str, seed: bytes = b"\x07" * 32, options: dict | None = None,
                 game_id: str = "g1"):
        self.rs = rs
        opts = options or {}
        self.setup = Setup(game_id=game_id, ruleset="hoth", scenario=scenario, seats=rs.seats(scenario, opts),
                           options=opts)
        self.seed = seed
        self.counters: dict[str, int] = {}
        self.state = rs.initial_state(self.setup)
        self.events: list[Any] = []
        self.emitted: list[Any] = []
        self._apply(rs.open(self.state, self.dice()))

    def dice(self) -> Dice:
        return Dice(self.seed, self.setup.game_id, self.counters)

    def _apply(self, items) -> None:
        for em in items:
            for r in em.rolls:
                self.counters[r.stream] = max(self.counters.get(r.stream, 0), r.index + 1)
            self.state = self.rs.evolve(self.state, em.event)
            self.events.append(em.event)
            self.emitted.append(em)

    def do(self, seat: str, command: Any) -> list[Any]:
        d = self.dice()
        items = self.rs.decide(self.state, seat, command, d)
        assert not d.untaken(), "every draw is attached to an event"
        self._apply(items)
        return items

    def to_act(self) -> str | None:
        st = self.rs.status(self.state)
        return st.to_act[0] if st.to_act else None


def random_game(rs: HothRuleset, scenario: str, seed: int, max_turns: int = 200, options: dict | None = None,
                check: Any = None) -> Game:
    rng = random.Random(seed)
    g = Game(rs, scenario, seed=seed.to_bytes(32, "big"), options=options, game_id=f"r{seed}")
    while g.state.winner is None and g.state.turn_no <= max_turns:
        seat = g.to_act()
        assert seat is not None
        cmds = rs.legal_commands(g.state, seat)
        assert cmds, f"no legal command for {seat} at turn {g.state.turn_no}"
        cmd = rng.choice(cmds)
        if check is not None:
            check(g, seat, cmd, cmds)
        g.do(seat, cmd)
    return g


def encode(obj: Any) -> bytes:
    return msgspec.json.encode(obj)


def events_of(items: list[Any], kind: type) -> list[Any]:
    """The emitted events of one event type."""
    return [e for e in items if isinstance(e.event, kind)]


def rule_ids(items: list[Any]) -> set[str]:
    """Every rule id cited by the rulings of ``items``."""
    return {r for e in items if e.ruling for r in e.ruling.rules()}


def violation(g: "Game", seat: str, cmd: Any) -> RuleViolation:
    """The RuleViolation ``cmd`` raises; fails the test when the command is accepted."""
    try:
        g.do(seat, cmd)
    except RuleViolation as exc:
        return exc
    raise AssertionError(f"{cmd!r} by {seat} was accepted; a refusal was expected")
