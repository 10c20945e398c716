"""Words a person reads about commands and steps (DESIGN 12): labels and warnings of legal commands,
who did a step, and printed names beside ids.

A ruleset may offer (kernel protocol, optional):

* ``describe(state, seat, command) -> {"label": str, "warning": str | None}``: the words of one legal
  command, from the rules (its label names units and cards by their printed names; its warning says
  what a choice costs before it is made);
* ``describe_template(state, seat, template) -> {"label": str, "warning": str | None}``: the same for
  a command template (continuous commands);
* ``names(state) -> dict[str, str | Message]``: the printed name of every id a summary or ruling may
  cite (units, cards, warriors, battles); stable over a game, so a step reads the same at any version. A
  name is a printed name (a string the catalogs hold in their ``name`` context) or, when it is composed
  of words (Clouds of Smoke's ``the general of Player 1``), a message; either is said in the reader's
  language at the edge (service/i18n.py ``translated_names``), in English by :func:`with_names`;
* ``acted_by(event) -> str | None``: ``"automaton"`` for a step an automated opponent inside the
  engine decided (the Emperor), ``"referee"`` for one the rules did by themselves, None: the seat
  whose command caused it;
* ``automaton_title`` (a message: ``the Emperor (automaton)``) and ``automaton_side`` (the side it plays, a key of
  ``seat_names``): who an automaton's step is by, and the side whose name in a summary says so already;
* ``seat_names() -> dict[str, str | Message]``: every seat (and side) its games may have, named as its
  rulebook prints the side (Battle of Hoth's ``rebel``: ``the Rebels``; Clouds of Smoke's ``player-2``:
  ``Player 2``), a message said in the reader's language at the edge (docs/seat-names.md). Public: a seat's
  name follows from its id alone.

Without them the words are built here from the command's fields, humanely (no brackets, no
snake_case), so a future ruleset is readable from its first day.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec

from .envelope import event_type_name
from .messages import Message, msg, text_of
from .undo import KERNEL_COMMAND_TYPES

#: A game's names by id (``names_of``): a printed name, or a message for a name composed of words.
Names = Mapping[str, "str | Message"]

#: The kinds of actor a step names (``by.kind``).
SEAT, BOT, AUTOMATON, REFEREE = "seat", "bot", "automaton", "referee"

_KERNEL_LABELS = {
    "ready": msg("I am ready: start the game when every seat is"),
    "undo_accept": msg("Accept the undo the other side asks for"),
    "undo_decline": msg("Decline the undo the other side asks for"),
}


def words(value: Any) -> str:
    """A value as words: ``snake_case`` -> ``snake case``, lists joined with commas, nothing empty shown
    as brackets (an empty list reads ``none``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "none"
        if len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return f"({words(value[0])}, {words(value[1])})"
        return ", ".join(words(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{words(k)} {words(v)}" for k, v in value.items()) or "none"
    text = str(value)
    return text.replace("_", " ") if re.fullmatch(r"[a-z0-9_]+", text) else text


def generic_label(command: Mapping[str, Any]) -> str:
    """The label of a command a ruleset does not describe: its type as words, then each field."""
    kind = str(command.get("type", "command"))
    if kind in _KERNEL_LABELS:
        return _KERNEL_LABELS[kind].english()
    head = kind.replace("_", " ")
    head = head[:1].upper() + head[1:]
    parts = [f"{words(k)} {words(v)}" for k, v in command.items() if k != "type" and v not in (None, [], ())]
    return head + (": " + ", ".join(parts) if parts else "")


def described(ruleset: Any, state: Any, seat: str, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``[{"command", "label", "warning"}]`` for ``commands`` (JSON builtins, as listed)."""
    describe = getattr(ruleset, "describe", None)
    out = []
    for c in commands:
        got = None
        if describe is not None and c.get("type") not in KERNEL_COMMAND_TYPES:
            got = describe(state, seat, msgspec.convert(c, ruleset.command_type))
        if not got:
            kernel = _KERNEL_LABELS.get(str(c.get("type")))
            got = {"label": kernel if kernel is not None else generic_label(c), "warning": None}
        out.append(_words({"command": c}, got))
    return out


def _words(out: dict[str, Any], got: Mapping[str, Any]) -> dict[str, Any]:
    """``label`` and ``warning`` as English text, and beside each its message (issue 28) when it is one."""
    label, warning = got["label"], got.get("warning")
    out["label"] = text_of(label)
    out["warning"] = None if warning is None else text_of(warning)
    if isinstance(label, Message):
        out["label_message"] = msgspec.to_builtins(label)
    if isinstance(warning, Message):
        out["warning_message"] = msgspec.to_builtins(warning)
    return out


def described_template(ruleset: Any, state: Any, seat: str, template: dict[str, Any]) -> dict[str, Any]:
    """A template with its ``label`` and ``warning`` added."""
    fn = getattr(ruleset, "describe_template", None)
    got = fn(state, seat, template) if fn is not None else None
    if not got:
        got = {"label": generic_label(template.get("command", {})), "warning": None}
    return _words({**template}, got)


def names_of(ruleset: Any, state: Any) -> "dict[str, str | Message]":
    fn = getattr(ruleset, "names", None)
    if fn is None or state is None:
        return {}
    try:
        return fn(state)
    except (AttributeError, KeyError, TypeError):  # a state before the opening has no names yet
        return {}


class SaidNames(dict):  # type: ignore[type-arg]
    """Printed names by id said in a reader's language (service/i18n.py ``translated_names``), knowing which ids are
    their English name itself (the Emperor's ``rebel``: Rebel): such an id is written as its name alone in every
    language, as in English, never ``Бунтар (rebel)``."""

    def __init__(self, names: Mapping[str, str], alone: "frozenset[str] | set[str]" = frozenset()):
        super().__init__(names)
        self.alone = frozenset(alone)


_ID = re.compile(r"(?<![\w-])([A-Za-z][\w-]*\w)(?![\w-])")


def with_names(text: str, names: Names) -> str:
    """``text`` with each id of ``names`` written as ``Printed name (id)``; an id already beside its name
    (``Name (id)``) is left as it is, and an id that is its name (ignoring case; :class:`SaidNames` ``alone`` in
    another language) is written as the name alone. A name that is a message is
    written in English (another language: service/i18n.py ``translated_names`` gives its names as text)."""
    if not names or not text:
        return text

    def sub(m: re.Match[str]) -> str:
        tok = m.group(1)
        said = names.get(tok)
        name = None if said is None else text_of(said)
        if name is None or name.lower() == tok.lower() or tok in getattr(names, "alone", ()):
            return name if name is not None else tok
        before = text[max(0, m.start() - len(name) - 2):m.start()]
        if before.endswith((name + " ", name + " (")) or text.startswith(" " + name, m.end()):
            return tok
        return f"{name} ({tok})"

    return _ID.sub(sub, text)


def named_values(values: Mapping[str, Any], names: Names) -> dict[str, str]:
    """The values of a ruling step (data: ids, numbers) that are ids of ``names``, or lists of them, as a person reads
    them: each id by its printed name alone (the step's text beside them names a unit with its board code when two
    units share a name: ``Snowtroopers (E1)``). A value that names nothing is not listed (it is shown as it is)."""
    if not names or not isinstance(values, Mapping):
        return {}
    out = {}
    for k, v in values.items():
        if isinstance(v, str) and v in names:
            out[k] = text_of(names[v])
        elif isinstance(v, (list, tuple)) and v and all(isinstance(x, str) and x in names for x in v):
            out[k] = ", ".join(text_of(names[x]) for x in v)
    return out


def seat_names(ruleset: Any) -> "dict[str, str | Message]":
    """Every seat (and side) of ``ruleset`` in words (its ``seat_names`` hook; none: no names)."""
    fn = getattr(ruleset, "seat_names", None)
    return dict(fn()) if fn is not None else {}


def seat_name(ruleset: Any, seat: str) -> "str | Message":
    """A seat in words: the name its ruleset gives it, else the id as words (a ruleset without names)."""
    fn = getattr(ruleset, "seat_names", None)
    said = fn().get(seat) if fn is not None else None
    return said if said is not None else words(seat)


def acted_by(ruleset: Any, event: Any, actor: str | None, bots: Mapping[str, str],
             said: "str | Message | None" = None) -> dict[str, Any]:
    """Who did the step: ``{"kind": seat|bot|automaton|referee, "seat", "bot", "text"}``, and ``"in_summary": true``
    when the step's summary ``said`` names that seat (or the automaton, or its side) already (:func:`names_actor`): a page then
    shows the summary alone, not ``who: summary``, so the side is said once (docs/seat-names.md)."""
    fn = getattr(ruleset, "acted_by", None)
    own = fn(event) if fn is not None and event is not None and event_type_name(event) not in _KERNEL_EVENTS else None
    if own == AUTOMATON:
        title = getattr(ruleset, "automaton_title", "the automated opponent")
        side = getattr(ruleset, "automaton_side", None)  # the automaton's side, as its sentences name it
        named = {"in_summary": True} if names_actor(said, title) or (
            side is not None and names_actor(said, seat_name(ruleset, side))) else {}
        return {"kind": AUTOMATON, "seat": None, "bot": None, "text": text_of(title), **_said(title), **named}
    if own == REFEREE or actor is None:
        said = msg("the referee")
        return {"kind": REFEREE, "seat": None, "bot": None, "text": said.english(), **_said(said)}
    spec = bots.get(actor)
    seat = seat_name(ruleset, actor)  # the seat in words; ``seat`` below stays its id (data)
    named = {"in_summary": True} if names_actor(said, seat) else {}
    if spec is not None:  # a bot's summary that names its seat reads alone too (the bot is named on its other lines)
        who = msg("{seat} (bot {bot})", seat=seat, bot=spec.split(":")[0])
        return {"kind": BOT, "seat": actor, "bot": spec, "text": who.english(), **_said(who), **named}
    return {"kind": SEAT, "seat": actor, "bot": None, "text": text_of(seat), **_said(seat), **named}


def names_actor(said: "str | Message | None", name: "str | Message") -> bool:
    """Whether a summary names who acted: one of its message's own parameters is the seat's name (the ruleset
    passes ``seat_name``, or the same message, as its ``{seat}``). A rule in the data, in every language alike: no
    sentence is searched for words."""
    return isinstance(said, Message) and any(v == name for v in said.params.values())


def _said(said: "str | Message") -> dict[str, Any]:
    return {"message": msgspec.to_builtins(said)} if isinstance(said, Message) else {}


_KERNEL_EVENTS = frozenset({"game_created", "seat_ready", "undo_requested", "undo_declined", "undo_lapsed", "undone"})


__all__ = ["AUTOMATON", "BOT", "REFEREE", "SEAT", "Names", "SaidNames", "acted_by", "described", "described_template", "generic_label",
           "named_values", "names_actor", "names_of", "seat_name", "seat_names", "with_names", "words"]
