"""Whole Clouds of Smoke games played by two seats, each through its own page, by board interactions only:
the terrain elements, column markers, units and commanders put on the table by dragging their ghosts
inside the zone drawn for them (an illegal pose red with its rule before release, a refused drop snapped
back to the last legal pose), dice put on slots by clicking the die then the slot, formations activated
from their slot, units and commanders dragged, battle markers dragged, and the remaining choices (who goes
first, columns, battles, tactics, hits, retreats) from the table's own choice box with the ruleset's words.
The commands are chosen by the project's greedy bot from the seat's view and legal commands
(bots/smoke); only the way they are done is tested. No generic command control (the "Your legal
commands" list, a template form) may be clicked. Before a choice that needs them, the page shows the
die values and the unit's profile. Debian's Chromium through Playwright, a real ``umpire serve``."""
from __future__ import annotations

import json
import math
import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from bots.smoke import _Field, _score

from .conftest import shot
from .test_emperor_board import GENERIC_SPY
from .test_smoke_board import _screen_of
from .harness import AT_VERSION

PLACED = {"place_terrain", "place_column", "deploy_unit", "deploy_commander", "place_fortification", "place_marker"}
GENERIC_SPY_SMOKE = GENERIC_SPY.replace("#all-commands button,", "#all-commands button, #panel-play .cmd-list button,")


