"""The Emperor's ``check_rolls`` (DESIGN 3, issue 10; domain/emperor/faces.py): its only chance, the
order deck's shuffle (SOLO-ORD-2, BASE-SETUP-1; the reshuffle of GAP-A-22), records exactly the draws
of a Fisher-Yates of the deck it records -- checked on the shuffles of real random games (the opening's
and a reshuffle's), against changed, missing and misplaced draws and a rewritten deck, and through the
verifier of a stored log (``service.verify``)."""
from __future__ import annotations

from functools import cache
from types import SimpleNamespace

import msgspec

from domain.emperor.events import OrderDeckShuffled
from service.verify import check_dice

from .play import random_game, ruleset

SCENARIO = "SETUP-WARDEN-VS-VESPER"


@cache
def _game():
    return random_game(ruleset(), SCENARIO, 3)


def _shuffles():
    return [em for em in _game().emitted if isinstance(em.event, OrderDeckShuffled)]


def test_every_shuffle_records_the_draws_of_its_deck():
    rs = ruleset()
    shuffles = _shuffles()
    assert any(em.event.reshuffle for em in shuffles) and not shuffles[0].event.reshuffle  # both kinds seen
    assert all(em.rolls for em in shuffles)
    assert {type(em.event) for em in _game().emitted if em.rolls} == {OrderDeckShuffled}  # no other chance
    for em in shuffles:
        assert rs.check_rolls(em.event, em.rolls) is None, em


def test_shuffle_draws_that_do_not_fit_are_named():
    rs = ruleset()
    em = _shuffles()[0]
    r0 = em.rolls[0]
    wrong = [
        em.rolls[:-1],  # a draw left out
        (*em.rolls, msgspec.structs.replace(em.rolls[-1], index=em.rolls[-1].index + 1)),  # one too many
        (msgspec.structs.replace(r0, sides=r0.sides + 1), *em.rolls[1:]),  # another die
        (msgspec.structs.replace(r0, stream="dice"), *em.rolls[1:]),  # the game's dice, not the automaton's
        (msgspec.structs.replace(r0, value=r0.sides), *em.rolls[1:]),  # a value no die of that size shows
        tuple(reversed(em.rolls)),  # the draws out of the shuffle's order
    ]
    for rolls in wrong:
        assert "order_deck_shuffled" in (rs.check_rolls(em.event, tuple(rolls)) or ""), rolls
    twice = msgspec.structs.replace(em.event, deck=(em.event.deck[0], *em.event.deck[:-1]))
    assert "distinct" in rs.check_rolls(twice, em.rolls)
    shorter = msgspec.structs.replace(em.event, deck=em.event.deck[:-1])
    assert rs.check_rolls(shorter, em.rolls) is not None


def test_the_verifier_of_a_stored_log_names_a_shuffle_whose_draws_were_rewritten():
    rs = ruleset()
    g = _game()
    rows = [SimpleNamespace(seq=i, payload=msgspec.json.encode(em.event).decode(),
                            rolls=msgspec.json.encode(list(em.rolls)).decode())
            for i, em in enumerate(g.emitted, start=1)]
    ok, checked, _, problem = check_dice(g.seed, g.setup.game_id, rows, ruleset=rs)
    assert ok and checked == sum(len(em.rolls) for em in g.emitted), problem
    k = next(i for i, em in enumerate(g.emitted) if isinstance(em.event, OrderDeckShuffled))
    deck = g.emitted[k].event.deck
    rows[k] = SimpleNamespace(seq=k + 1, rolls=rows[k].rolls, payload=msgspec.json.encode(
        msgspec.structs.replace(g.emitted[k].event, deck=deck[:-1], size=len(deck) - 1)).decode())
    ok, _, first_bad, problem = check_dice(g.seed, g.setup.game_id, rows, ruleset=rs)
    assert not ok and first_bad == k + 1 and "order_deck_shuffled" in problem, problem
