"""The Emperor ruleset: Battlecrest's "Emperor" solo mode as a decider on the kernel (DESIGN 1,
domain/kernel/decider.py; rules: ``rules.md`` in this package).

One seat, ``human``. The Emperor is not a seat: when the human's turn ends (and when the Emperor
must react, e.g. its defense) ``decide`` runs the automaton (``automaton/``) to the next human
decision and emits its choices as events (reveals: undo across them needs consent, which a
one-seat game cannot give -- UMPIRE-UNDO-6). Its only draws are order-deck shuffles on the kernel's
``automaton`` stream. The order deck's order has visibility ``umpire`` (nobody) until the end.
"""
from __future__ import annotations

from typing import Any, ClassVar

from domain.kernel.messages import Message, joined, msg
from domain.kernel import (
    ACTIVE, FINISHED, Choice, Dice, Emitted, NotYourDecision, RuleViolation, RulingBuilder, Setup, SetupError, Status,
)

from domain.kernel.choices import RuleChoice, in_force

from . import commands as C
from .choices import CHOICES
from . import human, labels, orders, text
from .content import Catalog
from .events import EmperorEvent, GameOpened
from .evolve import evolve as _evolve
from .outbox import Outbox
from .picture import render
from .state import EMPEROR, HELPER, HERO, HUMAN, EmperorState, Warrior
from .view import PRINTED, summarize, view_of
from .faces import check_rolls

ENGINE_VERSION = "emperor-0.1.0"


def _with(helper: Any, cell: str | None) -> "str | Message":
    """`` with Hound on B1``: a hero's helper and its starting cell (BASE-SETUP-1), or nothing."""
    return msg(" with {warrior} on {cell}", warrior=helper.name, cell=cell) if helper else ""


def _warrior(w: Warrior) -> Message:
    """``Hound health 4, movement 2, defense 2``: a warrior's printed values (BASE-WAR-1)."""
    defense = msg(", defense {defense}", defense=w.defense) if w.kind == HELPER else ""
    return msg("{warrior} health {health}, movement {movement}{defense}", warrior=w.name, health=w.health,
               movement=w.movement, defense=defense)


def _on_cells(things: Any) -> "str | Message":
    """``L1 Old Road on B2, ...``: locations or hazards with their cells (BASE-LOC-1), or ``none``."""
    return joined([msg("{id} {name} on {cell}", id=t.id, name=t.name, cell=t.cell) for t in things], ", ") or msg("none")


