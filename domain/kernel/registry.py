"""The ruleset registry: every ``domain/<name>/`` package exporting ``RULESET``.

Adding a ruleset is adding a package; nothing in ``service/`` or
``projections/`` changes.
"""
from __future__ import annotations

import importlib
import pkgutil

from .decider import Ruleset

_REGISTRY: dict[str, Ruleset] = {}
_discovered = False


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import domain

    for info in pkgutil.iter_modules(domain.__path__):
        if not info.ispkg or info.name == "kernel":
            continue
        mod = importlib.import_module(f"domain.{info.name}")
        rs = getattr(mod, "RULESET", None)
        if rs is not None:
            register(rs)


def get(ruleset_id: str) -> Ruleset | None:
    _discover()
    return _REGISTRY.get(ruleset_id)


def all_rulesets() -> list[Ruleset]:
    _discover()
    return [ _REGISTRY[k] for k in sorted(_REGISTRY) ]
