"""After a drill: nothing acknowledged is lost, the chains verify, the projections converge.

Every check reads the real artefacts: the REST API of the restarted server,
the SQLite file (read-only, through :class:`~service.store.EventStore`), the
``umpire verify`` command, and the Redis read models.
"""
from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from .load import DEGRADED, Ack, Tally
from .server import ROOT, server_env, umpire_exe

#: Seconds the projections get to converge after the last fault.
CONVERGE_TIMEOUT_S = 20.0


@dataclass
class Findings:
    games: int = 0
    events: int = 0
    acks: int = 0
    lost: list[str] = field(default_factory=list)  # acknowledged commands missing or changed
    duplicated: list[str] = field(default_factory=list)  # log events no known command accounts for
    chain_broken: list[str] = field(default_factory=list)
    cli_verify_failed: list[str] = field(default_factory=list)
    not_converged: list[str] = field(default_factory=list)
    converge_s: float | None = None

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.chain_broken or self.cli_verify_failed or self.not_converged)

    def lines(self) -> list[str]:
        out = [
            f"acknowledged commands: {self.acks}; in the log with the same seqs and hashes: "
            f"{self.acks - len(self.lost)}" + (f"  LOST/CHANGED: {self.lost[:5]}" if self.lost else ""),
            f"log: {self.games} games, {self.events} events; events not accounted for by exactly one command: "
            f"{len(self.duplicated)}" + (f" {self.duplicated[:5]}" if self.duplicated else ""),
            "chains: " + ("all verify (GET /verify and `umpire verify`)" if not (self.chain_broken or self.cli_verify_failed)
                          else f"BROKEN {self.chain_broken[:5]} cli {self.cli_verify_failed[:5]}"),
        ]
        if self.not_converged:
            out.append(f"projections: NOT converged within {CONVERGE_TIMEOUT_S:.0f} s: {self.not_converged[:5]}")
        elif self.converge_s is not None:
            out.append(f"projections: converged (Redis models at the log's version, views equal the fold,"
                       f" no X-Umpire-Degraded) {self.converge_s:.2f} s after the load stopped")
        return out


def log_of(c: httpx.Client, game_id: str) -> dict[int, str]:
    """seq -> hash of the whole log, through ``GET /games/{id}/events`` (paged)."""
    out: dict[int, str] = {}
    after = 0
    while True:
        r = c.get(f"/games/{game_id}/events", params={"after": after, "limit": 1000})
        r.raise_for_status()
        evs = r.json()["events"]
        if not evs:
            return out
        for e in evs:
            out[int(e["seq"])] = str(e["hash"])
        after = int(evs[-1]["seq"])


def check_log(base_url: str, data_dir: str | Path, tally: Tally, *, cli_verify: bool = True) -> Findings:
    from service.store import EventStore

    f = Findings(acks=len(tally.acks))
    by_game: dict[str, list[Ack]] = {}
    for a in tally.acks:
        by_game.setdefault(a.game_id, []).append(a)
    store = EventStore(data_dir)
    try:
        with httpx.Client(base_url=base_url, timeout=30) as c:
            for gid in sorted(tally.sent):
                f.games += 1
                log = log_of(c, gid)
                f.events += len(log)
                for a in by_game.get(gid, []):
                    if any(log.get(seq) != h for seq, h in a.events):
                        f.lost.append(f"{gid}/{a.command_id}")
                        continue
                    res = store.command_result(gid, a.command_id)
                    if res is None or (res.first_seq, res.last_seq) != (a.events[0][0], a.events[-1][0]):
                        f.lost.append(f"{gid}/{a.command_id} (commands table)")
                # every seq belongs to exactly one command id the clients sent
                covered: dict[int, str] = {}
                for cid in tally.sent[gid]:
                    res = store.command_result(gid, cid)
                    if res is None:
                        continue
                    for s in range(res.first_seq, res.last_seq + 1):
                        if s in covered:
                            f.duplicated.append(f"{gid}#{s}")
                        covered[s] = cid
                # the game's creation (its game_created header and opening) is no client's command
                created = {e.seq for e in store.load(gid, upto=64) if e.step == 1}
                f.duplicated += [f"{gid}#{s}" for s in sorted(set(log) - set(covered) - created)]
                if sorted(log) != list(range(1, len(log) + 1)):
                    f.chain_broken.append(f"{gid} (gaps in seq)")
                v = c.get(f"/games/{gid}/verify").json()
                if not v.get("chain_ok"):
                    f.chain_broken.append(gid)
                if cli_verify:
                    p = subprocess.run(umpire_exe() + ["verify", gid, "--data-dir", str(data_dir)],
                                       capture_output=True, text=True, env=server_env(None), cwd=ROOT, timeout=120)
                    if p.returncode != 0 or "chain: ok" not in p.stdout:
                        f.cli_verify_failed.append(f"{gid}: {p.returncode} {p.stdout.strip()[-120:]} {p.stderr.strip()[-200:]}")
    finally:
        store.close()
    return f


def folded_view(store: Any, game_id: str) -> dict[str, Any]:
    """The spectator's view folded from the log (no Redis): what the projection must equal."""
    from projections import views
    from service.game_service import GameService

    svc = GameService(store, None)
    cur = svc.current(game_id)
    return views.game_view(cur.game, cur.ruleset, cur.state, None, cur.version, kernel=cur.folded.kernel)


def wait_converged(base_url: str, data_dir: str | Path, redis_url: str, game_ids: list[str], f: Findings,
                   *, since: float, timeout: float = CONVERGE_TIMEOUT_S) -> None:
    """Poll until every game's Redis model is at the log's version and its view equals the fold,
    and ``GET /games/{id}`` answers that view without ``X-Umpire-Degraded``."""
    import msgspec
    import redis

    from projections import ReadModels
    from service.store import EventStore

    store = EventStore(data_dir)
    client = redis.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=1)
    rm = ReadModels(client, store)
    enc = msgspec.json.Encoder()
    pending = set(game_ids)
    deadline = time.monotonic() + timeout
    try:
        with httpx.Client(base_url=base_url, timeout=10) as c:
            while pending and time.monotonic() < deadline:
                for gid in sorted(pending):
                    want = msgspec.json.decode(enc.encode(folded_view(store, gid)))
                    got = rm.game_view(gid, None)
                    r = c.get(f"/games/{gid}")
                    served = {k: v for k, v in r.json().items() if k != "receipt"} if r.status_code == 200 else None
                    if got == want and r.status_code == 200 and not r.headers.get(DEGRADED) and served == want:
                        pending.discard(gid)
                if pending:
                    time.sleep(0.2)
    finally:
        client.close()
        store.close()
    if pending:
        f.not_converged += sorted(pending)
    else:
        f.converge_s = time.monotonic() - since
