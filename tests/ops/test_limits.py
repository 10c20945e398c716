"""Limits (DESIGN 16): two real app processes sharing one real Redis enforce one budget per client address;
429 problem details with ``Retry-After``; other addresses unaffected; ``X-Forwarded-For`` not believed from
a peer that is not a trusted proxy; a seat's commands in a normal game never limited; Redis down: the
limiter fails open (DESIGN 7: commands are still accepted); the cap on open games per creator address.

Clients bind their own loopback source address (127.0.0.x) to be distinct addresses; the servers are told
to limit loopback addresses too (``UMPIRE_LIMIT_LOOPBACK=1``; by default loopback is not limited)."""
from __future__ import annotations

import itertools

import httpx
import pytest

from service.rate_limits import ClientAddress, is_local, token_key
from tests.service.api_client import Server

from .metrics_script import GAMES, SEED, scrape, summed

CREATE_BUDGET = 5
LIMITED = {"UMPIRE_LIMIT_LOOPBACK": "1", "UMPIRE_LIMIT_CREATE": f"{CREATE_BUDGET}/minute",
           "UMPIRE_LIMIT_OPEN_GAMES": "0"}


def client_from(url: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=60, transport=httpx.HTTPTransport(local_address=address))


def _create(c: httpx.Client, **headers: str) -> httpx.Response:
    return c.post("/games", json={"ruleset": "hoth", "scenario": GAMES["hoth"], "seed": SEED}, headers=headers)


@pytest.fixture
def two_nodes(tmp_path, redis_server, redis_client):
    """Two app processes (``umpire serve``'s worker app), each its own SQLite, one Redis."""
    started = [Server(str(tmp_path / f"node{i}"), redis_server.url, factory="service.cli:worker_app",
                      env=LIMITED) for i in range(2)]
    try:
        yield [s.wait() for s in started]
    finally:
        for s in started:
            s.stop()


def test_a_creation_flood_from_one_address_gets_429_after_the_budget_on_every_node(two_nodes):
    clients = [client_from(n.url, "127.0.0.2") for n in two_nodes]
    answers = [_create(c) for c, _ in zip(itertools.cycle(clients), range(CREATE_BUDGET + 4))]
    statuses = [r.status_code for r in answers]
    # one budget for both nodes: 5 created in all (alternating nodes), then refused on both
    assert statuses == [201] * CREATE_BUDGET + [429] * 4, statuses
    refused = answers[-1]
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    body = refused.json()
    assert body["status"] == 429 and body["type"].endswith("rate-limited") and body["budget"] == "create"
    assert body["retry_after"] == int(refused.headers["retry-after"])
    # a forwarded address from a peer that is not a trusted proxy is not believed
    assert _create(clients[0], **{"X-Forwarded-For": "203.0.113.9"}).status_code == 429
    # another address has its own budget, on either node
    for n in two_nodes:
        assert _create(client_from(n.url, "127.0.0.3")).status_code == 201
    # the refusals are counted
    limited = sum(summed([scrape(n.url) for n in two_nodes], "umpire_limited_total", ("budget",)).values())
    assert limited == 5


def test_a_seats_commands_in_a_normal_game_are_never_limited(two_nodes):
    node = two_nodes[0]
    c = client_from(node.url, "127.0.0.4")
    r = _create(c)
    assert r.status_code == 201, r.text
    gid, seats = r.json()["game_id"], r.json()["seats"]
    played = 0
    for _ in range(60):  # a fast table: commands and a dry run before each, as fast as the server answers
        view = c.get(f"/games/{gid}").json()
        if view["status"] == "finished":
            break
        auth = {"Authorization": f"Bearer {seats[view['to_act'][0]]}"}
        legal = c.get(f"/games/{gid}/legal-commands", headers=auth).json()
        body = {"command": legal["commands"][0], "expected_version": legal["version"]}
        assert c.post(f"/games/{gid}/commands", params={"dry_run": "true"}, json=body, headers=auth).status_code == 200
        r = c.post(f"/games/{gid}/commands", json=body, headers=auth)
        assert r.status_code == 201, r.text
        played += 1
    assert played >= 30


