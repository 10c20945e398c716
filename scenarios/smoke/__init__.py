"""Clouds of Smoke content: unit profiles, action boards, factions, preparations, terrain kinds,
army lists and battles as validated data (see catalog.py for the layout).

``load_content`` is what the kernel registry hands to ``domain.smoke.RULESET`` (the shipped
content, loaded once); ``read_content(path)`` returns the content and every problem;
``lint(path)`` the problems only.
"""
from scenarios.loader import ContentError, Problem
from scenarios.smoke.catalog import DEFAULT_ROOT, lint, read_content, shipped, summary

load_content = shipped

__all__ = ["ContentError", "Problem", "DEFAULT_ROOT", "lint", "load_content", "read_content", "shipped", "summary"]
