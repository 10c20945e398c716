"""The client's own logic, run in the browser against Python's answers: the dice re-computation
(Web Crypto and the plain-JavaScript fallback) against the kernel's dice and the CONTRACTS formula
with client seeds, the undo cost forecast, the feed's event-stream parser, template forms."""
from __future__ import annotations

import hashlib
import hmac
from typing import Any

import pytest

from domain.kernel.dice import draw

SEED = bytes(range(32))
GAME = "0123456789abcdef"
CASES = [("dice", 0, 6), ("dice", 7, 6), ("shuffle", 3, 16), ("shuffle", 11, 52), ("automaton", 2, 3), ("dice", 5, 1)]


@pytest.fixture(scope="module")
def page(server: Any, browser: Any) -> Any:
    ctx = browser.new_context()
    p = ctx.new_page()
    p.goto(server.url + "/web/index.html")
    yield p
    ctx.close()


def js(page: Any, module: str, body: str, arg: Any = None) -> Any:
    return page.evaluate(f"async (arg) => {{ const m = await import('/web/js/{module}.js'); {body} }}", arg)


@pytest.mark.parametrize("pure", [False, True])
def test_draws_match_the_kernel(page, pure):
    got = js(page, "dice", """
        const mac = await m.hmacOf(m.hexToBytes(arg.seed), { pure: arg.pure });
        const out = [];
        for (const [s, i, n] of arg.cases) out.push(await m.draw(mac, m.labelOf(arg.game, s, i, null), n));
        return out;""", {"seed": SEED.hex(), "game": GAME, "cases": CASES, "pure": pure})
    assert got == [draw(SEED, GAME, s, i, n) for s, i, n in CASES]


def _draw_mixed(seed: bytes, game: str, mix: str, stream: str, index: int, sides: int) -> int:
    """CONTRACTS: label = f"{game_id}|{mix}|{s}|{i}", rejection sampling as the kernel does."""
    word = 1 << 64
    limit = word - word % sides
    k = 0
    while True:
        label = f"{game}|{mix}|{stream}|{index}" + (f"|{k}" if k else "")
        d = hmac.new(seed, label.encode(), hashlib.sha256).digest()
        for w in range(4):
            x = int.from_bytes(d[8 * w: 8 * w + 8], "big")
            if x < limit:
                return x % sides
        k += 1


def test_client_seeds_are_mixed_in_as_the_contract_says(page):
    seats, seeds = ["imperial", "rebel"], {"imperial": "abc-1", "rebel": None}
    mix = "imperial=abc-1,rebel="
    rolls = [{"seq": 1, "stream": s, "sides": n} for s, _, n in CASES if n > 1]
    # every stream's indices run 0, 1, 2, ... (the order the check expects)
    by_stream: dict[str, int] = {}
    for r in rolls:
        r["index"] = by_stream.get(r["stream"], 0)
        by_stream[r["stream"]] = r["index"] + 1
        r["value"] = _draw_mixed(SEED, GAME, mix, r["stream"], r["index"], r["sides"])
    report = js(page, "dice", "return m.checkRolls(arg);", {
        "seedHex": SEED.hex(), "commitment": hashlib.sha256(SEED).hexdigest(), "gameId": GAME,
        "seats": seats, "clientSeeds": seeds, "rolls": rolls})
    assert report["ok"] and report["commitment_ok"] and report["rolls_checked"] == len(rolls)
    assert js(page, "dice", "return m.mixOf(arg.seats, arg.seeds);", {"seats": seats, "seeds": seeds}) == mix
    # the same rolls without the mix, a wrong commitment, a skipped index: each is reported
    bad = js(page, "dice", "return m.checkRolls(arg);", {
        "seedHex": SEED.hex(), "commitment": "0" * 64, "gameId": GAME, "seats": seats, "clientSeeds": None,
        "rolls": rolls[:1] + [dict(rolls[1], index=rolls[1]["index"] + 1)]})
    assert not bad["ok"] and bad["commitment_ok"] is False and not bad["order_ok"]


def test_plain_sha256_matches_hashlib(page):
    msgs = [b"", b"abc", bytes(range(200)), b"x" * 55, b"y" * 56, b"z" * 64, b"w" * 1000]
    got = js(page, "dice", "return arg.map(h => m.bytesToHex(m.sha256(m.hexToBytes(h))));", [x.hex() for x in msgs])
    assert got == [hashlib.sha256(x).hexdigest() for x in msgs]
    mac = js(page, "dice", "return m.bytesToHex(m.hmacPure(m.hexToBytes(arg[0]), m.hexToBytes(arg[1])));",
             [(b"k" * 100).hex(), b"message".hex()])
    assert mac == hmac.new(b"k" * 100, b"message", hashlib.sha256).hexdigest()


