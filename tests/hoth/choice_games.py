"""A finished Battle of Hoth game played under rule choices, as a script any test can replay through the API.

:func:`scripted` plays random legal commands in memory (domain.kernel.runner) and records them; the service
decides the same game when it is created with the same game id, seed and choices and is sent the same commands
(the dice depend only on the seed, the game id and the draws before).
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.hoth.choices import EWEB
from domain.kernel import registry
from domain.kernel.runner import random_game

#: A scenario with E-Web units, and a seed whose random game has an E-Web attack with its token Set (448 commands).
SCENARIO = "PROP-SCN-BREACH-THE-TRENCHES"
SEED = 3
CHOICES = {EWEB: "all"}


def scripted(scenario: str = SCENARIO, seed: int = SEED, choices: dict[str, str] | None = None
             ) -> tuple[str, str, list[tuple[str, dict[str, Any]]]]:
    """(game id, seed as 64 hex, [(seat, command as JSON)]) of a random game played to its end."""
    played: list[tuple[str, dict[str, Any]]] = []

    def record(g: Any, seat: str, cmd: Any, cmds: Any) -> None:
        played.append((seat, msgspec.to_builtins(cmd)))

    rs = registry.get("hoth")
    g = random_game(rs, scenario, seed, choices=CHOICES if choices is None else choices, check=record)
    assert g.over, "the scripted game ends"
    return g.setup.game_id, seed.to_bytes(32, "big").hex(), played


def cites(ruling: dict[str, Any] | None, rule: str) -> bool:
    return bool(ruling) and any(s.get("rule") == rule for s in ruling.get("steps", ()))


def store_scripted(data_dir: str, choices: dict[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """The scripted game written into the store of ``data_dir`` through the service's own GameService (the
    commands are kept beside the events, so its steps can be re-decided); (game id, seat tokens)."""
    from unittest import mock

    from service.game_service import CommandRequest, CreateGameRequest, GameService
    from service.store import open_store

    chosen = CHOICES if choices is None else choices
    game_id, seed, script = scripted(choices=chosen)
    store = open_store(data_dir, database_url="")
    try:
        svc = GameService(store)
        with mock.patch("service.game_service.new_game_id", lambda: game_id):
            created = svc.create_game(CreateGameRequest(ruleset="hoth", scenario=SCENARIO, seed=seed, choices=chosen))
        tokens, version = created["seats"], created["version"]
        for seat, cmd in script:
            ans = svc.command(game_id, tokens[seat], CommandRequest(command=cmd, expected_version=version))
            assert ans.status == 201, ans.body
            version = ans.body["version"]
    finally:
        store.close()
    return game_id, tokens
