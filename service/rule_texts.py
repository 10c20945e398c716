"""A rule's text as a reader asks for it (docs/rules-languages.md): in the reader's language where the
ruleset's reference has a text for it, else in English with a note saying so (``fallback``). The rules
routes (``/rulesets/{id}/rules``) and a disputed step decided again (``service/redecide.py``) answer rule
texts through this one module."""
from __future__ import annotations

from typing import Any

from domain.kernel import registry
from domain.kernel.messages import N_
from domain.kernel.rules import rule_url

from . import i18n
from .language import DEFAULT, PSEUDO

#: The note on a rule answered in English because the language asked for has no text for it (rendered in that
#: language through the catalogs, service/i18n.py).
FALLBACK_NOTE = N_("This rule has no text in this language yet; the English text is shown.")


def fallback_note(wanted: str) -> str:
    """:data:`FALLBACK_NOTE` in the language asked for."""
    return i18n.gettext_(FALLBACK_NOTE, wanted)


def rule_body(ruleset_id: str, rule: Any, lang: str = DEFAULT, wanted: str = DEFAULT) -> dict[str, Any]:
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
        body["note"] = fallback_note(wanted)
    return body


def in_language(ruleset_id: str, rule: Any, wanted: str) -> dict[str, Any]:
    """``rule`` (English, from the ruleset's reference) as answered to a reader of ``wanted``."""
    if wanted == DEFAULT:
        return rule_body(ruleset_id, rule)
    if wanted == PSEUDO:  # the English text marked as a text said in the reader's language (service/i18n.py)
        body = rule_body(ruleset_id, rule, PSEUDO, PSEUDO)
        body.update({k: i18n.pseudo(body[k]) for k in ("title", "text") if k in body})
        return body
    translated = (registry.translated_rules_of(ruleset_id, wanted) or {}).get(rule.id)
    if translated is None:
        return rule_body(ruleset_id, rule, DEFAULT, wanted)
    return rule_body(ruleset_id, translated, wanted, wanted)


__all__ = ["FALLBACK_NOTE", "fallback_note", "in_language", "rule_body"]
