"""Seeded Clouds of Smoke games whose outputs are pinned in ``tests/smoke/data/replay_hashes.json``.

Two kinds of games, every shipped battle:

- engine digests (``digest.game_digest``: every command's legal commands, templates and emitted events with
  their rulings) of seeded random games at seeds beyond the ones ``test_engine_digest.py`` pins;
- bot games (``bots.arena.Arena`` driven by ``bots.decide``: the ``random`` and ``greedy`` bots, fixed game and bot seeds) and a
  SHA-256 of their whole event log (each event's type, payload, ruling, visibility and rolls, in order).

The pins were computed with the engine as it was before the spatial caches of ``docs/smoke-speed.md``'s
"remembered across layouts" section; a change to the engine's speed must leave every one of them the same.
After a change that is meant to change what the engine says, write the file again with
``PYTHONPATH=. .venv/bin/python -m tests.smoke.replays --write`` and say why in the commit.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import msgspec

from bots import BotSeat
from bots import decide
from bots.arena import Arena
from domain.kernel import event_type_name, registry, to_payload
from scenarios.content import hand_to_rulesets

from .digest import english_ruling, game_digest

FIXTURE = Path(__file__).parent / "data" / "replay_hashes.json"
#: (battle, players, seed) of the engine digests pinned here (seeds 0-4 are in test_engine_digest.py).
DIGEST_SEEDS = (5, 6)
BOTS = ("random", "greedy")
_enc = msgspec.json.Encoder(order="sorted")


def log_hash(a: Arena) -> str:
    """SHA-256 of a game's event log: every event's type, payload, ruling (its English words: ``digest.english_ruling``), visibility and rolls, in order."""
    h = hashlib.sha256()
    for seq, actor, em in a.log:
        h.update(_enc.encode({"seq": seq, "actor": actor, "type": event_type_name(em.event),
                              "payload": to_payload(em.event), "ruling": english_ruling(em.ruling),
                              "visibility": em.visibility, "rolls": em.rolls}))
    return h.hexdigest()


def cases() -> list[tuple[str, ...]]:
    from scenarios.smoke import shipped

    out: list[tuple[str, ...]] = []
    for battle in sorted(shipped().battles):
        for lu in shipped().battles[battle].line_ups:
            for seed in DIGEST_SEEDS:
                out.append(("digest", battle, str(lu.players), str(seed)))
        for bot in BOTS:
            out.append(("bots", battle, bot))
    return out


def key(case: tuple[str, ...]) -> str:
    return "/".join(case)


def compute(case: tuple[str, ...]) -> str:
    """The pinned value of one case: the engine digest, or the bot game's log hash."""
    from .play import ruleset

    if case[0] == "digest":
        _, battle, players, seed = case
        return game_digest(_rs(ruleset), battle, int(seed), int(players))[0]
    _, battle, bot = case
    return bot_log_hash(battle, bot)


_RS: list = []


def _rs(make):
    if not _RS:
        _RS.append(make())
    return _RS[0]


def bot_log_hash(battle: str, bot: str) -> str:
    rs = registry.get("smoke")
    a = Arena(rs, battle, f"pin-{bot}-{battle}", seed=bytes(range(32)))
    seats = {s: BotSeat(bot=bot, level=1, seed=f"{i + 1:064x}") for i, s in enumerate(a.setup.seats)}
    n = 0
    while not a.finished and n < 5000:
        s = a.to_act()
        assert s is not None
        a.play(s, decide(seats[s], a.seat_input(s)).command)
        n += 1
    return f"{log_hash(a)}:{n}"


if __name__ == "__main__":
    if "--write" not in sys.argv:
        raise SystemExit("usage: python -m tests.smoke.replays --write")
    hand_to_rulesets()  # a composition root of its own: the rulesets get their content (as the test session does)
    FIXTURE.parent.mkdir(exist_ok=True)
    pins = {key(c): compute(c) for c in cases()}
    FIXTURE.write_text(json.dumps(pins, indent=1, sort_keys=True) + "\n")
    print(f"{len(pins)} pins written to {FIXTURE}")
