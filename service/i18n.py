"""Messages in the reader's language (issue 28): catalogs, plural rules and numbers by Babel.

The catalogs are gettext ``.po`` files in ``service/locales/`` (one per language, made and updated by
``ops/i18n-extract`` from one template). They are read once per process, on first use, and compiled in
memory (Babel's ``write_mo``) into ``babel.support.Translations``: nothing compiled is kept in git and no
build step stands between a ``.po`` edit and a running server or CI (reading all five takes a few
milliseconds). Each catalog carries its language's CLDR plural rule (``Plural-Forms``: three forms in
uk, ru and cs), which ``ngettext`` applies; numbers are written by ``babel.numbers`` (a decimal comma
in uk, ru, cs and it).

English is the catalogs' key (a message's id is its English text), so ``en`` renders a message as the
domain wrote it. The pseudo-locale ``x-pseudo`` (tests only, see service/language.py) writes every
string the template knows as ``⟦áccéntéd⟧``: a word on a page without the marks did not go through a
catalog.
"""
from __future__ import annotations

import gettext
import io
import re
import string
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec
from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from domain.kernel import printed, registry, words
from domain.kernel.messages import Message, as_message, english_template, is_named, kind_of, text_of

from .language import DEFAULT, PSEUDO, SUPPORTED

LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "umpire"
#: The message context of printed names (units, cards, warriors, terrain) in the catalogs.
NAME_CONTEXT = "name"
#: The message context of the rulesets' own texts (titles, rule choices' words: service/ruleset_listing.py).
CONTENT_CONTEXT = "content"

#: (text field, message field) pairs :func:`localize` renders in a JSON body.
FIELDS = (("text", "message"), ("summary", "summary_message"), ("label", "label_message"),
          ("warning", "warning_message"), ("detail", "detail_message"), ("title", "title_message"))


def po_path(locale: str) -> Path:
    return LOCALES_DIR / f"{locale}.po"


def template_path() -> Path:
    return LOCALES_DIR / f"{DOMAIN}.pot"


@lru_cache(maxsize=None)
def translations(locale: str) -> gettext.NullTranslations:
    """The catalog of ``locale`` (cached for the process); English and an unknown locale: none needed."""
    if locale == PSEUDO:
        return Pseudo(_template_ids())
    path = po_path(locale)
    if locale == DEFAULT or locale not in SUPPORTED or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as f:
        catalog = read_po(f, locale=locale, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


@lru_cache(maxsize=1)
def _template_ids() -> frozenset[str]:
    with template_path().open("rb") as f:
        catalog = read_po(f)
    out = set()
    for m in catalog:
        if not m.id:
            continue
        out.update(m.id if isinstance(m.id, tuple) else (m.id,))
    return frozenset(out)


_ACCENTS = str.maketrans("aeiouyAEIOUYcnszCNSZ", "áéíóúýÁÉÍÓÚÝčňšžČŇŠŽ")
_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def pseudo(text: str) -> str:
    """``text`` marked: letters accented (placeholders kept), wrapped in ``⟦ ⟧``."""
    parts = _PLACEHOLDER.split(text)
    return "⟦" + "".join(p if _PLACEHOLDER.fullmatch(p) else p.translate(_ACCENTS) for p in parts) + "⟧"


class Pseudo(gettext.NullTranslations):
    """The pseudo-locale: every string of the template marked, anything else left as it is."""

    def __init__(self, known: frozenset[str]):
        super().__init__()
        self.known = known

    def gettext(self, message: str) -> str:
        return pseudo(message) if message in self.known else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        chosen = msgid1 if n == 1 else msgid2
        return pseudo(chosen) if msgid1 in self.known else chosen

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message) if message in self.known else message


def babel_locale(locale: str) -> str:
    return "en" if locale == PSEUDO or locale not in SUPPORTED else locale


