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


def test_a_node_sigkilled_under_load_loses_no_acknowledged_command(cluster_nodes):
    nodes, _, _ = cluster_nodes
    games = []
    with httpx.Client(base_url=nodes[0].url, timeout=30) as c:
        for _ in range(6):
            games.append(c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json())
    acked: list[tuple[str, dict]] = []
    lock = threading.Lock()
    stop = threading.Event()
    victim = nodes[1]

    def player(g: dict, i: int) -> None:
        gid, version, seat = g["game_id"], g["version"], "north"
        order = [nodes[i % NODES], nodes[(i + 1) % NODES]]
        turn = 0
        while not stop.is_set() and turn < 200:
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
                    with lock:
                        acked.append((gid, body))
                    version = body["version"]
                    break
                if r.status_code == 409:  # it was stored before the node died, or the retry raced: resync
                    with httpx.Client(base_url=nodes[0].url, timeout=10) as c:
                        version = c.get(f"/games/{gid}").json()["version"]
                    break
            else:
                continue
            if cmd["type"] == "end_turn":
                seat = "south" if seat == "north" else "north"
            turn += 1

    threads = [threading.Thread(target=player, args=(g, i)) for i, g in enumerate(games)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while len(acked) < 20 and time.monotonic() < deadline:
        time.sleep(0.05)
    victim.kill()  # SIGKILL mid-load
    before = len(acked)
    time.sleep(1.5)
    stop.set()
    for t in threads:
        t.join(60)
    assert before >= 20 and len(acked) > before  # the other nodes went on
    logs = {g["game_id"]: {e["seq"]: e for e in _events(nodes[0].url, g["game_id"])} for g in games}
    for gid, body in acked:
        log = logs[gid]
        assert body["events"], body
        assert body["version"] in log, (gid, body["version"])
        for ev in body.get("events", []):
            assert log[ev["seq"]]["type"] == ev["type"], (gid, ev["seq"])
    for g in games:
        seqs = sorted(logs[g["game_id"]])
        assert seqs == list(range(1, len(seqs) + 1))
        with httpx.Client(base_url=nodes[2].url, timeout=30) as c:
            assert c.get(f"/games/{g['game_id']}/verify").json()["chain_ok"] is True
