"""The rules reference (DESIGN 8: every rule id is readable).

``GET /rulesets/{ruleset_id}/rules`` lists every rule a game of that ruleset may cite (its own,
then the kernel's ``UMPIRE-*``); ``GET /rulesets/{ruleset_id}/rules/{rule_id}`` returns one. The
texts come from the rulesets' ``rules.md`` (domain/kernel/registry.py ``rules_of``); every ruling
step and refusal links here with ``rule_url``.

Both answer in the reader's language (``?lang=``, else ``Accept-Language``) where the ruleset's
reference is translated (``rules.<lang>.md``, docs/rules-languages.md); a rule without a text in that
language is answered in English, marked ``fallback: "en"`` with a note. ``Content-Language`` names the
language(s) of the texts answered.
"""
from __future__ import annotations

import re
from typing import Annotated, Any

from litestar import Request, Response, Router, get
from litestar.params import FromPath, Parameter

from domain.kernel import registry

from ..i18n import pseudo
from ..language import PSEUDO, pseudo_allowed
from ..problems import Problem, rule_url
from ..schemas import RuleText


def _rules(ruleset_id: str) -> dict[str, Any]:
    rules = registry.rules_of(ruleset_id)
    if rules is None:
        known = ", ".join(r.id for r in registry.all_rulesets())
        raise Problem(404, "not-found", f"no ruleset {ruleset_id!r} (known: {known})", field="ruleset_id")
    return rules


# -- the reader's language ----------------------------------------------------------------------------
#: The languages umpire speaks (issue 28): English and the languages of the rulebooks its players hold.
SPOKEN = ("en", "uk", "ru", "cs", "it")
ENGLISH = "en"
_TAG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")
_QUALITY = re.compile(r"q=([01](?:\.[0-9]{0,3})?)")

#: The note on a rule answered in English because the requested language has no text for it, in that language.
FALLBACK_NOTE = {
    "uk": "Цього правила ще немає українською; показано англійський текст.",
    "ru": "Этого правила ещё нет на русском; показан английский текст.",
    "cs": "Toto pravidlo zatím není v češtině; zobrazen je anglický text.",
    "it": "Questa regola non è ancora disponibile in italiano; è mostrato il testo inglese.",
}


def reader_language(lang: str | None, accept_language: str | None) -> str:
    """The language to answer in: ``?lang=`` when given (a language umpire does not speak, or a malformed
    tag: problem details naming the field ``lang``), else the first language of ``Accept-Language`` by
    quality that umpire speaks (RFC 9110; ``uk-UA`` counts as ``uk``), else English.

    The one place the rules reference reads the reader's language; a service-wide negotiation replaces it."""
    if lang is not None:
        if lang == PSEUDO and pseudo_allowed():  # the pseudo-locale of a test server: English, marked
            return PSEUDO
        primary = lang.split("-", 1)[0].lower()
        if not _TAG.fullmatch(lang) or primary not in SPOKEN:
            raise Problem(400, "malformed", f"lang {lang!r} is not a language umpire speaks "
                                            f"(one of: {', '.join(SPOKEN)})", field="lang")
        return primary
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = _QUALITY.search(params.replace(" ", ""))
        quality = float(q.group(1)) if q else 1.0
        primary = tag.strip().split("-", 1)[0].lower()
        if tag.strip().lower() == PSEUDO and pseudo_allowed():
            primary = PSEUDO
        if quality > 0 and (primary in SPOKEN or primary == PSEUDO):
            ranked.append((-quality, i, primary))
    return min(ranked)[2] if ranked else ENGLISH


def rule_body(ruleset_id: str, rule: Any, lang: str = ENGLISH, wanted: str = ENGLISH) -> dict[str, Any]:
    """One rule as answered: its text in ``lang``; ``wanted`` is the language asked for (when it is not
    ``lang``, the body says the English text stands in for it)."""
    body: dict[str, Any] = {"id": rule.id}
    if rule.title:
        body["title"] = rule.title
    body["text"] = rule.text
    if rule.section:
        body["section"] = rule.section
    body["url"] = rule_url(ruleset_id, rule.id)
    body["lang"] = lang
    if wanted != lang:
        body["fallback"] = lang
        body["note"] = FALLBACK_NOTE.get(wanted, f"No text in {wanted!r} for this rule; the English text is shown.")
    return body


def _in_language(ruleset_id: str, rule: Any, wanted: str) -> dict[str, Any]:
    if wanted == ENGLISH:
        return rule_body(ruleset_id, rule)
    if wanted == PSEUDO:  # the English text marked as a text said in the reader's language (service/i18n.py)
        body = rule_body(ruleset_id, rule, PSEUDO, PSEUDO)
        body.update({k: pseudo(body[k]) for k in ("title", "text") if k in body})
        return body
    translated = (registry.translated_rules_of(ruleset_id, wanted) or {}).get(rule.id)
    if translated is None:
        return rule_body(ruleset_id, rule, ENGLISH, wanted)
    return rule_body(ruleset_id, translated, wanted, wanted)


def _answer(content: Any, languages: list[str]) -> Response[Any]:
    spoken = [code for code in (*SPOKEN, PSEUDO) if code in languages]
    return Response(content, headers={"Content-Language": ", ".join(spoken or [ENGLISH]),
                                      "Vary": "Accept-Language"})


LANG = Parameter(description="The language of the texts: `en`, `uk`, `ru`, `cs` or `it` (overrides "
                             "`Accept-Language`). A rule without a text in that language is answered in "
                             "English with `fallback: \"en\"` and a `note`.")


@get("/rulesets/{ruleset_id:str}/rules", sync_to_thread=False,
     summary="The rules reference of a ruleset: every rule id a ruling or refusal may cite, with its text",
     description="The ruleset's own rules in the order of its rulebook, then the referee's own (`UMPIRE-*`: "
                 "undo, repeated commands, read-only games). In the reader's language (`lang`, else "
                 "`Accept-Language`) where the reference is translated, each other rule in English marked "
                 "`fallback`; `Content-Language` lists the languages of the texts.")
def list_rules(request: Request, ruleset_id: FromPath[str],
               lang: Annotated[str | None, LANG] = None) -> Response[list[RuleText]]:
    wanted = reader_language(lang, request.headers.get("accept-language"))
    bodies = [_in_language(ruleset_id, r, wanted) for r in _rules(ruleset_id).values()]
    return _answer(bodies, [b["lang"] for b in bodies])


@get("/rulesets/{ruleset_id:str}/rules/{rule_id:str}", sync_to_thread=False,
     summary="The text of one rule, by the id rulings and refusals cite (their `rule_url`)",
     description="In the reader's language (`lang`, else `Accept-Language`) where the reference has a text for "
                 "it, else in English with `fallback: \"en\"` and a `note`; `Content-Language` says which.")
def one_rule(request: Request, ruleset_id: FromPath[str], rule_id: FromPath[str],
             lang: Annotated[str | None, LANG] = None) -> Response[RuleText]:
    wanted = reader_language(lang, request.headers.get("accept-language"))
    rules = _rules(ruleset_id)
    rule = rules.get(rule_id)
    if rule is None:
        raise Problem(404, "not-found", f"ruleset {ruleset_id!r} has no rule {rule_id!r}", field="rule_id")
    body = _in_language(ruleset_id, rule, wanted)
    return _answer(body, [body["lang"]])


ROUTER = Router(path="/", route_handlers=[list_rules, one_rule], tags=["rules"])
