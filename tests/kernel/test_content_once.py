"""A ruleset's content is loaded once, one load at a time (``domain.kernel.registry.load_once``): a server's first
request and its bot worker asked for Hoth's catalog at the same moment after a restart, and two threads decoding
the same content types for the first time crashed the process inside ``msgspec.convert``."""
from __future__ import annotations

import threading
import time

import pytest

from domain.kernel import registry


def test_threads_asking_at_once_get_one_load_and_the_same_content():
    calls, inside, most = [], [0], [0]

    def slow_load() -> object:
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        time.sleep(0.05)  # long enough for every thread below to arrive while the first loads
        calls.append(1)
        inside[0] -= 1
        return object()

    loaded = registry.load_once(slow_load)
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(loaded())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and most[0] == 1
    assert len(got) == 8 and all(g is got[0] for g in got)


def test_two_loaders_never_run_at_the_same_time():
    inside, most = [0], [0]

    def load() -> object:
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        time.sleep(0.03)
        inside[0] -= 1
        return object()

    a, b = registry.load_once(load), registry.load_once(load)
    threads = [threading.Thread(target=f) for f in (a, b, a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 1


def test_a_failed_load_is_tried_again():
    tries = []

    def flaky() -> str:
        tries.append(1)
        if len(tries) == 1:
            raise OSError("the disk hiccuped")
        return "content"

    loaded = registry.load_once(flaky)
    with pytest.raises(OSError):
        loaded()
    assert loaded() == "content" and loaded() == "content" and len(tries) == 2


def test_the_rulesets_get_their_content_through_it():
    hoth = registry.get("hoth")
    assert hoth._load_content.__qualname__.startswith("load_once")
    assert hoth.catalog() is hoth.catalog()
