"""Browser tests: a real ``umpire serve`` (free port, temp data dir) and Debian's Chromium driven by
Playwright (tests/web/harness.py). Screenshots of every main screen go to tests/web/artifacts/
(gitignored); a few are pinned in tests/web/pinned/ and compared with a tolerance.

Set ``UMPIRE_UPDATE_PINS=1`` to rewrite the pinned images (then look at them and commit them).
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import UmpireServer, Watch, guard, launch

HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE / "artifacts"
PINNED = HERE / "pinned"
#: Mean absolute difference per channel (0-255) allowed between a screenshot and its pinned image:
#: fonts and anti-aliasing differ a little between machines; a broken layout differs a lot. Each pixel is
#: matched within 1 px (``pinned``), so a line that moves by one pixel between renders costs nothing.
PIN_TOLERANCE = 4.0


@pytest.fixture(scope="session")
def server() -> Iterator[UmpireServer]:
    with UmpireServer() as srv:
        yield srv


@pytest.fixture(autouse=True)
def _server_stays_up(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test of the shared server starts with it running and leaves it running; a server that died says
    why (the end of its output) instead of leaving the next waits to time out."""
    srv = request.getfixturevalue("server") if "server" in request.fixturenames else None
    if srv is not None:
        srv.assert_alive()
    yield
    if srv is not None:
        srv.assert_alive()


#: Package scope: the browser tests' Playwright (its sync API runs an event loop in this thread) stops once they
#: are done, so a later test may start its own Playwright or call ``asyncio.run`` in the same process.
@pytest.fixture(scope="package")
def playwright_driver() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="package")
def browser(playwright_driver: Any) -> Iterator[Any]:
    b = launch(playwright_driver)
    try:
        yield b
    finally:
        b.close()


class Contexts:
    """New guarded browser contexts (one per seat or spectator). At the end: closed, and no page
    of theirs may have had a console error or sent a request anywhere but 127.0.0.1."""

    def __init__(self, browser: Any):
        self.browser, self.watch, self.open = browser, Watch(), []

    def page(self, width: int = 1280, height: int = 900, **kw: Any) -> Any:
        ctx = guard(self.browser.new_context(viewport={"width": width, "height": height}, **kw), self.watch)
        self.open.append(ctx)
        return self.watch.page(ctx.new_page())

    def close(self) -> None:
        for c in self.open:
            c.close()
        self.open = []
        assert not self.watch.outside, f"requests left the machine: {self.watch.outside}"
        assert not self.watch.errors, f"console errors: {self.watch.errors}"


@pytest.fixture
def contexts(browser: Any) -> Iterator[Contexts]:
    c = Contexts(browser)
    yield c
    c.close()


def shot(page: Any, name: str, **kw: Any) -> Path:
    """Keep a screenshot as a test artefact."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), **kw)
    return path


def pinned(locator: Any, name: str) -> float:
    """Compare an element's screenshot with tests/web/pinned/<name>.png: the mean pixel difference, each pixel
    against its nearest match within 1 px."""
    from PIL import Image, ImageChops, ImageStat

    ARTIFACTS.mkdir(exist_ok=True)
    got_path = ARTIFACTS / f"pinned-{name}.png"
    locator.screenshot(path=str(got_path), animations="disabled", caret="hide")
    want_path = PINNED / f"{name}.png"
    if os.environ.get("UMPIRE_UPDATE_PINS") == "1":
        PINNED.mkdir(exist_ok=True)
        want_path.write_bytes(got_path.read_bytes())
    assert want_path.exists(), f"no pinned image {want_path} (run with UMPIRE_UPDATE_PINS=1 and commit it)"
    got = Image.open(got_path).convert("RGB")
    want = Image.open(want_path).convert("RGB")
    if got.size != want.size:
        # a size change of a few pixels (a font's metrics) is compared on the common area, more fails
        assert abs(got.width - want.width) <= 8 and abs(got.height - want.height) <= 24, (got.size, want.size)
        w, h = min(got.width, want.width), min(got.height, want.height)
        got, want = got.crop((0, 0, w, h)), want.crop((0, 0, w, h))
    # each pixel is compared with the pinned pixels at most 1 px away and keeps the smallest difference:
    # a line of text that lands one pixel lower between renders (a field whose options arrive late) is not
    # a change of look, a changed colour, word or layout still is
    diff = ImageChops.difference(got, want)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx or dy:
                diff = ImageChops.darker(diff, ImageChops.difference(got, ImageChops.offset(want, dx, dy)))
    return sum(ImageStat.Stat(diff).mean) / 3
