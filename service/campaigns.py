"""Campaigns, the application service behind ``/campaigns`` (DESIGN section 8; the routes are in
:mod:`service.routes.campaigns`).

A campaign is its own event stream (store migration 2: ``campaigns``,
``campaign_seats``, ``campaign_events``), folded by the ruleset's campaign rules (the kernel protocol
:class:`domain.kernel.campaign.CampaignRules`; hoth's in ``domain/hoth/campaign/rules.py``).
Its battles are ordinary games created through
:meth:`GameService.create_game` with ``campaign_id`` set; the campaign's seat
tokens act in every battle (a seat resolver the composition root hands the game service: :func:`install_hooks`).
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
import threading
import uuid
import weakref
from typing import Any, Literal

import msgspec

from domain.kernel import (
    ACTIVE, FINISHED, START_WHEN_READY, Dice, Emitted, SeatReady, SetupError, commitment, registry,
)
from domain.kernel import choices as rule_choices
from domain.kernel.campaign import (
    CampaignRules, SeedChosen, campaign_rules_of, campaign_seating, fold_campaign, fold_campaign_records,
)
from domain.kernel.seats import Seating, SeatHolding
from domain.kernel.dice import client_mix, new_seed, seed_from_hex
from domain.kernel.messages import msg

from .game_service import ON_FINISHED, SEAT_RESOLVERS, CreateGameRequest, GameService
from .problems import Problem
from .bot_seats import check_bots
from .campaign_store import CampaignConflict, CampaignStore  # noqa: F401
from .seating import offered_emitted, plan_seats, seats_report
from .store import GameRow

TOKEN_BYTES = 24
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
    #: DESIGN 14: the rule choices of every battle, ``{"<choice id>": "<option>"}`` (GET /rulesets lists them).
    choices: dict[str, str] = {}
    #: DESIGN 4 (UMPIRE-SEAT-1), as for a game: ``tokens`` or ``invitations`` (with the seats the caller keeps).
    seating: Seating = "tokens"
    keep: list[str] | None = None


def new_campaign_id() -> str:
    """A fresh campaign id ("c" and 15 hex characters; tests replace it for reproducible battle seeds)."""
    return "c" + uuid.uuid4().hex[:15]


def battle_seed(seed: bytes, campaign_id: str, number: int) -> str:
    """The seed of battle ``number`` (64 lowercase hex), derived from the campaign's seed."""
    return hmac.new(seed, f"{campaign_id}|battle|{number}".encode(), hashlib.sha256).hexdigest()


