"""The kernel's own rules, driven through the game aggregate (domain/kernel/game.py) for every ruleset, without
HTTP: ``ready`` and the opening (UMPIRE-READY-1..3), undo by consent (UMPIRE-UNDO-12/13) and the agreed re-roll
that follows an undo of draws (UMPIRE-UNDO-9), and the one fold agreeing with the game played.

Every registered ruleset and the test rulesets (``toy``, ``tally``, ``drill``) are played on their first
scenario with random legal commands (:class:`domain.kernel.runner.Game`, which applies every command through
:func:`domain.kernel.game.decide` and :func:`~domain.kernel.game.play`).
"""
from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.kernel import NotYourDecision, Ready, RuleViolation, UndoAccept, UndoRequested, UndoTo, Undone, registry
from domain.kernel import game as kernel_game
from domain.kernel.header import START_WHEN_READY, SeatReady
from domain.kernel.runner import Game
from domain.kernel.sides import other_sides

# The test rulesets register themselves on import.
from tests.service import toy_ruleset
import tests.projections.tally  # noqa: F401,E402
import tests.rulesets.drill  # noqa: F401,E402

toy_ruleset.register()

SEED = 23
#: Commands played at most while looking for one that draws; games tried.
LOOK, SEEDS = 400, 8


def _rulesets() -> list[Any]:
    return [pytest.param(rs.id, id=rs.id) for rs in registry.all_rulesets() if rs.scenarios()]


def _same(a: Any, b: Any) -> bool:
    return msgspec.json.encode(a) == msgspec.json.encode(b)


def _agrees_with_its_fold(g: Game) -> None:
    """The aggregate played command by command is the fold of its log (state, kernel, counters, undone)."""
    folded = kernel_game.fold(g.rs, g.setup, g.records)
    live = g.game
    assert _same(folded.state, live.state), "the fold of the log differs from the game played"
    assert folded.kernel == live.kernel and folded.counters == live.counters
    assert folded.undone == live.undone and folded.reroll == live.reroll and folded.version == live.version
    assert [e for e in folded.log.entries()] == [e for e in live.log.entries()] if live.log else folded.log is None


def _playable(g: Game) -> bool:
    seat = g.to_act()
    return seat is not None and bool(g.legal(seat))


@pytest.mark.parametrize("ruleset", _rulesets())
def test_ready_opens_the_game_with_every_client_seed(ruleset: str):
    rs = registry.get(ruleset)
    scenario = rs.scenarios()[0].id
    g = Game(rs, scenario, seed=SEED.to_bytes(32, "big"), start=START_WHEN_READY)
    seats = g.setup.seats
    assert g.game.kernel.waiting and g.status.status == "waiting" and g.game.version == 1  # the header alone
    assert g.game.legal_commands(seats[0]) == [Ready()]
    with pytest.raises(NotYourDecision) as refused:  # UMPIRE-READY-3: no game command before the opening
        kernel_game.check_turn(g.game, seats[0])
    assert refused.value.rule == "UMPIRE-READY-3"
    for i, seat in enumerate(seats):
        emitted = g.do(seat, Ready(client_seed=f"seed-{i}"))
        assert isinstance(emitted[0].event, SeatReady) and g.records[-len(emitted)].actor == seat
        with pytest.raises(RuleViolation) as again:
            g.decide(seat, Ready())
        assert again.value.rule in ("UMPIRE-READY-2", "UMPIRE-READY-1")
    assert not g.game.kernel.waiting
    assert g.game.kernel.mix == ",".join(f"{s}=seed-{i}" for i, s in enumerate(seats))
    opening = g.records[1 + len(seats):]
    assert all(r.actor is None for r in opening), "the opening is made by nobody"
    with pytest.raises(RuleViolation) as late:
        g.decide(seats[0], Ready())
    assert late.value.rule == "UMPIRE-READY-1"
    # the opening's draws are the ones a game opened with the same client seeds makes: mixed into every label
    drew = [roll for em in g.emitted for roll in em.rolls]
    plain = Game(rs, scenario, seed=SEED.to_bytes(32, "big"), start="now")
    plain_drew = [roll for em in plain.emitted for roll in em.rolls]
    assert len(drew) == len(plain_drew)
    if drew:
        assert [r.index for r in drew] == [r.index for r in plain_drew]
    _agrees_with_its_fold(g)


