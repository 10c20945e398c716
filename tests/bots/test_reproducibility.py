"""Same seeds, same choices: a bot decision depends only on the bot, its level, its seed and the seat's input
(and, for a search cut short by its clock, the playouts it made, which the decision records)."""
from __future__ import annotations

from bots import BotSeat, decide
from bots.arena import Arena, play_match
from domain.kernel import registry

RS = registry.get("hoth")


def _midgame_input():
    a = Arena(RS, "PROP-SCN-FIRST-CONTACT", "rep-1", seed=b"\x02" * 32)
    g = BotSeat(bot="greedy", level=1, seed="03" * 32)
    while a.state.turn_no < 5:
        seat = a.to_act()
        a.play(seat, decide(g, a.seat_input(seat)).command)
    while True:  # a decision with a real choice
        seat = a.to_act()
        inp = a.seat_input(seat)
        if len(inp.legal) > 3:
            return inp
        a.play(seat, decide(g, inp).command)


def test_the_same_seed_and_input_give_the_same_decision():
    inp = _midgame_input()
    seat = BotSeat(bot="search", level=1, seed="0a" * 32)
    first = decide(seat, inp, playouts=60)
    again = decide(seat, inp, playouts=60)
    assert (first.command, first.explanation, first.playouts) == (again.command, again.explanation, again.playouts)
    assert first.playouts == 60 and "playouts" not in first.explanation  # UMPIRE-BOT-3: a field, never public
    # the level's own budget (clock as a safety net): the recorded playouts reproduce the choice
    timed = decide(BotSeat(bot="search", level=1, seed="0b" * 32), inp)
    assert timed.playouts and timed.playouts > 0
    assert decide(BotSeat(bot="search", level=1, seed="0b" * 32), inp, playouts=timed.playouts).command == timed.command
    g = BotSeat(bot="greedy", level=1, seed="0c" * 32)
    assert decide(g, inp).command == decide(g, inp).command


def test_a_bot_game_replays_decision_for_decision():
    def run():
        made: list[tuple] = []
        seats = {"imperial": BotSeat(bot="search", level=1, seed="11" * 32),
                 "rebel": BotSeat(bot="random", level=1, seed="22" * 32)}
        r = play_match(RS, "PROP-SCN-CANNON-RIDGE", seats, game_id="rep-2", seed=b"\x04" * 32, max_turns=12,
                       playouts={"imperial": 10},
                       on_decision=lambda inp, d: made.append((inp.version, d.bot, d.command, d.explanation)))
        return r, made

    (r1, a), (r2, b) = run(), run()
    assert len(a) > 40 and a == b and r1.winner == r2.winner and r1.turns == r2.turns
