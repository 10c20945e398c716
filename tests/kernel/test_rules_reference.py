"""The rules reference (DESIGN 8): the parser of the rules files, and every rule id cited anywhere in
the project's code, content, docs and tests has a text in some ruleset's reference or the kernel's."""
from __future__ import annotations

import re
from pathlib import Path

from domain.kernel import registry
from domain.kernel.rules import RULE_ID, parse_rules, rule_ids_in

ROOT = Path(__file__).resolve().parents[2]
#: What is scanned for cited ids: every text file of these folders (and the README).
SCANNED_DIRS = ("domain", "scenarios", "service", "projections", "ops", "tests", "web", "bots", "docs")
SCANNED_SUFFIXES = {".py", ".md", ".json", ".toml", ".ambr", ".yaml", ".yml", ".txt", ".html", ".js", ".css"}
SKIP_PARTS = {".venv", "__pycache__", "node_modules", "data", ".git"}


def _test_rulesets():
    """The rulesets of the tests and drills (registered by the tests that use them)."""
    from tests.rulesets.drill import RULESET as drill
    from tests.projections.tally import RULESET as tally
    from tests.service.toy_ruleset import RULESET as toy

    return [toy, tally, drill]


def all_references() -> dict[str, dict]:
    """Every rules reference present: each ruleset's (registered or test) and the kernel's."""
    refs: dict[str, dict] = {"kernel": registry.kernel_rules()}
    for rs in registry.all_rulesets() + _test_rulesets():
        refs[rs.id] = {r.id: r for r in parse_rules(registry.rules_markdown(rs) or "")}
    return refs


def _scanned_files() -> list[Path]:
    out = [ROOT / "README.md"]
    for d in SCANNED_DIRS:
        base = ROOT / d
        if not base.is_dir():
            continue
        for p in base.rglob("*"):
            if p.is_file() and p.suffix in SCANNED_SUFFIXES and not (set(p.relative_to(ROOT).parts) & SKIP_PARTS):
                out.append(p)
    return out


# -- the parser ---------------------------------------------------------------------------------------
SAMPLE = """# Sample

## 1. Moving

* **DEMO-MOVE-1 (One at a time).** Units move one after another. [UA]
* **DEMO-MOVE-2.** A move is a path:
  * (a) of adjacent steps;
  * (b) never through a unit.

| Unit | Move |
|---|---|
| scout | 3 |

Worked example: this paragraph belongs to the section, not to DEMO-MOVE-2.

- **DEMO-MOVE-3. Stop terrain.** Rocks stop a move.
- **DEMO-WORD.** An id without a number.
* **DEMO-MOVE-1 (again).** A second definition is ignored.

## 2. Gaps

| ID | Issue | Sources | Recommended |
|---|---|---|---|
| DEMO-GAP-1 | Dice faces | none | 2 infantry, 1 vehicle |

| Name | Other name |
|---|---|
| AT-AT | AT-AT |
"""


def test_parse_rules_reads_items_titles_continuations_and_table_rows():
    rules = {r.id: r for r in parse_rules(SAMPLE)}
    assert list(rules) == ["DEMO-MOVE-1", "DEMO-MOVE-2", "DEMO-MOVE-3", "DEMO-WORD", "DEMO-GAP-1"]
    m1 = rules["DEMO-MOVE-1"]
    assert (m1.title, m1.text, m1.section) == ("One at a time", "Units move one after another. [UA]", "1. Moving")
    m2 = rules["DEMO-MOVE-2"]
    assert m2.title is None
    assert "* (a) of adjacent steps;" in m2.text and "| scout | 3 |" in m2.text  # indented lines and the table
    assert "Worked example" not in m2.text  # an unindented paragraph ends the rule
    assert rules["DEMO-MOVE-3"].title == "Stop terrain" and rules["DEMO-MOVE-3"].text == "Rocks stop a move."
    gap = rules["DEMO-GAP-1"]
    assert gap.title == "Dice faces" and gap.text == "Sources: none\nRecommended: 2 infantry, 1 vehicle"
    assert gap.section == "2. Gaps"
    assert "AT-AT" not in rules  # a name table is not a rules table


def test_rule_ids_in_finds_numbered_ids_of_the_given_prefixes_only():
    text = "HOTH-LOS-3, HOTH-MOVE-1..12, HOTH-LOS-* and HOTH-GAP-44; SMOKE-BAT-3; XHOTH-A-1; HOTH-GAP-10x"
    assert rule_ids_in(text, {"HOTH"}) == {"HOTH-LOS-3", "HOTH-MOVE-1", "HOTH-GAP-44"}
    assert rule_ids_in(text, {"HOTH", "SMOKE"}) >= {"SMOKE-BAT-3"}


