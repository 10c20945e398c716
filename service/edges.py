"""What stands in front of the app when it runs in public (DESIGN 16), outermost first: the request's trace
span (:mod:`service.tracing`, when configured), its metrics (:class:`service.metrics.HttpMetrics`), and the
limits (:class:`service.rate_limits.RateLimits`, when there is a Redis to keep one budget for every node)."""
from __future__ import annotations

from typing import Any

from . import metrics, tracing
from .metrics import HttpMetrics
from .rate_limits import RateLimits
from .settings import LimitSettings, Settings
from .store_contract import Store


def public_edges(handler: Any, settings: Settings, store: Store, limits: LimitSettings | None = None) -> Any:
    """``handler`` (the app's ASGI handler) with the edges above."""
    limits = limits or LimitSettings.from_env()
    if limits.enabled and settings.redis_url:
        handler = RateLimits(handler, limits, settings.redis_url, store)
    if metrics.ENABLED:
        handler = HttpMetrics(handler)
    tracing.setup_from_env()
    return tracing.asgi(handler)


__all__ = ["public_edges"]
