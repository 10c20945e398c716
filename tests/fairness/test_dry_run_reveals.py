"""A dry run stops before every reveal (UMPIRE-REVEAL-1), over every kind of reveal the rulesets make: for every
command of random games (Hoth 2 seats and teams, Smoke 2 and 4 players through column deployment, the Emperor),
the dry run's events are exactly the events the command then stores up to its first reveal (a draw, an event
hidden from some seat, a type that makes hidden content public), shown as that seat sees them, and
``stopped_at`` names why it stopped."""
from __future__ import annotations

import random

import msgspec
import pytest

from domain.kernel.reveals import stored_reveal
from service.game_service import CommandRequest, CreateGameRequest, GameService
from service.store import EventStore

KERNEL = ("ready", "undo", "undo_accept", "undo_decline")
CASES = [("hoth", "SCN-TAKE-DOWN-THE-SHIELD", {}, 160), ("hoth", "SCN-TAKE-DOWN-THE-SHIELD", {"team": True}, 160),
         ("smoke", "BTL-OPEN-FIELD", {}, 80), ("smoke", "BTL-CROSSROADS", {"players": 4}, 60),
         ("emperor", "SETUP-AKHENA-VS-REBEL", {}, 120)]


def json(value):
    return msgspec.json.decode(msgspec.json.encode(value))


@pytest.mark.parametrize("rid,scenario,options,commands", CASES,
                         ids=[f"{c[0]}-{'-'.join(c[2]) or 'plain'}" for c in CASES])
def test_a_dry_run_shows_exactly_the_events_before_the_first_reveal(tmp_path, monkeypatch, rid, scenario, options,
                                                                    commands):
    monkeypatch.setattr("service.game_service.new_game_id", lambda: f"dry-{rid}-{len(options)}")  # the same dice
    svc = GameService(EventStore(tmp_path / "data"))
    g = svc.create_game(CreateGameRequest(ruleset=rid, scenario=scenario, options=options, seed="5d" * 32))
    gid, tokens = g["game_id"], g["seats"]
    rng = random.Random(4)
    kinds: dict[str, int] = {}
    for _ in range(commands):
        cur = svc.current(gid)
        if cur.finished:
            break
        seat = rng.choice(cur.status.to_act)
        cmd = rng.choice([c for c in svc.legal_commands(cur, seat) if c["type"] not in KERNEL])
        dry = svc.dry_run(gid, tokens[seat], CommandRequest(command=cmd, expected_version=cur.version))
        real = svc.command(gid, tokens[seat], CommandRequest(command=cmd, expected_version=cur.version)).body
        stored = svc.store.load(gid, after=cur.version)
        cut = next((i for i, e in enumerate(stored)
                    if stored_reveal(cur.ruleset, e.type, e.visibility, e.rolls not in ("", "[]"), e.reveals)), len(stored))
        assert [e["type"] for e in dry["events"]] == [e["type"] for e in real["events"][:cut]], (cmd, dry, real)
        assert json([e["payload"] for e in dry["events"]]) == json([e["payload"] for e in real["events"][:cut]])
        if cut < len(stored):
            why = "draw" if stored[cut].rolls not in ("", "[]") else "reveal"
            assert dry["stopped_at"] in ("draw", "reveal"), dry
            kinds[f"{stored[cut].type}:{why}"] = kinds.get(f"{stored[cut].type}:{why}", 0) + 1
        else:
            assert dry["stopped_at"] is None
    print(f"\n{rid} {options}: stopped before {dict(sorted(kinds.items()))}")
    assert kinds, "no command of the game revealed anything"
    svc.store.close()
