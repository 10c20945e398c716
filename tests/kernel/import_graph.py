"""The import graph of a source tree, read with the standard ``ast`` module (nothing is imported).

- :func:`imports_of`: every import of a file, relative imports resolved, with whether it stands
  inside a function body;
- :func:`module_graph`: module -> the modules of the tree it imports (``from a import b`` names the
  module ``a.b`` when it is one, else ``a``; a package's ``__init__`` is not added implicitly);
- :func:`cycles`: the strongly connected components of more than one module (or a module importing
  itself), each sorted;
- :func:`body_imports`: imports inside a function body whose line carries no reason comment.

A reason comment is ``# <reason>: <words>`` on a line of the import statement, the reason one of
:data:`REASONS`: an optional dependency, a heavy import on a cold path, or a file being moved by
another piece of work at the same time.
"""
from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: The reasons a comment may give for an import inside a function body.
REASONS = ("optional dependency", "cold path", "kernel-game: moving")
_REASON = re.compile(r"#\s*(" + "|".join(re.escape(r) for r in REASONS) + r")\b")


@dataclass(frozen=True)
class Import:
    line: int
    end_line: int
    name: str
    in_function: bool


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _walk(node: ast.AST, in_function: bool):
    for child in ast.iter_child_nodes(node):
        inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        yield child, in_function
        yield from _walk(child, inside)


def _is_module(root: Path, name: str) -> bool:
    rel = Path(*name.split("."))
    return (root / rel / "__init__.py").is_file() or (root / rel.with_suffix(".py")).is_file()


def imports_of(root: Path, path: Path) -> list[Import]:
    """Every import in the file, one per imported module: ``import a.b`` names ``a.b``; ``from a import b``
    names ``a.b`` when that is a module of the tree, else ``a`` (``b`` is a name defined in ``a``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mod = module_name(root, path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out: list[Import] = []
    for node, in_function in _walk(tree, False):
        end = getattr(node, "end_lineno", None) or getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            out.extend(Import(node.lineno, end, a.name, in_function) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                sub = f"{target}.{a.name}"
                name = sub if a.name != "*" and _is_module(root, sub) else target
                out.append(Import(node.lineno, end, name, in_function))
    return out


def files(root: Path, tops: Iterable[str]) -> list[Path]:
    return sorted(p for top in tops for p in (root / top).rglob("*.py"))


def _owner(root: Path, name: str) -> str | None:
    """The longest prefix of ``name`` that is a module of the tree."""
    parts = name.split(".")
    while parts:
        if _is_module(root, ".".join(parts)):
            return ".".join(parts)
        parts.pop()
    return None


def module_graph(root: Path, tops: Iterable[str]) -> dict[str, set[str]]:
    """module -> modules of the tree it imports (anywhere in the file, function bodies included)."""
    tops = tuple(tops)
    graph: dict[str, set[str]] = {}
    for f in files(root, tops):
        mod = module_name(root, f)
        targets = graph.setdefault(mod, set())
        for imp in imports_of(root, f):
            if imp.name.split(".", 1)[0] not in tops:
                continue
            owner = _owner(root, imp.name)
            if owner is not None and owner != mod:
                targets.add(owner)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: strongly connected components of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                strong(v)
    finally:
        sys.setrecursionlimit(old)
    return sorted(out)


def _comments(source: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string
    return out


def body_imports(root: Path, tops: Iterable[str]) -> list[str]:
    """``path:line`` of each import inside a function body without a reason comment on its lines."""
    bad: list[str] = []
    for f in files(root, tops):
        comments = _comments(f.read_text(encoding="utf-8"))
        seen: set[int] = set()
        for imp in imports_of(root, f):
            if not imp.in_function or imp.line in seen:
                continue
            seen.add(imp.line)
            if not any(_REASON.search(comments.get(n, "")) for n in range(imp.line, imp.end_line + 1)):
                bad.append(f"{f.relative_to(root)}:{imp.line} imports {imp.name} inside a function")
    return bad


def count_body_imports(root: Path, tops: Iterable[str]) -> int:
    """Imports inside function bodies, with or without a reason (for reports)."""
    return sum(len({i.line for i in imports_of(root, f) if i.in_function}) for f in files(root, tops))


def main() -> None:
    root = Path(__file__).resolve().parents[2]
    tops = ("domain", "service", "projections", "scenarios", "bots")
    found = cycles(module_graph(root, tops))
    for c in found:
        print("cycle:", " <-> ".join(c))
    bad = body_imports(root, tops)
    for b in bad:
        print(b)
    print(f"{len(found)} import cycles; {count_body_imports(root, tops)} function-body imports, "
          f"{len(bad)} without a reason")


if __name__ == "__main__":
    main()
