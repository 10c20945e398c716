"""The adversarial fairness battery (DESIGN 4 and 5): seeded random, bounded searches of command sequences
against the real :class:`service.game_service.GameService` on a real SQLite store, for every ruleset and seat
configuration, checking two invariants after every step.

A sequence mixes, by every seat: legal game commands (each with a ``command_id``), retries of a command with
the same id (same body: the first answer again; another body: UMPIRE-IDEMPOTENCY) and with another id, dry
runs of legal commands, undo requests to recent command boundaries, accepts and declines by *any* seat (the
asker, its teammates, the other sides), ``ready`` of a ``when_ready`` game, views, past states, event listings,
rulings, the timeline and legal commands (reads and dry runs in English, Ukrainian, Czech, Russian and Italian by
turns, :data:`LANGS`), and the bot seats' decisions (their answers to undo requests by rule, as the service's worker gives them).

Invariants, checked against oracles of the battery's own (never the code under test):

(a) **nothing hidden is seen**: every answer a seat receives (command answers, dry-run answers, views, event
    listings) is searched for the values that are hidden from that seat in the log: the contents of the
    private fields of events whose visibility is another seat (lists and mappings of two or more items, and
    long strings such as salts), minus everything the seat could see in the log (public payloads, its own
    events), which includes what became public since, and minus the spectator's view now and, for a past
    state read, the spectator's view of that state (what public play derives: a discard pile is the cards
    played, in order, and may equal a hand drawn in secret). A leak into the spectator's view itself is
    therefore not caught by (a) unless it reaches the log's public part;
(b) **no second outcome without another side**: every ``undone`` event whose range, or anything after it up
    to the undo, holds a reveal by the battery's oracle (draws; a visibility that is not public; a public
    payload carrying a value that was hidden before it) was agreed by a seat of a side other than the
    asker's (sides by the ruleset's own declaration, read directly), by every other side with three or more,
    and never by a bot (UMPIRE-BOT-2); a consent is never a teammate's.

The self-tests (test_adversarial.py) plant each hole with monkeypatching and check that the battery catches it.
"""
from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.kernel import PUBLIC, Ready
from domain.kernel.fold import decode_event
from service import game_service, queries
from service.bot_players import bot_decision, by_rule, next_job, note_of
from service.game_service import CommandRequest, CreateGameRequest, GameService, ruleset_for
from service.problems import Problem
from service.routes._common import speak
from service.campaigns import CreateCampaignRequest, campaigns_of, install_hooks
from service.seat_claims import claim
from service.undo import answer as answer_undo
from service.undo import request_undo, undo_targets

#: Strings at least this long inside a hidden field are secrets of their own (salts, seeds).
LONG = 24
#: The languages the reads and dry runs speak, one after another by step (issue 28: every answer with words is
#: rendered in the reader's language, with the game's printed names; the values checked must not change).
LANGS = ("en", "uk", "cs", "ru", "it")
KERNEL_COMMANDS = ("ready", "undo", "undo_accept", "undo_decline")


@dataclass(frozen=True)
class Config:
    name: str
    ruleset: str
    scenario: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    bots: dict[str, str] = field(default_factory=dict)
    start: str = "now"
    campaign: str = ""
    #: ``invitations``: every human seat is offered by invitation and claimed before the sequence (DESIGN 4):
    #: the seat events (``seats_offered``, ``seat_claimed``) sit in the log beside everything else.
    seating: str = "tokens"


