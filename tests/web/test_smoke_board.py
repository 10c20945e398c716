"""Clouds of Smoke on the web board (issue 14): a unit of the acting seat is dragged with the mouse
on the server's own picture, every pose is checked live with the dry run (red with the refused rule,
nothing stored; green with the ruling), release posts the real command, and the other seat's page
sees it from the feed; a rotation changes the facing the dry run is asked about. One real game over
REST against a real ``umpire serve``, Debian's Chromium through Playwright."""
from __future__ import annotations

import json
import math
import re
from typing import Any

import httpx
from playwright.sync_api import expect

from .conftest import shot
from .harness import AT_VERSION

BATTLE = "BTL-CROSSROADS"
SEED = "3c" * 32  # the server seed: the same dice, so the same activated unit, every run


def _to_first_move(base: str, gid: str, clients: dict[str, httpx.Client]) -> tuple[str, dict[str, Any]]:
    """Play over REST (dice on action A1, then activate) until a seat is offered a move template."""
    for _ in range(40):
        view = httpx.get(f"{base}/games/{gid}").json()
        seat = (view.get("to_act") or [view["active_seat"]])[0]
        legal = clients[seat].get(f"/games/{gid}/legal-commands").json()
        if any(t["command"].get("type") == "move" for t in legal.get("templates", [])):
            return seat, legal
        cmds = legal["commands"]
        pick = next((c for c in cmds if c["type"] == "place_die" and c["slot"] == "A1"), None) or next(
            (c for c in cmds if c["type"] in ("end_placement", "activate")), cmds[0])
        r = clients[seat].post(f"/games/{gid}/commands", json={"command": pick, "expected_version": legal["version"]})
        assert r.status_code == 201, r.text
    raise AssertionError("no move was offered")


def _screen_of(page: Any, x: float, y: float) -> tuple[float, float]:
    """The page coordinates of table point (x, y) UW, from the picture's own transform."""
    return tuple(page.evaluate("""([x, y]) => {
        const svg = document.querySelector('#board svg.board-svg');
        const px = parseFloat(svg.dataset.pxPerUw);
        const [ox, oy] = svg.dataset.origin.split(' ').map(Number);
        const p = new DOMPoint(ox + x * px, oy - y * px).matrixTransform(svg.getScreenCTM());
        return [p.x, p.y];
    }""", [x, y]))


def _ghost_state(page: Any, want: str) -> None:
    page.wait_for_selector(f"#board .smoke-ghost[data-state={want}]", timeout=15_000)


def _next_facing(page: Any, seen: list[dict[str, Any]], before: float) -> float:
    """The facing of the first dry run asked after ``before`` (waits for the debounced request)."""
    for _ in range(100):
        if seen and seen[-1].get("facing") is not None and abs(seen[-1]["facing"] - before) > 0.05:
            return seen[-1]["facing"]
        page.wait_for_timeout(50)
    raise AssertionError(f"no dry run with a new facing (last: {seen[-1:]})")


