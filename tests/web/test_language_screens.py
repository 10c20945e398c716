"""Screenshots of the page in its players' languages (issue 28), kept as artefacts to be looked at: a Battle
of Hoth game in Ukrainian, a Clouds of Smoke game in Russian and an Emperor game in Ukrainian, each in its
play view (as the seat to act) and its replay view, at 1280 px (tests/web/artifacts/lang-<ruleset>-<lang>-
<view>.png).

What a screenshot cannot show by itself is asserted: the page speaks the language (its tabs, its status line
and headings are the catalog's words, never the English ones), the page never scrolls sideways and no text
is clipped inside a box that hides its overflow, and the page's plurals follow the language's CLDR rules
(1 карта / 2 карти / 5 карт; 21 карта; 1 карта / 2 карты / 5 карт)."""
from __future__ import annotations

import re

import httpx
import pytest

from .conftest import shot
from .harness import open_game
from .test_pseudo_locale import _played

GAMES = [("hoth", "PROP-SCN-BREACH-THE-TRENCHES", "uk", 14),
         ("smoke", "BTL-CROSSROADS", "ru", 8),
         ("emperor", "SETUP-AKHENA-VS-REBEL", "uk", 4)]

#: The Emperor's enums as its events keep them (an order card's step, a human action, a bonus's purpose): the page
#: names them in the reader's words (domain/emperor/terms.py, web/js/rulesets/emperor.js), never as they are.
EMPEROR_ENUMS = re.compile(r"\b(MOVE|ACTIVATE|REFRESH|REFRESH[ _]CHECK|move|activate|attack|push|defense|movement|"
                           r"location ability)\b")

#: "{n} card" in each language, for 1, 2, 5, 11, 21, 22, 25 (CLDR: one, few, many).
CARDS = {"uk": ["1 карта", "2 карти", "5 карт", "11 карт", "21 карта", "22 карти", "25 карт"],
         "ru": ["1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты", "25 карт"]}

#: Elements whose text is clipped: they hide their overflow and their content is wider (or taller) than they are.
CLIPPED = """() => [...document.querySelectorAll('#app *')].filter((e) => {
  if (!e.checkVisibility || !e.checkVisibility()) return false;
  if (e.closest('svg') || e.closest('.board-frame')) return false;  // the picture scrolls in its frame by design
  if (e.closest('.visually-hidden')) return false;  // words for screen readers only, clipped on purpose
  const s = getComputedStyle(e);
  const hides = (v) => v === 'hidden' || v === 'clip';
  return (hides(s.overflowX) && e.scrollWidth > e.clientWidth + 1) || (hides(s.overflowY) && e.scrollHeight > e.clientHeight + 1);
}).filter((e) => e.textContent.trim()).map((e) => e.tagName + (e.id ? '#' + e.id : '') + ': ' + e.textContent.trim().slice(0, 60))"""


@pytest.mark.parametrize("rid, scenario, lang, steps", GAMES, ids=[f"{g[0]}-{g[2]}" for g in GAMES])
def test_a_game_in_its_players_language_at_1280(server, contexts, rid, scenario, lang, steps):
    gid, seats = _played(server.url, rid, scenario, steps, seed=7)
    words = httpx.get(f"{server.url}/languages/{lang}/catalog").json()["messages"]
    v = httpx.get(f"{server.url}/games/{gid}").json()
    seat = (v.get("to_act") or list(seats))[0]
    page = contexts.page(width=1280, height=900, locale=lang)
    open_game(page, server.url, gid, seats, seat)
    page.wait_for_timeout(800)
    assert page.evaluate("document.documentElement.lang") == lang
    assert [page.text_content(f"#tab-{k}") for k in ("play", "replay", "fairness")] == \
        [words["Play"], words["Replay"], words["Fairness"]]
    assert page.text_content("#h-recent") == words["Latest steps"]
    status = page.text_content("#status") or ""
    said = [words["Your decision."], words["Nobody to act."], words["Waiting for {seats}."].split("{")[0],
            words["Finished."].rstrip(".")]
    assert any(w in status for w in said) and not any(e in status for e in ("Your decision", "Waiting for", "Finished")), status
    cards = page.evaluate("""async () => { const m = await import('/web/js/i18n.js');
      return [1, 2, 5, 11, 21, 22, 25].map((n) => m.tn('{n} card', '{n} cards', n)); }""")
    assert cards == CARDS[lang]
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert page.evaluate(CLIPPED) == []
    if rid == "emperor":  # the Emperor's turn and the latest steps: its steps, actions and purposes in words
        assert page.locator("#emperor-turn li[data-seq]").count() > 0
        said = page.text_content("#emperor-turn") + page.text_content("section[aria-labelledby='h-recent']")
        assert not EMPEROR_ENUMS.search(said), EMPEROR_ENUMS.findall(said)
    shot(page, f"lang-{rid}-{lang}-play", full_page=True)
    page.click("#tab-replay")
    page.wait_for_selector("#ruling[data-at] h3")
    page.wait_for_timeout(800)
    assert (page.text_content("#ruling h3") or "").startswith(words["Step {n}: {summary}"].split("{")[0])
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert page.evaluate(CLIPPED) == []
    shot(page, f"lang-{rid}-{lang}-replay", full_page=True)
