"""A scripted game of each ruleset over HTTP, counting on the client's side what the server's ``/metrics``
must then show (commands by ruleset, type and outcome; one dry run; one undo), and a scrape reader."""
from __future__ import annotations

import itertools
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
SEED = "00" * 31 + "07"
GAMES = {"hoth": "SCN-TAKE-DOWN-THE-SHIELD", "smoke": "BTL-CROSSROADS", "emperor": "SETUP-WARDEN-VS-VESPER"}
#: Commands of each scripted game (then one dry run and one undo).
STEPS = 8


class Tally:
    """What the client saw: commands by (ruleset, type, outcome, rule), dry runs, undo events."""

    def __init__(self) -> None:
        self.commands: Counter[tuple[str, str, str, str]] = Counter()
        self.dry_runs: Counter[tuple[str, str]] = Counter()
        self.undo_events: Counter[tuple[str, str]] = Counter()
        self.games = 0

    def answer(self, ruleset: str, kind: str, r: httpx.Response) -> None:
        if r.status_code in (200, 201, 202):
            self.commands[(ruleset, kind, "accepted", "")] += 1
            for ev in r.json().get("events", ()):
                if ev["type"] in ("undo_requested", "undone", "undo_declined", "undo_lapsed"):
                    self.undo_events[(ruleset, ev["type"])] += 1
        else:
            body = r.json()
            self.commands[(ruleset, kind, "refused", body.get("rule") or body["type"].rsplit(":", 1)[-1])] += 1


def _choose(legal: dict[str, Any]) -> dict[str, Any]:
    """The first legal command (kernel commands first, as the service lists them), else the first template's
    example (every template has one)."""
    if legal["commands"]:
        return legal["commands"][0]
    templates = legal.get("templates") or []
    assert templates, f"nothing to play: {legal}"
    assert all(t["example"] is not None for t in templates), templates
    return templates[0]["example"]


def play(urls: list[str], tally: Tally) -> None:
    """One scripted game of each ruleset; each request goes to the next of ``urls`` (several nodes)."""
    nodes = itertools.cycle([httpx.Client(base_url=u, timeout=60) for u in urls])
    for ruleset, scenario in GAMES.items():
        r = next(nodes).post("/games", json={"ruleset": ruleset, "scenario": scenario, "seed": SEED})
        assert r.status_code == 201, r.text
        tally.games += 1
        gid, seats = r.json()["game_id"], r.json()["seats"]
        last: tuple[str, int] | None = None
        for _ in range(STEPS):
            view = next(nodes).get(f"/games/{gid}").json()
            seat = view["to_act"][0]
            auth = {"Authorization": f"Bearer {seats[seat]}"}
            legal = next(nodes).get(f"/games/{gid}/legal-commands", headers=auth).json()
            command = _choose(legal)
            r = next(nodes).post(f"/games/{gid}/commands", headers=auth,
                                 json={"command": command, "expected_version": legal["version"]})
            tally.answer(ruleset, command["type"], r)
            assert r.status_code == 201, r.text
            last = (seat, legal["version"])
        # one dry run of the next command
        view = next(nodes).get(f"/games/{gid}").json()
        seat = view["to_act"][0]
        auth = {"Authorization": f"Bearer {seats[seat]}"}
        legal = next(nodes).get(f"/games/{gid}/legal-commands", headers=auth).json()
        r = next(nodes).post(f"/games/{gid}/commands", params={"dry_run": "true"}, headers=auth,
                             json={"command": _choose(legal), "expected_version": legal["version"]})
        assert r.status_code == 200, r.text
        tally.dry_runs[(ruleset, "legal")] += 1
        # one undo: the last command's seat takes it back (free, or a request when it drew)
        assert last is not None
        r = next(nodes).post(f"/games/{gid}/undo", json={"to_version": last[1]},
                             headers={"Authorization": f"Bearer {seats[last[0]]}"})
        assert r.status_code in (201, 202, 422), r.text
        tally.answer(ruleset, "undo", r)


def scrape(url: str) -> dict[str, list[tuple[dict[str, str], float]]]:
    """``GET /metrics`` parsed: sample name -> [(labels, value)]."""
    r = httpx.get(url + "/metrics", timeout=30)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain"), r.text[:300]
    out: dict[str, list[tuple[dict[str, str], float]]] = {}
    for fam in text_string_to_metric_families(r.text):
        for s in fam.samples:
            out.setdefault(s.name, []).append((dict(s.labels), s.value))
    return out


def summed(scrapes: list[dict[str, Any]], name: str, keys: tuple[str, ...]) -> Counter[tuple[str, ...]]:
    """The samples ``name`` of every scrape summed by the labels ``keys`` (zeros left out)."""
    out: Counter[tuple[str, ...]] = Counter()
    for sc in scrapes:
        for labels, value in sc.get(name, ()):
            if value:
                out[tuple(labels.get(k, "") for k in keys)] += int(value)
    return out


def assert_counts(scrapes: list[dict[str, Any]], tally: Tally) -> None:
    """The scrapes (of every node) show exactly what the client did."""
    commands = summed(scrapes, "umpire_commands_total", ("ruleset", "command", "outcome", "rule"))
    assert commands == tally.commands, (commands, tally.commands)
    for ruleset in GAMES:  # one undo per game
        assert sum(n for (rs, kind, *_), n in commands.items() if rs == ruleset and kind == "undo") == 1
    assert summed(scrapes, "umpire_dry_runs_total", ("ruleset", "outcome")) == tally.dry_runs
    assert summed(scrapes, "umpire_undo_events_total", ("ruleset", "event")) == tally.undo_events
    assert sum(tally.undo_events.values()) >= 1, tally.commands  # an undo was done or requested (others refused)
    timed = summed(scrapes, "umpire_command_seconds_count", ("ruleset",))
    assert timed == Counter({(rs,): n for rs in GAMES
                             for n in [sum(v for k, v in tally.commands.items() if k[0] == rs)]})
    accepted = sum(n for k, n in tally.commands.items() if k[2] == "accepted")
    # every accepted command (and each game's creation) was one write of a group commit
    assert sum(summed(scrapes, "umpire_commit_group_size_sum", ()).values()) >= accepted + tally.games
    assert sum(summed(scrapes, "umpire_append_seconds_count", ()).values()) == accepted
    games = summed(scrapes[:1], "umpire_games", ("status",))
    assert sum(games.values()) >= tally.games
    created = summed(scrapes, "umpire_http_requests_total", ("method", "route", "status"))
    assert created[("POST", "/games", "201")] == tally.games


# -- `umpire serve` as a subprocess ----------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Serve:
    """``umpire serve`` (its workers, its projector process) on a free port, its log in a file."""

    def __init__(self, data: Path, *, workers: int = 1, env: dict[str, str] | None = None):
        data.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        full = {k: v for k, v in os.environ.items() if not k.startswith(("UMPIRE_", "PROMETHEUS_", "OTEL_"))}
        full["PYTHONPATH"] = str(ROOT) + os.pathsep + full.get("PYTHONPATH", "")
        full.update(env or {})
        self.log = data.parent / f"serve-{data.name}-{secrets.token_hex(3)}.log"
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "service.cli", "serve", "--port", str(self.port), "--data-dir", str(data),
                 "--workers", str(workers)], cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)

    def wait(self, timeout: float = 90.0) -> Serve:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"umpire serve exited {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"umpire serve did not answer: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


__all__ = ["GAMES", "Serve", "Tally", "assert_counts", "free_port", "play", "scrape", "summed"]
