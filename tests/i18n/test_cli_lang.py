"""`umpire replay --lang`: a stored Emperor game's steps and rulings in the reader's language."""
from __future__ import annotations

import random
import re

import msgspec
from click.testing import CliRunner

from service.cli import main
from service.game_service import CommandRequest, CreateGameRequest, GameService
from service.store import EventStore

CYRILLIC = re.compile(r"[А-Яа-яІіЇї]")


def test_replay_in_ukrainian(tmp_path):
    gs = GameService(EventStore(tmp_path))
    g = gs.create_game(CreateGameRequest(ruleset="emperor", scenario="SETUP-AKHENA-VS-REBEL", seed="cd" * 32))
    rng = random.Random(5)
    for _ in range(6):
        cur = gs.current(g["game_id"])
        st = cur.ruleset.status(cur.state)
        if st.status != "active":
            break
        seat = st.to_act[0]
        cmd = msgspec.to_builtins(rng.choice(cur.ruleset.legal_commands(cur.state, seat)))
        assert gs.command(g["game_id"], g["seats"][seat], CommandRequest(command=cmd, expected_version=cur.version)).status == 201
    en = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path)])
    uk = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--lang", "uk"])
    assert en.exit_code == uk.exit_code == 0, uk.output
    steps_en = [ln for ln in en.output.splitlines() if ln[:5].strip().isdigit()]
    steps_uk = [ln for ln in uk.output.splitlines() if ln[:5].strip().isdigit()]
    assert len(steps_en) == len(steps_uk) > 3
    assert not any(CYRILLIC.search(ln) for ln in steps_en)
    assert all(CYRILLIC.search(ln) for ln in steps_uk), steps_uk
    bad = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--lang", "xx"])
    assert bad.exit_code != 0


def test_smoke_text_board_in_russian(tmp_path):
    """`umpire replay --at N --lang ru`: Clouds of Smoke's text board leads with the same headline as its picture,
    in Russian; the map's characters are the same in every language."""
    gs = GameService(EventStore(tmp_path))
    g = gs.create_game(CreateGameRequest(ruleset="smoke", scenario="BTL-CROSSROADS", seed="ab" * 32))
    rng = random.Random(3)
    for _ in range(30):
        cur = gs.current(g["game_id"])
        st = cur.ruleset.status(cur.state)
        if st.status != "active":
            break
        seat = st.to_act[0]
        cmd = msgspec.to_builtins(rng.choice(cur.ruleset.legal_commands(cur.state, seat)))
        assert gs.command(g["game_id"], g["seats"][seat], CommandRequest(command=cmd, expected_version=cur.version)).status == 201
    at = str(gs.current(g["game_id"]).version)
    en = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--at", at])
    ru = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--at", at, "--lang", "ru"])
    assert en.exit_code == ru.exit_code == 0, ru.output
    assert "Armies: " in en.output and "Units:" in en.output and "Map: 1 character per UW" in en.output
    assert "Армии: " in ru.output and "Отряды:" in ru.output and "Карта: 1 знак на UW" in ru.output, ru.output[:1500]
    assert re.search(r"ход \d+, фаза сценария \d+", ru.output), ru.output[:600]
    assert "боевой дух" in ru.output and "Armies: " not in ru.output
    grid = lambda out: [ln for ln in out.splitlines() if re.match(r"^ {0,2}\d+ \|", ln)]  # noqa: E731
    assert grid(en.output) == grid(ru.output) and grid(en.output)
