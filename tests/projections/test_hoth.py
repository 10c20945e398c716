"""The projections on Battle of Hoth games played through the service's command
path (GameService: decide, dice, append, undo, then project): the Redis models
equal the log's answers, replay at every seq equals the fold of the prefix,
and FLUSHALL + rebuild gives the same models."""
from __future__ import annotations

import random

import msgspec

from domain.kernel import registry

HOTH = registry.get("hoth")
from projections import ReadModels
from projections.keys import GameKeys
from projections.rebuild import rebuild
from service.game_service import CommandRequest, CreateGameRequest, GameService
from service.problems import Problem
from service.undo import answer_undo, request_undo, undo_targets

from .helpers import dump, log_lobby, log_state, log_timeline, log_views, prefix_states

COMMANDS = 250
SCENARIO = "SCN-TAKE-DOWN-THE-SHIELD"


def _play(svc: GameService, seed: int, commands: int) -> str:
    """Random legal play with occasional undo requests (accepted or declined)."""
    rng = random.Random(seed)
    created = svc.create_game(CreateGameRequest(ruleset="hoth", scenario=SCENARIO, seed=f"{seed:064x}"))
    gid, tokens = created["game_id"], created["seats"]
    for _ in range(commands):
        cur = svc.current(gid)
        st = HOTH.status(cur.state)
        if st.status == "finished":
            break
        seat = rng.choice(st.to_act)
        if rng.random() < 0.06 and cur.version > 3:
            # a command boundary mostly (UMPIRE-UNDO-8: anything else is refused), sometimes any version
            targets = [t for t in undo_targets(svc, gid) if t < cur.version][-3:]
            to = rng.choice(targets) if targets and rng.random() < 0.7 else rng.randint(max(0, cur.version - 4),
                                                                                        cur.version - 1)
            try:
                ans = request_undo(svc, gid, tokens[seat], to)
            except Problem:
                continue
            if ans.status == 202:
                other = next(s for s in tokens if s != seat)
                answer_undo(svc, gid, tokens[other], rng.random() < 0.5)
            continue
        cmd = rng.choice(HOTH.legal_commands(cur.state, seat))
        svc.command(gid, tokens[seat], CommandRequest(command=msgspec.to_builtins(cmd), expected_version=cur.version))
    return gid


def test_hoth_game_through_the_service(redis_client, store):
    rm = ReadModels(redis_client, store)
    svc = GameService(store, rm)  # projects after every command, as the service does
    gid = _play(svc, 5, COMMANDS)
    n = store.version(gid)
    assert n > 100
    kinds = {e.type for e in store.load(gid)}
    assert "undone" in kinds and "undo_declined" in kinds  # the premise: undos were projected

    # current views of every seat and the spectator, the timeline, the lobby
    for seat, body in log_views(store, gid).items():
        assert rm.game_view(gid, seat) == body, seat
    tail = rm.timeline_tail(gid)  # Redis holds the newest entries (projections.timeline_window); the log the rest
    assert tail is not None and tail.base + len(tail.entries) == n
    assert tail.entries == log_timeline(store, gid)[tail.base:]
    rm.catch_up_all()
    assert rm.lobby() == log_lobby(store)
    assert rm.lobby(ruleset="hoth") == log_lobby(store, ruleset="hoth")

    # replay at every seq equals the fold of the prefix
    want = prefix_states(store, gid)
    for seq in [*range(0, 30), *range(n - 30, n + 1)]:
        assert want[seq] == log_state(store, gid, upto=seq), seq  # the reference is the fold
    fresh = ReadModels(redis_client, store)  # snapshots only, no in-memory state
    for seq in range(0, n + 1):
        assert fresh.state_at(gid, seq) == want[seq], seq
    k = GameKeys(gid)
    for s in redis_client.zrange(k.snaps, 0, -1)[:5]:  # a Hoth snapshot decodes to the state it encoded
        assert msgspec.json.decode(redis_client.hget(k.snapdata, s), type=HOTH.state_type) == want[int(s)]

    # FLUSHALL, then rebuild: the same models
    before = dump(redis_client)
    redis_client.flushall()
    rebuild(store, redis_client)
    assert dump(redis_client) == before
