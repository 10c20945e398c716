"""Rulings (the audit trail) and rule violations (DESIGN section 6).

A ruling lists the rule ids applied, each with a sentence and the numbers
that went into it. A violation names the one rule a refused command breaks,
with a sentence a player understands.
"""
from __future__ import annotations

from typing import Any

import msgspec


class RuleStep(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    rule: str
    text: str
    values: dict[str, Any] = {}


class Ruling(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    summary: str
    steps: tuple[RuleStep, ...] = ()

    def rules(self) -> list[str]:
        return [s.rule for s in self.steps]


class RuleViolation(Exception):
    """A command the rules refuse (REST 422 with ``rule``)."""

    def __init__(self, rule: str, detail: str, **values: Any):
        super().__init__(f"{rule}: {detail}")
        self.rule = rule
        self.detail = detail
        self.values = values


#: The kernel rule (domain/kernel/rules.md) citing whose decision it is.
NOT_YOUR_DECISION_RULE = "UMPIRE-TURN-1"


class NotYourDecision(Exception):
    """The command is well formed but it is another seat's decision (REST 403)."""

    def __init__(self, detail: str, rule: str | None = None):
        super().__init__(detail)
        self.detail = detail
        #: The rule refusing it: the kernel's UMPIRE-TURN-1 unless the ruleset names a finer one.
        self.rule = rule or NOT_YOUR_DECISION_RULE


class RulingBuilder:
    """Collects steps while a decision is made; ``build`` freezes them."""

    def __init__(self) -> None:
        self.steps: list[RuleStep] = []

    def add(self, rule: str, text: str, **values: Any) -> "RulingBuilder":
        self.steps.append(RuleStep(rule=rule, text=text, values=values))
        return self

    def build(self, summary: str) -> Ruling:
        return Ruling(summary=summary, steps=tuple(self.steps))