class Table:
    """One game, a page per seat, and what was done on each."""

    def __init__(self, server: Any, contexts: Any, battle: str, game: tuple[str, dict[str, str]] | None = None,
                 **page_kw: Any):
        self.base = server.url
        if game is None:
            g = httpx.post(f"{self.base}/games", json={"ruleset": "smoke", "scenario": battle}).json()
            game = (g["game_id"], g["seats"])
        self.gid, self.seats = game
        self.http = {s: httpx.Client(base_url=self.base, headers={"authorization": f"Bearer {t}"}, timeout=30)
                     for s, t in self.seats.items()}
        self.pages: dict[str, Any] = {}
        for s, t in self.seats.items():
            p = contexts.page(height=1200, **page_kw)  # the whole table in view at 1x: a drag stays on the screen
            p.goto(f"{self.base}/#/game/{self.gid}?token={t}")
            p.evaluate(GENERIC_SPY_SMOKE)
            p.wait_for_selector("#board svg.board-svg")
            self.pages[s] = p
        self.done: list[str] = []
        self.informed: dict[str, int] = {"dice": 0, "profile": 0, "refused_red": 0}
        self.rng = random.Random(5)

    def close(self) -> None:
        for c in self.http.values():
            c.close()

    def view(self, seat: str) -> dict[str, Any]:
        return self.http[seat].get(f"/games/{self.gid}").json()

    def wait(self, seat: str, v: int) -> None:
        self.pages[seat].wait_for_function(AT_VERSION, arg=v, timeout=30_000)

    def version(self) -> int:
        return httpx.get(f"{self.base}/games/{self.gid}").json()["version"]

    # -- the ways of doing things on the table ---------------------------------------------------------
    def drag(self, page: Any, frm: tuple[float, float], to: tuple[float, float], back: bool = False) -> None:
        """Drag from table point ``frm`` to ``to`` (UW); with ``back``, out to ``to`` and back to ``frm``."""
        page.evaluate("window.scrollTo(0, 0)")  # the table in view (a click lower in the panel scrolled it)
        sx, sy = _screen_of(page, *frm)
        page.mouse.move(sx, sy)
        page.mouse.down()
        tx, ty = _screen_of(page, *to)
        page.mouse.move((sx + tx) / 2, (sy + ty) / 2, steps=3)
        page.mouse.move(tx, ty, steps=3)
        if back:
            page.mouse.move(sx, sy, steps=4)
            page.wait_for_selector("#board .smoke-ghost[data-state=ok], #board .smoke-ghost[data-state=bad]")
        page.mouse.up()

    def place(self, seat: str, legal: dict[str, Any], first: bool) -> None:
        """The piece on show (its ghost at the template's legal example) is dragged; the first time of a
        game also to a pose outside its zone, refused in red with the rule before the release, snapped back."""
        page = self.pages[seat]
        ghost = page.locator("#board .smoke-ghost")
        ghost.wait_for()
        gid_ = ghost.get_attribute("data-ghost")
        x0, y0 = float(ghost.get_attribute("data-x")), float(ghost.get_attribute("data-y"))
        page.locator("#board .smoke-zone").wait_for()
        if gid_.startswith("place:unit:"):  # the unit's profile before it is put down
            uid = gid_.split(":", 2)[2]
            st = self.view(seat)["state"]
            prof = st["profiles"][next(u for u in st["reserve"] if u["id"] == uid)["profile"]]
            assert prof["name"] in page.locator("#profile-card").text_content()
            self.informed["profile"] += 1
        page.evaluate("window.scrollTo(0, 0)")
        if first and gid_.startswith(("place:column:", "place:unit:")):  # a zone the pose is not held to
            self.refused_shown = True
            st = self.view(seat)["state"]
            w, hgt = st["battle"]["width"], st["battle"]["height"]
            far = (w / 2, hgt / 2) if abs(y0 - hgt / 2) > 3 else (w / 2, 0.3)
            sx, sy = _screen_of(page, x0, y0)
            page.mouse.move(sx, sy)
            page.mouse.down()
            page.mouse.move(*_screen_of(page, *far), steps=5)
            page.wait_for_selector("#board .smoke-ghost[data-state=bad]", timeout=15_000)
            rule = page.locator("#smoke-verdict").get_attribute("data-rule")
            assert rule and rule.startswith("SMOKE-"), rule
            assert rule in page.locator("#smoke-verdict").text_content()
            self.informed["refused_red"] += 1
            v = self.version()
            page.mouse.up()
            page.locator("#smoke-refused").wait_for()
            g2 = page.locator("#board .smoke-ghost")
            assert abs(float(g2.get_attribute("data-x")) - x0) < 1e-6 and abs(float(g2.get_attribute("data-y")) - y0) < 1e-6
            assert self.version() == v  # nothing stored
            shot(page, f"smoke-place-refused-{gid_.split(':')[1]}")
        if getattr(self, "refused_shown", False) and not getattr(self, "placed_by_keys", False) and gid_.startswith("place:unit:"):
            # keyboard only: the ghost's stand-in takes the focus; the arrow keys move it, Enter places it
            self.placed_by_keys = True
            anchor = page.locator("#board [data-place-anchor]")
            assert "Enter to put it there" in anchor.get_attribute("aria-label")
            anchor.focus()
            page.keyboard.press("ArrowUp")
            page.wait_for_function("y => Math.abs(Number(document.querySelector('#board .smoke-ghost').dataset.y) - y) > 0.2", arg=y0)
            page.keyboard.press("Escape")  # back to the starting pose, the umpire's own example
            page.wait_for_function("y => document.querySelector('#board .smoke-ghost[data-state=ok]') && "
                                   "Number(document.querySelector('#board .smoke-ghost').dataset.y) === y", arg=y0)
            page.locator("#board [data-place-anchor]").focus()
            page.keyboard.press("Enter")
            return
        self.drag(page, (x0, y0), (x0 + 1.5, y0), back=True)

    def by_data(self, page: Any, scope: str, cmd: dict[str, Any]) -> None:
        buttons = page.locator(f"{scope} [data-command]")
        for i in range(buttons.count()):
            if json.loads(buttons.nth(i).get_attribute("data-command")) == cmd:
                buttons.nth(i).click()
                if page.locator(f"{scope} .cmd-confirm:not([hidden]) .confirm-send").count():
                    page.locator(f"{scope} .cmd-confirm:not([hidden]) .confirm-send").first.click()
                return
        raise AssertionError(f"no control for {cmd} in {scope}")

    def place_die(self, seat: str, cmd: dict[str, Any], view: dict[str, Any]) -> None:
        page = self.pages[seat]
        dice = view["state"]["turn"]["actions"]["dice"]
        die = page.locator(f'#action-board .die[data-die="{cmd["die"]}"]')
        assert die.text_content() == str(dice[cmd["die"]])  # the value is on show before the choice
        self.informed["dice"] += 1
        die.click()
        page.locator(f'#action-board li.slot[data-slot="{cmd["slot"]}"] button.place-here').click()

    def move(self, seat: str, cmd: dict[str, Any], view: dict[str, Any], legal: dict[str, Any]) -> None:
        page = self.pages[seat]
        key = "unit" if cmd["type"] == "move" else "commander"
        page.evaluate("window.scrollTo(0, 0)")
        piece = page.locator(f'#board [data-{key}="{cmd[key]}"]')
        x, y = float(piece.get_attribute("data-x")), float(piece.get_attribute("data-y"))
        if cmd["type"] == "ride":
            to = tuple(cmd["to"])
        elif cmd.get("vector"):
            piece.click()  # select, then the complex mode, then drag
            kinds = [t["command"].get("kind") for t in legal["templates"]
                     if t["command"].get("type") == "move" and t["command"].get("unit") == cmd["unit"]]
            if len(kinds) > 1:  # the page offers a button per kind of move
                page.locator(".smoke-bar button.mode", has_text="Complex").click()
            expect(page.locator("#smoke-pose")).to_contain_text("Complex move")
            if len(kinds) == 1:  # a unit with no simple move (heavy artillery: speed 0 straight ahead)
                assert kinds == ["complex"] and page.locator(".smoke-bar button.mode").count() == 0, kinds
            to = (x + cmd["vector"][0], y + cmd["vector"][1])
        else:
            d, f = cmd["distance"], math.radians(cmd["facing"])
            to = (x + d * math.cos(f), y + d * math.sin(f))
        if math.hypot(to[0] - x, to[1] - y) < 0.2:  # a turn on the spot: a drag needs some way, half a UW
            to = (to[0], to[1] + 0.5)
        sx, sy = _screen_of(page, x, y)
        page.mouse.move(sx, sy)
        page.mouse.down()
        page.mouse.move(*_screen_of(page, *to), steps=5)
        try:
            page.wait_for_selector("#board .smoke-ghost[data-state=ok], #board .smoke-ghost[data-state=bad]", timeout=20_000)
        except Exception:
            shot(page, "smoke-game-nomove")
            raise AssertionError(f"no ghost for {cmd} at {(x, y)} -> {to}; scroll {page.evaluate('window.scrollY')}")
        if key == "unit":  # the profile card of the unit being moved, before the release
            st = view["state"]
            prof = st["profiles"][next(u for u in st["units"] if u["id"] == cmd["unit"])["profile"]]
            assert prof["name"] in page.locator("#profile-card").text_content()
            self.informed["profile"] += 1
        page.mouse.up()

    def step(self, first_place: bool) -> str:
        status = httpx.get(f"{self.base}/games/{self.gid}").json()
        seat = (status.get("to_act") or [status.get("active_seat")])[0]
        view = self.view(seat)
        legal = self.http[seat].get(f"/games/{self.gid}/legal-commands").json()
        self.wait(seat, legal["version"])
        page = self.pages[seat]
        f = _Field(view["state"], seat)
        scored = [(_score(f, c)[0], self.rng.random(), i) for i, c in enumerate(legal["commands"])]
        cmd = legal["commands"][max(scored)[2]]
        if any(t["command"]["type"] in PLACED for t in legal.get("templates", [])):
            cmd = {"type": next(t["command"]["type"] for t in legal["templates"] if t["command"]["type"] in PLACED)}
            self.place(seat, legal, first_place)
        elif cmd["type"] == "place_die":
            self.place_die(seat, cmd, view)
        elif cmd["type"] in ("move", "ride"):
            self.move(seat, cmd, view, legal)
        elif cmd["type"] == "activate":
            self.by_data(page, "#action-board", cmd)
        elif cmd["type"] in ("take_risk", "end_placement"):
            self.by_data(page, "#action-board", cmd)
        else:
            self.by_data(page, "#smoke-decisions", cmd)
        try:
            self.wait(seat, legal["version"] + 1)
        except Exception:
            # a drop the umpire refused (a pixel off a legal pose) snaps back; the seat ends the activation
            # (or its actions) from the choice box instead
            if cmd["type"] not in ("move", "ride"):
                shot(page, "smoke-game-stuck")
                raise AssertionError(f"{cmd} not done: {page.locator('.smoke-bar').all_text_contents()}")
            page.keyboard.press("Escape")
            end = next(c for c in legal["commands"] if c["type"] in ("end_activation", "end_actions"))
            self.by_data(page, "#smoke-decisions", end)
            self.wait(seat, legal["version"] + 1)
            cmd = end
        self.done.append(cmd["type"])
        return seat


