"""Rules references in other languages (docs/rules-languages.md): every ``domain/*/rules.<lang>.md`` has
only ids of its English ``rules.md``, in the same order and under the same sections, each text a
translation (not the English one); the registry serves them and nothing else."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.kernel import registry
from domain.kernel.rules import RULE_ID, Rule, parse_rules

ROOT = Path(__file__).resolve().parents[2]
#: The translations the project ships (issue 28): the languages of the rulebooks the players hold.
EXPECTED = {("hoth", "uk"), ("hoth", "cs"), ("hoth", "it"), ("smoke", "ru"), ("emperor", "uk")}


def translation_files() -> list[Path]:
    return sorted(p for p in (ROOT / "domain").glob("*/rules.*.md")
                  if re.fullmatch(r"rules\.[a-z]{2,3}\.md", p.name))


def _groups(rules: list[Rule]) -> dict[str, int]:
    """Each rule's section, as a number that changes where the section heading changes."""
    out: dict[str, int] = {}
    group, last = -1, object()
    for r in rules:
        if r.section != last:
            group, last = group + 1, r.section
        out[r.id] = group
    return out


def structure_mismatches(english: list[Rule], translated: list[Rule]) -> list[str]:
    """What breaks the convention in ``translated`` against ``english`` (empty: nothing)."""
    where = {r.id: i for i, r in enumerate(english)}
    by_id = {r.id: r for r in english}
    wrong = [f"{r.id}: no such id in English" for r in translated if r.id not in where]
    if wrong:
        return wrong
    for a, b in zip(translated, translated[1:]):
        if where[a.id] > where[b.id]:
            wrong.append(f"{b.id} comes after {a.id} (English has it before)")
    en_group, tr_group = _groups(english), _groups(translated)
    for a, b in zip(translated, translated[1:]):
        if (en_group[a.id] == en_group[b.id]) != (tr_group[a.id] == tr_group[b.id]):
            wrong.append(f"{a.id} and {b.id}: {'one section' if en_group[a.id] == en_group[b.id] else 'two sections'}"
                         " in English, not in the translation")
    for r in translated:
        en = by_id[r.id]
        if (en.section is None) != (r.section is None):
            wrong.append(f"{r.id}: section {r.section!r} where English has {en.section!r}")
        if r.text.strip() == en.text.strip():
            wrong.append(f"{r.id}: the text is the English text")
        if (en.title is None) != (r.title is None):
            wrong.append(f"{r.id}: title {r.title!r} where English has {en.title!r}")
        if _section_number(en.section) != _section_number(r.section):
            wrong.append(f"{r.id}: under section {_section_number(r.section)} where English has "
                         f"{_section_number(en.section)}")
        for marker in MARKERS:
            want, got = (len(re.findall(rf"\b{marker}\b", f"{x.title or ''} {x.text}")) for x in (en, r))
            if got < want:
                wrong.append(f"{r.id}: {marker} {want} times in English, {got} in the translation")
    return wrong


def _section_number(section: str | None) -> str | None:
    m = re.match(r"^\s*(\d+(?:\.\d+)*)", section or "")
    return m.group(1) if m else None


#: The source and status markers a translation keeps untranslated (docs/rules-languages.md, point 6).
MARKERS = ("INFERRED", "PROPOSED", "GAP")


def _english_of(path: Path) -> list[Rule]:
    return parse_rules((path.parent / registry.RULES_FILE).read_text(encoding="utf-8"))


# -- the checker itself --------------------------------------------------------------------------------
EN = """# Demo
## 1. Moving
* **DEMO-MOVE-1 (One at a time).** Units move one after another.
* **DEMO-MOVE-2.** A move is a path.
## 2. Fighting
* **DEMO-FIGHT-1 (Dice).** Roll the dice.
"""


