"""Words a person reads (DESIGN 12), walked over seeded random games of every ruleset in memory.

At every decision point every legal command's label and warning (and every template's), and after
the game every step's summary and ruling summary, must read as words: no brackets or braces, no
snake_case, no field syntax (``kind``, ``None``, ``True``), no empty list, no id of a unit or card
without its printed name beside it. And every step names who did it truthfully: the referee for the
opening, the Emperor's automaton for what it decided (never the human seat), a bot seat as a bot.
"""
from __future__ import annotations

import random
import re
from typing import Any

import msgspec
import pytest

from domain.kernel import event_type_name, registry, words
from domain.kernel.messages import text_of
from domain.kernel.runner import Game
from projections.views import step_summary

#: (ruleset, scenario, seed, commands at most)
CASES = [
    ("hoth", "PROP-SCN-BREACH-THE-TRENCHES", 3, 250),
    ("hoth", "SCN-TAKE-DOWN-THE-SHIELD", 5, 250),
    ("smoke", "BTL-CROSSROADS", 5, 160),
    ("smoke", "BTL-OPEN-FIELD", 3, 160),
    ("emperor", "SETUP-AKHENA-VS-REBEL", 3, 300),
    ("emperor", "SETUP-WARDEN-VS-VESPER", 7, 300),
]

#: Hoth's hex id beside its column and row (``c4 r2 [8,2]``, HOTH-COORD-3) is the one bracket allowed.
HEX_ID = re.compile(r"\[-?\d+,\s?-?\d+\]")
RAW = [
    (re.compile(r"[\[\]{}]"), "a bracket or brace"),
    (re.compile(r"\b[a-z]+_[a-z0-9_]+\b"), "a snake_case word"),
    (re.compile(r"\bkind\b|\bNone\b|\bTrue\b|\bFalse\b"), "field syntax"),
    (re.compile(r"\(\)|\[\]"), "an empty list"),
]


#: A rule id ends in its number (``BASE-HAZ-2``, ``GAP-A-24``); ``SMOKE-CMD`` alone names a section.
RULE_ID = re.compile(r"\b(?:BASE|SOLO|SMOKE|HOTH|GAP|UMPIRE)(?:-[A-Z0-9]+)*-[0-9]+[a-z]?\b")


def raw_syntax(text: str) -> list[str]:
    """What in ``text`` is not words (empty: it reads as words)."""
    t = HEX_ID.sub("", text)
    return [why for rx, why in RAW if rx.search(t)]


def bare_ids(text: str, names: words.Names) -> list[str]:
    """Ids of ``names`` in ``text`` with no printed name beside them (a name that is a message: its English)."""
    out = []
    for key, said in names.items():
        name = text_of(said)
        if name.lower() == key.lower():
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text):
            before, after = text[:m.start()], text[m.end():]
            if not (before.endswith((name + " (", name + " ")) or after.startswith(" " + name)):
                out.append(key)
    return out


def test_the_checks_catch_what_they_should():
    assert raw_syntax("move: warrior akhena, to C2, bonuses []") == ["a bracket or brace", "an empty list"]
    assert raw_syntax("place die: die 0, kind simple") == ["field syntax"]
    assert raw_syntax("turn ended (imperial) on setup_akhena") == ["a snake_case word"]
    assert raw_syntax("Snowtroopers (E2) moves 2 to c6 r4 [12,4]") == []
    assert bare_ids("Akhena plays AK5", {"AK5": "Dune Wind"}) == ["AK5"]
    assert bare_ids("Akhena plays Dune Wind (AK5); AK5 Dune Wind", {"AK5": "Dune Wind"}) == []


