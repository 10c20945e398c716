"""RFC 9457 problem details for every error the service answers (DESIGN section 8).

Every error body is ``application/problem+json`` with ``type``, ``title``,
``status``, ``detail`` and, where relevant, ``rule`` (the rule a refused
command breaks), ``current_version`` (a stale ``expected_version``) or
``field`` (the request field that is wrong). Litestar's own errors
(validation, unknown route, wrong method) are mapped here too, so a client
never sees another error shape, and nothing a client can send yields a 500.

Problem ``type`` URIs are ``urn:umpire:problem:<slug>``; the slugs are listed
in :data:`TYPES`.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from domain.kernel.messages import Message, N_, message_of, text_of
from domain.kernel.rules import rule_url  # noqa: F401  (moved to the kernel; still importable from here)

from . import i18n
from .language import DEFAULT, BadLanguage, content_language, from_scope

log = logging.getLogger("umpire.service")

PROBLEM_JSON = "application/problem+json"

#: slug -> title. The slug makes the problem's ``type``.
TYPES: dict[str, str] = {
    "malformed": N_("Malformed request"),
    "unauthorized": N_("Missing or unknown seat token"),
    "not-your-decision": N_("Not this seat's decision"),
    "not-found": N_("Not found"),
    "stale-version": N_("Stale expected_version"),
    "rule-violation": N_("Illegal under the rules"),
    "read-only": N_("This game cannot be played on here"),
    "undo-refused": N_("Undo refused"),
    "idempotency": N_("command_id reused for another request"),
    "unsupported-media-type": N_("Unsupported media type"),
    "too-large": N_("Request body too large"),
    "not-finished": N_("Only once the game is finished"),
    "bad-setup": N_("Cannot create this game"),
    "method-not-allowed": N_("Method not allowed"),
    "unavailable": N_("Service unavailable"),
    "rate-limited": N_("Too many requests"),
    "engine-error": N_("Internal engine error"),
    "http": N_("HTTP error"),
    "seat-taken": N_("This seat was claimed already"),
    "invitation-refused": N_("Not this seat's invitation"),
}

STATUS_SLUG = {400: "malformed", 401: "unauthorized", 403: "not-your-decision", 404: "not-found",
               405: "method-not-allowed", 409: "stale-version", 413: "too-large", 415: "unsupported-media-type",
               422: "rule-violation", 429: "rate-limited", 503: "unavailable"}


#: An absolute filesystem path inside an error message (POSIX ``/a/b`` or Windows ``C:\\a``).
_ABS_PATH = re.compile(r"(?<![\w.~-])(?:[A-Za-z]:)?[\\/][^\s:'\"]*")


def without_server_paths(message: str, db_files: Iterable[str] = (), dirs: Iterable[str] = ()) -> str:
    """``message`` for a client: the server's paths replaced by what they are -- ``db_files`` (and
    any other ``*.db`` path) by "the event store", ``dirs`` (and any other absolute path) by "the
    server's data dir". The known paths go first, so one with spaces is replaced whole. The full
    message belongs in the server log."""
    known = [(p, "the event store") for p in db_files if p] + [(p, "the server's data dir") for p in dirs if p]
    for path, what in sorted(known, key=lambda x: -len(x[0])):
        message = message.replace(path, what)

    def name(m: re.Match[str]) -> str:
        return "the event store" if m.group(0).rstrip("/\\").endswith(".db") else "the server's data dir"

    return _ABS_PATH.sub(name, message)




def type_uri(slug: str) -> str:
    return f"urn:umpire:problem:{slug}"


class Problem(Exception):
    """Raise anywhere in the service to answer with a problem-details body."""

    def __init__(self, status: int, slug: str, detail: str | Message, *, ruleset: str | None = None, **extra: Any):
        """``rule`` (in ``extra``) with ``ruleset``: the body links the rule's text (``rule_url``). ``detail``:
        a message (issue 28: rendered in the reader's language) or an English sentence."""
        super().__init__(text_of(detail))
        self.status = status
        self.slug = slug
        self.detail = text_of(detail)
        self.message = message_of(detail)
        self.extra = {k: v for k, v in extra.items() if v is not None}
        if ruleset is not None and self.extra.get("rule"):
            self.extra["rule_url"] = rule_url(ruleset, self.extra["rule"])

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": type_uri(self.slug),
            "title": TYPES.get(self.slug, "Error"),
            "status": self.status,
            "detail": self.detail,
        }
        out.update(self.extra)
        return out

    def body_in(self, lang: str) -> dict[str, Any]:
        """:meth:`body` with its title and detail in ``lang`` (rule id, field and values unchanged)."""
        out = self.body()
        if lang != DEFAULT:

            out["title"] = i18n.gettext_(out["title"], lang)
            if self.message is not None:
                out["detail"] = i18n.render(self.message, lang)
        return out


