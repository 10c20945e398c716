"""Rule choices (DESIGN 14): where the original rulebooks can honestly be read two ways, the table decides.

A ruleset declares its choices with ``rule_choices() -> tuple[RuleChoice, ...]`` (optional: without it a
ruleset has none). Each choice has an id that is also a rule id of the ruleset's rules file (the question,
each option with the originals' sentences that support it, the default and its reason), its options and a
default. ``POST /games`` takes ``"choices": {"<id>": "<option>"}``; the choices in force, every one with the
defaults filled in, are written into the game's header and its ``Setup``, from which the ruleset's state
reads them.

A game stored before a choice existed has no entry for it: it folds under the choice's ``recorded``
option, the reading the engine applied before the question was asked (:func:`in_force`).

Pure: no I/O.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from .decider import SetupError
from .messages import Message, msg, text_of


class ChoiceOption(msgspec.Struct, frozen=True, kw_only=True):
    """One reading of a rule choice."""

    id: str
    #: What the engine does under this reading, in a sentence.
    text: str
    #: The reading in a few words, for people ("all dice"); the id when empty.
    words: str = ""
    #: The originals that support this reading, each ``"<file>: «quoted words»"`` (or the rules file's note).
    sources: tuple[str, ...] = ()


class RuleChoice(msgspec.Struct, frozen=True, kw_only=True):
    """A question the originals leave open, with its readings (DESIGN 14)."""

    id: str
    question: str
    options: tuple[ChoiceOption, ...]
    #: The question in a few words, for people ("E-Web re-roll"); the id when empty.
    title: str = ""
    default: str
    #: Why the default is the default (the reading most originals support, or the literal one).
    reason: str
    #: The reading a game stored before this choice existed was decided under (default: ``default``).
    recorded: str | None = None

    def option(self, option_id: str) -> ChoiceOption | None:
        return next((o for o in self.options if o.id == option_id), None)

    def option_ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.options)


def declared(ruleset: Any) -> tuple[RuleChoice, ...]:
    """The rule choices ``ruleset`` declares (none without ``rule_choices()``)."""
    fn = getattr(ruleset, "rule_choices", None)
    return tuple(fn()) if callable(fn) else ()


def resolve(choices: Iterable[RuleChoice], given: Mapping[str, Any] | None, field: str = "choices") -> dict[str, str]:
    """The choices in force for a new game: ``given`` checked, every other choice at its default.

    Raises :class:`SetupError` naming the field (``choices.<id>``) for an unknown id or option."""
    by_id = {c.id: c for c in choices}
    given = dict(given or {})
    for cid, opt in given.items():
        c = by_id.get(cid)
        if c is None:
            raise SetupError(f"{field}.{cid}", msg("unknown rule choice {choice}; this ruleset's choices: {known}",
                                                   choice=repr(cid), known=", ".join(sorted(by_id)) or msg("none")))
        if not isinstance(opt, str) or c.option(opt) is None:
            raise SetupError(f"{field}.{cid}", msg("{option} is not an option of {choice}; options: {options}",
                                                   option=repr(opt), choice=cid, options=", ".join(c.option_ids())))
    return {c.id: given.get(c.id, c.default) for c in by_id.values()}


def in_force(choices: Iterable[RuleChoice], recorded: Mapping[str, str] | None) -> dict[str, str]:
    """The choices a stored game is decided under: what its setup recorded, and for a choice it does not
    mention (a game stored before the choice existed) the choice's ``recorded`` reading."""
    recorded = dict(recorded or {})
    out: dict[str, str] = {}
    for c in choices:
        got = recorded.get(c.id)
        out[c.id] = got if got is not None and c.option(got) is not None else (c.recorded or c.default)
    return out


def option_of(choices: Iterable[RuleChoice], in_force: Mapping[str, str], choice_id: str) -> str:
    """The option of ``choice_id`` in a game whose state holds ``in_force`` (its setup's choices): the recorded
    one, else (a game stored before the choice existed) the choice's ``recorded`` reading, else its default."""
    got = in_force.get(choice_id)
    if got is not None:
        return got
    c = next(c for c in choices if c.id == choice_id)
    return c.recorded or c.default



def phrase_message(choices: Iterable[RuleChoice], choice_id: str, option: str) -> "str | Message":
    """:func:`phrase` as a message: the choice's title and the option's words are the ruleset's own texts
    (parameters of kind ``content``), said in the reader's language; an undeclared id is shown as it is."""
    c = next((c for c in choices if c.id == choice_id), None)
    o = c.option(option) if c is not None else None
    if c is None or o is None:
        return f"{choice_id} {option}"
    return msg("{choice_title}: {choice_words} ({choice} {option})", choice_title=c.title or c.id,
               choice_words=o.words or o.id, choice=choice_id, option=option)


def phrases(choices: Iterable[RuleChoice], in_force: Mapping[str, str]) -> list[str]:
    """Every choice of ``in_force`` in English words (:func:`phrase_message`), in its order: "E-Web re-roll: all
    dice (HOTH-CHOICE-EWEB all)"."""
    declared_ = tuple(choices)
    return [text_of(phrase_message(declared_, k, v)) for k, v in in_force.items()]


def cite(rb: Any, choices: Iterable[RuleChoice], choice_id: str, option: str, text: "str | Message",
         **values: Any) -> Any:
    """Add to the ruling ``rb`` (a :class:`~domain.kernel.rulings.RulingBuilder`) the step saying the decision
    followed the choice, in words with the ids beside them (DESIGN 14):
    "under E-Web re-roll: all dice (HOTH-CHOICE-EWEB all) — ..."; values ``choice`` and ``option``."""
    return rb.add(choice_id, msg("under {choice} — {text}", choice=phrase_message(choices, choice_id, option), text=text),
                  choice=choice_id, option=option, **values)


def describe(choice: RuleChoice) -> dict[str, Any]:
    """A choice as JSON builtins for ``GET /rulesets``."""
    return {
        "id": choice.id,
        "title": choice.title or choice.id,
        "question": choice.question,
        "default": choice.default,
        "reason": choice.reason,
        "options": [{"id": o.id, "words": o.words or o.id, "text": o.text, "sources": list(o.sources)}
                    for o in choice.options],
    }


__all__ = ["ChoiceOption", "RuleChoice", "cite", "declared", "describe", "in_force", "option_of", "phrase_message", "phrases",
           "resolve"]
