"""Messages, not sentences (issue 28): what a person reads, as an id and typed parameters.

A ruling step, a refusal, a label, a warning and a timeline summary carry a :class:`Message` beside
their rule id. The message's ``id`` is its English text with ``{name}`` placeholders (the gettext
convention: the English sentence is the key of every catalog, so English needs no catalog and a
missing translation reads as English); ``plural`` is the English plural form when a ``count`` parameter
chooses between forms. The service renders a message in the reader's language at the edge
(service/i18n.py); the domain only ever writes English (:meth:`Message.english`), so rulesets stay
pure and the English text of today is unchanged.

Parameters are typed by their name (:data:`KINDS`): an id of a unit, card, warrior, location or hex is
written with its printed name in the reader's language; a ``count`` chooses the plural form; a
``distance`` or any float is written with the language's decimal sign; ``dice`` is a list of faces; a
parameter whose value is itself a message is rendered in the same language. A placeholder may carry
a format spec (``{distance:.2f}``): the number of decimals is kept in every language.

Write a message with :func:`msg` or :func:`msg_n` so ops/i18n-extract finds it: the first argument(s)
must be string literals.
"""
from __future__ import annotations

import re
import string
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import msgspec

#: Parameter name -> kind. A name not listed is ``text`` (written as it is, with printed names put in for ids).
KINDS: dict[str, str] = {
    # ids written with their printed names
    "unit": "id", "card": "id", "warrior": "id", "hero": "id", "location": "id", "hex": "id", "target": "id",
    "attacker": "id", "defender": "id", "formation": "id", "commander": "id", "side": "id", "seat": "id",
    "by": "id", "player": "id", "marker": "id", "other": "id", "hazard": "id", "enemy": "id", "name": "id",
    "slot_name": "id", "terrain": "id",
    # printed names given as a list (each one the reader's printed name): Battle of Hoth's cards of a label, the
    # structures and unit types a sudden death names
    "cards": "id", "structures": "id", "units": "id",
    # a campaign's battle by its printed title (its node's title)
    "battle": "id",
    # a printed name given as text (Emperor's warriors, locations, cards): the reader's printed name
    "mover_name": "id", "target_name": "id", "x_name": "id", "attacker_name": "id", "w_name": "id",
    "hero_name": "id", "hero_e_name": "id", "me_name": "id", "other_name": "id", "t_name": "id",
    "warrior_name": "id", "lo_name": "id", "fb_name": "id", "fallback_name": "id", "ability_name": "id",
    # the Emperor's ability notation (``ATTACK 2 MELEE``), a printed word of the catalog in every language
    "ability": "id",
    # the printed words of the content given as text (a card's text, a scenario's title): the catalog's
    # printed words (domain/kernel/printed.py, context ``name``)
    "card_text": "id", "title": "id",
    # the ruleset's own texts given as text (a rule choice's title and words): the catalog's ``content`` texts
    "choice_title": "content", "choice_words": "content",
    # numbers
    "count": "count", "n": "count", "wounds": "count", "health": "count", "version": "int", "first": "int",
    "last": "int", "start": "int", "end": "int", "seq": "int", "face": "int", "level": "int",
    "distance": "decimal", "range": "decimal", "speed": "decimal",
    "dice": "dice",
}


