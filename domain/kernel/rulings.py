"""Rulings (the audit trail) and rule violations (DESIGN section 6).

A ruling lists the rule ids applied, each with a sentence and the numbers
that went into it. A violation names the one rule a refused command breaks,
with a sentence a player understands.
"""
from __future__ import annotations

from typing import Any

import msgspec

from .messages import Message, message_of, text_of


class RuleStep(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    rule: str
    text: str
    values: dict[str, Any] = {}
    #: the step's words as a message (issue 28); ``text`` is its English; a step stored before has none
    message: Message | None = None


class Ruling(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    summary: str
    steps: tuple[RuleStep, ...] = ()
    summary_message: Message | None = None

    def rules(self) -> list[str]:
        return [s.rule for s in self.steps]


class RuleViolation(Exception):
    """A command the rules refuse (REST 422 with ``rule``)."""

    def __init__(self, rule: str, detail: str | Message, **values: Any):
        """``detail``: a message (issue 28), or an English sentence of a ruleset not yet converted. Its English
        is written when first read (``detail``, ``str``): a search that tries and refuses many commands (a
        ruleset's legal commands) never reads most of them."""
        super().__init__(rule, detail)
        self.rule = rule
        self.message = message_of(detail)
        self.values = values
        self._detail = detail

    @property
    def detail(self) -> str:
        d = self._detail
        if not isinstance(d, str):
            d = self._detail = text_of(d)
        return d

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}"


#: The kernel rule (domain/kernel/rules.md) citing whose decision it is.
NOT_YOUR_DECISION_RULE = "UMPIRE-TURN-1"


class NotYourDecision(Exception):
    """The command is well formed but it is another seat's decision (REST 403)."""

    def __init__(self, detail: str | Message, rule: str | None = None):
        super().__init__(text_of(detail))
        self.detail = text_of(detail)
        self.message = message_of(detail)
        #: The rule refusing it: the kernel's UMPIRE-TURN-1 unless the ruleset names a finer one.
        self.rule = rule or NOT_YOUR_DECISION_RULE


class RulingBuilder:
    """Collects steps while a decision is made; ``build`` freezes them."""

    def __init__(self) -> None:
        self.steps: list[RuleStep] = []

    def add(self, rule: str, text: str | Message, **values: Any) -> "RulingBuilder":
        """A step citing ``rule``; ``text``: a message (issue 28) or an English sentence."""
        self.steps.append(RuleStep(rule=rule, text=text_of(text), values=values, message=message_of(text)))
        return self

    def build(self, summary: str | Message) -> Ruling:
        return Ruling(summary=text_of(summary), steps=tuple(self.steps), summary_message=message_of(summary))
