"""Every main view of every game on a phone (375 px): the lobby, and for Battle of Hoth, Clouds of Smoke and
the Emperor a game's play view, replay and fairness tabs. The page never scrolls sideways (its scroll width
is the viewport's), no text sticks out past the screen's right edge unless it is inside a box that scrolls
on its own (the board's frame), and no text is set below 10 px (the board pictures' own, zoomed, aside).
Each view's screenshot is kept in tests/web/artifacts/phone-<view>-375.png (and the Emperor's play view at
1280 too, for its small print), to be looked at. At 1280 the Emperor's and Smoke's pictures have no
text below 10 px on the screen, nor on a phone (in play and in the replay, at the phone's zoom). Debian's Chromium, a real ``umpire serve``."""
from __future__ import annotations

from typing import Any

from .conftest import shot
from .test_axe import _views

WIDTH = 375

#: Texts that stick out past the right edge, outside a box that scrolls sideways by itself; and texts
#: smaller than 10 px outside the board pictures.
PROBLEMS = """w => {
  const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement) {
    const cs = getComputedStyle(p); if (/(auto|scroll)/.test(cs.overflowX) && p.scrollWidth > p.clientWidth + 1) return true; } return false; };
  const out = { sticking: [], small: [] };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement;
    if (!n.textContent.trim() || !e || e.closest('svg, .visually-hidden, [hidden], details:not([open]) > :not(summary)')) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    const range = document.createRange(); range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.width && r.right > w + 0.5 && !scrolls(e)) out.sticking.push(n.textContent.trim().slice(0, 60));
    }
    if (parseFloat(cs.fontSize) < 10 && e.getClientRects().length) out.small.push(n.textContent.trim().slice(0, 60));
  }
  return out;
}"""


#: The board picture's texts set below 10 px on the screen (font size times the picture's scale).
SVG_SMALL = """() => [...document.querySelectorAll('#board svg.board-svg text, #replay-board svg.board-svg text')].filter(t => {
  const cs = getComputedStyle(t);
  if (cs.visibility === 'hidden' || !t.checkVisibility() || !t.textContent.trim()) return false;
  return parseFloat(cs.fontSize) * t.getScreenCTM().a < 10;
}).map(t => t.textContent.trim().slice(0, 40))"""


def test_every_main_view_fits_a_phone(server, contexts):
    bad: dict[str, Any] = {}
    for name, url, ready in _views(server.url):
        page = contexts.page(width=WIDTH, height=800)
        page.goto(url)
        page.wait_for_selector(ready, timeout=30_000)
        page.wait_for_timeout(300)  # the live feed: let the last drawing settle
        shot(page, f"phone-{name}-{WIDTH}", full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        found = page.evaluate(PROBLEMS, WIDTH)
        if name.startswith(("smoke-", "emperor-")):  # their pictures, zoomed on a phone, legible too
            found["small_on_board"] = page.evaluate(SVG_SMALL)
        if width > WIDTH or any(found.values()):
            bad[name] = {"scroll_width": width, **found}
        if name in ("emperor-play", "smoke-play"):  # their pictures' small print at 1280 too
            wide = contexts.page(width=1280, height=900)
            wide.goto(url)
            wide.wait_for_selector(ready, timeout=30_000)
            wide.wait_for_timeout(300)
            shot(wide, f"phone-{name}-1280", full_page=True)
            found = {**wide.evaluate(PROBLEMS, 1280), "small_on_board": wide.evaluate(SVG_SMALL)}
            if found["small"] or found["small_on_board"]:
                bad[f"{name}@1280"] = found
            wide.context.close()
            contexts.open.remove(wide.context)
        page.context.close()
        contexts.open.remove(page.context)
    assert bad == {}, bad
