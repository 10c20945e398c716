"""A battle's secret setup, handed in by its campaign (UMPIRE-SEAL-1..3).

Some of what a game starts with is a secret of one side that outlives the game: the support cards a
Battle of Hoth campaign side keeps from battle to battle (content 3.1). It cannot be an option of the
public ``game_created`` header, and the game's end, which makes every hidden part of a game public
(DESIGN 4), must not show it either: the other side would read the hand the winner keeps into the next
battle.

- The campaign hands the secret to the game's creation apart from its options (``sealed`` options,
  never written into the header or the games row); the ruleset's opening deals it in **sealed events**:
  an event type that declares ``sealed_part = True`` and has a private ``salt`` field, seen by its own side
  only (its visibility), like a hand.
- The service gives every sealed event a random salt and writes into the header, for each one, the
  commitment ``sha256(canonical private part)`` under the key ``"<event type>.<value of its
  sealed_key field>"`` (:func:`sealed_parts`): the holder checks its own, the verifier checks them all
  (:func:`seal_problems`), nobody can brute-force a small hand out of them (the salt is 128 random bits).
- A sealed event's private part stays hidden after the game ends (:func:`stays_hidden`): the game's
  end reveals the draws of the battle, not the campaign's secret.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from .chain import canonical
from .reveals import event_classes

#: The field of a sealed event that holds its salt (private, 32 hex digits).
SALT = "salt"


def is_sealed_type(cls: Any) -> bool:
    """UMPIRE-SEAL-3: the event type is declared sealed (its private part outlives the game's end)."""
    return getattr(cls, "sealed_part", False) is True


def stays_hidden(ruleset: Any, type_name: str) -> bool:
    """UMPIRE-SEAL-3 for a stored event: its private part is not made public when the game ends."""
    if ruleset is None:
        return False
    return is_sealed_type(event_classes(ruleset).get(type_name))


def part_key(event: Any) -> str:
    """The header's key of a sealed event's part: ``"<type>.<sealed_key field value>"``."""
    tag = type(event).__struct_config__.tag
    return f"{tag}.{getattr(event, getattr(type(event), 'sealed_key', 'seat'))}"


def part_content(event: Any) -> dict[str, Any]:
    """The committed content: the event's private fields (its salt among them)."""
    return {k: _builtin(getattr(event, k)) for k in sorted(type(event).private)}


def part_commitment(content: Mapping[str, Any]) -> str:
    return hashlib.sha256(b"umpire-sealed-v1|" + canonical(content)).hexdigest()


def sealed_parts(events: Iterable[Any]) -> dict[str, str]:
    """``{key: commitment}`` of the salted sealed events among ``events`` (unsalted ones seal nothing:
    their content was public, as in a game whose creator gave it as an option)."""
    out: dict[str, str] = {}
    for ev in events:
        if is_sealed_type(type(ev)) and getattr(ev, SALT, ""):
            out[part_key(ev)] = part_commitment(part_content(ev))
    return out


def seal_problems(declared: Mapping[str, str] | None, events: Iterable[Any]) -> list[str]:
    """UMPIRE-SEAL-2: every part the header commits to is dealt exactly as committed, and nothing
    sealed is dealt that the header does not commit to."""
    declared = dict(declared or {})
    dealt = sealed_parts(events)
    problems = []
    for key in sorted(set(declared) | set(dealt)):
        if key not in dealt:
            problems.append(f"sealed part {key} is committed in the header but never dealt")
        elif key not in declared:
            problems.append(f"sealed part {key} is dealt but not committed in the header")
        elif declared[key] != dealt[key]:
            problems.append(f"sealed part {key} does not match its commitment in the header")
    return problems


def _builtin(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


__all__ = ["SALT", "is_sealed_type", "part_commitment", "part_content", "part_key", "seal_problems",
           "sealed_parts", "stays_hidden"]
