"""A live feed that disconnects frees what it held (issue 26): the real app under a real uvicorn in this process,
feeds opened over real sockets and then cut by their clients; once the hub has let them go, the objects the
server made for them (the hub's subscriptions, the SSE responses, uvicorn's request cycles) are gone, and the
number of objects the garbage collector tracks is back where it was."""
from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections import Counter

import httpx
from litestar.response.sse import ServerSentEvent
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

from service.app import create_app
from service.feed_hub import Subscription
from service.settings import Settings

from .api_client import SEED
from .test_feed_push import InProcessServer
from .toy_ruleset import register

#: Feeds opened (and cut) per round.
FEEDS = 150
#: Objects a round may leave behind in all (caches that fill once: SQLite statements, the thread pool's
#: workers, interned strings); an open feed holds ~190.
SLACK = 1_000


async def _open_and_cut(port: int, paths: list[str], opened: threading.Event, cut: threading.Event) -> None:
    """One raw HTTP/1.1 connection per path, its answer's head read; then every connection closed."""
    writers = []
    for path in paths:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        assert b" 200 " in head.split(b"\r\n", 1)[0], head[:200]
        writers.append(writer)
    opened.set()
    while not cut.is_set():
        await asyncio.sleep(0.05)
    for writer in writers:
        writer.close()
    await asyncio.gather(*(w.wait_closed() for w in writers), return_exceptions=True)


def _live() -> tuple[int, Counter[str]]:
    """After a full collection: the objects tracked, and the live feed objects by kind."""
    gc.collect()
    objs = gc.get_objects()
    kinds = Counter(type(o).__name__ for o in objs
                    if isinstance(o, (Subscription, ServerSentEvent, RequestResponseCycle)))
    return len(objs), kinds


def _round(srv: InProcessServer, hub, paths: list[str]) -> Counter[str]:
    """Open the feeds, check they are open, cut them, wait until the hub has none; the live feed objects
    while they were open."""
    opened, cut = threading.Event(), threading.Event()
    port = int(srv.url.rsplit(":", 1)[1])
    th = threading.Thread(target=asyncio.run, args=(_open_and_cut(port, paths, opened, cut),), daemon=True)
    th.start()
    try:
        assert opened.wait(60), "the feeds did not open"
        deadline = time.monotonic() + 30
        while hub.subscribers < len(paths):
            assert time.monotonic() < deadline, f"{hub.subscribers} of {len(paths)} feeds registered"
            time.sleep(0.05)
        _, while_open = _live()
    finally:
        cut.set()
        th.join(30)
    deadline = time.monotonic() + 30
    while hub.subscribers or hub._games:  # noqa: SLF001 - the hub's per-game state is let go too
        assert time.monotonic() < deadline, f"{hub.subscribers} feeds still registered after their clients left"
        time.sleep(0.05)
    time.sleep(0.3)  # the requests' last steps (their tasks end after the hub let the feeds go)
    return while_open


def test_feeds_cut_by_their_clients_free_what_they_held(tmp_path):
    register()
    data = str(tmp_path / "data")
    app = create_app(Settings(data_dir=data))
    hub = app.state.games.feeds
    with InProcessServer(app) as srv, httpx.Client(base_url=srv.url, timeout=60) as c:
        games = [c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()["game_id"]
                 for _ in range(3)]
        paths = [f"/games/{games[i % len(games)]}/feed" for i in range(FEEDS)]
        _round(srv, hub, paths)  # warm-up: the caches a first round fills
        before, kinds_before = _live()
        while_open = _round(srv, hub, paths)
        after, kinds_after = _live()
    # while open, the server held one of each per feed (the count is not vacuous) ...
    assert while_open["Subscription"] == FEEDS, while_open
    assert while_open["RequestResponseCycle"] >= FEEDS, while_open
    # ... and once the clients left, none of them, and the tracked objects back where they were
    assert kinds_after["Subscription"] == 0 and kinds_after["RequestResponseCycle"] <= kinds_before["RequestResponseCycle"], \
        kinds_after
    assert sum(kinds_after.values()) <= sum(kinds_before.values()), (kinds_before, kinds_after)
    assert after - before <= SLACK, f"{after - before} more objects tracked after {FEEDS} feeds came and went"
