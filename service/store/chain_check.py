"""Chain verification of a game's stored events (DESIGN 2): the hash chain (versions 1 and 2) and, with
the seed, every commitment of chain version 2."""
from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.kernel import chain
from domain.kernel.chain import CHAIN_V1, CHAIN_V2, GENESIS
from domain.kernel.log import StoredEvent


class ChainReport(msgspec.Struct, frozen=True, kw_only=True):
    ok: bool
    events: int
    first_broken_seq: int | None = None
    problem: str | None = None


def verify_chain(events: Sequence[StoredEvent], chain_version: int | None = None) -> ChainReport:
    """Recompute the chain; report the first seq whose hash, link or order is wrong.

    ``chain_version``: the game's (None: from the events -- version 2 when they carry commitments)."""
    if chain_version is None:
        chain_version = CHAIN_V2 if events and events[0].commitment is not None else CHAIN_V1
    prev = GENESIS
    for expected_seq, ev in enumerate(events, start=1):
        d = msgspec.structs.asdict(ev)
        if ev.seq != expected_seq:
            return ChainReport(ok=False, events=len(events), first_broken_seq=expected_seq,
                               problem=f"seq {expected_seq} missing or out of order (found {ev.seq})")
        if ev.prev_hash != prev:
            return ChainReport(ok=False, events=len(events), first_broken_seq=ev.seq,
                               problem="prev_hash does not match the previous event's hash")
        if chain_version == CHAIN_V2:
            if not ev.commitment or (ev.public_payload is None) != (ev.visibility == chain.PUBLIC):
                return ChainReport(ok=False, events=len(events), first_broken_seq=ev.seq,
                                   problem="a chain-version-2 event without its commitment or spectator payload")
            try:
                ok = chain.row_hash(prev, d, CHAIN_V2) == ev.hash
            except (msgspec.DecodeError, TypeError):
                ok = False
        else:
            ok = chain.v1_hash(prev, d) == ev.hash
        if not ok:
            return ChainReport(ok=False, events=len(events), first_broken_seq=ev.seq,
                               problem="hash does not match the event's content")
        prev = ev.hash
    return ChainReport(ok=True, events=len(events))


def verify_commitments(events: Sequence[StoredEvent], seed: bytes) -> ChainReport:
    """Chain version 2, with the seed: every commitment against the event's stored private part, and
    every spectator payload against its payload (the first seq that does not fit is reported)."""
    key = chain.commit_key(seed)
    for ev in events:
        problem = chain.private_problem(key, msgspec.structs.asdict(ev))
        if problem is not None:
            return ChainReport(ok=False, events=len(events), first_broken_seq=ev.seq, problem=problem)
    return ChainReport(ok=True, events=len(events))
