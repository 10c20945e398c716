"""Waiting in tests for something another thread or process does (a projector, a bot, a server)."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def until(check: Callable[[], Any], timeout: float = 30.0, interval: float = 0.05) -> Any:
    """Call ``check`` until it returns something truthy or ``timeout`` seconds pass; return its last answer
    (falsy when the time ran out), so a test writes ``assert until(...)``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(interval)
    return check()
