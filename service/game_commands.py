"""Commands (DESIGN sections 1, 8): creating a game, and every command of a seat, as steps around the one
append: lock (the caller), load (the folded game), :func:`domain.kernel.game.decide`, append, hand over.

The checks of ``POST /games/{id}/commands`` run in the order DESIGN section 8 fixes: token (401), a
``command_id`` this seat already used answers the first answer again (422 ``UMPIRE-IDEMPOTENCY`` for another
command), ``expected_version`` (409 with ``current_version``), whose decision (403), legality (422 with
``rule``). A malformed command is 400 naming the field. The decision itself, kernel commands included
(``ready``, ``undo``, ``undo_accept``, ``undo_decline``), is the kernel's; this module turns its refusals
into problems and its events into rows.
"""
from __future__ import annotations

import hashlib
import logging
from typing import Any

import anyio
import msgspec

from domain.kernel import (
    FINISHED,
    KERNEL_COMMAND_TYPES,
    PUBLIC,
    START_NOW,
    Dice,
    DryRunStop,
    Emitted,
    GameCreated,
    KernelState,
    NotYourDecision,
    Ready,
    Ruleset,
    RuleViolation,
    Setup,
    SetupError,
    Undone,
    commitment,
    event_type_name,
    game_status,
    redact,
    registry,
)
from domain.kernel import choices as rule_choices
from domain.kernel import game as kernel_game
from domain.kernel.dice import new_seed, seed_from_hex
from domain.kernel.game import Game, Record
from domain.kernel.rulings import RuleStep, Ruling
from domain.kernel.seats import SeatsOffered
from domain.kernel.undo import KernelCommand

from domain.kernel import chain
from projections import views

from . import sealing
from .metrics import counted_dry_run, counted_steps
from .problems import Problem, field_path
from .bot_seats import check_bots
from .seating import claimed_emitted, offered_emitted, plan_seats
from .store import GameRow, NewEvent, StoredEvent, VersionConflict, token_hash
from .tracing import traced, traced_steps
from .game_model import (
    ON_FINISHED, Answer, AppendCall, CommandRequest, CreateGameRequest, Current, Steps, _resume, ruleset_for,
)

log = logging.getLogger("umpire.service")


def public_payload(event: Any, payload: str, visibility: str) -> str | None:
    """The spectator payload of an event that is not public (DESIGN 8: private fields removed,
    ``"redacted": true``), as the chain covers it; None for a public event."""
    if visibility == chain.PUBLIC:
        return None
    return msgspec.json.encode(chain.spectator_payload(msgspec.json.decode(payload), event.private)).decode()


def new_events(ruleset: Ruleset, records: list[Record], emitted: list[Emitted]) -> list[NewEvent]:
    """The rows to append for one command: each emitted event with its record (:func:`domain.kernel.game.play`)."""
    out: list[NewEvent] = []
    for rec, em in zip(records, emitted):
        payload = msgspec.json.encode(em.event).decode()
        out.append(NewEvent(
            type=event_type_name(em.event), payload=payload, actor=rec.actor, visibility=em.visibility,
            public_payload=public_payload(em.event, payload, em.visibility),
            ruling=msgspec.json.encode(em.ruling).decode() if em.ruling is not None else None,
            rolls=msgspec.json.encode(list(em.rolls)).decode(), reveals=em.revealing, turn=rec.turn,
            engine_version=ruleset.engine_version))
    return out


def encode_emitted(game: Game, emitted: list[Emitted], actor: str | None,
                   history: list[Record] | None = None) -> tuple[list[NewEvent], Game]:
    """``Emitted`` -> ``NewEvent`` rows, and the game after them (:func:`domain.kernel.game.play`)."""
    after, records = kernel_game.play(game, emitted, actor, history)
    return new_events(game.ruleset, records, emitted), after


def fold_log(ruleset: Ruleset, setup: Setup, records: list[StoredEvent]) -> Game:
    """The game folded from its stored log."""
    return kernel_game.fold(ruleset, setup, kernel_game.records_of(ruleset, records))


#: The name this had before the fold moved into the kernel.
_fold_records = fold_log


