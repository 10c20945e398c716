"""The Redis read models and the projector that keeps them (DESIGN section 7).

:class:`ReadModels` is the one object the service holds. Commands write the
log first, then call :meth:`ReadModels.project`; queries read the models and,
when one answers None (Redis down, wiped or behind the log), the service
answers from the log instead. Redis is never the source of truth.

Applying event ``seq`` of a game is ONE atomic step: the ``APPLY`` Lua script
(:mod:`projections.scripts`), run with EVALSHA on keys that share the game's
hash tag, guarded by the game's last applied seq. Python folds the events
incrementally (a per-game state cache, else the nearest replay snapshot plus a
short fold) and hands the script the finished JSON bodies: the views of every
seat and of the spectator (built by :func:`projections.views.game_view`, the same
function the log path uses), the timeline entry, the event for the live feed,
and a snapshot when one is due.

Over 500 lines on purpose: this is the write side only (projecting events atomically, with its per-game
fold cache, snapshot choice and lobby sync, which share one game's lock); the reads are in
:mod:`projections.read_side` and the catch-up in :mod:`projections.catch_up_pass`.
"""
from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import msgspec
import redis
from redis.exceptions import NoScriptError

from domain.kernel import (
    FINISHED, KERNEL_EVENT_TYPES, KernelState, Ruleset, Setup, fold, fold_kernel, game_status,
    registry,
)
from domain.kernel import game as kernel_game
from domain.kernel import words
from domain.kernel.fold import decode_event
from domain.kernel.undo import Undone
from domain.kernel.log import EventLog, GameRow, StoredEvent, UnknownGame

from . import scripts, views
from .catch_up_pass import CatchUpPass
from .errors import ProjectionError
from .read_side import ReadSide
from .redis_io import REDIS_ERRORS, as_int as _int, as_text as _s, encoder as _enc, evalsha as _evalsha, socket_timeout
from .keys import (
    LOBBY_CREATED,
    LOBBY_GAMES,
    LOBBY_STATUSES,
    LOBBY_VERSIONS,
    GameKeys,
    LOBBY_ORDER,
    lobby_member,
    lobby_ruleset_key,
    lobby_status_key,
    lobby_status_ruleset_key,
)
from .snapshots import decode_state, encode_state, max_snapshots, takes_snapshot
from .timeline_window import TIMELINE_KEEP, TimelineTail

log = logging.getLogger("umpire.projections")

#: PROPOSED: entries kept in a game's live feed stream (XADD MAXLEN ~: Redis trims whole nodes of 100
#: entries, so up to about twice this stay); a reader further behind gets the older events from the log
#: (read_feed). The SSE feed itself reads the log once per commit (service/feed_hub.py).
FEED_MAXLEN = 100
#: PROPOSED: seconds a game's feed stream stays after its last event (trimmed by age: an idle game's goes).
FEED_TTL_S = 3600
#: Environment variable: seconds a finished game's read models stay in Redis after its last event (0: for
#: ever). Its views, timeline, snapshots and feed then expire; the service answers them from the log, and
#: the catch-up does not project a finished game again while its lobby entry is at its version.
ENV_FINISHED_TTL = "UMPIRE_FINISHED_TTL"
#: PROPOSED default of :data:`ENV_FINISHED_TTL`: one hour.
FINISHED_TTL_S = 3600


def finished_ttl_from_env() -> int:
    """``$UMPIRE_FINISHED_TTL`` (seconds, 0: never), else :data:`FINISHED_TTL_S`."""
    raw = (os.environ.get(ENV_FINISHED_TTL) or "").strip()
    if not raw:
        return FINISHED_TTL_S
    try:
        return max(0, int(raw))
    except ValueError:
        raise ValueError(f"{ENV_FINISHED_TTL} must be a number of seconds, not {raw!r}") from None
#: Events per pipeline round trip while projecting (each is still its own
#: atomic script call).
PIPELINE_BATCH = 200
#: Games whose current state is kept in memory between commands.
STATE_CACHE_GAMES = 256
#: A gap found while projecting means the models changed under us (wiped,
#: restarted); project() starts again this many times before giving up.
GAP_RETRIES = 3

_stored_event_decoder = msgspec.json.Decoder(StoredEvent)


