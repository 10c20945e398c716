"""The bot seats of a game (DESIGN 13; UMPIRE-BOT-1): which seats a creator hands to built-in players, checked,
and the seed of each bot seat's own random stream.

Both the command side (creating a game or a campaign) and the built-in players (:mod:`service.bot_players`)
use these; neither imports the other for them.
"""
from __future__ import annotations

import hashlib
import hmac

from bots import BotSpecError, resolve

from .problems import Problem


def check_bots(ruleset_id: str, seats: tuple[str, ...], bots: dict[str, str] | None) -> dict[str, str]:
    """``POST /games`` ``bots`` checked (known seat, known bot of the ruleset, known level) -> seat ->
    ``"<bot id>:<level>"`` (UMPIRE-BOT-1); a 422 problem naming the field ``bots.<seat>``."""
    out: dict[str, str] = {}
    for seat, spec in (bots or {}).items():
        field = f"bots.{seat}"
        if seat not in seats:
            raise Problem(422, "bad-setup", f"{seat!r} is not a seat of this game (seats: {', '.join(seats)})",
                          field=field)
        try:
            bot, level = resolve(ruleset_id, spec, field)
        except BotSpecError as exc:
            raise Problem(422, "bad-setup", exc.detail, field=exc.field) from None
        out[seat] = f"{bot.id}:{level}"
    return out


def bot_seed(game_seed: bytes, game_id: str, seat: str, spec: str) -> str:
    """The seed of a bot seat's own random stream (never the game's dice; DESIGN 13): derived from the game's
    secret seed, so it is as secret as the seed while the game is on and reproducible once it is revealed."""
    return hmac.new(game_seed, f"umpire-bot-seed|{game_id}|{seat}|{spec}".encode(), hashlib.sha256).hexdigest()


__all__ = ["bot_seed", "check_bots"]
