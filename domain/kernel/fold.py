"""Folding a stored stream into a state: the one place replay happens."""
from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import msgspec

from .decider import Ruleset, Setup
from .undo import KernelEvent, is_kernel_event, undone_seqs

_decoders: dict[str, msgspec.json.Decoder] = {}
#: msgspec builds (and caches on each Struct class) a type's decoding info the first time a decoder
#: of it is made; two threads doing that at once for the same classes crashed the process (SIGSEGV
#: seen with a bot worker and a request folding the same game at start-up). Build under one lock.
_BUILD = threading.Lock()


def event_decoder(ruleset: Ruleset) -> msgspec.json.Decoder:
    """Decoder for the ruleset's events and the kernel's undo events."""
    dec = _decoders.get(ruleset.id)
    if dec is None:
        with _BUILD:
            dec = _decoders.get(ruleset.id)
            if dec is None:
                dec = msgspec.json.Decoder(ruleset.event_type | KernelEvent)
                _decoders[ruleset.id] = dec
    return dec


def warm(ruleset: Ruleset) -> None:
    """Build the ruleset's event and command decoding info once, before threads use it (the registry
    calls this for every ruleset it discovers)."""
    event_decoder(ruleset)
    with _BUILD:
        msgspec.json.Decoder(ruleset.command_type)


def decode_event(ruleset: Ruleset, payload: bytes | str) -> Any:
    return event_decoder(ruleset).decode(payload)


def fold(ruleset: Ruleset, setup: Setup, events: Iterable[tuple[int, Any]], state: Any = None) -> Any:
    """The state after ``events`` (``(seq, event)`` pairs in seq order).

    Undone seqs are skipped; kernel events change nothing in the game state.
    Start from ``state`` (a snapshot) when given, else from ``initial_state``.
    """
    pairs = list(events)
    skip = undone_seqs(pairs)
    st = ruleset.initial_state(setup) if state is None else state
    for seq, ev in pairs:
        if seq in skip or is_kernel_event(ev):
            continue
        st = ruleset.evolve(st, ev)
    return st