def test_drag_and_rotate_a_unit_with_a_live_dry_run(server, contexts):
    base = server.url
    g = httpx.post(f"{base}/games", json={"ruleset": "smoke", "scenario": BATTLE, "seed": SEED}).json()
    gid, seats = g["game_id"], g["seats"]
    clients = {s: httpx.Client(base_url=base, headers={"authorization": f"Bearer {t}"}, timeout=30) for s, t in seats.items()}
    try:
        seat, legal = _to_first_move(base, gid, clients)
        other = next(s for s in seats if s != seat)
        tpl = next(t for t in legal["templates"] if t["command"].get("type") == "move" and t["command"]["kind"] == "simple")
        uid = tpl["command"]["unit"]
        v0 = legal["version"]

        pages = {}
        for s in (seat, other):
            p = contexts.page()
            p.goto(f"{base}/#/game/{gid}?token={seats[s]}")
            p.wait_for_function(AT_VERSION, arg=v0)
            pages[s] = p
        page = pages[seat]
        dry: list[dict[str, Any]] = []
        page.on("request", lambda r: dry.append(json.loads(r.post_data)["command"]) if "dry_run=true" in r.url else None)

        # the unit on the picture: selectable, with its pose in UW
        unit = page.locator(f'#board [data-unit="{uid}"]')
        unit.wait_for()
        assert "act-drag" in (unit.get_attribute("class") or "")
        x0, y0, f0 = (float(unit.get_attribute(a)) for a in ("data-x", "data-y", "data-facing"))
        # the keyboard fallback: the template's form, its fields filled from the template's example
        form = page.locator("form.template").first
        ex = legal["templates"][0]["example"]
        assert form.locator("input#tpl-0-facing").input_value() == f"{ex['facing']:g}"
        assert form.locator("input#tpl-0-distance").input_value() == f"{ex['distance']:g}"
        # the other seat has nothing to drag
        assert pages[other].locator("#board .act-drag").count() == 0

        # drag straight ahead, further than the rule allows: the pose is held to the template's bound
        # (SMOKE-MOVE-3: the speed; SMOKE-TERR-6: the road bonus only from a road), so the dry run
        # is asked about the bound itself, never about a distance the form already knows is refused
        speed = tpl["bounds"]["distance"]["speed"]
        top = tpl["bounds"]["distance"]["max"]
        far = top + 1.0
        sx, sy = _screen_of(page, x0, y0)
        page.mouse.move(sx, sy)
        page.mouse.down()
        fx, fy = _screen_of(page, x0 + far * math.cos(math.radians(f0)), y0 + far * math.sin(math.radians(f0)))
        page.mouse.move((sx + fx) / 2, (sy + fy) / 2, steps=4)
        page.mouse.move(fx, fy, steps=4)
        page.wait_for_selector("#board .smoke-ghost[data-state=ok], #board .smoke-ghost[data-state=bad]", timeout=15_000)
        for _ in range(100):  # the debounced dry run of the last pose
            if dry and abs(dry[-1].get("distance", -1) - top) < 0.05:
                break
            page.wait_for_timeout(50)
        verdict = page.locator("#smoke-verdict")
        asked = dry[-1]
        assert asked["type"] == "move" and asked["unit"] == uid and asked["kind"] == "simple"
        assert abs(asked["distance"] - top) < 0.05 and abs(asked["facing"] - f0) < 0.5, asked
        # the page shows what the umpire says for that very command (legal, or the rule that refuses it)
        want = clients[seat].post(f"/games/{gid}/commands?dry_run=true", json={"command": asked, "expected_version": v0})
        if want.status_code == 422:
            _ghost_state(page, "bad")
            problem = want.json()
            assert verdict.get_attribute("data-rule") == problem["rule"]
            assert problem["rule"] in verdict.text_content() and problem["detail"] in verdict.text_content()
        else:
            assert want.status_code == 200, want.text
            _ghost_state(page, "ok")
        shot(page, "smoke-drag-refused")
        assert httpx.get(f"{base}/games/{gid}").json()["version"] == v0  # nothing stored

        # then half its speed: green with the ruling's summary; release: the move is stored
        near = speed / 2
        nx, ny = _screen_of(page, x0 + near * math.cos(math.radians(f0)), y0 + near * math.sin(math.radians(f0)))
        page.mouse.move(nx, ny, steps=4)
        _ghost_state(page, "ok")
        assert verdict.text_content().startswith("Legal:") and "SMOKE-MOVE-3" in verdict.text_content()
        assert abs(dry[-1]["distance"] - near) < 0.05
        shot(page, "smoke-drag-legal")
        page.mouse.up()
        for s in (seat, other):  # both pages, the other one from the feed
            pages[s].wait_for_function("v => Number(document.body.dataset.version) > v", arg=v0, timeout=20_000)
        stored = clients[seat].get(f"/games/{gid}/events", params={"after": v0}).json()["events"]
        moved = stored[0]
        assert moved["type"] == "unit_moved" and moved["actor"] == seat, moved
        assert moved["payload"]["unit"] == uid and moved["payload"]["kind"] == "simple"
        assert abs(moved["payload"]["distance"] - near) < 0.05
        x1, y1 = moved["payload"]["end"][:2]
        other_unit = pages[other].locator(f'#board [data-unit="{uid}"]')
        pages[other].wait_for_function("([id, y]) => Math.abs(Number(document.querySelector(`#board [data-unit=\"${id}\"]`)"
                                       ".dataset.y) - y) < 0.01", arg=[uid, y1])
        assert abs(float(other_unit.get_attribute("data-x")) - x1) < 0.01
        shot(pages[other], "smoke-other-seat-live")

        # rotation: another unit of the activation (or the next one offered), turned with ] and the wheel
        seat2, legal2 = _to_first_move(base, gid, clients)
        page2 = pages[seat2]
        page2.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=legal2["version"])
        tpl2 = next(t for t in legal2["templates"] if t["command"].get("type") == "move")
        u2 = page2.locator(f'#board [data-unit="{tpl2["command"]["unit"]}"]')
        seen: list[dict[str, Any]] = []
        page2.on("request", lambda r: seen.append(json.loads(r.post_data)["command"]) if "dry_run=true" in r.url else None)
        u2.focus()
        page2.keyboard.press("Enter")  # select with the keyboard: the ghost at the unit's own pose
        page2.wait_for_selector("#board .smoke-ghost[data-state=ok], #board .smoke-ghost[data-state=bad]")
        before = seen[-1]["facing"]
        page2.keyboard.press("]")  # turn clockwise by ROTATE_STEP (5 degrees)
        after = _next_facing(page2, seen, before)
        assert abs(((after - before + 540) % 360) - 180 - (-5)) < 0.2, (before, after)
        u2.scroll_into_view_if_needed()
        b = u2.bounding_box()
        page2.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
        page2.mouse.wheel(0, 100)  # one notch: counter-clockwise by 5 degrees
        again = _next_facing(page2, seen, after)
        assert abs(((again - after + 540) % 360) - 180 - 5) < 0.2, (after, again)
        # the round handle: dragged a quarter turn round the ghost, the facing follows the pointer
        ux2, uy2 = float(u2.get_attribute("data-x")), float(u2.get_attribute("data-y"))
        hb = page2.locator("#board .smoke-ghost [data-handle=rotate]").bounding_box()
        page2.mouse.move(hb["x"] + hb["width"] / 2, hb["y"] + hb["height"] / 2)
        page2.mouse.down()
        want = (again + 90) % 360
        page2.mouse.move(*_screen_of(page2, ux2 + 2 * math.cos(math.radians(want)), uy2 + 2 * math.sin(math.radians(want))), steps=5)
        turned = _next_facing(page2, seen, again)
        page2.mouse.up()  # releasing the handle posts nothing
        page2.wait_for_timeout(300)
        assert abs(((seen[-1]["facing"] - want + 540) % 360) - 180) < 1.0, (turned, seen[-1], want)
        assert httpx.get(f"{base}/games/{gid}").json()["version"] == legal2["version"]  # dry runs store nothing
        shot(page2, "smoke-rotated", full_page=True)

        # at 375 px the picture stays legible: it fills the frame and scrolls inside it
        phone = contexts.page(width=375, height=800)
        phone.goto(f"{base}/#/game/{gid}?token={seats[seat2]}")
        svg = phone.locator("#board svg.board-svg")
        svg.wait_for()
        assert phone.locator(f'#board [data-unit="{tpl2["command"]["unit"]}"].act-drag').count() == 1
        assert phone.locator("#board").get_attribute("data-zoom") == "3"  # smoke's phone zoom
        # a unit's label is drawn at least 8 px high (the picture scrolls sideways inside its frame)
        label_px = phone.evaluate("""id => document.querySelector(`#board [data-unit="${id}"] text`)
            .getBoundingClientRect().height""", tpl2["command"]["unit"])
        assert label_px >= 8, label_px
        assert phone.evaluate("document.documentElement.scrollWidth") <= 380  # the page itself does not scroll sideways
        shot(phone, "smoke-phone")

        # keyboard only: the arrow keys move the selected ghost (a simple move faces the way it goes),
        # Enter checks the pose and posts it
        v2 = legal2["version"]
        u2.focus()
        for _ in range(4):
            page2.keyboard.press("ArrowUp")  # 4 x NUDGE = 1 UW north
        page2.wait_for_function("() => /1\\.00 UW/.test(document.querySelector('#smoke-pose').textContent)")
        _ghost_state(page2, "ok")
        page2.keyboard.press("Enter")
        page2.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v2, timeout=20_000)
        ev = clients[seat2].get(f"/games/{gid}/events", params={"after": v2}).json()["events"][0]
        assert ev["type"] == "unit_moved" and ev["payload"]["unit"] == tpl2["command"]["unit"], ev
        assert abs(ev["payload"]["end"][1] - ev["payload"]["start"][1] - 1.0) < 0.01, ev["payload"]
    finally:
        for c in clients.values():
            c.close()
    # a refused dry run is a 422 answer: the browser's console reports that response, nothing else
    contexts.watch.errors[:] = [e for e in contexts.watch.errors if "422" not in e]


