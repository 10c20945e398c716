"""Bot games in process: the kernel's aggregate (:class:`domain.kernel.runner.Game`), and each seat's input made
the way the REST API makes it (``view``, ``legal_commands``, the event log with other seats' private fields
redacted as ``service/views.py`` does). Used by the tests and by ``ops/bench_bots.py``; the service plays
bot turns through its own command path instead.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel import PUBLIC, Emitted, Ruleset, event_type_name, redact, to_payload
from domain.kernel.dice import new_seed
from domain.kernel.runner import Game

from .protocol import BotSeat, Decision, SeatInput
from .registry import decide


class Arena:
    """One game in memory, driven through the kernel's aggregate (:class:`domain.kernel.runner.Game`): the
    state, the log of emitted events, the dice counters."""

    def __init__(self, ruleset: Ruleset, scenario: str, game_id: str, seed: bytes | None = None,
                 options: dict[str, Any] | None = None):
        self.rs = ruleset
        self.game = Game(ruleset, scenario, seed or new_seed(), options, game_id)
        self.setup = self.game.setup
        self.seed = self.game.seed
        self._seen: dict[str, list[dict[str, Any]]] = {}

    @property
    def state(self) -> Any:
        return self.game.state

    @property
    def counters(self) -> dict[str, int]:
        return self.game.counters

    @property
    def log(self) -> list[tuple[int, str | None, Emitted]]:
        """(seq, actor, emitted) in log order."""
        return [(r.seq, r.actor, em) for r, em in zip(self.game.records, self.game.emitted)]

    @property
    def game_id(self) -> str:
        return self.setup.game_id

    @property
    def version(self) -> int:
        return self.game.game.version

    def to_act(self) -> str | None:
        return self.game.to_act()

    @property
    def finished(self) -> bool:
        return self.game.over

    def play(self, seat: str, command: dict[str, Any] | Any) -> list[Emitted]:
        """Apply a command (JSON builtins as posted, or a typed command) for ``seat``."""
        cmd = msgspec.convert(command, self.rs.command_type) if isinstance(command, dict) else command
        return self.game.do(seat, cmd)

    # -- what a seat receives (as the REST API makes it) ----------------------------------------
    def events_for(self, seat: str | None) -> list[dict[str, Any]]:
        """``GET /games/{id}/events`` as ``seat`` sees it while the game is on (service/views.event_view)."""
        key = seat or ""
        seen = self._seen.setdefault(key, [])
        g = self.game
        for r, em in zip(g.records[len(seen):], g.emitted[len(seen):]):
            seq, actor = r.seq, r.actor
            payload = to_payload(em.event)
            if not (em.visibility == PUBLIC or (seat is not None and em.visibility == seat)):
                payload = redact(em.event, payload)
            seen.append({"seq": seq, "type": event_type_name(em.event), "actor": actor, "payload": payload,
                         "undone": False})
        return list(seen)

    def seat_input(self, seat: str) -> SeatInput:
        return SeatInput(ruleset=self.rs.id, game_id=self.game_id, seat=seat, version=self.version,
                         view=self.rs.view(self.state, seat),
                         legal=[msgspec.to_builtins(c) for c in self.rs.legal_commands(self.state, seat)],
                         events=self.events_for(seat))


class MatchResult(msgspec.Struct, kw_only=True):
    game_id: str
    scenario: str
    winner: str | None
    turns: int
    decisions: int
    #: seat -> decision seconds, in order.
    times: dict[str, list[float]] = {}
    #: seat -> playouts per searched decision.
    playouts: dict[str, list[int]] = {}
    seconds: float = 0.0


def play_match(ruleset: Ruleset, scenario: str, seats: dict[str, BotSeat], game_id: str, seed: bytes | None = None,
               options: dict[str, Any] | None = None, max_turns: int = 200,
               on_input: Callable[[SeatInput], None] | None = None,
               on_decision: Callable[[SeatInput, Decision], None] | None = None,
               playouts: dict[str, int] | None = None) -> MatchResult:
    """Play a game between bots to its end (or ``max_turns``): every seat of the game must be in ``seats``.

    ``playouts``: per seat, a fixed number of playouts per decision instead of the level's budget (tests)."""
    t0 = time.perf_counter()
    a = Arena(ruleset, scenario, game_id, seed, options)
    times: dict[str, list[float]] = {s: [] for s in a.setup.seats}
    made: dict[str, list[int]] = {s: [] for s in a.setup.seats}
    n = 0
    while not a.finished and ruleset.status(a.state).turn <= max_turns:
        seat = a.to_act()
        assert seat is not None, "an active game always has a seat to act"
        inp = a.seat_input(seat)
        if on_input is not None:
            on_input(inp)
        d = decide(seats[seat], inp, playouts=(playouts or {}).get(seat))
        if on_decision is not None:
            on_decision(inp, d)
        times[seat].append(d.seconds)
        if d.playouts:
            made[seat].append(d.playouts)
        a.play(seat, d.command)
        n += 1
    st = ruleset.status(a.state)
    return MatchResult(game_id=game_id, scenario=scenario, winner=st.winner, turns=st.turn, decisions=n,
                       times=times, playouts=made, seconds=time.perf_counter() - t0)
