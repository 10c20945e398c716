"""Each ruleset's content, found by its id, and the one hand-over of it to the rulesets.

The content of ruleset ``<id>`` is the package ``scenarios.<id>``: its ``load_content()`` returns what the
ruleset reads (a catalog of scenarios, cards, armies; loaded once, when the ruleset first needs it), its
optional ``lint(path=None)`` checks the files (``umpire scenarios lint``).

The domain never imports content (tests/kernel/test_imports.py): a composition root hands it over with
:func:`hand_to_rulesets` before it plays, which gives the kernel registry :func:`loader` as its source of
content (``domain.kernel.registry.provide_content``). The roots: the app (``service.app.create_app``), the
command line (``service.cli.main``), the projector process, the test session (``tests/conftest.py``) and
the benchmarks that play without the app.
"""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from collections.abc import Callable
from typing import Any

from domain.kernel import registry

#: The package that holds each ruleset's content (``scenarios.<ruleset id>``).
PACKAGE = __name__.rpartition(".")[0]


def package(ruleset_id: str) -> ModuleType | None:
    """``scenarios.<ruleset_id>``, or None when that ruleset has no content here."""
    name = f"{PACKAGE}.{ruleset_id}"
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except (ModuleNotFoundError, ValueError):
        return None
    return importlib.import_module(name)


def loader(ruleset_id: str) -> Callable[[], Any] | None:
    """The ``load_content`` of ``ruleset_id``'s content package, or None."""
    mod = package(ruleset_id)
    return getattr(mod, "load_content", None) if mod is not None else None


def hand_to_rulesets() -> None:
    """Every ruleset of the kernel registry gets its content (each one that takes content, ``use_content``);
    rulesets discovered later get theirs as they are. Idempotent."""
    registry.provide_content(loader)


__all__ = ["PACKAGE", "hand_to_rulesets", "loader", "package"]