def _walk(rid: str, scenario: str, seed: int, cap: int) -> tuple[Any, Game, list[tuple[str | None, Any]]]:
    rs = registry.get(rid)
    assert rs is not None
    rng = random.Random(seed)
    g = Game(rs, scenario, seed=seed.to_bytes(32, "big"), game_id=f"w{seed}")
    acted: list[tuple[str | None, Any]] = [(None, e) for e in g.events]  # the opening: nobody's command
    problems: list[str] = []
    rules = registry.rules_of(rid) or {}
    templates = getattr(rs, "command_templates", None)
    while not g.over and g.commands < cap:
        seat = g.to_act()
        assert seat is not None
        cmds = g.legal(seat)
        for d in words.described(rs, g.state, seat, [msgspec.to_builtins(c) for c in cmds]):
            assert d["label"], d
            for text in (d["label"], d["warning"] or ""):
                for why in raw_syntax(text):
                    problems.append(f"{rid} label of {d['command']}: {why}: {text}")
                for rule in RULE_ID.findall(text):  # every rule a label or warning cites can be read
                    if rule not in rules:
                        problems.append(f"{rid} label cites {rule}, which its rules reference does not have: {text}")
        for t in templates(g.state, seat) if templates else []:
            d = words.described_template(rs, g.state, seat, t)
            for why in raw_syntax(d["label"]):
                problems.append(f"{rid} template {t['command']}: {why}: {d['label']}")
        before = len(g.events)
        g.do(seat, rng.choice(cmds))
        acted += [(seat, e) for e in g.events[before:]]
    assert not problems, "\n".join(sorted(set(problems))[:30])
    return rs, g, acted


@pytest.mark.parametrize("rid,scenario,seed,cap", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_every_label_warning_summary_and_ruling_reads_as_words(rid: str, scenario: str, seed: int, cap: int):
    rs, g, acted = _walk(rid, scenario, seed, cap)
    names = words.names_of(rs, g.state)
    assert names, f"{rid} names nothing"
    problems = []
    for em in g.emitted:
        line = step_summary(em.event, rs, names)
        ruling = words.with_names(em.ruling.summary, names) if em.ruling is not None else ""
        for text in (line, ruling):
            for why in raw_syntax(text):
                problems.append(f"{event_type_name(em.event)}: {why}: {text}")
            for key in bare_ids(text, names):
                problems.append(f"{event_type_name(em.event)}: bare id {key}: {text}")
    assert not problems, "\n".join(sorted(set(problems))[:30])


@pytest.mark.parametrize("rid,scenario,seed,cap", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_every_step_names_who_did_it(rid: str, scenario: str, seed: int, cap: int):
    rs, g, acted = _walk(rid, scenario, seed, cap)
    seats = set(g.setup.seats)
    bot_seat = sorted(seats)[-1]
    kinds = set()
    for actor, ev in acted:
        by = words.acted_by(rs, ev, actor, {bot_seat: "random:1"})
        kinds.add(by["kind"])
        assert by["text"] and not raw_syntax(by["text"]), by
        if actor is None:
            assert by["kind"] == "referee", (event_type_name(ev), by)
        side = getattr(ev, "side", None)
        if rid == "emperor" and side == "emperor":
            assert by["kind"] == "automaton", (event_type_name(ev), by)  # never the human's seat
        if rid == "emperor" and event_type_name(ev) in ("warrior_moved", "action_taken", "defended") and side != "emperor":
            shown = {k: v for k, v in by.items() if k != "message"}  # the words as a message (issue 28)
            assert shown == {"kind": "bot" if actor == bot_seat else "seat", "seat": actor,
                             "bot": "random:1" if actor == bot_seat else None, "text": by["text"]}, (event_type_name(ev), by)
        if rid == "hoth" and event_type_name(ev) == "turn_ended":
            assert by["kind"] == "referee"  # a turn that ends after the other side's decision is nobody's command
        if rid == "smoke" and event_type_name(ev) in ("turn_started", "action_dice_rolled"):
            assert by["kind"] == "referee"  # the next side's turn and dice follow from the rules
        if rid == "smoke" and event_type_name(ev) in ("die_placed", "unit_moved", "risk_taken"):
            assert by["seat"] == actor and by["kind"] in ("seat", "bot")
        if by["kind"] in ("seat", "bot"):
            assert by["seat"] == actor in seats
    assert "referee" in kinds
    if rid == "emperor":
        assert "automaton" in kinds
    else:
        assert {"bot", "seat"} <= kinds