CONFIGS: tuple[Config, ...] = (
    Config("hoth-2", "hoth", "SCN-TAKE-DOWN-THE-SHIELD"),
    Config("hoth-team", "hoth", "SCN-TAKE-DOWN-THE-SHIELD", {"team": True}),
    Config("hoth-3", "hoth", "SCN-TAKE-DOWN-THE-SHIELD", {"team": "rebel"}),
    Config("hoth-bot", "hoth", "SCN-TAKE-DOWN-THE-SHIELD", bots={"rebel": "random"}),
    Config("hoth-team-bots", "hoth", "SCN-TAKE-DOWN-THE-SHIELD", {"team": True},
           bots={"imperial-2": "random", "rebel-2": "random"}),
    Config("hoth-campaign", "hoth", campaign="CMP-2-OUTPOST-DELTA"),
    Config("hoth-when-ready", "hoth", "SCN-TAKE-DOWN-THE-SHIELD", start="when_ready"),
    Config("smoke-2", "smoke", "BTL-OPEN-FIELD"),
    Config("smoke-3", "smoke", "BTL-CROSSROADS", {"players": 3}),
    Config("smoke-4", "smoke", "BTL-CROSSROADS", {"players": 4}),
    Config("smoke-bot", "smoke", "BTL-OPEN-FIELD", bots={"player-2": "random"}),
    Config("emperor", "emperor", "SETUP-AKHENA-VS-REBEL"),
    Config("emperor-when-ready", "emperor", "SETUP-WARDEN-VS-VESPER", start="when_ready"),
    Config("hoth-invited-when-ready", "hoth", "SCN-TAKE-DOWN-THE-SHIELD", start="when_ready", seating="invitations"),
)


class Breach(AssertionError):
    """An invariant broke: ``kind`` is ``"seen"`` (a) or ``"consent"`` (b)."""

    def __init__(self, kind: str, text: str):
        super().__init__(f"[{kind}] {text}")
        self.kind = kind


@dataclass
class Tally:
    sequences: int = 0
    steps: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    refusals: int = 0
    seconds: float = 0.0

    def add(self, other: "Tally") -> None:
        self.sequences += other.sequences
        self.steps += other.steps
        self.refusals += other.refusals
        self.seconds += other.seconds
        for k, v in other.actions.items():
            self.actions[k] = self.actions.get(k, 0) + v


def values_of(value: Any, out: set[bytes]) -> set[bytes]:
    """Every list or mapping of two or more items, and every long string, inside ``value`` (canonical JSON)."""
    if isinstance(value, str):
        if len(value) >= LONG:
            out.add(msgspec.json.encode(value))
    elif isinstance(value, dict):
        if len(value) >= 2:
            out.add(msgspec.json.encode(value, order="sorted"))
        for v in value.values():
            values_of(v, out)
    elif isinstance(value, (list, tuple)):
        if len(value) >= 2:
            out.add(msgspec.json.encode(list(value), order="sorted"))
        for v in value:
            values_of(v, out)
    return out


def oracle_sides(rs: Any, setup: Any) -> dict[str, str]:
    """The ruleset's own declaration of sides (read directly, not through the kernel)."""
    own = getattr(type(rs), "sides", None)
    return own(rs, setup) if own is not None else {s: s for s in setup.seats}