def test_undo_cost_forecast(page):
    events = [
        {"seq": 10, "type": "card_played", "actor": "imperial", "recorded_at": "t1"},
        {"seq": 11, "type": "unit_ordered", "actor": "imperial", "recorded_at": "t2"},
        {"seq": 12, "type": "attack_rolled", "actor": "imperial", "recorded_at": "t3"},
        {"seq": 13, "type": "cards_drawn", "actor": "imperial", "recorded_at": "t4"},
    ]
    body = """
        const f = (to) => m.undoCost({ seat: arg.seat, turn: 5, events: arg.events, turnOf: () => 5,
          rollsOf: (s) => (s === 12 ? [{}] : []), hiddenOf: (s) => s === 13 }, to);
        return [f(10), f(11), f(12), f(13), m.commandGroups(arg.events).length];"""
    after_order, after_attack, after_draw, nothing, groups = js(page, "undo", body, {"seat": "imperial", "events": events})
    assert after_order["free"] is False  # 11..13 include a roll and a draw
    assert after_attack["free"] is False and any("rolled" in r for r in after_attack["reasons"])
    assert after_draw["free"] is False and any("hidden" in r for r in after_draw["reasons"])
    assert nothing["nothing"] is True and groups == 4
    free = js(page, "undo", """return m.undoCost({ seat: 'imperial', turn: 5, events: arg, turnOf: () => 5,
        rollsOf: () => [], hiddenOf: () => false }, 9);""", events[:2])
    assert free["free"] is True
    other = js(page, "undo", """return m.undoCost({ seat: 'rebel', turn: 5, events: arg, turnOf: () => 5,
        rollsOf: () => [], hiddenOf: () => false }, 9);""", events[:2])
    assert other["free"] is False and "not yours" in other["reasons"][0]


def test_event_stream_blocks_parse(page):
    got = js(page, "feed", "return arg.map(b => m.parseBlock(b));",
             ["id: 7\nevent: event\ndata: {\"seq\": 7}", ": keepalive", "data: a\ndata: b"])
    assert got[0] == {"data": '{"seq": 7}', "event": "event", "id": "7"}
    assert got[1] is None
    assert got[2]["data"] == "a\nb"


def test_template_fields_take_bounds_and_choices(page):
    tpl = {"type": "move", "unit": "U1", "distance": {"min": 0, "max": 6}, "facing": {"enum": [0, 90, 180]},
           "bounds": {"angle": {"minimum": -45.5, "maximum": 45.5}}}
    got = js(page, "commands", "return m.templateFields(arg);", tpl)
    assert got["fixed"] == {"type": "move", "unit": "U1"}
    assert got["free"]["distance"] == {"min": 0, "max": 6, "step": 1}
    assert got["free"]["facing"] == {"choices": [0, 90, 180]}
    assert got["free"]["angle"]["min"] == -45.5 and got["free"]["angle"]["step"] == "any"


def test_template_fields_of_the_kernel_shape(page):
    """GET /legal-commands templates as smoke gives them: fixed fields in ``command``, free ones in
    ``bounds`` (a vector bound is a pair of numbers), defaults from ``example``, a bound the form
    cannot state (a zone) filled from the example."""
    simple = {"command": {"type": "move", "unit": "P1-01", "kind": "simple"},
              "bounds": {"facing": {"min": 0, "max": 360, "unit": "degrees"},
                         "distance": {"min": 0, "max": 4.0, "unit": "UW", "speed": 2.0}},
              "rules": ["SMOKE-MOVE-3"], "example": {"type": "move", "unit": "P1-01", "kind": "simple", "facing": 90.0,
                                                     "distance": 2.0, "vector": None}}
    got = js(page, "commands", "return m.templateFields(arg);", simple)
    assert got["fixed"] == {"type": "move", "unit": "P1-01", "kind": "simple"}
    assert got["free"]["facing"]["example"] == 90.0 and got["free"]["distance"]["max"] == 4.0
    cx = {"command": {"type": "move", "unit": "P1-01", "kind": "complex"},
          "bounds": {"vector": {"max_length": 2.0}, "facing": {"min": 0, "max": 360, "optional": True}},
          "example": {"type": "move", "unit": "P1-01", "kind": "complex", "facing": None, "vector": [0.0, 2.0]}}
    form = js(page, "commands", """const f = m.templateForm(arg, 0, { onPost: () => {} });
        document.body.append(f);
        const ins = [...f.querySelectorAll('input')].map((i) => [i.id, i.value]);
        f.remove();
        return ins;""", cx)
    assert form == [["tpl-0-vector-0", "0"], ["tpl-0-vector-1", "2"], ["tpl-0-facing", ""]]
    dep = {"command": {"type": "deploy_unit", "unit": "U1"},
           "bounds": {"at": {"within": 2.0, "of_marker": [3, 4]}, "facing": {"min": 0, "max": 360}},
           "example": {"type": "deploy_unit", "unit": "U1", "at": [3.5, 4.0], "facing": 90.0}}
    got = js(page, "commands", "return m.templateFields(arg);", dep)
    assert got["fixed"] == {"type": "deploy_unit", "unit": "U1", "at": [3.5, 4.0]}
    assert set(got["free"]) == {"facing"}


