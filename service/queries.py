"""Every read path of the REST service, in one place (DESIGN sections 7 and 8).

Each query first asks the app's ``read_models`` (the Redis projections,
``projections.ReadModels``; may be None) and falls back to the event log (a
fold, :class:`~service.game_service.GameService`) when the read model has no
answer. When the fallback happened because Redis is unreachable the query
says so (``degraded=True``) and the route adds ``X-Umpire-Degraded:
projections``.

The read-model contract is the port :class:`service.read_port.ReadSidePort` (implemented by
``projections.ReadModels``).

None means "not available here": the log answers instead. A read model that
is behind the store (its version differs) is not used.
"""
from __future__ import annotations

import base64
import inspect
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from domain.kernel import ACTIVE, FINISHED, WAITING, words
from domain.kernel.fold import decode_event
from projections import views

from . import i18n
from .game_service import GameService
from .language import DEFAULT, content_language
from .metrics import REDIS_ERRORS as REDIS_ERRORS_SEEN
from .problems import Problem
from .read_port import ReadSidePort
from .store import StoreError
from .verify import parse_receipt, verify_game

log = logging.getLogger("umpire.service")

DEGRADED_HEADER = "X-Umpire-Degraded"
DEGRADED_VALUE = "projections"
#: Largest page of ``GET /games/{id}/events``.
MAX_PAGE = 1000
#: Longest receipt `GET /games/{id}/verify?receipt=` reads (the API document declares it: maxLength).
RECEIPT_MAX = 8192

T = TypeVar("T")

try:  # redis is a dependency; keep the import local to this seam
    from redis.exceptions import RedisClusterException as _ClusterError
    from redis.exceptions import RedisError as _RedisError

    REDIS_ERRORS: tuple[type[BaseException], ...] = (_RedisError, _ClusterError, OSError)
except ImportError:  # pragma: no cover
    REDIS_ERRORS = (OSError,)


@dataclass(frozen=True)
class Read:
    body: Any
    degraded: bool = False
    #: the language the body's words are in (``Content-Language``), None: a body without words
    lang: str | None = None

    def headers(self) -> dict[str, str]:
        out = {DEGRADED_HEADER: DEGRADED_VALUE} if self.degraded else {}
        if self.lang is not None:
            out.update(content_language(self.lang))
        return out


#: Seconds a Redis reachability probe is trusted (the read models answer None
#: when Redis is down; the probe tells "down" from "not projected yet").
PROBE_SECONDS = 1.0
#: Seconds the reads leave a Redis found unreachable alone and answer from the log at once (marked
#: degraded): a Redis that accepts connections but does not answer (stopped, cut off) costs one read its
#: socket timeout (``service.app.REDIS_SOCKET_TIMEOUT``), not every read.
DOWN_SECONDS = 5.0
_probes: dict[int, tuple[float, bool]] = {}


def _known_down(client: Any) -> bool:
    seen = _probes.get(id(client))
    return seen is not None and seen[1] and time.monotonic() - seen[0] < DOWN_SECONDS


def _found_down(client: Any) -> None:
    if client is not None:
        _probes[id(client)] = (time.monotonic(), True)


def redis_down(rm: ReadSidePort) -> bool:
    client = getattr(rm, "redis", None)
    if client is None:
        return False
    now = time.monotonic()
    seen = _probes.get(id(client))
    if seen is not None and now - seen[0] < PROBE_SECONDS or _known_down(client):
        return bool(seen and seen[1])
    try:
        client.ping()
        down = False
    except REDIS_ERRORS:
        down = True
    _probes[id(client)] = (now, down)
    return down


def _ask(rm: ReadSidePort | None, what: str, read: Callable[[ReadSidePort], T | None]) -> tuple[T | None, bool]:
    """(answer or None, degraded) from the read model: ``read`` asks it (``what`` names the query in the
    log)."""
    if rm is None:
        return None, False
    client = getattr(rm, "redis", None)
    if client is not None and _known_down(client):
        return None, True  # found unreachable moments ago: not asked again before DOWN_SECONDS
    rm.begin_read()
    try:
        out = read(rm)
    except REDIS_ERRORS as exc:
        REDIS_ERRORS_SEEN.labels("reads").inc()
        log.warning("read model %s unavailable (%s); answering from the log", what, exc)
        _found_down(client)
        return None, True
    if out is None:
        # a read model that says why (Redis unreachable, or only behind the log: the projector has
        # not reached a command just acknowledged) needs no probe
        known = rm.read_failed()
        if known:
            _found_down(client)
        return None, redis_down(rm) if known is None else known
    return out, False


