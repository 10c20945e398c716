"""The API tests' server process (tests/service/api_client.Server) and its port: when another server takes the
free port it picked before it could bind it, the start does not take the other server's /health for its own;
it starts again on a new free port (tests/loopback_server.py, shared with the browser tests' harness)."""
from __future__ import annotations

import httpx

from .api_client import Server


def test_a_server_whose_port_was_taken_starts_again_on_its_own(tmp_path, redis_url):
    first = Server(str(tmp_path / "a" / "data"), redis_url).wait()
    second = Server(str(tmp_path / "b" / "data"), redis_url)
    try:
        second.wait()
        taken = first.port
        second.stop()
        # the race, made certain: the second server is started on the port the first one already listens on
        second.proc = second._spawn(taken)
        second.wait()
        assert second.port != taken
        assert second.proc.poll() is None  # this very process runs and answers, not the first one in its place
        assert "address already in use" in second.log.read_text()  # its own attempt on the taken port
        assert httpx.get(second.url + "/health", timeout=10).status_code == 200
        assert f"Uvicorn running on {second.url}" in second.log.read_text()
        second.stop()
        assert second.proc.poll() is not None
        assert httpx.get(first.url + "/health", timeout=10).status_code == 200  # the first one untouched
    finally:
        second.stop()
        first.stop()
