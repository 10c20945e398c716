"""The decider protocol every ruleset implements (DESIGN section 1).

A ruleset is pure: no clock, no I/O, no global random. The service folds the
stored events with ``evolve`` to get the state, asks ``decide`` for the
events a command produces (raising :class:`~domain.kernel.rulings.RuleViolation`
for an illegal one), appends them, and answers queries with ``view``.
"""
from __future__ import annotations

from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

import msgspec

from .dice import Dice
from .envelope import Command, Emitted, Event
from .messages import Message, message_of, text_of

S = TypeVar("S")

ACTIVE = "active"
FINISHED = "finished"


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """What a game is created from. ``seats`` come from ``Ruleset.seats``."""

    game_id: str
    ruleset: str
    scenario: str
    seats: tuple[str, ...]
    options: dict[str, Any] = {}
    #: The rule choices in force (DESIGN 14, domain/kernel/choices.py): every declared choice with its
    #: option; empty for a game stored before choices existed (it folds under each choice's recorded reading).
    choices: dict[str, str] = {}


class Status(msgspec.Struct, frozen=True, kw_only=True):
    status: str = ACTIVE  # "active" | "finished"
    #: Seats whose decision it is now (usually one; pending decisions of the
    #: other seat, such as a retreat path, put that seat here).
    to_act: tuple[str, ...] = ()
    winner: str | None = None
    #: Turn counter: changes exactly at turn boundaries (undo scope, snapshots).
    turn: int = 0
    #: The seat whose turn it is (for undo: "its own commands of the current turn").
    turn_seat: str | None = None


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    title: str


class SetupError(ValueError):
    """Bad ``POST /games`` input (unknown scenario, bad option); names the field."""

    def __init__(self, field: str, detail: str | Message):
        """``detail``: a message (issue 28: rendered in the reader's language) or an English sentence."""
        super().__init__(f"{field}: {text_of(detail)}")
        self.field = field
        self.detail = text_of(detail)
        self.message = message_of(detail)


@runtime_checkable
class Ruleset(Protocol, Generic[S]):
    id: ClassVar[str]
    #: Written into every event; a rule change bumps it.
    engine_version: ClassVar[str]
    #: Tagged unions of the ruleset's Command and Event subclasses, and the state type.
    command_type: ClassVar[Any]
    event_type: ClassVar[Any]
    state_type: ClassVar[Any]

    def scenarios(self) -> list[Choice]: ...

    def campaigns(self) -> list[Choice]: ...

    def seats(self, scenario: str, options: dict[str, Any]) -> tuple[str, ...]:
        """Seats of a new game; raises SetupError for an unknown scenario or option."""
        ...

    def initial_state(self, setup: Setup) -> S: ...

    def open(self, state: S, dice: Dice) -> list[Emitted]:
        """The events that open the game (board set up, decks shuffled, hands dealt)."""
        ...

    def decide(self, state: S, seat: str, command: Command, dice: Dice) -> list[Emitted]:
        """Events the command produces; raises RuleViolation / NotYourDecision."""
        ...

    def evolve(self, state: S, event: Event) -> S: ...

    def legal_commands(self, state: S, seat: str) -> list[Command]:
        """Every legal command of ``seat`` now, complete; each can be posted back as is."""
        ...

    def view(self, state: S, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, as JSON builtins.

        A seat sees its own hand, only the size of other hands, never a deck
        order or the seed. Once the game is finished everything is public.

        ``reveal_all=True`` shows everything, as for a finished game: the service
        passes it when it shows an earlier state (a replay) of a game that has
        finished since, so replays are public too (DESIGN 4).
        """
        ...

    def status(self, state: S) -> Status: ...

    def summary(self, event: Event) -> str:
        """One line for the timeline."""
        ...

    def render_svg(self, state: S, seat: str | None, recent: list[Event]) -> str:
        """A picture of the board (``recent``: the events of the last step). A ruleset whose picture's words are
        messages also takes ``say`` (a keyword): it writes a message in the reader's language, and a plain string
        as a printed name (a unit's, a card's) as the reader's rulebook prints it (issue 28); English by default
        (``domain.kernel.messages.text_of``)."""
        ...

    # Optional: ``rules_reference() -> str``, the Markdown text behind the ruleset's rule ids (DESIGN 8).
    # Without it the registry reads ``rules.md`` beside the package that defines the ruleset
    # (``domain/<r>/rules.md``); see domain/kernel/rules.py for the format.
    #
    # Optional: ``options_schema() -> dict``, the JSON schema of ``POST /games`` ``options`` for this
    # ruleset (an object schema whose properties carry descriptions); ``GET /rulesets`` and the OpenAPI
    # document show it. Without it the ruleset takes no options.
    #
    # Optional: ``rule_choices() -> tuple[RuleChoice, ...]`` (domain/kernel/choices.py, DESIGN 14): the questions
    # the originals leave open. The state reads the choices in force from ``Setup.choices`` through
    # ``choices.in_force`` (which fills in the recorded reading for a game stored before a choice existed).
    #
    # Optional: ``render_text(state, seat) -> str | Message``, the board as text for ``umpire replay`` (a message:
    # rendered in the reader's language).
    #
    # Optional: ``check_rolls(event, rolls) -> str | None``. Verification (DESIGN 3) asks it, for
    # every event with draws of a finished game, whether the faces the event records follow from the
    # values of its draws (None: they do; else a sentence). A ruleset whose events record faces
    # (dice symbols, card names drawn by a roll) should offer it; the kernel checks the values and
    # that every index of every stream is used once, in order, in any case.
    #
    # Optional: ``use_content(load)``. A ruleset whose scenarios are data has its content handed
    # in through the registry (``load()`` returns it): a composition root gives the registry its
    # source of content (``registry.provide_content``; scenarios/content.py). The domain never
    # imports ``scenarios/``.
    #
    # Optional: words for people (DESIGN 12; see domain/kernel/words.py): ``describe(state, seat, command)
    # -> {"label", "warning"}`` for each legal command, ``describe_template(state, seat, template)``,
    # ``names(state) -> {id: printed name}`` for summaries and rulings, ``acted_by(event) ->
    # "automaton" | "referee" | None`` and ``automaton_title`` (who did a step).
    #
    # Optional: ``command_templates(state, seat) -> list[dict]`` for continuous commands (a move by
    # any distance and angle, a point on a table). Each template is ``{"command": {<the fixed
    # fields, with "type">}, "bounds": {<free field>: <its range>}, "example": <a legal command>,
    # "rules": [ids]}``; ``legal_commands`` still lists one concrete legal example of each. Any
    # value inside the bounds is accepted or refused with a RuleViolation naming the rule (never an
    # exception). ``GET /games/{id}/legal-commands`` adds ``"templates"`` when a ruleset has it.
    #
    # Dry runs (``POST /games/{id}/commands?dry_run=true``) work for every ruleset: the service
    # calls ``decide`` with ``Dice(dry=True)``, which raises ``DryRunStop`` at the first draw, and
    # stores nothing. So a ruleset MUST make every legality check of a command before its first
    # draw (then "no RuleViolation before the first draw" means "legal"). A ruleset that wants
    # the dry run to show what it measured passes its list of emitted events to
    # ``dice.track(list)`` at the start of ``decide``; the service answers with those events up
    # to the first draw or the first revealing event (``Emitted.reveals``), as that seat would
    # see them, and says where it stopped (``"draw"``, ``"reveal"`` or null). No value is ever
    # drawn in a dry run, and nothing revealing is shown, so it cannot tell a future die or a
    # hidden card.
