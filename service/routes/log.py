"""The log and replay: events, rulings, past states, timeline, board pictures, verify, feed."""
from __future__ import annotations

import re
from typing import Annotated

import anyio
from litestar import Request, Response, Router, get
from litestar.params import FromPath, Parameter
from litestar.response import ServerSentEvent

from .. import queries
from ..language import content_language
from ..problems import Problem
from ..queries import MAX_PAGE, Read
from ..schemas import (
    EventsPage,
    GameView,
    Redecided,
    RulingView,
    Timeline,
    VerifyResult,
)

#: Largest integer a parameter takes (2**53 - 1: exact in every JSON client).
MAX_INT = 2**53 - 1
#: Path and query parameters with the bounds the service enforces.
After = Annotated[int, Parameter(ge=0, le=MAX_INT, description="Start after this seq (0: from the first event).")]
Limit = Annotated[int, Parameter(ge=1, le=MAX_PAGE, description="At most this many events.")]
StepSeq = Annotated[int, Parameter(ge=1, le=MAX_INT, description="The event's seq.")]
StateSeq = Annotated[int, Parameter(ge=0, le=MAX_INT,
                                    description="The seq after which the state is shown (0: the initial state).")]
from ..auth import bearer_token, seat_of
from ..feed import FeedResponse, stream
from ..redecide import redecide
from ._common import caller, lang_of, read_models_of, respond, svc_of


@get("/games/{game_id:str}/events", sync_to_thread=True, summary="The log as the caller may see it")
def events(request: Request, game_id: FromPath[str], after: After = 0, limit: Limit = 100) -> Response[EventsPage]:
    svc, seat = caller(request, game_id)
    return respond(queries.events(svc, game_id, seat, after, limit, lang_of(request)))


@get("/games/{game_id:str}/events/{seq:int}/ruling", sync_to_thread=True, summary="The ruling of one step")
def ruling(request: Request, game_id: FromPath[str], seq: StepSeq) -> Response[RulingView]:
    svc, seat = caller(request, game_id)
    return respond(queries.ruling(svc, game_id, seq, seat, lang_of(request)))


@get("/games/{game_id:str}/events/{seq:int}/redecide", sync_to_thread=True,
     summary="Decide a step again with the current engine and the revealed seed (finished games)",
     description="DESIGN 6: the recorded events beside what the current engine decides now, and every "
     "difference. 409 while the game runs (the seed is secret).")
def redecide_step(request: Request, game_id: FromPath[str], seq: StepSeq) -> Response[Redecided]:
    svc, _seat = caller(request, game_id)
    lang = lang_of(request)
    return respond(Read(redecide(svc, game_id, seq, lang), lang=lang))


@get("/games/{game_id:str}/states/{seq:int}", sync_to_thread=True, summary="The caller's view right after seq")
def state_at(request: Request, game_id: FromPath[str], seq: StateSeq) -> Response[GameView]:
    svc, seat = caller(request, game_id)
    return respond(queries.state_view(svc, read_models_of(request), game_id, seq, seat, lang_of(request)))


@get("/games/{game_id:str}/timeline", sync_to_thread=True, summary="One line per step")
def timeline(request: Request, game_id: FromPath[str]) -> Response[Timeline]:
    svc, _seat = caller(request, game_id)
    return respond(queries.timeline(svc, read_models_of(request), game_id, lang_of(request)))


def optional_int(raw: str | None, name: str, minimum: int) -> int | None:
    """An optional integer query parameter, strictly: absent is None; ``null``, ``x`` or too small is a 400
    naming it (litestar would read ``null`` as absent)."""
    if raw is None:
        return None
    if not re.fullmatch(r"[0-9]{1,16}", raw) or not minimum <= int(raw) <= MAX_INT:
        raise Problem(400, "malformed", f"{name} must be an integer of at least {minimum}", field=name)
    return int(raw)


