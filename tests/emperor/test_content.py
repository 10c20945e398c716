"""Emperor content: the shipped files load clean; every mistake in a content file comes back as a
problem naming the file, the field and what is wrong (scenarios/loader.py), all of them at once."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from domain.emperor.decider import EmperorRuleset
from domain.kernel import SetupError
from scenarios.emperor import DEFAULT_ROOT, ContentError, lint, load_catalog

from .play import SETUPS


def test_shipped_content_is_clean_and_complete():
    assert lint() == []
    cat = load_catalog()
    assert set(cat.setups) == set(SETUPS) and len(cat.setups) >= 3
    assert {"warden", "vesper", "akhena", "rebel", "aura"} <= set(cat.heroes)
    assert set(cat.solo) == set(cat.heroes)  # every hero can be the Emperor's
    assert [c.id for c in cat.decks["ORD-BASE"].cards] == ["O1", "O2", "O3", "O4", "O5", "O6"]
    assert all(s.status for s in cat.setups.values())
    # BASE-CARD-2/3, BASE-SOLO-2/3, BASE-ORD-1: the section 6 components as printed in the rules
    v = cat.heroes["vesper"]
    assert [(c.id, c.name, c.crest, c.defense) for c in v.cards] == [
        ("V1", "Arc Bolt", "MOON", 1), ("V2", "Gale", "SUN", 2), ("V3", "Blink", "MOON", 2), ("V4", "Storm", "SUN", 1),
        ("V5", "Ward", "MOON", 4)]
    assert cat.solo["vesper"].fallback.name == "Hex" and cat.solo["warden"].exceptions == ("RANGE",)
    o3 = cat.decks["ORD-BASE"].cards[2]
    assert (o3.steps, o3.refresh_value, o3.defense_modifier, o3.compass, o3.unique_crest) == (
        ("MOVE", "ACTIVATE", "REFRESH_CHECK"), 2, -1, "N", True)


@pytest.fixture
def content(tmp_path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(DEFAULT_ROOT, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return root


def _edit(root: Path, rel: str, fn) -> None:
    p = root / rel
    data = json.loads(p.read_text())
    fn(data)
    p.write_text(json.dumps(data))


def _problems(root: Path) -> list[tuple[str, str, str]]:
    return [(Path(p.file).name, p.field, p.message) for p in lint(root)]


CASES = [
    ("unknown field", "heroes/warden.json", lambda d: d.update(helth=3), "warden.json", "helth", "not a known field"),
    ("cell off the grid", "battlefields/fellwoods.json", lambda d: d["locations"][0].update(cell="F9"),
     "fellwoods.json", "locations[0].cell", "not a cell"),
    ("hazard on a location", "battlefields/fellwoods.json", lambda d: d["hazards"][0].update(cell="B2"),
     "fellwoods.json", "hazards[0].cell", "already holds L1"),
    ("hazard fed by an unknown location", "battlefields/fellwoods.json",
     lambda d: d["hazards"][1].update(active_while="L99"), "fellwoods.json", "hazards[1].active_while", "not a location"),
    ("duplicate card id", "heroes/vesper.json", lambda d: d["cards"][0].update(id="W1"), "warden.json",
     "cards[0].id", "also used by"),
    ("attack without range", "heroes/vesper.json", lambda d: d["cards"][0]["abilities"][0].pop("range"),
     "vesper.json", "cards[0].abilities[0].range", "needs a range"),
    ("AREA push", "heroes/vesper.json", lambda d: d["cards"][1]["abilities"][0].update(range="AREA"),
     "vesper.json", "cards[1].abilities[0].range", "PUSH AREA"),
    ("helper attack without helper", "heroes/vesper.json",
     lambda d: d["cards"][0]["abilities"].append({"kind": "HELPER_ATTACK", "value": 1}), "vesper.json",
     "cards[0].abilities[1].kind", "needs a helper"),
    ("unknown ability kind", "heroes/vesper.json", lambda d: d["cards"][0]["abilities"][0].update(kind="FLY"),
     "vesper.json", "cards[0].abilities[0].kind", "FLY"),
    ("star list names an unknown star", "solo/vesper.json", lambda d: d["star_priority"][1].update(name="Zap"),
     "vesper.json", "star_priority[1].name", "not a star ability"),
    ("unknown card policy", "orders/base.json", lambda d: d.update(card_policy="dice"), "base.json", "card_policy",
     "not a card-choice policy"),
    ("order card compass", "orders/base.json", lambda d: d["cards"][0].update(compass="NE"), "base.json",
     "cards[0].compass", "NE"),
    ("helper without a cell", "setups/warden-vs-vesper.json", lambda d: d["human"].pop("helper_cell"),
     "warden-vs-vesper.json", "human.helper_cell", "needs a starting cell"),
    ("warrior on a location", "setups/warden-vs-vesper.json", lambda d: d["emperor"].update(cell="B4"),
     "warden-vs-vesper.json", "emperor.cell", "holds a location"),
    ("two warriors on one cell", "setups/warden-vs-vesper.json", lambda d: d["emperor"].update(cell="C1"),
     "warden-vs-vesper.json", "emperor.cell", "already holds"),
    ("unknown battlefield", "setups/warden-vs-vesper.json", lambda d: d.update(battlefield="BF-X"),
     "warden-vs-vesper.json", "battlefield", "no battlefield"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_mistake_names_file_field_and_problem(content, case):
    _id, rel, fn, file, field, words = case
    _edit(content, rel, fn)
    probs = _problems(content)
    assert any(f == file and fld == field and words in msg for f, fld, msg in probs), probs


def test_every_problem_is_reported_at_once_and_load_raises(content):
    _edit(content, "heroes/warden.json", lambda d: d.update(helth=3))
    _edit(content, "orders/base.json", lambda d: d.update(card_policy="dice"))
    (content / "setups" / "broken.json").write_text("{not json")
    probs = _problems(content)
    assert {p[0] for p in probs} >= {"warden.json", "base.json", "broken.json"}
    assert any("not valid JSON" in p[2] for p in probs)
    with pytest.raises(ContentError) as exc:
        load_catalog(content)
    assert len(exc.value.problems) == len(probs)


def test_emperor_hero_needs_a_solo_card(content):
    (content / "solo" / "vesper.json").unlink()
    probs = _problems(content)
    assert any(f == "warden-vs-vesper.json" and fld == "emperor.hero" and "solo card" in m for f, fld, m in probs)


def test_a_ruleset_with_content_of_its_own():
    """The domain never reads files: content is handed in (use_content / a catalog)."""
    rs = EmperorRuleset(load_catalog())
    assert {c.id for c in rs.scenarios()} == set(SETUPS)
    with pytest.raises(SetupError) as exc:
        rs.seats("NOPE", {})
    assert exc.value.field == "scenario"
    with pytest.raises(RuntimeError):
        EmperorRuleset().catalog()