def test_a_commander_rides_by_dragging_within_its_reach(server, contexts):
    """A ride template (SMOKE-CMD-2): the commander's disc is dragged; a pose beyond the die's reach
    is clamped to the template's bound; a ride ending on a unit is refused; a free spot is posted."""
    base = server.url
    g = httpx.post(f"{base}/games", json={"ruleset": "smoke", "scenario": BATTLE, "seed": SEED}).json()
    gid, seats = g["game_id"], g["seats"]
    clients = {s: httpx.Client(base_url=base, headers={"authorization": f"Bearer {t}"}, timeout=30) for s, t in seats.items()}
    try:
        for _ in range(10):  # every action die on Ride (A2)
            view = httpx.get(f"{base}/games/{gid}").json()
            seat = (view.get("to_act") or [view["active_seat"]])[0]
            legal = clients[seat].get(f"/games/{gid}/legal-commands").json()
            if any(t["command"].get("type") == "ride" for t in legal["templates"]):
                break
            pick = next((c for c in legal["commands"] if c["type"] == "place_die" and c["slot"] == "A2"), None) or next(
                c for c in legal["commands"] if c["type"] == "end_placement")
            assert clients[seat].post(f"/games/{gid}/commands", json={"command": pick, "expected_version": legal["version"]}).status_code == 201
        tpl = next(t for t in legal["templates"] if t["command"].get("type") == "ride")
        # the board starts with the commander's first template (its first die)
        cid, reach, (cx, cy) = tpl["command"]["commander"], tpl["bounds"]["to"]["max_distance"], tpl["bounds"]["to"]["center"]
        v0 = legal["version"]
        page = contexts.page()
        page.goto(f"{base}/#/game/{gid}?token={seats[seat]}")
        page.wait_for_function(AT_VERSION, arg=v0)
        dry: list[dict[str, Any]] = []
        page.on("request", lambda r: dry.append(json.loads(r.post_data)["command"]) if "dry_run=true" in r.url else None)
        disc = page.locator(f'#board [data-commander="{cid}"].act-drag')
        disc.wait_for()
        sx, sy = _screen_of(page, cx, cy)
        page.mouse.move(sx, sy)
        page.mouse.down()
        # far beyond the reach, straight north: the pose is clamped to the template's max_distance
        fx, fy = _screen_of(page, cx, cy + reach + 5)
        page.mouse.move(fx, fy, steps=6)
        page.wait_for_selector("#board .smoke-ghost[data-state=ok], #board .smoke-ghost[data-state=bad]")
        first = next(t for t in legal["templates"] if t["command"].get("commander") == cid)
        r0 = first["bounds"]["to"]["max_distance"]
        assert math.hypot(dry[-1]["to"][0] - cx, dry[-1]["to"][1] - cy) <= r0 + 0.01, dry[-1]
        # onto one of the seat's own units: refused with the rule
        target = min((u for u in page.locator(f'#board [data-unit][data-seat="{seat}"]').all()),
                     key=lambda u: math.hypot(float(u.get_attribute("data-x")) - cx, float(u.get_attribute("data-y")) - cy))
        ux, uy = float(target.get_attribute("data-x")), float(target.get_attribute("data-y"))
        assert math.hypot(ux - cx, uy - cy) < r0, "a unit within reach"
        page.mouse.move(*_screen_of(page, ux, uy), steps=4)
        _ghost_state(page, "bad")
        assert page.locator("#smoke-verdict").get_attribute("data-rule") == "SMOKE-CMD-2"
        assert "may not end its movement on a unit" in page.locator("#smoke-verdict").text_content()
        # halfway there, off the unit: legal; release posts it
        hx, hy = cx + (ux - cx) * 0.4, cy + (uy - cy) * 0.4
        page.mouse.move(*_screen_of(page, hx, hy), steps=4)
        _ghost_state(page, "ok")
        shot(page, "smoke-ride")
        page.mouse.up()
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v0, timeout=20_000)
        ev = clients[seat].get(f"/games/{gid}/events", params={"after": v0}).json()["events"][0]
        assert ev["actor"] == seat and ev["payload"].get("commander") == cid, ev
        assert math.hypot(ev["payload"]["end"][0] - hx, ev["payload"]["end"][1] - hy) < 0.05, ev["payload"]
    finally:
        for c in clients.values():
            c.close()
    contexts.watch.errors[:] = [e for e in contexts.watch.errors if "422" not in e]