def number(value: float | int, locale: str, spec: str = "") -> str:
    """A number as ``locale`` writes it: ``3,50`` in uk, ru, cs and it; ``spec`` ``.Nf`` keeps N decimals."""
    loc = babel_locale(locale)
    m = re.fullmatch(r"\.(\d)f", spec or "")
    if m:
        digits = int(m.group(1))
        return format_decimal(value, format="0" + ("." + "0" * digits if digits else ""), locale=loc)
    if isinstance(value, int):
        return format(value, spec) if spec else str(value)  # a sign spec (``+d``) is kept in every language
    return format_decimal(value, format="0.###", locale=loc)


def translated_names(names: words.Names | None, locale: str) -> dict[str, str]:
    """The printed names by id in ``locale`` (the catalog's ``name`` context; a name it lacks stays English); a
    name composed of words (a message: ``the general of Player 1``) rendered in ``locale`` like any message. An id
    that is its English name (the Emperor's ``rebel``) is written as the name alone, as English writes it
    (``SaidNames.alone``)."""
    if not names:
        return {}
    if locale == DEFAULT:
        return {k: text_of(v) for k, v in names.items()}
    return words.SaidNames({k: _composed(_KEY.encode(v), locale) if isinstance(v, Message) else _printed(v, locale)
                            for k, v in names.items()}, {k for k, v in names.items() if text_of(v).lower() == k.lower()})


_KEY = msgspec.json.Encoder()


@lru_cache(maxsize=4096)
def _composed(key: bytes, locale: str) -> str:
    """A name composed of words (a message, by its JSON) in ``locale``, remembered as ``_printed`` remembers a
    printed name: a game's names are said for every answer in its reader's language (rendering a game's
    generals, commanders and sides anew costs a quarter of a millisecond; its key, a few microseconds)."""
    return render(msgspec.json.decode(key, type=Message), locale)


def term(text: str, locale: str) -> str:
    """A printed game term (a unit, card or terrain name) in ``locale``."""
    return text if locale == DEFAULT else _printed(text, locale)


@lru_cache(maxsize=16384)
def _printed(text: str, locale: str) -> str:
    """The catalog's printed name (context ``name``), remembered: a game's names are looked up for every answer
    that speaks its language, and one gettext lookup with a context costs tens of microseconds."""
    return translations(locale).pgettext(NAME_CONTEXT, text)


def printed_view(body: Mapping[str, Any], locale: str) -> Mapping[str, Any]:
    """A game's view (``GET /games/{id}``, ``/states/{seq}``) with the printed words of its content in
    ``locale`` (domain/kernel/printed.py: the places its ruleset names, the catalog's context ``name``) and its
    messages said (:func:`said_in`): a copy, the body given is left as it is. Only the strings the view already shows are said: a hidden card
    stays hidden. English: the body as it is."""
    state = body.get("state")
    rs = registry.get(str(body.get("ruleset")))
    if locale == DEFAULT or not isinstance(state, dict) or rs is None:
        return body
    return {**body, "state": said_in(printed_in(state, printed.printed_paths_of(rs), locale), locale)}


#: (where, text field, message field) of a view's state that :func:`printed_view` says in the reader's language: a
#: text the view writes in English beside the message the ruleset makes of it (a finished game's ``win_reason``,
#: domain/hoth/medals.py and domain/emperor/ending.py ``win_message``; where an Emperor ability comes from,
#: domain/emperor/sources.py). ``where``: the keys to the object holding both, ``*`` for every item of a list.
VIEW_FIELDS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    ((), "win_reason", "win_reason_message"),
    (("pending",), "source", "source_message"),
    (("activation", "queue", "*"), "source", "source_message"),
)


def said_in(state: dict[str, Any], locale: str) -> dict[str, Any]:
    """``state`` (a copy where anything is said) with each text of :data:`VIEW_FIELDS` that has its message beside
    it rendered in ``locale``; a text without one (a game stored with other words) stays as it is."""
    out = state
    for where, text_key, msg_key in VIEW_FIELDS:
        out = _said_at(out, where, text_key, msg_key, locale)
    return out


