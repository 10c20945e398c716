"""Games written straight into the store (store, verification and CLI tests): a chain-version-2 game
starts with its ``game_created`` header, whose fields the games row must repeat (service.verify
checks the row against it)."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import GameCreated, Setup
from domain.kernel.dice import commitment
from service.store import EventStore, NewEvent


def header_event(game_id: str, *, ruleset: str = "test", scenario: str = "s", seats: tuple[str, ...] = (),
                 seed: bytes, options: dict[str, Any] | None = None, start: str = "now") -> NewEvent:
    h = GameCreated(game_id=game_id, ruleset=ruleset, scenario=scenario, options=dict(options or {}), seats=seats,
                    engine_version="test-1", seed_commitment=commitment(seed), start=start)
    return NewEvent(type="game_created", payload=msgspec.json.encode(h).decode(), engine_version="test-1")


def create_raw_game(store: EventStore, game_id: str, *, seed: bytes, ruleset: str = "test", scenario: str = "s",
                    seats: tuple[str, ...] = (), token_hashes: dict[str, str] | None = None,
                    options: dict[str, Any] | None = None) -> int:
    """A game with only its header (version 1); returns the version."""
    setup = Setup(game_id=game_id, ruleset=ruleset, scenario=scenario, seats=seats, options=dict(options or {}))
    res = store.create_game(game_id=game_id, ruleset=ruleset, scenario=scenario,
                            setup=msgspec.json.encode(setup).decode(), seed=seed, seed_commitment=commitment(seed),
                            token_hashes=token_hashes or {},
                            events=[header_event(game_id, ruleset=ruleset, scenario=scenario, seats=seats, seed=seed,
                                                 options=options)])
    return res.version
