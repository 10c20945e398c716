"""Helpers to run Emperor games in process (tests and ops/bench_emperor.py)."""
from __future__ import annotations

import random
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.emperor.decider import EmperorRuleset
from domain.emperor.state import EMPEROR, HUMAN, EmperorState
from domain.kernel import RuleViolation, registry, runner

SETUPS = ("SETUP-WARDEN-VS-VESPER", "SETUP-VESPER-VS-WARDEN", "SETUP-AKHENA-VS-REBEL", "SETUP-REBEL-VS-AURA",
          "SETUP-AURA-VS-AKHENA")


def ruleset() -> EmperorRuleset:
    rs = registry.get("emperor")
    assert isinstance(rs, EmperorRuleset)
    return rs


class Game(runner.Game):
    """An Emperor game folded in memory: the kernel's runner (:class:`domain.kernel.runner.Game`); the
    human is the one seat that decides, so ``do`` and ``legal`` take it as the default."""

    def __init__(self, rs: EmperorRuleset, scenario: str, seed: bytes = b"\x07" * 32, game_id: str = "g1"):
        super().__init__(rs, scenario, seed, game_id=game_id)
        self.state: EmperorState

    def do(self, command: Any, seat: str = HUMAN) -> list[Any]:  # type: ignore[override]
        return super().do(seat, command)

    def legal(self, seat: str = HUMAN) -> list[Any]:
        return self.rs.legal_commands(self.state, seat)

    # -- arranging positions for rule tests -------------------------------------------------------
    def place(self, **cells: str | None) -> "Game":
        """Put warriors on cells (``warden="C2"``); None removes one (dead)."""
        ws = dict(self.state.warriors)
        for wid, cell in cells.items():
            ws[wid] = replace(ws[wid], cell=cell)
        self.state = replace(self.state, warriors=ws)
        return self

    def set(self, **changes: Any) -> "Game":
        self.state = replace(self.state, **changes)
        return self

    def exhaust(self, side: str, *cards: str) -> "Game":
        ex = dict(self.state.exhausted)
        ex[side] = tuple(cards)
        return self.set(exhausted=ex)

    def flip(self, *locs: str, by: str = HUMAN) -> "Game":
        f = dict(self.state.flipped)
        for lo in locs:
            f[lo] = by
        return self.set(flipped=f)

    def order(self, current: str | None, deck: tuple[str, ...] | None = None) -> "Game":
        """Make ``current`` the current order card and ``deck`` the deck (top first)."""
        ch: dict[str, Any] = {}
        if current is not None:
            ch["order_current"] = current
        if deck is not None:
            ch["order_deck"] = deck
        return self.set(**ch)

    def emperor_turn_state(self) -> "Game":
        """Make it the Emperor's turn (for calling the automaton's parts directly)."""
        from domain.emperor.state import TurnInfo

        return self.set(turn=TurnInfo(side=EMPEROR, number=self.state.turn_no + 1))


def random_game(rs: EmperorRuleset, scenario: str, seed: int, max_turns: int = 400, check: Any = None) -> Game:
    """Random legal commands of the human to the end (or ``max_turns``)."""
    rng = random.Random(seed)
    g = Game(rs, scenario, seed=seed.to_bytes(32, "big"), game_id=f"r{seed}")
    while g.state.winner is None and g.state.turn_no <= max_turns:
        cmds = g.legal()
        assert cmds, f"no legal command at turn {g.state.turn_no}"
        cmd = rng.choice(cmds)
        if check is not None:
            check(g, cmd, cmds)
        g.do(cmd)
    return g


def encode(obj: Any) -> bytes:
    return msgspec.json.encode(obj)


def events_of(items: list[Any], kind: type) -> list[Any]:
    return [e.event for e in items if isinstance(e.event, kind)]


def rule_ids(items: list[Any]) -> set[str]:
    return {r for e in items if e.ruling for r in e.ruling.rules()}


def violation(g: Game, cmd: Any) -> RuleViolation:
    try:
        g.do(cmd)
    except RuleViolation as exc:
        return exc
    raise AssertionError(f"{cmd!r} was accepted; a refusal was expected")
