"""The layers import only downwards (DESIGN 1, 9; issue 11 "the kernel proves general").

Every ``import`` of every module -- at module level or inside a function -- is read from the source
(``ast``), relative imports resolved, so a lazy import cannot hide a dependency:

- ``domain/`` imports no ``scenarios``, ``service`` or ``projections`` (the domain is pure; content
  reaches it through the registry's ``use_content``);
- ``projections/`` imports no ``service`` (the service hands it the log, a ``domain.kernel.log.EventLog``);
- ``service/`` and ``projections/`` import no ruleset package (``domain.<r>`` other than the kernel):
  a new ruleset touches ``domain/<r>``, ``scenarios/<r>`` and tests only.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mod = _module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target))
            # ``from domain import hoth`` imports the package domain.hoth
            out.extend((node.lineno, f"{target}.{a.name}") for a in node.names if a.name != "*")
    return out


def _files(top: str) -> list[Path]:
    return sorted((ROOT / top).rglob("*.py"))


def _top(name: str) -> str:
    return name.split(".", 1)[0]


def _ruleset_package(name: str) -> str | None:
    """``domain.<r>`` for an import of a ruleset package (or anything inside one)."""
    parts = name.split(".")
    if len(parts) >= 2 and parts[0] == "domain" and parts[1] != "kernel":
        return ".".join(parts[:2])
    return None


def _is_module(name: str) -> bool:
    """Is ``name`` a module or package of the repository (not a name imported from a module)?"""
    rel = Path(*name.split("."))
    return (ROOT / rel).is_dir() or (ROOT / rel.with_suffix(".py")).is_file()


def violations(top: str, forbidden) -> list[str]:
    bad = []
    for f in _files(top):
        for line, name in imports_of(f):
            why = forbidden(name)
            if why:
                bad.append(f"{f.relative_to(ROOT)}:{line} imports {name} ({why})")
    return bad


def test_the_scan_sees_relative_lazy_and_from_imports(tmp_path):
    """The checker itself: a lazy relative import and a ``from domain import hoth`` are seen."""
    pkg = ROOT / "projections" / "views.py"
    names = {n for _, n in imports_of(pkg)}
    assert "domain.kernel.chain" in names or "domain.kernel" in names
    src = ROOT / "service" / "_scan_probe_tmp.py"
    try:
        src.write_text("def f():\n    from ..domain import hoth\n    from . import store\n", encoding="utf-8")
        names = {n for _, n in imports_of(src)}
    finally:
        src.unlink()
    assert "domain.hoth" in names and "service.store" in names
    assert _ruleset_package("domain.hoth.campaign") == "domain.hoth"
    assert _ruleset_package("domain.kernel.log") is None


def test_domain_imports_no_content_service_or_projections():
    bad = violations("domain", lambda n: "the domain is pure" if _top(n) in {"scenarios", "service", "projections"}
                     else None)
    assert not bad, "\n".join(bad)


def test_projections_import_no_service():
    bad = violations("projections", lambda n: "the service imports projections, never the reverse"
                     if _top(n) == "service" else None)
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("top", ["service", "projections"])
def test_service_and_projections_import_no_ruleset(top):
    def ruleset(n: str) -> str | None:
        pkg = _ruleset_package(n)
        if pkg is None:
            return None
        if not _is_module(pkg):
            return None  # ``from domain import kernel``-style names that are not packages
        return "generic code reaches rulesets through domain.kernel.registry"

    bad = violations(top, ruleset)
    assert not bad, "\n".join(bad)


def test_no_cycle_between_service_and_projections():
    """The module graph of service/ + projections/ has no edge from projections into service, so no
    cycle runs through both; and the modules import cleanly on their own."""
    import importlib

    for f in _files("projections"):
        importlib.import_module(_module_name(f))
    edges = {(_module_name(f), n) for f in _files("projections") for _, n in imports_of(f)}
    assert not [e for e in edges if _top(e[1]) == "service"]


def test_the_sqlite_store_is_an_event_log(tmp_path):
    """Projections read the log through ``domain.kernel.log.EventLog`` only; the SQLite store (and any
    other backend) offers every method of it with the same parameters."""
    import inspect

    from domain.kernel.log import EventLog
    from service.store import EventStore

    store = EventStore(tmp_path)
    try:
        assert isinstance(store, EventLog)
        for name, fn in inspect.getmembers(EventLog, inspect.isfunction):
            if name.startswith("_"):
                continue
            want = list(inspect.signature(fn).parameters)
            have = list(inspect.signature(getattr(EventStore, name)).parameters)
            assert want == have, (name, want, have)
        assert store.count_events() == 0
    finally:
        store.close()
