"""Base types of commands and events, and the envelope a decision emits.

Rulesets subclass :class:`Command` and :class:`Event` (frozen msgspec structs
tagged on the ``type`` field) and expose the unions of their subclasses.
``Emitted`` is what ``decide`` returns for each event: the event, who may see
its private fields, the ruling behind it, the draws it consumed, and whether
it revealed anything (which ends free undo).
"""
from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from .dice import Roll
from .rulings import Ruling

PUBLIC = "public"


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """A player's command. Subclasses set ``tag=...``: the JSON ``type``.

    Unknown fields are refused (DESIGN 8, strict input): every ruleset's commands inherit
    ``forbid_unknown_fields``, so a misspelt field is a 400 naming it, never silently ignored."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A fact that happened. Subclasses set ``tag=...``.

    ``private`` names the payload fields only the event's visibility seat may
    see; everybody else receives the payload without them and
    ``"redacted": true`` (DESIGN section 8).
    """

    private: ClassVar[frozenset[str]] = frozenset()


class Emitted(msgspec.Struct, frozen=True, kw_only=True):
    event: Event
    ruling: Ruling | None = None
    #: "public" or the one seat that may see the private fields.
    visibility: str = PUBLIC
    rolls: tuple[Roll, ...] = ()
    #: True when the event reveals hidden information or chance (card drawn,
    #: automated choice). Events with rolls always count as revealing.
    reveals: bool = False

    @property
    def revealing(self) -> bool:
        return self.reveals or bool(self.rolls)


def event_type_name(event: Event) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]


def to_payload(event: Event) -> dict[str, Any]:
    """The event as JSON builtins (with its ``type`` tag)."""
    return msgspec.to_builtins(event)


def redact(event: Event, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as a seat that may not see ``event.private`` gets it."""
    out = {k: v for k, v in payload.items() if k not in event.private}
    out["redacted"] = True
    return out