GUN = "P1-12"  # Crossroads' heavy artillery: speed 0 straight ahead, 1 UW sideways or back


def test_a_unit_with_one_kind_of_move_is_selected_in_that_mode(server, contexts):
    """Heavy artillery has no simple move (speed 0, SMOKE-MOVE-3), only the complex one (SMOKE-MOVE-4): the
    page offers no choice of kind, the selected gun is in the complex mode at once, and a drag posts a
    complex move. (The whole-game test waited for a "Complex" button that such a unit never has.)"""
    base = server.url
    g = httpx.post(f"{base}/games", json={"ruleset": "smoke", "scenario": BATTLE, "seed": SEED}).json()
    gid, seats = g["game_id"], g["seats"]
    clients = {s: httpx.Client(base_url=base, headers={"authorization": f"Bearer {t}"}, timeout=30) for s, t in seats.items()}
    try:
        for _ in range(40):  # dice placed, then the gun's formation activated
            view = httpx.get(f"{base}/games/{gid}").json()
            seat = (view.get("to_act") or [view["active_seat"]])[0]
            legal = clients[seat].get(f"/games/{gid}/legal-commands").json()
            tpls = [t for t in legal["templates"] if t["command"].get("type") == "move" and t["command"].get("unit") == GUN]
            if tpls:
                break
            cmds = legal["commands"]
            pick = next((c for c in cmds if c["type"] == "activate" and c.get("unit") == GUN), None) or next(
                (c for c in cmds if c["type"] == "place_die"), None) or next(c for c in cmds if c["type"] == "end_placement")
            r = clients[seat].post(f"/games/{gid}/commands", json={"command": pick, "expected_version": legal["version"]})
            assert r.status_code == 201, r.text
        else:
            raise AssertionError(f"{GUN} was never offered a move")
        assert [t["command"]["kind"] for t in tpls] == ["complex"], tpls
        vx, vy = tpls[0]["example"]["vector"]
        assert math.hypot(vx, vy) > 0.2, tpls[0]["example"]
        v0 = legal["version"]
        page = contexts.page()
        page.goto(f"{base}/#/game/{gid}?token={seats[seat]}")
        page.wait_for_function(AT_VERSION, arg=v0)
        gun = page.locator(f'#board [data-unit="{GUN}"]')
        gun.click()
        expect(page.locator("#smoke-pose")).to_contain_text("Complex move")
        assert page.locator(".smoke-bar button.mode").count() == 0
        x, y = float(gun.get_attribute("data-x")), float(gun.get_attribute("data-y"))
        page.mouse.move(*_screen_of(page, x, y))
        page.mouse.down()
        page.mouse.move(*_screen_of(page, x + vx, y + vy), steps=5)
        _ghost_state(page, "ok")
        page.mouse.up()
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v0, timeout=20_000)
        ev = clients[seat].get(f"/games/{gid}/events", params={"after": v0}).json()["events"][0]
        assert ev["type"] == "unit_moved" and ev["payload"]["unit"] == GUN and ev["payload"]["kind"] == "complex", ev
    finally:
        for c in clients.values():
            c.close()
    contexts.watch.errors[:] = [e for e in contexts.watch.errors if "422" not in e]
