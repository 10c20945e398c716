"""The rules reference (DESIGN 8: every rule id is readable).

``GET /rulesets/{ruleset_id}/rules`` lists every rule a game of that ruleset may cite (its own,
then the kernel's ``UMPIRE-*``); ``GET /rulesets/{ruleset_id}/rules/{rule_id}`` returns one. The
texts come from the rulesets' ``rules.md`` (domain/kernel/registry.py ``rules_of``); every ruling
step and refusal links here with ``rule_url``.

Both answer in the reader's language, chosen by the service's one negotiation (service/language.py:
``?lang=``, else ``Accept-Language``, else English), where the ruleset's reference is translated
(``rules.<lang>.md``, docs/rules-languages.md); a rule without a text in that language is answered in
English, marked ``fallback: "en"`` with a note in the language asked for. ``Content-Language`` names the
language(s) of the texts answered.
"""
from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, Router, get
from litestar.params import FromPath, Parameter

from domain.kernel import registry

from ..language import DEFAULT, PSEUDO, SUPPORTED, content_language
from ..problems import Problem
from ..rule_texts import in_language
from ..schemas import RuleText
from ._common import lang_of


def _rules(ruleset_id: str) -> dict[str, Any]:
    rules = registry.rules_of(ruleset_id)
    if rules is None:
        known = ", ".join(r.id for r in registry.all_rulesets())
        raise Problem(404, "not-found", f"no ruleset {ruleset_id!r} (known: {known})", field="ruleset_id")
    return rules


def _answer(content: Any, languages: list[str]) -> Response[Any]:
    spoken = [code for code in (*SUPPORTED, PSEUDO) if code in languages]
    return Response(content, headers=content_language(", ".join(spoken or [DEFAULT])))


LANG = Parameter(description="The language of the texts: `en`, `uk`, `ru`, `cs` or `it` (overrides "
                             "`Accept-Language`; a language umpire does not speak is passed over, as on every "
                             "endpoint). A rule without a text in that language is answered "
                             "in English with `fallback: \"en\"` and a `note`.")


@get("/rulesets/{ruleset_id:str}/rules", sync_to_thread=False,
     summary="The rules reference of a ruleset: every rule id a ruling or refusal may cite, with its text",
     description="The ruleset's own rules in the order of its rulebook, then the referee's own (`UMPIRE-*`: "
                 "undo, repeated commands, read-only games). In the reader's language (`lang`, else "
                 "`Accept-Language`) where the reference is translated, each other rule in English marked "
                 "`fallback`; `Content-Language` lists the languages of the texts.")
def list_rules(request: Request, ruleset_id: FromPath[str],
               lang: Annotated[str | None, LANG] = None) -> Response[list[RuleText]]:
    wanted = lang_of(request)
    bodies = [in_language(ruleset_id, r, wanted) for r in _rules(ruleset_id).values()]
    return _answer(bodies, [b["lang"] for b in bodies])


@get("/rulesets/{ruleset_id:str}/rules/{rule_id:str}", sync_to_thread=False,
     summary="The text of one rule, by the id rulings and refusals cite (their `rule_url`)",
     description="In the reader's language (`lang`, else `Accept-Language`) where the reference has a text for "
                 "it, else in English with `fallback: \"en\"` and a `note`; `Content-Language` says which.")
def one_rule(request: Request, ruleset_id: FromPath[str], rule_id: FromPath[str],
             lang: Annotated[str | None, LANG] = None) -> Response[RuleText]:
    wanted = lang_of(request)
    rules = _rules(ruleset_id)
    rule = rules.get(rule_id)
    if rule is None:
        raise Problem(404, "not-found", f"ruleset {ruleset_id!r} has no rule {rule_id!r}", field="rule_id")
    body = in_language(ruleset_id, rule, wanted)
    return _answer(body, [body["lang"]])


ROUTER = Router(path="/", route_handlers=[list_rules, one_rule], tags=["rules"])