def test_the_checker_accepts_a_faithful_partial_translation_and_names_each_kind_of_break():
    en = parse_rules(EN)
    good = parse_rules("# Демо\n## 1. Рух\n* **DEMO-MOVE-1 (По одному).** Загони рухаються по черзі.\n"
                       "## 2. Бій\n* **DEMO-FIGHT-1 (Кубики).** Киньте кубики.\n")
    assert structure_mismatches(en, good) == []
    merged = parse_rules("# Демо\n* **DEMO-MOVE-1 (По одному).** Загони.\n* **DEMO-FIGHT-1 (Кубики).** Кубики.\n")
    assert any("two sections in English" in w for w in structure_mismatches(en, merged))
    swapped = parse_rules("# Д\n## 1\n* **DEMO-MOVE-2.** Шлях.\n* **DEMO-MOVE-1 (По одному).** Загони.\n")
    assert any("comes after" in w for w in structure_mismatches(en, swapped))
    invented = parse_rules("# Д\n## 1\n* **DEMO-MOVE-9 (Нове).** Вигадане.\n")
    assert structure_mismatches(en, invented) == ["DEMO-MOVE-9: no such id in English"]
    copied = parse_rules("# Д\n## 1. Рух\n* **DEMO-MOVE-1 (По одному).** Units move one after another.\n")
    assert structure_mismatches(en, copied) == ["DEMO-MOVE-1: the text is the English text"]
    renumbered = parse_rules("# Д\n## 3. Рух\n* **DEMO-MOVE-1 (По одному).** Загони.\n")
    assert structure_mismatches(en, renumbered) == ["DEMO-MOVE-1: under section 3 where English has 1"]
    marked = parse_rules("# Demo\n## 1. Moving\n* **DEMO-MOVE-1 (One at a time).** Units move (INFERRED).\n")
    unmarked = parse_rules("# Д\n## 1. Рух\n* **DEMO-MOVE-1 (По одному).** Загони (виведено).\n")
    assert structure_mismatches(marked, unmarked) == ["DEMO-MOVE-1: INFERRED 1 times in English, 0 in the translation"]


# -- the shipped translations --------------------------------------------------------------------------
@pytest.mark.parametrize("path", translation_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_translation_has_only_english_ids_in_the_same_order_and_sections_each_text_translated(path):
    text = path.read_text(encoding="utf-8")
    translated = parse_rules(text)
    assert translated, f"{path.name}: no rule in it"
    heads = re.findall(rf"^\s*[-*]\s+\*\*({RULE_ID})", text, flags=re.M)
    assert len(heads) == len(set(heads)), [h for h in heads if heads.count(h) > 1]
    assert set(heads) <= {r.id for r in translated}  # every rule head the file has is read as a rule
    assert structure_mismatches(_english_of(path), translated) == []


def test_the_translations_of_the_rulebooks_languages_are_where_the_convention_puts_them():
    present = {(p.parent.name, p.name.split(".")[1]) for p in translation_files()}
    rulesets = {rs.id for rs in registry.all_rulesets()}
    for ruleset, lang in present:
        assert ruleset in rulesets | {"kernel"}, f"domain/{ruleset}/rules.{lang}.md: no such ruleset"
        # a ruleset speaks the languages of its rulebooks; the referee's own rules, any of them
        assert (ruleset, lang) in EXPECTED or (ruleset == "kernel" and lang in {la for _, la in EXPECTED}), (
            f"domain/{ruleset}/rules.{lang}.md: not a language of this ruleset's rulebooks")
    assert ("emperor", "uk") in present


def test_the_registry_serves_translated_rules_by_english_id_and_nothing_else():
    english = registry.rules_of("emperor")
    uk = registry.translated_rules_of("emperor", "uk")
    assert english is not None and uk
    assert set(uk) <= set(english)
    some = next(iter(uk.values()))
    assert some.text != english[some.id].text and re.search("[а-яіїєґ]", some.text)
    # a language with no translation of this ruleset: none of its own rules in it, only the referee's
    # translated ones (the service falls back to English for the others)
    italian = registry.translated_rules_of("emperor", "it")
    assert italian is not None and set(italian) == set(registry.kernel_rules("it"))
    assert not any(rid.startswith(("SOLO-", "BASE-", "GAP-A-")) for rid in italian)
    assert registry.translated_rules_of("emperor", "en") == english
    assert registry.translated_rules_of("chess", "uk") is None
    with pytest.raises(ValueError):
        registry.translated_rules_of("emperor", "../hoth/rules")