@pytest.mark.parametrize("battle", ["BTL-OPEN-FIELD", "BTL-CROSSROADS"])
def test_a_whole_smoke_game_by_board_interactions(server, contexts, battle):
    t = Table(server, contexts, battle)
    try:
        first = True
        for n in range(600):
            if httpx.get(f"{t.base}/games/{t.gid}").json()["status"] == "finished":
                break
            before = len(t.done)
            t.step(first)
            if getattr(t, "refused_shown", False):
                first = False
            if n in (5, 60) or (t.done[-1] == "place_marker" and t.done.count("place_marker") == 1):
                for s, p in t.pages.items():
                    shot(p, f"smoke-game-{battle.lower()}-{len(t.done)}-{s}", full_page=True)
            assert len(t.done) == before + 1
        else:
            raise AssertionError("the game did not end")
        final = httpx.get(f"{t.base}/games/{t.gid}").json()
        assert final["status"] == "finished" and final["state"]["result"], final["state"].get("result")
        for s, p in t.pages.items():
            p.wait_for_function("() => document.body.dataset.status === 'finished'", timeout=20_000)
            assert p.evaluate("window.__generic") == [], s  # no generic command control was clicked
            shot(p, f"smoke-game-{battle.lower()}-finished-{s}", full_page=True)
        done = set(t.done)
        assert {"place_die", "activate", "move"} <= done, t.done
        assert t.informed["dice"] >= 1 and t.informed["profile"] >= 1
        if battle == "BTL-OPEN-FIELD":  # terrain generation and deployment by columns, all dragged
            assert {"place_terrain", "place_column", "deploy_unit", "deploy_commander"} <= done, t.done
            assert t.informed["refused_red"] == 1
            assert getattr(t, "placed_by_keys", False)  # one unit deployed with the keyboard only
        else:  # fire contact: battle markers dragged, then the battles fought
            assert "place_marker" in done, t.done
    finally:
        t.close()
    contexts.watch.errors[:] = [e for e in contexts.watch.errors if "422" not in e]
