"""Stateless nodes (DESIGN 11, issue 15): three real server processes, each with its own data dir but the same
``UMPIRE_SIGNING_KEY``, on one PostgreSQL and one 3-master Redis Cluster. The store's check is the guarantee
(not a lock in a process): 32 clients racing on one version across the nodes get exactly one 201; a game played
with each command sent to a random node reaches the feeds of every node, every event once, and every node's
view equals the fold; a node SIGKILLed under load loses no acknowledged command."""
from __future__ import annotations

import json
import random
import secrets
import threading
import time

import httpx
import pytest

from service.store import open_store

from ..projections.helpers import js
from .api_client import SEED, Server
from .race import CLIENTS, race_one_version
from .toy_ruleset import register

NODES = 3


@pytest.fixture
def cluster_nodes(request, tmp_path, redis_cluster):
    pg = request.getfixturevalue("pg_server")
    url = pg.new_database()
    redis_cluster.flushall()
    key = secrets.token_hex(32)
    started = [Server(str(tmp_path / f"node{i}"), redis_cluster.url, database_url=url,
                      env={"UMPIRE_SIGNING_KEY": key}) for i in range(NODES)]
    try:
        nodes = [s.wait() for s in started]
        yield nodes, url, tmp_path
    finally:
        for s in started:
            s.stop()
        pg.drop_database(url)


def _events(base: str, gid: str) -> list[dict]:
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.get(f"/games/{gid}/events", params={"limit": 1000})
        assert r.status_code == 200, r.text
        return r.json()["events"]


def test_32_clients_racing_across_three_nodes_exactly_one_wins(cluster_nodes):
    nodes, _, _ = cluster_nodes
    gid, v = race_one_version([n.url for n in nodes], CLIENTS)
    for node in nodes:  # every node sees the same gapless log with an intact chain
        assert [e["seq"] for e in _events(node.url, gid)] == list(range(1, v + 2))
        with httpx.Client(base_url=node.url, timeout=30) as c:
            assert c.get(f"/games/{gid}/verify").json()["chain_ok"] is True


def _feed(base: str, gid: str, after: int, out: list[int], done: threading.Event, limit: int | None = None) -> None:
    """Read the game's feed (spectator) until the game is won (or ``limit`` events); the seqs go to ``out``."""
    params: dict = {"after": after}
    if limit is not None:
        params["limit"] = limit
    with httpx.Client(base_url=base, timeout=httpx.Timeout(60, read=60)) as c:
        with c.stream("GET", f"/games/{gid}/feed", params=params) as r:
            assert r.status_code == 200
            for line in r.iter_lines():
                if not line.startswith("data:"):
                    continue
                ev = json.loads(line[5:])
                out.append(ev["seq"])
                if ev["type"] == "game_won" or (limit is not None and len(out) >= limit):
                    break
    done.set()


