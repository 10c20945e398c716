"""Traces (DESIGN 16): with a tracer provider (here the OpenTelemetry SDK's in-memory exporter), a game command
over real HTTP (uvicorn, the real app, the session's real Redis) makes one server span, continuing the
client's ``traceparent``, with child spans for the decision, the append and the hand-over to the projector;
without one, nothing is wrapped."""
from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest
import uvicorn
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from service import tracing
from service.app import create_app
from service.settings import Settings

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


@pytest.fixture
def traced_server(tmp_path, redis_url):
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.enable(provider)
    try:
        app = create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started
        try:
            yield f"http://127.0.0.1:{port}", exporter
        finally:
            server.should_exit = True
            thread.join(30)
    finally:
        tracing.disable()


def test_a_command_is_one_server_span_with_decide_append_and_hand_over(traced_server):
    url, exporter = traced_server
    with httpx.Client(base_url=url, timeout=60) as c:
        g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD"}).json()
        gid, token = g["game_id"], g["seats"]["imperial"]
        auth = {"Authorization": f"Bearer {token}"}
        legal = c.get(f"/games/{gid}/legal-commands", headers=auth).json()
        exporter.clear()
        r = c.post(f"/games/{gid}/commands", json={"command": legal["commands"][0],
                                                   "expected_version": legal["version"]},
                   headers={**auth, "traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01"})
        assert r.status_code == 201, r.text
    spans = exporter.get_finished_spans()
    servers = [s for s in spans if s.name == "POST /games/{id}/commands"]
    assert len(servers) == 1, [s.name for s in spans]
    server = servers[0]
    assert format(server.context.trace_id, "032x") == TRACE_ID  # the client's trace goes on
    assert format(server.parent.span_id, "016x") == PARENT_ID
    assert server.attributes.get("http.route") == "/games/{id}/commands"
    children = {s.name: s for s in spans if s.parent is not None and s.parent.span_id == server.context.span_id}
    assert {"umpire.decide", "umpire.append", "umpire.hand_over"} <= set(children), [s.name for s in spans]
    for child in children.values():
        assert child.context.trace_id == server.context.trace_id
    # the decision came before the append, the hand-over after it
    assert children["umpire.decide"].end_time <= children["umpire.append"].start_time
    assert children["umpire.append"].end_time <= children["umpire.hand_over"].start_time
    # no token in any span's attributes
    assert not any(token in str(v) for s in spans for v in (s.attributes or {}).values())


def test_without_a_provider_nothing_is_wrapped(monkeypatch):
    for var in (tracing.ENV_ENDPOINT, *tracing.STANDARD):
        monkeypatch.delenv(var, raising=False)
    assert not tracing.configured()
    assert tracing.setup_from_env() is False

    def app(scope, receive, send):  # pragma: no cover - never called
        raise AssertionError

    assert tracing.asgi(app) is app
