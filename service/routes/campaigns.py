"""Campaigns over REST (DESIGN section 8): ``POST /campaigns`` and ``GET /campaigns/{id}``.

A campaign is its own event stream (store migration 2: ``campaigns``,
``campaign_seats``, ``campaign_events``), folded by the pure aggregate of
:mod:`domain.hoth.campaign`. Its battles are ordinary games created through
:meth:`GameService.create_game` with ``campaign_id`` set; the campaign's seat
tokens act in every battle (a seat resolver registered with the game service).
When a command finishes a battle, an on-finished hook records the result in
the campaign stream and creates the next battle at once; ``GET`` does the same
if it finds a finished battle not yet recorded (a crash between the two, or
another process), so the campaign always catches up.

Chance: the campaign has its own secret seed. The support-deck shuffles are
draws of that seed (stream ``support``), recorded in the events; each
battle's seed is ``HMAC-SHA256(campaign seed, "<campaign id>|battle|<n>")``,
so a campaign created with a fixed seed replays exactly, and revealing a
battle's seed at its end reveals nothing of the campaign's.

Provably fair (DESIGN 3): ``"start": "when_ready"`` leaves the campaign ``waiting`` until both
seats have posted ``POST /campaigns/{id}/ready {"client_seed": ...}`` (``seat_ready`` events in the
campaign's stream); only then are the support decks shuffled and the first battle created. The
client seeds are mixed into every draw of the campaign and of every battle (each battle's header
carries them), exactly as in a ``when_ready`` game.

The campaign's stream is chained like a game's (``GET /campaigns/{id}/verify``).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import uuid
import weakref
from typing import Annotated, Any, Literal

import msgspec
from litestar import Request, Response, Router, get, post
from litestar.params import FromPath, JSONBody

from domain.hoth import campaign as C
from domain.kernel import START_WHEN_READY, Dice, Emitted, SeatReady, advance, commitment, registry
from domain.kernel.dice import client_mix, new_seed, seed_from_hex
from domain.kernel.header import CLIENT_SEED_PATTERN

from ..auth import bearer_token
from ..schemas import CampaignCreated, CampaignReady, CampaignVerify, CampaignView
from ..game_service import ON_FINISHED, SEAT_RESOLVERS, CreateGameRequest, GameService
from ..problems import Problem
from ..campaign_store import CampaignConflict, CampaignStore  # noqa: F401
from ..store import GameRow
from ._common import strict_body, svc_of

TOKEN_BYTES = 24
#: Seats of a campaign: campaigns are designed for 2 players (content 3.1 procedure 6).
SEATS: tuple[str, ...] = ("imperial", "rebel")
#: Attempts when another writer appended to the same campaign first.
RETRIES = 5


class CreateCampaignRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /campaigns`` (``start``: ``now`` or ``when_ready``, as for a game)."""

    ruleset: str
    campaign: str
    seed: str | None = None
    start: Literal["now", "when_ready"] = "now"
    #: DESIGN 13: seats played by the service's bots in every battle, ``{"<seat>": "<bot id>[:level]"}``.
    bots: dict[str, str] = {}


def battle_seed(seed: bytes, campaign_id: str, number: int) -> str:
    """The seed of battle ``number`` (64 lowercase hex), derived from the campaign's seed."""
    return hmac.new(seed, f"{campaign_id}|battle|{number}".encode(), hashlib.sha256).hexdigest()


