"""Concurrent REST clients that remember every acknowledged command.

Each :class:`Client` is a thread playing one seat of one game through the REST
API (``GET /legal-commands``, ``POST /commands`` with a ``command_id``). Two or
more clients share each game, so they race for its version. A client

- retries a command with the *same* ``command_id`` after a connection error, a
  timeout or a 5xx (the outcome is unknown: the server may have stored it
  before it died; the retry then answers the first answer, DESIGN 2 and 8);
- on 409 takes ``current_version`` and posts the same command again;
- records every 201 (an acknowledgement): the command id, the time, and each
  returned event's ``seq`` and ``hash``;
- every few commands reads ``GET /games/{id}`` and counts answers carrying
  ``X-Umpire-Degraded``.
"""
from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

DEGRADED = "x-umpire-degraded"
#: Seconds between retries after a connection error (the server is down).
RETRY_SLEEP_S = 0.05
#: Per-request timeout (a SIGKILLed server resets connections at once; this bounds a stall).
REQUEST_TIMEOUT_S = 10.0
#: A client reads the game view every this many commands.
READ_EVERY = 3


@dataclass(frozen=True)
class Ack:
    game_id: str
    command_id: str
    at: float
    version: int
    events: tuple[tuple[int, str], ...]  # (seq, hash)


@dataclass
class Tally:
    """What the clients saw, thread-safe."""

    acks: list[Ack] = field(default_factory=list)
    sent: dict[str, set[str]] = field(default_factory=dict)  # game_id -> every command_id ever posted
    statuses: Counter[str] = field(default_factory=Counter)
    reads: int = 0
    degraded_reads: list[float] = field(default_factory=list)  # times of degraded answers
    problems: list[str] = field(default_factory=list)  # unexpected answers (kept short)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, key: str) -> None:
        with self.lock:
            self.statuses[key] += 1

    def problem(self, text: str) -> None:
        with self.lock:
            if len(self.problems) < 50:
                self.problems.append(text)


@dataclass(frozen=True)
class Seat:
    game_id: str
    seat: str
    token: str
    #: The game's version when it was created (its game_created header and opening).
    version: int = 0


def create_games(base_url: str, games: int, seats_per_game: int) -> list[Seat]:
    """``games`` new drill games; ``seats_per_game`` seats of each (at most 4)."""
    out: list[Seat] = []
    with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT_S) as c:
        for _ in range(games):
            r = c.post("/games", json={"ruleset": "drill", "scenario": "race"})
            r.raise_for_status()
            body = r.json()
            for seat in list(body["seats"])[:seats_per_game]:
                out.append(Seat(body["game_id"], seat, body["seats"][seat], int(body.get("version", 0))))
    return out


class Client(threading.Thread):
    def __init__(self, name: str, base_url: str, seat: Seat, tally: Tally, stop: threading.Event, seed: int,
                 *, max_commands: int | None = None):
        super().__init__(name=name, daemon=True)
        self.base_url = base_url
        self.seat = seat
        self.tally = tally
        self.stop_event = stop
        self.rng = random.Random(seed)
        self.max_commands = max_commands
        self.done = 0

    def _request(self, c: httpx.Client, method: str, path: str, **kw: Any) -> httpx.Response | None:
        """One request; None after a connection error or timeout (counted)."""
        try:
            return c.request(method, path, **kw)
        except httpx.TimeoutException:
            self.tally.count("timeout")
        except httpx.TransportError:
            self.tally.count("connection error")
        time.sleep(RETRY_SLEEP_S)
        return None

    def _version(self, c: httpx.Client) -> int | None:
        r = self._request(c, "GET", f"/games/{self.seat.game_id}/legal-commands", headers=self.headers)
        if r is None:
            return None
        if r.status_code != 200:
            self.tally.count(f"legal {r.status_code}")
            time.sleep(RETRY_SLEEP_S)
            return None
        return int(r.json()["version"])

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.seat.token}"}

    def run(self) -> None:
        gid = self.seat.game_id
        with self.tally.lock:
            sent = self.tally.sent.setdefault(gid, set())
        with httpx.Client(base_url=self.base_url, timeout=REQUEST_TIMEOUT_S) as c:
            version: int | None = None
            k = 0
            while not self.stop_event.is_set() and (self.max_commands is None or self.done < self.max_commands):
                cid = f"{self.name}-{k}"
                body = {"command": {"type": "tick", "events": self.rng.randint(1, 3)}, "command_id": cid}
                with self.tally.lock:
                    sent.add(cid)
                # Post this command until it is acknowledged (or the drill ends).
                while not self.stop_event.is_set():
                    if version is None:
                        version = self._version(c)
                        if version is None:
                            continue
                    r = self._request(c, "POST", f"/games/{gid}/commands", headers=self.headers,
                                      json={**body, "expected_version": version})
                    if r is None:
                        version = None
                        continue
                    self.tally.count(str(r.status_code))
                    if r.status_code == 201:
                        ans = r.json()
                        ack = Ack(gid, cid, time.monotonic(), int(ans["version"]),
                                  tuple((int(e["seq"]), str(e["hash"])) for e in ans["events"]))
                        with self.tally.lock:
                            self.tally.acks.append(ack)
                        version = ack.version
                        break
                    if r.status_code == 409:
                        cv = _json(r).get("current_version")
                        version = int(cv) if isinstance(cv, int) else None
                        continue
                    if r.status_code >= 500:
                        self._check_problem(r)
                        version = None
                        time.sleep(RETRY_SLEEP_S)
                        continue
                    self.tally.problem(f"POST {cid}: {r.status_code} {r.text[:200]}")
                    version = None
                    time.sleep(RETRY_SLEEP_S)
                else:
                    break
                k += 1
                self.done += 1
                if k % READ_EVERY == 0:
                    self._read(c)

    def _read(self, c: httpx.Client) -> None:
        r = self._request(c, "GET", f"/games/{self.seat.game_id}")
        if r is None:
            return
        with self.tally.lock:
            self.tally.reads += 1
            if r.headers.get(DEGRADED):
                self.tally.degraded_reads.append(time.monotonic())

    def _check_problem(self, r: httpx.Response) -> None:
        """A 5xx must be problem details with a detail and no traceback."""
        ctype = r.headers.get("content-type", "")
        body = _json(r)
        if not ctype.startswith("application/problem+json") or not body.get("detail") or "Traceback" in r.text:
            self.tally.problem(f"5xx not a clean problem: {r.status_code} {ctype} {r.text[:200]}")


def _json(r: httpx.Response) -> dict[str, Any]:
    try:
        v = r.json()
    except ValueError:
        return {}
    return v if isinstance(v, dict) else {}


def start_clients(base_url: str, seats: list[Seat], stop: threading.Event, seed: int = 7,
                  *, max_commands: int | None = None) -> tuple[list[Client], Tally]:
    tally = Tally()
    clients = [Client(f"c{i}", base_url, s, tally, stop, seed + i, max_commands=max_commands)
               for i, s in enumerate(seats)]
    for cl in clients:
        cl.start()
    return clients, tally
