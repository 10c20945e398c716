"""Clients racing on one version of a game over real HTTP (DESIGN 11): the store's optimistic check, not a lock
in a process, lets exactly one of them append, whichever server process or node each one talks to."""
from __future__ import annotations

import threading
from collections import Counter

import httpx

from .api_client import SEED

CLIENTS = 32


def race_one_version(urls: list[str], clients: int = CLIENTS) -> tuple[str, int]:
    """Create a toy game on ``urls[0]``, then let ``clients`` threads (client ``i`` on ``urls[i % len(urls)]``)
    post north's roll at the same ``expected_version`` at once (a barrier), each with its own command id:
    asserts exactly one 201 and every other answer a 409 naming the new current version. Returns the game id
    and the version the clients raced on."""
    with httpx.Client(base_url=urls[0], timeout=30) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
    gid, token, v = g["game_id"], g["seats"]["north"], g["version"]
    barrier = threading.Barrier(clients)
    results: list[tuple[int, dict]] = []
    lock = threading.Lock()

    def client(i: int) -> None:
        with httpx.Client(base_url=urls[i % len(urls)], timeout=30,
                          headers={"Authorization": f"Bearer {token}"}) as c:
            barrier.wait()
            r = c.post(f"/games/{gid}/commands", json={"command": {"type": "roll"}, "expected_version": v,
                                                      "command_id": f"client-{i}"})
            with lock:
                results.append((r.status_code, r.json()))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = Counter(code for code, _ in results)
    assert codes == {201: 1, 409: clients - 1}, codes
    assert all(body["current_version"] == v + 1 for code, body in results if code == 409)
    return gid, v
