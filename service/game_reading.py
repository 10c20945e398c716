"""Reading a game (DESIGN sections 5, 8): the row, its seat tokens and seed (looked up once), and the game
folded by the kernel (:mod:`domain.kernel.game`) kept in a small in-process cache keyed by version. A newer
version in the store extends the cached game by folding only the new events (or refolds when one of them is
an ``Undone``), so the cache can never serve a state of another version; ``state_at`` keeps prefix states by
the kernel's one snapshot policy (:mod:`domain.kernel.snapshots`).
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import msgspec

from domain.kernel import (
    FINISHED,
    KernelState,
    Setup,
)
from domain.kernel import fold_kernel
from domain.kernel import game as kernel_game
from domain.kernel import words
from domain.kernel.game import Refold
from domain.kernel.snapshots import SNAPSHOTS_MAX, takes_snapshot, thinned

from .feed_hub import render
from .problems import Problem
from .store import GameRow, StoredEvent, UnknownGame, token_hash
from .game_commands import fold_log
from .game_model import SEAT_RESOLVERS, Current, Folded, _Entry, ruleset_for

_setup_decoder = msgspec.json.Decoder(Setup)


class Reading:
    """:class:`service.game_service.GameService`'s reading part: per-game locks, the folded-game cache, seats."""

    def lock(self, game_id: str) -> asyncio.Lock:
        lk = self._locks.get(game_id)
        if lk is None:
            lk = asyncio.Lock()
            self._locks[game_id] = lk
        return lk

    def _names(self, game_id: str) -> words.Names:
        """The game's printed names by id (DESIGN 12), for its feeds (from the cached fold when there is one)."""
        cur = self.current(game_id)
        return words.names_of(cur.ruleset, cur.state)

    def notify(self, game_id: str, version: int | None = None) -> None:
        """Wake the feeds of ``game_id`` here and on the other processes (call on the event loop right
        after an append; ``version``: the game's version after it)."""
        self.feeds.committed(game_id, version)

    def game(self, game_id: str) -> GameRow:
        try:
            return self.store.require_game(game_id)
        except UnknownGame:
            raise Problem(404, "not-found", f"no game with id {game_id!r}") from None

    @staticmethod
    def require_playable(game: GameRow) -> None:
        """409 for a game that cannot be played on here (imported without its seed: UMPIRE-READ-ONLY-1)."""
        if game.read_only:
            raise Problem(409, "read-only", f"game {game.game_id} was imported without its secret seed, so no "
                          "command can be applied here; it can still be read, replayed and verified",
                          rule="UMPIRE-READ-ONLY-1", ruleset=game.ruleset)

    def _cache_put(self, cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        with self._cache_lock:
            cache[key] = value
            cache.move_to_end(key)
            while len(cache) > self._cache_games * 8:
                cache.popitem(last=False)

    def exists(self, game_id: str) -> None:
        """404 for an unknown game; a game seen once is known without I/O (games are never deleted)."""
        if game_id in self._known_games:
            return
        self.game(game_id)
        self._cache_put(self._known_games, game_id, None)

    def seed(self, game_id: str) -> bytes:
        """The game's secret seed (looked up once)."""
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self.store.seed(game_id)
            self._cache_put(self._seeds, game_id, seed)
        return seed

    def cached_seat(self, game_id: str, token: str | None) -> str | None | bool:
        """The seat of ``token`` in ``game_id`` if it was looked up before; False: not known here."""
        if not token:
            return None
        hit = self._seats.get((game_id, token_hash(token)))
        return False if hit is None else hit[0]

    def seat(self, game_id: str, token: str | None, game: GameRow | None = None) -> str | None:
        """The seat of ``token`` in ``game_id`` (None: not a seat of it). A remembered answer stands while the
        game is at the version it was checked at, or while this process's fold of the game shows no claim or
        rotation of that seat since; else the store is asked again (a token replaced on another node is
        dead here too: the rotation is an event of the log)."""
        if not token:
            return None
        key = (game_id, token_hash(token))
        game = game or self.game(game_id)
        hit = self._seats.get(key)
        if hit is not None and game.campaign_id and game.status == FINISHED:
            # UMPIRE-SEAT-4: a campaign's seat rotated after this battle ended is recorded in a later battle,
            # never in this one's log: what this process remembers here may be a token that no longer acts
            hit = None
        if hit is not None:
            seat, seen = hit
            if seen == game.version:
                return seat
            entry = self._cache.get(game_id)
            folded = entry.folded if entry is not None else None
            if folded is not None and folded.version == game.version and \
                    folded.kernel.seats.changed.get(seat, 0) <= seen:
                self._cache_put(self._seats, key, (seat, game.version))
                return seat
        seat = self._seat(game_id, token)
        if seat is not None:
            self._cache_put(self._seats, key, (seat, game.version))
        else:
            self.forget_token(game_id, token)
        return seat

    def forget_token(self, game_id: str, token: str) -> None:
        """Drop what this process remembers of ``token`` (it was just replaced)."""
        with self._cache_lock:
            self._seats.pop((game_id, token_hash(token)), None)

    def _seat(self, game_id: str, token: str) -> str | None:
        seat = self.store.seat_for_token(game_id, token)
        if seat is None and SEAT_RESOLVERS:
            row = self.store.game(game_id)
            if row is not None:
                for resolve in SEAT_RESOLVERS:
                    seat = resolve(self, row, token)
                    if seat is not None:
                        break
        return seat

    def known_row(self, game_id: str, version: int) -> GameRow | None:
        """The game's row as this process last wrote or read it, if that is at ``version`` and the cached fold
        is too; else None. It may be stale (another process may have appended since): a command decided on it
        is appended only if the store is still at ``version`` (the append's own check)."""
        with self._cache_lock:
            entry = self._cache.get(game_id)
            row = entry.row if entry is not None else None
            if row is None or row.version != version or entry.folded.version != version:
                return None
            return row

    def current(self, game_id: str, game: GameRow | None = None) -> Current:
        """The game folded to the store's current version (from the cache when it can)."""
        game = game or self.game(game_id)
        rs = ruleset_for(game.ruleset)
        setup = _setup_decoder.decode(game.setup)
        with self._cache_lock:
            entry = self._cache.get(game_id)
            if entry is not None:
                self._cache.move_to_end(game_id)
        folded = entry.folded if entry is not None else None
        if folded is not None and folded.version == game.version:
            if entry.row is not game:
                self._remember(game_id, folded, game)
            return Current(game, rs, setup, folded)
        if folded is not None and folded.version < game.version:
            new = kernel_game.records_of(rs, self.store.load(game_id, after=folded.version, upto=game.version))
            try:
                folded = kernel_game.fold(rs, setup, new, snapshot=folded)
            except Refold:
                folded = None
        else:
            folded = None
        if folded is None:
            folded = fold_log(rs, setup, self.store.load(game_id, upto=game.version))
        self._remember(game_id, folded, game)
        return Current(game, rs, setup, folded)

    def without_bots(self, game_id: str) -> bool:
        """True when ``game_id`` is known here (folded in this process) to have no bot seat: its header,
        which never changes, names none (DESIGN 13). False when it has bots or is not known here."""
        entry = self._cache.get(game_id)
        if entry is None:
            return False
        header = entry.folded.kernel.header
        return header is not None and not header.bots

    def _remember(self, game_id: str, folded: Folded, row: GameRow | None = None) -> None:
        """Keep ``folded`` (and ``row``, the game's row at its version) unless a newer fold is kept."""
        row = row if row is not None and row.version == folded.version else None
        with self._cache_lock:
            entry = self._cache.get(game_id)
            if entry is None:
                self._cache[game_id] = _Entry(folded, row=row)
            elif folded.version >= entry.folded.version:
                entry.folded = folded
                entry.row = row
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_games:
                self._cache.popitem(last=False)

    def state_at(self, game_id: str, seq: int, cur: Current | None = None) -> Any:
        """The state right after ``seq`` (``0``: the initial state): the fold of the first ``seq`` events."""
        cur = cur or self.current(game_id)
        if seq < 0 or seq > cur.version:
            raise Problem(404, "not-found", f"seq {seq} is outside 0..{cur.version}", field="seq")
        if seq == cur.version:
            return cur.state
        rs = cur.ruleset
        with self._cache_lock:
            entry = self._cache.get(game_id)
            cps = dict(entry.checkpoints) if entry is not None else {}
        base = max((c for c in cps if c <= seq), default=0)
        records = kernel_game.records_of(rs, self.store.load(game_id, after=base, upto=seq))
        if base and kernel_game.undoes_before(records, base):  # an undo reaching behind the checkpoint
            base, records = 0, kernel_game.records_of(rs, self.store.load(game_id, upto=seq))
        state = cps[base] if base else rs.initial_state(cur.setup)
        new_cps: dict[int, Any] = {}
        prev_turn: int | None = None
        for r, after in kernel_game.states(rs, cur.setup, records, (base, state) if base else None):
            if takes_snapshot(r.seq, r.turn, prev_turn):  # the kernel's one snapshot policy
                new_cps[r.seq] = after
            prev_turn, state = r.turn, after
        if new_cps:
            with self._cache_lock:
                entry = self._cache.get(game_id)
                if entry is not None:
                    entry.checkpoints.update(new_cps)
                    for old in set(entry.checkpoints) - set(thinned(list(entry.checkpoints), SNAPSHOTS_MAX)):
                        del entry.checkpoints[old]
        return state

    def undone_seqs(self, cur: Current) -> frozenset[int]:
        return cur.folded.undone

    def render_events(self, cur: Current, records: list[StoredEvent], seat: str | None,
                      *, finished: bool | None = None, undone: frozenset[int] | None = None) -> list[dict[str, Any]]:
        fin = cur.finished if finished is None else finished
        und = cur.folded.undone if undone is None else undone
        header = cur.folded.kernel.header
        return render(records, cur.ruleset, seat, finished=fin, undone=und, bots=header.bots if header else {},
                      names=words.names_of(cur.ruleset, cur.state))

    def kernel_at(self, game_id: str, seq: int, cur: Current | None = None) -> KernelState:
        """The kernel's state right after ``seq`` (from the kernel events alone)."""
        cur = cur or self.current(game_id)
        if seq >= cur.version:
            return cur.folded.kernel
        pairs = [(s, e) for s, e in cur.folded.kernel_log if s <= seq]
        kernel_seqs = {s for s, _ in pairs}
        last_game = seq
        while last_game > 0 and last_game in kernel_seqs:
            last_game -= 1
        return fold_kernel(pairs, last_game)



__all__ = ["Reading"]
