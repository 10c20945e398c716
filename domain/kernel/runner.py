"""A game run in memory, for any ruleset: the one pure game runner of tests, benchmarks and bots.

No store, no service: ``Game`` opens a game of a ruleset and applies commands through the kernel's
aggregate (:func:`domain.kernel.game.decide` and :func:`~domain.kernel.game.play`) exactly as the service
does (the draws of each step come from the game's seed and the counters of the draws before), and keeps
the emitted events and the records of its log. ``random_game`` plays one to its end
with commands drawn from ``legal_commands`` (and from ``command_templates`` where a ruleset has them).
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from msgspec.structs import replace
from typing import Any

from . import game as kernel_game
from .choices import declared, resolve
from .decider import FINISHED, Ruleset, Setup, Status
from .dice import Dice, commitment
from .envelope import Command, Emitted
from .header import START_WHEN_READY, GameCreated
from .undo import Undone


class Game:
    """A game driven in memory through the kernel's aggregate (:mod:`domain.kernel.game`): its state, the
    emitted events, the records of its log, and the dice counters."""

    def __init__(self, rs: Ruleset, scenario: str, seed: bytes = b"\x07" * 32, options: dict[str, Any] | None = None,
                 game_id: str = "g1", *, keep_states: bool = False, choices: dict[str, str] | None = None,
                 start: str | None = None):
        """``start``: None, a game without a header (the opening at once); ``"now"`` or ``"when_ready"``, a game
        whose event 1 is its ``game_created`` header, as the service writes it (``when_ready``: the opening
        waits for every seat's ``ready``)."""
        self.rs = rs
        opts = dict(options or {})
        self.setup = Setup(game_id=game_id, ruleset=rs.id, scenario=scenario, seats=tuple(rs.seats(scenario, opts)),
                           options=opts, choices=resolve(declared(rs), choices))
        self.seed = seed
        #: The folded game (the kernel's aggregate).
        self.game: kernel_game.Game = kernel_game.start(rs, self.setup)
        #: The log, decoded (what a store would hold).
        self.records: list[kernel_game.Record] = []
        self.events: list[Any] = []
        self.emitted: list[Emitted] = []
        #: With ``keep_states``: the state after each event (``states[i]``: after event ``i + 1``).
        self.states: list[Any] | None = [] if keep_states else None
        self.commands = 0
        opening: list[Emitted] = []
        if start is not None:
            opening.append(Emitted(event=GameCreated(
                game_id=game_id, ruleset=rs.id, scenario=scenario, options=opts, choices=self.setup.choices,
                seats=self.setup.seats, engine_version=rs.engine_version, seed_commitment=commitment(seed),
                start=start)))
        if start != START_WHEN_READY:
            opening += kernel_game.open_game(self.game, self.dice())
        self._apply(opening)

    @property
    def state(self) -> Any:
        return self.game.state

    @state.setter
    def state(self, value: Any) -> None:
        """Put the game in a made-up position (tests)."""
        self.game = replace(self.game, state=value)

    @property
    def counters(self) -> dict[str, int]:
        return self.game.counters

    def dice(self, *, dry: bool = False) -> Dice:
        return Dice(self.seed, self.setup.game_id, self.game.counters, mix=self.game.kernel.mix, dry=dry)

    def _apply(self, items: list[Emitted], actor: str | None = None) -> None:
        """Play ``items`` (made by ``actor``; None: by nobody, as the opening and the automaton's moves)."""
        before = self.game
        self.game, recs = kernel_game.play(before, items, actor, self.records)
        self.records += recs
        self.events += [r.event for r in recs]
        self.emitted += items
        if self.states is not None:
            if any(isinstance(r.event, Undone) for r in recs):
                self.states += [self.game.state] * len(recs)
            else:
                self.states += [st for _r, st in kernel_game.states(self.rs, self.setup, recs,
                                                                     (before.version, before.state))]

    def decide(self, seat: str, command: Command, *, dry: bool = False) -> list[Emitted]:
        """What ``command`` would emit now (the state is not changed)."""
        return kernel_game.decide(self.game, seat, command, self.dice(dry=dry), finer=True)

    def do(self, seat: str, command: Command) -> list[Emitted]:
        """``command`` of ``seat`` decided by the kernel (``ready``, ``undo`` and the answers to an undo
        request are the kernel's; a game command the ruleset's, and its own refusal where both refuse) and
        applied."""
        items = kernel_game.decide(self.game, seat, command, self.dice(), finer=True)
        self._apply(items, seat)
        self.commands += 1
        return items

    @property
    def status(self) -> Status:
        return self.game.status

    @property
    def over(self) -> bool:
        return self.status.status == FINISHED

    def to_act(self) -> str | None:
        st = self.status
        return st.to_act[0] if st.to_act else None

    def legal(self, seat: str) -> list[Command]:
        return self.rs.legal_commands(self.state, seat)

    def templates(self, seat: str) -> list[dict[str, Any]]:
        get = getattr(self.rs, "command_templates", None)
        return list(get(self.state, seat)) if callable(get) else []


def _sample_bound(rng: random.Random, bound: Any, example: Any) -> Any:
    """A value inside one bound of a template. Shapes: ``{"one_of"}``; ``{"min", "max"}``;
    ``{"subset_of", "max_items"}``; a point ``{"center", "max_distance"}`` (in a disc) or ``{"x", "y"}``
    (in a box), as ``[x, y]``; a vector ``{"max_length"}``. Any other shape keeps the example's value."""
    if not isinstance(bound, dict):
        return example
    if bound.get("one_of"):
        return rng.choice(list(bound["one_of"]))
    if isinstance(bound.get("subset_of"), list) and bound["subset_of"]:
        pool = list(bound["subset_of"])
        k = rng.randint(1, min(len(pool), int(bound.get("max_items") or len(pool))))
        return rng.sample(pool, k)
    if isinstance(bound.get("center"), (list, tuple)) and isinstance(bound.get("max_distance"), (int, float)):
        r = bound["max_distance"] * math.sqrt(rng.random())
        a = rng.uniform(0, 2 * math.pi)
        return [bound["center"][0] + r * math.cos(a), bound["center"][1] + r * math.sin(a)]
    if isinstance(bound.get("x"), dict) and isinstance(bound.get("y"), dict):
        ex = example if isinstance(example, (list, tuple)) and len(example) == 2 else (None, None)
        return [_sample_bound(rng, bound["x"], ex[0]), _sample_bound(rng, bound["y"], ex[1])]
    if isinstance(bound.get("max_length"), (int, float)):
        r = bound["max_length"] * math.sqrt(rng.random())
        a = rng.uniform(0, 2 * math.pi)
        return [r * math.cos(a), r * math.sin(a)]
    lo, hi = bound.get("min"), bound.get("max")
    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)):
        if isinstance(lo, int) and isinstance(hi, int) and isinstance(example, int):
            return rng.randint(lo, hi)
        return rng.uniform(lo, hi)
    return example


