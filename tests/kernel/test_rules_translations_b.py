"""The translated rules references of Clouds of Smoke (ru) and Battle of Hoth (cs, it): every rule id they
define is an id of the English reference, in the English order, under the same section number, and the
markers GAP / INFERRED / PROPOSED of the English text are kept where the rule is translated."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.kernel.rules import parse_rules

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = [("smoke", "ru"), ("hoth", "cs"), ("hoth", "it")]


def _rules(path: Path):
    return parse_rules(path.read_text(encoding="utf-8"))


def _section_number(section: str | None) -> str | None:
    m = re.match(r"^\s*(\d+(?:\.\d+)*)", section or "")
    return m.group(1) if m else None


def _present(ruleset: str, lang: str) -> Path:
    path = ROOT / "domain" / ruleset / f"rules.{lang}.md"
    if not path.is_file():
        pytest.skip(f"{path.name} of {ruleset} not written yet")
    return path


@pytest.mark.parametrize(("ruleset", "lang"), TRANSLATIONS)
def test_translated_ids_are_english_ids_in_english_order(ruleset, lang):
    english = [r.id for r in _rules(ROOT / "domain" / ruleset / "rules.md")]
    translated = [r.id for r in _rules(_present(ruleset, lang))]
    assert translated, "a translation defines at least one rule"
    assert len(set(translated)) == len(translated), "an id is defined twice"
    unknown = [i for i in translated if i not in english]
    assert not unknown, f"ids not in the English reference: {unknown}"
    positions = [english.index(i) for i in translated]
    assert positions == sorted(positions), "ids out of the English order"


@pytest.mark.parametrize(("ruleset", "lang"), TRANSLATIONS)
def test_translated_rules_stand_under_the_same_section_number(ruleset, lang):
    english = {r.id: _section_number(r.section) for r in _rules(ROOT / "domain" / ruleset / "rules.md")}
    moved = {
        r.id: (english[r.id], _section_number(r.section))
        for r in _rules(_present(ruleset, lang))
        if r.id in english and english[r.id] != _section_number(r.section)
    }
    assert not moved, f"rules under another section than in English: {moved}"


@pytest.mark.parametrize(("ruleset", "lang"), TRANSLATIONS)
def test_translated_rules_keep_the_markers(ruleset, lang):
    english = {r.id: r for r in _rules(ROOT / "domain" / ruleset / "rules.md")}
    lost = []
    for r in _rules(_present(ruleset, lang)):
        src = english[r.id]
        for marker in ("INFERRED", "PROPOSED", "GAP"):
            want = len(re.findall(rf"\b{marker}\b", (src.title or "") + " " + src.text))
            got = len(re.findall(rf"\b{marker}\b", (r.title or "") + " " + r.text))
            if got < want:
                lost.append((r.id, marker, want, got))
    assert not lost, f"markers lost in translation (id, marker, English count, translated count): {lost}"