class CampaignService:
    """Create campaigns, record their battles' results, answer views. Blocking (SQLite)."""

    def __init__(self, games: GameService):
        self.games = games
        self.db = CampaignStore(games.store)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def lock(self, campaign_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(campaign_id, threading.Lock())

    # -- reading ----------------------------------------------------------
    def _fold(self, campaign_id: str) -> tuple[C.CampaignState, int, dict[str, int]]:
        state = C.CampaignState()
        counters: dict[str, int] = {}
        records = self.db.events(campaign_id)
        for ev, rolls in records:
            if not isinstance(ev, SeatReady):
                state = C.evolve(state, ev)
            counters = advance(counters, rolls)
        return state, len(records), counters

    def client_seeds(self, campaign_id: str) -> dict[str, str | None] | None:
        """The seats' client seeds of a ``when_ready`` campaign (None: a campaign without them)."""
        seeds = {ev.seat: ev.client_seed for ev, _ in self.db.events(campaign_id) if isinstance(ev, SeatReady)}
        return {s: seeds.get(s) for s in SEATS} if seeds else None

    @staticmethod
    def _mix(seeds: dict[str, str | None] | None) -> str | None:
        return None if seeds is None else client_mix(SEATS, seeds)

    def _require(self, campaign_id: str) -> dict[str, Any]:
        row = self.db.row(campaign_id)
        if row is None:
            raise Problem(404, "not-found", f"no campaign with id {campaign_id!r}")
        return row

    @staticmethod
    def _catalog(ruleset: str) -> Any:
        rs = registry.get(ruleset)
        cat = getattr(rs, "catalog", None) if rs is not None else None
        return cat() if callable(cat) else None

    # -- POST /campaigns ------------------------------------------------------
    def create(self, req: CreateCampaignRequest) -> dict[str, Any]:
        catalog = self._catalog(req.ruleset)
        if catalog is None or not getattr(catalog, "campaigns", None):
            known = ", ".join(r.id for r in registry.all_rulesets() if r.campaigns())
            raise Problem(422, "bad-setup", f"ruleset {req.ruleset!r} has no campaigns; rulesets with campaigns: "
                                            f"{known or 'none'}", field="ruleset")
        graph = catalog.campaigns.get(req.campaign)
        if graph is None:
            raise Problem(422, "bad-setup", f"unknown campaign {req.campaign!r}; known: "
                                            f"{', '.join(sorted(catalog.campaigns))}", field="campaign")
        try:
            seed = new_seed() if req.seed is None else seed_from_hex(req.seed)
        except ValueError as exc:
            raise Problem(400, "malformed", str(exc), field="seed") from None
        from ..bot_players import check_bots

        bots = check_bots(req.ruleset, SEATS, req.bots)
        if bots and req.start == START_WHEN_READY:
            raise Problem(422, "bad-setup", "a campaign with bots starts now (its battles' bot seats have no client "
                                            "seed to give)", field="start")
        campaign_id = "c" + uuid.uuid4().hex[:15]
        tokens = {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in SEATS}
        if req.start == START_WHEN_READY:
            # DESIGN 3: nothing is drawn before both seats have added their client seeds
            self.db.create(campaign_id, req.ruleset, graph.id, seed, tokens, [], "waiting")
            return {"campaign_id": campaign_id, "campaign": graph.id, "seats": tokens, "game_id": None,
                    "status": "waiting", "start": req.start, "seed_commitment": commitment(seed)}
        emitted, game_id = self._opening(campaign_id, req.ruleset, graph, seed, None, {}, bots)
        self.db.create(campaign_id, req.ruleset, graph.id, seed, tokens, emitted, C.ACTIVE)
        body = {"campaign_id": campaign_id, "campaign": graph.id,
                "seats": {s: t for s, t in tokens.items() if s not in bots}, "game_id": game_id,
                "status": C.ACTIVE, "start": req.start, "seed_commitment": commitment(seed)}
        if bots:
            body["bots"] = bots
        return body

    def _opening(self, campaign_id: str, ruleset: str, graph: Any, seed: bytes,
                 seeds: dict[str, str | None] | None, counters: dict[str, int],
                 bots: dict[str, str] | None = None) -> tuple[list[Emitted], str | None]:
        """The campaign's opening: support decks shuffled and the first battle created. The first
        battle is created before anything of the campaign is written: if the engine refuses its
        setup, no half-made campaign is left behind."""
        catalog = self._catalog(ruleset)
        dice = Dice(seed, campaign_id, counters, mix=self._mix(seeds))
        cmd = C.CreateCampaign(campaign_id=campaign_id, ruleset=ruleset, campaign=graph, seats=SEATS,
                               support={f: tuple(catalog.support_cards(f)) for f in SEATS}, bots=dict(bots or {}))
        emitted = C.decide(C.CampaignState(), cmd, dice)
        state = C.CampaignState()
        for em in emitted:
            state = C.evolve(state, em.event)
        game_id, started = self._start_battle(state, seed, campaign_id, dice, seeds)
        return emitted + started, game_id

    # -- POST /campaigns/{id}/ready ------------------------------------------------
    def ready(self, campaign_id: str, token: str | None, client_seed: str | None) -> dict[str, Any]:
        row = self._require(campaign_id)
        seat = self.db.seat(campaign_id, token) if token else None
        if seat is None:
            raise Problem(401, "unauthorized", "a seat token of this campaign is required")
        with self.lock(campaign_id):
            row = self._require(campaign_id)
            seeds = {ev.seat: ev.client_seed for ev, _ in self.db.events(campaign_id) if isinstance(ev, SeatReady)}
            if row["status"] != "waiting":
                raise Problem(422, "rule-violation", "The campaign is not waiting for its seats.", rule="UMPIRE-READY-1")
            if seat in seeds:
                raise Problem(422, "rule-violation", f"{seat} is ready already.", rule="UMPIRE-READY-2")
            emitted = [Emitted(event=SeatReady(seat=seat, client_seed=client_seed))]
            seeds[seat] = client_seed
            status, game_id = "waiting", None
            if all(s in seeds for s in SEATS):
                catalog = self._catalog(row["ruleset"])
                graph = catalog.campaigns[row["campaign"]]
                full = {s: seeds.get(s) for s in SEATS}
                _state, _version, counters = self._fold(campaign_id)
                opening, game_id = self._opening(campaign_id, row["ruleset"], graph, bytes.fromhex(row["seed"]),
                                                 full, counters)
                emitted += opening
                status = C.ACTIVE
            try:
                version = self.db.append(campaign_id, row["version"], emitted, status, None, actor=seat)
            except CampaignConflict:
                raise Problem(409, "stale-version", "the campaign changed meanwhile; try again") from None
        return {"campaign_id": campaign_id, "version": version, "status": status, "game_id": game_id,
                "waiting_for": [s for s in SEATS if s not in seeds]}

    def _start_battle(self, state: C.CampaignState, seed: bytes, campaign_id: str,
                      dice: Dice, seeds: dict[str, str | None] | None = None) -> tuple[str | None, list[Emitted]]:
        plan = C.next_battle(state)
        if plan is None:
            return None, []
        game = self.games.create_game(
            CreateGameRequest(ruleset=state.ruleset, scenario=plan.scenario,
                              seed=battle_seed(seed, campaign_id, plan.number), options=dict(plan.options),
                              bots={s: b for s, b in state.bots.items()}),
            campaign_id=campaign_id, client_seeds=seeds)
        emitted = C.decide(state, C.StartBattle(game_id=game["game_id"], scenario=plan.scenario), dice)
        return game["game_id"], emitted

    # -- a battle ended ----------------------------------------------------------
    def advance(self, campaign_id: str) -> C.CampaignState:
        """Record a finished battle and start the next one, as many steps as are due."""
        row = self._require(campaign_id)
        seed = bytes.fromhex(row["seed"])
        if row["status"] == "waiting":
            return C.CampaignState()
        seeds = self.client_seeds(campaign_id)
        with self.lock(campaign_id):
            for _ in range(RETRIES):
                state, version, counters = self._fold(campaign_id)
                dice = Dice(seed, campaign_id, counters, mix=self._mix(seeds))
                emitted: list[Emitted] = []
                cur = state.current
                if cur is not None:
                    result = self._result(cur.game_id)
                    if result is None:
                        return state
                    emitted = C.decide(state, result, dice)
                    for em in emitted:
                        state = C.evolve(state, em.event)
                try:
                    _gid, started = self._start_battle(state, seed, campaign_id, dice, seeds)
                except Problem:
                    started = []  # the engine refused the next setup: recorded result stays; GET retries
                emitted += started
                for em in started:
                    state = C.evolve(state, em.event)
                if not emitted:
                    return state
                try:
                    self.db.append(campaign_id, version, emitted, state.status, state.winner)
                except CampaignConflict:
                    continue  # another writer got there first: read again
                return state
            raise Problem(409, "conflict", f"campaign {campaign_id} kept changing; try again")

    def _result(self, game_id: str) -> C.RecordResult | None:
        game = self.games.store.game(game_id)
        if game is None or game.status != "finished":
            return None
        cur = self.games.current(game_id, game)
        st = cur.ruleset.status(cur.state)
        if st.winner not in SEATS:
            return None
        state = cur.state
        scenario = getattr(state, "scenario", None)
        start = tuple(C.UnitFact(faction=u.faction, unit=u.unit, hex=tuple(u.hex))
                      for u in (scenario.units if scenario is not None else ()))
        end = tuple(C.UnitFact(faction=u.faction, unit=u.unit, hex=tuple(u.hex))
                    for u in getattr(state, "units", {}).values())
        held = getattr(state, "support", None)
        left = {f: tuple(held.get(f, ())) for f in SEATS} if isinstance(held, dict) else None
        return C.RecordResult(game_id=game_id, winner=st.winner, start_units=start, end_units=end, support_left=left)

    # -- GET /campaigns/{id} ----------------------------------------------------------
    def view(self, campaign_id: str, token: str | None) -> dict[str, Any]:
        row = self._require(campaign_id)
        seat = None
        if token is not None:
            seat = self.db.seat(campaign_id, token)
            if seat is None:
                raise Problem(401, "unauthorized", "this token is not a seat of this campaign")
        if row["status"] == "waiting":
            # the same shape as an open campaign's view: nothing played, nothing carried yet
            ready = {ev.seat for ev, _ in self.db.events(campaign_id) if isinstance(ev, SeatReady)}
            catalog = self._catalog(row["ruleset"])
            graph = catalog.campaigns.get(row["campaign"]) if catalog is not None else None
            body = C.campaign_view(C.CampaignState(), seat)
            body.update(campaign_id=campaign_id, ruleset=row["ruleset"], campaign=row["campaign"],
                        title=graph.title if graph is not None else None, status="waiting", game_id=None,
                        waiting_for=[s for s in SEATS if s not in ready], version=row["version"],
                        seed_commitment=row["seed_commitment"])
            return body
        state = self.advance(campaign_id)
        catalog = self._catalog(row["ruleset"])
        body = C.campaign_view(state, seat, getattr(catalog, "leader_cards", None))
        body["version"] = self.db.row(campaign_id)["version"]
        body["seed_commitment"] = row["seed_commitment"]
        seeds = self.client_seeds(campaign_id)
        if seeds is not None:
            body["client_seeds"] = seeds
        if state.status == C.FINISHED:
            # DESIGN 3: the seed is revealed once it can no longer help anyone; every support shuffle
            # and every battle seed (battle_seed) can then be recomputed.
            body["seed"] = row["seed"]
        return body


_services: "weakref.WeakKeyDictionary[GameService, CampaignService]" = weakref.WeakKeyDictionary()
_services_lock = threading.Lock()


def campaigns_of(games: GameService) -> CampaignService:
    with _services_lock:
        svc = _services.get(games)
        if svc is None:
            svc = _services[games] = CampaignService(games)
        return svc


def _resolve_seat(games: GameService, game: GameRow, token: str) -> str | None:
    """A campaign's seat tokens act in every battle of it (DESIGN 8)."""
    if not game.campaign_id:
        return None
    db = campaigns_of(games).db
    seat = db.seat(game.campaign_id, token)
    if seat is None or not db.is_battle(game.campaign_id, game.game_id):
        return None
    return seat


def _on_finished(games: GameService, game_id: str) -> None:
    """The next battle is created when the previous one ends."""
    game = games.store.game(game_id)
    if game is None or not game.campaign_id or campaigns_of(games).db.row(game.campaign_id) is None:
        return
    campaigns_of(games).advance(game.campaign_id)


if _resolve_seat.__qualname__ not in {getattr(f, "__qualname__", "") for f in SEAT_RESOLVERS}:
    SEAT_RESOLVERS.append(_resolve_seat)
if _on_finished.__qualname__ not in {getattr(f, "__qualname__", "") for f in ON_FINISHED}:
    ON_FINISHED.append(_on_finished)


@post("/campaigns", status_code=201,
      summary="Start a campaign: seat tokens (the same in every battle) and the first battle's game id")
async def create_campaign(request: Request, data: JSONBody[CreateCampaignRequest]) -> CampaignCreated:
    body = await strict_body(request, CreateCampaignRequest)
    import anyio

    return await anyio.to_thread.run_sync(campaigns_of(svc_of(request)).create, body)  # type: ignore[return-value]


@get("/campaigns/{campaign_id:str}", sync_to_thread=True,
     summary="The campaign for the caller: battles and results, current game, own carried cards, status, winner")
def campaign_view(request: Request, campaign_id: FromPath[str]) -> Response[CampaignView]:
    body = campaigns_of(svc_of(request)).view(campaign_id, bearer_token(request))
    return Response(body, status_code=200)


class CampaignReadyRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /campaigns/{id}/ready`` (may be empty)."""

    client_seed: Annotated[str, msgspec.Meta(pattern=CLIENT_SEED_PATTERN)] | None = None


@post("/campaigns/{campaign_id:str}/ready", status_code=201,
      summary="A seat of a when_ready campaign is ready (optionally with a client seed)")
async def campaign_ready(request: Request, campaign_id: FromPath[str],
                         data: JSONBody[CampaignReadyRequest | None] = None) -> CampaignReady:
    body = await strict_body(request, CampaignReadyRequest, empty_ok=True)
    import anyio

    return await anyio.to_thread.run_sync(campaigns_of(svc_of(request)).ready, campaign_id,  # type: ignore[return-value]
                                          bearer_token(request), body.client_seed)


@get("/campaigns/{campaign_id:str}/verify", sync_to_thread=True,
     summary="The campaign's chained stream: chain_ok; once finished the seed and every commitment")
def campaign_verify(request: Request, campaign_id: FromPath[str]) -> CampaignVerify:
    svc = campaigns_of(svc_of(request))
    row = svc._require(campaign_id)
    finished = row["status"] == C.FINISHED
    chain_report, commits = svc.db.verify(campaign_id, with_seed=finished)
    out: dict[str, Any] = {"campaign_id": campaign_id, "version": row["version"], "status": row["status"],
                           "chain_version": row["chain_version"], "chain_ok": chain_report.ok}
    if not chain_report.ok:
        out.update(first_broken_seq=chain_report.first_broken_seq, problem=chain_report.problem)
    seeds = svc.client_seeds(campaign_id)
    if seeds is not None:
        out["client_seeds"] = seeds
    if finished:
        out["seed"] = row["seed"]
        out["commitment_ok"] = commitment(bytes.fromhex(row["seed"])) == row["seed_commitment"]
        if commits is not None:
            out["commitments_ok"] = commits.ok
            if not commits.ok:
                out.update(first_bad_commitment_seq=commits.first_broken_seq, commitments_problem=commits.problem)
    return out  # type: ignore[return-value]


ROUTER = Router(path="/", route_handlers=[create_campaign, campaign_view, campaign_ready, campaign_verify],
                tags=["campaigns"])

__all__ = ["ROUTER", "CampaignService", "CampaignStore", "CreateCampaignRequest", "campaigns_of", "battle_seed"]