def _said_at(node: Any, where: tuple[str, ...], text_key: str, msg_key: str, locale: str) -> Any:
    if not where:
        m = as_message(node.get(msg_key)) if isinstance(node, dict) else None
        return {**node, text_key: render(m, locale)} if m is not None else node
    head, rest = where[0], where[1:]
    if head == "*":
        if not isinstance(node, list):
            return node
        items = [_said_at(v, rest, text_key, msg_key, locale) for v in node]
        return items if any(a is not b for a, b in zip(items, node)) else node
    if not isinstance(node, dict) or head not in node:
        return node
    inner = _said_at(node[head], rest, text_key, msg_key, locale)
    return node if inner is node[head] else {**node, head: inner}


def printed_in(body: Any, paths: Any, locale: str) -> Any:
    """``body`` (a copy) with the printed words at ``paths`` (domain/kernel/printed.py) in ``locale``."""
    if locale == DEFAULT or not paths:
        return body
    return printed.apply(body, paths, lambda text: _printed(text, locale))


def gettext_(text: str, locale: str) -> str:
    """A plain catalog string (the web page's words, a problem's title)."""
    return text if locale == DEFAULT else translations(locale).gettext(text)


class _Formatter(string.Formatter):
    def __init__(self, fmt: Any):
        self.fmt = fmt

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        return (key, kwargs[key]) if key in kwargs else (key, _MISSING)

    def convert_field(self, value: Any, conversion: Any) -> Any:
        return value

    def format_field(self, pair: Any, spec: str) -> str:
        key, value = pair
        return "{" + str(key) + "}" if value is _MISSING else self.fmt(str(key), value, spec)


_MISSING = object()


def render(message: Message | Mapping[str, Any], locale: str, names: Mapping[str, str] | None = None) -> str:
    """``message`` in ``locale``: its catalog text (by CLDR plural rules when it has forms), parameters
    written by their kind: ids with their printed names (``names``: already in ``locale``), numbers with
    the language's decimal sign, nested messages in the same language."""
    m = as_message(message)
    if m is None:
        return str(message)
    tr = translations(locale)
    if m.plural is not None and m.count is not None and locale == DEFAULT:
        text = english_template(m)  # English needs no catalog: its plural written out as the domain writes it
    elif m.plural is not None and m.count is not None:
        n = m.params.get(m.count)
        text = tr.ngettext(m.id, m.plural, n if isinstance(n, int) else 2)
    else:
        text = tr.gettext(m.id)

    def fmt(name: str, value: Any, spec: str) -> str:
        if is_named(value):
            return f"{term(value['name'], locale)} ({value['id']})"
        if as_message(value) is not None and isinstance(value, (Message, Mapping)):
            return render(value, locale, names)
        kind = kind_of(name)
        if isinstance(value, bool):
            return gettext_("yes" if value else "no", locale)
        if isinstance(value, (int, float)):
            return number(value, locale, spec) if kind != "int" else (format(value, spec) if spec else str(value))
        if isinstance(value, (list, tuple)):
            return ", ".join(fmt(name, v, "") for v in value)
        if isinstance(value, str):
            if kind == "id" and locale != DEFAULT:  # a printed name given as it is ("Akhena"): its own term
                value = _printed(value, locale)
            elif kind == "content" and locale != DEFAULT:  # the ruleset's own text (GET /rulesets says it too)
                value = tr.pgettext(CONTENT_CONTEXT, value)
            return words.with_names(value, names or {}) if names else value
        return format(value, spec) if spec else str(value)

    for template in (text, english_template(m)):  # a broken translation: the English text instead
        try:
            return _Formatter(fmt).vformat(template, (), dict(m.params))
        except (ValueError, IndexError, KeyError, TypeError):
            continue
    return english_template(m)


