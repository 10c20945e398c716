"""``umpire scenarios lint`` and ``umpire scenarios show`` (through the click commands the CLI mounts)."""
from __future__ import annotations

from click.testing import CliRunner

from scenarios.cli import COMMANDS, linted_rulesets, scenarios_group
from tests.scenarios.conftest import FIXTURES


def test_commands_are_exported_for_the_umpire_cli():
    assert COMMANDS == [scenarios_group] and scenarios_group.name == "scenarios"


def test_lint_passes_on_shipped_content():
    """Every ruleset whose content package exports lint() is checked (hoth and emperor here)."""
    r = CliRunner().invoke(scenarios_group, ["lint"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "ok: hoth: 13 scenarios, 60 cards, 2 campaigns" in lines
    assert any(line.startswith("ok: emperor: 5 setups, 5 heroes") for line in lines)
    assert linted_rulesets().keys() >= {"hoth", "emperor"}


def test_lint_prints_one_line_per_problem_and_fails():
    r = CliRunner().invoke(scenarios_group, ["lint", "--ruleset", "hoth", "--path", str(FIXTURES / "many-problems")])
    assert r.exit_code == 1
    lines = [line for line in r.stdout.splitlines() if line]
    assert len(lines) == 3
    assert all("many-problems/scenarios/" in line for line in lines)


def test_show_prints_the_board_as_rows_with_terrain_and_units():
    r = CliRunner().invoke(scenarios_group, ["show", "SCN-TAKE-DOWN-THE-SHIELD"])
    assert r.exit_code == 0, r.output
    rows = {line.split()[0]: line for line in r.output.splitlines() if line[:2] in {f"r{i}" for i in range(7)}}
    assert sorted(rows) == [f"r{i}" for i in range(7)]
    # c1 r5 is a shield generator; c3 r5 is a ridge with the artillery; c1 r1 an AT-AT (content 2.2).
    assert rows["r5"].count("[SG") == 2 and "[RG rAR" in rows["r5"]
    assert rows["r1"].count("iAT") == 2 and rows["r2"].count("iST") == 4
    assert rows["r0"].count("[") == 10 and rows["r1"].count("[") == 9


def test_show_unknown_scenario_fails_naming_the_known_ones():
    r = CliRunner().invoke(scenarios_group, ["show", "SCN-NOPE"])
    assert r.exit_code == 1
    assert "SCN-TAKE-DOWN-THE-SHIELD" in r.output


def test_the_umpire_program_mounts_the_scenarios_commands():
    import subprocess
    import sys

    ok = subprocess.run([sys.executable, "-c", "from service.cli import main; main()", "scenarios", "lint"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("ok: ")
    bad = subprocess.run([sys.executable, "-c", "from service.cli import main; main()", "scenarios", "lint",
                          "--ruleset", "hoth", "--path", str(FIXTURES / "half-hex")], capture_output=True, text=True)
    assert bad.returncode == 1
    assert bad.stdout.strip().endswith("half-hexes are not playable.")
    assert len(bad.stdout.strip().splitlines()) == 1


def test_lint_one_ruleset_and_another_directory_of_its_content(tmp_path):
    """--ruleset picks one ruleset; --path (which needs --ruleset) checks another directory of its content:
    Emperor content with a mistake is reported as file: field: sentence, and exit 1."""
    import json
    import shutil

    from scenarios.emperor import DEFAULT_ROOT

    ok = CliRunner().invoke(scenarios_group, ["lint", "--ruleset", "emperor"])
    assert ok.exit_code == 0 and ok.output.startswith("ok: emperor: ") and "hoth" not in ok.output
    root = tmp_path / "content"
    shutil.copytree(DEFAULT_ROOT, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    f = root / "orders" / "base.json"
    data = json.loads(f.read_text())
    data["card_policy"] = "dice"
    f.write_text(json.dumps(data))
    bad = CliRunner().invoke(scenarios_group, ["lint", "--ruleset", "emperor", "--path", str(root)])
    assert bad.exit_code == 1
    lines = bad.stdout.splitlines()
    assert len(lines) == 1 and lines[0].endswith("orders/base.json: card_policy: 'dice' is not a card-choice policy "
                                                 "the engine knows (compass_scan).")
    wrong = CliRunner().invoke(scenarios_group, ["lint", "--ruleset", "emperor", "--path", str(FIXTURES / "half-hex")])
    assert wrong.exit_code == 1 and "not an Emperor content directory" in wrong.stdout
    no_ruleset = CliRunner().invoke(scenarios_group, ["lint", "--path", str(root)])
    assert no_ruleset.exit_code == 2 and "--path needs --ruleset" in no_ruleset.output
    unknown = CliRunner().invoke(scenarios_group, ["lint", "--ruleset", "toy"])
    assert unknown.exit_code == 2 and "has no content to check" in unknown.output
