"""The read side of the read models: the queries the service asks (a game's view, the state and view
at a seq, the timeline, the lobby, the live feed). Each answers None when Redis cannot answer for
sure (unreachable, wiped, behind the log): the service then answers from the log.

:class:`ReadSide` is part of :class:`projections.read_models.ReadModels`, which keeps the Redis client,
the store and the per-game folding it reads through."""
from __future__ import annotations

import threading
from typing import Any

import msgspec

from domain.kernel.log import EventLog, UnknownGame

from . import views
from .errors import ProjectionError
from .keys import (
    LOBBY_GAMES,
    LOBBY_ORDER,
    LOBBY_READY,
    LOBBY_VERSIONS,
    GameKeys,
    lobby_member,
    lobby_ruleset_key,
    lobby_status_key,
    lobby_status_ruleset_key,
)
from .redis_io import REDIS_ERRORS, as_int, as_text, encoder, socket_timeout
from .timeline_window import TimelineTail

#: Most feed entries returned by one read_feed call.
FEED_READ_COUNT = 500


class ReadSide:
    """The queries of :class:`projections.read_models.ReadModels` (see there for the attributes)."""

    redis: Any
    store: EventLog
    _reads: threading.local
    _lobby_stale: bool

    # -- reads that meet Redis down ----------------------------------
    def begin_read(self) -> None:
        """Forget this thread's last read failure (call before a query)."""
        self._reads.failed = False

    def read_failed(self) -> bool | None:
        """True when this thread's last query answered None because Redis was unreachable (the log
        answers, marked degraded), False when it was only behind the log or had no models, None when
        it cannot tell."""
        return getattr(self._reads, "failed", False)

    def _unreachable(self) -> None:
        self._reads.failed = True
        return None


    # -- queries (None: answer from the log) ----------------------------
    def _version(self, game_id: str, version: int | None) -> int | None:
        if version is not None:
            return version
        row = self.store.game(game_id)
        return None if row is None else row.version

    def game_view(self, game_id: str, seat: str | None, *, version: int | None = None) -> dict[str, Any] | None:
        """The body of ``GET /games/{id}`` for ``seat`` (None: spectator), or None.

        None when Redis is unreachable, the game has no models, ``seat`` is not
        one of its seats, or the models are behind the log (``version``: the
        game's version if the caller already knows it).
        """
        k = GameKeys(game_id)
        try:
            pipe = self.redis.pipeline(transaction=True)
            pipe.hget(k.meta, "seq")
            pipe.get(k.view(seat))
            seq, body = pipe.execute()
        except REDIS_ERRORS:
            return self._unreachable()
        if seq is None or body is None:
            return None
        want = self._version(game_id, version)
        if want is None or int(seq) != want:
            return None
        return msgspec.json.decode(body)

    def state_at(self, game_id: str, seq: int) -> Any | None:
        """The ruleset state right after ``seq``: the nearest snapshot at or below plus a short fold.

        None when Redis is unreachable, the game has no models or ``seq`` is
        past the log.
        """
        if seq < 0:
            return None
        try:
            game = self._game(game_id)
            state, reached, last = self._fold_upto(game, seq)
        except REDIS_ERRORS:
            return self._unreachable()
        except (ProjectionError, UnknownGame):
            return None
        if last < 0 or reached != seq:
            return None
        return state

    def view_at(self, game_id: str, seq: int, seat: str | None) -> dict[str, Any] | None:
        """The body of ``GET /games/{id}/states/{seq}`` for ``seat``, or None."""
        state = self.state_at(game_id, seq)
        if state is None:
            return None
        game = self._game(game_id)
        ks = self._kernel_at(game, seq)
        return msgspec.json.decode(encoder.encode(views.game_view(game.row, game.ruleset, state, seat, version=seq,
                                                               kernel=ks)))

    def timeline(self, game_id: str, *, version: int | None = None) -> list[dict[str, Any]] | None:
        """``GET /games/{id}/timeline``: one entry per seq, or None (also when the oldest entries are trimmed:
        :meth:`timeline_tail` answers those games)."""
        tail = self.timeline_tail(game_id, version=version)
        return tail.entries if tail is not None and tail.base == 0 else None

    def timeline_tail(self, game_id: str, *, version: int | None = None) -> TimelineTail | None:
        """The timeline entries Redis holds (the newest :attr:`timeline_keep`), after ``base`` older ones
        that only the log holds; None when the models are not at the game's version (or Redis is down)."""
        k = GameKeys(game_id)
        try:
            pipe = self.redis.pipeline(transaction=True)
            pipe.hmget(k.meta, ["seq", "tl_base"])
            pipe.lrange(k.timeline, 0, -1)
            (seq, base), entries = pipe.execute()
        except REDIS_ERRORS:
            return self._unreachable()
        if seq is None:
            return None
        base = as_int(base) or 0
        want = self._version(game_id, version)
        if want is None or int(seq) != want or base + len(entries) != want:
            return None
        return TimelineTail(base, [msgspec.json.decode(e) for e in entries])

    def last_seq(self, game_id: str) -> int | None:
        """The game's last applied seq in Redis (None: no models or Redis down)."""
        try:
            v = self.redis.hget(GameKeys(game_id).meta, "seq")
        except REDIS_ERRORS:
            return self._unreachable()
        return None if v is None else int(v)

    def lobby(self, status: str | None = None, ruleset: str | None = None, *,
              after: tuple[str, str] | None = None, limit: int | None = None) -> list[dict[str, Any]] | None:
        """``GET /games?status=&ruleset=&cursor=&limit=``: entries in creation order (``created_at``, then
        ``game_id``), only those after ``after`` and at most ``limit`` of them; or None.

        None when Redis is unreachable, was wiped and is not caught up yet, or
        a projection failed since the last complete catch-up. Each filter has its
        sorted set in the lobby's order (ZRANGEBYLEX from the cursor): a page costs
        O(log n + page), whatever the size of the lobby.
        """
        if self._lobby_stale:
            self._reads.failed = None  # not caught up since an outage or a start: whether Redis is up is not known here
            return None
        if status and ruleset:
            index = lobby_status_ruleset_key(status, ruleset)
        elif status:
            index = lobby_status_key(status)
        elif ruleset:
            index = lobby_ruleset_key(ruleset)
        else:
            index = LOBBY_ORDER
        start = "(" + lobby_member(*after) if after is not None else "-"
        # The projection follows the log: a game just created may not be in the lobby yet. The newest
        # game of the log must be there, or the log answers (its creator sees it at once).
        newest = self.store.newest_game_id()
        try:
            pipe = self.redis.pipeline(transaction=True)
            pipe.exists(LOBBY_READY)
            pipe.hexists(LOBBY_VERSIONS, newest or "")
            if limit is None:
                pipe.zrangebylex(index, start, "+")
            else:
                pipe.zrangebylex(index, start, "+", start=0, num=limit)
            ready, has_newest, members = pipe.execute()
            if not ready or (newest and not has_newest):
                return None
            page = [as_text(m).rsplit("\n", 1)[1] for m in members]
            if not page:
                return []
            bodies = self.redis.hmget(LOBBY_GAMES, page)
        except REDIS_ERRORS:
            return self._unreachable()
        return [msgspec.json.decode(b) for b in bodies if b is not None]

    # -- live feed ---------------------------------------------------------
    def feed_key(self, game_id: str) -> str:
        """The game's Redis stream: entry id ``<seq>-0``, field ``e`` = the stored event JSON."""
        return GameKeys(game_id).feed

    def read_feed(self, game_id: str, after_seq: int, block_ms: int = 0) -> list[tuple[int, str]] | None:
        """Events after ``after_seq`` as ``(seq, stored event JSON)``, gapless, oldest first.

        Blocks up to ``block_ms`` (0: not at all) when there is nothing new.
        Events trimmed from the stream are read from the log. None when Redis
        is unreachable (follow the log instead). Decode an entry with
        :func:`decode_feed_event` and show it with :func:`projections.views.event_view`.
        """
        key = self.feed_key(game_id)
        timeout = socket_timeout(self.redis)
        if timeout and block_ms > 0:
            # a block longer than the client's socket timeout would end in a TimeoutError
            block_ms = max(1, min(block_ms, int(timeout * 1000) - 100))
        try:
            resp = self.redis.xread({key: f"{max(after_seq, 0)}-0"}, count=FEED_READ_COUNT,
                                    block=block_ms if block_ms > 0 else None)
        except REDIS_ERRORS:
            return self._unreachable()
        if isinstance(resp, dict):  # RESP3
            batches = [x for v in resp.values() for x in v]
            entries = batches[0] if batches else []
        else:
            entries = resp[0][1] if resp else []
        out: list[tuple[int, str]] = []
        for entry_id, fields in entries:
            seq = int(as_text(entry_id).split("-", 1)[0])
            body = fields.get(b"e", fields.get("e"))
            out.append((seq, as_text(body)))
        if out and out[0][0] > after_seq + 1:
            missing = self.store.load(game_id, after=after_seq, upto=out[0][0] - 1)
            out = [(e.seq, encoder.encode(e).decode()) for e in missing] + out
        return out