def last_event_id(raw: str | None) -> int | None:
    """The ``Last-Event-ID`` header of a reconnecting feed: absent or empty is None; anything but a seq
    (digits, at most :data:`MAX_INT`) is a 400 naming the header (non-ASCII digits and a 5,000-digit
    number included: never a 500)."""
    if raw is None or raw.strip() == "":
        return None
    raw = raw.strip()
    if not re.fullmatch(r"[0-9]{1,16}", raw) or int(raw) > MAX_INT:
        raise Problem(400, "malformed", "the Last-Event-ID header must be the seq of an event (an integer, 0 or "
                      f"more, at most {MAX_INT})", field="Last-Event-ID")
    return int(raw)


@get("/games/{game_id:str}/board.svg", sync_to_thread=True, media_type="image/svg+xml",
     summary="A picture of the board at a step (default: now)")
def board(request: Request, game_id: FromPath[str],
          at: Annotated[str | None, Parameter(description="The seq to draw (an integer, 0 or more; default: now).")]
          = None) -> Response[str]:
    lang = lang_of(request)
    svc, seat = caller(request, game_id)
    seq = optional_int(at, "at", 0)
    return respond(queries.board_svg(svc, read_models_of(request), game_id, seat, seq, lang), media_type="image/svg+xml")


@get("/games/{game_id:str}/verify", sync_to_thread=True, summary="Hash chain, and once finished the seed and the dice",
     description="`chain_ok` (the chain over what every caller sees), `row_ok` (the games row agrees with the log), "
     "`client_seeds` (when_ready games); once the fold of the log says finished: `seed`, `commitment_ok`, "
     "`commitments_ok` (every event's commitment), `dice_ok` (every draw from the seed, every index once and in "
     "order, every face from its value). `receipt`: a receipt the service gave (its JSON, or base64url of it): "
     "`receipt_ok` says whether the log still holds what it signed (a cut or rewritten log is proven).")
def verify(request: Request, game_id: FromPath[str], receipt: Annotated[str | None, Parameter(
               min_length=2, max_length=queries.RECEIPT_MAX,
               description="A receipt the service gave: its JSON, or base64url of its JSON. Anything else is "
                           "not a receipt: the answer says so (`receipt_ok` false, `receipt_problem`).")] = None,
           ) -> Response[VerifyResult]:
    return respond(queries.verify(svc_of(request), game_id, receipt))


@get("/games/{game_id:str}/feed", summary="Server-sent events: each new event the caller may see",
     description="`after`: start after this seq (or the Last-Event-ID header); `limit`: close after that many "
     "events; `token`: the seat token, for clients that cannot set the Authorization header. Once a finished "
     "game's last event is sent, one `event: end` message (`{status, version, winner}`, no id) closes the stream.")
async def feed(request: Request, game_id: FromPath[str], after: After = 0,
               limit: Annotated[str | None, Parameter(description="Close after this many events (an integer, "
                                                                  "1 or more).")] = None,
               token: Annotated[str | None, Parameter(description="The seat token, for clients that cannot set "
                                                                  "the Authorization header.")] = None) -> ServerSentEvent:
    svc = svc_of(request)

    def who() -> str | None:
        svc.game(game_id)
        return seat_of(request, game_id, required=False, allow_query=True)

    lang = lang_of(request)
    seat = await anyio.to_thread.run_sync(who)
    last = last_event_id(request.headers.get("last-event-id"))
    if last is not None:
        after = last
    count = optional_int(limit, "limit", 1)
    held = bearer_token(request, allow_query=True)
    return FeedResponse(stream(svc, game_id, seat, max(after, 0), count,
                               holds=lambda: held is not None and svc.seat(game_id, held) == seat, lang=lang),
                        headers=content_language(lang))


ROUTER = Router(path="/", route_handlers=[events, ruling, redecide_step, state_at, timeline, board, verify, feed], tags=["log"])
