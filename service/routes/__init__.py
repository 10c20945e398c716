"""The REST routes (DESIGN section 8), one module per concern.

Every module of this package that defines ``ROUTER`` (a litestar ``Router``)
is included by the app factory, in module-name order: adding an endpoint
group (for example ``campaigns.py``) is adding a module here, nothing else.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Any


def _discover() -> list[Any]:
    out: list[Any] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        router = getattr(mod, "ROUTER", None)
        if router is not None:
            out.append(router)
    return out


#: Every router of the service (the app factory registers each).
ROUTERS: list[Any] = _discover()

__all__ = ["ROUTERS"]
