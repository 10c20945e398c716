"""The determiniser (bots/hoth/knowledge.py) reads only what the seat receives (its view and the log as it
sees it) and samples the hidden cards from the cards the seat has not seen."""
from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from bots.arena import Arena
from bots.hoth.knowledge import Knowledge
from domain.kernel import registry

RS = registry.get("hoth")
view_of = RS.view  # the seat view as the service hands it (with the printed card faces)
SUPPORT = {f: [c.id for c in RS.catalog().cards.values() if c.kind == "support" and c.faction == f][:3]
           for f in ("imperial", "rebel")}
GAMES = [
    ("SCN-TAKE-DOWN-THE-SHIELD", {}),
    ("PROP-SCN-RIDGE-WATCH", {"leaders": {"imperial": "piett", "rebel": "leia"}}),
    ("PROP-SCN-BREACH-THE-TRENCHES", {"support": SUPPORT}),
    ("PROP-SCN-OUTPOST-DELTA", {"team": True}),
]
PUBLIC_FIELDS = ("units", "structures", "medals", "held", "captured", "discards", "turn_order", "turn_no", "turn",
                 "pending", "attack", "last_card", "lost_units", "lasting", "support_turn", "winner", "scenario",
                 "cards", "seats")


def positions(scenario: str, options: dict, seed: int, every: int = 3):
    """(arena state, seat input) along a random game, every few decisions."""
    a = Arena(RS, scenario, f"k{seed}", seed=seed.to_bytes(32, "big"), options=options)
    rng = random.Random(seed)
    n = 0
    while not a.finished and a.state.turn_no <= 30:
        seat = a.to_act()
        inp = a.seat_input(seat)
        if n % every == 0:
            yield a.state, inp
        n += 1
        a.play(seat, rng.choice(inp.legal))


@pytest.mark.parametrize("scenario, options", GAMES)
def test_a_sampled_state_is_the_seat_view_with_hidden_cards_dealt(scenario, options):
    rng = random.Random(3)
    checked = 0
    for true, inp in positions(scenario, options, seed=5):
        k = Knowledge(inp)
        assert k.exact, "the public record adds up: every unseen card has a place"
        s = k.sample(rng)
        # the seat sees the sampled state exactly as it saw the real one ...
        assert view_of(s, inp.seat) == inp.view
        # ... every public field is the real one (also those the view leaves out: lasting effects, losses) ...
        for f in PUBLIC_FIELDS:
            assert msgspec.to_builtins(getattr(s, f)) == msgspec.to_builtins(getattr(true, f)), f
        # ... and the seat's legal commands are the ones it was given
        assert [msgspec.to_builtins(c) for c in RS.legal_commands(s, inp.seat)] == inp.legal
        # the hidden cards are the cards not seen, dealt at the right sizes
        for seat in s.hands:
            assert len(s.hands[seat]) == len(true.hands[seat]) and len(s.decks[seat]) == len(true.decks[seat])
        hidden_true = Counter(c for seat in true.seats if seat != inp.seat for c in true.hands[seat])
        hidden_true += Counter(c for seat in true.seats for c in true.decks[seat])
        hidden_s = Counter(c for seat in s.seats if seat != inp.seat for c in s.hands[seat])
        hidden_s += Counter(c for seat in s.seats for c in s.decks[seat])
        assert hidden_s == hidden_true
        checked += 1
    assert checked >= 10


def _with_other_hidden(true, seat, rng):
    """The same game with the hidden cards dealt differently (another hand, other deck orders)."""
    hands, decks = dict(true.hands), dict(true.decks)
    for s in true.seats:
        if s == seat:
            decks[s] = tuple(rng.sample(true.decks[s], len(true.decks[s])))
            continue
        pool = list(true.hands[s]) + list(true.decks[s])
        rng.shuffle(pool)
        hands[s], decks[s] = tuple(pool[:len(true.hands[s])]), tuple(pool[len(true.hands[s]):])
    return msgspec.structs.replace(true, hands=hands, decks=decks)


def test_the_determiniser_reads_nothing_but_the_seat_input():
    """Two games that differ only in hidden cards give the seat the same view; the sampled states are the same,
    draw for draw (so nothing else reached the determiniser)."""
    compared = 0
    rng = random.Random(11)
    for true, inp in positions("PROP-SCN-FIRST-CONTACT", {}, seed=9, every=7):
        other = _with_other_hidden(true, inp.seat, rng)
        if other == true:
            continue
        assert view_of(other, inp.seat) == inp.view  # the other game looks the same to the seat
        k = Knowledge(inp)
        again = Knowledge(msgspec.convert(msgspec.to_builtins(inp), type(inp)))  # a copy through JSON builtins
        a, b = k.sample(random.Random(1)), again.sample(random.Random(1))
        assert msgspec.json.encode(a) == msgspec.json.encode(b)
        # and the sample is not the real game: the hidden cards are drawn, not read
        compared += 1
    assert compared >= 5


def test_sampling_covers_the_unseen_cards():
    """Over many samples every unseen card of the opponent shows up in its hand (nothing is pinned)."""
    true, inp = next((t, i) for t, i in positions("SCN-TAKE-DOWN-THE-SHIELD", {}, seed=2, every=1)
                     if t.turn_no >= 6)
    k = Knowledge(inp)
    other = next(s for s in true.seats if s != inp.seat)
    unseen = set(true.hands[other]) | set(true.decks[other])
    seen_in_hand: set[str] = set()
    rng = random.Random(0)
    for _ in range(300):
        seen_in_hand |= set(k.sample(rng).hands[other])
    assert seen_in_hand == unseen


def test_the_determiniser_reads_the_rule_choices_from_the_header():
    """DESIGN 14: a bot's simulations are decided under the game's rule choices, read from the header it was
    given (event 1); a log without a header (or a header from before choices) gives the recorded readings."""
    from domain.hoth.choices import EWEB, EWEB_CONFIRM, FIRST_DRAW, PERM_MEDAL

    _, inp = next(positions("SCN-TAKE-DOWN-THE-SHIELD", {}, seed=5))
    assert Knowledge(inp).base.choices == {EWEB: "any", PERM_MEDAL: "pass", FIRST_DRAW: "play", EWEB_CONFIRM: "no"}
    header = {"seq": 0, "type": "game_created", "actor": None, "payload": {"choices": {EWEB: "all",
                                                                                    PERM_MEDAL: "stop"}}}
    with_header = msgspec.structs.replace(inp, events=[header, *inp.events])
    assert Knowledge(with_header).base.choices == {EWEB: "all", PERM_MEDAL: "stop", FIRST_DRAW: "play",
                                                   EWEB_CONFIRM: "no"}
    assert Knowledge(with_header).sample(random.Random(1)).choices[EWEB] == "all"
