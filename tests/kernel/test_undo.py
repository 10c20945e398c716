"""The kernel's pure undo decision (DESIGN 5, domain/kernel/undo.py): command boundaries, free or by
consent, answers, lapses -- the same for every ruleset."""
from __future__ import annotations

import pytest

from domain.kernel import GameCreated, KernelState, RuleViolation, UndoRequested, Undone, fold_kernel, kernel_evolve
from domain.kernel.rulings import NotYourDecision
from domain.kernel.undo import (
    Logged, UndoAccepted, UndoLapsed, answer_undo, boundaries, decide_undo, kernel_legal_commands, opening_end, steps_of,
    waiting_sides,
)

SEATS = ("north", "south")


def ev(seq, step, type="moved", actor="north", turn=1, revealing=False, drew=False):
    return Logged(seq=seq, step=step, type=type, actor=actor, turn=turn, revealing=revealing or drew, drew=drew)


def log():
    """1 header, 2-3 opening, 4 a move, 5-7 an attack (a roll, then two events), 8 a move."""
    return [ev(1, 1, "game_created", None, 0), ev(2, 1, "deck_shuffled", None, 1, drew=True),
            ev(3, 1, "hand_dealt", None, 1, revealing=True),
            ev(4, 4),
            ev(5, 5, "attack_rolled", drew=True), ev(6, 5, "attack_resolved"), ev(7, 5, "attack_finished"),
            ev(8, 8)]


def decide(to, seat="north", ks=KernelState(), turn=1, version=8, logged=None, **kw):
    return decide_undo(steps_of(logged or log()), ks, seat=seat, seats=SEATS, to_version=to, version=version,
                       turn=turn, finished=kw.pop("finished", False), last_undone_seq=kw.pop("last_undone", 0))


def test_steps_and_boundaries():
    steps = steps_of(log())
    assert [(s.first, s.last) for s in steps] == [(1, 3), (4, 4), (5, 7), (8, 8)]
    assert opening_end(steps) == 3 and boundaries(steps) == [3, 4, 7, 8]
    assert steps[2].drew and steps[2].revealing and not steps[1].revealing


def test_free_only_for_own_unrevealing_commands_of_this_turn_back_to_a_boundary():
    em = decide(7)
    assert isinstance(em.event, Undone) and (em.event.first, em.event.last, em.event.consented_by) == (8, 8, None)
    assert em.ruling.rules() == ["UMPIRE-UNDO-11"]
    for inside in (5, 6):  # the attack's roll and resolution are one command
        with pytest.raises(RuleViolation) as e:
            decide(inside)
        assert e.value.rule == "UMPIRE-UNDO-8"
    assert isinstance(decide(4).event, UndoRequested)  # the range holds the roll
    assert isinstance(decide(7, seat="south").event, UndoRequested)  # not south's own command
    assert isinstance(decide(7, turn=2).event, UndoRequested)  # an earlier turn
    # nothing revealed in the range, but something since: still consent
    revealed_since = log()[:-1] + [ev(8, 8), ev(9, 9, "card_drawn", revealing=True)]
    assert isinstance(decide(7, version=9, logged=revealed_since).event, UndoRequested)


@pytest.mark.parametrize("to, kw, rule", [(2, {}, "UMPIRE-UNDO-1"), (8, {}, "UMPIRE-UNDO-1"),
                                          (4, {"last_undone": 5}, "UMPIRE-UNDO-2"), (7, {"finished": True},
                                                                                     "UMPIRE-UNDO-3")])
def test_refusals_name_their_rule(to, kw, rule):
    with pytest.raises(RuleViolation) as e:
        decide(to, **kw)
    assert e.value.rule == rule


