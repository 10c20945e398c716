"""The rules reference (DESIGN 8: every rule id is readable).

``GET /rulesets/{ruleset_id}/rules`` lists every rule a game of that ruleset may cite (its own,
then the kernel's ``UMPIRE-*``); ``GET /rulesets/{ruleset_id}/rules/{rule_id}`` returns one. The
texts come from the rulesets' ``rules.md`` (domain/kernel/registry.py ``rules_of``); every ruling
step and refusal links here with ``rule_url``.
"""
from __future__ import annotations

from typing import Any

from litestar import Router, get
from litestar.params import FromPath

from domain.kernel import registry

from ..schemas import RuleText
from ..problems import Problem, rule_url


def _rules(ruleset_id: str) -> dict[str, Any]:
    rules = registry.rules_of(ruleset_id)
    if rules is None:
        known = ", ".join(r.id for r in registry.all_rulesets())
        raise Problem(404, "not-found", f"no ruleset {ruleset_id!r} (known: {known})", field="ruleset_id")
    return rules


def rule_body(ruleset_id: str, rule: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"id": rule.id}
    if rule.title:
        body["title"] = rule.title
    body["text"] = rule.text
    if rule.section:
        body["section"] = rule.section
    body["url"] = rule_url(ruleset_id, rule.id)
    return body


@get("/rulesets/{ruleset_id:str}/rules", sync_to_thread=False,
     summary="The rules reference of a ruleset: every rule id a ruling or refusal may cite, with its text",
     description="The ruleset's own rules in the order of its rulebook, then the referee's own (`UMPIRE-*`: "
                 "undo, repeated commands, read-only games).")
def list_rules(ruleset_id: FromPath[str]) -> list[RuleText]:
    return [rule_body(ruleset_id, r) for r in _rules(ruleset_id).values()]  # type: ignore[misc]


@get("/rulesets/{ruleset_id:str}/rules/{rule_id:str}", sync_to_thread=False,
     summary="The text of one rule, by the id rulings and refusals cite (their `rule_url`)")
def one_rule(ruleset_id: FromPath[str], rule_id: FromPath[str]) -> RuleText:
    rules = _rules(ruleset_id)
    rule = rules.get(rule_id)
    if rule is None:
        raise Problem(404, "not-found", f"ruleset {ruleset_id!r} has no rule {rule_id!r}", field="rule_id")
    return rule_body(ruleset_id, rule)  # type: ignore[return-value]


ROUTER = Router(path="/", route_handlers=[list_rules, one_rule], tags=["rules"])
