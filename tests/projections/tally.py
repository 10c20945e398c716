"""A test-only ruleset ("tally") and a scripted-game writer for the projection tests.

Games of any length: seats score points, draw cards privately (the card is a
private field, visible to the drawer only), play them, end turns; a game may
be won. The writer appends a seeded, deterministic script of commands to a
real event store, with the kernel's undo events mixed in (``Undone`` ranges
inside the current turn, undo requests and refusals), the way the service
would (one append per command, ``turn`` stored on every event).

Rule ids (``TALLY-*``) are this test ruleset's own.
"""
from __future__ import annotations

import hashlib
import random
from typing import Any, ClassVar

import msgspec

from domain.kernel import (
    ACTIVE,
    FINISHED,
    Choice,
    Command,
    Dice,
    Emitted,
    Event,
    RuleViolation,
    Setup,
    Status,
    UndoDeclined,
    Undone,
    UndoRequested,
    event_type_name,
    registry,
)
from service.store import EventStore, NewEvent, token_hash

SEATS = ("blue", "red")
NOBODY = "umpire"


class Scored(Event, tag="scored"):
    seat: str
    points: int


class Drew(Event, tag="drew"):
    private: ClassVar[frozenset[str]] = frozenset({"card"})
    seat: str
    card: str = ""


class Played(Event, tag="played"):
    seat: str
    card: str


class TurnEnded(Event, tag="turn_ended"):
    seat: str
    next_seat: str


class Won(Event, tag="won"):
    seat: str


TallyEvent = Scored | Drew | Played | TurnEnded | Won


class Noop(Command, tag="noop"):
    pass


class TallyState(msgspec.Struct, frozen=True, kw_only=True):
    active: str = SEATS[0]
    turn: int = 1
    scores: dict[str, int] = {}
    hands: dict[str, tuple[str, ...]] = {}
    played: int = 0
    steps: int = 0
    winner: str | None = None


def _with(d: dict[str, Any], k: str, v: Any) -> dict[str, Any]:
    out = dict(d)
    out[k] = v
    return out