def test_redis_down_the_limiter_fails_open(tmp_path, redis_server, redis_client):
    server = Server(str(tmp_path / "node"), redis_server.url, factory="service.cli:worker_app", env=LIMITED).wait()
    try:
        c = client_from(server.url, "127.0.0.5")
        assert [_create(c).status_code for _ in range(CREATE_BUDGET + 1)][-1] == 429
        redis_server.kill()
        try:
            # every creation is accepted while Redis is down, over the budget (and a command too)
            created = [_create(c) for _ in range(3)]
            assert [r.status_code for r in created] == [201] * 3, [r.text for r in created]
            gid, seats = created[0].json()["game_id"], created[0].json()["seats"]
            auth = {"Authorization": f"Bearer {seats['imperial']}"}
            legal = c.get(f"/games/{gid}/legal-commands", headers=auth).json()
            r = c.post(f"/games/{gid}/commands", headers=auth,
                       json={"command": legal["commands"][0], "expected_version": legal["version"]})
            assert r.status_code == 201, r.text
        finally:
            redis_server.restart()
        errors = summed([scrape(server.url)], "umpire_redis_errors_total", ("where",))
        assert errors[("limiter",)] >= 1, errors
    finally:
        server.stop()


def test_open_games_per_creator_address_are_capped(tmp_path, redis_server, redis_client):
    env = {**LIMITED, "UMPIRE_LIMIT_CREATE": "100/minute", "UMPIRE_LIMIT_OPEN_GAMES": "2"}
    server = Server(str(tmp_path / "node"), redis_server.url, factory="service.cli:worker_app", env=env).wait()
    try:
        c = client_from(server.url, "127.0.0.6")
        statuses = [_create(c).status_code for _ in range(3)]
        assert statuses == [201, 201, 429], statuses
        r = _create(c)
        assert r.json()["budget"] == "open_games" and int(r.headers["retry-after"]) >= 1
        assert _create(client_from(server.url, "127.0.0.7")).status_code == 201
    finally:
        server.stop()


def test_a_seat_token_has_its_own_command_budget(tmp_path, redis_server, redis_client):
    env = {**LIMITED, "UMPIRE_LIMIT_COMMANDS_SEAT": "4/minute"}
    server = Server(str(tmp_path / "node"), redis_server.url, factory="service.cli:worker_app", env=env).wait()
    try:
        c = client_from(server.url, "127.0.0.8")
        g = _create(c).json()
        gid, seats = g["game_id"], g["seats"]
        statuses = []
        for _ in range(30):
            view = c.get(f"/games/{gid}").json()
            seat = view["to_act"][0]
            auth = {"Authorization": f"Bearer {seats[seat]}"}
            legal = c.get(f"/games/{gid}/legal-commands", headers=auth).json()
            r = c.post(f"/games/{gid}/commands", headers=auth,
                       json={"command": legal["commands"][0], "expected_version": legal["version"]})
            statuses.append((seat, r.status_code))
            if r.status_code == 429:
                assert r.json()["budget"] == "commands_seat" and int(r.headers["retry-after"]) >= 1
                break
        spent = [s for s, code in statuses if code == 201]
        # the seat that spent its 4 commands is refused; nothing else was
        assert statuses[-1][1] == 429 and spent.count(statuses[-1][0]) == 4, statuses
        # the other seat's token has its own budget: refused only if it spent its own 4
        other = next(s for s in seats if s != statuses[-1][0])
        r = c.post(f"/games/{gid}/commands", headers={"Authorization": f"Bearer {seats[other]}"},
                   json={"command": {"type": "end_turn"}, "expected_version": 1})
        assert (r.status_code == 429) == (spent.count(other) >= 4), (statuses, r.text)
        # a token of another game (a seat of its own) is not limited by this one's spending
        g2 = _create(c).json()
        seat2 = next(iter(g2["seats"]))
        r = c.post(f"/games/{g2['game_id']}/commands", headers={"Authorization": f"Bearer {g2['seats'][seat2]}"},
                   json={"command": {"type": "end_turn"}, "expected_version": 1})
        assert r.status_code != 429, r.text
    finally:
        server.stop()


# -- the pure helpers ----------------------------------------------------------------------------------
def test_forwarded_addresses_are_believed_only_from_trusted_proxies():
    scope = {"client": ("10.0.0.5", 1234), "headers": [(b"x-forwarded-for", b"198.51.100.7, 10.0.0.9")]}
    assert ClientAddress()(scope) == "10.0.0.5"  # nothing trusted by default
    assert ClientAddress(("10.0.0.0/24",))(scope) == "198.51.100.7"  # the right-most hop not a proxy
    assert ClientAddress(("10.0.0.5",))(scope) == "10.0.0.9"
    assert ClientAddress(("192.0.2.1",))(scope) == "10.0.0.5"
    assert is_local("127.0.0.1") and is_local("::1") and is_local("testclient") and not is_local("10.0.0.5")
    assert "tok" not in token_key("tok") and len(token_key("tok")) == 24
