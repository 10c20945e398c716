"""The page in the pseudo-locale (issue 28): every string that goes through a catalog reads ``⟦máŕkéd⟧``
(service/i18n.py), so an English word left on the page unmarked is a string that skipped the catalogs.

A server run with ``UMPIRE_PSEUDO_LOCALE=1`` and a browser whose page language is ``x-pseudo`` (kept in
localStorage, as the switcher keeps a language) open the lobby, then the play (as a seat), replay and
fairness views of a Battle of Hoth, a Clouds of Smoke and an Emperor game with a few steps played. Every
``<details>`` is opened (the dispute view, undo, all commands), then every visible text node and every
``title``, ``aria-label`` and ``placeholder`` attribute is read. Outside the ``⟦ ⟧`` marks no English
word may remain; only the words of :data:`DATA` (each with its reason: names and ids that are data, never
words of the page) and words holding a digit (hex coordinates ``c4``, unit ids ``E1``, hashes) pass."""
from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.hoth import picture as hoth_picture

from .conftest import ARTIFACTS
from .harness import UmpireServer, play_random

PSEUDO = "x-pseudo"

#: Words that are data, with the reason each may stay as it is in every language.
DATA: dict[str, str] = {
    "umpire": "the service's own name",
    "AM": "a time of day as the browser writes it for the pseudo-locale (English)",
    "PM": "a time of day as the browser writes it for the pseudo-locale (English)",
    "English": "a language's name in itself (the switcher)",
    "Italiano": "a language's name in itself (the switcher)",
    "JSON": "the name of a data format",
    "HMAC": "the name of an algorithm",
    "Ed": "Ed25519: the name of a signature scheme",
    "curl": "the name of a program, in a command line shown to be copied",
    "UW": "Clouds of Smoke's unit of length (a unit's width), printed so in its rulebook",
    "http": "an address shown to be copied",
    "redecide": "an address shown to be copied",
    "events": "an address shown to be copied",
    "games": "an address shown to be copied",
}

#: The short codes drawn on Battle of Hoth's board (terrain ``RDG``, structures ``SG``, units ``ST``, badges ``EW``):
#: codes, the same in every language as the text board's (docs/languages.md, "What stays English"); their words are in the
#: hover titles, which are messages.
CODES = ({short for _, short in (*hoth_picture.TERRAIN_STYLE.values(), *hoth_picture.STRUCTURE_STYLE.values())}
         | set(hoth_picture.UNIT_CODE.values()) | {c.rstrip("~") for c in hoth_picture.BADGE_CODE.values()})

#: Ids that are data shown as they are: seats, rule ids, scenario ids (all-capital words with hyphens).
RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$")

#: The seat ids of the three games (and the Emperor's side): never shown to a person, who reads each seat by its
#: name (docs/seat-names.md, GET /rulesets ``seat_names``), marked like every word; an id inside a marked sentence
#: (a parameter filled in) is found by :func:`seat_ids`.
SEAT_IDS = re.compile(r"(?<![\w-])(?:(?:rebel|imperial|human|emperor)(?:-\d+)?|player-\d+)(?![\w-])")

#: A seat's id anywhere on the page -- the page's own words (status, seat picker, hands, lobby, army builder, who did a
#: step) and the rulesets' own sentences (the board picture and the text board the server draws, the timeline's and
#: latest steps' summaries, a ruling: Battle of Hoth's "the Empire: support card Probe Intel played", Clouds of
#: Smoke's "Player 1 ends placement") -- is a finding, marked or not (docs/seat-names.md).

#: A word: letters (any script), digits, and the hyphens and apostrophes inside it; English is a word of
#: Latin letters without accents.
WORD = re.compile(r"\w+(?:[-'’]\w+)*")
ENGLISH = re.compile(r"[A-Za-z][A-Za-z_'’-]*")
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")