@traced("umpire.decide")
def decide(cur: Current, seat: str, command: Any, dice: Dice, *, note: RuleStep | None = None) -> list[Emitted]:
    """The kernel's decision (:func:`domain.kernel.game.decide`), its refusals as problems: 403 for another
    seat's decision, 422 naming the rule (``undo-refused`` for an undo), ``bad-setup`` when the opening fails,
    500 when a ruleset breaks the kernel's protocol. A dry run's ``DryRunStop`` passes through."""
    rs = cur.ruleset
    try:
        return kernel_game.decide(cur.folded, seat, command, dice, note=note)
    except NotYourDecision as exc:
        raise Problem(403, "not-your-decision", exc.message or exc.detail, rule=exc.rule, ruleset=rs.id) from None
    except RuleViolation as exc:
        undo = kernel_game.is_kernel_command(command) and not isinstance(command, Ready)
        raise Problem(422, "undo-refused" if undo else "rule-violation", exc.message or exc.detail, rule=exc.rule, ruleset=rs.id,
                      values=msgspec.to_builtins(exc.values) if exc.values else None) from None
    except kernel_game.OpeningFailed as exc:
        raise Problem(422, "bad-setup", exc.message or exc.detail, field=exc.field, rule=exc.rule, ruleset=rs.id) from None
    except kernel_game.EngineError as exc:
        raise Problem(500, "engine-error", str(exc)) from None