@pytest.mark.parametrize("ruleset", _rulesets())
def test_undo_by_consent_and_the_agreed_reroll(ruleset: str):
    rs = registry.get(ruleset)
    scenario = rs.scenarios()[0].id
    found = None
    for seed in range(SEED, SEED + SEEDS):  # play until a command draws and the game goes on
        rng = random.Random(seed)
        g = Game(rs, scenario, seed=seed.to_bytes(32, "big"), start="now")
        if not _playable(g):
            pytest.skip(f"{ruleset}: no seat has a legal command (driven by scripts)")
        for _ in range(LOOK):
            if not _playable(g):
                break
            seat = g.to_act()
            before = g.game
            emitted = g.do(seat, rng.choice(g.legal(seat)))
            if any(em.rolls for em in emitted) and not g.over:
                found = (seat, before, emitted)
                break
        if found is not None:
            break
    if found is None:
        pytest.skip(f"{ruleset}: no command drew in {LOOK} commands on {scenario}")
    sides = g.game.sides()
    seat, before, emitted = found
    drawn = [roll for em in emitted for roll in em.rolls]
    to_version = before.version
    if not other_sides(sides, seat):
        with pytest.raises(RuleViolation) as alone:  # a draw cannot be taken back without another side
            g.decide(seat, UndoTo(to_version=to_version))
        assert alone.value.rule == "UMPIRE-UNDO-6"
        return
    # UMPIRE-UNDO-12: the range drew (a reveal), so it needs consent
    asked = g.do(seat, UndoTo(to_version=to_version))
    assert isinstance(asked[0].event, UndoRequested)
    assert g.game.kernel.undo_request is not None and g.game.kernel.undo_request.by == seat
    with pytest.raises(NotYourDecision):  # the asker cannot answer its own request
        g.decide(seat, UndoAccept())
    teammates = [s for s in g.setup.seats if s != seat and sides[s] == sides[seat]]
    for mate in teammates:  # UMPIRE-UNDO-13: never a teammate
        assert UndoAccept() not in g.game.legal_commands(mate)
    while not any(isinstance(r.event, Undone) for r in g.records[-1:]):
        answering = [s for s in g.setup.seats if UndoAccept() in g.game.legal_commands(s)]
        assert answering, "a seat of every other side may answer"
        g.do(answering[0], UndoAccept())
    undone = g.records[-1].event
    assert undone.redraw and undone.consented_by is not None and undone.first == to_version + 1
    assert _same(g.state, before.state), "the undone game is the game at to_version"
    assert g.game.reroll is not None and g.game.reroll[1] == undone
    # the next draws are new ones (counters never rewind) and the first is labelled the agreed re-roll
    for _ in range(LOOK):
        if not _playable(g):
            break
        s = g.to_act()
        again = g.do(s, rng.choice(g.legal(s)))
        rolled = [em for em in again if em.rolls]
        if rolled:
            lines = [st for st in rolled[0].ruling.steps if st.rule == "UMPIRE-UNDO-9"]
            assert lines and "Agreed re-roll" in lines[0].text
            for r in rolled[0].rolls:
                old = [d.index for d in drawn if d.stream == r.stream]
                assert not old or r.index > max(old), "an undo never rewinds a dice counter"
            assert g.game.reroll is None
            break
    else:
        pytest.fail(f"{ruleset}: no command drew after the undo")
    _agrees_with_its_fold(g)
    # state_at replays any seq as it was: the state before the undone command is the state at to_version
    assert _same(kernel_game.state_at(rs, g.setup, g.records, to_version), before.state)