COLLECT = r"""() => {
  const out = [];
  const visible = (el) => el && el.checkVisibility ? el.checkVisibility({ checkVisibilityCSS: true }) : !!el;
  const where = (el) => {
    const bits = [];
    for (let e = el; e && e !== document.body && bits.length < 3; e = e.parentElement) {
      bits.unshift(e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''));
    }
    return bits.join('>');
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName)) continue;
    // the page's ids shown as they are (event types, hashes, rule ids, commands; a game's id, marked translate=no)
    if (el.closest('code, [translate="no"]')) continue;
    const text = n.textContent.trim();
    if (!text) continue;
    // an <option> shows when its select opens; an SVG <title> is the tooltip of a visible shape
    const host = el.tagName === 'OPTION' || el.tagName === 'OPTGROUP' ? el.closest('select')
      : el.tagName.toLowerCase() === 'title' ? el.parentElement : el;
    if (!visible(host)) continue;
    out.push({ text, where: where(el) });
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], optgroup[label]')) {
    if (!visible(el.tagName === 'OPTGROUP' ? el.closest('select') : el) || el.closest('[translate="no"]')) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'label']) {
      const v = el.getAttribute(a);
      if (v && v.trim() && (a !== 'label' || el.tagName === 'OPTGROUP')) out.push({ text: v.trim(), where: where(el) + '@' + a });
    }
  }
  out.push({ text: document.title, where: 'document.title' });
  // the texts of the server's picture (board.svg: its <text> and <title> elements)
  // (and what a ruleset's module lifts out of it into the page, marked data-source="board.svg")
  const svg = [...document.querySelectorAll('#board svg, #replay-board svg')]
    .flatMap((s) => [...s.querySelectorAll('text, title')].map((e) => e.textContent.trim()).filter(Boolean))
    .concat([...document.querySelectorAll('[data-source="board.svg"]')].flatMap((e) => {
      const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      const out = [];
      for (let n = w.nextNode(); n; n = w.nextNode()) if (n.textContent.trim()) out.push(n.textContent.trim().replace(/^[·.\s]+|[·.\s]+$/g, ''));
      return out;
    }));
  return { items: out, svg };
}"""


def _strings(node: Any, out: set[str]) -> set[str]:
    if isinstance(node, dict):
        for v in node.values():
            _strings(v, out)
    elif isinstance(node, list):
        for v in node:
            _strings(v, out)
    elif isinstance(node, str) and "⟦" not in node and ENGLISH.search(node) and len(node) > 1:
        out.add(node)
    return out


#: Ids, enums and formulas of a view (``imperial``, ``player-1``, ``PROP-EMP-BLITZ``, ``at_at``, ``MELEE``,
#: ``T-field``, ``d3+1``): data, never words.
TOKEN = re.compile(r"[a-z0-9_+-]+|[A-Z0-9][A-Z0-9_+-]*|[A-Za-z0-9]*[0-9_+-][A-Za-z0-9_+-]*")

#: The places of a game's view whose text is still English in every language, each with its reason (a path:
#: keys joined by dots, ``*`` for any key, ``[]`` for a list's items). A game's own printed words -- battle and
#: scenario titles, briefings, card titles and texts, action board slots, warriors', locations', hazards',
#: action cards' and star abilities' names -- go through the catalogs (domain/kernel/printed.py) and are
#: marked in the pseudo-locale like any other word; a new one that does not is a finding, not a gap.
VIEW_ENGLISH: dict[str, str] = {
    "boards.*.source": "where an action board's content comes from (a seed's rule id, a gap id): for operators, "
                       "shown as data",
    "profiles.*.source": "where a unit profile comes from (a seed's rule id, PROPOSED and what it exercises): "
                         "for operators, shown as data",
    "solo.direction": "the solo card's movement requirement in the notation the rules print in every language "
                      "(DIST_ENEMY_HERO(3), BASE-SOLO-1: domain/emperor/rules.md and rules.uk.md write it so): data",
    "solo.helper_direction": "the solo card's helper movement requirement, the rules' notation (as solo.direction)",
    "solo.overrides[].requirement": "a crest's movement requirement, the rules' notation (as solo.direction)",
}