class _Game:
    __slots__ = ("row", "ruleset", "setup", "seats", "keys", "view_keys")

    def __init__(self, row: GameRow, ruleset: Ruleset, setup: Setup):
        self.row = row
        self.ruleset = ruleset
        self.setup = setup
        self.seats: tuple[str | None, ...] = (*setup.seats, None)
        self.keys = GameKeys(row.game_id)
        self.view_keys = [self.keys.view(s) for s in self.seats]


def decode_feed_event(event_json: str | bytes) -> StoredEvent:
    """The stored event carried by one feed entry (see :meth:`ReadModels.read_feed`)."""
    return _stored_event_decoder.decode(event_json.encode() if isinstance(event_json, str) else event_json)


class _Step(msgspec.Struct, frozen=True):
    seq: int
    keys: list[str]
    args: list[Any]
    status: str
    winner: str | None


class ReadModels(ReadSide, CatchUpPass):
    """The read models of every game in one Redis, fed from one event store.

    Safe to share between threads (one lock per game). Write methods raise the
    redis exceptions when Redis is unreachable (the caller swallows them; the
    catch-up repairs); read methods answer None instead.
    """

    def __init__(self, redis_client: redis.Redis, store: EventLog, *, feed_maxlen: int = FEED_MAXLEN,
                 finished_ttl: int | None = None, feed_ttl: int = FEED_TTL_S, thin_snapshots: bool = True,
                 timeline_keep: int = TIMELINE_KEEP):
        """``finished_ttl``: seconds a finished game's models stay (None: ``$UMPIRE_FINISHED_TTL`` or
        :data:`FINISHED_TTL_S`; 0: for ever); ``feed_ttl``: seconds a feed stream stays after its last event;
        ``thin_snapshots``: keep a bounded number of snapshots (:func:`projections.snapshots.max_snapshots`)."""
        self.redis = redis_client
        self.store = store
        self.feed_maxlen = feed_maxlen
        self.finished_ttl = finished_ttl_from_env() if finished_ttl is None else finished_ttl
        self.feed_ttl = feed_ttl
        #: False: every snapshot is kept (tests of the replay over many snapshots).
        self.thin_snapshots = thin_snapshots
        #: The newest timeline entries kept per game (0: all; :mod:`projections.timeline_window`).
        self.timeline_keep = timeline_keep
        #: Events applied by this object (APPLY steps that wrote): the tests count a warm start's work.
        self.events_applied = 0
        self._apply = redis_client.register_script(scripts.APPLY)
        self._nearest = redis_client.register_script(scripts.NEAREST_SNAPSHOT)
        self._lobby_upsert = redis_client.register_script(scripts.LOBBY_UPSERT)
        self._games: dict[str, _Game] = {}
        self._cache: OrderedDict[str, tuple[int, Any]] = OrderedDict()
        #: game -> (seq, the kernel's state after it: header, ready seats, waiting undo request)
        self._kernels: dict[str, tuple[int, KernelState]] = {}
        #: game -> (the models' last applied seq as this process last saw it, the turn of that event):
        #: the projector's fast path (:meth:`project_batch`) starts from it without asking Redis.
        self._heads: dict[str, tuple[int, int | None]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._apply_sha = self._apply.sha
        self._lobby_sha = self._lobby_upsert.sha
        #: Per thread: did the last read meet an unreachable Redis (see :meth:`read_failed`)?
        self._reads = threading.local()
        #: True until a complete catch-up; set again when a write fails. While
        #: True the lobby is answered from the log. (A process that never projects -- the workers of
        #: ``umpire serve`` beside its projector process -- calls :meth:`trust_shared_ready`: the
        #: ``{lobby}:ready`` key the projector sets says it for every process.)
        self._lobby_stale = True
        #: The run ids of the Redis server(s) when the last complete catch-up started: another run id
        #: means Redis restarted (its data may be older than the log), so a catch-up is due.
        self._caught_up_run: tuple[str, ...] | None = None

    # -- games and locks ----------------------------------------------
    def _game(self, game_id: str) -> _Game:
        g = self._games.get(game_id)
        if g is not None:
            return g
        row = self.store.require_game(game_id)
        ruleset = registry.get(row.ruleset)
        if ruleset is None:
            raise ProjectionError(f"game {game_id}: ruleset {row.ruleset!r} is not installed")
        setup = msgspec.json.decode(row.setup, type=Setup)
        g = _Game(row, ruleset, setup)
        with self._guard:
            self._games[game_id] = g
        return g

    def _lock(self, game_id: str) -> threading.Lock:
        with self._guard:
            lk = self._locks.get(game_id)
            if lk is None:
                lk = self._locks[game_id] = threading.Lock()
            return lk

    def _remember(self, game_id: str, seq: int, state: Any) -> None:
        with self._guard:
            self._cache[game_id] = (seq, state)
            self._cache.move_to_end(game_id)
            while len(self._cache) > STATE_CACHE_GAMES:
                self._cache.popitem(last=False)

    def _cached(self, game_id: str, seq: int) -> Any:
        with self._guard:
            hit = self._cache.get(game_id)
        return hit[1] if hit is not None and hit[0] == seq else None

    def forget(self, game_id: str | None = None) -> None:
        """Drop in-memory state (all games when None); the next projection re-reads snapshots."""
        with self._guard:
            if game_id is None:
                self._cache.clear()
                self._kernels.clear()
                self._heads.clear()
            else:
                self._cache.pop(game_id, None)
                self._kernels.pop(game_id, None)
                self._heads.pop(game_id, None)

    def _kernel_at(self, game: _Game, seq: int) -> KernelState:
        """The kernel's state right after ``seq`` (kept beside the ruleset state; else from the
        kernel events of the log, which are few)."""
        gid = game.row.game_id
        with self._guard:
            hit = self._kernels.get(gid)
        if hit is not None and hit[0] == seq:
            return hit[1]
        if seq <= 0:
            return KernelState()
        rs = game.ruleset
        records = self.store.load(gid, upto=seq, types=KERNEL_EVENT_TYPES)
        last_game = self.store.last_seq_not_of(gid, KERNEL_EVENT_TYPES, upto=seq)
        return fold_kernel([(e.seq, decode_event(rs, e.payload)) for e in records], last_game)

    def _remember_kernel(self, game_id: str, seq: int, ks: KernelState) -> None:
        with self._guard:
            self._kernels[game_id] = (seq, ks)

    def _remember_head(self, game_id: str, seq: int, turn: int | None) -> None:
        with self._guard:
            self._heads[game_id] = (seq, turn)

    # -- projecting ----------------------------------------------------
    def project(self, game_id: str, upto: int | None = None, *, events: Sequence[StoredEvent] | None = None) -> int:
        """Bring the game's models up to the log (or to ``upto``); return the last applied seq.

        ``events`` may hand over events already read from the log (a rebuild);
        any the models lack are read from the store. Raises redis exceptions
        when Redis is down, :class:`domain.kernel.log.UnknownGame` for an unknown
        game and :class:`ProjectionError` for a ruleset that is not installed.
        """
        try:
            game = self._game(game_id)
            for _ in range(GAP_RETRIES):
                with self._lock(game_id):
                    last = self._project_once(game, upto, events)
                if last is not None:
                    return last
                self.forget(game_id)
                events = None
            raise ProjectionError(f"game {game_id}: the models kept changing while being projected")
        except REDIS_ERRORS:
            self._lobby_stale = True
            raise

    def apply_event(self, event: StoredEvent) -> int:
        """Deliver one stored event (in any order, any number of times).

        A duplicate changes nothing, a gap is backfilled from the log, the next
        seq is applied. Returns the game's last applied seq.
        """
        return self.project(event.game_id, upto=event.seq, events=[event])

    def project_batch(self, batches: dict[str, Sequence[StoredEvent]]) -> list[str]:
        """Project the events just written of several games in ONE Redis round trip (the projector's
        path, :mod:`projections.projector`). A game goes that way when this process knows the models'
        head and state right before its first event and none of its events is an undo; its views are
        built once, for its last seq. Every other game, and any whose script found the models
        elsewhere (another process projected them, a wipe, a gap), goes through :meth:`project`, which
        reads what it needs. Returns the games projected that second way. Raises redis errors
        (the lobby is then answered from the log until a complete catch-up)."""
        slow: list[str] = []
        fast: list[tuple[_Game, list[_Step], Any, KernelState, int | None, bool]] = []
        held: list[threading.Lock] = []
        try:
            pipe = self.redis.pipeline(transaction=False)
            for gid, events in batches.items():
                if not events:
                    continue
                try:
                    game = self._game(gid)
                except Exception:
                    slow.append(gid)
                    continue
                lk = self._lock(gid)
                if not lk.acquire(blocking=False):  # a catch-up is projecting it: after it, the long way
                    slow.append(gid)
                    continue
                held.append(lk)
                plan = self._fast_steps(game, events)
                if plan is None:
                    slow.append(gid)
                    continue
                steps, state, ks, turn = plan
                for step in steps:
                    _evalsha(pipe, self._apply_sha, step.keys, step.args)
                st = game_status(game.ruleset, state, ks)
                lobby = self._lobby_call(game, steps[-1].seq, st.status, st.winner)
                if lobby is not None:
                    _evalsha(pipe, self._lobby_sha, lobby[0], lobby[1])
                fast.append((game, steps, state, ks, turn, lobby is not None))
            if fast:
                results = pipe.execute(raise_on_error=False)
                i = 0
                for game, steps, state, ks, turn, has_lobby in fast:
                    gid = game.row.game_id
                    applied = results[i:i + len(steps)]
                    i += len(steps)
                    lobby_ok = True
                    if has_lobby:
                        lobby_ok = not isinstance(results[i], Exception)
                        i += 1
                    self.events_applied += sum(1 for r in applied if isinstance(r, list) and int(r[0]) == 1)
                    if lobby_ok and all(isinstance(r, list) and int(r[0]) == 1 for r in applied):
                        final = steps[-1].seq
                        self._remember(gid, final, state)
                        self._remember_kernel(gid, final, ks)
                        self._remember_head(gid, final, turn)
                    else:  # not where this process thought (or the scripts were flushed): the long way
                        self.forget(gid)
                        slow.append(gid)
        except REDIS_ERRORS:
            self._lobby_stale = True
            raise
        finally:
            for lk in held:
                lk.release()
        for gid in slow:
            try:
                self.project(gid, events=batches[gid])
            except (ProjectionError, UnknownGame) as exc:
                log.warning("game %s cannot be projected: %s", gid, exc)
        return slow

    def _fast_steps(self, game: _Game, events: Sequence[StoredEvent]
                    ) -> tuple[list[_Step], Any, KernelState, int | None] | None:
        """The APPLY steps of ``events`` from what this process remembers (None: it does not know
        the models' head, state and kernel right before them, or an event is an undo)."""
        gid = game.row.game_id
        before = events[0].seq - 1
        with self._guard:
            head = self._heads.get(gid)
            hit = self._cache.get(gid)
            kh = self._kernels.get(gid)
        if head is None or hit is None or kh is None or not head[0] == hit[0] == kh[0] == before:
            return None
        if any(b.seq != a.seq + 1 for a, b in zip(events, events[1:])):
            return None
        rs = game.ruleset
        state, ks, prev_turn = hit[1], kh[1], head[1]
        records = kernel_game.records_of(rs, events)
        if any(isinstance(r.event, Undone) for r in records):
            return None
        pending = []
        for ev, (r, state, ks) in zip(events, kernel_game.steps(rs, game.setup, records, (before, state), ks)):
            pending.append((ev.seq, state, ev, prev_turn, (), ks))
            prev_turn = ev.turn
        steps = [self._step(game, *p, with_views=i == len(pending) - 1) for i, p in enumerate(pending)]
        return steps, state, ks, prev_turn

    def _meta(self, game: _Game) -> dict[str, str]:
        raw = self.redis.hgetall(game.keys.meta)
        return {_s(k): _s(v) for k, v in raw.items()}

    def _project_once(self, game: _Game, upto: int | None, given: Sequence[StoredEvent] | None) -> int | None:
        """One pass; None when a gap shows the models changed under us."""
        gid = game.row.game_id
        meta = self._meta(game)
        if "seq" not in meta:
            # No models yet (new game, wiped Redis): open them at seq 0.
            st = game.ruleset.initial_state(game.setup)
            if not self._run(game, [self._step(game, 0, st, None, None, (), KernelState())]):
                return None
            self._remember(gid, 0, st)
            meta = self._meta(game)
            if "seq" not in meta:
                return None
        last = int(meta["seq"])
        self._remember_head(gid, last, _int(meta.get("turn")))
        if upto is not None and upto <= last:
            self._sync_lobby(game, last, meta.get("status", ""), meta.get("winner") or None)
            return last
        events: list[StoredEvent] | None = None
        if given:
            events = [e for e in given if e.seq > last and (upto is None or e.seq <= upto)]
            if not events or events[0].seq != last + 1 or any(b.seq != a.seq + 1 for a, b in zip(events, events[1:])):
                events = None
        if events is None:
            events = self.store.load(gid, after=last, upto=upto)
        if not events:
            self._sync_lobby(game, last, meta.get("status", ""), meta.get("winner") or None)
            return last
        state = self._cached(gid, last)
        if state is None:
            state = self._fold_upto(game, last)[0]
        prev_turn = _int(meta.get("turn"))
        # Steps are built when they are run: only the last step of each pipeline carries the views
        # (the views of the seq the models reach; a reader checks the view's version anyway).
        pending: list[tuple[int, Any, StoredEvent, int | None, list[tuple[int, bytes]], KernelState]] = []

        def flush() -> bool:
            steps = [self._step(game, *p, with_views=i == len(pending) - 1) for i, p in enumerate(pending)]
            pending.clear()
            return not steps or self._run(game, steps)

        rs = game.ruleset
        ks = self._kernel_at(game, last)

        def refold(seq: int) -> Any:
            """The state after an undo: the fold of the events not undone, again from a snapshot taken
            before the undone range (DESIGN 5); what is pending is written first."""
            if not flush():
                raise _Gap
            return self._fold_upto(game, seq)[0]

        records = kernel_game.records_of(rs, events)
        try:
            for ev, (r, state, ks) in zip(events, kernel_game.steps(rs, game.setup, records, (last, state), ks,
                                                                   refold=refold)):
                event = r.event
                undone_updates: list[tuple[int, bytes]] = []
                if isinstance(event, Undone):
                    names, bots = words.names_of(rs, state), (ks.header.bots if ks.header is not None else {})
                    for u in self.store.load(gid, after=event.first - 1, upto=min(event.last, ev.seq - 1)):
                        undone_updates.append((u.seq - 1, _enc.encode(views.timeline_entry(
                            u, rs, undone=True, names=names, bots=bots))))
                pending.append((ev.seq, state, ev, prev_turn, undone_updates, ks))
                prev_turn = ev.turn
                if len(pending) >= PIPELINE_BATCH and not flush():
                    return None
        except _Gap:
            return None
        if not flush():
            return None
        final = events[-1].seq
        self._remember(gid, final, state)
        self._remember_kernel(gid, final, ks)
        self._remember_head(gid, final, events[-1].turn)
        st = game_status(rs, state, ks)
        self._sync_lobby(game, final, st.status, st.winner)
        return final

    def _step(self, game: _Game, seq: int, state: Any, ev: StoredEvent | None, prev_turn: int | None,
              undone_updates: Sequence[tuple[int, bytes]], ks: KernelState | None = None, *,
              with_views: bool = True) -> _Step:
        """One APPLY call. ``with_views=False``: the step leaves the views alone (a later step of the
        same pipeline writes them; the views carry their version, which readers check)."""
        if ks is None:
            ks = self._kernel_at(game, seq)
        rs, row = game.ruleset, game.row
        st = game_status(rs, state, ks)
        bodies = ([_enc.encode(views.game_view(row, rs, state, seat, version=seq, kernel=ks)) for seat in game.seats]
                  if with_views else [])
        if ev is not None:
            entry = _enc.encode(views.timeline_entry(ev, rs, undone=False, names=words.names_of(rs, state),
                                                     bots=ks.header.bots if ks.header is not None else {}))
            feed = _enc.encode(ev)
            snap = encode_state(state) if takes_snapshot(seq, ev.turn, prev_turn) else b""
            turn: Any = ev.turn
        else:
            entry = feed = snap = b""
            turn = ""
        meta = ["ruleset", row.ruleset, "scenario", row.scenario, "status", st.status,
                "winner", st.winner or "", "turn", turn]
        args: list[Any] = [seq, entry, feed, self.feed_maxlen, snap, len(meta) // 2, len(undone_updates), *bodies, *meta]
        for idx, js in undone_updates:
            args += [idx, js]
        ttl = self.finished_ttl if st.status == FINISHED and with_views else 0
        args += [ttl, self.feed_ttl, max_snapshots(len(snap)) if snap and self.thin_snapshots else 0,
                 self.timeline_keep]
        k = game.keys
        view_keys = game.view_keys if with_views else []
        return _Step(seq, [k.meta, k.timeline, k.feed, k.snaps, k.snapdata, *view_keys], args, st.status, st.winner)

    def _run(self, game: _Game, steps: Sequence[_Step]) -> bool:
        """Run the steps' scripts in one pipeline; False when one found a gap."""
        pipe = self.redis.pipeline(transaction=False)
        for step in steps:
            _evalsha(pipe, self._apply_sha, step.keys, step.args)
        try:
            results = pipe.execute()
        except NoScriptError:
            # a Redis that restarted (or a cluster master) has no scripts: load them on every master
            # (SCRIPT LOAD goes to all) and run the steps again (APPLY ignores the steps already applied)
            self.load_scripts()
            pipe = self.redis.pipeline(transaction=False)
            for step in steps:
                _evalsha(pipe, self._apply_sha, step.keys, step.args)
            results = pipe.execute()
        ok = True
        self.events_applied += sum(1 for step, (code, _) in zip(steps, results) if code == 1 and step.seq > 0)
        for step, (code, last) in zip(steps, results):
            if code == -1:
                log.warning("game %s: gap before seq %s (models at %s); projecting again", game.row.game_id, step.seq, last)
                ok = False
            elif code == -2:
                log.warning("game %s: damaged models at seq %s; rebuilding the game's models", game.row.game_id, last)
                self._reset(game)
                ok = False
                break
        return ok

    def load_scripts(self) -> None:
        """Load the Lua scripts (on every master of a cluster)."""
        for script in (self._apply, self._nearest, self._lobby_upsert):
            self.redis.script_load(script.script)

    def _reset(self, game: _Game) -> None:
        """Delete one game's models (they are rebuilt from seq 0 by the caller's retry)."""
        k = game.keys
        self.redis.delete(k.meta, k.timeline, k.feed, k.snaps, k.snapdata, *game.view_keys)
        self.forget(game.row.game_id)

    def _sync_lobby(self, game: _Game, version: int, status: str, winner: str | None) -> None:
        call = self._lobby_call(game, version, status, winner)
        if call is not None:
            self._lobby_upsert(keys=call[0], args=call[1])

    def _lobby_call(self, game: _Game, version: int, status: str, winner: str | None) -> tuple[list[Any], list[Any]] | None:
        """(keys, args) of the LOBBY_UPSERT of one game at ``version`` (None: no status yet)."""
        row = game.row
        if not status:
            return None
        # The same body as the log path (projections.views.lobby_entry of the game
        # row), with the status, winner and version of the projected state.
        entry = views.lobby_entry(msgspec.structs.replace(row, status=status, version=version, winner=winner))
        status = entry["status"]  # "read_only" for a game imported without its seed (UMPIRE-READ-ONLY-1)
        others = [k for s in LOBBY_STATUSES if s != status
                  for k in (lobby_status_key(s), lobby_status_ruleset_key(s, row.ruleset))]
        keys = [LOBBY_GAMES, LOBBY_VERSIONS, LOBBY_CREATED, LOBBY_ORDER, lobby_ruleset_key(row.ruleset),
                lobby_status_key(status), lobby_status_ruleset_key(status, row.ruleset), *others]
        return keys, [row.game_id, version, _enc.encode(entry), row.created_at, lobby_member(row.created_at, row.game_id)]

    # -- folding from snapshots ------------------------------------------
    def _nearest_snapshot(self, game: _Game, seq: int) -> tuple[int, int, Any]:
        k = game.keys
        last, snap_seq, data = self._nearest(keys=[k.meta, k.snaps, k.snapdata], args=[seq])
        if snap_seq is None or int(snap_seq) < 0 or not data:
            return int(last), 0, None
        return int(last), int(snap_seq), data

    def _fold_upto(self, game: _Game, seq: int) -> tuple[Any, int, int]:
        """(state right after ``seq``, the seq actually reached, the models' last seq).

        Nearest snapshot at or below ``seq`` plus a fold of the log after it.
        An undo inside that stretch whose range reaches back before the
        snapshot sends the search to a snapshot before the range.
        """
        rs = game.ruleset
        bound = seq
        while True:
            last, snap_seq, data = self._nearest_snapshot(game, bound)
            events = self.store.load(game.row.game_id, after=snap_seq, upto=seq) if seq > snap_seq else []
            pairs = [(e.seq, decode_event(rs, e.payload)) for e in events]
            firsts = [ev.first for _, ev in pairs if isinstance(ev, Undone)]
            if firsts and min(firsts) <= snap_seq:
                bound = min(firsts) - 1
                continue
            base = decode_state(rs, data) if data is not None else None
            reached = events[-1].seq if events else snap_seq
            return fold(rs, game.setup, pairs, state=base), reached, last


__all__ = ["FEED_MAXLEN", "REDIS_ERRORS", "ProjectionError", "ReadModels", "decode_feed_event", "socket_timeout"]
