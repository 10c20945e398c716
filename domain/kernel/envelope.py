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
    #: UMPIRE-REVEAL-1, decided per event TYPE (a ruleset cannot forget it per emission): True for a
    #: public event that makes content public that was hidden from some seat (a secret numbering shown,
    #: a card turned from a hidden deck). False: declared not to (it shows only what was public, or the
    #: acting seat's own hidden content by its own choice). None: not declared; the kernel treats it as
    #: False and ``tests/kernel/test_reveals.py`` fails for a type whose payload carries hidden values.
    reveals_hidden: ClassVar[bool | None] = None


class Emitted(msgspec.Struct, frozen=True, kw_only=True):
    event: Event
    ruling: Ruling | None = None
    #: "public" or the one seat that may see the private fields.
    visibility: str = PUBLIC
    rolls: tuple[Roll, ...] = ()
    #: The ruleset's own flag (stored in the log's ``reveals`` column with the derived verdict); the
    #: kernel does not rely on it: :attr:`revealing` derives the verdict from the event itself.
    reveals: bool = False

    @property
    def revealing(self) -> bool:
        """UMPIRE-REVEAL-1: the event is a reveal (free undo cannot cross it, a dry run stops before it)."""
        return is_reveal(type(self.event), self.visibility, bool(self.rolls)) or self.reveals


def is_reveal(event_type: type, visibility: str, drew: bool) -> bool:
    """UMPIRE-REVEAL-1, derived from what an event is: it carries draws, or its content is hidden from
    some seat (visibility not public), or its type makes hidden content public (``reveals_hidden``)."""
    return drew or visibility != PUBLIC or bool(getattr(event_type, "reveals_hidden", False))


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