def _view_english(node: Any, path: str, out: dict[str, set[str]]) -> dict[str, set[str]]:
    """Every unmarked text of a view that is not an id or an enum, by its place (``VIEW_ENGLISH``'s form). A
    message beside a text (``win_reason_message``: its id and parameters) is data for a client that says it
    itself, as a ruling's ``message`` is; the text beside it, which a person reads, is checked."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k.endswith("_message") and isinstance(v, dict) and isinstance(v.get("id"), str):
                continue
            _view_english(v, f"{path}.{k}" if path else str(k), out)
    elif isinstance(node, list):
        for v in node:
            _view_english(v, f"{path}[]", out)
    elif isinstance(node, str) and "⟦" not in node and ENGLISH.search(node) and len(node) > 1 \
            and not TOKEN.fullmatch(node):
        out.setdefault(path, set()).add(node)
    return out


def _listed(path: str) -> bool:
    return any(re.fullmatch(re.escape(p).replace(r"\*", r"[^.\[\]]+"), path) for p in VIEW_ENGLISH)


def view_gaps(base: str, gid: str, token: str) -> set[str]:
    """The texts of a game's view still English in every language: ids and enums, and the places of
    :data:`VIEW_ENGLISH` (nothing else: :func:`test_a_view_keeps_english_only_where_listed`)."""
    auth = {"Authorization": f"Bearer {token}"}
    state = httpx.get(f"{base}/games/{gid}", params={"lang": PSEUDO}, headers=auth).json().get("state")
    return {t for p, texts in _view_english(state, "", {}).items() if _listed(p) for t in texts} | \
        {t for t in _strings(state, set()) if TOKEN.fullmatch(t)}


def _enums(node: Any, out: set[str]) -> set[str]:
    """The words of the values an options schema enumerates, but for an option that names them (``x-items``:
    Battle of Hoth's leaders and support cards, which its form offers by their printed names, never by id)."""
    if isinstance(node, dict):
        if "x-items" in node:
            return out
        for k, v in node.items():
            if k == "enum" and isinstance(v, list):
                out.update(w for x in v if isinstance(x, str) for w in WORD.findall(x))
            else:
                _enums(v, out)
    elif isinstance(node, list):
        for v in node:
            _enums(v, out)
    return out


def listing_ids(base: str) -> set[str]:
    """The ids ``GET /rulesets`` gives that the page shows as they are, in every language (everything else it says
    for people is marked, service/ruleset_listing.py):

    * a rule choice's option ids: a choice in force is shown in words, marked, with its rule id and its option's
      id beside it in small print (``(HOTH-CHOICE-EWEB any)``, web/js/choices.js), as the rule id is;
    * the values an options schema enumerates that it names nowhere (an option with ``x-items`` names them: Battle
      of Hoth's leaders ``vader``, ``leia`` and support cards are offered by their printed names, marked, so an id
      shown on the page is a finding)."""
    out: set[str] = set()
    for rs in httpx.get(f"{base}/rulesets", params={"lang": PSEUDO}).json():
        for c in rs.get("choices") or []:
            for o in c.get("options") or []:
                assert "⟦" not in o["id"], o  # an id is never translated
                out.update(WORD.findall(o["id"]))
        _enums(rs.get("options"), out)
    return out


#: The texts of board.svg seen on the way (every <text> and <title> of the three games' pictures, each a message or
#: data): kept as an artefact, and each checked like any text of the page.
BOARD_SVG: set[str] = set()


def _keys(node: Any, out: set[str]) -> set[str]:
    """The names in a ruling's values (``roll indices``, a warrior's id): data named by the engine."""
    if isinstance(node, dict):
        for k, v in node.items():
            out.add(str(k).replace("_", " "))
            _keys(v, out)
    elif isinstance(node, list):
        for v in node:
            _keys(v, out)
    return out


def ruling_gaps(base: str, rid: str, gid: str, seq: int, token: str) -> tuple[set[str], set[str]]:
    """The words of a step's ruling the service does not yet render as messages (the Emperor's composed
    ruling steps), the names of its values (data named by the engine), and the data of the rules it cites
    (ids, addresses, section names; their titles and texts must come marked). Returns (texts, the words of the
    values' names)."""
    auth = {"Authorization": f"Bearer {token}"}
    r = httpx.get(f"{base}/games/{gid}/events/{seq}/ruling", params={"lang": PSEUDO}, headers=auth).json()
    out = _strings(r.get("ruling"), set())
    keys: set[str] = set()
    rules = set()
    for st in (r.get("ruling") or {}).get("steps") or []:
        keys.update(w for k in _keys(st.get("values") or {}, set()) for w in k.split())
        rules.add(st.get("rule"))
    red = httpx.get(f"{base}/games/{gid}/events/{seq}/redecide", params={"lang": PSEUDO})
    if red.status_code == 200:  # a finished game: the dispute view shows the whole step decided again
        _strings(red.json(), out)
        for e in red.json().get("recorded") or []:
            for st in ((e.get("ruling") or {}).get("steps") or []):
                rules.add(st.get("rule"))
    for rule in filter(None, rules):  # the rules reference in the pseudo-locale: its texts marked, its ids and url data
        body = httpx.get(f"{base}/rulesets/{rid}/rules/{rule}", params={"lang": PSEUDO}).json()
        assert body["lang"] == PSEUDO and body["text"].startswith("⟦"), body
        _strings({k: v for k, v in body.items() if k in ("id", "url", "section", "lang")}, out)
    return out, keys


def unmarked(text: str, data: set[str], gaps: list[str] = ()) -> list[str]:
    """The English words of ``text`` outside the pseudo-locale's marks (ids and data words left out)."""
    rest = text
    bare = text.strip(" ()[]:;,.·—")
    for g in gaps:
        if g == bare:
            return []
        # a phrase, a printed keyword (MELEE) or a proper name (Akhena, a card's title): wherever it stands whole
        if " " in g or g[:1].isupper():
            rest = re.sub(rf"(?<![\w-]){re.escape(g)}(?![\w-])", " ", rest)
    while True:
        stripped = MARKED.sub(" ", rest)
        if stripped == rest:
            break
        rest = stripped
    rest = re.sub(r"\[[^\[\]]*\]", " ", rest)  # "[locations]", "[5,5]": the page writes an id in brackets
    out = []
    for w in WORD.findall(rest):
        if len(w) < 2 or not ENGLISH.fullmatch(w) or RULE_ID.match(w) or "_" in w:  # snake_case: an id
            continue
        if w in DATA or w in data or w in CODES:
            continue
        out.append(w)
    return out


def seat_ids(text: str) -> list[str]:
    """The seat ids in ``text``, marked or not (a seat's id filled into a marked sentence is still an id)."""
    return SEAT_IDS.findall(text)


def test_the_detector_sees_an_unmarked_word_and_passes_a_marked_one():
    assert unmarked("⟦Lóbbý⟧ · ⟦Ǵáméš⟧ 12 c4 E1 HOTH-HIT-1", set()) == []
    assert unmarked("⟦Štéṕ {n}⟧ of 3", set()) == ["of"]
    assert unmarked("⟦ún ⟦néšťéd⟧ ŕúlíňǵ⟧ Waiting for rebel", set()) == ["Waiting", "for", "rebel"]
    assert seat_ids("⟦Wáítíňǵ fór imperial⟧ · ⟦Ṕláý player-2⟧") == ["imperial", "player-2"]
    assert seat_ids("⟦thé Řébéls⟧ · ⟦Ṕláýér 2⟧ · the Rebels · P1-G · rebel_base") == []


def test_a_view_keeps_english_only_where_listed(pseudo_server, played):
    """``GET /games/{id}`` in the pseudo-locale, as a seat, of the three games: every text that is not an id or
    an enum is marked, but for the places of :data:`VIEW_ENGLISH` (card titles and texts, slots, names...
    are marked: they go through the catalogs)."""
    base = pseudo_server.url
    seen: dict[str, set[str]] = {}
    printed: list[str] = []
    for rid, gid, seats in played:
        for token in seats.values():
            state = httpx.get(f"{base}/games/{gid}", params={"lang": PSEUDO},
                              headers={"Authorization": f"Bearer {token}"}).json()["state"]
            for path, texts in _view_english(state, "", {}).items():
                seen.setdefault(f"{rid} {path}", set()).update(texts)
            printed += [c["text"] for c in (state.get("cards") or {}).values()]  # Hoth's card texts
            printed += [sl["text"] for b in (state.get("boards") or {}).values() for sl in b["slots"]]  # Smoke's slots
            printed += [w["name"] for w in state.get("warriors") or []]  # the Emperor's warriors
    # the Warden's setup: its solo card's requirement ``DIST_ENEMY_HERO(3)`` is the rules' notation (listed)
    gid, seats = _played(base, "emperor", "SETUP-WARDEN-VS-VESPER", 8, seed=5)
    state = httpx.get(f"{base}/games/{gid}", params={"lang": PSEUDO},
                      headers={"Authorization": f"Bearer {seats['human']}"}).json()["state"]
    assert state["solo"]["direction"] == "DIST_ENEMY_HERO(3)", state["solo"]
    for path, texts in _view_english(state, "", {}).items():
        seen.setdefault(f"emperor-warden {path}", set()).update(texts)
    # a finished game: why it ended (``win_reason``) is said in the reader's language, as its ruling is
    gid, seats = _played(base, "emperor", "SETUP-AKHENA-VS-REBEL", 400, seed=7)
    state = httpx.get(f"{base}/games/{gid}", params={"lang": PSEUDO}).json()["state"]
    assert state["winner"] and state["win_reason"].startswith("⟦"), state["win_reason"]
    for path, texts in _view_english(state, "", {}).items():
        seen.setdefault(f"emperor-finished {path}", set()).update(texts)
    unlisted = {p: sorted(t)[:3] for p, t in seen.items() if not _listed(p.split(" ", 1)[1])}
    assert not unlisted, "\n".join(f"{p}: {t}" for p, t in unlisted.items())
    # the printed words are there, marked: a card's text, a slot's text, a warrior's name
    assert len(printed) > 10 and all(t.startswith("⟦") for t in printed), [t for t in printed if "⟦" not in t]


def test_every_word_the_page_passes_to_t_is_in_the_template():
    """Babel's extractor skips a t() nested in another t()'s arguments: such a word would reach no catalog
    (and the pseudo-locale test would see it only on a view that shows it)."""
    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[2]
    with (root / "service" / "locales" / "umpire.pot").open("rb") as f:
        ids = {i for m in read_po(f) if m.id for i in (m.id if isinstance(m.id, tuple) else (m.id,))}
    call = re.compile(r"""\btn?\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")""")
    missing = []
    for js in sorted((root / "web" / "js").rglob("*.js")):
        for m in call.finditer(js.read_text()):
            word = (m.group(1) if m.group(1) is not None else m.group(2)).replace("\\'", "'")
            if word not in ids and word != "...":
                missing.append(f"{js.name}: {word}")
    assert missing == []


@pytest.fixture(scope="module")
def pseudo_server() -> Iterator[UmpireServer]:
    """This module's server: in the pseudo-locale, with counted game ids (tests/web/counted_ids.py), so that a
    game's dice, which follow from its seed and its id, are the same every run (a random id once led the Smoke
    game to a view no run had shown before)."""
    root = str(Path(__file__).resolve().parents[2])
    with UmpireServer(command=[sys.executable, "-m", "tests.web.counted_ids"],
                      env={"UMPIRE_PSEUDO_LOCALE": "1", "PYTHONPATH": root}) as srv:
        yield srv


def _played(base: str, ruleset: str, scenario: str, steps: int, seed: int) -> tuple[str, dict[str, str]]:
    """A game with a few steps: its server seed and the commands chosen follow from ``seed``."""
    return play_random(base, ruleset, scenario, steps, seed, server_seed=f"{seed:064x}")


#: (ruleset, scenario, commands played); the last game stops where its seat chooses a formation to activate
#: (the action board's activation choices, which the other games' views do not show).
GAMES = [("hoth", "PROP-SCN-BREACH-THE-TRENCHES", 14), ("smoke", "BTL-CROSSROADS", 8),
         ("emperor", "SETUP-AKHENA-VS-REBEL", 8), ("smoke", "BTL-CROSSROADS", 19)]


@pytest.fixture(scope="module")
def played(pseudo_server: UmpireServer) -> list[tuple[str, str, dict[str, str]]]:
    """The games of :data:`GAMES`, played once for the module and first (the ids web-game-1..4: the same
    games every run, whichever of this module's tests run)."""
    return [(rid, *_played(pseudo_server.url, rid, sc, n, seed=i + 3)) for i, (rid, sc, n) in enumerate(GAMES)]


def _settle(page: Any) -> None:
    page.wait_for_load_state("networkidle")
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.wait_for_timeout(400)
    page.wait_for_load_state("networkidle")


def _findings(page: Any, view: str, data: set[str], gaps: list[str]) -> list[str]:
    found = []
    got = page.evaluate(COLLECT)
    picture = set(got["svg"])
    BOARD_SVG.update(picture)
    # the picture's words are messages too (issue 28): each is checked, a hidden hover title as well
    items = got["items"] + [{"text": t, "where": "board.svg"} for t in sorted(picture)]
    for item in items:
        ids = seat_ids(item["text"])
        words = unmarked(item["text"], data, gaps) + ids
        if words:
            found.append(f"{view} {item['where']}: {' '.join(words)!r} in {item['text'][:140]!r}")
    return found


def test_no_unmarked_english_on_any_view_of_the_three_games(pseudo_server, played, contexts):
    base = pseudo_server.url
    assert httpx.get(f"{base}/languages/{PSEUDO}/catalog").json()["messages"]["Lobby"] == "⟦Lóbbý⟧"
    gaps: list[str] = []  # GET /rulesets speaks the pseudo-locale: its titles, choices and options are marked
    ids = listing_ids(base)
    games = played
    page = contexts.page()
    page.goto(f"{base}/#/")
    page.evaluate("(t) => localStorage.setItem('umpire.lang', t)", PSEUDO)
    tokens = {gid: {s: tok for s, tok in seats.items()} for _, gid, seats in games}
    page.evaluate("(t) => localStorage.setItem('umpire.tokens', JSON.stringify(t))", tokens)
    page.reload()
    page.wait_for_selector("#games table")
    assert page.evaluate("document.documentElement.lang") == "en-XA"
    _settle(page)
    # a game's id is shown as it is, marked translate=no (a random hex id such as 'ebfaddee' is all letters)
    links = page.eval_on_selector_all('#games tr > td:first-child > a', "(as) => as.map((a) => a.getAttribute('translate'))")
    assert links and set(links) == {"no"}, links
    findings = _findings(page, "lobby", set(), gaps)
    # Clouds of Smoke's army builder in the lobby: a unit added (its profile card), a limit broken (its refusal)
    page.select_option("#c-ruleset", "smoke")
    page.select_option("#c-scenario", "s:BTL-OPEN-FIELD")
    page.check("#ab-on")
    page.click("#ab-player-1-add")
    page.select_option("#ab-player-1-commander", "")
    page.wait_for_selector("#ab-player-1 .army-problems li")
    _settle(page)
    findings += _findings(page, "lobby army builder", set(), gaps)
    # Battle of Hoth's options and rule choices in the lobby (their titles and descriptions come from GET /rulesets)
    page.select_option("#c-ruleset", "hoth")
    _settle(page)
    findings += _findings(page, "lobby hoth", ids, gaps)
    for rid, gid, seats in games:
        data = ids  # a seat's id is no word of the page (SEAT_IDS)
        v = httpx.get(f"{base}/games/{gid}").json()
        seat = (v.get("to_act") or list(seats))[0]
        gaps = sorted(view_gaps(base, gid, seats[seat]), key=len, reverse=True)
        page.goto(f"{base}/#/game/{gid}?seat={seat}")
        page.wait_for_selector("#board > svg", state="attached")
        _settle(page)
        # the rulings opened on the play view (the Emperor's turn, step by step)
        shown = page.eval_on_selector_all("#emperor-turn li[data-seq]", "ls => ls.map((l) => Number(l.dataset.seq))")
        more = [ruling_gaps(base, rid, gid, q, seats[seat]) for q in shown]
        texts = set().union(*(m[0] for m in more)) if more else set()
        findings += _findings(page, f"{rid} play", data, sorted(set(gaps) | texts, key=len, reverse=True))
        if (rid, gid) == ("smoke", played[3][1]):  # the activation choices are on the page, and were looked at
            assert page.locator("#action-board .act-group button.activate").count(), gid
        if rid == "emperor":  # the picture's order card, lifted into the page by what its texts are, in any language
            assert "⟦" in page.locator("#emperor-order[data-source='board.svg']").text_content()
        at = max(1, v["version"] - 1)
        page.goto(f"{base}/#/game/{gid}?seat={seat}&tab=replay&at={at}")
        page.wait_for_selector("#ruling[data-at] h3")
        _settle(page)
        texts, keys = ruling_gaps(base, rid, gid, at, seats[seat])
        findings += _findings(page, f"{rid} replay", data | keys, sorted(set(gaps) | texts, key=len, reverse=True))
        page.goto(f"{base}/#/game/{gid}?seat={seat}&tab=fairness")
        page.wait_for_selector("#fair-server ul")
        _settle(page)
        findings += _findings(page, f"{rid} fairness", data, gaps)
    unique = list(dict.fromkeys(findings))
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "pseudo-locale-findings.txt").write_text("\n".join(unique) + "\n")
    (ARTIFACTS / "pseudo-locale-board-svg.txt").write_text("\n".join(sorted(BOARD_SVG)) + "\n")
    assert not unique, f"{len(unique)} places with unmarked English:\n" + "\n".join(unique[:400])
