"""The harness's checks fail where they must: broken variants of the toy ruleset are caught."""
from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.kernel import RuleViolation
from domain.kernel.runner import random_game
from tests.service.toy_ruleset import ToyRuleset

from . import checks


class HandsForAll(ToyRuleset):
    """Shows every seat's hand to everybody while the game is on (the private ``cards`` of hand_dealt)."""

    def view(self, state: Any, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
        out = super().view(state, seat, reveal_all)
        out["all_hands"] = {s: list(h) for s, h in state.hands.items()}
        return out


class DeckOrderShown(ToyRuleset):
    """Shows each deck in order (the private ``order`` of deck_shuffled), as if it were harmless."""

    def view(self, state: Any, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
        out = super().view(state, seat, reveal_all)
        out["decks_in_order"] = {s: list(d) for s, d in state.decks.items()}
        return out


class AcceptsAnything(ToyRuleset):
    """Takes any command without a ruling: a command outside the list is not refused."""

    def decide(self, state: Any, seat: str, command: Any, dice: Any) -> list[Any]:
        try:
            return super().decide(state, seat, command, dice)
        except RuleViolation:
            return []


class Forgetful(ToyRuleset):
    """evolve depends on how often it has been called: the fold of the log is not the live state."""

    calls = 0

    def evolve(self, state: Any, event: Any) -> Any:
        Forgetful.calls += 1
        st = super().evolve(state, event)
        return msgspec.structs.replace(st, turn=st.turn + Forgetful.calls // 1000)


def _watched(rs: Any, seed: int) -> None:
    watch: dict[str, Any] = {}

    def check(g, seat, cmd, listed):
        watch.setdefault("w", checks.LeakWatch(g)).check()

    random_game(rs, "duel", seed, check=check)


@pytest.mark.parametrize("rs,pattern", [(HandsForAll(), "shows hidden"), (DeckOrderShown(), "shows hidden")])
def test_a_view_showing_what_another_seat_holds_is_caught(rs, pattern):
    with pytest.raises(AssertionError, match=pattern):
        for seed in range(11, 15):
            _watched(rs, seed)


def test_the_honest_toy_passes_the_same_watch():
    for seed in range(11, 15):
        _watched(ToyRuleset(), seed)


def test_an_unlisted_command_that_is_accepted_is_caught():
    rng = random.Random(1)

    def check(g, seat, cmd, listed):
        checks.commands_check(g, seat, listed, rng, sample=4, variants=50)

    with pytest.raises(AssertionError, match="was accepted"):
        for seed in range(11, 15):
            random_game(AcceptsAnything(), "duel", seed, check=check)


def test_a_fold_that_differs_from_the_live_state_is_caught():
    g = random_game(Forgetful(), "duel", 11, keep_states=True)
    Forgetful.calls = 5000
    with pytest.raises(AssertionError, match="differs"):
        checks.fold_equals_live(g)
    with pytest.raises(AssertionError, match="differs"):
        checks.replay_at_every_seq_equals_prefix_fold(g, random.Random(1))
