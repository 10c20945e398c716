"""Emperor content: heroes, solo cards, order decks, battlefields and setups as validated data.

``load_content`` is what the kernel registry hands to ``domain.emperor.RULESET`` (the shipped
catalog, loaded once); ``load_catalog(path)`` and ``lint(path)`` read any content directory and
report every problem with its file and field (see catalog.py for the layout).
"""
from scenarios.emperor.catalog import DEFAULT_ROOT, lint, load_catalog, read_catalog, shipped, summary
from scenarios.loader import ContentError, Problem

load_content = shipped

__all__ = ["ContentError", "DEFAULT_ROOT", "Problem", "lint", "load_catalog", "load_content", "read_catalog",
           "shipped", "summary"]
