"""The Emperor's page in Ukrainian says where an attack comes from and which star was spent in words (issue 28;
domain/emperor/sources.py): a game is played over the real server (``umpire serve``, real SQLite) until the
Emperor attacks the human's hero during a turn in which it spent a star; the play view, in a real browser with
the page language uk, asks for the defence naming the attack's source by the rulebook's printed words, and "The
Emperor's turn" lists the target chosen and the star spent in words, with no source as the log keeps it
(``RB1 Brawl``, ``star: Jab``). Screenshots at 1280 and 375 px are kept as artefacts."""
from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import shot
from .harness import UmpireServer

SETUP = "SETUP-AKHENA-VS-REBEL"
CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
#: A source as the log keeps it (``RB1 Brawl``, ``star: Jab``, ``fallback Gale``, ``base move``).
RAW = re.compile(r"\b[A-Z]{1,3}[0-9]+ [A-Z][a-z]|\bstar: [A-Za-z]|\bfallback [A-Z]|\bbase move\b")


@pytest.fixture(scope="module")
def server() -> Iterator[UmpireServer]:
    """This module's server counts its game ids (tests/web/counted_ids.py): a game's dice follow from its seed
    and its id, so the games below are the same every run."""
    root = str(Path(__file__).resolve().parents[2])
    with UmpireServer(command=[sys.executable, "-m", "tests.web.counted_ids"], env={"PYTHONPATH": root}) as srv:
        yield srv


def _until_a_starred_attack(base: str, seed: int, steps: int = 600) -> tuple[str, str, list[dict]] | None:
    """Play (a star whenever one is legal, an activation when one is, else a seeded random command; a defence at
    random) until the human must defend during an Emperor turn that spent a star. Returns (game, token, the
    events of that Emperor turn), or None when the game ends first."""
    api = httpx.Client(base_url=base, timeout=60)
    g = api.post("/games", json={"ruleset": "emperor", "scenario": SETUP, "seed": f"{seed:064x}"}).json()
    gid, token = g["game_id"], g["seats"]["human"]
    auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random(seed)
    for _ in range(steps):
        v = api.get(f"/games/{gid}", headers=auth).json()
        if v["status"] != "active" or not v["to_act"]:
            return None  # the game ended first
        if v["state"]["pending"]:
            events = api.get(f"/games/{gid}/events", params={"limit": 1000}, headers=auth).json()["events"]
            start = max(i for i, e in enumerate(events) if e["type"] == "turn_started"
                        and e["payload"]["side"] == "emperor")
            turn = events[start:]
            if any(e["type"] == "star_chosen" and e["payload"]["choice"] for e in turn):
                return gid, token, turn
        legal = api.get(f"/games/{gid}/legal-commands", headers=auth).json()
        cmds = legal["commands"]
        pick = [c for c in cmds if c["type"] == "star"] or [c for c in cmds if c["type"] == "activate"] or cmds
        r = api.post(f"/games/{gid}/commands", headers=auth,
                     json={"command": rng.choice(pick), "expected_version": legal["version"]})
        assert r.status_code == 201, r.text
    return None


def _open(page: Any, base: str, gid: str, token: str, steps: int) -> None:
    page.goto(f"{base}/#/")
    page.evaluate("(t) => { localStorage.setItem('umpire.lang', 'uk'); localStorage.setItem('umpire.tokens', t); }",
                  f'{{"{gid}": {{"human": "{token}"}}}}')
    page.goto(f"{base}/#/game/{gid}?seat=human")
    page.reload()  # the page language and the tokens are read when the page loads
    page.wait_for_selector("#defence-ask")
    page.wait_for_function("(n) => document.querySelectorAll('#emperor-turn li[data-seq]').length >= n", arg=steps)


def test_the_defence_and_the_emperors_turn_name_sources_and_stars_in_ukrainian(server, contexts):
    found = next(filter(None, (_until_a_starred_attack(server.url, seed) for seed in range(5, 11))), None)
    assert found, "no game of six had a starred attack"
    gid, token, turn = found
    stored = [e["payload"]["pending"]["source"] for e in turn if e["type"] == "defense_requested"][-1]
    assert RAW.search(stored), stored  # the log keeps the source as stored
    page = contexts.page(1280, 900)
    _open(page, server.url, gid, token, len(turn))
    ask = page.locator("#defence-ask").inner_text()
    said = re.search(r"\(([^()]*(?:\([^()]*\))?[^()]*)\)\.", ask)  # "(карта Рогатка (RB5)). Виберіть..."
    assert said and CYRILLIC.search(said.group(1)) and not RAW.search(ask) and stored not in ask, ask
    lines = page.locator("#emperor-turn li[data-seq] > span").all_inner_texts()
    seqs = [int(s) for s in page.eval_on_selector_all("#emperor-turn li[data-seq]", "ls => ls.map((l) => l.dataset.seq)")]
    by_seq = dict(zip(seqs, lines))
    stars = [e for e in turn if e["type"] == "star_chosen" and e["payload"]["choice"]]
    targets = [e for e in turn if e["type"] == "target_chosen"]
    assert stars and targets
    for e in stars:  # "Зірка: зіркова властивість ..." / "Зірка: властивість локації ...": the printed words
        line = by_seq[e["seq"]]
        assert line.startswith("Зірка: ") and CYRILLIC.search(line[7:]), line
        assert e["payload"]["choice"] not in line or re.fullmatch(r"[A-Z]{1,3}[0-9]+", e["payload"]["choice"]), line
    for e in targets:
        line = by_seq[e["seq"]]
        assert CYRILLIC.search(line.split(":")[0]) and e["payload"]["source"] not in line, line
    assert not [t for t in lines if RAW.search(t)], lines
    shot(page, "emperor-sources-uk-1280", full_page=True)
    phone = contexts.page(375, 812)
    _open(phone, server.url, gid, token, len(turn))
    assert CYRILLIC.search(phone.locator("#defence-ask").inner_text())
    shot(phone, "emperor-sources-uk-375", full_page=True)
    phone.locator("#defence-ask").screenshot(path=str(shot(phone, "emperor-sources-uk-375-defence")))
    phone.locator("#emperor-turn li[data-seq]").last.scroll_into_view_if_needed()  # the list scrolls: its end
    phone.locator("#emperor-turn").screenshot(path=str(shot(phone, "emperor-sources-uk-375-turn")))
