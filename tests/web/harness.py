"""A real ``umpire serve`` and the system's Chromium driven by Playwright, for the browser tests
(tests/web) and ops/bench_web.py.

- :class:`UmpireServer`: ``umpire serve`` in a subprocess on a free loopback port with a temp data
  dir (its own private Redis), stopped with its process group.
- :func:`launch`: Debian's ``/usr/bin/chromium`` through ``executable_path`` (Playwright's own
  browser download cannot work here), headless, with the flags below; Playwright gives every
  launch a fresh temporary user-data-dir.
- :func:`guard`: routes every request of a browser context; anything not to 127.0.0.1 is aborted
  and recorded, so a test can assert that no request left the machine.
- :class:`Player`: one seat in one browser page, choosing like a short-game player (attack
  first, structures first; move towards the enemy) from the seat's own legal commands and view
  (read over the API with the seat's token), and doing the choice by clicking the page.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from tests.loopback_server import free_port, start_on_free_port, tail, url_of

CHROMIUM = os.environ.get("UMPIRE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCENARIO = "SCN-TAKE-DOWN-THE-SHIELD"
#: A page's wait for its game (``arg``: a version): the board shows that version or a later one and takes clicks
#: again (no command of its own on the way: ``data-busy`` gone).
AT_VERSION = "v => Number(document.body.dataset.version || 0) >= v && !document.body.dataset.busy"
#: Commands a test game may take before it is called stuck (the short-game policy needs ~20-150).
MAX_COMMANDS = 500


class UmpireServer:
    """``umpire serve`` on 127.0.0.1:<free port> with a fresh data dir."""

    def __init__(self, data_dir: Path | None = None, env: dict[str, str] | None = None,
                 command: list[str] | None = None):
        self.extra_env = dict(env or {})  # e.g. {"UMPIRE_PSEUDO_LOCALE": "1"} for the pseudo-locale test
        self.command = command  # None: ``umpire``; e.g. tests/web/counted_ids.py for reproducible dice
        self._tmp = None if data_dir else tempfile.TemporaryDirectory(prefix="umpire-web-")
        self.data_dir = Path(data_dir or self._tmp.name)
        self.port = free_port()
        self.url = url_of(self.port)
        self.proc: subprocess.Popen | None = None
        self.log = self.data_dir / "serve.log"

    def start(self, timeout: float = 60.0, attempts: int = 3) -> "UmpireServer":
        """Start ``umpire serve`` and wait until this very process answers on its port (started again on a
        new free port when another process took this one first: tests/loopback_server.py)."""
        try:
            self.proc, port = start_on_free_port(self._spawn, self.log, timeout, attempts, port=self.port)
            self._at(port)
            return self
        except BaseException:  # interrupted or failed while starting: no serve is left behind
            self.stop()
            raise

    def _at(self, port: int) -> None:
        self.port = port
        self.url = url_of(port)

    def _spawn(self, port: int) -> subprocess.Popen:
        """``umpire serve`` on ``port``, its output to the log (kept as ``self.proc``, stopped on a failure)."""
        self._at(port)
        exe = Path(sys.executable).with_name("umpire")
        cmd = self.command or ([str(exe)] if exe.exists() else [sys.executable, "-m", "service.cli"])
        env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
        env.update(self.extra_env)
        env["PYTHONFAULTHANDLER"] = "1"  # a crash in native code (SIGSEGV) prints every thread's Python stack to the log
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                cmd + ["serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(self.data_dir / "data")],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env)
        return self.proc

    def log_tail(self, n: int = 3000) -> str:
        """The end of serve's output (stdout and stderr)."""
        return tail(self.log, n)

    def assert_alive(self) -> None:
        """Fail, with the end of serve's output, when the server process is gone."""
        code = None if self.proc is None else self.proc.poll()
        assert self.proc is not None and code is None, f"umpire serve is gone (exit code {code}): {self.log_tail()}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self.proc = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> "UmpireServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@dataclass
class Watch:
    """What the pages of a context did that a test must see: outside requests, console errors."""

    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def page(self, page: Any) -> Any:
        page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text} at {m.location.get('url')}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        return page


def guard(context: Any, watch: Watch) -> Any:
    """Abort (and record) every request of ``context`` that is not to 127.0.0.1."""

    def handle(route: Any) -> None:
        host = urlsplit(route.request.url).hostname
        if host == "127.0.0.1":
            route.continue_()
        else:
            watch.outside.append(route.request.url)
            route.abort("blockedbyclient")

    context.route("**/*", handle)
    return context


# ---- a player -------------------------------------------------------------------------------

def play_random(base: str, ruleset: str, scenario: str, steps: int, seed: int,
                server_seed: str | None = None) -> tuple[str, dict[str, str]]:
    """A game over HTTP with up to ``steps`` commands, each chosen at random (seeded) from the legal commands of
    the first seat to act; ``server_seed`` (hex) fixes the dice too. Returns (game id, seat tokens)."""
    api = httpx.Client(base_url=base, timeout=60)
    body = {"ruleset": ruleset, "scenario": scenario} | ({"seed": server_seed} if server_seed else {})
    r = api.post("/games", json=body)
    assert r.status_code == 201, r.text
    g = r.json()
    gid, seats = g["game_id"], g["seats"]
    rng = random.Random(seed)
    for _ in range(steps):
        v = api.get(f"/games/{gid}").json()
        if v["status"] != "active" or not v["to_act"]:
            break
        seat = v["to_act"][0]
        auth = {"Authorization": f"Bearer {seats[seat]}"}
        legal = api.get(f"/games/{gid}/legal-commands", headers=auth).json()
        if not legal["commands"]:
            break
        r = api.post(f"/games/{gid}/commands", headers=auth,
                     json={"command": rng.choice(legal["commands"]), "expected_version": legal["version"]})
        assert r.status_code == 201, r.text
    return gid, seats


