"""UMPIRE-REVEAL-1: what a reveal is, derived from the events, and a data-flow check that no ruleset forgets
to declare an event type that makes hidden content public.

The derivation (:func:`domain.kernel.envelope.is_reveal`): draws, a visibility that is not public, or a type
with ``reveals_hidden = True``. Only the last depends on a ruleset, and it is declared once per event *type*.
The check here plays random games of every ruleset and follows the hidden values: every composite value
(a list, a mapping) held in a private field of an event hidden from some seat is remembered; a later public
event without draws whose payload carries one of them must be of a type declared ``reveals_hidden = True``
(or declared ``False`` on purpose). A type left undeclared that carries a secret fails the test, so a
ruleset that adds a new reveal and forgets to declare it is caught by its own random games.
"""
from __future__ import annotations

import typing
from typing import Any

import msgspec
import pytest

from domain.kernel import PUBLIC, Emitted, registry
from domain.kernel.envelope import is_reveal
from domain.kernel.runner import random_game
from domain.smoke.events import ColumnsRevealed

#: (ruleset, scenario, options, seeds, max commands): the real rulesets' setups with hidden information.
CASES = [
    ("hoth", "SCN-TAKE-DOWN-THE-SHIELD", {}, (1, 2), 400),
    ("hoth", "SCN-TAKE-DOWN-THE-SHIELD", {"team": True}, (3,), 400),
    ("smoke", "BTL-OPEN-FIELD", {}, (1, 2), 120),
    ("smoke", "BTL-CROSSROADS", {"players": 4}, (5,), 120),
    ("emperor", None, {}, (1, 2), 300),
]


def _composites(value: Any, out: set[bytes]) -> None:
    """Every list or mapping of two or more items inside ``value``, and every string, canonically encoded."""
    if isinstance(value, str):
        out.add(msgspec.json.encode(value))
    elif isinstance(value, dict):
        if len(value) >= 2:
            out.add(msgspec.json.encode(value, order="sorted"))
        for v in value.values():
            _composites(v, out)
    elif isinstance(value, (list, tuple)):
        if len(value) >= 2:
            out.add(msgspec.json.encode(list(value), order="sorted"))
        for v in value:
            _composites(v, out)


def leaked_types(emitted: list[Emitted]) -> dict[str, str]:
    """Public event types without draws that carry a value first seen in a hidden private field, and are not
    declared (``reveals_hidden`` None): type -> the event's class name."""
    secrets: set[bytes] = set()
    public: set[bytes] = set()
    out: dict[str, str] = {}
    for em in emitted:
        ev = em.event
        payload = msgspec.to_builtins(ev)
        if em.visibility != PUBLIC:
            fields = ev.private or set(payload) - {"type"}
            got: set[bytes] = set()
            for f in fields:
                _composites(payload.get(f), got)
            secrets |= got - public  # a value shown publicly before is no secret
            continue
        mine: set[bytes] = set()
        _composites({k: v for k, v in payload.items() if k != "type"}, mine)
        if not em.rolls and getattr(type(ev), "reveals_hidden", None) is None and mine & secrets:
            out[payload["type"]] = type(ev).__name__
        public |= mine
        secrets -= mine
    return out


def _games():
    for rid, scenario, options, seeds, cap in CASES:
        rs = registry.get(rid)
        sc = scenario or rs.scenarios()[0].id
        for seed in seeds:
            yield pytest.param(rid, sc, options, seed, cap, id=f"{rid}-{sc}-{'-'.join(options) or 'plain'}-{seed}")


@pytest.mark.parametrize("rid,scenario,options,seed,cap", list(_games()))
def test_no_event_type_carries_a_hidden_value_without_being_declared(rid, scenario, options, seed, cap):
    g = random_game(registry.get(rid), scenario, seed, options=options, max_commands=cap)
    assert g.emitted
    assert leaked_types(g.emitted) == {}


def test_the_check_catches_columns_revealed_left_undeclared(monkeypatch):
    """The planted hole: Smoke's ``columns_revealed`` as if its type had not been declared a reveal."""
    g = random_game(registry.get("smoke"), "BTL-OPEN-FIELD", 1, max_commands=120)
    assert "columns_revealed" in {msgspec.to_builtins(e.event)["type"] for e in g.emitted}
    assert leaked_types(g.emitted) == {}
    monkeypatch.setattr(ColumnsRevealed, "reveals_hidden", None)
    assert leaked_types(g.emitted) == {"columns_revealed": "ColumnsRevealed"}


def test_the_derivation_needs_no_flag_on_the_emission():
    ev = ColumnsRevealed(columns={"player-1": (("a", "b"),)})
    assert Emitted(event=ev).revealing  # reveals=False on the emission: the type decides
    assert is_reveal(object, "player-1", False) and is_reveal(object, PUBLIC, True)
    assert not is_reveal(object, PUBLIC, False)


def test_every_event_type_of_every_ruleset_is_a_struct_with_a_tag_and_declares_at_most_a_bool():
    for rs in registry.all_rulesets():
        for cls in typing.get_args(rs.event_type) or (rs.event_type,):
            assert cls.__struct_config__.tag, cls
            assert getattr(cls, "reveals_hidden", None) in (None, True, False), cls
