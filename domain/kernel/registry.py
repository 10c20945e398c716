"""The ruleset registry: every ``domain/<name>/`` package exporting ``RULESET``.

Adding a ruleset is adding a package; nothing in ``service/`` or
``projections/`` changes.

Content (scenarios, cards, army lists) is data read by ``scenarios/<name>/``; the domain never
imports it. When a ruleset has ``use_content(load)`` and ``scenarios.<name>`` exports
``load_content()``, the registry hands that loader to the ruleset (it is called lazily, the first
time the ruleset needs its content). Tests may build a ruleset with content of their own instead.
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil

from .decider import Ruleset

_REGISTRY: dict[str, Ruleset] = {}
_discovered = False

#: The package that holds each ruleset's content (``<CONTENT_PACKAGE>.<ruleset id>``).
CONTENT_PACKAGE = "scenarios"


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def _content_loader(name: str):
    try:
        if importlib.util.find_spec(CONTENT_PACKAGE) is None:
            return None
        if importlib.util.find_spec(f"{CONTENT_PACKAGE}.{name}") is None:
            return None
    except ModuleNotFoundError:
        return None
    mod = importlib.import_module(f"{CONTENT_PACKAGE}.{name}")
    return getattr(mod, "load_content", None)


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
        if rs is None:
            continue
        use = getattr(rs, "use_content", None)
        if use is not None:
            load = _content_loader(info.name)
            if load is not None:
                use(load)
        register(rs)


def get(ruleset_id: str) -> Ruleset | None:
    _discover()
    return _REGISTRY.get(ruleset_id)


def all_rulesets() -> list[Ruleset]:
    _discover()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
