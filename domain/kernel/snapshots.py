"""The one snapshot policy of replay (DESIGN section 5): which states after a seq are kept, so that the state
after any seq is the nearest kept state at or below it plus a short fold (:func:`domain.kernel.game.states`).

A state is kept every :data:`SNAPSHOT_EVERY` events and at every turn boundary (the first event whose turn
differs from the previous event's), and a game keeps a bounded number of them (:func:`max_snapshots`: when a
new one makes more, every other one is dropped, the newest kept, so the spacing doubles as the game grows).
The read models keep them in Redis (:mod:`projections.snapshots`), the service's fold cache in memory.
"""
from __future__ import annotations

#: PROPOSED: a snapshot every this many events, so ``states/{seq}`` folds at most this many events on top
#: of a snapshot (turn boundaries add more).
SNAPSHOT_EVERY = 50
#: PROPOSED: bytes of snapshots a game keeps at most (beyond :data:`SNAPSHOTS_MIN` of them).
SNAPSHOT_BUDGET = 512 * 1024
#: Snapshots a game always may keep, however large its state; and at most.
SNAPSHOTS_MIN, SNAPSHOTS_MAX = 4, 32


def takes_snapshot(seq: int, turn: int, previous_turn: int | None) -> bool:
    """Whether the state after event ``seq`` (``turn``: its turn) is kept."""
    if seq <= 0:
        return False
    if seq % SNAPSHOT_EVERY == 0:
        return True
    return previous_turn is not None and turn != previous_turn


def max_snapshots(size: int) -> int:
    """Snapshots kept for a state of ``size`` bytes: the budget's worth, within the bounds."""
    return max(SNAPSHOTS_MIN, min(SNAPSHOTS_MAX, SNAPSHOT_BUDGET // max(size, 1)))


def thinned(seqs: list[int], limit: int) -> list[int]:
    """The seqs kept of ``seqs`` (ascending) when a game may keep ``limit``: every other one dropped, the
    newest kept, until they fit."""
    kept = sorted(seqs)
    while len(kept) > max(limit, 1):
        kept = kept[::-1][::2][::-1]
    return kept


__all__ = ["SNAPSHOTS_MAX", "SNAPSHOTS_MIN", "SNAPSHOT_BUDGET", "SNAPSHOT_EVERY", "max_snapshots", "takes_snapshot",
           "thinned"]