class Sequence:
    """One game and one random sequence of steps over it."""

    def __init__(self, svc: GameService, cfg: Config, rng: random.Random):
        self.svc, self.cfg, self.rng = svc, cfg, rng
        self.tally = Tally(sequences=1)
        if cfg.campaign:
            install_hooks()  # the seat resolver and on-finished hook the app wires in its root
            g = campaigns_of(svc).create(CreateCampaignRequest(ruleset=cfg.ruleset, campaign=cfg.campaign,
                                                               seed=f"{rng.getrandbits(256):064x}"))
        else:
            g = svc.create_game(CreateGameRequest(ruleset=cfg.ruleset, scenario=cfg.scenario, options=cfg.options,
                                                  bots=cfg.bots, start=cfg.start, seating=cfg.seating,
                                                  seed=f"{rng.getrandbits(256):064x}"))
        self.gid: str = g["game_id"]
        self.tokens: dict[str, str] = dict(g["seats"])
        for seat, code in sorted(g.get("invitations", {}).items()):  # each player claims its own seat
            self.tokens[seat] = claim(svc, self.gid, seat, code)["token"]
        cur = svc.current(self.gid)
        self.rs = cur.ruleset
        self.setup = cur.setup
        self.sides = oracle_sides(self.rs, self.setup)
        self.bots = dict(cur.folded.kernel.header.bots) if cur.folded.kernel.header else {}
        self.humans = [s for s in self.setup.seats if s in self.tokens]
        #: (seat, command body, command_id, first answer's version) of the last command each seat played.
        self.last: dict[str, tuple[dict, str, int]] = {}
        self.seen: list[tuple[str | None, Any, str]] = []
        #: The values of the spectator's past states read since the last check (see :meth:`check_seen`).
        self.public_then: set[bytes] = set()

    # -- the oracles ------------------------------------------------------------------------------------
    def _log(self) -> list[tuple[Any, Any, dict]]:
        out = []
        for e in self.svc.store.load(self.gid):
            out.append((e, decode_event(self.rs, e.payload), msgspec.json.decode(e.payload)))
        return out

    def secrets(self, log: list, seat: str | None, public: set[bytes]) -> set[bytes]:
        """Values hidden from ``seat`` in the log and never visible to it (invariant a); ``public``: the values
        of the spectator's view now (what is derived from public play, e.g. a discard pile in order)."""
        hidden: set[bytes] = set()
        known: set[bytes] = set(public)
        for e, ev, payload in log:
            body = {k: v for k, v in payload.items() if k != "type"}
            if e.visibility == PUBLIC or e.visibility == seat:
                values_of(body, known)
            else:
                fields = ev.private or set(body)
                for f in fields:
                    values_of(body.get(f), hidden)
                values_of({k: v for k, v in body.items() if k not in fields}, known)
        return hidden - known

    def reveals(self, log: list) -> set[int]:
        """Seqs of reveals by the battery's oracle (invariant b): draws, not public, or a public payload that
        carries a value hidden before it."""
        out: set[int] = set()
        hidden: set[bytes] = set()
        public: set[bytes] = set()
        for e, ev, payload in log:
            body = {k: v for k, v in payload.items() if k != "type"}
            if e.type in KERNEL_EVENTS:
                continue
            mine = values_of(body, set())
            if e.rolls not in ("", "[]") or e.visibility != PUBLIC:
                out.add(e.seq)
            if e.visibility != PUBLIC:
                for f in ev.private or set(body):
                    values_of(body.get(f), hidden)
                hidden -= public
                continue
            if mine & hidden:
                out.add(e.seq)
            public |= mine
            hidden -= mine
        return out

    def check(self) -> None:
        log = self._log()
        self.check_seen(log)
        self.check_consent(log)

    def check_seen(self, log: list) -> None:
        if self.svc.current(self.gid).finished:
            self.seen.clear()
            self.public_then = set()
            return
        cache: dict[str | None, set[bytes]] = {}
        cur = self.svc.current(self.gid)
        public = values_of(self.rs.view(cur.state, None), set()) | self.public_then
        self.public_then = set()
        for seat, body, what in self.seen:
            sec = cache.get(seat)
            if sec is None:
                sec = cache[seat] = self.secrets(log, seat, public)
            got = values_of(msgspec.to_builtins(body), set()) & sec
            if got:
                raise Breach("seen", f"{self.cfg.name}: {seat} received hidden values in {what}: "
                                     f"{sorted(got)[0][:120]!r}")
        self.seen.clear()

    def check_consent(self, log: list) -> None:
        reveal = self.reveals(log)
        accepted: dict[int, list[str]] = {}
        request: int | None = None
        for e, ev, payload in log:
            if e.type == "undo_requested":
                request = e.seq
                accepted[e.seq] = []
            elif e.type == "undo_accepted" and request is not None:
                accepted[request].append(payload["by"])
            elif e.type == "undone":
                asker, consent = payload["by"], payload["consented_by"]
                crossed = sorted(s for s in reveal if payload["first"] <= s < e.seq)
                if consent is None:
                    if crossed:
                        raise Breach("consent", f"{self.cfg.name}: {asker}'s free undo (seq {e.seq}) crossed the "
                                                f"reveal(s) at {crossed}")
                    continue
                agreed = [*accepted.get(request or -1, []), consent]
                mine = self.sides[asker]
                if any(self.sides[a] == mine for a in agreed):
                    raise Breach("consent", f"{self.cfg.name}: {asker}'s undo (seq {e.seq}) was agreed by its own "
                                            f"side: {agreed}")
                others = {s for s in self.sides.values() if s != mine}
                if {self.sides[a] for a in agreed} != others:
                    raise Breach("consent", f"{self.cfg.name}: undo seq {e.seq} agreed by {agreed}, not by every "
                                            f"other side {sorted(others)}")
                bots = [a for a in agreed if a in self.bots]
                if bots and crossed:
                    raise Breach("consent", f"{self.cfg.name}: the bot {bots[0]} agreed to undo seq {e.seq} across "
                                            f"the reveal(s) at {crossed}")
                request = None

    # -- the steps ---------------------------------------------------------------------------------------
    def lang(self) -> str:
        """The language of this step's reads (by the step's number: the sequence's random choices stay as
        they were without languages)."""
        return LANGS[self.tally.steps % len(LANGS)]

    def _count(self, kind: str) -> None:
        self.tally.actions[kind] = self.tally.actions.get(kind, 0) + 1

    def _try(self, kind: str, seat: str | None, fn: Any, *args: Any, **kw: Any) -> Any:
        self._count(kind)
        try:
            got = fn(*args, **kw)
        except Problem as exc:
            if exc.status >= 500:
                raise AssertionError(f"{self.cfg.name}: {kind} by {seat} answered {exc.status}: {exc.detail}")
            self.tally.refusals += 1
            return None
        body = getattr(got, "body", got)
        self.seen.append((seat, body, kind))
        if isinstance(body, dict) and isinstance(body.get("undo"), str):
            self._count(f"undo_{body['undo']}")  # done (free or agreed), requested, accepted, declined
        return got

    def legal(self, seat: str) -> list[dict]:
        return [c for c in self.svc.legal_commands(self.svc.current(self.gid), seat)
                if c["type"] not in KERNEL_COMMANDS]

    def step(self) -> bool:
        """One random step; False when the game is over (or stuck)."""
        cur = self.svc.current(self.gid)
        if cur.finished:
            return False
        self.tally.steps += 1
        ks = cur.folded.kernel
        rng = self.rng
        if ks.waiting:
            unready = [s for s in ks.unready() if s in self.tokens]
            if rng.random() < 0.3 or not unready:
                return self.run_bots()
            seat = rng.choice(unready)
            seed = rng.choice([None, f"s{rng.getrandbits(32):x}"])
            if rng.random() < 0.3:  # the last ready's dry run stops at the opening's first draw
                req = CommandRequest(command={"type": "ready", "client_seed": seed}, expected_version=cur.version)
                self._try("dry_run", seat, self.svc.dry_run, self.gid, self.tokens[seat], req)
            self._try("ready", seat, self.svc.run, self.gid, seat, Ready(client_seed=seed), expected_version=None)
            return True
        acting = [s for s in cur.status.to_act if s in self.tokens]
        roll = rng.random()
        if ks.undo_request is not None and roll < 0.35:
            seat = rng.choice(self.humans)  # any seat: the asker, a teammate, another side
            accept = rng.random() < 0.7
            self._try("answer", seat, answer_undo, self.svc, self.gid, self.tokens[seat], accept)
        elif roll < 0.45 and acting:
            self.play(rng.choice(acting))
        elif roll < 0.55:
            seat = rng.choice(self.humans)
            targets = undo_targets(self.svc, self.gid)[-5:-1]
            if targets:
                self._try("undo", seat, request_undo, self.svc, self.gid, self.tokens[seat], rng.choice(targets))
        elif roll < 0.65 and acting:
            seat = rng.choice(acting)
            cmds = self.legal(seat)
            if cmds:
                req = CommandRequest(command=rng.choice(cmds), expected_version=cur.version)
                self._try("dry_run", seat, lambda: speak(self.svc, self.gid, self.svc.dry_run(
                    self.gid, self.tokens[seat], req), self.lang()))
        elif roll < 0.72:
            self.retry()
        elif roll < 0.78:
            seat = rng.choice([*self.humans, None])
            lang = self.lang()
            self._try("view", seat, lambda: queries.game_view(self.svc, None, self.gid, seat, lang).body)
            self._try("events", seat, lambda: queries.events(self.svc, self.gid, seat, 0, 1000, lang).body)
            self._try("legal", seat, lambda: queries.legal_commands(self.svc, self.gid, seat, lang).body)
            seq = rng.randint(1, cur.version)
            self._try("ruling", seat, lambda: queries.ruling(self.svc, self.gid, seq, seat, lang).body)
            if self._try("state", seat, lambda: queries.state_view(self.svc, None, self.gid, seq, seat, lang).body):
                # what public play had derived by then (a discard pile then) is the spectator's view at ``seq``
                values_of(queries.state_view(self.svc, None, self.gid, seq, None).body, self.public_then)
            self._try("timeline", seat, lambda: queries.timeline(self.svc, None, self.gid, lang).body)
        elif self.bots:
            return self.run_bots()
        elif acting:
            self.play(rng.choice(acting))
        return True

    def play(self, seat: str) -> None:
        cmds = self.legal(seat)
        if not cmds:
            return
        cmd = self.rng.choice(cmds)
        cid = uuid.uuid4().hex
        got = self._try("play", seat, self.svc.command, self.gid, self.tokens[seat],
                        CommandRequest(command=cmd, expected_version=self.svc.current(self.gid).version, command_id=cid))
        if got is not None:
            self.last[seat] = (cmd, cid, got.body["version"])

    def retry(self) -> None:
        if not self.last:
            return
        seat = self.rng.choice(sorted(self.last))
        cmd, cid, version = self.last[seat]
        kind = self.rng.choice(["same", "other-body", "other-id"])
        cur = self.svc.current(self.gid)
        if kind == "same":  # the first answer again, nothing stored
            got = self._try("retry", seat, self.svc.command, self.gid, self.tokens[seat],
                            CommandRequest(command=cmd, expected_version=cur.version, command_id=cid))
            assert got is not None and got.body["version"] == version, (self.cfg.name, "retry", got and got.body)
            assert self.svc.current(self.gid).version == cur.version, "a retry stored something"
        elif kind == "other-body":
            others = [c for c in self.legal(seat) if c != cmd] if seat in cur.status.to_act else []
            if others:
                got = self._try("retry", seat, self.svc.command, self.gid, self.tokens[seat],
                                CommandRequest(command=others[0], expected_version=cur.version, command_id=cid))
                assert got is None, "a command_id reused for another body was accepted"
        else:
            self._try("retry", seat, self.svc.command, self.gid, self.tokens[seat],
                      CommandRequest(command=cmd, expected_version=cur.version, command_id=uuid.uuid4().hex))

    def run_bots(self, limit: int = 40) -> bool:
        """The bot seats' decisions, as the service's worker takes them (next_job, by_rule, bot_decision)."""
        for _ in range(limit):
            job = next_job(self.svc, self.gid)
            if job is None:
                break
            self._count(f"bot_{job.kind}")
            if job.kind in ("ready", "undo"):
                command, note = by_rule(job)
            else:
                decision = bot_decision(job)
                command = self.svc.decode_command(ruleset_for(job.seat_input.ruleset), decision.command)
                note = note_of(job.spec, decision.explanation)
            self.svc.run(self.gid, job.seat, command, expected_version=job.version, note=note)
        return not self.svc.current(self.gid).finished


KERNEL_EVENTS = frozenset({"game_created", "seat_ready", "undo_requested", "undo_accepted", "undo_declined",
                           "undo_lapsed", "undone"})


def run(svc: GameService, cfg: Config, seed: int, *, sequences: int, steps: int) -> Tally:
    """``sequences`` games of ``cfg``, ``steps`` random steps each, both invariants checked after every step."""
    total = Tally()
    t0 = time.perf_counter()
    for i in range(sequences):
        rng = random.Random(f"{cfg.name}:{seed}:{i}")
        # a fixed game id (the dice depend on it): a failing sequence replays the same game
        gid = f"fair-{cfg.name}-{seed}-{i}-{rng.getrandbits(32):08x}"
        keep = game_service.new_game_id
        game_service.new_game_id = lambda: gid
        try:
            seq = Sequence(svc, cfg, rng)
        finally:
            game_service.new_game_id = keep
        seq.check()
        for _ in range(steps):
            going = seq.step()
            seq.check()
            if not going:
                break
        total.add(seq.tally)
    total.seconds = time.perf_counter() - t0
    return total


__all__ = ["Breach", "CONFIGS", "Config", "Sequence", "Tally", "oracle_sides", "run", "values_of"]
