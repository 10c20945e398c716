"""Seats and bearer tokens (DESIGN section 4).

``POST /games`` hands out one token per seat; only its sha256 is stored. A
request names its seat with ``Authorization: Bearer <token>``; a request
without a token is a spectator. A token that is not a seat of *this* game is
refused (401) rather than silently treated as a spectator. ``/feed`` also
accepts ``?token=`` because a browser's EventSource cannot set headers.
"""
from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import unquote_plus

import anyio
from litestar.connection import ASGIConnection

from .problems import Problem

#: The query parameter that authenticates a request (``/feed?token=``: a browser's EventSource cannot set
#: headers). It is the only one; every parameter named here is masked in every log.
TOKEN_PARAM = "token"
#: Query parameters that carry a secret: never written to a log, however their name is spelled
#: (percent-encoded, ``+``, any case, repeated).
SECRET_PARAMS = frozenset({TOKEN_PARAM})
#: And any parameter whose name has one of these in it (``invite_token``, ``access_token``, ...): a
#: parameter that authenticates later is masked before anyone remembers to list it.
SECRET_WORDS = ("token", "secret", "password", "passwd", "invite", "key")
#: Free text (a log message): each whitespace-delimited word with a query string in it.
_URL_WORD = re.compile(r"[^\s?]*\?\S*")


def _param_name(raw: str) -> str:
    """A query parameter's name as a server reads it (``+`` is a space, percent-escapes decoded), decoded
    again while that changes it (a doubly encoded name is masked too), trimmed and lower-cased."""
    name = raw
    for _ in range(4):
        decoded = unquote_plus(name)
        if decoded == name:
            break
        name = decoded
    return name.strip().lstrip("?").strip().lower()


def is_secret_param(raw_name: str) -> bool:
    """Whether a query parameter (its raw name) carries a secret: :data:`SECRET_PARAMS`, or a name with one
    of :data:`SECRET_WORDS` in it."""
    name = _param_name(raw_name)
    return name in SECRET_PARAMS or any(w in name for w in SECRET_WORDS)


def redact_query_string(query: str) -> str:
    """``query`` (the raw query string, without ``?``) with the value of every secret parameter replaced by
    ``***``. Split exactly as the server splits it (on ``&``; the name ends at the first ``=``), so no part
    of a value that authenticates is left in clear."""
    parts = query.split("&")
    for i, part in enumerate(parts):
        name, eq, _value = part.partition("=")
        if eq and is_secret_param(name):
            parts[i] = f"{name}=***"
    return "&".join(parts)


def redact_url(url: str) -> str:
    """``path?query`` with :func:`redact_query_string` applied to its query (every ``?`` after the first
    belongs to the query, as for the server; a name after a stray ``?`` is masked as well)."""
    path, sep, query = url.partition("?")
    if not sep:
        return url
    return path + sep + redact_query_string(query)


def redact_query(text: str) -> str:
    """``text`` (a URL, or a log message with URLs in it) with the value of every secret query parameter
    replaced by ``***``."""
    if "?" not in text:
        return text
    return _URL_WORD.sub(lambda m: redact_url(m.group(0)), text)


class RedactTokens(logging.Filter):
    """A filter for the access log (``uvicorn.access``) and any other: a seat token given in a query
    string (``GET /games/{id}/feed?token=...``, for browsers' EventSource) never reaches a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(redact_query(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = redact_query(record.msg)
        return True


def install_log_redaction(*names: str) -> None:
    """Add :class:`RedactTokens` to the access log (and ``names``) once."""
    for name in ("uvicorn.access", "uvicorn.error", *names):
        lg = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in lg.filters):
            lg.addFilter(RedactTokens())


def token_of_header(header: str | bytes | None) -> str | None:
    """The token of an ``Authorization`` header (None: no header, a spectator). A malformed one is 401."""
    if isinstance(header, bytes):
        header = header.decode("latin-1")
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Problem(401, "unauthorized", "the Authorization header must be 'Bearer <seat token>'")
    return token


def bearer_token(conn: ASGIConnection, *, allow_query: bool = False) -> str | None:
    """The token of the request, or None for a spectator. A malformed header is 401."""
    token = token_of_header(conn.headers.get("authorization"))
    if token is not None:
        return token
    if allow_query:
        q = conn.query_params.get(TOKEN_PARAM)
        if q:
            return q
    return None


def seat_of(conn: ASGIConnection, game_id: str, *, required: bool, allow_query: bool = False) -> str | None:
    """The caller's seat in ``game_id`` (None: spectator, only when not ``required``)."""
    return seat_for(conn.app.state.games, game_id, bearer_token(conn, allow_query=allow_query), required=required)


def seat_for(svc: Any, game_id: str, token: str | None, *, required: bool) -> str | None:
    """The seat of ``token`` in ``game_id``; 401 for a token that is not one, or for none when ``required``."""
    if token is None:
        if required:
            raise Problem(401, "unauthorized", "a seat token is required (Authorization: Bearer <token>)")
        return None
    seat = svc.seat(game_id, token)
    if seat is None:
        raise Problem(401, "unauthorized", "this token is not a seat of this game")
    return seat


async def require_seat_guard(conn: ASGIConnection, _handler: object) -> None:
    """Guard: runs before the body is parsed, so a missing token is 401 even for a malformed body.

    An unknown game is 404 first (there is no seat to check against).
    """
    await check_seat(conn.app.state.games, conn.path_params.get("game_id"), bearer_token(conn))


async def check_seat(svc: Any, game_id: str, token: str | None) -> None:
    """404 for an unknown game, then 401 unless ``token`` is a seat of it. A game and a token seen before
    are answered from memory on the event loop (no thread hop); else the store is asked in a worker thread."""
    known = getattr(svc, "_known_games", None)
    if known is not None and game_id in known and isinstance(svc.cached_seat(game_id, token), str):
        return

    def check() -> None:
        svc.exists(game_id)
        seat_for(svc, game_id, token, required=True)

    await anyio.to_thread.run_sync(check)


__all__ = ["RedactTokens", "SECRET_PARAMS", "SECRET_WORDS", "TOKEN_PARAM", "is_secret_param", "redact_query_string", "redact_url", "bearer_token", "check_seat", "token_of_header", "install_log_redaction", "redact_query", "require_seat_guard", "seat_for", "seat_of"]