def open_game(page: Any, base: str, gid: str, seats: dict[str, str], seat: str) -> None:
    """``page`` on the game ``gid`` as ``seat`` (this browser holds the game's tokens), started on the game so that
    it speaks the browser's language from its first paint; returns when its picture and latest steps are there."""
    page.goto(f"{base}/#/")
    page.evaluate("(t) => localStorage.setItem('umpire.tokens', JSON.stringify(t))", {gid: seats})
    page.goto(f"{base}/#/game/{gid}?seat={seat}")
    page.reload()
    page.wait_for_selector("#board > svg", state="attached")
    page.wait_for_selector("#h-recent")


def _hexdist(a: list[int], b: list[int]) -> int:
    dx, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + max(0, (dx - dr) // 2)


def choose(view: dict[str, Any], seat: str, cmds: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A short-game policy: attack (structures first, then the weakest unit), order, move towards
    the enemy; decisions take the first option; a card is picked at random."""
    st = view["state"]
    by: dict[str, list[dict[str, Any]]] = {}
    for c in cmds:
        by.setdefault(c["type"], []).append(c)
    structures = {s["id"]: s for s in st.get("structures", [])}
    units = {u["id"]: u for u in st.get("units", [])}
    if "attack" in by:
        def key(c: dict[str, Any]) -> tuple[int, int]:
            if c["target"] in structures:
                return (0, 0)
            u = units.get(c["target"])
            return (1, u["figures"] if u else 9)
        return min((c for c in by["attack"] if not c.get("special")), key=key, default=by["attack"][0])
    if "play_card" in by:
        return rng.choice(by["play_card"])
    if "order_unit" in by:
        return by["order_unit"][0]
    if "move" in by:
        me = seat.split("-")[0]
        foes = [u["hex"] for u in units.values() if u["faction"] != me]
        if me == "imperial":
            foes += [s["hex"] for s in structures.values() if not s.get("destroyed")]
        return min(by["move"], key=lambda c: min((_hexdist(c["path"][-1], f) for f in foes), default=0))
    for t in ("breakthrough", "retreat", "ignore_retreat", "reroll", "pass_support", "skip_attack"):
        if t in by:
            return by[t][0]
    return cmds[0] if len(cmds) == 1 else rng.choice(cmds)


class Player:
    """One seat in one page: reads its legal commands over the API, acts by clicking the page."""

    def __init__(self, page: Any, base: str, game_id: str, seat: str, token: str, seed: int = 1):
        self.page, self.base, self.game_id, self.seat = page, base, game_id, seat
        self.http = httpx.Client(base_url=base, headers={"authorization": f"Bearer {token}"}, timeout=30)
        self.rng = random.Random(seed)

    def close(self) -> None:
        self.http.close()

    def view(self) -> dict[str, Any]:
        return self.http.get(f"/games/{self.game_id}").json()

    def legal(self) -> dict[str, Any]:
        return self.http.get(f"/games/{self.game_id}/legal-commands").json()

    def wait_version(self, version: int, timeout: float = 20_000) -> None:
        self.page.wait_for_function(AT_VERSION, arg=version, timeout=timeout)

    def board(self, selector: str) -> Any:
        return self.page.locator(f"#board {selector}").first

    def click_command(self, cmd: dict[str, Any]) -> None:
        """Do ``cmd`` the way a person would: on the board, on the card, or with its button."""
        t = cmd["type"]
        if t in ("move", "attack", "order_unit"):
            self.board(f'[data-unit="{cmd["unit"]}"]').click()
            if t == "move":
                x, r = cmd["path"][-1]
                self.board(f'polygon[data-hex="{x},{r}"].act-move').click()
            elif t == "attack":
                kind = "structure" if self.page.locator(f'#board [data-structure="{cmd["target"]}"]').count() else "unit"
                self.board(f'[data-{kind}="{cmd["target"]}"].act-attack').click()
                self._choose_if_asked(cmd)
            elif self.page.locator("#selection-bar [data-command]").count():
                # a unit with several order groups is selected first; the bar names each group
                self._click_data_command("#selection-bar", cmd)
        elif t == "play_card":
            self._click_data_command(".hand", cmd)
        elif t == "retreat" and cmd["path"]:
            x, r = cmd["path"][-1]
            self.board(f'polygon[data-hex="{x},{r}"].act-retreat').click()
            self._choose_if_asked(cmd)
        else:
            self._click_data_command("#panel-play .actions", cmd)

    def _choose_if_asked(self, cmd: dict[str, Any]) -> None:
        """Several commands on one target (a normal and a special attack, two retreat paths to one
        hex): the bar asks which one."""
        if "choose one" in (self.page.locator("#selection-bar").text_content() or ""):
            self._click_data_command("#selection-bar", cmd)

    def _click_data_command(self, scope: str, cmd: dict[str, Any]) -> None:
        buttons = self.page.locator(f"{scope} [data-command]")
        for i in range(buttons.count()):
            b = buttons.nth(i)
            if json.loads(b.get_attribute("data-command")) == cmd:
                b.click()
                return
        raise AssertionError(f"no button for {cmd} in {scope}")

    def play_one(self) -> dict[str, Any] | None:
        """Choose and click one command if this seat has one; the page's version after it."""
        legal = self.legal()
        if not legal["commands"]:
            return None
        self.wait_version(legal["version"])
        cmd = choose(self.view(), self.seat, legal["commands"], self.rng)
        self.click_command(cmd)
        self.wait_version(legal["version"] + 1)
        return cmd
