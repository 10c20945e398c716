"""Every event type with private fields, in every ruleset: its one-line summary -- which every reader gets,
spectators included, in the log, the timeline, the feed and a command's answer (projections/views.py
``timeline_entry``: "summaries never reveal private fields") -- names none of its private values, in English or
rendered in any language with a names map that knows them (the renderer writes an id as ``Name (id)``).

The attack this guards: a ruleset's summary written from the whole event ("imperial draws Blizzard Force")
is shown to the other seat beside the redacted payload. The event types are read from the rulesets
themselves: a new type with private fields fails this test until it has a case here (so it is checked too).
The checks see a secret when one is there: the same search finds the values in the event's own payload.
"""
from __future__ import annotations

import re

import msgspec
import pytest

from domain.emperor import events as E
from domain.hoth import events as H
from domain.hoth.state import Pending
from domain.kernel import registry
from domain.kernel.messages import as_message, text_of
from domain.kernel.reveals import event_classes
from domain.smoke import events as S
from service import i18n
from service.language import SUPPORTED

#: One instance per event type with private fields, every private value a marker the search looks for.
CASES = {
    ("hoth", "deck_shuffled"): H.DeckShuffled(seat="imperial", size=2, deck=("SECRET-A1", "SECRET-A2")),
    ("hoth", "cards_drawn"): H.CardsDrawn(seat="imperial", count=1, cards=("SECRET-B1",)),
    ("hoth", "decision_pending"): H.DecisionPending(pending=Pending(kind="arrange", seat="imperial", max=1),
                                                    cards=("SECRET-C1",)),
    ("hoth", "deck_arranged"): H.DeckArranged(seat="imperial", count=1, top=("SECRET-D1",)),
    ("hoth", "support_dealt"): H.SupportDealt(faction="imperial", count=1, cards=("SECRET-E1",), salt="SECRET-SALT-E"),
    ("hoth", "hand_peeked"): H.HandPeeked(seat="imperial", of="rebel", cards=("SECRET-F1",)),
    ("smoke", "columns_assigned"): S.ColumnsAssigned(seat="player-1", count=2, columns=(("SECRET-G1",),
                                                                                        ("SECRET-G2", "SECRET-G3")),
                                                     salt="SECRET-SALT-G"),
    ("emperor", "order_deck_shuffled"): E.OrderDeckShuffled(size=1, deck=("SECRET-H1",)),
}
NAMES = {f"SECRET-{c}{n}": f"Hidden Name {c}{n}" for c in "ABCDEFGH" for n in range(1, 4)}


def _private_types() -> set[tuple[str, str]]:
    return {(rid, tag) for rid in ("hoth", "smoke", "emperor")
            for tag, cls in event_classes(registry.get(rid)).items() if getattr(cls, "private", None)}


def test_every_event_type_with_private_fields_has_a_case():
    assert _private_types() == set(CASES), sorted(_private_types() ^ set(CASES))


@pytest.mark.parametrize("key", sorted(CASES), ids=[f"{r}-{t}" for r, t in sorted(CASES)])
def test_a_private_events_summary_names_none_of_its_private_values_in_any_language(key):
    rid, _tag = key
    event = CASES[key]
    rs = registry.get(rid)
    payload = msgspec.json.encode(event).decode()
    markers = sorted(set(re.findall(r"SECRET-[A-Z0-9-]*[A-Z0-9]", payload)))
    assert markers  # the search finds the private values where they are: in the event's own payload
    said = rs.summary(event)
    texts = [text_of(said)]
    if as_message(said) is not None and not isinstance(said, str):
        texts.append(msgspec.json.encode(msgspec.to_builtins(said)).decode())  # the message beside the text
        texts += [i18n.render(said, lang, i18n.translated_names(NAMES, lang)) for lang in SUPPORTED]
    for text in texts:
        leaked = [m for m in markers if m in text] + [NAMES[m] for m in markers if NAMES.get(m, "\0") in text]
        assert not leaked, (key, text)