def test_a_waiting_request_blocks_another_is_answered_by_the_other_seat_and_lapses():
    ks = fold_kernel([(1, GameCreated(game_id="g", ruleset="t", scenario="s", seats=SEATS, engine_version="1",
                                      seed_commitment="0" * 64)),
                      (9, UndoRequested(by="north", to_version=4))])
    assert ks.undo_request.seq == 9
    with pytest.raises(RuleViolation) as e:
        decide(7, ks=ks, version=9)
    assert e.value.rule == "UMPIRE-UNDO-4"
    assert [type(c).__name__ for c in kernel_legal_commands(ks, "south")] == ["UndoAccept", "UndoDecline"]
    assert kernel_legal_commands(ks, "north") == []
    with pytest.raises(NotYourDecision):
        answer_undo(steps_of(log()), ks, seat="north", accept=True)
    done = answer_undo(steps_of(log()), ks, seat="south", accept=True).event
    assert (done.first, done.last, done.consented_by, done.redraw) == (5, 8, "south", True)
    assert kernel_evolve(ks, 10, done).undo_request is None
    assert kernel_evolve(ks, 10, UndoLapsed(by="north", to_version=4)).undo_request is None
    # a log written before lapses were events: a later game event lapses it
    assert fold_kernel([(9, UndoRequested(by="north", to_version=4))], last_game_seq=10).undo_request is None
    with pytest.raises(RuleViolation) as e:
        answer_undo(steps_of(log()), KernelState(), seat="south", accept=False)
    assert e.value.rule == "UMPIRE-UNDO-5"


# -- consent by side (UMPIRE-UNDO-13, UMPIRE-SIDE-1) ----------------------------------------------------------
TEAMS = {"imperial": "imperial", "imperial-2": "imperial", "rebel": "rebel", "rebel-2": "rebel"}
THREE = {"a": "red", "a-2": "red", "b": "blue", "c": "green"}


def requested(sides, by, to=4):
    em = decide_undo(steps_of(log()), KernelState(), seat=by, seats=tuple(sides), to_version=to, version=8, turn=1,
                     finished=False, last_undone_seq=0, sides=sides)
    assert isinstance(em.event, UndoRequested)
    return kernel_evolve(KernelState(), 9, em.event)


def test_a_teammate_neither_answers_nor_sees_the_answer_commands():
    ks = requested(TEAMS, "imperial")
    assert kernel_legal_commands(ks, "imperial-2", TEAMS) == []
    assert kernel_legal_commands(ks, "rebel-2", TEAMS) != []
    for accept in (True, False):
        with pytest.raises(NotYourDecision) as e:
            answer_undo(steps_of(log()), ks, seat="imperial-2", accept=accept, sides=TEAMS)
        assert e.value.rule == "UMPIRE-UNDO-13"
    em = answer_undo(steps_of(log()), ks, seat="rebel-2", accept=True, sides=TEAMS)
    assert isinstance(em.event, Undone) and em.event.consented_by == "rebel-2" and em.event.redraw


def test_every_other_side_must_accept_with_three_sides():
    ks = requested(THREE, "a")
    assert waiting_sides(ks, THREE) == ("blue", "green")
    with pytest.raises(NotYourDecision):
        answer_undo(steps_of(log()), ks, seat="a-2", accept=True, sides=THREE)
    em = answer_undo(steps_of(log()), ks, seat="b", accept=True, sides=THREE)
    assert isinstance(em.event, UndoAccepted)
    ks = kernel_evolve(ks, 10, em.event)
    assert ks.undo_request.accepted == ("b",) and waiting_sides(ks, THREE) == ("green",)
    assert kernel_legal_commands(ks, "b", THREE) == []  # its side has answered
    with pytest.raises(NotYourDecision) as e:
        answer_undo(steps_of(log()), ks, seat="b", accept=True, sides=THREE)
    assert e.value.rule == "UMPIRE-UNDO-13"
    done = answer_undo(steps_of(log()), ks, seat="c", accept=True, sides=THREE)
    assert isinstance(done.event, Undone) and done.event.consented_by == "c"
    # one decline of a side still to answer ends it
    no = answer_undo(steps_of(log()), ks, seat="c", accept=False, sides=THREE)
    assert kernel_evolve(ks, 11, no.event).undo_request is None


def test_a_game_of_one_side_cannot_consent():
    with pytest.raises(RuleViolation) as e:
        decide_undo(steps_of(log()), KernelState(), seat="imperial", seats=("imperial", "imperial-2"), to_version=4,
                    version=8, turn=1, finished=False, last_undone_seq=0,
                    sides={"imperial": "imperial", "imperial-2": "imperial"})
    assert e.value.rule == "UMPIRE-UNDO-6"
