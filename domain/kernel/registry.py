"""The ruleset registry: every ``domain/<name>/`` package exporting ``RULESET``.

Adding a ruleset is adding a package; nothing in ``service/`` or
``projections/`` changes.

Content (scenarios, cards, army lists) is data read by ``scenarios/<name>/``; the domain never
imports it. A composition root hands it in (``scenarios.content.hand_to_rulesets``): it gives
:func:`provide_content` a source, ruleset id -> loader (or None), and every ruleset with
``use_content(load)`` gets its loader (called lazily, the first time the ruleset needs its content),
those registered already and those discovered later. Tests may build a ruleset with content of their
own instead.
"""
from __future__ import annotations

import importlib
import pkgutil
import re
import threading
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import domain

from .decider import Ruleset
from .fold import warm
from .rules import Rule, parse_rules

_REGISTRY: dict[str, Ruleset] = {}
_RULES: dict[str, dict[str, Rule]] = {}
_discovered = False
#: The file that holds a rules reference, beside its package's ``__init__``.
RULES_FILE = "rules.md"
#: A translation of it (docs/rules-languages.md): ``rules.<lang>.md``, the same ids and sections.
RULES_FILE_IN = "rules.{lang}.md"
_LANG = re.compile(r"[a-z]{2,3}")

#: The source of content the composition root handed in (:func:`provide_content`): ruleset id -> its
#: content loader, or None. None until a root hands one.
_content_source: Callable[[str], Callable[[], Any] | None] | None = None


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    for key in [k for k in _RULES if k == ruleset.id or k.startswith(ruleset.id + ":")]:
        _RULES.pop(key)
    return ruleset


def provide_content(source: Callable[[str], Callable[[], Any] | None]) -> None:
    """The composition root's hand-over of content: ``source(ruleset_id)`` is the loader of that ruleset's
    content (None: it has none). Each ruleset with ``use_content`` registered so far gets its loader now,
    the ones discovered later at their discovery. Idempotent for the same source."""
    global _content_source
    with _DISCOVERY:
        _content_source = source
        for rs in list(_REGISTRY.values()):
            _hand_content(rs)


def _hand_content(rs: Ruleset) -> None:
    use = getattr(rs, "use_content", None)
    if use is None or _content_source is None:
        return
    load = _content_source(rs.id)
    if load is not None:
        use(load_once(load))


#: Content is loaded under this lock, one load at a time in the process. A server's first request and its bot
#: worker can ask for a ruleset's content at the same moment after a start; two threads decoding the same
#: content types for the first time at once crashed the process (a segmentation fault inside
#: ``msgspec.convert`` while it built a type's decoding info, seen after a restart with bots playing). Loads
#: are rare (once per ruleset and process), so one lock for all costs nothing.
_CONTENT = threading.RLock()


def load_once(load: Callable[[], Any]) -> Callable[[], Any]:
    """``load`` run once, under :data:`_CONTENT`: a thread asking while another loads waits and gets the same
    content; a load that failed is tried again by the next caller."""
    done: list[Any] = []

    def loaded() -> Any:
        if done:
            return done[0]
        with _CONTENT:
            if not done:
                done.append(load())
            return done[0]

    return loaded


#: Discovery runs once, under this lock: a thread asking while another discovers waits for the whole
#: registry (a server's first requests and its bot worker start at once). Re-entrant: a ruleset's import
#: that asks the registry sees what is registered so far, as before.
_DISCOVERY = threading.RLock()
_discovering = False


def _discover() -> None:
    global _discovered, _discovering
    if _discovered:
        return
    with _DISCOVERY:
        if _discovered or _discovering:
            return
        _discovering = True
        try:
            _discover_all()
        finally:
            _discovering = False
        _discovered = True


def _discover_all() -> None:
    for info in pkgutil.iter_modules(domain.__path__):
        if not info.ispkg or info.name == "kernel":
            continue
        mod = importlib.import_module(f"domain.{info.name}")
        rs = getattr(mod, "RULESET", None)
        if rs is None:
            continue
        _hand_content(rs)
        register(rs)
        warm(rs)


def get(ruleset_id: str) -> Ruleset | None:
    _discover()
    return _REGISTRY.get(ruleset_id)


def all_rulesets() -> list[Ruleset]:
    _discover()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


# -- rules references (DESIGN 8: every rule id is readable) -------------------------------------------
def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _file_name(lang: str | None) -> str:
    if lang is not None and not _LANG.fullmatch(lang):
        raise ValueError(f"not a language code: {lang!r} (two or three lower-case letters)")
    return RULES_FILE if lang is None or lang == "en" else RULES_FILE_IN.format(lang=lang)


def rules_markdown(ruleset: Ruleset, lang: str | None = None) -> str | None:
    """The rules reference of ``ruleset`` as Markdown: its ``rules_reference()`` when it has one (kernel
    protocol, optional), else the ``rules.md`` beside the package that defines it (``domain/<r>/rules.md``).
    With ``lang`` (``uk``, ``cs``...): its translation ``rules.<lang>.md`` beside it (None: there is none;
    a ruleset with its own ``rules_reference()`` has none)."""
    own = getattr(ruleset, "rules_reference", None)
    if callable(own):
        return own() if lang is None or lang == "en" else None
    module = sys.modules.get(type(ruleset).__module__)
    file = getattr(module, "__file__", None)
    return _read(Path(file).parent / _file_name(lang)) if file else None


def kernel_rules(lang: str | None = None) -> dict[str, Rule]:
    """The kernel's own rules (``UMPIRE-*``), from ``domain/kernel/rules.md`` (with ``lang``: those of its
    translation ``rules.<lang>.md``, possibly none)."""
    key = ":" + (lang or "en")
    got = _RULES.get(key)
    if got is None:
        text = _read(Path(__file__).parent / _file_name(lang)) or ""
        got = _RULES[key] = {r.id: r for r in parse_rules(text)}
    return got


def rules_of(ruleset_id: str) -> dict[str, Rule] | None:
    """Every rule a game of ``ruleset_id`` may cite, by id: the ruleset's own, then the kernel's
    (None: no such ruleset)."""
    rs = get(ruleset_id)
    if rs is None:
        return None
    got = _RULES.get(rs.id)
    if got is None:
        own = {r.id: r for r in parse_rules(rules_markdown(rs) or "")}
        got = _RULES[rs.id] = {**own, **{k: v for k, v in kernel_rules().items() if k not in own}}
    return got


def translated_rules_of(ruleset_id: str, lang: str) -> dict[str, Rule] | None:
    """The rules of :func:`rules_of` that have a text in ``lang`` (docs/rules-languages.md), by id: the
    ruleset's translation, then the kernel's. Only ids of the English reference count; a rule the
    translation leaves out is absent (the caller falls back to English). None: no such ruleset."""
    english = rules_of(ruleset_id)
    if english is None:
        return None
    if lang == "en":
        return english
    rs = get(ruleset_id)
    assert rs is not None
    key = f"{rs.id}:{lang}"
    got = _RULES.get(key)
    if got is None:
        own = {r.id: r for r in parse_rules(rules_markdown(rs, lang) or "")}
        both = {**own, **{k: v for k, v in kernel_rules(lang).items() if k not in own}}
        got = _RULES[key] = {k: v for k, v in both.items() if k in english}
    return got