# -- the shipped references ----------------------------------------------------------------------------
def test_every_ruleset_and_the_kernel_have_a_reference_without_duplicate_ids():
    refs = all_references()
    assert "hoth" in refs and len(refs["hoth"]) > 300
    assert {"UMPIRE-UNDO-1", "UMPIRE-UNDO-7", "UMPIRE-IDEMPOTENCY", "UMPIRE-READ-ONLY-1"} <= set(refs["kernel"])
    for rs in registry.all_rulesets():
        assert refs[rs.id], f"ruleset {rs.id} has no rules reference (domain/{rs.id}/rules.md)"
        text = registry.rules_markdown(rs) or ""
        heads = re.findall(rf"^\s*[-*]\s+\*\*({RULE_ID})", text, flags=re.M)
        assert len(heads) == len(set(heads)), [h for h in heads if heads.count(h) > 1]
    # the references of the rulesets do not define each other's ids, nor the kernel's
    owners: dict[str, str] = {}
    for name, rules in refs.items():
        for rid in rules:
            assert rid not in owners, f"{rid} is defined by both {owners[rid]} and {name}"
            owners[rid] = name


def test_hoth_reference_is_the_shared_rules_file_with_the_campaign_rules():
    """domain/hoth/rules.md holds every rule of shared/rules/battle-of-hoth.md, ids and texts unchanged."""
    # shared/ sits beside the repository (or beside the folder of its worktrees); not part of a clone
    candidates = [base / "shared" / "rules" / "battle-of-hoth.md" for base in (ROOT.parent, ROOT.parent.parent)]
    shared = next((c for c in candidates if c.is_file()), None)
    hoth = registry.rules_of("hoth")
    assert hoth is not None
    assert hoth["HOTH-LOS-RIDGE-1"].text.startswith("When the attacker **and** the target are **both units**")
    assert {f"CAMPAIGN-{i}" for i in range(1, 7)} <= set(hoth)
    if shared is not None:
        for r in parse_rules(shared.read_text()):
            assert hoth[r.id].text == r.text, r.id


def test_every_rule_id_cited_in_code_content_docs_and_tests_has_a_text():
    refs = all_references()
    known = {rid for rules in refs.values() for rid in rules}
    prefixes = {rid.split("-", 1)[0] for rid in known}
    assert {"HOTH", "CAMPAIGN", "UMPIRE", "TOY"} <= prefixes
    missing: dict[str, set[str]] = {}
    scanned = 0
    for path in _scanned_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        scanned += 1
        for rid in rule_ids_in(text, prefixes) - known:
            missing.setdefault(rid, set()).add(str(path.relative_to(ROOT)))
    assert scanned > 100
    assert not missing, "rule ids cited without a text: " + "; ".join(
        f"{rid} in {', '.join(sorted(files))}" for rid, files in sorted(missing.items()))


def _strings(node) -> list[str]:
    import ast

    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def test_a_refusal_sentence_cites_no_rule_but_the_one_it_names():
    """A refusal's ``rule`` is the id its sentence applies: the sentence of a ``RuleViolation`` (or of a
    ``NotYourDecision``) written in the domain never cites another rule id (issue 13: a detail citing
    HOTH-TURN-2 beside ``rule: HOTH-CARD-1``)."""
    import ast

    refs = all_references()
    prefixes = {rid.split("-", 1)[0] for rules in refs.values() for rid in rules}
    wrong = []
    calls = 0
    for path in (ROOT / "domain").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "RuleViolation" and node.args:
                first = node.args[0]
                rule = first.value if isinstance(first, ast.Constant) else None
                said = [s for a in node.args[1:] for s in _strings(a)]
            elif name == "NotYourDecision" and node.args:
                kw = {k.arg: k.value for k in node.keywords}
                rule = kw["rule"].value if isinstance(kw.get("rule"), ast.Constant) else None
                said = _strings(node.args[0])
            else:
                continue
            calls += 1
            cited = set().union(*(rule_ids_in(s, prefixes) for s in said)) if said else set()
            if cited - ({rule} if rule else set()):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} rule={rule} cites {sorted(cited)}")
    assert calls > 50
    assert not wrong, wrong
