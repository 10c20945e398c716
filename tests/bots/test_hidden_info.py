"""A bot never receives hidden information (DESIGN 4, 13): every input of every bot decision over whole games
is recorded and scanned for the other seats' cards and the deck orders."""
from __future__ import annotations

from typing import Any

import pytest

from bots import BotSeat, decide
from bots.arena import Arena
from domain.hoth.view import card_texts
from domain.kernel import registry

RS = registry.get("hoth")


def strings(obj: Any, out: set[str] | None = None) -> set[str]:
    out = set() if out is None else out
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            strings(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            strings(v, out)
    return out


def log_strings(events: list[dict]) -> set[str]:
    """Strings of the log entries, leaving out the opening's card definitions (public content naming every id)."""
    out: set[str] = set()
    for e in events:
        p = {k: v for k, v in e["payload"].items() if not (e["type"] == "game_opened" and k == "cards")}
        strings(p, out)
    return out


def card_lists(obj: Any, ids: set[str], out: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Every list of two or more card ids anywhere in ``obj``."""
    if isinstance(obj, dict):
        for v in obj.values():
            card_lists(v, ids, out)
    elif isinstance(obj, (list, tuple)):
        if len(obj) >= 2 and all(isinstance(v, str) and v in ids for v in obj):
            out.append(tuple(obj))
        for v in obj:
            card_lists(v, ids, out)
    return out


def contiguous_in(part: tuple[str, ...], whole: tuple[str, ...]) -> bool:
    n = len(part)
    return any(whole[i:i + n] == part for i in range(len(whole) - n + 1))


def own_cards(state, seat: str) -> set[str]:
    """Cards that were only ever the seat's (its personal piles, the card it is playing) and its side's support."""
    own = set(state.hands[seat]) | set(state.decks[seat]) | set(state.discards[seat])
    if state.turn is not None and state.turn.seat == seat and state.turn.card:
        own.add(state.turn.card)
    f = seat.split("-", 1)[0]
    own |= {c for c, card in state.cards.items() if card.kind == "support" and card.faction == f}
    return own


def own_strings(state, seat: str) -> set[str]:
    """The seat's own cards and their printed faces (the view shows the texts of the cards it shows)."""
    own = own_cards(state, seat)
    return own | strings(card_texts({"hands": sorted(own)}, RS.catalog().cards))


def scan(a: Arena, inp, ids: set[str]) -> int:
    """Assert the seat's input holds nothing beyond what a spectator sees at this version, except its own cards."""
    state, seat = a.state, inp.seat
    spectator = strings(RS.view(state, None)) | log_strings(a.events_for(None))
    mine = own_strings(state, seat)
    seen = strings(inp.view) | log_strings(inp.events)
    extra = seen - spectator
    others = {c for s in state.seats if s != seat for c in state.hands[s]}
    assert not (extra & others), f"{seat} received another seat's hand cards: {sorted(extra & others)}"
    assert extra <= mine, f"{seat} received strings no spectator sees and that are not its own: {sorted(extra - mine)}"
    assert strings(inp.legal) <= spectator | mine | {c["type"] for c in inp.legal}
    assert all(isinstance(n, int) for s, n in inp.view["hands"].items() if s != seat)
    assert "decks" not in inp.view
    # no deck order, whole or a stretch of three or more cards, in any list of the input (two cards of an
    # earlier public list, e.g. discarded together, may lie side by side again after a reshuffle by chance)
    decks = [tuple(state.decks[s]) for s in state.seats]
    for lst in card_lists({"view": inp.view, "legal": inp.legal, "events": inp.events}, ids, []):
        for deck in decks:
            assert not (lst == deck or (len(lst) >= 3 and contiguous_in(lst, deck))), f"{seat} received {lst}"
    return len(extra)


@pytest.mark.parametrize("scenario, options, seats, playouts", [
    ("SCN-TAKE-DOWN-THE-SHIELD", {}, {"imperial": "search:1", "rebel": "greedy:1"}, {"imperial": 8}),
    ("PROP-SCN-WALKER-HUNT", {}, {"imperial": "greedy:1", "rebel": "search:1"}, {"rebel": 8}),
    ("PROP-SCN-FIRST-CONTACT", {"team": True},
     {"imperial": "greedy:1", "rebel": "random:1", "imperial-2": "random:1", "rebel-2": "greedy:1"}, {}),
])
def test_bot_inputs_over_whole_games_hold_no_hidden_information(scenario, options, seats, playouts):
    a = Arena(RS, scenario, f"hid-{scenario}", seed=b"\x05" * 32, options=options)
    bot_seats = {s: BotSeat(bot=spec.split(":")[0], level=int(spec.split(":")[1]), seed=f"{i:02x}" * 32)
                 for i, (s, spec) in enumerate(seats.items())}
    ids = set(a.state.cards)
    decisions = own_seen = 0
    while not a.finished and a.state.turn_no <= 60:
        seat = a.to_act()
        inp = a.seat_input(seat)
        own_seen += scan(a, inp, ids)
        d = decide(bot_seats[seat], inp, playouts=playouts.get(seat))
        # the explanation names nothing of another seat's hand (no id; no title, unless a card of its own has it)
        hidden = {c for s in a.state.seats if s != seat for c in a.state.hands[s]}
        own_titles = {a.state.cards[c].title for c in own_cards(a.state, seat)}
        assert not any(c in d.explanation or (a.state.cards[c].title not in own_titles
                                               and a.state.cards[c].title in d.explanation) for c in hidden), \
            d.explanation
        a.play(seat, d.command)
        decisions += 1
    assert decisions >= 20  # a whole game of decisions was scanned (a quick win takes about 30)
    assert own_seen > 0  # the scan does see private fields: the seat's own cards
