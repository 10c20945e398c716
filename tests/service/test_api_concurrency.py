"""32 concurrent clients on the same version against real server processes
(two uvicorn processes on one data dir -- or on one PostgreSQL database, DESIGN 11: the per-game lock
inside a process, the store's optimistic check across them): exactly one 201, the rest 409 with
the current version, no gap in the log."""
from __future__ import annotations

import httpx
import pytest

from .api_client import Server
from .race import CLIENTS, race_one_version


@pytest.fixture(params=["sqlite", "postgres"])
def servers(request, tmp_path, redis_url):
    url = request.getfixturevalue("pg_server").new_database() if request.param == "postgres" else None
    # on PostgreSQL each node has its own local dir (its signing key): they share only the database
    started = [Server(str(tmp_path / ("node0" if url else "data")), redis_url, database_url=url),
               Server(str(tmp_path / ("node1" if url else "data")), redis_url, database_url=url)]
    try:
        yield [s.wait() for s in started]
    finally:
        for s in started:
            s.stop()
        if url is not None:
            request.getfixturevalue("pg_server").drop_database(url)


def test_32_clients_on_the_same_version_exactly_one_wins(servers):
    server = servers[0]
    gid, v = race_one_version([s.url for s in servers], CLIENTS)
    with httpx.Client(base_url=server.url, timeout=30) as c:
        evs = c.get(f"/games/{gid}/events", params={"limit": 1000}).json()["events"]
        assert [e["seq"] for e in evs] == list(range(1, v + 2))
        assert c.get(f"/games/{gid}/verify").json()["chain_ok"] is True
    with httpx.Client(base_url=servers[1].url, timeout=30) as c:  # the other process sees the same game
        assert c.get(f"/games/{gid}").json()["version"] == v + 1
