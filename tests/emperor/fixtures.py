"""Arranged positions for the rule tests: the rules' section 6 model (BF-FELLWOODS, Warden, Vesper,
ORD-BASE) with warriors, order cards, flips and exhausted cards put where a test vector wants them,
and the automaton's parts run on them."""
from __future__ import annotations

from typing import Any

from domain.emperor.automaton import moves, turn
from domain.emperor.content import Ability
from domain.emperor.outbox import Outbox
from domain.emperor.state import EMPEROR, HUMAN, Work

from .play import Game, ruleset

WARDEN_VS_VESPER = "SETUP-WARDEN-VS-VESPER"
VESPER_VS_WARDEN = "SETUP-VESPER-VS-WARDEN"


def game(setup: str = WARDEN_VS_VESPER) -> Game:
    return Game(ruleset(), setup)


def emperor_game(current: str = "O1", setup: str = WARDEN_VS_VESPER, **cells: str | None) -> Game:
    """The Emperor's turn with ``current`` as the current order card and warriors on ``cells``."""
    g = game(setup).emperor_turn_state().order(current)
    return g.place(**cells) if cells else g


def run(g: Game, fn: Any, *args: Any) -> list[Any]:
    """Run ``fn(out, *args)`` as the automaton does and fold what it emits into ``g``."""
    out = Outbox(g.state, g.dice())
    with out.automaton():
        fn(out, *args)
    assert not out.dice.untaken()
    g._apply(out.items)
    return out.items


def move(g: Game, warrior: str, value: int | None = None) -> list[Any]:
    """SOLO-MOVE for one Emperor warrior (the base move, or a movement ability of ``value``)."""
    return run(g, moves.do_move, warrior, value, "base move" if value is None else "MARCH")


def ability(g: Game, a: Ability, source: str = "test") -> list[Any]:
    """Resolve one Emperor ability (and what follows from it) through the automaton's agenda."""
    return run(g, turn.run, [Work(kind="ability", ability=a, source=source)])


def card_ability(g: Game, card: str, index: int = 0) -> Ability:
    return g.state.card(card).abilities[index]


def star_ability(g: Game, name: str, side: str = EMPEROR) -> Ability:
    return next(s.ability for s in g.state.heroes[side].stars if s.name == name)


def one(items: list[Any], kind: type) -> Any:
    found = [e.event for e in items if isinstance(e.event, kind)]
    assert len(found) == 1, (kind.__name__, [type(e.event).__name__ for e in items])
    return found[0]


def all_of(items: list[Any], kind: type) -> list[Any]:
    return [e.event for e in items if isinstance(e.event, kind)]


def ruling_of(items: list[Any], kind: type) -> Any:
    found = [e.ruling for e in items if isinstance(e.event, kind)]
    assert found, kind.__name__
    return found[0]


def rules(items: list[Any]) -> set[str]:
    return {r for e in items if e.ruling for r in e.ruling.rules()}


__all__ = ["EMPEROR", "HUMAN", "game", "emperor_game", "run", "move", "ability", "card_ability", "star_ability",
           "one", "all_of", "ruling_of", "rules", "WARDEN_VS_VESPER", "VESPER_VS_WARDEN"]
