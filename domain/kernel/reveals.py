"""What a reveal is (DESIGN 5, UMPIRE-REVEAL-1): the kernel's business, derived from the events.

An event is a **reveal** when it carries draws (dice, a shuffle, a card off a shuffled deck, an
automaton's choice on its stream), when its content is hidden from some seat (its visibility is not
public: a card drawn into a hand, a secret numbering), or when its type makes hidden content public
(``Event.reveals_hidden`` on the event class: a secret column numbering shown, an order card turned).
The predicate is :func:`domain.kernel.envelope.is_reveal`; this module applies it to stored events,
which name their type by its tag. The stored ``reveals`` column (the verdict when the event was
written, the ruleset's flag included) is still honoured, so old logs never become *less* guarded.
"""
from __future__ import annotations

import typing
from typing import Any

from .envelope import is_reveal

_TYPES: dict[str, dict[str, type]] = {}


def event_classes(ruleset: Any) -> dict[str, type]:
    """The ruleset's event classes by tag (from its ``event_type`` union)."""
    got = _TYPES.get(ruleset.id)
    if got is None:
        args = typing.get_args(ruleset.event_type) or (ruleset.event_type,)
        got = _TYPES[ruleset.id] = {c.__struct_config__.tag: c for c in args}
    return got


def stored_reveal(ruleset: Any, type_name: str, visibility: str, drew: bool, flag: bool = False) -> bool:
    """UMPIRE-REVEAL-1 for a stored event (``flag``: its stored ``reveals`` column)."""
    cls = event_classes(ruleset).get(type_name)
    return flag or is_reveal(cls if cls is not None else object, visibility, drew)


__all__ = ["event_classes", "stored_reveal"]
