"""A cheater races its own roll against a free undo, on a served umpire with two worker processes.

A seat's undo is free only while nothing was revealed since its target (DESIGN 5, UMPIRE-UNDO-9): right after a
step of its own it is free; right after a roll it needs the other side. The cheater takes a free step, then sends
at once, over several connections (so both workers take some): the roll (twice, the second copy with the first's
``command_id``, a third with its own), a free undo back before the step by ``POST /undo`` (run on a worker thread,
its append blocking) and the same undo through ``/commands`` (run on the event loop, its commit alone on the loop or
in the committer's group: service/store/group_commit.py). If an undo were decided on the game before the roll and
stored after it, the roll would be taken back for free and rolled again.

What must hold, read from the stored log (never from the answers): no free ``undone`` crosses a roll; every event
an answer acknowledged (201 or 202) is in the log at its seq with its hash (nothing acknowledged is lost, no seq
has two outcomes); the copies with one ``command_id`` answer the same events; the chain verifies.
"""
from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import httpx

from service.store import open_store
from tests.loopback_server import start_on_free_port, url_of
from tests.service.api_client import SEED

from .test_undo_forged_targets_attack import check_log

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 6


class TwoWorkers:
    """The toy app served as ``umpire serve --workers 2`` serves its app (service.cli.run_http)."""

    def __init__(self, data_dir: Path, redis_url: str):
        self.data_dir = data_dir
        self.redis_url = redis_url
        self.log = data_dir.parent / "serve.log"
        self.proc: subprocess.Popen | None = None
        self.url = ""

    def _spawn(self, port: int) -> subprocess.Popen:
        code = ("from service.cli import run_http; "
                f"run_http('tests.service.api_client:served_toy_app', '127.0.0.1', {port}, workers=2)")
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "UMPIRE_DATA_DIR": str(self.data_dir),
               "UMPIRE_REDIS_URL": self.redis_url, "UMPIRE_ACCESS_LOG": "0"}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-c", code], cwd=str(ROOT), env=env, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        return self.proc

    def __enter__(self) -> TwoWorkers:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.proc, port = start_on_free_port(self._spawn, self.log, 90.0)
        self.url = url_of(port)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


async def _race(base: str, gid: str, token: str, version: int, before_step: int, n: int) -> list[httpx.Response]:
    """The roll (three copies: two with one command_id) and the free undo by both routes, all at once, each on
    a connection of its own."""
    auth = {"authorization": f"Bearer {token}"}
    roll = {"command": {"type": "roll"}, "expected_version": version}
    undo = {"command": {"type": "undo", "to_version": before_step}, "expected_version": version}
    sends = [("/commands", {**roll, "command_id": f"roll-{n}"}), ("/undo", {"to_version": before_step}),
             ("/commands", {**roll, "command_id": f"roll-{n}"}), ("/commands", undo),
             ("/commands", {**roll, "command_id": f"roll-{n}-b"}), ("/undo", {"to_version": before_step})]

    async def one(path: str, body: dict) -> httpx.Response:
        async with httpx.AsyncClient(base_url=base, timeout=60, headers=auth) as client:
            return await client.post(f"/games/{gid}{path}", json=body)

    return await asyncio.gather(*[one(p, b) for p, b in sends])


def _acknowledged(answers: list[httpx.Response]) -> list[tuple[int, str]]:
    out = []
    for a in answers:
        if a.status_code in (201, 202):
            out += [(e["seq"], e["hash"]) for e in a.json()["events"]]
    return out


def test_a_roll_raced_against_a_free_undo_on_two_workers_is_never_taken_back_for_free(tmp_path, redis_url):
    with TwoWorkers(tmp_path / "data", redis_url) as srv, httpx.Client(base_url=srv.url, timeout=60) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        gid, tokens = g["game_id"], g["seats"]
        acked: list[tuple[int, str]] = []
        outcomes: dict[str, int] = {}
        for n in range(ROUNDS):
            seat = c.get(f"/games/{gid}").json()["to_act"][0]
            tok = tokens[seat]
            auth = {"authorization": f"Bearer {tok}"}
            before = c.get(f"/games/{gid}").json()["version"]
            r = c.post(f"/games/{gid}/commands", json={"command": {"type": "step"}, "expected_version": before},
                       headers=auth)
            assert r.status_code == 201, r.text
            acked += _acknowledged([r])
            answers = asyncio.run(_race(srv.url, gid, tok, r.json()["version"], before, n))
            codes = [a.status_code for a in answers]
            assert all(s in (201, 202, 409, 422) for s in codes), [(a.status_code, a.text) for a in answers]
            acked += _acknowledged(answers)
            same_id = [a for a in (answers[0], answers[2]) if a.status_code == 201]
            if len(same_id) == 2:  # one command_id: one roll, answered twice the same
                assert same_id[0].json()["events"] == same_id[1].json()["events"]
            for a in answers:
                if a.status_code < 300:
                    key = a.json().get("undo") or "roll"
                    outcomes[key] = outcomes.get(key, 0) + 1
            view = c.get(f"/games/{gid}").json()
            if view["undo_request"] is not None:  # the other seat declines: no consent was given
                other = tokens[next(s for s in tokens if s != seat)]
                assert c.post(f"/games/{gid}/undo/decline", headers={"authorization": f"Bearer {other}"}
                              ).status_code == 201
            v = c.get(f"/games/{gid}").json()["version"]
            r = c.post(f"/games/{gid}/commands", json={"command": {"type": "end_turn"}, "expected_version": v},
                       headers=auth)
            assert r.status_code == 201, r.text
        assert c.get(f"/games/{gid}/verify").json()["chain_ok"] is True
    store = open_store(str(tmp_path / "data"), database_url="")
    try:
        check_log(store, gid, {s: s for s in tokens})
        log = {e.seq: e.hash for e in store.load(gid)}
    finally:
        store.close()
    lost = [(seq, h) for seq, h in acked if log.get(seq) != h]
    assert not lost, f"acknowledged events not in the log as answered: {lost[:5]}"
    print(f"\noutcomes over {ROUNDS} races: {outcomes}")
    # every race kept one outcome: the roll (an undo then waits for consent) or the free undo (the roll then stale)
    assert outcomes.get("roll", 0) + outcomes.get("done", 0) >= ROUNDS, outcomes
