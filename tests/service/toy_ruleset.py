"""A small but real ruleset for the service tests ("toy").

Two seats (``north``, ``south``), each with a private deck of uniquely
prefixed cards (``N1``..``N8``, ``S1``..``S8``) shuffled at the start and a
hidden hand of three. On its turn the active seat may step its pawn (free,
reveals nothing), roll a d6 once (chance), throw a d6 once (chance, recorded in
two events: the throw, then its score -- like an attack's roll and resolution),
draw a card (reveals to the drawer only), play a card from hand (scores its
number), challenge (a roll; on 4+ the *other* seat must answer: a pending
decision of the other seat), and end its turn. First to ``TARGET`` points wins.

Rule ids (``TOY-*``) are the test ruleset's own.
"""
from __future__ import annotations

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
    NotYourDecision,
    RuleViolation,
    Ruling,
    RuleStep,
    Setup,
    SetupError,
    Status,
)

SEATS = ("north", "south")

TOY_RULES = """# Toy rules

* **TOY-TURN-1 (Turns).** The seats alternate turns, north first; a turn ends with end_turn.
* **TOY-STEP-1 (Step).** A step moves the pawn 1 or 2 spaces.
* **TOY-STEP-2 (Steps per turn).** At most 2 steps a turn.
* **TOY-ROLL-1 (Roll).** A roll scores the face of one d6.
* **TOY-ROLL-2 (One roll).** One roll a turn.
* **TOY-THROW-1 (Throw).** A throw rolls one d6 and scores its face (two events: the throw, then the score).
* **TOY-THROW-2 (One throw).** One throw a turn.
* **TOY-DRAW-1 (Draw).** Draw the top card of your own deck; only you see it.
* **TOY-DRAW-2 (Empty deck).** An empty deck cannot be drawn from.
* **TOY-PLAY-1 (Play).** Play a card from your hand: it scores its number.
* **TOY-CHAL-1 (Challenge).** A challenge rolls a d6; on 4 or more the other seat must answer.
* **TOY-CHAL-2 (Answer first).** While a challenge waits, only the challenged seat acts: it answers.
* **TOY-CHAL-3 (Nothing to answer).** There must be a challenge waiting to answer it.
* **TOY-CMD-1 (Commands).** Only the toy's commands are known.
* **TOY-WIN-1 (Winning).** The first seat to 15 points wins.
"""
TARGET = 15
HAND = 3
MAX_STEPS = 2
NOBODY = "umpire"  # visibility no seat matches: hidden until the game ends


def deck_of(seat: str) -> tuple[str, ...]:
    return tuple(f"{seat[0].upper()}{i}" for i in range(1, 9))


def card_value(card: str) -> int:
    return int(card[1:])


# -- commands -------------------------------------------------------------
class Step(Command, tag="step"):
    steps: int = 1


class RollDie(Command, tag="roll"):
    pass


class DrawCard(Command, tag="draw"):
    pass


class PlayCard(Command, tag="play"):
    card: str


class Challenge(Command, tag="challenge"):
    pass


class Throw(Command, tag="throw"):
    pass


class Answer(Command, tag="answer"):
    concede: bool


class EndTurn(Command, tag="end_turn"):
    pass


ToyCommand = Step | RollDie | DrawCard | PlayCard | Challenge | Answer | EndTurn | Throw


# -- events ---------------------------------------------------------------
class DeckShuffled(Event, tag="deck_shuffled"):
    private: ClassVar[frozenset[str]] = frozenset({"order"})
    seat: str
    size: int
    order: tuple[str, ...] = ()


class HandDealt(Event, tag="hand_dealt"):
    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: str
    count: int
    cards: tuple[str, ...] = ()


class Stepped(Event, tag="stepped"):
    seat: str
    position: int


class Rolled(Event, tag="rolled"):
    seat: str
    face: int


class CardDrawn(Event, tag="card_drawn"):
    private: ClassVar[frozenset[str]] = frozenset({"card"})
    seat: str
    card: str = ""


class CardPlayed(Event, tag="card_played"):
    seat: str
    card: str


class Challenged(Event, tag="challenged"):
    seat: str
    face: int
    pending: str | None


class Answered(Event, tag="answered"):
    seat: str
    concede: bool


class TurnEnded(Event, tag="turn_ended"):
    seat: str
    next_seat: str


class GameWon(Event, tag="game_won"):
    seat: str
    score: int


class DiceThrown(Event, tag="dice_thrown"):
    seat: str
    face: int


class ThrowScored(Event, tag="throw_scored"):
    seat: str
    face: int


