"""Bot-vs-bot games of every shipped Battle of Hoth scenario end with a winner, in process (the search bot at a
tiny fixed budget against the greedy bot, sides alternating)."""
from __future__ import annotations

import pytest

from bots import BotSeat
from bots.arena import play_match
from domain.kernel import registry

RS = registry.get("hoth")
SCENARIOS = [c.id for c in RS.scenarios()]


def test_every_shipped_scenario_is_played():
    assert len(SCENARIOS) >= 9  # the nine battles and the campaign-made ones


@pytest.mark.parametrize("i, scenario", list(enumerate(SCENARIOS)))
def test_a_bot_game_of_each_scenario_ends_with_a_winner(i, scenario):
    search, greedy = ("imperial", "rebel") if i % 2 == 0 else ("rebel", "imperial")
    seats = {search: BotSeat(bot="search", level=1, seed=f"{i:064x}"),
             greedy: BotSeat(bot="greedy", level=1, seed=f"{i + 100:064x}")}
    r = play_match(RS, scenario, seats, game_id=f"scn-{i}", seed=i.to_bytes(32, "big"), max_turns=150,
                   playouts={search: 6})
    assert r.winner in ("imperial", "rebel"), f"{scenario}: no winner after {r.turns} turns"
    assert r.decisions > 5 and r.playouts[search], "the search bot searched"


def test_support_cards_and_leaders_in_a_bot_game():
    """Reaction windows (support cards, content 3.1) and leader cards reach the bots, which play them."""
    support = {f: [c.id for c in RS.catalog().cards.values() if c.kind == "support" and c.faction == f]
               for f in ("imperial", "rebel")}
    opts = {"support": support, "leaders": {"imperial": "piett", "rebel": "luke"}}
    seats = {"imperial": BotSeat(bot="search", level=1, seed="0e" * 32),
             "rebel": BotSeat(bot="greedy", level=1, seed="0f" * 32)}
    seen: set[str] = set()
    r = play_match(RS, "PROP-SCN-BREACH-THE-TRENCHES", seats, game_id="sup-1", seed=b"\x09" * 32, options=opts,
                   max_turns=150, playouts={"imperial": 8},
                   on_decision=lambda inp, d: seen.add(d.command["type"]))
    assert r.winner in ("imperial", "rebel")
    assert {"play_support", "pass_support"} & seen, "a support decision was made"