class CampaignService:
    """Create campaigns, record their battles' results, answer views. Blocking (SQLite).

    Generic: everything that is the game's comes from the ruleset's campaign rules
    (:class:`domain.kernel.campaign.CampaignRules`)."""

    def __init__(self, games: GameService):
        self.games = games
        self.db = CampaignStore(games.store)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def lock(self, campaign_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(campaign_id, threading.Lock())

    # -- reading ----------------------------------------------------------
    @staticmethod
    def rules(ruleset: str) -> CampaignRules | None:
        return campaign_rules_of(registry.get(ruleset))

    def _rules_of(self, row: dict[str, Any]) -> CampaignRules:
        rules = self.rules(row["ruleset"])
        if rules is None:
            raise Problem(422, "bad-setup", msg("ruleset {ruleset} has no campaigns", ruleset=repr(row["ruleset"])))
        return rules

    def _fold(self, campaign_id: str, rules: CampaignRules) -> tuple[Any, int, dict[str, int]]:
        return fold_campaign_records(rules, self.db.events(campaign_id))

    def _seats(self, row: dict[str, Any]) -> tuple[str, ...]:
        return self._rules_of(row).seats(row["campaign"])

    def client_seeds(self, campaign_id: str) -> dict[str, str | None] | None:
        """The seats' client seeds of a ``when_ready`` campaign (None: a campaign without them)."""
        seeds = {ev.seat: ev.client_seed for ev, _ in self.db.events(campaign_id) if isinstance(ev, SeatReady)}
        return {s: seeds.get(s) for s in self._seats(self._require(campaign_id))} if seeds else None

    def seating(self, campaign_id: str) -> tuple[SeatHolding, bool]:
        """(who was handed which seat, whether the creator chose the seed) from the campaign's stream."""
        return campaign_seating(ev for ev, _ in self.db.events(campaign_id))

    def _bots(self, campaign_id: str) -> dict[str, str]:
        """The campaign's bot seats: those of its battles' headers (the campaign's ``bots`` option)."""
        rows = self.games.store.rows("SELECT game_id FROM games WHERE campaign_id = ? ORDER BY created_at LIMIT 1",
                                     (campaign_id,))
        if not rows:
            return {}
        header = self.games.current(rows[0][0]).folded.kernel.header
        return dict(header.bots) if header is not None else {}

    def public_seating(self, campaign_id: str, seats: tuple[str, ...], bots: dict[str, str]) -> dict[str, Any]:
        """``seed_given``, ``seating``, ``seats``, ``creator_holds`` of a campaign (UMPIRE-SEAT-5, -6)."""
        h, given = self.seating(campaign_id)
        return {"seed_given": given, **seats_report(h, seats, bots)}

    @staticmethod
    def _mix(seats: tuple[str, ...], seeds: dict[str, str | None] | None) -> str | None:
        return None if seeds is None else client_mix(seats, seeds)

    def _require(self, campaign_id: str) -> dict[str, Any]:
        row = self.db.row(campaign_id)
        if row is None:
            raise Problem(404, "not-found", msg("no campaign with id {campaign}", campaign=repr(campaign_id)))
        return row

    # -- POST /campaigns ------------------------------------------------------
    def create(self, req: CreateCampaignRequest) -> dict[str, Any]:
        rules = self.rules(req.ruleset)
        if rules is None or not rules.campaigns():
            known = ", ".join(r.id for r in registry.all_rulesets() if r.campaigns())
            raise Problem(422, "bad-setup", msg("ruleset {ruleset} has no campaigns; rulesets with campaigns: {known}",
                                                ruleset=repr(req.ruleset), known=known or msg("none")), field="ruleset")
        try:
            seats = rules.seats(req.campaign)
        except SetupError:
            raise Problem(422, "bad-setup", msg("unknown campaign {campaign}; known: {known}", campaign=repr(req.campaign),
                                                known=", ".join(sorted(c.id for c in rules.campaigns()))),
                          field="campaign") from None
        try:
            seed = new_seed() if req.seed is None else seed_from_hex(req.seed)
        except ValueError as exc:
            raise Problem(400, "malformed", str(exc), field="seed") from None

        bots = check_bots(req.ruleset, seats, req.bots)
        if bots and req.start == START_WHEN_READY:
            raise Problem(422, "bad-setup", msg("a campaign with bots starts now (its battles' bot seats have no "
                                                "client seed to give)"), field="start")
        rs = registry.get(req.ruleset)
        try:
            choices = rule_choices.resolve(rule_choices.declared(rs), req.choices)
        except SetupError as exc:
            raise Problem(422, "bad-setup", exc.message or exc.detail, field=exc.field) from None
        if req.choices and req.start == START_WHEN_READY:
            raise Problem(422, "bad-setup", msg("a campaign with rule choices starts now (a waiting campaign records "
                                                "nothing before its seats are ready)"), field="choices")
        campaign_id = new_campaign_id()
        plan = plan_seats(seats, bots, req.seating, req.keep)
        tokens = plan.tokens
        # UMPIRE-SEAT-6, UMPIRE-SEAT-1: a chosen seed and the seats offered are the stream's first events
        first: list[Emitted] = [Emitted(event=SeedChosen())] if req.seed is not None else []
        if plan.offered is not None:
            first.append(offered_emitted(plan.offered))
        seated = (plan.offered, ()) if plan.offered is not None else None
        body: dict[str, Any] = {"campaign_id": campaign_id, "campaign": req.campaign,
                                "seats": {s: t for s, t in tokens.items() if s not in bots},
                                "seed_commitment": commitment(seed), "start": req.start, "seating": req.seating,
                                "seed_given": req.seed is not None}
        if plan.offered is not None:
            body["invitations"] = dict(plan.invitations)
        if req.start == START_WHEN_READY:
            # DESIGN 3: nothing is drawn before both seats have added their client seeds
            self.db.create(campaign_id, req.ruleset, req.campaign, seed, tokens, first, "waiting", plan.invitations)
            return body | {"game_id": None, "status": "waiting"}
        emitted, game_id = self._opening(campaign_id, req.ruleset, req.campaign, seed, None, {}, bots, choices,
                                         seed_given=req.seed is not None, seated=seated)
        self.db.create(campaign_id, req.ruleset, req.campaign, seed, tokens, first + emitted, ACTIVE, plan.invitations)
        body.update(game_id=game_id, status=ACTIVE)
        if bots:
            body["bots"] = bots
        return body

    def _opening(self, campaign_id: str, ruleset: str, campaign: str, seed: bytes,
                 seeds: dict[str, str | None] | None, counters: dict[str, int],
                 bots: dict[str, str] | None = None,
                 choices: dict[str, str] | None = None, *, seed_given: bool = False,
                 seated: Any = None) -> tuple[list[Emitted], str | None]:
        """The campaign's opening (the rules' ``start``) and the first battle created. The first
        battle is created before anything of the campaign is written: if the engine refuses its
        setup, no half-made campaign is left behind."""
        rules = self.rules(ruleset)
        assert rules is not None
        dice = Dice(seed, campaign_id, counters, mix=self._mix(rules.seats(campaign), seeds))
        emitted = rules.start(campaign_id, ruleset, campaign, dice, bots=bots, choices=choices)
        state = fold_campaign(rules, (em.event for em in emitted))
        game_id, started = self._start_battle(rules, state, ruleset, seed, campaign_id, dice, seeds,
                                              seed_given=seed_given, seated=seated)
        return emitted + started, game_id

    # -- POST /campaigns/{id}/ready ------------------------------------------------
    def ready(self, campaign_id: str, token: str | None, client_seed: str | None) -> dict[str, Any]:
        row = self._require(campaign_id)
        seat = self.db.seat(campaign_id, token) if token else None
        if seat is None:
            raise Problem(401, "unauthorized", msg("a seat token of this campaign is required"))
        seats = self._seats(row)
        with self.lock(campaign_id):
            row = self._require(campaign_id)
            seeds = {ev.seat: ev.client_seed for ev, _ in self.db.events(campaign_id) if isinstance(ev, SeatReady)}
            if row["status"] != "waiting":
                raise Problem(422, "rule-violation", msg("The campaign is not waiting for its seats."),
                              rule="UMPIRE-READY-1")
            if seat in seeds:
                raise Problem(422, "rule-violation", msg("{seat} is ready already.", seat=seat), rule="UMPIRE-READY-2")
            emitted = [Emitted(event=SeatReady(seat=seat, client_seed=client_seed))]
            seeds[seat] = client_seed
            status, game_id = "waiting", None
            if all(s in seeds for s in seats):
                full = {s: seeds.get(s) for s in seats}
                _state, _version, counters = self._fold(campaign_id, self._rules_of(row))
                opening, game_id = self._opening(campaign_id, row["ruleset"], row["campaign"],
                                                 bytes.fromhex(row["seed"]), full, counters,
                                                 **self._battle_seating(campaign_id))
                emitted += opening
                status = ACTIVE
            try:
                version = self.db.append(campaign_id, row["version"], emitted, status, None, actor=seat)
            except CampaignConflict:
                raise Problem(409, "stale-version", msg("the campaign changed meanwhile; try again")) from None
        return {"campaign_id": campaign_id, "version": version, "status": status, "game_id": game_id,
                "waiting_for": [s for s in seats if s not in seeds]}

    def _battle_seating(self, campaign_id: str) -> dict[str, Any]:
        """What a new battle's header and opening say of the campaign's seats and seed (from its stream)."""
        h, given = self.seating(campaign_id)
        seated = (h.offered, tuple(s for s in h.offered.invited if s in h.claimed)) if h.offered is not None else None
        return {"seed_given": given, "seated": seated}

    def _start_battle(self, rules: CampaignRules, state: Any, ruleset: str, seed: bytes, campaign_id: str,
                      dice: Dice, seeds: dict[str, str | None] | None = None, *, seed_given: bool = False,
                      seated: Any = None) -> tuple[str | None, list[Emitted]]:
        """Create the next battle. Its seed is derived from the campaign's, so its header's ``seed_given`` is
        the campaign's (UMPIRE-SEAT-6); ``seated``: the campaign's offered seats and those claimed so far."""
        plan = rules.next_battle(state)
        if plan is None:
            return None, []
        game = self.games.create_game(
            CreateGameRequest(ruleset=ruleset, scenario=plan.scenario,
                              seed=battle_seed(seed, campaign_id, plan.number), options=dict(plan.options),
                              bots=dict(plan.bots), choices=dict(plan.choices)),
            campaign_id=campaign_id, client_seeds=seeds, seed_given=seed_given, seated=seated,
            sealed=dict(plan.sealed) or None)
        return game["game_id"], rules.battle_started(state, plan, game["game_id"], dice)

    # -- a battle ended ----------------------------------------------------------
    def advance(self, campaign_id: str) -> Any:
        """Record a finished battle and start the next one, as many steps as are due."""
        row = self._require(campaign_id)
        rules = self._rules_of(row)
        seed = bytes.fromhex(row["seed"])
        if row["status"] == "waiting":
            return rules.initial_state()
        seeds = self.client_seeds(campaign_id)
        seats = rules.seats(row["campaign"])
        with self.lock(campaign_id):
            for _ in range(RETRIES):
                state, version, counters = self._fold(campaign_id, rules)
                # read after the fold: a seat claimed meanwhile is in it, or makes the append below conflict
                seating = self._battle_seating(campaign_id)
                dice = Dice(seed, campaign_id, counters, mix=self._mix(seats, seeds))
                emitted: list[Emitted] = []
                current = rules.current_game(state)
                if current is not None:
                    result = self._result(rules, state, current, dice)
                    if result is None:
                        return state
                    emitted = result
                    state = fold_campaign(rules, (em.event for em in emitted), state)
                try:
                    _gid, started = self._start_battle(rules, state, row["ruleset"], seed, campaign_id, dice, seeds,
                                                       **seating)
                except Problem:
                    started = []  # the engine refused the next setup: recorded result stays; GET retries
                emitted += started
                state = fold_campaign(rules, (em.event for em in started), state)
                if not emitted:
                    return state
                st = rules.status(state)
                try:
                    self.db.append(campaign_id, version, emitted, st.status, st.winner)
                except CampaignConflict:
                    continue  # another writer got there first: read again
                return state
            raise Problem(409, "conflict", msg("campaign {campaign} kept changing; try again", campaign=campaign_id))

    def _result(self, rules: CampaignRules, state: Any, game_id: str, dice: Dice) -> list[Emitted] | None:
        """The events recording the finished battle ``game_id`` (None: it is not finished yet)."""
        game = self.games.store.game(game_id)
        if game is None or game.status != FINISHED:
            return None
        cur = self.games.current(game_id, game)
        return rules.battle_result(state, cur.state, cur.ruleset.status(cur.state), dice)

    # -- GET /campaigns/{id} ----------------------------------------------------------
    def view(self, campaign_id: str, token: str | None) -> dict[str, Any]:
        row = self._require(campaign_id)
        rules = self._rules_of(row)
        seat = None
        if token is not None:
            seat = self.db.seat(campaign_id, token)
            if seat is None:
                raise Problem(401, "unauthorized", msg("this token is not a seat of this campaign"))
        if row["status"] == "waiting":
            # the same shape as an open campaign's view: nothing played, nothing carried yet
            ready = {ev.seat for ev, _ in self.db.events(campaign_id) if isinstance(ev, SeatReady)}
            title = next((c.title for c in rules.campaigns() if c.id == row["campaign"]), None)
            body = rules.view(rules.initial_state(), seat)
            body.update(campaign_id=campaign_id, ruleset=row["ruleset"], campaign=row["campaign"],
                        title=title, status="waiting", game_id=None,
                        waiting_for=[s for s in rules.seats(row["campaign"]) if s not in ready],
                        version=row["version"], seed_commitment=row["seed_commitment"])
            body.update(self.public_seating(campaign_id, rules.seats(row["campaign"]), self._bots(campaign_id)))
            return body
        state = self.advance(campaign_id)
        body = rules.view(state, seat)
        body["version"] = self.db.row(campaign_id)["version"]
        body["seed_commitment"] = row["seed_commitment"]
        body.update(self.public_seating(campaign_id, rules.seats(row["campaign"]), self._bots(campaign_id)))
        seeds = self.client_seeds(campaign_id)
        if seeds is not None:
            body["client_seeds"] = seeds
        if rules.status(state).status == FINISHED:
            # DESIGN 3: the seed is revealed once it can no longer help anyone; every campaign draw
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
    if seat is None:
        return None
    row = db.row(game.campaign_id)
    rules = CampaignService.rules(row["ruleset"]) if row is not None else None
    if rules is None or not db.is_battle(game.campaign_id, game.game_id, rules.battle_started_type):
        return None
    return seat


def _on_finished(games: GameService, game_id: str) -> None:
    """The next battle is created when the previous one ends."""
    game = games.store.game(game_id)
    if game is None or not game.campaign_id or campaigns_of(games).db.row(game.campaign_id) is None:
        return
    campaigns_of(games).advance(game.campaign_id)


def install_hooks() -> None:
    """Hand the game service the campaigns' seat resolver and on-finished hook (the composition root,
    :func:`service.app.create_app`, calls it; so does anything that plays campaigns without the app).
    Idempotent."""
    if _resolve_seat not in SEAT_RESOLVERS:
        SEAT_RESOLVERS.append(_resolve_seat)
    if _on_finished not in ON_FINISHED:
        ON_FINISHED.append(_on_finished)


__all__ = ["CampaignService", "CampaignStore", "CreateCampaignRequest", "battle_seed", "campaigns_of", "install_hooks"]
