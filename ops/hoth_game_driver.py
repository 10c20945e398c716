"""A Battle of Hoth game driven by random legal commands through ``GameService``, the same game every run: the
driver the in-process benchmarks share (ops/bench_kernel_game.py, ops/bench_fair.py)."""
from __future__ import annotations

import random
from typing import Any

import msgspec

from domain.kernel import registry
import service.game_service as gs
from service.game_service import CommandRequest, CreateGameRequest, GameService

SCENARIO = "SCN-TAKE-DOWN-THE-SHIELD"


def new_game(svc: GameService, label: str, seed: int) -> tuple[str, dict[str, str]]:
    """(game id, seat tokens) of a new game with the id ``<label>-<seed>`` and the seed ``seed``: the dice
    depend on the id, so the same game every run."""
    keep = gs.new_game_id
    gs.new_game_id = lambda: f"{label}-{seed}"
    try:
        g = svc.create_game(CreateGameRequest(ruleset="hoth", scenario=SCENARIO, seed=f"{seed:064x}"))
    finally:
        gs.new_game_id = keep
    return g["game_id"], g["seats"]


def next_command(svc: GameService, gid: str, rng: random.Random) -> tuple[str, CommandRequest] | None:
    """(seat, request) of a random legal command of a seat to act, or None once the game is finished."""
    hoth: Any = registry.get("hoth")
    cur = svc.current(gid)
    st = hoth.status(cur.state)
    if st.status == "finished":
        return None
    seat = rng.choice(st.to_act)
    cmd = msgspec.to_builtins(rng.choice(hoth.legal_commands(cur.state, seat)))
    return seat, CommandRequest(command=cmd, expected_version=cur.version)