ToyEvent = (DeckShuffled | HandDealt | Stepped | Rolled | CardDrawn | CardPlayed | Challenged | Answered | TurnEnded
            | GameWon | DiceThrown | ThrowScored)


class ToyState(msgspec.Struct, frozen=True, kw_only=True):
    active: str = "north"
    turn: int = 1
    positions: dict[str, int] = {}
    scores: dict[str, int] = {}
    hands: dict[str, tuple[str, ...]] = {}
    decks: dict[str, tuple[str, ...]] = {}
    steps: int = 0
    rolled: bool = False
    thrown: bool = False
    pending: str | None = None
    winner: str | None = None


def _other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def _with(d: dict[str, Any], k: str, v: Any) -> dict[str, Any]:
    out = dict(d)
    out[k] = v
    return out


class ToyRuleset:
    id: ClassVar[str] = "toy"
    engine_version: ClassVar[str] = "toy-1"
    command_type: ClassVar[Any] = ToyCommand
    event_type: ClassVar[Any] = ToyEvent
    state_type: ClassVar[Any] = ToyState

    def scenarios(self) -> list[Choice]:
        return [Choice(id="duel", title="A duel")]

    def rules_reference(self) -> str:
        """The toy's rules reference (kernel protocol; a real ruleset keeps it in ``rules.md``)."""
        return TOY_RULES

    def options_schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False, "properties": {
            "target": {"type": "integer", "minimum": 1, "maximum": 99,
                       "description": "Points that win (not used yet: the toy always plays to 15)."}}}

    def campaigns(self) -> list[Choice]:
        return []

    def seats(self, scenario: str, options: dict[str, Any]) -> tuple[str, ...]:
        if scenario != "duel":
            raise SetupError("scenario", f"unknown scenario {scenario!r}; known: duel")
        unknown = set(options) - {"target"}
        if unknown:
            raise SetupError("options", f"unknown option {sorted(unknown)[0]!r}")
        return SEATS

    def initial_state(self, setup: Setup) -> ToyState:
        return ToyState(
            positions={s: 0 for s in SEATS},
            scores={s: 0 for s in SEATS},
            hands={s: () for s in SEATS},
            decks={s: () for s in SEATS},
        )

    def open(self, state: ToyState, dice: Dice) -> list[Emitted]:
        out: list[Emitted] = []
        for seat in SEATS:
            order = tuple(dice.shuffle(deck_of(seat)))
            out.append(Emitted(event=DeckShuffled(seat=seat, size=len(order), order=order),
                               visibility=NOBODY, rolls=dice.take(), reveals=True))
        for seat in SEATS:
            # deal from the shuffled deck (the deck_shuffled events come first)
            idx = SEATS.index(seat)
            order = out[idx].event.order  # type: ignore[attr-defined]
            out.append(Emitted(event=HandDealt(seat=seat, count=HAND, cards=order[:HAND]),
                               visibility=seat, reveals=True))
        return out

    # -- decide ------------------------------------------------------
    def decide(self, state: ToyState, seat: str, command: Command, dice: Dice) -> list[Emitted]:
        if state.winner is not None:
            raise NotYourDecision("the game is over")
        if state.pending is not None:
            if seat != state.pending:
                raise NotYourDecision(f"{state.pending} must answer the challenge first", rule="TOY-CHAL-2")
            if not isinstance(command, Answer):
                raise RuleViolation("TOY-CHAL-2", "answer the challenge first")
            return [Emitted(event=Answered(seat=seat, concede=command.concede),
                            ruling=Ruling(summary="challenge answered", steps=(RuleStep(rule="TOY-CHAL-2", text="the challenged seat answers"),)))]
        if seat != state.active:
            raise NotYourDecision(f"it is {state.active}'s turn", rule="TOY-TURN-1")
        if isinstance(command, Step):
            if command.steps not in (1, 2):
                raise RuleViolation("TOY-STEP-1", "a step moves 1 or 2 spaces", steps=command.steps)
            if state.steps + command.steps > MAX_STEPS:
                raise RuleViolation("TOY-STEP-2", f"at most {MAX_STEPS} steps a turn")
            pos = state.positions[seat] + command.steps
            return [Emitted(event=Stepped(seat=seat, position=pos),
                            ruling=Ruling(summary=f"{seat} steps to {pos}", steps=(RuleStep(rule="TOY-STEP-1", text="step 1 or 2", values={"steps": command.steps}),)))]
        if isinstance(command, RollDie):
            if state.rolled:
                raise RuleViolation("TOY-ROLL-2", "one roll a turn")
            face = dice.value(6) + 1
            ev = [Emitted(event=Rolled(seat=seat, face=face), rolls=dice.take(),
                          ruling=Ruling(summary=f"{seat} rolls {face}", steps=(RuleStep(rule="TOY-ROLL-1", text="score the face", values={"face": face}),)))]
            return ev + self._win_check(state, seat, face)
        if isinstance(command, Throw):
            if state.thrown:
                raise RuleViolation("TOY-THROW-2", "one throw a turn")
            face = dice.value(6) + 1
            return [Emitted(event=DiceThrown(seat=seat, face=face), rolls=dice.take(),
                            ruling=Ruling(summary=f"{seat} throws {face}", steps=(RuleStep(rule="TOY-THROW-1", text="throw a die", values={"face": face}),))),
                    Emitted(event=ThrowScored(seat=seat, face=face),
                            ruling=Ruling(summary=f"{seat} scores {face}", steps=(RuleStep(rule="TOY-THROW-1", text="score the throw"),)))
                    ] + self._win_check(state, seat, face)
        if isinstance(command, DrawCard):
            deck = state.decks[seat]
            if not deck:
                raise RuleViolation("TOY-DRAW-2", "your deck is empty")
            return [Emitted(event=CardDrawn(seat=seat, card=deck[0]), visibility=seat, reveals=True,
                            ruling=Ruling(summary=f"{seat} draws a card", steps=(RuleStep(rule="TOY-DRAW-1", text="draw the top card"),)))]
        if isinstance(command, PlayCard):
            if command.card not in state.hands[seat]:
                raise RuleViolation("TOY-PLAY-1", f"card {command.card} is not in your hand")
            v = card_value(command.card)
            return [Emitted(event=CardPlayed(seat=seat, card=command.card),
                            ruling=Ruling(summary=f"{seat} plays {command.card}", steps=(RuleStep(rule="TOY-PLAY-1", text="score the card", values={"value": v}),)))] + self._win_check(state, seat, v)
        if isinstance(command, Challenge):
            face = dice.value(6) + 1
            pending = _other(seat) if face >= 4 else None
            return [Emitted(event=Challenged(seat=seat, face=face, pending=pending), rolls=dice.take(),
                            ruling=Ruling(summary=f"{seat} challenges: {face}", steps=(RuleStep(rule="TOY-CHAL-1", text="4+ forces an answer", values={"face": face}),)))]
        if isinstance(command, Answer):
            raise RuleViolation("TOY-CHAL-3", "there is no challenge to answer")
        if isinstance(command, EndTurn):
            return [Emitted(event=TurnEnded(seat=seat, next_seat=_other(seat)),
                            ruling=Ruling(summary="turn ends", steps=(RuleStep(rule="TOY-TURN-1", text="turns alternate"),)))]
        raise RuleViolation("TOY-CMD-1", "unknown command")  # pragma: no cover

    def _win_check(self, state: ToyState, seat: str, gain: int) -> list[Emitted]:
        score = state.scores[seat] + gain
        if score >= TARGET:
            return [Emitted(event=GameWon(seat=seat, score=score),
                            ruling=Ruling(summary=f"{seat} wins", steps=(RuleStep(rule="TOY-WIN-1", text=f"{TARGET} points win", values={"score": score}),)))]
        return []

    # -- evolve ------------------------------------------------------
    def evolve(self, state: ToyState, event: Event) -> ToyState:
        r = msgspec.structs.replace
        if isinstance(event, DeckShuffled):
            return r(state, decks=_with(state.decks, event.seat, event.order))
        if isinstance(event, HandDealt):
            deck = state.decks[event.seat]
            return r(state, hands=_with(state.hands, event.seat, event.cards), decks=_with(state.decks, event.seat, deck[event.count:]))
        if isinstance(event, Stepped):
            return r(state, positions=_with(state.positions, event.seat, event.position),
                     steps=state.steps + event.position - state.positions[event.seat])
        if isinstance(event, Rolled):
            return r(state, scores=_with(state.scores, event.seat, state.scores[event.seat] + event.face), rolled=True)
        if isinstance(event, CardDrawn):
            return r(state, hands=_with(state.hands, event.seat, state.hands[event.seat] + (event.card,)),
                     decks=_with(state.decks, event.seat, state.decks[event.seat][1:]))
        if isinstance(event, CardPlayed):
            hand = tuple(c for c in state.hands[event.seat] if c != event.card)
            return r(state, hands=_with(state.hands, event.seat, hand),
                     scores=_with(state.scores, event.seat, state.scores[event.seat] + card_value(event.card)))
        if isinstance(event, Challenged):
            return r(state, pending=event.pending)
        if isinstance(event, Answered):
            bonus = 1 if event.concede else 0
            other = _other(event.seat)
            return r(state, pending=None, scores=_with(state.scores, other, state.scores[other] + bonus))
        if isinstance(event, TurnEnded):
            return r(state, active=event.next_seat, turn=state.turn + 1, steps=0, rolled=False, thrown=False)
        if isinstance(event, ThrowScored):
            return r(state, scores=_with(state.scores, event.seat, state.scores[event.seat] + event.face), thrown=True)
        if isinstance(event, GameWon):
            return r(state, winner=event.seat)
        return state

    # -- queries -----------------------------------------------------
    def legal_commands(self, state: ToyState, seat: str) -> list[Command]:
        if state.winner is not None:
            return []
        if state.pending is not None:
            return [Answer(concede=True), Answer(concede=False)] if seat == state.pending else []
        if seat != state.active:
            return []
        out: list[Command] = []
        for n in (1, 2):
            if state.steps + n <= MAX_STEPS:
                out.append(Step(steps=n))
        if not state.rolled:
            out.append(RollDie())
        if not state.thrown:
            out.append(Throw())
        if state.decks[seat]:
            out.append(DrawCard())
        out += [PlayCard(card=c) for c in state.hands[seat]]
        out.append(Challenge())
        out.append(EndTurn())
        return out

    def view(self, state: ToyState, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
        over = state.winner is not None or reveal_all
        out: dict[str, Any] = {
            "active": state.active,
            "turn": state.turn,
            "positions": dict(state.positions),
            "scores": dict(state.scores),
            "hand_sizes": {s: len(h) for s, h in state.hands.items()},
            "deck_sizes": {s: len(d) for s, d in state.decks.items()},
            "pending": state.pending,
        }
        if over:
            out["hands"] = {s: list(h) for s, h in state.hands.items()}
            out["decks"] = {s: list(d) for s, d in state.decks.items()}
        elif seat is not None and seat in state.hands:
            out["hand"] = list(state.hands[seat])
        return out

    def status(self, state: ToyState) -> Status:
        if state.winner is not None:
            return Status(status=FINISHED, to_act=(), winner=state.winner, turn=state.turn, turn_seat=state.active)
        to_act = (state.pending,) if state.pending else (state.active,)
        return Status(status=ACTIVE, to_act=to_act, turn=state.turn, turn_seat=state.active)

    def summary(self, event: Event) -> str:
        if isinstance(event, DeckShuffled):
            return f"{event.seat}'s deck is shuffled"
        if isinstance(event, HandDealt):
            return f"{event.seat} is dealt {event.count} cards"
        if isinstance(event, Stepped):
            return f"{event.seat} steps to {event.position}"
        if isinstance(event, Rolled):
            return f"{event.seat} rolls {event.face}"
        if isinstance(event, CardDrawn):
            return f"{event.seat} draws a card"
        if isinstance(event, CardPlayed):
            return f"{event.seat} plays {event.card}"
        if isinstance(event, Challenged):
            return f"{event.seat} challenges ({event.face})"
        if isinstance(event, Answered):
            return f"{event.seat} {'concedes' if event.concede else 'stands'}"
        if isinstance(event, TurnEnded):
            return f"{event.seat} ends the turn"
        if isinstance(event, GameWon):
            return f"{event.seat} wins with {event.score}"
        if isinstance(event, DiceThrown):
            return f"{event.seat} throws {event.face}"
        if isinstance(event, ThrowScored):
            return f"{event.seat} scores the throw"
        return type(event).__name__

    def check_rolls(self, event: Event, rolls: Any) -> str | None:
        """Faces follow from values: a toy die shows its value + 1."""
        if isinstance(event, (Rolled, Challenged, DiceThrown)):
            if len(rolls) != 1 or rolls[0].sides != 6 or rolls[0].value + 1 != event.face:
                return f"{type(event).__name__} records face {event.face}, its draw gives {[r.value + 1 for r in rolls]}"
        return None

    def render_svg(self, state: ToyState, seat: str | None, recent: list[Event]) -> str:
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60" viewBox="0 0 240 60">']
        for i, s in enumerate(SEATS):
            x = 10 + 20 * state.positions.get(s, 0)
            parts.append(f'<circle cx="{x}" cy="{15 + 30 * i}" r="8"><title>{s}</title></circle>')
        parts.append(f'<text x="200" y="30">{len(recent)}</text></svg>')
        return "".join(parts)


RULESET = ToyRuleset()


def register() -> ToyRuleset:
    from domain.kernel import registry

    registry.register(RULESET)
    return RULESET