def test_hoth_board_offers(page):
    """A unit's moves and attacks appear on the board once it is selected; a move that ends where the
    unit stands (HOTH-MOVE-4 lets a path revisit hexes) is offered on its own hex, with no toggle."""
    view = {"state": {"units": [{"id": "E1", "unit": "at_at", "hex": [3, 1], "faction": "imperial", "figures": 1},
                                {"id": "R1", "unit": "echo_troopers", "hex": [5, 1], "faction": "rebel", "figures": 3}],
                      "structures": [{"id": "SG-1", "kind": "shield_generator", "hex": [3, 5], "destroyed": False}]}}
    cmds = [{"type": "move", "unit": "E1", "path": [[4, 2], [3, 1]]}, {"type": "move", "unit": "E1", "path": [[4, 2]]},
            {"type": "attack", "unit": "E1", "target": "R1", "special": False},
            {"type": "attack", "unit": "E1", "target": "SG-1", "special": False}, {"type": "end_moves"}]
    body = """const p = m.default;
        const none = p.interact({ view: arg.view, cmds: arg.cmds, selected: null });
        const sel = p.interact({ view: arg.view, cmds: arg.cmds, selected: { kind: 'unit', id: 'E1' } });
        return [none.targets.map((t) => [t.key, t.kind]), sel.targets.map((t) => [t.key, t.kind, t.commands.length]),
                p.label([-1, 3]), p.label([18, 6]), p.describe(arg.cmds[0], arg.view), p.onBoardOrHand(arg.cmds[4])];"""
    none, sel, half, corner, words, on_board = js(page, "rulesets/hoth", body, {"view": view, "cmds": cmds})
    assert none == [["unit:E1", "select"]]
    assert sorted(map(tuple, sel)) == [("hex:3,1", "move", 1), ("hex:4,2", "move", 1), ("structure:SG-1", "attack", 1),
                                       ("unit:R1", "attack", 1)]
    assert half == "half-hex c-1 r3" and corner == "c9 r6"
    assert words == "Move E1 AT-AT to c1 r1 (2 hexes)" and on_board is False


def test_smoke_complex_drag_follows_the_complex_path_choice(page):
    """SMOKE-CHOICE-COMPLEX-PATH: with a `via` bound (the "path" reading) a drag that bends sends its bend as
    `via`; without one (the "straight" reading) the same drag sends one straight vector; the ghost's pose keeps
    the path, so the command made again from it is the same."""
    u = {"id": "P1-01", "x": 10.0, "y": 8.0, "facing": 90.0, "w": 1.0, "d": 1.0}
    base = {"command": {"type": "move", "unit": "P1-01", "kind": "complex"},
            "bounds": {"vector": {"max_length": 3.0}, "facing": {"min": 0, "max": 360, "optional": True}}}
    path = {**base, "bounds": {**base["bounds"], "via": {"max_points": 8, "optional": True}}}
    trail = [[10.4, 8.0], [10.8, 8.0], [11.2, 8.0], [11.2, 8.5], [11.2, 9.0]]
    pose = {"x": 11.2, "y": 9.5, "facing": 90.0, "trail": trail}
    body = """const p = arg.pose;
        const straight = m.commandFor(arg.base, arg.u, p);
        const bent = m.commandFor(arg.path, arg.u, p);
        const again = m.commandFor(arg.path, arg.u, m.poseOf(bent, arg.u));
        return [straight, bent, again];"""
    straight, bent, again = js(page, "rulesets/smoke", body, {"u": u, "base": base, "path": path, "pose": pose})
    assert straight == {"type": "move", "unit": "P1-01", "kind": "complex", "vector": [1.2, 1.5]}
    assert bent == {**straight, "via": [[1.2, 0]]}
    assert again == bent
