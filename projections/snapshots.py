"""Replay snapshots (DESIGN section 5): the state after ``seq`` is the nearest
snapshot at or below ``seq`` plus a short fold of the log.

A snapshot is the ruleset state right after a seq, encoded with msgspec
(JSON, so it reads the same through a client with or without
``decode_responses``). Which ones are taken and kept is the kernel's one snapshot
policy (:mod:`domain.kernel.snapshots`); this module encodes and decodes them.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import Ruleset

from domain.kernel.snapshots import (  # noqa: F401  (the one policy; still importable from here)
    SNAPSHOT_BUDGET, SNAPSHOT_EVERY, SNAPSHOTS_MAX, SNAPSHOTS_MIN, max_snapshots, takes_snapshot,
)


_decoders: dict[str, msgspec.json.Decoder] = {}
_encoder = msgspec.json.Encoder()


def encode_state(state: Any) -> bytes:
    return _encoder.encode(state)


def decode_state(ruleset: Ruleset, data: bytes | str) -> Any:
    dec = _decoders.get(ruleset.id)
    if dec is None:
        dec = msgspec.json.Decoder(ruleset.state_type)
        _decoders[ruleset.id] = dec
    return dec.decode(data.encode() if isinstance(data, str) else data)