def test_a_game_on_random_nodes_reaches_every_feed_once_and_views_equal_the_fold(cluster_nodes):
    register()
    nodes, url, tmp_path = cluster_nodes
    rng = random.Random(15)
    with httpx.Client(base_url=nodes[0].url, timeout=30) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
    gid, seats, version = g["game_id"], g["seats"], g["version"]
    # a feed on every node from the start; a fourth reads 3 events from node 0, then resumes on node 2
    seen: list[list[int]] = [[] for _ in nodes]
    done = [threading.Event() for _ in nodes]
    feeds = [threading.Thread(target=_feed, args=(n.url, gid, 0, seen[i], done[i]), daemon=True)
             for i, n in enumerate(nodes)]
    first: list[int] = []
    first_done = threading.Event()
    feeds.append(threading.Thread(target=_feed, args=(nodes[0].url, gid, 0, first, first_done, 3), daemon=True))
    for t in feeds:
        t.start()
    seat, acks = "north", 0
    for _turn in range(60):
        for cmd in ({"type": "roll"}, {"type": "throw"}, {"type": "end_turn"}):
            node = rng.choice(nodes)
            with httpx.Client(base_url=node.url, timeout=30, headers={"Authorization": f"Bearer {seats[seat]}"}) as c:
                r = c.post(f"/games/{gid}/commands", json={"command": cmd, "expected_version": version})
            assert r.status_code == 201, (node.url, r.text)
            acks += 1
            version = r.json()["version"]
            with httpx.Client(base_url=rng.choice(nodes).url, timeout=30) as c:
                status = c.get(f"/games/{gid}").json()["status"]
            if status == "finished":
                break
        else:
            seat = "south" if seat == "north" else "north"
            continue
        break
    assert status == "finished" and acks > 6
    for d in done:
        assert d.wait(30), "a feed did not receive the whole game"
    assert first_done.wait(30) and first == [1, 2, 3]
    resumed: list[int] = []
    _feed(nodes[2].url, gid, first[-1], resumed, threading.Event())  # catch-up from the log after a reconnect
    for s in seen:
        assert s == list(range(1, version + 1))  # every event, once, in order, on every node
    assert first + resumed == list(range(1, version + 1))
    # every node's views (from the cluster once projected, else the log) equal the fold over the log
    from ..projections.helpers import log_views

    store = open_store(str(tmp_path / "check"), database_url=url)
    try:
        want = log_views(store, gid)
    finally:
        store.close()
    key_ids = set()
    for i, node in enumerate(nodes):
        other = nodes[(i + 1) % NODES]
        with httpx.Client(base_url=node.url, timeout=30) as c:
            deadline = time.monotonic() + 30  # the projections follow the log: then the cluster answers
            while "x-umpire-degraded" in (r := c.get(f"/games/{gid}")).headers or r.json()["version"] != version:
                assert time.monotonic() < deadline, "the cluster's projections did not converge"
                time.sleep(0.2)
            for seat_name, token in (*seats.items(), (None, None)):
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                r = c.get(f"/games/{gid}", headers=headers)
                assert r.status_code == 200 and "x-umpire-degraded" not in r.headers
                body = r.json()
                receipt = body.pop("receipt")
                key_ids.add(receipt["key_id"])
                assert receipt["version"] == version
                # a receipt signed by one node is proven by another (one signing key for every node)
                proof = httpx.get(f"{other.url}/games/{gid}/verify", params={"receipt": json.dumps(receipt)}, timeout=30)
                assert proof.status_code == 200 and proof.json()["receipt_ok"] is True, proof.text
                assert js(body) == want[seat_name], (node.url, seat_name)
    assert len(key_ids) == 1