def sample_template(rng: random.Random, template: dict[str, Any]) -> dict[str, Any]:
    """A command (JSON builtins) inside a template's bounds; fields of an unknown bound shape keep the
    example's value. The ruleset accepts it or refuses it with a RuleViolation (kernel protocol)."""
    example = dict(template.get("example") or {})
    cmd = dict(example) | dict(template["command"])
    for name, bound in (template.get("bounds") or {}).items():
        cmd[name] = _sample_bound(rng, bound, example.get(name))
    return cmd


Chooser = Callable[[Game, str, list[Command], random.Random], Command]


def random_game(rs: Ruleset, scenario: str, seed: int, *, options: dict[str, Any] | None = None,
                max_commands: int = 2000, check: Callable[[Game, str, Command, list[Command]], None] | None = None,
                choose: Chooser | None = None, keep_states: bool = False,
                choices: dict[str, str] | None = None) -> Game:
    """Play ``scenario`` with random legal commands until it ends (or ``max_commands``)."""
    rng = random.Random(seed)
    g = Game(rs, scenario, seed=seed.to_bytes(32, "big"), options=options, game_id=f"r{seed}",
             keep_states=keep_states, choices=choices)
    while not g.over and g.commands < max_commands:
        seat = g.to_act()
        assert seat is not None, "an active game names the seat to act"
        cmds = rs.legal_commands(g.state, seat)
        assert cmds, f"no legal command for {seat} after {g.commands} commands"
        cmd = choose(g, seat, cmds, rng) if choose is not None else rng.choice(cmds)
        if check is not None:
            check(g, seat, cmd, cmds)
        Game.do(g, seat, cmd)
    return g


__all__ = ["Game", "random_game", "sample_template"]
