"""Battle of Hoth says what a player reads by its printed names, never by the content's ids (docs/seat-names.md,
"People read what you show them"): an objective by its kind and hex (a scenario's objective ids are printed nowhere),
a card by its printed title in a legal command's label and in a ruling step's values (``values_named``), a campaign's
battle by its title, a leader offered in a setup refusal by its name. Old output: "objective CREST", "Play Probe Right
(PROP-REB-PROBE-RIGHT): ...", "Node C1-1 is played with ...", a ruling's ``card PROP-REB-...``."""
from __future__ import annotations

import re

import pytest

from domain.hoth import commands as C
from domain.hoth.campaign.decider import battle_title
from domain.hoth.events import GameWon, ObjectiveChanged
from domain.hoth.medals import objective_said, sudden_death_text
from domain.hoth.scenario import HexesOccupied, PermanentMedal, SuddenDeath, TemporaryMedal
from domain.kernel import SetupError, registry
from domain.kernel.messages import text_of
from service import i18n
from tests.hoth.examples import example
from tests.hoth.fixtures import scenario
from tests.hoth.play import events_of
from tests.service.api_client import Api, api  # noqa: F401

#: A content id a player must never read: a card's (``PROP-REB-PROBE-RIGHT``, ``EMP-VADER-...``), a scenario's.
CONTENT_ID = re.compile(r"\b(?:PROP-)?(?:REB|EMP|SCN)-[A-Z0-9-]+\b")


def _start(g, seat, units):
    g.do(seat, C.PlayCard(card=g.state.hands[seat][0]))
    for u in units:
        g.do(seat, C.OrderUnit(unit=u, slot=0))
    if g.state.turn.phase == "order":
        g.do(seat, C.EndOrders())


def _texts(items) -> list[str]:
    """Every sentence of the emitted steps in English and Ukrainian: rulings' summaries and steps, and the timeline's
    one line."""
    rs = registry.get("hoth")
    out = []
    for it in items:
        r = it.ruling
        said = [r.summary_message, *(s.message for s in r.steps)] if r is not None else []
        said.append(rs.summary(it.event))
        for m in said:
            if m is not None:
                out += [text_of(m), i18n.render(m, "uk") if not isinstance(m, str) else m]
    return out


def test_an_objective_is_named_by_its_kind_and_hex_not_its_id():
    """HOTH-OBJ-TEMP-1/2, HOTH-OBJ-PERM-1: the sentences of a medal held, lost and won say the medal and its hex."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "rebel", "echo_troopers")],
                   objectives=[TemporaryMedal(id="CREST", hex=(8, 2), faction="imperial"),
                               PermanentMedal(id="OUTPOST-WEST", hex=(12, 2), faction="imperial")], first="imperial")
    g = example(scn)
    _start(g, "imperial", ["T"])
    items = g.do("imperial", C.Move(unit="T", path=((10, 2), (12, 2))))
    assert len(events_of(items, ObjectiveChanged)) == 2, [type(i.event).__name__ for i in items]
    texts = _texts(items)
    assert not [t for t in texts if "CREST" in t or "OUTPOST-WEST" in t], texts
    assert any("temporary medal" in t and "c4 r2" in t for t in texts), texts
    assert any("permanent medal" in t and "c6 r2" in t for t in texts), texts
    assert any("тимчасов" in t for t in texts) and any("постійн" in t for t in texts), texts


def test_a_sudden_death_says_its_condition():
    """HOTH-OBJ-SUDDEN-1: the win's reason says what was met (hexes occupied), not the objective's id."""
    scn = scenario(units=[((8, 2), "imperial", "snowtroopers", None, "T"), ((8, 6), "rebel", "echo_troopers")],
                   objectives=[SuddenDeath(id="CAVE-MOUTHS", faction="imperial",
                                           condition=HexesOccupied(hexes=((10, 2),)))], first="imperial")
    g = example(scn)
    _start(g, "imperial", ["T"])
    items = g.do("imperial", C.Move(unit="T", path=((10, 2),)))
    won = events_of(items, GameWon)[0].event
    assert "CAVE-MOUTHS" not in won.reason and "c5 r2" in won.reason, won.reason
    assert not [t for t in _texts(items) if "CAVE-MOUTHS" in t]
    # every shipped scenario's objectives read without their ids, in English and Ukrainian
    for sc in registry.get("hoth").catalog().scenarios.values():
        for ob in sc.objectives:
            said = [objective_said(ob, sc)] + ([sudden_death_text(ob, sc)] if isinstance(ob, SuddenDeath) else [])
            for m in said:
                for text in (m.english(), i18n.render(m, "uk")):
                    assert ob.id not in text and not CONTENT_ID.search(text), (sc.id, text)


def test_a_cards_label_is_its_printed_title_alone():
    """DESIGN 12: "Play Probe Right: Order up to 2 units..." (no ``(PROP-REB-PROBE-RIGHT)``), in English and Ukrainian;
    the id stays in the command."""
    rs = registry.get("hoth")
    g = example(scenario(units=[((8, 2), "imperial", "snowtroopers"), ((8, 6), "rebel", "echo_troopers")],
                         first="imperial"))
    seat = "imperial"
    listed = [d for d in g.rs.legal_commands(g.state, seat) if isinstance(d, C.PlayCard)]
    assert listed
    for cmd in listed:
        said = rs.describe(g.state, seat, cmd)["label"]
        title = g.state.cards[cmd.card].title
        for text in (text_of(said), i18n.render(said, "uk")):
            assert cmd.card not in text and not CONTENT_ID.search(text), text
        assert text_of(said).startswith(f"Play {title}"), text_of(said)


def test_a_campaigns_battles_and_a_setups_leaders_by_their_names():
    """A campaign's battle by its node's title; the leaders a setup refusal offers by name, each id beside it (what
    is sent)."""
    cat = registry.get("hoth").catalog()
    camp = next(iter(cat.campaigns.values()))
    assert battle_title(camp, camp.start) == camp.nodes[camp.start].title != camp.start
    with pytest.raises(SetupError) as err:
        registry.get("hoth").seats("PROP-SCN-RIDGE-WATCH", {"leaders": {"imperial": "leia"}})
    assert "Darth Vader (vader)" in err.value.detail, err.value.detail
    uk = i18n.render(err.value.message, "uk")
    assert "(vader)" in uk and "vader, veers" not in uk, uk  # old output: "... are vader, veers, piett"


def test_a_rulings_card_value_is_said_by_its_title(api: Api):
    """The replay's ruling shows a step's values; ``values_named`` gives those that are ids by their printed names
    in the reader's language (the card's title, never ``PROP-...``), while ``values`` stays the data."""
    g, _ = api.play_random("hoth", "PROP-SCN-RIDGE-WATCH", 12)
    steps = api.client.get(f"/games/{g['game_id']}/timeline").json()["steps"]
    seen = {"en": 0, "uk": 0}
    for lang in seen:
        for s in steps:
            r = api.client.get(f"/games/{g['game_id']}/events/{s['seq']}/ruling", params={"lang": lang}).json()["ruling"]
            for st in (r or {}).get("steps", ()):
                assert not CONTENT_ID.search(st["text"]), st["text"]
                card = (st.get("values") or {}).get("card")
                if isinstance(card, str) and CONTENT_ID.fullmatch(card):
                    named = st["values_named"]["card"]
                    assert named and not CONTENT_ID.search(named), st
                    seen[lang] += 1
    assert seen["en"] and seen["en"] == seen["uk"], seen
