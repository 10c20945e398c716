"""Which language an answer speaks (issue 28): ``?lang=`` first, then ``Accept-Language``, then English.

Every endpoint that returns words calls :func:`negotiate` with its request and renders its messages in
the locale it returns; the answer says which with ``Content-Language`` (:func:`content_language`).

* ``?lang=uk`` (or ``uk-UA``: a region is dropped) overrides the header. A well-formed tag of a language
  umpire does not speak is ignored (the header decides, then English): an answer in English with
  ``Content-Language: en`` tells the client what it got. A malformed value is a 400 naming ``lang``.
* ``Accept-Language`` (RFC 9110 12.5.4): the supported language of highest ``q`` (ties: the order
  written; ``q=0`` refuses one; ``*`` means any: English).
* ``x-pseudo``: the pseudo-locale (every catalog string marked, for tests that look for words that did
  not go through a catalog) is spoken only when the server runs with ``UMPIRE_PSEUDO_LOCALE=1``.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs

#: The languages umpire speaks, in the order the web client's switcher lists them.
SUPPORTED: tuple[str, ...] = ("en", "uk", "ru", "cs", "it")
DEFAULT = "en"
PSEUDO = "x-pseudo"
#: The name of each language in itself (the switcher's labels).
NATIVE_NAMES: dict[str, str] = {"en": "English", "uk": "Українська", "ru": "Русский", "cs": "Čeština",
                                "it": "Italiano"}

_TAG = re.compile(r"[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*")
#: What ``?lang=`` may be, as a JSON schema says it (the OpenAPI document): a language tag, or empty (not given).
TAG_PATTERN = "^(?:" + _TAG.pattern + ")?$"
#: The longest ``?lang=`` read.
TAG_MAX = 35
_STATE_KEY = "umpire_lang"


class BadLanguage(ValueError):
    """``?lang=`` is not a language tag (the service answers 400 with ``field: lang``)."""


def pseudo_allowed() -> bool:
    return os.environ.get("UMPIRE_PSEUDO_LOCALE", "").strip().lower() in ("1", "true", "yes")


def _spoken(tag: str) -> str | None:
    """The supported locale a tag names (``uk-UA`` -> ``uk``), or None."""
    tag = tag.strip().replace("_", "-").lower()
    if tag == PSEUDO:
        return PSEUDO if pseudo_allowed() else None
    base = tag.split("-", 1)[0]
    return base if base in SUPPORTED else None


def from_accept_language(header: str | None) -> str | None:
    """The supported locale the header prefers most, or None (nothing supported, or no header)."""
    if not header:
        return None
    best: tuple[float, int, str] | None = None
    for i, part in enumerate(header.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        m = re.search(r"q\s*=\s*([^\s;,]*)", params)
        if m:
            try:
                q = float(m.group(1)) if len(m.group(1)) <= 5 else -1.0
            except ValueError:
                continue  # a weight that is not a number: the entry is ignored
        if q <= 0:
            continue
        tag = tag.strip()
        got = DEFAULT if tag == "*" else _spoken(tag) if _TAG.fullmatch(tag) else None
        if got is not None and (best is None or q > best[0]):
            best = (q, i, got)
    return best[2] if best else None


def choose(lang: str | None, accept_language: str | None) -> str:
    """The locale of an answer: ``lang`` (the query override), then the header, then English."""
    if lang:
        if len(lang) > TAG_MAX or not _TAG.fullmatch(lang):
            raise BadLanguage(f"lang={lang[:40]!r} is not a language tag (one of {', '.join(SUPPORTED)})")
        got = _spoken(lang)
        if got is not None:
            return got
    return from_accept_language(accept_language) or DEFAULT


def from_scope(scope: Mapping[str, Any]) -> str:
    """:func:`choose` for a raw ASGI scope (the command fast path has no litestar request)."""

    qs = scope.get("query_string")
    lang = (parse_qs(qs.decode("latin-1")).get("lang") or [None])[-1] if qs else None
    header = None
    for k, v in scope.get("headers") or ():
        if k == b"accept-language":
            header = v.decode("latin-1")
            break
    return choose(lang, header)


def negotiate(request: Any) -> str:
    """The locale an answer to ``request`` (a litestar ``Request``) speaks; remembered on the request, so
    :func:`chosen` (and the ``Content-Language`` hook) finds it. Raises :class:`BadLanguage`."""
    state = request.scope.setdefault("state", {})
    if _STATE_KEY not in state:
        state[_STATE_KEY] = choose(request.query_params.get("lang"), request.headers.get("accept-language"))
    return state[_STATE_KEY]


def chosen(scope: Mapping[str, Any]) -> str | None:
    """The locale :func:`negotiate` chose for this request, or None if the endpoint speaks no words."""
    return (scope.get("state") or {}).get(_STATE_KEY)


def content_language(locale: str) -> dict[str, str]:
    """The header that says which language an answer speaks (RFC 9110 8.5)."""
    return {"Content-Language": locale, "Vary": "Accept-Language"}


__all__ = ["BadLanguage", "DEFAULT", "NATIVE_NAMES", "PSEUDO", "SUPPORTED", "TAG_MAX", "TAG_PATTERN", "choose", "chosen", "content_language",
           "from_accept_language", "from_scope", "negotiate", "pseudo_allowed"]
