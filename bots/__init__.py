"""Built-in players (DESIGN 13): bots that play a seat through what the seat sees, never more.

``protocol`` (what a bot receives and answers, its random stream, undo answers), ``registry`` (the bots of
each ruleset and :func:`decide`), ``arena`` (bot games in process, the inputs made as the REST API makes
them), ``random_bot`` (every ruleset), ``hoth/`` (greedy and search bots for Battle of Hoth).
"""
from .protocol import (
    Bot, BotInfo, BotSeat, BotSpecError, Budget, Choice, Decision, SeatInput, UndoQuestion, answer_undo, bot_random,
    new_bot_seed,
)
from .registry import bots_for, decide, infos, resolve

__all__ = [
    "Bot", "BotInfo", "BotSeat", "BotSpecError", "Budget", "Choice", "Decision", "SeatInput", "UndoQuestion",
    "answer_undo", "bot_random", "new_bot_seed", "bots_for", "decide", "infos", "resolve",
]
