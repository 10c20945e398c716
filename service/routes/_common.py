"""Small helpers shared by the route modules."""
from __future__ import annotations

from typing import Any, TypeVar

import anyio
import msgspec
from litestar import Request, Response
from litestar.background_tasks import BackgroundTask

from domain.kernel import words

from .. import i18n
from ..auth import seat_of
from ..game_service import GameService
from ..language import DEFAULT, BadLanguage, content_language, negotiate
from ..problems import Problem, field_path
from ..queries import Read
from ..read_port import ReadModelPort

T = TypeVar("T")


async def strict_body(request: Request, cls: type[T], *, empty_ok: bool = False) -> T:
    """The JSON body decoded strictly into ``cls`` (DESIGN 8: a string is not a number, ``6.0`` is not
    an integer, unknown fields are refused): litestar's own conversion of a body is lenient, so the
    routes that take a body decode it again with msgspec's strict rules. 400 names the field."""
    return decode_strict(await request.body(), cls, empty_ok=empty_ok)


def decode_strict(raw: bytes, cls: type[T], *, empty_ok: bool = False) -> T:
    """:func:`strict_body` of a body already read."""
    if empty_ok and raw.strip() in (b"", b"null"):
        return cls()  # type: ignore[call-arg]  (no body, or JSON null: the body is optional)
    try:
        return msgspec.json.decode(raw, type=cls)
    except msgspec.ValidationError as exc:
        raise Problem(400, "malformed", f"invalid body: {exc}", field=field_path(str(exc))) from None
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise Problem(400, "malformed", f"the body is not valid JSON: {exc}") from None


def lang_of(request: Request) -> str:
    """The language of the answer's words (service/language.py); a malformed ``?lang=`` is a 400."""
    try:
        return negotiate(request)
    except BadLanguage as exc:
        raise Problem(400, "malformed", str(exc), field="lang") from None


def svc_of(request: Request) -> GameService:
    return request.app.state.games


def read_models_of(request: Request) -> ReadModelPort | None:
    return request.app.state.read_models


def caller(request: Request, game_id: str, *, allow_query: bool = False) -> tuple[GameService, str | None]:
    """(service, seat or None for a spectator); 404 for an unknown game first, then 401 for a bad token."""
    svc = svc_of(request)
    svc.game(game_id)
    return svc, seat_of(request, game_id, required=False, allow_query=allow_query)


def respond(read: Read, status: int = 200, media_type: str | None = None) -> Response[Any]:
    if media_type is None:
        return Response(read.body, status_code=status, headers=read.headers())
    return Response(read.body, status_code=status, headers=read.headers(), media_type=media_type)


def command_response(svc: GameService, game_id: str, answer: Any, lang: str | None = None) -> Response[Any]:
    """The answer of a command (see :func:`after_command`); ``lang``: the language its words were put in
    (:func:`speak`), said in ``Content-Language`` (None: an answer without words, a seat's token)."""
    later = after_command(svc, game_id, answer)
    return Response(answer.body, status_code=answer.status, headers=content_language(lang) if lang else None,
                    background=BackgroundTask(later) if later else None)


def speak(svc: GameService, game_id: str, body: Any, lang: str) -> Any:
    """A command's answer (or a dry run's) with the words of its events -- each one's summary, who did it,
    its ruling -- in ``lang`` (issue 28), as ``GET /games/{id}/events`` gives them; payloads, hashes and the
    receipt are never touched. English: the body as it is."""
    if lang != DEFAULT and isinstance(body, dict) and body.get("events"):
        cur = svc.current(game_id)
        i18n.localize(body["events"], lang, words.names_of(cur.ruleset, cur.state))
    return body


def after_command(svc: GameService, game_id: str, answer: Any) -> Any:
    """After a command's answer is made: wake the feeds; and what to run once it is sent (or None): the
    projection, for a service that projects after answering (the projector has the events already)."""
    if not answer.appended:
        return None
    svc.notify(game_id, answer.body.get("version") if isinstance(answer.body, dict) else None)
    if svc.defer_projection and svc.read_models is not None and svc.projector is None and not svc.project_elsewhere:
        async def project() -> None:
            await anyio.to_thread.run_sync(svc.project, game_id)

        return project
    return None


async def run_blocking(fn: Any, *args: Any) -> Any:
    return await anyio.to_thread.run_sync(fn, *args)