class Load:
    """Six toy games played at once, each command sent to a node and, when that node does not answer
    (dead) or refuses with 503 (its store is down), retried with the same ``command_id`` on the next one."""

    def __init__(self, nodes: list, games_on: str, games: int = 6):
        self.nodes = nodes
        with httpx.Client(base_url=games_on, timeout=30) as c:
            self.games = [c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
                          for _ in range(games)]
        self.acked: list[tuple[str, dict]] = []
        self.refusals: list[httpx.Response] = []  # every answer that was neither 201 nor 409
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._player, args=(g, i)) for i, g in enumerate(self.games)]
        for t in self.threads:
            t.start()

    def _player(self, g: dict, i: int) -> None:
        gid, version, seat = g["game_id"], g["version"], "north"
        order = [self.nodes[(i + k) % NODES] for k in range(NODES)]
        turn = 0
        while not self.stop.is_set() and turn < 200:
            cmd = ({"type": "step", "steps": 1}, {"type": "end_turn"})[turn % 2]
            for node in order:
                try:
                    with httpx.Client(base_url=node.url, timeout=10,
                                      headers={"Authorization": f"Bearer {g['seats'][seat]}"}) as c:
                        r = c.post(f"/games/{gid}/commands", json={"command": cmd, "expected_version": version,
                                                                  "command_id": f"{gid}-{turn}"})
                except httpx.HTTPError:
                    continue  # the node died before answering: not acknowledged; send it to another node
                if r.status_code == 201:
                    body = r.json()
                    with self.lock:
                        self.acked.append((gid, body))
                    version = body["version"]
                    break
                if r.status_code == 409:  # stored before the node died, or the retry raced: resync
                    try:
                        with httpx.Client(base_url=node.url, timeout=10) as c:
                            version = c.get(f"/games/{gid}").json()["version"]
                    except (httpx.HTTPError, KeyError, ValueError):
                        continue
                    break
                with self.lock:
                    self.refusals.append(r)
                time.sleep(0.05)
            else:
                continue
            if cmd["type"] == "end_turn":
                seat = "south" if seat == "north" else "north"
            turn += 1

    def wait_acked(self, n: int, seconds: float = 60) -> int:
        deadline = time.monotonic() + seconds
        while len(self.acked) < n and time.monotonic() < deadline:
            time.sleep(0.05)
        return len(self.acked)

    def finish(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(60)

    def check_logs(self, base: str) -> None:
        """Every acknowledged command is in the log with its events; every log is gapless with an intact chain."""
        logs = {g["game_id"]: {e["seq"]: e for e in _events(base, g["game_id"])} for g in self.games}
        for gid, body in self.acked:
            log = logs[gid]
            assert body["events"], body
            assert body["version"] in log, (gid, body["version"])
            for ev in body.get("events", []):
                assert log[ev["seq"]]["type"] == ev["type"], (gid, ev["seq"])
        for g in self.games:
            seqs = sorted(logs[g["game_id"]])
            assert seqs == list(range(1, len(seqs) + 1))
            with httpx.Client(base_url=base, timeout=30) as c:
                assert c.get(f"/games/{g['game_id']}/verify").json()["chain_ok"] is True


def test_a_node_sigkilled_under_load_loses_no_acknowledged_command(cluster_nodes):
    nodes, _, _ = cluster_nodes
    load = Load(nodes, nodes[0].url)
    load.wait_acked(20, 30)
    nodes[1].kill()  # SIGKILL mid-load
    before = len(load.acked)
    time.sleep(1.5)
    load.finish()
    assert before >= 20 and len(load.acked) > before  # the other nodes went on
    assert load.refusals == []
    load.check_logs(nodes[0].url)


def test_postgresql_restarted_under_load_across_three_nodes(cluster_nodes, request):
    """PostgreSQL goes down under load and comes back: every node answers 503 problem details (naming no
    host, port or user) while it is down, never a 500; nothing acknowledged is lost; and the nodes go
    on by themselves once it is back (their pools reconnect; no node restarted)."""
    pg = request.getfixturevalue("pg_server")
    nodes, url, _ = cluster_nodes
    load = Load(nodes, nodes[0].url)
    try:
        load.wait_acked(20, 30)
        pg.halt()
        try:
            down_at = len(load.acked)
            deadline = time.monotonic() + 30
            while len(load.refusals) < 6 and time.monotonic() < deadline:
                time.sleep(0.05)
            with load.lock:
                acked_while_down = len(load.acked) - down_at
        finally:
            pg.resume()
        back_at = len(load.acked)
        assert load.wait_acked(back_at + 20) >= back_at + 20, "the nodes did not go on once PostgreSQL was back"
    finally:
        load.finish()
    assert acked_while_down <= 6  # at most the commands already past their commit when it stopped
    assert len(load.refusals) >= 6
    port = url.rsplit(":", 1)[1].split("/")[0]
    for r in load.refusals:
        assert r.status_code == 503, r.text
        assert r.headers["content-type"].startswith("application/problem+json"), r.headers
        assert port not in r.text and "postgres" not in r.text.lower().replace("postgresql event store", ""), r.text
    load.check_logs(nodes[2].url)
