"""The garbage collector of a served process (issue 26: command p99 with 2,000 idle live feeds open).

An open feed (``GET /games/{id}/feed``) holds about 160 objects the cyclic collector tracks (the ASGI
middleware stack's coroutines and closures, litestar's SSE response, anyio's task group, uvicorn's
connection): 2,000 feeds are ~320,000 objects beside the ~130,000 of a started server. CPython's default
thresholds (700, 10, 10) let a full collection start whenever the objects promoted to the oldest generation
since the last one reach a quarter of it; each keep-alive renews a feed's waiting awaitables, which age into
that generation, so with 2,000 feeds a full collection (hundreds of ms of CPU, every object walked) falls
inside the command path about once a minute.

:func:`tune` (called once by ``umpire serve`` in each served process, after the app is built, before it
serves):

- ``gc.freeze()`` (:data:`FREEZE`): the objects of the started process (modules, the app, its routes,
  schemas and rulesets) move to the permanent generation and are never walked again;
- ``gc.set_threshold(*GC_THRESHOLDS)``: see :data:`GC_THRESHOLDS`.

Both are off by default (measured: see the constants); ``UMPIRE_GC_THRESHOLDS`` and ``UMPIRE_GC_FREEZE`` turn
them on for a served process (docs/gc-tuning.md). Tests and tools keep CPython's settings.
"""
from __future__ import annotations

import gc
import logging
import os
from collections.abc import Mapping

log = logging.getLogger("umpire.gc")

#: ``a,b,c``: the served process's collector thresholds (``gc.set_threshold``); ``default``: CPython's own.
ENV_THRESHOLDS = "UMPIRE_GC_THRESHOLDS"
#: ``0``: do not freeze the started process's objects (:data:`FREEZE`).
ENV_FREEZE = "UMPIRE_GC_FREEZE"

#: The served process's collector thresholds (generation 0, 1, 2); None: CPython's own (700, 10, 10). Not raised
#: by default: a third threshold of 1,000 stopped the full collections of a server with 2,000 feeds, but the
#: garbage of closed feeds (in reference cycles, old by then) then waited for one, and the process grew by a
#: quarter more than with CPython's settings over three rounds of 2,000 feeds opened and closed; the latency it
#: bought was not distinguishable from the machine's noise (ops/bench-results.md, "Feeds and the garbage
#: collector"). ``UMPIRE_GC_THRESHOLDS`` sets it.
GC_THRESHOLDS: tuple[int, int, int] | None = None
#: Whether the started process's objects are frozen (``gc.freeze()``) before it serves. Off by default: alone it
#: made full collections more frequent (frozen objects leave the oldest generation, so the quarter of it that
#: starts a full collection is reached sooner) while each still walked every open feed's objects.
FREEZE = False


def thresholds(env: Mapping[str, str] = os.environ) -> tuple[int, int, int] | None:
    """The thresholds :func:`tune` sets: :data:`GC_THRESHOLDS`, or ``UMPIRE_GC_THRESHOLDS`` (``a,b,c``, or
    ``default``: None, CPython's left as they are). A malformed value is an error (the serve does not start)."""
    raw = (env.get(ENV_THRESHOLDS) or "").strip()
    if not raw:
        return GC_THRESHOLDS
    if raw.lower() == "default":
        return None
    parts = raw.split(",")
    if len(parts) != 3 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise ValueError(f"{ENV_THRESHOLDS} must be three whole numbers 'a,b,c' or 'default', not {raw!r}")
    a, b, c = (int(p) for p in parts)
    if a < 1 or b < 1 or c < 1:
        raise ValueError(f"{ENV_THRESHOLDS}: each threshold must be at least 1 (0 turns the collector off), not {raw!r}")
    return a, b, c


def freezing(env: Mapping[str, str] = os.environ) -> bool:
    """Whether :func:`tune` freezes: :data:`FREEZE`, or ``UMPIRE_GC_FREEZE`` (``0``/``1``)."""
    raw = (env.get(ENV_FREEZE) or "").strip().lower()
    if not raw:
        return FREEZE
    if raw in ("0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{ENV_FREEZE} must be 0 or 1, not {raw!r}")


def tune(env: Mapping[str, str] = os.environ) -> dict[str, object]:
    """Set this process's collector as :data:`GC_THRESHOLDS` and :data:`FREEZE` say (or the environment);
    call once, when the process has started and before it serves. Returns what was done."""
    th, freeze = thresholds(env), freezing(env)
    frozen = 0
    if freeze:
        gc.collect()  # the start's garbage is freed, not frozen
        gc.freeze()
        frozen = gc.get_freeze_count()
    if th is not None:
        gc.set_threshold(*th)
    log.debug("garbage collector: thresholds %s, %d start-up objects frozen", gc.get_threshold(), frozen)
    return {"thresholds": gc.get_threshold(), "frozen": frozen}


__all__ = ["ENV_FREEZE", "ENV_THRESHOLDS", "FREEZE", "GC_THRESHOLDS", "freezing", "thresholds", "tune"]
