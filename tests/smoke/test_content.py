"""The Clouds of Smoke content: the shipped files load clean, and every kind of mistake comes back
as a problem naming the file, the field and what is wrong (as for hoth), through the loader and
``umpire scenarios lint --ruleset smoke``."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from domain.smoke import army as A
from scenarios.cli import scenarios_group
from scenarios.smoke import DEFAULT_ROOT, read_content, shipped


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    dst = tmp_path / "smoke"
    shutil.copytree(DEFAULT_ROOT, dst, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return dst


def edit(path: Path, fn) -> None:
    data = json.loads(path.read_text())
    fn(data)
    path.write_text(json.dumps(data))


def problems_of(path: Path) -> list[str]:
    return [str(p) for p in read_content(path)[1]]


def test_the_shipped_content_is_clean_and_complete():
    c, problems = read_content()
    assert problems == []
    assert set(c.battles) == {"BTL-OPEN-FIELD", "BTL-ALL-TERRAIN", "BTL-CROSSROADS"}
    # the seed's line infantry (SMOKE-STAT-2) and the SMOKE-TEST-2 profiles
    li = c.profiles["line_infantry"]
    assert (li.points, li.speed, li.retreat, li.strength, li.morale, li.morale_loss, li.discipline, li.melee) == \
        (16, (2, 1), "d3", 1, 2, 3, 4, 2)
    assert li.fire[0].range == 2 and li.fire[0].dice == 2 and li.status == "seed"
    assert {"line_cavalry", "light_artillery", "skirmishers"} <= set(c.profiles)
    # the seed's three bombardment profiles (SMOKE-BOMB-1)
    bombs = {p.bombardment.range: p.bombardment.dice for p in c.profiles.values() if p.bombardment}
    assert bombs == {6: 2, 8: 3, 5: 1}
    # SMOKE-TEST-1 as data
    board = c.boards["BOARD-TEST-1"]
    assert [s.id for s in board.slots] == ["A1", "A2", "A3", "T1", "T2", "T3"]
    # one battle has every kind of terrain (SMOKE-TERR-7); one is for three or four players
    kinds = {e.kind for e in c.battles["BTL-ALL-TERRAIN"].terrain}
    assert kinds == set(c.terrain_kinds)
    assert {lu.players for lu in c.battles["BTL-CROSSROADS"].line_ups} == {2, 3, 4}
    # the GAP-B-09 default: 30 x 22, 4 UW strips, phase 6
    b = c.battles["BTL-OPEN-FIELD"]
    assert (b.width, b.height, b.end.phase) == (30, 22, 6)
    assert [s.zone for s in b.sides] == [((0, 0), (30, 0), (30, 4), (0, 4)), ((0, 18), (30, 18), (30, 22), (0, 22))]


def test_army_building_rules(content_dir):
    """SMOKE-ARMY-2 (rare <= core), -4 (points), -5 (preparations: ceil(points / 200), copies count once)."""
    assert A.PREPARATION_STEP == 200
    import math

    assert math.ceil(400 / 200) == 2 and math.ceil(450 / 200) == 3  # the seed's examples
    c = shipped()
    army = c.armies["ARMY-KARL-400"]
    assert A.cost(army, c.profiles, c.preparations) <= 400
    edit(content_dir / "armies" / "army-karl-400.json", lambda d: d.update(
        points=200, units=d["units"] + [{"profile": "guard", "count": 9}],
        preparations=["PREP-ADC", "PREP-ADC", "PREP-FORT", "PREP-DEPLOY"]))
    probs = problems_of(content_dir)
    mine = [p for p in probs if p.startswith("armies/army-karl-400.json")]
    assert any("units: " in p and "rare units" in p and "SMOKE-ARMY-2" in p for p in mine)
    assert any("points: the army costs" in p and "SMOKE-ARMY-4" in p for p in mine)
    assert any("preparations: 3 preparations for 200 points; the limit is 1" in p for p in mine)  # ADC twice = once


def test_profile_and_board_mistakes_name_the_field(content_dir):
    edit(content_dir / "profiles.json", lambda d: d["profiles"][0].update(traits=["infantry", "flying"], retreat="dx"))
    edit(content_dir / "boards.json", lambda d: d["boards"][0]["slots"][0].update(when="active"))
    probs = problems_of(content_dir)
    assert any(p.startswith("profiles.json: profiles[0].traits: unknown trait 'flying'") for p in probs)
    assert any(p.startswith("profiles.json: profiles[0].retreat:") for p in probs)
    assert any("boards.json: boards.BOARD-TEST-1.slots[0].when" in p and "SMOKE-TAC-2" in p for p in probs)


def test_battle_mistakes_name_the_field(content_dir):
    def wreck(d):
        d["terrain"][0]["kind"] = "lava"
        lu = d["line_ups"][0]
        lu["armies"][0]["units"][0].update(x=15, y=12)  # out of its zone
        lu["armies"][0]["units"][2].update(x=lu["armies"][0]["units"][1]["x"], y=lu["armies"][0]["units"][1]["y"])
        lu["armies"][1]["seat"] = "player-7"
    edit(content_dir / "battles" / "btl-all-terrain.json", wreck)
    probs = [p for p in problems_of(content_dir) if p.startswith("battles/btl-all-terrain.json")]
    assert any("terrain[0].kind: unknown terrain kind 'lava'" in p for p in probs)
    assert any("line_ups[0].armies[0].units[0]: the unit lies in its side's deployment zone" in p for p in probs)
    assert any("line_ups[0].armies[0].units[2]: the unit overlaps" in p for p in probs)
    assert any("line_ups[0].armies: the seats are player-1..player-2 in order." in p for p in probs)


def test_invalid_json_and_unknown_fields(content_dir):
    (content_dir / "battles" / "btl-open-field.json").write_text("{not json")
    edit(content_dir / "armies" / "army-karl-200-a.json", lambda d: d.update(colour="blue"))
    probs = problems_of(content_dir)
    assert any(p.startswith("battles/btl-open-field.json:") and "not valid JSON" in p for p in probs)
    assert any(p.startswith("armies/army-karl-200-a.json: colour:") for p in probs)


def test_lint_command_for_smoke(content_dir):
    ok = CliRunner().invoke(scenarios_group, ["lint", "--ruleset", "smoke"])
    assert ok.exit_code == 0 and ok.output.startswith("ok: smoke: 3 battles")
    every = CliRunner().invoke(scenarios_group, ["lint"])
    assert every.exit_code == 0 and "ok: smoke: 3 battles" in every.output
    edit(content_dir / "profiles.json", lambda d: d["profiles"][0].update(traits=["flying"]))
    bad = CliRunner().invoke(scenarios_group, ["lint", "--ruleset", "smoke", "--path", str(content_dir)])
    assert bad.exit_code == 1 and "profiles.json: profiles[0].traits: unknown trait 'flying'" in bad.output
