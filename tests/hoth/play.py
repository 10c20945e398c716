"""Helpers to run Battle of Hoth games in process (tests and ops/bench_hoth.py)."""
from __future__ import annotations

import random
from typing import Any

import msgspec

from domain.hoth.decider import HothRuleset
from domain.kernel import RuleViolation, runner


class Game(runner.Game):
    """A Battle of Hoth game folded in memory: the kernel's runner (:class:`domain.kernel.runner.Game`)."""


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
