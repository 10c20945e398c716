"""The layers import only downwards (DESIGN 1, 9; issue 11 "the kernel proves general").

Every ``import`` of every module -- at module level or inside a function -- is read from the source
(``ast``), relative imports resolved, so a lazy import cannot hide a dependency:

- ``domain/`` imports no ``scenarios``, ``service`` or ``projections`` (the domain is pure; content
  reaches it through the registry's ``use_content``, handed in by a composition root), neither by an
  ``import`` statement nor by name (``importlib``): no module of ``domain/`` names ``scenarios``, and
  discovering every ruleset loads no module of it;
- ``projections/`` imports no ``service`` (the service hands it the log, a ``domain.kernel.log.EventLog``);
- ``service/`` and ``projections/`` import no ruleset package (``domain.<r>`` other than the kernel):
  a new ruleset touches ``domain/<r>``, ``scenarios/<r>`` and tests only;
- no import cycle between the modules of product code (function bodies included: a lazy import
  hides a cycle, it does not break it), and no import inside a function body unless a comment on its
  line names the reason (:data:`tests.kernel.import_graph.REASONS`: an optional dependency, a heavy
  import on a cold path).

Reading the graph yourself: ``python -m tests.kernel.import_graph`` prints the cycles and the
function-body imports of product code.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from . import import_graph

ROOT = Path(__file__).resolve().parents[2]


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file."""
    return [(i.line, i.name) for i in import_graph.imports_of(ROOT, path)]


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


#: A module name of the content package, as a string a dynamic import would take.
_CONTENT_NAME = re.compile(r"scenarios(\.[A-Za-z_][A-Za-z_0-9]*)*")


def test_domain_names_no_content_package():
    """No ``importlib.import_module("scenarios...")`` or ``find_spec``: no string of domain/ code is a module
    name of the content package (a ruleset gets its content from a composition root)."""
    bad = []
    for f in _files("domain"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and _CONTENT_NAME.fullmatch(node.value):
                bad.append(f"{f.relative_to(ROOT)}:{node.lineno} names {node.value!r}")
    assert not bad, "\n".join(bad)


def test_discovering_every_ruleset_loads_no_content():
    """In a fresh interpreter, the registry discovers every ruleset (and its rules) without a module of
    ``scenarios`` loaded; the content arrives only when a root hands it in."""
    code = ("import sys; from domain.kernel import registry\n"
            "ids = [rs.id for rs in registry.all_rulesets()]\n"
            "[registry.rules_of(i) for i in ids]\n"
            "assert {'hoth', 'smoke', 'emperor'} <= set(ids), ids\n"
            "loaded = sorted(m for m in sys.modules if m == 'scenarios' or m.startswith('scenarios.'))\n"
            "assert not loaded, loaded\n"
            "from scenarios.content import hand_to_rulesets; hand_to_rulesets()\n"
            "assert registry.get('hoth').catalog().scenarios\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


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
        importlib.import_module(import_graph.module_name(ROOT, f))
    edges = {(import_graph.module_name(ROOT, f), n) for f in _files("projections") for _, n in imports_of(f)}
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


#: The top-level packages of product code (ops/ and tests/ are scripts and checks, not product).
PRODUCT = ("domain", "service", "projections", "scenarios", "bots")


def _plant(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text, encoding="utf-8")


def test_a_planted_cycle_is_found_even_behind_a_function_body_import(tmp_path):
    _plant(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import B\n\nA = 1\n",
        "pkg/b.py": "B = 2\n\n\ndef late():\n    from . import a  # cold path: planted\n    return a.A\n",
        "pkg/c.py": "from pkg import a\n",
    })
    found = import_graph.cycles(import_graph.module_graph(tmp_path, ["pkg"]))
    assert found == [["pkg.a", "pkg.b"]]
    # the same tree without the lazy import has none
    (tmp_path / "pkg/b.py").write_text("B = 2\n", encoding="utf-8")
    assert import_graph.cycles(import_graph.module_graph(tmp_path, ["pkg"])) == []


def test_a_planted_cycle_through_a_package_init_is_found(tmp_path):
    _plant(tmp_path, {
        "pkg/__init__.py": "from .x import X\n",
        "pkg/x.py": "from pkg import Y\nX = 1\n",
    })
    assert import_graph.cycles(import_graph.module_graph(tmp_path, ["pkg"])) == [["pkg", "pkg.x"]]


def test_a_planted_function_body_import_is_found_unless_its_reason_is_named(tmp_path):
    _plant(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": ("import json\n\n\ndef f():\n    import os\n    return os\n\n\n"
                     "class K:\n    async def g(self):\n        from json import (\n            dumps,\n        )\n"
                     "        return dumps\n\n\n"
                     "def h():\n    import numpy  # optional dependency: only the bench needs it\n    return numpy\n"),
    })
    bad = import_graph.body_imports(tmp_path, ["pkg"])
    assert bad == ["pkg/a.py:5 imports os inside a function", "pkg/a.py:11 imports json inside a function"]
    assert import_graph.count_body_imports(tmp_path, ["pkg"]) == 3
    # a comment that names no reason does not excuse it
    (tmp_path / "pkg/a.py").write_text("def f():\n    import os  # noqa\n    return os\n", encoding="utf-8")
    assert import_graph.body_imports(tmp_path, ["pkg"]) == ["pkg/a.py:2 imports os inside a function"]