def say(said: "Message | str", locale: str) -> str:
    """A word of a picture (``board.svg``) in ``locale``: a message rendered, a plain string a printed name (a
    unit's, a card's, a warrior's: the catalog's ``name`` context; English and a name it lacks: as it is)."""
    return render(said, locale) if isinstance(said, Message) else term(said, locale)


def localize(body: Any, locale: str, names: words.Names | None = None) -> Any:
    """A JSON body with every text that has a message beside it (:data:`FIELDS`) rendered in ``locale``
    (in place; also returned). English bodies are left exactly as the domain wrote them, and so is a
    text without a message (a game stored before messages, a ruleset not yet converted)."""
    if locale == DEFAULT:
        return body
    local = translated_names(names, locale)
    _walk(body, locale, local)
    return body


#: Parts of a body that are data, never words: an event's payload (the hash chain covers it), a command
#: (posted back as it is), a step's values, a message's own parameters.
_DATA = frozenset({"payload", "private", "hidden", "command", "commands", "values", "params", "rolls", "receipt",
                   "state"})


def _walk(node: Any, locale: str, names: Mapping[str, str]) -> None:
    if isinstance(node, dict):
        for text_key, msg_key in FIELDS:
            m = node.get(msg_key)
            if isinstance(m, dict) and len(m) == 1 and isinstance(m.get("id"), str) and "{" not in m["id"]:
                node[text_key] = translations(locale).gettext(m["id"])  # no parameters (a seat's name): its catalog text
            elif m is not None and as_message(m) is not None:
                node[text_key] = render(m, locale, names)
        if "values_named" in node:  # a ruling step's ids by their printed names, in this language
            node["values_named"] = words.named_values(node.get("values") or {}, names)
        for k, v in node.items():
            if isinstance(v, (dict, list, tuple)) and k not in _DATA:  # a tuple: a ruling's steps as msgspec gives them
                _walk(v, locale, names)
    elif isinstance(node, (list, tuple)):
        for v in node:
            if isinstance(v, (dict, list, tuple)):
                _walk(v, locale, names)


__all__ = ["FIELDS", "LOCALES_DIR", "Pseudo", "gettext_", "localize", "number", "po_path", "printed_in", "printed_view",
           "pseudo", "render", "said_in", "say", "term", "translated_names", "translations"]


#: Where the web client's strings sit in the template (their source locations).
WEB_SOURCES = "js/"


@lru_cache(maxsize=None)
def web_catalog(locale: str) -> dict[str, Any]:
    """The web client's catalog: its strings in ``locale`` and the gettext form of each CLDR plural category."""
    with template_path().open("rb") as f:
        tpl = read_po(f)
    tr = translations(locale)
    index_of, sample_of = _plural_forms(locale)
    messages: dict[str, Any] = {}
    for m in tpl:
        if not m.id or not any(loc.startswith(WEB_SOURCES) for loc, _ in m.locations):
            continue
        if isinstance(m.id, tuple):
            messages[m.id[0]] = [tr.ngettext(m.id[0], m.id[1], sample_of[i]) for i in sorted(sample_of)]
        else:
            got = tr.gettext(m.id)
            if got != m.id:
                messages[m.id] = got
    return {"lang": locale, "messages": messages, "plural": index_of}


def _plural_forms(locale: str) -> tuple[dict[str, int], dict[int, int]]:
    """(CLDR plural category -> the index of its gettext form, form index -> a number that takes it)."""

    loc = Locale.parse(babel_locale(locale))
    tr = translations(locale)
    plural = getattr(tr, "plural", None)
    index_of: dict[str, int] = {}
    sample_of: dict[int, int] = {}
    for n in range(0, 1001):
        i = int(plural(n)) if plural is not None else int(n != 1)
        index_of.setdefault(loc.plural_form(n), i)
        sample_of.setdefault(i, n)
    return index_of, sample_of
