"""Small modules (issue 25, DESIGN 1): a module of product code longer than ``LIMIT`` lines says at its top
why it is kept as one (a paragraph of its docstring beginning ``Over 500 lines``), so a module that grows
past the limit without a reason fails here and is split or explained; a reason left on a module that shrank
below the limit fails too."""
from __future__ import annotations

import ast
from pathlib import Path

from tests.kernel.test_imports import PRODUCT

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 500
REASON = "Over 500 lines"


def _long_modules_without_a_reason(root: Path) -> list[str]:
    bad = []
    for package in PRODUCT:
        for path in sorted((root / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            doc = ast.get_docstring(ast.parse(text)) or ""
            if (text.count("\n") > LIMIT) != (REASON in doc):  # long without a reason, or a reason gone stale
                bad.append(f"{path.relative_to(root)} ({text.count(chr(10))} lines)")
    return bad


def test_every_long_module_says_why_it_is_one():
    assert _long_modules_without_a_reason(ROOT) == []


def test_the_check_fails_on_a_long_module_without_a_reason(tmp_path):
    pkg = tmp_path / PRODUCT[0]
    pkg.mkdir()
    (pkg / "short.py").write_text('"""Short."""\nx = 1\n', encoding="utf-8")
    (pkg / "stale.py").write_text(f'"""Short.\n\n{REASON}: stale."""\nx = 1\n', encoding="utf-8")
    (pkg / "long.py").write_text('"""Long, no reason."""\n' + "x = 1\n" * (LIMIT + 1), encoding="utf-8")
    (pkg / "kept.py").write_text(f'"""Long.\n\n{REASON}: one idea."""\n' + "x = 1\n" * (LIMIT + 1),
                                 encoding="utf-8")
    assert _long_modules_without_a_reason(tmp_path) == [f"{PRODUCT[0]}/long.py ({LIMIT + 2} lines)",
                                                       f"{PRODUCT[0]}/stale.py (4 lines)"]
