"""Battle of Hoth content: scenarios, cards and campaigns as validated data.

``load_catalog(path=None)`` reads a content directory (default: the shipped
one, this package) into the engine's types and raises ContentError listing
every problem; ``lint(path=None)`` returns the problems; ``shipped()`` is the
shipped catalog, loaded once, and ``load_content`` the same function under the name the kernel
registry looks for (it hands it to ``domain.hoth.RULESET``). See README.md in this directory.
"""
from scenarios.hoth.catalog import (
    CONDITION_KINDS, DEFAULT_ROOT, EFFECT_KINDS, Catalog, lint, load_catalog, read_catalog, shipped, summary,
)
from scenarios.loader import ContentError, Problem

load_content = shipped

__all__ = ["Catalog", "ContentError", "load_content", "Problem", "load_catalog", "lint", "read_catalog", "shipped", "summary",
           "DEFAULT_ROOT", "EFFECT_KINDS", "CONDITION_KINDS"]