class Message(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A sentence as an id and parameters; JSON as ``{"id", "params", "plural"?, "count"?}``."""

    id: str
    params: dict[str, Any] = {}
    #: the English plural form (gettext's ``msgid_plural``) when ``count`` names the parameter that chooses
    plural: str | None = None
    count: str | None = None

    def english(self) -> str:
        """The English text: the id (or its plural) with the parameters put in, numbers as Python writes them."""
        tpl = english_template(self)
        try:
            if _PLAIN.issuperset(map(type, self.params.values())):
                # only numbers and strings: ``_format_plain`` writes each as ``format(value, spec)``, which is
                # what ``str.format_map`` does, so the C formatter gives the same text (a name with no parameter
                # stays ``{name}``: ``_Missing``, copied only then)
                try:
                    return tpl.format_map(self.params)
                except KeyError:
                    return tpl.format_map(_Missing(self.params))
            fields = _fields(tpl)
            if fields is not None:
                return "".join(_filled(fields, self.params))
        except (ValueError, IndexError, TypeError):
            pass  # a template these cannot fill: ``render_with`` answers it (as it always did)
        return render_with(self, lambda m: english_template(m), _format_plain)


#: Parameter types that ``_format_plain`` writes as ``format(value, spec)`` (see ``Message.english``).
_PLAIN = frozenset((str, int, float, bool, type(None)))
#: A template -> its parsed fields when each names a parameter plainly (no conversion, index or nested spec),
#: else None (see ``_fields``).
_PARSER = string.Formatter()
_PARSED: dict[str, "tuple[tuple[str, str | None, str], ...] | None"] = {}


def _fields(tpl: str) -> "tuple[tuple[str, str | None, str], ...] | None":
    """``tpl`` parsed as ``string.Formatter`` parses it, (literal, name, spec) per field, when every field is
    ``{name}`` or ``{name:spec}``: then filling it field by field with ``_format_plain`` is what
    ``render_with``'s formatter does. Remembered per template (templates are the code's literals)."""
    hit = _PARSED.get(tpl, False)
    if hit is not False:
        return hit  # type: ignore[return-value]
    try:
        parsed = tuple(_PARSER.parse(tpl))
    except ValueError:
        parsed = None
    ok = parsed is not None and all(
        name is None or (name.isidentifier() and conv is None and "{" not in spec) for _, name, spec, conv in parsed)
    if len(_PARSED) >= 4096:
        _PARSED.clear()
    got = _PARSED[tpl] = tuple((lit, name, spec or "") for lit, name, spec, _ in parsed) if ok else None  # type: ignore[union-attr]
    return got


def _filled(fields: "tuple[tuple[str, str | None, str], ...]", params: dict[str, Any]) -> list[str]:
    out = []
    for lit, name, spec in fields:
        if lit:
            out.append(lit)
        if name is not None:
            v = params[name] if name in params else "{" + name + "}"
            t = type(v)
            # ``_format_plain``'s own answers for its two commonest kinds, without its chain of type tests: a
            # number or string is ``format(value, spec)``, a message its English
            out.append(format(v, spec) if t in _PLAIN else v.english() if t is Message else _format_plain(v, spec))
    return out


def english_template(m: "Message") -> str:
    """The English template of ``m``: its id, or its plural form when its count is not 1, with the English
    plural written out (:func:`inflected`)."""
    if m.plural is not None and m.count is not None:
        one = m.params.get(m.count) == 1
        return inflected(m.id if one else m.plural, m.count, one)
    return m.id


#: A verb right after a counted word (one word may stand between: ``step(s) taken count``) that agrees with it.
_AGREES = {"are": "is", "count": "counts"}


@lru_cache(maxsize=4096)
def inflected(tpl: str, by: str, one: bool) -> str:
    """``{by} word(s)`` of a plural message's English (the catalogs' key, kept so that a stored game's messages
    still find their translations) written as English: ``1 hit``, ``2 hits``; ``(es)`` and ``(ies)`` likewise
    (``1 loss``, ``2 losses``; ``1 entry``, ``2 entries``), and a verb right after agrees (``1 unit is``). Only
    the word the counting parameter counts (up to two words between: ``{count} support card(s)``); another
    ``(s)`` of the sentence stays, as it counts something else."""
    if "(" not in tpl:
        return tpl
    rx = re.compile(r"(\{" + re.escape(by) + r"(?::[^{}]*)?\}(?: [\w-]+){0,2} )([\w-]+)\((s|es|ies)\)"
                    r"((?: [\w-]+)? (?:are|count)\b)?")

    def word(m: re.Match) -> str:
        stem, suffix, verb = m.group(2), m.group(3), m.group(4) or ""
        if one:
            if verb:
                head, _, v = verb.rpartition(" ")
                verb = f"{head} {_AGREES[v]}"
            return m.group(1) + stem + verb
        return m.group(1) + (stem[:-1] + "ies" if suffix == "ies" else stem + suffix) + verb

    return rx.sub(word, tpl)


def msg(text: str, /, **params: Any) -> Message:
    """A message (``text``: an English string literal with ``{name}`` placeholders; it is the message's id)."""
    return Message(id=text, params=params)


def msg_n(singular: str, plural: str, by: str, /, **params: Any) -> Message:
    """A message with plural forms; ``by`` names the parameter whose number chooses the form."""
    return Message(id=singular, params=params, plural=plural, count=by)


def named(name: str, id: str) -> dict[str, str]:
    """A parameter naming a thing by its printed name and its id: English ``Dune Wind (AK5)``; in another
    language the name is the catalog's printed name (context ``name``), the id stays."""
    return {"name": name, "id": id}


def is_named(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"name", "id"}


def joined(parts: "list[str | Message]", sep: "str | Message") -> "str | Message":
    """Parts written one after another with ``sep`` between them (``", "``, ``msg(" and ")``): a plain string
    when no part and no separator has words of its own, else one message per joint, so each part is rendered in
    the reader's language."""
    if all(isinstance(p, str) for p in parts) and isinstance(sep, str):
        return sep.join(parts)  # type: ignore[arg-type]
    if not parts:
        return ""
    out = parts[0]
    for p in parts[1:]:
        out = msg("{a}{sep}{b}", a=out, sep=sep, b=p)
    return out


def N_(text: str) -> str:
    """A plain string marked for the catalogs (a problem's title, a word of the page): returned as it is."""
    return text


def text_of(value: "str | Message") -> str:
    """The English text of a message, or a sentence as it is (a ruleset not yet converted)."""
    return value.english() if isinstance(value, Message) else value


def message_of(value: "str | Message") -> "Message | None":
    return value if isinstance(value, Message) else None


def as_message(data: Any) -> "Message | None":
    """A message from its JSON form (a stored ruling, a projection), or None if ``data`` is not one."""
    if isinstance(data, Message):
        return data
    if isinstance(data, Mapping) and isinstance(data.get("id"), str):
        try:
            return msgspec.convert(data, Message)
        except msgspec.ValidationError:
            return None
    return None


def kind_of(name: str) -> str:
    return KINDS.get(name, "text")


class _Formatter(string.Formatter):
    def __init__(self, fmt: Any):
        self.fmt = fmt

    def format_field(self, value: Any, format_spec: str) -> str:
        return self.fmt(value, format_spec)


def _format_plain(value: Any, spec: str) -> str:
    if isinstance(value, Message):
        return value.english()
    if is_named(value):
        return f"{value['name']} ({value['id']})"
    if isinstance(value, Mapping) and as_message(value) is not None:
        return as_message(value).english()  # type: ignore[union-attr]
    if isinstance(value, (list, tuple)):
        return ", ".join(_format_plain(v, "") for v in value)
    return format(value, spec)


def render_with(m: Message, template: Any, fmt: Any) -> str:
    """``template(m)`` (the text in some language) with ``m``'s parameters written by ``fmt(value, spec)``.
    A placeholder a translation names but the message lacks is left visible (``{name}``), never an error."""
    text = template(m)
    params = dict(m.params)
    for tpl in (text, english_template(m)):  # a broken translation: the English text instead
        try:
            return _Formatter(fmt).vformat(tpl, (), _Missing(params))
        except (ValueError, IndexError, TypeError):
            continue
    return english_template(m)


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


__all__ = ["KINDS", "Message", "N_", "is_named", "joined", "named", "as_message", "english_template", "kind_of", "message_of", "msg", "msg_n",
           "render_with", "text_of"]