class EmperorRuleset:
    id: ClassVar[str] = "emperor"
    #: The printed title people know the game by (Battlecrest's solo mode against the Emperor).
    title: ClassVar[str] = "Battlecrest: the Emperor (solo)"
    engine_version: ClassVar[str] = ENGINE_VERSION
    command_type: ClassVar[Any] = C.EmperorCommand
    event_type: ClassVar[Any] = EmperorEvent
    state_type: ClassVar[Any] = EmperorState

    def __init__(self, catalog: Catalog | None = None):
        self._catalog = catalog
        self._load_content: Any = None

    # -- content (handed in by the registry) ----------------------------------------------
    def use_content(self, load: Any) -> None:
        """Kernel protocol: ``load()`` returns the shipped catalog (called once, when first needed)."""
        self._load_content = load

    def catalog(self) -> Catalog:
        if self._catalog is None:
            if self._load_content is None:
                raise RuntimeError("emperor has no content: pass a catalog, or let a composition root hand it in "
                                   "(scenarios.content.hand_to_rulesets)")
            self._catalog = self._load_content()
        return self._catalog

    def scenarios(self) -> list[Choice]:
        return [Choice(id=s.id, title=s.title) for s in self.catalog().setups.values()]

    def campaigns(self) -> list[Choice]:
        return []

    def seats(self, scenario: str, options: dict[str, Any]) -> tuple[str, ...]:
        if scenario not in self.catalog().setups:
            known = ", ".join(sorted(self.catalog().setups))
            raise SetupError("scenario", f"unknown Emperor setup {scenario!r} (known: {known})")
        if options:
            raise SetupError(f"options.{sorted(options)[0]}", "the Emperor setups take no options")
        return (HUMAN,)

    def rule_choices(self) -> tuple[RuleChoice, ...]:
        """DESIGN 14: the questions the original leaves open (domain/emperor/choices.py, rules.md)."""
        return CHOICES

    def initial_state(self, setup: Setup) -> EmperorState:
        return EmperorState(game_id=setup.game_id, scenario_id=setup.scenario, seats=tuple(setup.seats),
                            choices=in_force(CHOICES, setup.choices))

    # -- opening -------------------------------------------------------------------------
    def open(self, state: EmperorState, dice: Dice) -> list[Emitted]:
        cat = self.catalog()
        su = cat.setups.get(state.scenario_id)
        if su is None:
            raise SetupError("scenario", f"unknown Emperor setup {state.scenario_id!r}")
        bf = cat.battlefields[su.battlefield]
        deck = cat.decks[su.order_deck]
        hero_h, hero_e = cat.heroes[su.human.hero], cat.heroes[su.emperor.hero]
        warriors = []
        for side, pl, hero in ((HUMAN, su.human, hero_h), (EMPEROR, su.emperor, hero_e)):
            warriors.append(Warrior(id=hero.id, name=hero.name, side=side, kind=HERO, cell=pl.cell,
                                    health=hero.health, movement=hero.movement))
            if hero.helper is not None and pl.helper_cell:
                hp = hero.helper
                warriors.append(Warrior(id=hp.id, name=hp.name, side=side, kind=HELPER, cell=pl.helper_cell,
                                        health=hp.health, movement=hp.movement, defense=hp.defense))
        out = Outbox(state, dice)
        rb = RulingBuilder().add(
            "BASE-SETUP-1", msg("{title}: every location face up. You play {hero} on {cell}{helper}; the Emperor "
                                "plays {enemy} on {enemy_cell}{enemy_helper}.", title=bf.title, hero=hero_h.name,
                                cell=su.human.cell, enemy=hero_e.name, enemy_cell=su.emperor.cell,
                                helper=_with(hero_h.helper, su.human.helper_cell),
                                enemy_helper=_with(hero_e.helper, su.emperor.helper_cell)),
            setup=su.id, battlefield=bf.id).add(
            "SOLO-GAME-3", msg("The Emperor uses its order deck ({id}), {hero_e_name}'s solo card and "
                               "{hero_e_name}'s action cards.", id=deck.id, hero_e_name=hero_e.name)).add(
            "BASE-GRID-1", msg("A {columns}x{rows} grid, columns A.. west to east, rows 1.. south (your edge) to "
                               "north (the Emperor's edge).", columns=bf.columns, rows=bf.rows)).add(
            "BASE-LOC-1", msg("Locations: {locations}; hazards: {hazards}.",
                              locations=_on_cells(bf.locations), hazards=_on_cells(bf.hazards))).add(
            "BASE-WAR-1", msg("{text}.", text=joined([_warrior(w) for w in warriors], "; ")))
        out.emit(GameOpened(setup=su.id, title=su.title, battlefield=bf, human=hero_h, emperor=hero_e,
                            solo=cat.solo[hero_e.id], orders=deck.cards, card_policy=deck.card_policy,
                            warriors=tuple(warriors)), rb, summary=msg("{title}: set up", title=su.title))
        orders.open_deck(out, tuple(c.id for c in deck.cards))
        human.start_human_turn(out)  # BASE-SETUP-1 step 5: the human takes the first turn
        return out.items

    # -- decisions -----------------------------------------------------------------------
    def decide(self, state: EmperorState, seat: str, command: Any, dice: Dice) -> list[Emitted]:
        if not state.opened:
            raise RuleViolation("BASE-SETUP-1", msg("The game has not been set up yet."))
        if state.winner is not None:
            raise RuleViolation("SOLO-GAME-2", msg("The game is over: {side} won.", side=labels.SEAT_NAMES.get(state.winner, state.winner)))
        if seat != HUMAN:
            raise NotYourDecision(msg("{seat} is not a seat of this game; the Emperor decides inside the engine.",
                                      seat=repr(seat)))
        out = Outbox(state, dice)
        human.handle(out, command)
        human.settle(out)
        return out.items

    def evolve(self, state: EmperorState, event: Any) -> EmperorState:
        return _evolve(state, event)

    # -- queries -------------------------------------------------------------------------
    def status(self, state: EmperorState) -> Status:
        turn_seat = HUMAN if state.turn is not None and state.turn.side == HUMAN else None
        if state.winner is not None:
            return Status(status=FINISHED, to_act=(), winner=state.winner, turn=state.turn_no, turn_seat=turn_seat)
        to_act = (HUMAN,) if state.opened and state.turn is not None else ()
        return Status(status=ACTIVE, to_act=to_act, turn=state.turn_no, turn_seat=turn_seat)

    def legal_commands(self, state: EmperorState, seat: str) -> list[Any]:
        if seat != HUMAN:
            return []
        return human.options(state)

    #: the printed words of its content in a view (domain/kernel/printed.py)
    printed_paths: ClassVar[Any] = PRINTED

    def view(self, state: EmperorState, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
        return view_of(state, seat, reveal_all)

    def summary(self, event: Any) -> str:
        return summarize(event)

    def render_svg(self, state: EmperorState, seat: str | None, recent: list[Any], say: Any = None) -> str:
        """Kernel protocol; ``say`` (optional): writes a message in the reader's language (issue 28)."""
        return render(state, seat, recent) if say is None else render(state, seat, recent, say)

    # -- words for people (kernel protocol, optional: domain/kernel/words.py) --------------
    automaton_title: ClassVar[Any] = labels.AUTOMATON_TITLE  # a message (issue 28)
    automaton_side: ClassVar[str] = EMPEROR  # its summaries pass the side's name as ``{emperor}``: said once

    def describe(self, state: EmperorState, seat: str, command: Any) -> dict[str, Any]:
        return labels.describe(state, seat, command)

    def names(self, state: EmperorState) -> dict[str, str]:
        return labels.names(state)

    def acted_by(self, event: Any) -> str | None:
        return labels.acted_by(event)

    def seat_names(self) -> "dict[str, Any]":
        return labels.SEAT_NAMES

    def render_text(self, state: EmperorState, seat: str | None) -> "str | Message":
        return text.render_state(state, seat)

    # -- verification (kernel protocol, optional) ----------------------------------------
    def check_rolls(self, event: Any, rolls: Any) -> str | None:
        """The order deck's shuffles are the draws they record (domain/emperor/faces.py)."""
        return check_rolls(event, rolls)


RULESET = EmperorRuleset()