class Commands:
    """:class:`service.game_service.GameService`'s commands (a part of it: it uses the store, the cache and
    the hand-off of the other parts)."""

    def create_game(self, req: CreateGameRequest, *, campaign_id: str | None = None,
                    client_seeds: dict[str, str | None] | None = None, seed_given: bool | None = None,
                    seated: tuple[SeatsOffered, tuple[str, ...]] | None = None,
                    sealed: dict[str, Any] | None = None) -> dict[str, Any]:
        """``POST /games``. Event 1 is the ``game_created`` header; with ``"seating": "invitations"`` event 2
        is ``seats_offered`` (DESIGN 4); the opening follows at once (``start: now``) or once every seat is
        ready (``start: when_ready``). ``client_seeds``: seeds given at creation (a campaign's battles), mixed
        into every draw from the opening on. A campaign's battle: ``seed_given`` is the campaign's (its
        seed is derived from the campaign's), ``seated`` the campaign's offer and the seats claimed so far
        (its seats' tokens are the campaign's), ``sealed`` its sides' secret setup (UMPIRE-SEAL-1)."""
        rs = registry.get(req.ruleset)
        if rs is None:
            known = ", ".join(r.id for r in registry.all_rulesets())
            raise Problem(422, "bad-setup", f"unknown ruleset {req.ruleset!r}; known: {known}", field="ruleset")
        if req.seed is None:
            seed = new_seed()
        else:
            try:
                seed = seed_from_hex(req.seed)
            except ValueError as exc:
                raise Problem(400, "malformed", str(exc), field="seed") from None
        game_id = self._new_game_id()
        try:
            seats = rs.seats(req.scenario, dict(req.options))
            bots = check_bots(rs.id, tuple(seats), req.bots)
            plan = plan_seats(tuple(seats), bots, req.seating, req.keep)
            choices = rule_choices.resolve(rule_choices.declared(rs), req.choices)
            setup = Setup(game_id=game_id, ruleset=rs.id, scenario=req.scenario, seats=tuple(seats),
                          options=dict(req.options), choices=choices)
            game = kernel_game.start(rs, setup)
            if sealed and req.start != START_NOW:
                raise SetupError("start", "a game with a sealed setup opens at once")
            opening = msgspec.structs.replace(game, state=rs.initial_state(sealing.opening_setup(rs, setup, sealed))) \
                if sealed else game
            header = GameCreated(game_id=game_id, ruleset=rs.id, scenario=req.scenario, options=dict(req.options),
                                 choices=choices,
                                 seats=tuple(seats), engine_version=rs.engine_version, seed_commitment=commitment(seed),
                                 start=req.start, campaign_id=campaign_id, chain_version=chain.CHAIN_V2,
                                 client_seeds=dict(client_seeds) if client_seeds is not None else None,
                                 seed_given=req.seed is not None if seed_given is None else seed_given, bots=bots)
            kernel = KernelState(header=header)  # the header alone names the client seeds mixed into the opening
            emitted: list[Emitted] = [Emitted(event=header, ruling=Ruling(
                summary=f"{rs.id} game created", steps=()))]
            offered, claimed = seated if seated is not None else (plan.offered, ())
            if offered is not None:
                emitted += [offered_emitted(offered), *(claimed_emitted(s) for s in claimed)]
            if req.start == START_NOW:
                emitted += kernel_game.open_game(opening, Dice(seed, game_id, {}, mix=kernel.mix))
            if sealed:
                emitted = sealing.seal(emitted)
        except SetupError as exc:
            raise Problem(422, "bad-setup", exc.message or exc.detail, field=exc.field) from None
        except RuleViolation as exc:
            raise Problem(422, "bad-setup", exc.message or exc.detail, rule=exc.rule, ruleset=rs.id) from None
        except kernel_game.OpeningFailed as exc:
            raise Problem(422, "bad-setup", exc.message or exc.detail, field=exc.field, rule=exc.rule, ruleset=rs.id) from None
        except kernel_game.EngineError as exc:
            raise Problem(500, "engine-error", str(exc)) from None
        new, game = encode_emitted(game, emitted, None)
        st = game.status
        tokens = plan.tokens
        res = self.store.create_game(
            game_id=game_id, ruleset=rs.id, scenario=req.scenario,
            setup=msgspec.json.encode(setup).decode(), seed=seed, seed_commitment=commitment(seed),
            token_hashes={s: token_hash(t) for s, t in tokens.items()}, campaign_id=campaign_id,
            status=st.status, winner=st.winner, events=new,
            invitation_hashes={s: token_hash(c) for s, c in plan.invitations.items()},
        )
        self.hand_over(game_id, res.events)
        self._appended(game_id)
        body = {
            "game_id": game_id,
            "ruleset": rs.id,
            "scenario": req.scenario,
            "version": res.version,
            "status": st.status,
            "start": req.start,
            # UMPIRE-BOT-1: no token for a bot seat (nobody else may act as the bot)
            "seats": {s: t for s, t in tokens.items() if s not in bots},
            "seed_commitment": commitment(seed),
            "seating": req.seating,
        }
        if plan.offered is not None:
            body["invitations"] = dict(plan.invitations)
        if bots:
            body["bots"] = dict(bots)
        return self._with_receipt(game_id, body, res.version, res.head)

    def decode_command(self, rs: Ruleset, raw: dict[str, Any]) -> Any:
        """A ruleset command, or a kernel command (``ready``, ``undo``, ``undo_accept``,
        ``undo_decline``); unknown fields are refused naming the field (400)."""
        kind = raw.get("type") if isinstance(raw, dict) else None
        try:
            if isinstance(kind, str) and kind in KERNEL_COMMAND_TYPES:
                return msgspec.convert(raw, KernelCommand)
            return msgspec.convert(raw, rs.command_type)
        except msgspec.ValidationError as exc:
            raise Problem(400, "malformed", f"not a {rs.id} command: {exc}",
                          field=field_path(str(exc), "command")) from None

    @staticmethod
    def body_hash(command: Any, expected_version: int | None = None) -> str:
        """What a ``command_id`` is bound to: the command as decoded (defaults filled in), canonical
        JSON, sha256 (DESIGN 2: the same id with another command is 422). ``expected_version`` is the
        request's precondition, not its meaning: a retry that learnt the new version and sends the
        same command with the same id gets the first answer (DESIGN 8 checks the id first)."""
        return hashlib.sha256(chain.canonical({"command": msgspec.to_builtins(command)})).hexdigest()

    def command(self, game_id: str, token: str | None, req: CommandRequest) -> Answer:
        """``POST /games/{id}/commands`` (blocking; hold :meth:`lock` around it)."""
        return self.drive(self.command_steps(game_id, token, req))

    def command_steps(self, game_id: str, token: str | None, req: CommandRequest) -> Steps:
        """:meth:`command` as steps (:data:`Steps`: the command path drives them on the event loop).

        When this process wrote (or read) the game last at the version the request expects, the command is
        decided on that row and fold without reading the store: the append's check of the version (in its
        transaction) is what guards it. Should the append find another version, or the command be refused,
        while the store holds another version than that row (another process appended: a command, a claim,
        a rotation), the command is run again on the store's row -- so its answer is the one it would have
        had read fresh (401, 409, 403, 422, or the command taken), and nothing of the first try is stored.
        So is an answer that stored nothing (a ``command_id`` answered again, looked up before the append or
        found by it): the token was checked on that row only, and a token rotated out since must not be
        answered a first answer, its new holder's, as the seat (UMPIRE-SEAT-4: the old one no longer acts, on
        any node)."""
        known = self.known_row(game_id, req.expected_version)
        if known is not None:
            steps = self._command_steps(game_id, token, req, known)
            res: Any = None
            exc: BaseException | None = None
            stored = False  # the store appended these steps' events: from then on their answer stands
            while True:
                try:
                    call = steps.throw(exc) if exc is not None else steps.send(res)
                except StopIteration as stop:
                    if stored or self.game(game_id).version == known.version:
                        return stop.value  # appended, or the row was the store's: the answer stands
                    break  # answered again without an append, on a row another process has moved on from
                except Problem:
                    if stored or self.game(game_id).version == known.version:
                        raise  # the row was the store's: the answer stands
                    break  # another process appended since: run again on the store's row
                try:
                    res, exc = (yield call), None
                    stored = not res.duplicate  # a duplicate ``command_id`` appended nothing
                except Exception as err:  # noqa: BLE001 - the steps answer the store's refusal (or re-raise it)
                    res, exc = None, err
        return (yield from self._command_steps(game_id, token, req, self.game(game_id)))

    def _command_steps(self, game_id: str, token: str | None, req: CommandRequest, game: GameRow) -> Steps:
        seat = self.seat(game_id, token, game)
        if seat is None:
            raise Problem(401, "unauthorized", "a seat token is required (Authorization: Bearer <token>)"
                          if not token else "this token is not a seat of this game")
        rs = ruleset_for(game.ruleset)
        command = self.decode_command(rs, req.command)
        return (yield from self.run_steps(game_id, seat, command, expected_version=req.expected_version,
                                          command_id=req.command_id, game=game))

    def run(self, game_id: str, seat: str, command: Any, *, expected_version: int | None,
            command_id: str | None = None, game: GameRow | None = None, note: RuleStep | None = None) -> Answer:
        """:meth:`run_steps`, blocking (hold :meth:`lock` around it)."""
        return self.drive(self.run_steps(game_id, seat, command, expected_version=expected_version,
                                         command_id=command_id, game=game, note=note))

    def drive(self, steps: Steps) -> Answer:
        """Run a command's steps here, blocking on the store's append."""
        out = _resume(steps)
        while isinstance(out, AppendCall):
            try:
                res = self.store.append(out.game_id, out.expected_version, out.events, **out.kwargs)
            except Exception as exc:  # noqa: BLE001 - the steps answer the store's refusal (or re-raise it)
                out = _resume(steps, exc=exc)
            else:
                out = _resume(steps, res)
        return out

    async def drive_async(self, steps: Steps) -> Answer:
        """Run a command's steps on the event loop; only the append's commit leaves it
        (``store.append_async``: the loop serves other requests while the group commits)."""
        out = _resume(steps)
        while isinstance(out, AppendCall):
            try:
                res = await self.store.append_async(out.game_id, out.expected_version, out.events, **out.kwargs)
            except Exception as exc:  # noqa: BLE001 - the steps answer the store's refusal (or re-raise it)
                out = _resume(steps, exc=exc)
            else:
                out = _resume(steps, res)
        return out

    async def perform(self, steps: Steps) -> Answer:
        """Drive a command's steps where they cost least (hold :meth:`lock` around it): on the event loop
        when the store's reads are local (:meth:`drive_async`: only the commit leaves the loop), else on a
        worker thread (:meth:`drive`: PostgreSQL, whose every read is a round trip)."""
        if self.store.local_reads:
            return await self.drive_async(steps)
        return await anyio.to_thread.run_sync(self.drive, steps)

    @counted_steps  # DESIGN 16: commands by outcome and rule, their time (service.metrics), their spans
    @traced_steps
    def run_steps(self, game_id: str, seat: str, command: Any, *, expected_version: int | None,
                  command_id: str | None = None, game: GameRow | None = None, note: RuleStep | None = None) -> Steps:
        """Every command of a seat, in DESIGN 8's order: a ``command_id`` this seat used answers the
        first answer (422 ``UMPIRE-IDEMPOTENCY`` for another body), ``expected_version`` (409; None:
        not checked, for ``/undo`` and ``/ready``), whose decision (403), legality (422). ``note``: a
        step added to the ruling of the command's first event (a bot names itself, UMPIRE-BOT-1)."""
        body_hash = self.body_hash(command, expected_version)
        if command_id is not None:
            prior = self.store.command_result(game_id, command_id, seat)
            if prior is not None:
                return self._repeat(game_id, seat, command_id, prior.first_seq, prior.last_seq, prior.body_hash,
                                    body_hash)
        self.require_playable(game or self.game(game_id))
        cur = self.current(game_id, game)
        if expected_version is not None and expected_version != cur.version:
            raise Problem(409, "stale-version",
                          f"expected_version is {expected_version} but the game is at version {cur.version}",
                          current_version=cur.version)
        seed = self.seed(game_id)
        emitted = decide(cur, seat, command, cur.folded.dice(seed), note=note)
        extra, code = None, 201
        if kernel_game.is_kernel_command(command) and not isinstance(command, Ready):
            name = event_type_name(emitted[0].event)
            extra = {"undo": {"undone": "done", "undo_requested": "requested", "undo_declined": "declined",
                              "undo_accepted": "accepted"}[name]}
            code = 202 if name in ("undo_requested", "undo_accepted") else 201
        return (yield from self.append_steps(cur, seat, emitted, expected_version=cur.version, command_id=command_id,
                                             status_code=code, extra=extra, body_hash=body_hash,
                                             command_body=None if isinstance(command, Ready)
                                             else msgspec.json.encode(command).decode()))

    def _repeat(self, game_id: str, seat: str, command_id: str, first: int, last: int, stored: str | None,
                body_hash: str) -> Answer:
        if stored is not None and stored != body_hash:
            raise Problem(422, "idempotency", f"command_id {command_id!r} was used by {seat} for another request "
                          f"(seqs {first}-{last}); a command_id names one request only", rule="UMPIRE-IDEMPOTENCY",
                          field="command_id")
        return self.first_answer(game_id, seat, first, last)

    @counted_dry_run
    def dry_run(self, game_id: str, token: str | None, req: CommandRequest) -> dict[str, Any]:
        """``POST /games/{id}/commands?dry_run=true``: would the command be legal, and what would it
        measure? Nothing is stored, no die is drawn (the dice raise ``DryRunStop`` at the first draw,
        domain/kernel/decider.py), nothing revealing is shown, no receipt is signed. Checks as for a
        command (401, 409 read-only or stale, 403, 422); ``command_id`` is not looked up or kept.

        Kernel commands too: ``ready`` shows the seat's ``seat_ready`` (the last seat's stops at the
        opening's first draw), ``undo`` whether it would be free (``undone``) or a request
        (``undo_requested``), ``undo_accept``/``undo_decline`` the answer; a game command played while
        an undo request waits shows the request's ``undo_lapsed`` first, as the command would."""
        game = self.game(game_id)
        seat = self.seat(game_id, token, game)
        if seat is None:
            raise Problem(401, "unauthorized", "a seat token is required (Authorization: Bearer <token>)"
                          if not token else "this token is not a seat of this game")
        self.require_playable(game)
        rs = ruleset_for(game.ruleset)
        command = self.decode_command(rs, req.command)
        cur = self.current(game_id, game)
        if req.expected_version != cur.version:
            raise Problem(409, "stale-version",
                          f"expected_version is {req.expected_version} but the game is at version {cur.version}",
                          current_version=cur.version)
        stopped: str | None = None
        try:
            emitted = decide(cur, seat, command, cur.folded.dice(None))
        except DryRunStop as stop:
            emitted, stopped = stop.emitted, "draw"
        shown = []
        for em in emitted:
            if em.revealing:
                stopped = "reveal"
                break
            shown.append(em)
        events = []
        for em in shown:
            payload = msgspec.to_builtins(em.event)
            visible = em.visibility == PUBLIC or em.visibility == seat
            if not visible:
                payload = redact(em.event, payload)
            entry = {"type": event_type_name(em.event), "payload": payload}
            if visible and em.ruling is not None:
                entry["ruling"] = views.linked_ruling(msgspec.to_builtins(em.ruling), rs.id)
            events.append(entry)
        return {"ruleset": rs.id, "legal": True, "version": cur.version, "seat": seat, "events": events,
                "stopped_at": stopped}

    def append_steps(self, cur: Current, actor: str | None, emitted: list[Emitted], *, expected_version: int,
                     command_id: str | None = None, status_code: int = 201, extra: dict[str, Any] | None = None,
                     command_body: str | None = None, body_hash: str | None = None) -> Steps:
        """Append one command's events (as :func:`domain.kernel.game.decide` returned them) and answer with
        them and a receipt: the store's append is the one step yielded."""
        rs = cur.ruleset
        game_id = cur.game.game_id
        history = None
        if any(isinstance(em.event, Undone) for em in emitted):  # the state after an undo is a fold of the kept events
            history = kernel_game.records_of(rs, self.store.load(game_id, upto=cur.version))
        new, after = encode_emitted(cur.folded, emitted, actor, history)
        st = after.status
        try:
            res = yield AppendCall(game_id, expected_version, new,
                                   {"command_id": command_id, "status": st.status, "winner": st.winner,
                                    "command_body": command_body, "command_seat": actor, "body_hash": body_hash})
        except VersionConflict as exc:
            raise Problem(409, "stale-version",
                          f"expected_version is {exc.expected} but the game is at version {exc.current}",
                          current_version=exc.current) from None
        if res.duplicate:
            return self._repeat(game_id, actor or "", command_id or "", res.first_seq, res.last_seq, res.body_hash,
                                body_hash or "")
        winner = st.winner if st.winner is not None else cur.game.winner  # the store keeps a winner it had
        self._remember(game_id, after, msgspec.structs.replace(cur.game, version=res.version, status=st.status,
                                                               winner=winner))
        self.hand_over(game_id, res.events)
        self._appended(game_id)
        if st.status == FINISHED:
            for hook in ON_FINISHED:
                try:
                    hook(self, game_id)
                except Exception:  # the command is stored; an extension must not fail it
                    log.exception("on-finished hook %r failed for game %s", hook, game_id)
        new_cur = Current(cur.game, rs, cur.setup, after)
        body = {"ruleset": rs.id, "version": res.version,
                "events": self.render_events(new_cur, list(res.events), actor, finished=st.status == FINISHED,
                                             undone=frozenset())}
        if extra:
            body.update(extra)
        return Answer(status_code, self._with_receipt(game_id, body, res.version, res.head), appended=True)

    def first_answer(self, game_id: str, seat: str | None, first: int, last: int) -> Answer:
        """The answer a command gave the first time (a retry with the same ``command_id``)."""
        cur = self.current(game_id)
        then = self.state_at(game_id, last, cur)
        finished_then = game_status(cur.ruleset, then, self.kernel_at(game_id, last, cur)).status == FINISHED
        records = self.store.load(game_id, after=first - 1, upto=last)
        body = {"ruleset": cur.ruleset.id, "version": last,
                "events": self.render_events(cur, records, seat, finished=finished_then, undone=frozenset())}
        return Answer(201, self._with_receipt(game_id, body, last, records[-1].hash if records else None))

    def legal_commands(self, cur: Current, seat: str | None) -> list[dict[str, Any]]:
        """The kernel's commands open to ``seat`` (``ready``; the answer to a waiting undo request)
        followed by the ruleset's (none while the game waits for its seats)."""
        if seat is None:
            return []
        return [msgspec.to_builtins(c) for c in cur.folded.legal_commands(seat)]



__all__ = ["Commands", "decide", "encode_emitted", "fold_log", "new_events", "public_payload"]
