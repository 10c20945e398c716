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