# -- games ----------------------------------------------------------------
def _signed(svc: GameService, game_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """``GET /games/{id}`` carries the signed receipt of the version it shows (DESIGN 2)."""
    r = svc.receipt(game_id, body["version"])
    return body if r is None else {**body, "receipt": r}


def game_view(svc: GameService, rm: ReadSidePort | None, game_id: str, seat: str | None,
              lang: str = DEFAULT) -> Read:
    """The caller's view; the printed words of the game's content in ``lang`` (issue 28, i18n.printed_view)."""
    game = svc.game(game_id)
    v, degraded = _ask(rm, "game_view", lambda m: m.game_view(game_id, seat, version=game.version))
    if not (isinstance(v, dict) and v.get("version") == game.version):
        cur = svc.current(game_id, game)
        v = views.game_view(game, cur.ruleset, cur.state, seat, cur.version, kernel=cur.folded.kernel)
    else:
        degraded = False
    return Read(_signed(svc, game_id, i18n.printed_view(v, lang)), degraded, lang=lang)


def state_view(svc: GameService, rm: ReadSidePort | None, game_id: str, seq: int, seat: str | None,
               lang: str = DEFAULT) -> Read:
    cur = svc.current(game_id)
    if seq < 0 or seq > cur.version:
        raise Problem(404, "not-found", f"seq {seq} is outside 0..{cur.version}", field="seq")
    st, degraded = _ask(rm, "state_at", lambda m: m.state_at(game_id, seq))
    if st is None:
        st = svc.state_at(game_id, seq, cur)
    return Read(i18n.printed_view(views.game_view(cur.game, cur.ruleset, st, seat, version=seq,
                                                  kernel=svc.kernel_at(game_id, seq, cur), reveal_all=cur.finished),
                                  lang), degraded, lang=lang)


#: Games of one lobby page by default, and at most.
LOBBY_PAGE = 100
MAX_LOBBY_PAGE = 1000
#: ``GET /games?status=`` values (``waiting``: a ``when_ready`` game before every seat is ready, DESIGN 3;
#: ``read_only``: imported without a seed, UMPIRE-READ-ONLY-1).
LOBBY_STATUSES = (WAITING, ACTIVE, FINISHED, views.READ_ONLY)


def encode_cursor(entry: dict[str, Any]) -> str:
    """The opaque lobby cursor after ``entry``: its place in the lobby's order (created_at, game_id)."""
    raw = f"{entry['created_at']}\n{entry['game_id']}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


#: What a lobby cursor looks like (the API document declares it): base64url without padding, of a place in
#: the lobby's order (``created_at``, a newline, ``game_id``).
CURSOR_PATTERN = r"^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$"
_CURSOR = re.compile(CURSOR_PATTERN)


def decode_cursor(cursor: str) -> tuple[str, str]:
    """The place in the lobby's order a cursor names. Any string of the declared form names one (the
    games after it, in the lobby's order): a cursor the lobby did not hand out is answered, not refused."""
    if not _CURSOR.fullmatch(cursor):
        raise Problem(400, "malformed", "cursor is not a cursor this lobby handed out (next_cursor)",
                      field="cursor")
    # (no NUL: PostgreSQL's text cannot hold one, and no place of the lobby has one)
    raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("utf-8", "replace").replace("\0", "")
    created_at, _, game_id = raw.partition("\n")
    return created_at, game_id


def lobby(svc: GameService, rm: ReadSidePort | None, status: str | None, ruleset: str | None, cursor: str | None = None,
          limit: int = LOBBY_PAGE) -> Read:
    """``GET /games``: one page of the lobby in creation order, and ``next_cursor`` (None on the last page)."""
    if status is not None and status not in LOBBY_STATUSES:
        raise Problem(400, "malformed", f"status must be one of {', '.join(LOBBY_STATUSES)}", field="status")
    if not 1 <= limit <= MAX_LOBBY_PAGE:
        raise Problem(400, "malformed", f"limit must be between 1 and {MAX_LOBBY_PAGE}", field="limit")
    after = decode_cursor(cursor) if cursor else None  # an empty cursor: the first page
    games, degraded = _ask(rm, "lobby", lambda m: m.lobby(status, ruleset, after=after, limit=limit + 1))
    if games is None:
        games = [views.lobby_entry(g) for g in svc.store.games(status=status, ruleset=ruleset, after=after,
                                                                limit=limit + 1)]
    more = len(games) > limit
    games = games[:limit]
    next_cursor = encode_cursor(games[-1]) if more else None
    return Read({"games": games, "next_cursor": next_cursor}, degraded)


def legal_commands(svc: GameService, game_id: str, seat: str | None, lang: str = DEFAULT) -> Read:
    cur = svc.current(game_id)
    commands = svc.legal_commands(cur, seat)
    body: dict[str, Any] = {"ruleset": cur.ruleset.id, "version": cur.version, "seat": seat, "commands": commands}
    # DESIGN 12: each command's words (label, warning) from the ruleset, parallel to ``commands``
    body["described"] = words.described(cur.ruleset, cur.state, seat, commands) if seat is not None else []
    templates = getattr(cur.ruleset, "command_templates", None)
    if templates is not None:  # continuous commands with bounds (domain/kernel/decider.py)
        open_ = seat is not None and not cur.folded.kernel.waiting
        body["templates"] = ([words.described_template(cur.ruleset, cur.state, seat, t)
                              for t in templates(cur.state, seat)] if open_ else [])
    if lang != DEFAULT:
        i18n.localize(body, lang, words.names_of(cur.ruleset, cur.state))
    return Read(body, lang=lang)


# -- the log --------------------------------------------------------------
def events(svc: GameService, game_id: str, seat: str | None, after: int, limit: int, lang: str = DEFAULT) -> Read:
    if after < 0:
        raise Problem(400, "malformed", "after must be 0 or more", field="after")
    if not 1 <= limit <= MAX_PAGE:
        raise Problem(400, "malformed", f"limit must be between 1 and {MAX_PAGE}", field="limit")
    cur = svc.current(game_id)
    records = svc.store.load(game_id, after=after, upto=cur.version, limit=limit) if after < cur.version else []
    body = {"ruleset": cur.ruleset.id, "version": cur.version, "events": svc.render_events(cur, records, seat)}
    if lang != DEFAULT:
        i18n.localize(body["events"], lang, words.names_of(cur.ruleset, cur.state))
    return Read(body, lang=lang)


def ruling(svc: GameService, game_id: str, seq: int, seat: str | None, lang: str = DEFAULT) -> Read:
    cur = svc.current(game_id)
    ev = svc.store.event(game_id, seq) if 1 <= seq <= cur.version else None
    if ev is None:
        raise Problem(404, "not-found", f"no event {seq} in game {game_id}", field="seq")
    body = views.ruling_view(ev, seat, finished=cur.finished, ruleset=cur.ruleset.id,
                             names=words.names_of(cur.ruleset, cur.state))
    body["undone"] = seq in cur.folded.undone
    if lang != DEFAULT:
        i18n.localize(body, lang, words.names_of(cur.ruleset, cur.state))
    return Read(body, lang=lang)


def timeline(svc: GameService, rm: ReadSidePort | None, game_id: str, lang: str = DEFAULT) -> Read:
    game = svc.game(game_id)
    # what Redis holds: the newest entries (projections.timeline_window), after ``base`` that only the log holds
    tail, degraded = _ask(rm, "timeline_tail", lambda m: m.timeline_tail(game_id, version=game.version))
    base = getattr(tail, "base", None)
    if base == 0:
        steps = tail.entries
        if lang != DEFAULT:  # the projection keeps each step's message beside its English summary
            cur = svc.current(game_id, game)
            i18n.localize(steps, lang, words.names_of(cur.ruleset, cur.state))
        return Read({"game_id": game_id, "version": game.version, "steps": steps}, lang=lang)
    cur = svc.current(game_id, game)
    held = base is not None and cur.version == game.version  # else the whole timeline from the log
    records = svc.store.load(game_id, upto=base if held else cur.version)
    names, header = words.names_of(cur.ruleset, cur.state), cur.folded.kernel.header
    bots = header.bots if header is not None else {}
    steps = [views.timeline_entry(e, cur.ruleset, undone=e.seq in cur.folded.undone, names=names, bots=bots)
             for e in records]
    if held:
        steps = [*steps, *tail.entries]
    if lang != DEFAULT:
        i18n.localize(steps, lang, names)
    if held:
        return Read({"game_id": game_id, "version": game.version, "steps": steps}, lang=lang)
    return Read({"game_id": game_id, "version": cur.version, "steps": steps}, degraded, lang=lang)


def board_svg(svc: GameService, rm: ReadSidePort | None, game_id: str, seat: str | None, at: int | None,
              lang: str = DEFAULT) -> Read:
    cur = svc.current(game_id)
    seq = cur.version if at is None else at
    if seq < 0 or seq > cur.version:
        raise Problem(404, "not-found", f"at={seq} is outside 0..{cur.version}", field="at")
    st, degraded = _ask(rm, "state_at", lambda m: m.state_at(game_id, seq))
    if st is None:
        st = svc.state_at(game_id, seq, cur)
    recent: list[Any] = []
    if seq > 0:
        last = svc.store.event(game_id, seq)
        if last is not None:
            # the events of the step that ended at ``seq``: one append shares its recorded_at
            lo = max(0, seq - 64)
            window = [e for e in svc.store.load(game_id, after=lo, upto=seq) if e.recorded_at == last.recorded_at]
            recent = [decode_event(cur.ruleset, e.payload) for e in window if views.may_see(e, seat, cur.finished, cur.ruleset)]
    draw = cur.ruleset.render_svg
    if lang != DEFAULT and _speaks(draw):  # issue 28: the picture's words in the reader's language
        return Read(draw(st, seat, recent, say=lambda said: i18n.say(said, lang)), degraded, lang=lang)
    return Read(draw(st, seat, recent), degraded, lang=lang if _speaks(draw) else DEFAULT)


def _speaks(draw: Any) -> bool:
    """Whether a ruleset's ``render_svg`` writes its words as messages (it takes ``say``)."""
    try:
        return "say" in inspect.signature(draw).parameters
    except (TypeError, ValueError):
        return False


def verify(svc: GameService, game_id: str, receipt: str | None = None) -> Read:
    """``GET /games/{id}/verify[?receipt=]``: ``receipt`` is a receipt as the service gave it (JSON,
    or base64url of that JSON); the answer then says whether the log still holds what it signed."""
    svc.game(game_id)

    given = unreadable = None
    if receipt is not None:
        if len(receipt) > RECEIPT_MAX:
            raise Problem(400, "malformed", "receipt: too long for a receipt", field="receipt")
        try:
            given = parse_receipt(receipt)
        except ValueError as exc:  # not a receipt: it proves nothing (receipt_ok false, and why)
            unreadable = str(exc)
    public = svc.signer.public_raw if svc.signer is not None else None
    try:
        cur = svc.current(game_id)
    except StoreError:
        raise
    except Exception:  # noqa: BLE001 -- a log the service cannot fold (an edited event): the verifier says where and why
        report = verify_game(svc.store, game_id, receipt=given, public_key=public, private_before_end=False)
    else:
        report = verify_game(svc.store, game_id, receipt=given, public_key=public, folded=cur.folded,
                             private_before_end=cur.finished)
    if unreadable is not None:
        report = msgspec.structs.replace(report, receipt_ok=False, receipt_problem=unreadable)
    return Read(report.body())


__all__ = ["DEGRADED_HEADER", "DEGRADED_VALUE", "MAX_PAGE", "Read", "board_svg", "events", "game_view",
           "legal_commands", "lobby", "ruling", "state_view", "timeline", "verify"]
