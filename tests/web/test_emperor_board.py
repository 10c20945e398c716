"""The Emperor played on its grid in a real browser: a whole game by clicks on the picture (a warrior,
then a cell; an enemy to attack; a warrior to push, then its cell), on the hero's cards in the hand,
and on the choices asked in place (defence, star, refresh, end turn). The commands are chosen by the
project's greedy bot from the seat's own view and legal commands (bots/emperor); only the way they are
done is tested here. No generic command button (the "All legal commands" list, the Actions row, a
template form) may be clicked, and a move into an active hazard shows its warning before it is sent.
One move is also done with the keyboard only."""
from __future__ import annotations

import json
import random
from typing import Any

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bots.emperor import _Board, _score

from .conftest import shot
from .harness import AT_VERSION

SETUP = "SETUP-WARDEN-VS-VESPER"

#: Records every click on a generic command control (capture phase, before the client handles it).
GENERIC_SPY = """() => {
  window.__generic = [];
  document.addEventListener('click', (e) => {
    const b = e.target.closest('#all-commands button, #panel-play .actions button, form.template button');
    if (b) window.__generic.push(b.textContent);
  }, true);
}"""

#: What the page showed when it did not move on: its version, its alert, the selection bar, generic clicks.
PAGE_SAID = """() => ({version: document.body.dataset.version, feed: document.body.dataset.feed,
  alert: [...document.querySelectorAll('[role=alert]')].map((e) => e.textContent).join(' | '),
  bar: (document.querySelector('#selection-bar') || {}).textContent, generic: window.__generic})"""


def _new_game(server: Any) -> tuple[str, str]:
    g = httpx.post(f"{server.url}/games", json={"ruleset": "emperor", "scenario": SETUP}).json()
    return g["game_id"], g["seats"]["human"]


class BoardPlayer:
    def __init__(self, page: Any, server: Any, gid: str, token: str):
        self.page, self.gid = page, gid
        self.http = httpx.Client(base_url=server.url, headers={"authorization": f"Bearer {token}"}, timeout=30)
        self.rng = random.Random(7)
        self.warned: list[str] = []
        self.last: dict[str, Any] | None = None

    def legal(self) -> dict[str, Any]:
        return self.http.get(f"/games/{self.gid}/legal-commands").json()

    def state(self) -> dict[str, Any]:
        return self.http.get(f"/games/{self.gid}").json()["state"]

    def wait_version(self, v: int) -> None:
        try:
            self.page.wait_for_function(AT_VERSION, arg=v, timeout=20_000)
        except PlaywrightTimeout as exc:  # say what the page showed, for a failure seen once under load
            raise AssertionError(f"the page did not reach version {v} after {self.last}: {self.page.evaluate(PAGE_SAID)}, "
                                 f"the server is at {self.legal()['version']}") from exc

    def click_data(self, scope: str, cmd: dict[str, Any]) -> None:
        buttons = self.page.locator(f"{scope} [data-command]")
        for i in range(buttons.count()):
            if json.loads(buttons.nth(i).get_attribute("data-command")) == cmd:
                buttons.nth(i).click()
                return
        raise AssertionError(f"no control for {cmd} in {scope}")

    def cell(self, cell: str) -> Any:
        return self.page.locator(f'#board rect.cell-hit[data-cell="{cell}"].act')

    def after_cell_click(self, cmd: dict[str, Any], hazard: bool) -> None:
        bar = self.page.locator("#selection-bar")
        if hazard:
            warn = self.page.locator("#selection-bar .warning").first
            warn.wait_for()
            text = warn.text_content() or ""
            assert "hazard" in text and "wound" in text, text
            self.warned.append(text)
        if self.page.locator("#confirm-warning").count():
            assert json.loads(self.page.locator("#confirm-warning").get_attribute("data-command")) == cmd
            self.page.click("#confirm-warning")
        elif "choose one" in (bar.text_content() or ""):
            self.click_data("#selection-bar", cmd)

    def do(self, cmd: dict[str, Any], st: dict[str, Any]) -> None:
        self.last = cmd
        t = cmd["type"]
        hazards = {z["cell"] for z in st["battlefield"]["hazards"] if z["active"]}
        if t == "move":
            self.page.click(f'#board [data-warrior="{cmd["warrior"]}"].act')
            self.cell(cmd["to"]).click()
            self.after_cell_click(cmd, cmd["to"] in hazards)
        elif t == "march":
            self.cell(cmd["to"]).click()
            self.after_cell_click(cmd, cmd["to"] in hazards)
        elif t == "attack" and cmd.get("target"):
            self.page.click(f'#board [data-warrior="{cmd["target"]}"].act-attack')
            self.after_cell_click(cmd, False)
        elif t == "push":
            self.page.click(f'#board [data-warrior="{cmd["target"]}"].act')
            self.cell(cmd["path"][-1]).click()
            self.after_cell_click(cmd, False)
        elif t == "activate":
            self.click_data(".emperor-hand", cmd)
        elif t == "defend":
            self.click_data("#defence-ask", cmd)
        elif t in ("star", "skip", "swap", "attack"):
            self.click_data("#ability-ask", cmd)
        elif t in ("refresh", "end_turn"):
            self.click_data("#turn-box", cmd)
        else:
            raise AssertionError(f"no board way for {cmd}")


