"""Benchmark: what fair play costs (issue 10) -- the chain, receipts, verification.

Usage: .venv/bin/python ops/bench_fair.py [--events N] [--json]

Measures, each beside its comparison in the same run:
  * chain version 2 per event (commitment of the private part + hash of the public part) against
    chain version 1 (one hash of the whole stored event), on the events of a real Battle of Hoth game;
  * Ed25519 receipts signed per second against receipts verified per second;
  * verifying a finished Battle of Hoth game as ``GET /games/{id}/verify`` does (the service's own
    fold) against the operator's ``umpire verify`` (its own fold, every commitment);
  * an undo request that needs consent (the kernel reads the log, derives the reveals, decides by side;
    answered with a decline each time) against a plain game command, both in the middle of a Battle of
    Hoth game of ``--undo-at`` commands;
  * the adversarial fairness battery (tests/fairness/battery.py): its sequences and steps per second over
    every configuration (both invariants checked after every step) -- what its CI budget buys;
  * claiming a seat with its invitation against a plain command (:func:`claim_figure`).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from domain.kernel import registry  # noqa: E402
import service.game_service as gs  # noqa: E402
from domain.kernel import chain  # noqa: E402
from service.game_service import CommandRequest, CreateGameRequest, GameService  # noqa: E402
from service.problems import Problem  # noqa: E402
from service.receipts import Signer, load_or_create, signature_ok  # noqa: E402
from service.store import EventStore  # noqa: E402
from service.undo import answer as answer_undo  # noqa: E402
from service.undo import request_undo, undo_targets  # noqa: E402
from service.verify import verify_game  # noqa: E402
from tests.fairness.battery import CONFIGS, Tally, run as run_battery  # noqa: E402

from hoth_game_driver import SCENARIO, new_game, next_command  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402



def _play(svc: GameService, seed: int) -> str:
    gid, tokens = new_game(svc, "bench-fair", seed)
    rng = random.Random(seed)
    for _ in range(5000):
        nxt = next_command(svc, gid, rng)
        if nxt is None:
            break
        seat, req = nxt
        svc.command(gid, tokens[seat], req)
    return gid


def _undo_vs_command(svc: GameService, seed: int, at: int, rounds: int) -> tuple[float, float]:
    """(ms per undo request + its decline's share excluded, ms per plain command) in a hoth game of ``at``
    commands: each round plays one command (timed), asks to undo back two boundaries (timed; it needs consent
    since the range has the other seat's commands or draws) and the other seat declines (not timed)."""
    gid, tokens = new_game(svc, "bench-undo", seed)
    rng = random.Random(seed)
    plain: list[float] = []
    asks: list[float] = []
    for i in range(at + rounds):
        nxt = next_command(svc, gid, rng)
        if nxt is None:
            break
        seat, req = nxt
        t = time.perf_counter()
        svc.command(gid, tokens[seat], req)
        if i >= at:
            plain.append(time.perf_counter() - t)
            targets = undo_targets(svc, gid)
            if len(targets) < 3:
                continue
            other = next(s for s in tokens if s != seat)
            t = time.perf_counter()
            try:
                ans = request_undo(svc, gid, tokens[seat], targets[-3])
            except Problem:  # refused (e.g. across an earlier free undo): not a request
                continue
            took = time.perf_counter() - t
            if ans.status == 202:
                asks.append(took)
                answer_undo(svc, gid, tokens[other], False)
    return sum(asks) / max(1, len(asks)) * 1000, sum(plain) / max(1, len(plain)) * 1000


def _battery(seconds_per_config: float) -> Tally:
    total = Tally()
    with tempfile.TemporaryDirectory(prefix="umpire-bench-battery-") as tmp:
        store = EventStore(tmp)
        svc = GameService(store)
        for cfg in CONFIGS:
            t = time.perf_counter()
            i = 0
            while time.perf_counter() - t < seconds_per_config:
                total.add(run_battery(svc, cfg, 9000 + i, sequences=1, steps=70))
                i += 1
        store.close()
    return total


def _rate(fn, items) -> float:
    t = time.perf_counter()
    for x in items:
        fn(x)
    return len(items) / (time.perf_counter() - t)


def claim_figure(svc: GameService, n: int = 200) -> dict:
    """DESIGN 4: claiming a seat with its invitation (invitation retired, token hash stored, ``seat_claimed``
    appended and chained: one transaction) beside a plain command of the same games (the first legal command
    of the seat to act), each timed over ``n`` new Battle of Hoth games seated by invitations."""
    import uuid

    import service.game_service as gs
    from service.seat_claims import claim

    gs.new_game_id = lambda: uuid.uuid4().hex[:16]
    hoth = registry.get("hoth")
    games = [svc.create_game(CreateGameRequest(ruleset="hoth", scenario=SCENARIO, seating="invitations",
                                               keep=["imperial"])) for _ in range(n)]
    t = time.perf_counter()
    tokens = [claim(svc, g["game_id"], "rebel", g["invitations"]["rebel"])["token"] for g in games]
    claim_ms = (time.perf_counter() - t) / n * 1000
    plays = []
    for g, rebel in zip(games, tokens):
        cur = svc.current(g["game_id"])
        seat = hoth.status(cur.state).to_act[0]
        cmd = msgspec.to_builtins(hoth.legal_commands(cur.state, seat)[0])
        plays.append((g["game_id"], rebel if seat == "rebel" else g["seats"]["imperial"],
                      CommandRequest(command=cmd, expected_version=cur.version)))
    t = time.perf_counter()
    for gid, token, req in plays:
        assert svc.command(gid, token, req).status == 201
    command_ms = (time.perf_counter() - t) / n * 1000
    return {"figure": "claim a seat with its invitation (one transaction: invitation spent, token, seat_claimed)",
            "value": round(claim_ms, 2), "unit": "ms", "lower_is_better": True,
            "vs": {"figure": "a plain command (first legal command) in the same games", "value": round(command_ms, 2)}}


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=5000, help="events hashed per chain version (default 5000)")
    ap.add_argument("--undo-at", type=int, default=150, help="commands played before the undo rounds (default 150)")
    ap.add_argument("--undo-rounds", type=int, default=100, help="undo requests measured (default 100)")
    ap.add_argument("--battery-seconds", type=float, default=3.0,
                    help="seconds of adversarial battery per configuration (default 3)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="umpire-bench-fair-") as tmp:
        store = EventStore(tmp)
        signer = Signer(load_or_create(tmp))
        svc = GameService(store, signer=signer)
        gid = _play(svc, 7)
        events = store.load(gid)
        rows = [msgspec.structs.asdict(e) for e in events]
        sample = (rows * (args.events // len(rows) + 1))[:args.events]
        key = chain.commit_key(store.seed(gid))
        v2 = _rate(lambda d: chain.seal(d["prev_hash"], key, d), sample)
        v1 = _rate(lambda d: chain.v1_hash(d["prev_hash"], d), sample)
        receipts = [signer.receipt(gid, i, e.hash) for i, e in enumerate(events, start=1)]
        signer._cache.clear()
        sign = _rate(lambda e: signer.receipt(gid, e.seq + 10**6, e.hash), events)
        check = _rate(lambda r: signature_ok(r, signer.public_raw), receipts)
        cur = svc.current(gid)
        t = time.perf_counter()
        for _ in range(5):
            rest = verify_game(store, gid, folded=cur.folded, private_before_end=cur.finished)
        rest_ms = (time.perf_counter() - t) / 5 * 1000
        t = time.perf_counter()
        for _ in range(5):
            full = verify_game(store, gid)
        full_ms = (time.perf_counter() - t) / 5 * 1000
        assert rest.ok and full.ok, (rest, full)
        undo_ms, plain_ms = _undo_vs_command(svc, 11, args.undo_at, args.undo_rounds)
        seats = claim_figure(svc)
        store.close()
    battery = _battery(args.battery_seconds)
    n = len(events)
    out = {
        "benchmark": "fair", "params": {"events": args.events},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "game_events": n,
        "figures": [
            {"figure": "chain v2: commitment + public hash per event (hoth events)", "value": round(v2), "unit": "events/s",
             "vs": {"figure": "chain v1: one hash of the whole stored event", "value": round(v1)}},
            {"figure": "Ed25519 receipts signed", "value": round(sign), "unit": "receipts/s",
             "vs": {"figure": "receipts verified", "value": round(check)}},
            {"figure": f"GET /verify of a finished {n}-event hoth game (service fold)", "value": round(rest_ms, 1),
             "unit": "ms", "lower_is_better": True,
             "vs": {"figure": "umpire verify (own fold, every commitment)", "value": round(full_ms, 1)}},
            {"figure": f"undo request needing consent, hoth game at {args.undo_at}+ commands", "value": round(undo_ms, 2),
             "unit": "ms", "lower_is_better": True,
             "vs": {"figure": "plain game command, same game", "value": round(plain_ms, 2)}},
            {"figure": f"adversarial battery ({len(CONFIGS)} configurations, 70-step sequences)",
             "value": round(battery.sequences / battery.seconds, 2), "unit": "sequences/s",
             "vs": {"figure": "steps/s (both invariants after each)", "value": round(battery.steps / battery.seconds, 1)}},
            seats,
        ],
    }
    for f in out["figures"]:
        f["ratio"] = round(f["value"] / f["vs"]["value"], 2) if f["vs"]["value"] else None
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for f in out["figures"]:
        print(f"{f['figure']}: {f['value']:,} {f['unit']}  vs  {f['vs']['figure']}: {f['vs']['value']:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
