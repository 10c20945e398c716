"""Replay snapshots (DESIGN section 5): the state after ``seq`` is the nearest
snapshot at or below ``seq`` plus a short fold of the log.

A snapshot is the ruleset state right after a seq, encoded with msgspec
(JSON, so it reads the same through a client with or without
``decode_responses``). One is taken every :data:`SNAPSHOT_EVERY` events and at
every turn boundary (the first event whose stored ``turn`` differs from the
previous event's). They are thinned by cost (:func:`max_snapshots`): a game keeps a bounded number.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import Ruleset

#: PROPOSED: a snapshot every this many events, so ``states/{seq}`` folds at
#: most this many events on top of a snapshot (turn boundaries add more).
SNAPSHOT_EVERY = 50

#: PROPOSED: bytes of snapshots a game keeps at most (beyond :data:`SNAPSHOTS_MIN` of them): when a new
#: snapshot makes more than ``max_snapshots(size)``, every other one is dropped (the newest kept), so the
#: spacing doubles as the game grows and ``states/{seq}`` folds at most about ``2 * events / kept`` events.
SNAPSHOT_BUDGET = 512 * 1024
#: Snapshots a game always may keep, however large its state; and at most.
SNAPSHOTS_MIN, SNAPSHOTS_MAX = 4, 32


def max_snapshots(size: int) -> int:
    """Snapshots kept for a state of ``size`` bytes: the budget's worth, within the bounds."""
    return max(SNAPSHOTS_MIN, min(SNAPSHOTS_MAX, SNAPSHOT_BUDGET // max(size, 1)))


_decoders: dict[str, msgspec.json.Decoder] = {}
_encoder = msgspec.json.Encoder()


def takes_snapshot(seq: int, turn: int, previous_turn: int | None) -> bool:
    """Whether the state after event ``seq`` (stored ``turn``) is snapshotted."""
    if seq <= 0:
        return False
    if seq % SNAPSHOT_EVERY == 0:
        return True
    return previous_turn is not None and turn != previous_turn


def encode_state(state: Any) -> bytes:
    return _encoder.encode(state)


def decode_state(ruleset: Ruleset, data: bytes | str) -> Any:
    dec = _decoders.get(ruleset.id)
    if dec is None:
        dec = msgspec.json.Decoder(ruleset.state_type)
        _decoders[ruleset.id] = dec
    return dec.decode(data.encode() if isinstance(data, str) else data)
