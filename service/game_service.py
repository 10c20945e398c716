"""The one command path (DESIGN section 1), used by REST, the CLI and benchmarks: :class:`GameService`.

lock (:meth:`GameService.lock`, one command per game at a time inside a process) -> load (the game folded by
the kernel, :mod:`service.game_reading`) -> :func:`domain.kernel.game.decide` with dice whose counters come
from *every* recorded roll (undone ones too, so undo never re-rolls, DESIGN 3/5) -> ``store.append(
expected_version, command_id)`` in one transaction -> hand over to the read models (best effort: a command
is acknowledged once it is in the log) and answer with a signed receipt.

``GameService`` is a facade over its parts, each a module a person reads in one sitting:

- :mod:`service.game_model`: the request bodies, :class:`Current`, :class:`Answer`, the append step;
- :mod:`service.game_reading`: rows, seats, seeds, the folded-game cache, ``state_at``;
- :mod:`service.game_commands`: creating a game, commands, dry runs, the append and its answer;
- :mod:`service.game_receipts`: receipts on answers;
- :mod:`service.game_handoff`: the hand-off to the read models and the listeners.

Everything here is blocking (SQLite); the async routes call it in a worker thread or drive a command's
steps on the event loop, and the store's ``UNIQUE(game_id, seq)`` settles races across processes.
"""
from __future__ import annotations

import asyncio
import threading
import weakref
from collections import OrderedDict
from typing import Any

from .feed_hub import FeedHub
from .game_commands import Commands, decide, encode_emitted, fold_log, new_events, public_payload
from .game_handoff import HandOff
from .game_model import (
    CACHE_GAMES, COMMAND_ID_MAX, ON_FINISHED, SEAT_RESOLVERS, TOKEN_BYTES, Answer, AppendCall, CommandRequest,
    CreateGameRequest, Current, Folded, ReadyRequest, Steps, _Entry, new_game_id, ruleset_for,
)
from .game_reading import Reading
from .game_receipts import Receipts
from .receipts import Signer
from .store_contract import Store

#: The name this had before the fold moved into the kernel.
_fold_records = fold_log


class GameService(Reading, Commands, Receipts, HandOff):
    """A game service over a store: every part's state is set up here."""

    def __init__(self, store: Store, read_models: Any = None, *, cache_games: int = CACHE_GAMES,
                 defer_projection: bool = False, signer: Signer | None = None, projector: Any = None):
        self.store = store
        self.read_models = read_models
        #: The process's projector (``projections.Projector``): the events each append wrote are handed
        #: to it and projected off the command path. None: projected inline (or by the caller).
        self.projector = projector
        #: True: another process (the projector process of ``umpire serve``) projects; this one never does.
        self.project_elsewhere = False
        #: Signs receipts (DESIGN 2); None: answers carry no receipt (library use without a key).
        self.signer = signer
        #: True: the caller projects after answering (the REST routes do it in a
        #: background task, so Redis work is not in a command's latency); False: inline.
        self.defer_projection = defer_projection
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._cache_games = cache_games
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        #: The live feeds of this process (pushed: :meth:`notify` wakes them).
        self.feeds = FeedHub(store, names=self._names)
        #: What never changes once a game exists, looked up once: the games known to exist, the seat of
        #: a (game, token hash), a game's seed. Bounded; a miss asks the store. (Games are never
        #: deleted and tokens, seats and seeds never change, so nothing here can go stale.)
        self._known_games: OrderedDict[str, None] = OrderedDict()
        #: (game, token hash) -> (seat, the game's version when that was last checked): a seat's token can
        #: change (a claim, a rotation: kernel events of the log), so a hit is trusted only while the game's
        #: log shows no change of that seat since (:meth:`seat`).
        self._seats: OrderedDict[tuple[str, str], tuple[str, int]] = OrderedDict()
        self._seeds: OrderedDict[str, bytes] = OrderedDict()
        #: Set when the last ``project`` call failed (Redis unreachable).
        self.projections_down = False
        #: Called with the game id after every append and every new game (from the thread that wrote it):
        #: the built-in players (service/bot_players.py) hear that a bot seat may have a decision.
        self.on_appended: list[Any] = []

    @staticmethod
    def _new_game_id() -> str:
        """A fresh game id (:func:`new_game_id` of this module, which tests replace for reproducible ids)."""
        return new_game_id()


__all__ = ["CACHE_GAMES", "COMMAND_ID_MAX", "ON_FINISHED", "SEAT_RESOLVERS", "TOKEN_BYTES", "Answer", "AppendCall",
           "CommandRequest", "CreateGameRequest", "Current", "Folded", "GameService", "ReadyRequest", "Steps",
           "decide", "encode_emitted", "fold_log", "new_events", "new_game_id", "public_payload",
           "ruleset_for"]