def test_a_whole_emperor_game_by_board_clicks(server, contexts):
    gid, token = _new_game(server)
    page = contexts.page()
    page.goto(f"{server.url}/#/game/{gid}?token={token}")
    page.evaluate(GENERIC_SPY)
    page.wait_for_selector("#board rect.cell-hit")
    p = BoardPlayer(page, server, gid, token)
    # first: Warden into the active hazard C3 (Fire Pit) through the board, warned before it is sent
    legal = p.legal()
    into = next(c for c in legal["commands"] if c["type"] == "move" and c["warrior"] == "warden" and c["to"] == "C3")
    p.wait_version(legal["version"])
    page.click('#board [data-warrior="warden"]')
    assert page.locator('#board rect.cell-hit[data-cell="C3"]').get_attribute("class").split().count("act-hazard") == 1
    p.cell("C3").click()
    warning = page.locator("#move-warning")
    warning.wait_for()
    assert "Fire Pit" in warning.text_content() and "wound" in warning.text_content()
    assert int(page.evaluate("document.body.dataset.version")) == legal["version"]  # nothing sent yet
    shot(page, "emperor-hazard-warning-1280")
    page.click("#confirm-warning")
    p.wait_version(legal["version"] + 1)
    moved = [e for e in p.http.get(f"/games/{gid}/events", params={"after": legal["version"]}).json()["events"]
             if e["type"] == "warrior_moved"]
    assert moved and moved[0]["payload"]["hazard"] == "H1", moved
    assert into["to"] == "C3"
    steps = 1
    done: list[str] = []
    emperor_turn_seen = False
    while steps < 300:
        legal = p.legal()
        st = p.state()
        if st.get("winner") or not legal["commands"]:
            break
        p.wait_version(legal["version"])
        board = _Board(st)
        scored = [(_score(board, c)[0], p.rng.random(), i) for i, c in enumerate(legal["commands"])]
        cmd = legal["commands"][max(scored)[2]]
        p.do(cmd, st)
        p.wait_version(legal["version"] + 1)
        done.append(cmd["type"])
        steps += 1
        if not emperor_turn_seen and page.locator("#emperor-turn ol.emperor-steps li").count():
            emperor_turn_seen = True
            first = page.locator("#emperor-turn ol.emperor-steps li").first
            assert "The Emperor's turn" in first.text_content()
            # the rules of a step are one click away
            first.locator("details.why summary").click()
            first.locator("details.why ol li a").first.wait_for()
            assert "/rulesets/emperor/rules/" in first.locator("details.why ol li a").first.get_attribute("href")
            shot(page, "emperor-play-1280", full_page=True)
    st = p.state()
    assert st.get("winner"), f"no winner after {steps} commands"
    page.wait_for_function("() => document.body.dataset.status === 'finished'", timeout=20_000)
    assert emperor_turn_seen
    # every command was done on the board, on a card or in place (do() knows no other way); the order
    # deck differs from game to game, so only the kinds every game meets are required
    assert {"move", "activate"} <= set(done), done
    assert page.evaluate("window.__generic") == []  # no generic command button was ever clicked
    shot(page, "emperor-finished-1280", full_page=True)
    p.http.close()


