"""umpire's access log (``service/access_log.py``): the line of every request, a secret query parameter
redacted, written in batches -- within FLUSH_SECONDS, at FLUSH_LINES, and at shutdown -- by a real
server served as ``umpire serve`` serves (``service.cli.run_http``), with uvicorn's own log off."""
from __future__ import annotations

import asyncio
import io
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from service import access_log
from service.access_log import AccessLog

from .api_client import SEED, wait_healthy

ROOT = Path(__file__).resolve().parents[2]


async def _app(scope, receive, send):
    await send({"type": "http.response.start", "status": 404 if scope["path"] == "/missing" else 200,
                "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


def _call(log: AccessLog, path: str, query: bytes = b"", method: str = "GET") -> None:
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": query,
             "http_version": "1.1", "client": ("10.0.0.1", 5555), "headers": []}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        pass

    asyncio.run(log(scope, receive, send))


def test_lines_are_batched_and_redacted(monkeypatch):
    out = io.StringIO()
    log = AccessLog(_app, stream=out)
    monkeypatch.setattr(access_log, "FLUSH_LINES", 3)
    _call(log, "/games/g1/feed", b"token=s3cret&limit=1")
    _call(log, "/missing", method="POST")
    assert out.getvalue() == ""  # waiting in the buffer
    _call(log, "/health")
    lines = out.getvalue().splitlines()
    assert lines == ['INFO:     10.0.0.1:5555 - "GET /games/g1/feed?token=***&limit=1 HTTP/1.1" 200 OK',
                     'INFO:     10.0.0.1:5555 - "POST /missing HTTP/1.1" 404 Not Found',
                     'INFO:     10.0.0.1:5555 - "GET /health HTTP/1.1" 200 OK']
    assert "s3cret" not in out.getvalue()


def test_a_line_is_written_within_the_flush_time_on_a_running_loop():
    out = io.StringIO()
    log = AccessLog(_app, stream=out)

    async def main():
        scope = {"type": "http", "method": "GET", "path": "/x", "query_string": b"", "http_version": "1.1",
                 "client": None, "headers": []}

        async def receive():
            return {"type": "http.request", "body": b""}

        async def send(message):
            pass

        await log(scope, receive, send)
        assert out.getvalue() == ""
        await asyncio.sleep(access_log.FLUSH_SECONDS * 2)
        return out.getvalue()

    assert asyncio.run(main()) == 'INFO:     - - "GET /x HTTP/1.1" 200 OK\n'


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_served_app_logs_its_requests_once_and_at_shutdown(tmp_path):
    port = _port()
    env = dict(os.environ, UMPIRE_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    env.pop("UMPIRE_REDIS_URL", None)
    log_path = tmp_path / "server.log"
    code = f"from service.cli import run_http; run_http('tests.service.api_client:served_toy_app', '127.0.0.1', {port})"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, proc, log=log_path)
        g = httpx.post(base + "/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        token = g["seats"]["north"]
        r = httpx.post(f"{base}/games/{g['game_id']}/commands", json={"command": {"type": "step"}, "expected_version": g["version"]},
                       headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201, r.text
        httpx.get(f"{base}/games/{g['game_id']}", params={"token": token})
        time.sleep(access_log.FLUSH_SECONDS * 4)
        text = log_path.read_text()
        assert f'"POST /games/{g["game_id"]}/commands HTTP/1.1" 201 Created' in text  # within the flush time
        httpx.get(base + "/missing-page")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    text = log_path.read_text()
    assert '"GET /missing-page HTTP/1.1" 404 Not Found' in text  # written at shutdown
    assert text.count(f'"POST /games/{g["game_id"]}/commands HTTP/1.1"') == 1  # one log, not uvicorn's as well
    assert f'/games/{g["game_id"]}?token=*** HTTP/1.1" 200 OK' in text and token not in text


def test_served_apps_log_unless_turned_off_and_switch_threads_sooner(monkeypatch):
    from service.cli import GIL_SWITCH_SECONDS, served

    before = sys.getswitchinterval()
    try:
        monkeypatch.setenv("UMPIRE_ACCESS_LOG", "0")
        assert served(_app) is _app
        monkeypatch.setenv("UMPIRE_ACCESS_LOG", "1")
        assert isinstance(served(_app), AccessLog)
        monkeypatch.delenv("UMPIRE_ACCESS_LOG")
        assert isinstance(served(_app), AccessLog)  # on by default
        assert sys.getswitchinterval() == GIL_SWITCH_SECONDS
    finally:
        sys.setswitchinterval(before)


SPELLINGS = ["token=S3CRET", "%74oken=S3CRET", "to%6Ben=S3CRET", "%54%4F%4B%45%4E=S3CRET", "Token=S3CRET",
             "limit=1&token=x&token=S3CRET", "token=S3CRET&token=S3CRET", "%2574oken=S3CRET", "+token=S3CRET",
             "token+=S3CRET", "?token=S3CRET", "token=S3C%52ET", "token=S3CRET;more", "tok%65n=S3+CRET"]


def test_every_spelling_of_the_token_parameter_is_masked():
    """The name is decoded as the server decodes it (percent-escapes, ``+``), in any case, every time it is
    repeated; the value is masked whole (up to the next ``&``, as the server splits it)."""
    out = io.StringIO()
    log = AccessLog(_app, stream=out)
    for q in SPELLINGS:
        _call(log, "/games/g1/feed", q.encode())
    log.flush()
    text = out.getvalue()
    assert "S3C" not in text and "CRET" not in text, text
    assert text.count("=***") == len(SPELLINGS) + 2  # the repeated ones twice each
    assert "limit=1&token=***&token=***" in text  # other parameters stay


def test_the_log_filter_masks_every_spelling_in_messages_and_arguments():
    import logging

    from service.auth import RedactTokens

    f = RedactTokens()
    for q in SPELLINGS:
        rec = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                                ("1.2.3.4:5", "GET", f"/games/g/feed?{q}", "1.1", 200), None)
        f.filter(rec)
        assert "S3C" not in rec.getMessage(), rec.getMessage()
        rec = logging.LogRecord("x", logging.INFO, __file__, 1, f"GET /games/g/feed?{q} failed", None, None)
        f.filter(rec)
        assert "S3C" not in rec.getMessage(), rec.getMessage()


def test_a_percent_encoded_token_parameter_authenticates_and_is_not_logged(tmp_path):
    """``/feed?%74oken=<token>`` is the seat's token to the server (a wrong one is 401), so it must be masked
    in the access log of a real served app as ``?token=`` is."""
    port = _port()
    env = dict(os.environ, UMPIRE_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    env.pop("UMPIRE_REDIS_URL", None)
    log_path = tmp_path / "server.log"
    code = f"from service.cli import run_http; run_http('tests.service.api_client:served_toy_app', '127.0.0.1', {port})"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, proc, log=log_path)
        g = httpx.post(base + "/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        token, gid = g["seats"]["north"], g["game_id"]
        # the server reads %74oken as token: a wrong value is refused, the seat's is accepted
        assert httpx.get(f"{base}/games/{gid}/feed?%74oken=not-a-token&limit=1").status_code == 401
        with httpx.stream("GET", f"{base}/games/{gid}/feed?%74oken={token}&limit=1", timeout=20) as r:
            assert r.status_code == 200
            r.read()
        for q in (f"TO%6BEN={token}", f"limit=1&token=x&%74oken={token}", f"tok%65n={token}"):
            httpx.get(f"{base}/games/{gid}?{q}")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    text = log_path.read_text()
    assert f'/games/{gid}/feed?%74oken=***&limit=1 HTTP/1.1" 200 OK' in text, text
    assert token not in text


def test_other_secret_looking_parameters_are_masked_and_ordinary_ones_kept():
    from service.auth import redact_query_string

    q = "invite_token=S1&access%5Ftoken=S2&Invite=S3&api_key=S4&after=3&limit=10&receipt=eyJ9&status=active"
    out = redact_query_string(q)
    assert "S1" not in out and "S2" not in out and "S3" not in out and "S4" not in out, out
    assert out.endswith("after=3&limit=10&receipt=eyJ9&status=active")