class TallyRuleset:
    id: ClassVar[str] = "tally"
    engine_version: ClassVar[str] = "tally-1"
    command_type: ClassVar[Any] = Noop
    event_type: ClassVar[Any] = TallyEvent
    state_type: ClassVar[Any] = TallyState

    def scenarios(self) -> list[Choice]:
        return [Choice(id="duel", title="A duel of tallies")]

    def rules_reference(self) -> str:
        """The tally's rules reference (kernel protocol)."""
        return "* **TALLY-CMD-1 (No commands).** The tally ruleset takes no command: tests drive it with scripts.\n"

    def campaigns(self) -> list[Choice]:
        return []

    def seats(self, scenario: str, options: dict[str, Any]) -> tuple[str, ...]:
        return SEATS

    def initial_state(self, setup: Setup) -> TallyState:
        return TallyState(scores={s: 0 for s in setup.seats}, hands={s: () for s in setup.seats})

    def open(self, state: TallyState, dice: Dice) -> list[Emitted]:
        return []

    def decide(self, state: TallyState, seat: str, command: Command, dice: Dice) -> list[Emitted]:
        raise RuleViolation("TALLY-CMD-1", "the tally ruleset is driven by scripts in tests")

    def evolve(self, state: TallyState, event: Event) -> TallyState:
        r = msgspec.structs.replace
        s = r(state, steps=state.steps + 1)
        if isinstance(event, Scored):
            return r(s, scores=_with(s.scores, event.seat, s.scores.get(event.seat, 0) + event.points))
        if isinstance(event, Drew):
            return r(s, hands=_with(s.hands, event.seat, s.hands.get(event.seat, ()) + (event.card,)))
        if isinstance(event, Played):
            hand = list(s.hands.get(event.seat, ()))
            if event.card in hand:
                hand.remove(event.card)
            return r(s, hands=_with(s.hands, event.seat, tuple(hand)), played=s.played + 1)
        if isinstance(event, TurnEnded):
            return r(s, active=event.next_seat, turn=s.turn + 1)
        if isinstance(event, Won):
            return r(s, winner=event.seat)
        return s

    def legal_commands(self, state: TallyState, seat: str) -> list[Command]:
        return []

    def view(self, state: TallyState, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
        over = state.winner is not None or reveal_all
        out: dict[str, Any] = {
            "active": state.active,
            "turn": state.turn,
            "scores": dict(state.scores),
            "hand_sizes": {s: len(h) for s, h in state.hands.items()},
            "played": state.played,
            "steps": state.steps,
        }
        if over:
            out["hands"] = {s: list(h) for s, h in state.hands.items()}
        elif seat is not None and seat in state.hands:
            out["hand"] = list(state.hands[seat])
        return out

    def status(self, state: TallyState) -> Status:
        if state.winner is not None:
            return Status(status=FINISHED, winner=state.winner, turn=state.turn, turn_seat=state.active)
        return Status(status=ACTIVE, to_act=(state.active,), turn=state.turn, turn_seat=state.active)

    def summary(self, event: Event) -> str:
        if isinstance(event, Scored):
            return f"{event.seat} scores {event.points}"
        if isinstance(event, Drew):
            return f"{event.seat} draws a card"
        if isinstance(event, Played):
            return f"{event.seat} plays {event.card}"
        if isinstance(event, TurnEnded):
            return f"{event.seat} ends the turn"
        if isinstance(event, Won):
            return f"{event.seat} wins"
        return type(event).__name__

    def render_svg(self, state: TallyState, seat: str | None, recent: list[Event]) -> str:
        return '<svg xmlns="http://www.w3.org/2000/svg"/>'


RULESET = TallyRuleset()
registry.register(RULESET)

_SEED = bytes(range(32))


def create_game(store: EventStore, game_id: str, *, created_at_hint: int = 0) -> None:
    setup = Setup(game_id=game_id, ruleset="tally", scenario="duel", seats=SEATS)
    store.create_game(
        game_id=game_id, ruleset="tally", scenario="duel", setup=msgspec.json.encode(setup).decode(),
        seed=_SEED, seed_commitment=hashlib.sha256(_SEED).hexdigest(),
        token_hashes={s: token_hash(f"{game_id}-{s}-token") for s in SEATS},
    )


def _new(event: Event, *, actor: str, turn: int, visibility: str = "public") -> NewEvent:
    return NewEvent(type=event_type_name(event), payload=msgspec.json.encode(event).decode(), actor=actor,
                    visibility=visibility, turn=turn, engine_version=RULESET.engine_version)


class Script:
    """A seeded writer of commands for one tally game (the service's role in these tests)."""

    def __init__(self, store: EventStore, game_id: str, seed: int, *, undo_rate: float = 0.08):
        self.store = store
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.undo_rate = undo_rate
        self.version = store.version(game_id)
        self.active = SEATS[0]
        self.turn = 1
        self.turn_start = self.version + 1  # first seq of the current turn
        self.cards = 0
        self.finished = False
        self._buffer: list[NewEvent] | None = None

    def command(self) -> list[int]:
        """Append one command's events (1 to 3); return their seqs."""
        if self.finished:
            raise RuntimeError("the game is over")
        rng, seat = self.rng, self.active
        roll = rng.random()
        evs: list[NewEvent]
        status = winner = None
        undoable = self.version >= self.turn_start
        if undoable and roll < self.undo_rate:
            first = rng.randint(self.turn_start, self.version)
            evs = [_new(Undone(by=seat, first=first, last=self.version), actor=seat, turn=self.turn)]
        elif roll < self.undo_rate + 0.02:
            other = SEATS[1] if seat == SEATS[0] else SEATS[0]
            to = max(0, self.version - 3)
            evs = [_new(UndoRequested(by=seat, to_version=to), actor=seat, turn=self.turn),
                   _new(UndoDeclined(by=other, to_version=to), actor=other, turn=self.turn)]
        elif roll < 0.40:
            evs = [_new(Scored(seat=seat, points=rng.randint(1, 6)), actor=seat, turn=self.turn)]
        elif roll < 0.60:
            self.cards += 1
            card = f"{seat[0].upper()}{self.cards}"
            evs = [_new(Drew(seat=seat, card=card), actor=seat, turn=self.turn, visibility=seat)]
        elif roll < 0.75:
            card = f"{seat[0].upper()}{rng.randint(1, max(self.cards, 1))}"
            evs = [_new(Played(seat=seat, card=card), actor=seat, turn=self.turn),
                   _new(Scored(seat=seat, points=1), actor=seat, turn=self.turn)]
        else:
            nxt = SEATS[1] if seat == SEATS[0] else SEATS[0]
            self.turn += 1
            evs = [_new(TurnEnded(seat=seat, next_seat=nxt), actor=seat, turn=self.turn)]
            self.active = nxt
        first = self.version + 1
        if self._buffer is not None:
            self._buffer += evs
            self.version += len(evs)
        else:
            res = self.store.append(self.game_id, self.version, evs, status=status, winner=winner)
            self.version = res.version
        if evs[-1].type == "turn_ended":
            self.turn_start = self.version + 1
        return list(range(first, self.version + 1))

    def win(self) -> list[int]:
        seat = self.active
        ev = _new(Won(seat=seat), actor=seat, turn=self.turn)
        res = self.store.append(self.game_id, self.version, [ev], status=FINISHED, winner=seat)
        self.version = res.version
        self.finished = True
        return [res.last_seq]

    def play(self, events: int, *, per_append: int = 1) -> None:
        """Commands until the game has at least ``events`` events.

        ``per_append`` > 1 stores that many commands' events per transaction
        (the same events, fewer fsyncs: for long games in tests).
        """
        while self.version < events:
            if per_append > 1:
                start = self.version
                self._buffer = []
                for _ in range(per_append):
                    self.command()
                buf, self._buffer = self._buffer, None
                self.store.append(self.game_id, start, buf)
            else:
                self.command()


def new_game(store: EventStore, game_id: str, seed: int, events: int = 0, *, win: bool = False,
             per_append: int = 1) -> Script:
    create_game(store, game_id)
    s = Script(store, game_id, seed)
    s.play(events, per_append=per_append)
    if win:
        s.win()
    return s