def test_no_import_cycle_in_product_code():
    found = import_graph.cycles(import_graph.module_graph(ROOT, PRODUCT))
    new = [c for c in found if c not in KNOWN_CYCLES]
    assert not new, "\n".join(" <-> ".join(c) for c in new)


def test_no_function_body_import_in_product_code_without_a_reason():
    bad = import_graph.body_imports(ROOT, PRODUCT)
    assert len(bad) <= KNOWN_BODY_IMPORTS, "\n".join(bad)


#: Cycles still being broken (this list only shrinks; a new cycle fails the test).
KNOWN_CYCLES: list[list[str]] = []
#: Function-body imports without a reason (none: a reason comment names why one stays).
KNOWN_BODY_IMPORTS = 0


def test_the_read_models_implement_the_read_model_port():
    """``projections.ReadModels`` offers every method of the service's read-model port
    (:mod:`service.read_port`) with the same parameters: the service asks it through the port only."""
    import inspect

    from projections.read_models import ReadModels
    from service.read_port import CatchUpPort, ReadModelPort, ReadSidePort, WriteSidePort

    for port in (ReadSidePort, WriteSidePort, CatchUpPort):
        for name, fn in inspect.getmembers(port, inspect.isfunction):
            if name.startswith("_"):
                continue
            want = list(inspect.signature(fn).parameters)
            have = list(inspect.signature(getattr(ReadModels, name)).parameters)
            assert want == have, (port.__name__, name, want, have)
    assert issubclass(ReadModels, ReadModelPort)


def test_the_game_service_implements_the_built_in_players_port(tmp_path):
    """``service.game_service.GameService`` offers every method of the port the built-in players are handed
    (:class:`service.bot_players.GameHost`) with its parameters, and sets every attribute of it: the players
    drive the service through the port, not by importing it."""
    import inspect

    from service.bot_players import GameHost
    from service.game_service import GameService
    from service.store import EventStore

    for name, fn in inspect.getmembers(GameHost, inspect.isfunction):
        if name.startswith("_"):
            continue
        want = list(inspect.signature(fn).parameters)
        have = list(inspect.signature(getattr(GameService, name)).parameters)
        assert set(want) <= set(have), (name, want, have)
    store = EventStore(tmp_path)
    try:
        svc = GameService(store)
        for attr in GameHost.__annotations__:
            assert hasattr(svc, attr), attr
    finally:
        store.close()


def test_the_store_adapters_stand_on_their_own():
    """The SQLite and PostgreSQL adapters import neither each other nor each other's names, and neither
    inherits from the other: what they share is composed in (``service/store/log_sql.py``; no base class
    of ours at all: ``tests/kernel/test_store_adapters.py``)."""
    graph = import_graph.module_graph(ROOT, PRODUCT)
    assert "service.store.sqlite" not in graph["service.store.postgres"]
    assert "service.store.postgres" not in graph["service.store.sqlite"]
    assert "service.store.log_sql" in graph["service.store.postgres"]
    assert "service.store.log_sql" in graph["service.store.sqlite"]

    from service.store.postgres import PgEventStore
    from service.store.sqlite import EventStore

    assert EventStore not in PgEventStore.__mro__ and PgEventStore not in EventStore.__mro__