def request_lang(req: Any) -> str:
    """The language of a problem's words: the request's ``?lang=`` or ``Accept-Language`` (English if
    neither, or if ``lang`` itself is what is wrong)."""
    try:
        return from_scope(getattr(req, "scope", None) or {})
    except BadLanguage:
        return DEFAULT


def problem_response(p: Problem, headers: dict[str, str] | None = None, lang: str = DEFAULT) -> Response[dict[str, Any]]:
    headers = {**(headers or {}), **content_language(lang)}
    return Response(content=p.body_in(lang), status_code=p.status, media_type=PROBLEM_JSON, headers=headers)


# -- exception handlers -------------------------------------------------
def _on_problem(req: Request, exc: Problem) -> Response[dict[str, Any]]:
    return problem_response(exc, lang=request_lang(req))


_AT = re.compile(r"at `\$(?P<path>[^`]*)`")
_MISSING = re.compile(r"missing required field `(?P<name>[^`]+)`")
_UNKNOWN = re.compile(r"unknown field `(?P<name>[^`]+)`")


def field_path(message: str, base: str | None = None) -> str | None:
    """The request field a msgspec validation message is about, as a dotted path from ``base``:
    ``"Object missing required field `unit` - at `$.command`"`` -> ``command.unit``;
    ``"Expected `int`, got `str` - at `$.expected_version`"`` -> ``expected_version``;
    ``"Expected `int`, got `str` - at `$.path[0][1]`"`` with base ``command`` -> ``command.path[0][1]``."""
    parts: list[str] = [base] if base else []
    at = _AT.search(message)
    if at:
        path = at.group("path")
        for seg in re.findall(r"\.[^.\[]+|\[[^\]]*\]", path):
            if seg.startswith("."):
                parts.append(seg[1:])
            elif parts:
                parts[-1] += seg
            else:
                parts.append(seg)
    named = _MISSING.search(message) or _UNKNOWN.search(message)
    if named:
        parts.append(named.group("name"))
    return ".".join(parts) or None


def _field_of(extra: Any) -> str | None:
    """The offending field of litestar's validation error: the body's own field path (a missing field is
    named: ``scenario``, not ``data``), else the query or path parameter (``after``)."""
    if isinstance(extra, list) and extra:
        first = extra[0]
        if isinstance(first, dict):
            key = first.get("key")
            msg = first.get("message")
            if isinstance(msg, str):
                found = field_path(msg)
                if found:
                    return found
            if isinstance(key, str) and key and key != "data":
                return key
    return None


#: What litestar's "'data'" (a required body's key not found: no body was sent) means to a client.
_NO_BODY = "the request has no JSON body, and this route requires one (see its schema in /schema)"

#: The longest request path a problem repeats (litestar's "Validation failed for GET <url>" repeats the
#: whole URL: a 5,000-digit parameter, or a seat token given in the query string, is not sent back).
_MAX_ECHO = 200


def _on_http(req: Request, exc: HTTPException) -> Response[dict[str, Any]]:
    status = exc.status_code
    if isinstance(exc, ValidationException) or status == 400:
        field = _field_of(exc.extra)
        detail = exc.detail or "malformed request"
        if detail.startswith("Validation failed for "):
            path = req.url.path
            detail = f"Validation failed for {req.method} {path if len(path) <= _MAX_ECHO else path[:_MAX_ECHO] + '...'}"
        if isinstance(exc.extra, list) and exc.extra:
            msgs = [_NO_BODY if e.get("message") == "'data'" else e.get("message")
                    for e in exc.extra if isinstance(e, dict) and e.get("message")]
            if msgs:
                detail = f"{detail}: {'; '.join(str(m) for m in msgs[:3])}"
        return problem_response(Problem(400, "malformed", detail, field=field))
    slug = STATUS_SLUG.get(status, "http")
    return problem_response(Problem(status, slug, exc.detail or TYPES.get(slug, "error")),
                            headers=dict(exc.headers) if exc.headers else None)


def _on_unexpected(req: Request, exc: Exception) -> Response[dict[str, Any]]:
    log.exception("unexpected error on %s %s", req.method, req.url.path)
    return problem_response(Problem(500, "engine-error", f"internal error ({type(exc).__name__}); the request was not applied"))


EXCEPTION_HANDLERS: dict[Any, Any] = {
    Problem: _on_problem,
    HTTPException: _on_http,
    Exception: _on_unexpected,
}

__all__ = ["PROBLEM_JSON", "Problem", "TYPES", "field_path", "rule_url", "EXCEPTION_HANDLERS", "problem_response", "type_uri",
           "without_server_paths"]