def test_one_emperor_move_by_keyboard_only(server, contexts):
    gid, token = _new_game(server)
    page = contexts.page(width=375, height=800)
    page.goto(f"{server.url}/#/game/{gid}?token={token}")
    page.wait_for_selector("#board [data-warrior].act")
    shot(page, "emperor-play-375", full_page=True)
    v0 = int(page.evaluate("document.body.dataset.version"))
    # Tab to the Hound (a focusable warrior on the picture), Enter selects it
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.dataset.warrior") == "hound":
            break
    else:
        raise AssertionError("the Hound was not reached with Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector('#board rect.cell-hit.act-move[data-cell="A1"]')
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.dataset.cell") == "A1":
            break
    else:
        raise AssertionError("cell A1 was not reached with Tab")
    page.keyboard.press("Enter")
    # two ways to A1 (with and without Old Road's MOVE bonus): the bar asks, focused; Tab to the plain one
    page.wait_for_selector("#selection-bar [data-command]")
    plain = {"type": "move", "warrior": "hound", "to": "A1", "bonuses": []}
    for _ in range(10):
        dc = page.evaluate("document.activeElement && document.activeElement.dataset.command")
        if dc and json.loads(dc) == plain:
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("the plain move was not reached with Tab")
    page.keyboard.press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v0)
    w = next(w for w in httpx.get(f"{server.url}/games/{gid}").json()["state"]["warriors"] if w["id"] == "hound")
    assert w["cell"] == "A1"
    shot(page, "emperor-after-keyboard-375", full_page=True)


def test_board_offers_of_the_emperor_helper(server, contexts):
    """The helper's own logic in the browser: a push that ends on the target's own cell leaves the
    target click-through (the cell is the target); the server's `described` words win over the
    helper's; a move into an active hazard has a warning even without them."""
    page = contexts.page()
    page.goto(server.url + "/web/index.html")
    got = page.evaluate("""async () => {
        const m = await import('/web/js/rulesets/emperor.js');
        const view = { state: {
            warriors: [{ id: 'vesper', name: 'Vesper', side: 'emperor', kind: 'hero', cell: 'C3' },
                       { id: 'hound', name: 'Hound', side: 'human', kind: 'helper', cell: 'B1' }],
            battlefield: { locations: [], hazards: [{ id: 'H1', name: 'Fire Pit', cell: 'C2', active: true }] } } };
        const push = { type: 'push', target: 'vesper', path: ['C4', 'C3'], bonuses: [] };
        const away = { type: 'push', target: 'vesper', path: ['D3'], bonuses: [] };
        const a = m.interact({ view, cmds: [push, away], selected: { kind: 'unit', id: 'vesper' }, legal: null });
        const move = { type: 'move', warrior: 'hound', to: 'C2', bonuses: [] };
        const own = m.warningOf(move, view);
        const b = m.interact({ view, cmds: [move], selected: null, legal: { described: [{ command: move, label: 'Hound to C2 (Fire Pit)', warning: 'Burns.' }] } });
        return { keys: a.targets.map((t) => t.key).sort(), own, label: m.describe(move, view), warning: m.warningOf(move, view), b: b.targets.map((t) => t.key) };
    }""")
    assert got["keys"] == ["cell:C3", "cell:D3"]  # no toggle on Vesper: C3 under it is the target
    assert got["own"] and "Fire Pit" in got["own"] and "BASE-HAZ-2" in got["own"]
    assert got["label"] == "Hound to C2 (Fire Pit)" and got["warning"] == "Burns."
    assert got["b"] == ["warrior:hound"]
