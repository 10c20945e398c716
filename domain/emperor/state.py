"""The state of an Emperor game: the fold of its events (DESIGN 1). Frozen structs only.

The static part (battlefield, both heroes, the solo card, the order cards) arrives in the
``game_opened`` event, so folding never reads content files and a content change never rewrites a
stored game.
"""
from __future__ import annotations

import msgspec

from .content import Ability, ActionCard, Battlefield, Hero, OrderCard, SoloCard

#: The one seat (DESIGN 4). The Emperor is not a seat: it decides inside the engine.
HUMAN = "human"
EMPEROR = "emperor"
SIDES = (HUMAN, EMPEROR)
#: Visibility of events nobody may see until the game ends (the order deck's order).
NOBODY = "umpire"

HERO = "hero"
HELPER = "helper"


def other(side: str) -> str:
    return EMPEROR if side == HUMAN else HUMAN


class Warrior(msgspec.Struct, frozen=True, kw_only=True):
    """BASE-WAR-1: a hero or helper on the battlefield. ``cell`` is None once it died (BASE-WAR-2)."""

    id: str
    name: str
    side: str
    kind: str
    cell: str | None
    health: int
    wounds: int = 0
    movement: int
    #: A helper's fixed defense (BASE-DEF-1); heroes defend with cards.
    defense: int = 0

    @property
    def alive(self) -> bool:
        return self.cell is not None

    @property
    def left(self) -> int:
        return self.health - self.wounds


class Step(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One ability still to resolve in the human's activation (BASE-CARD-1: printed order)."""

    ability: Ability
    #: The warrior that performs it (the hero; the helper for HELPER_ATTACK).
    performer: str
    #: Where it comes from: a card id, a hero star ability name, or a location id.
    source: str
    #: A fixed target (the parts of an AREA push, one enemy each).
    target: str = ""


class Activation(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The human's card being resolved: the abilities left, first = the current one."""

    card: str
    queue: tuple[Step, ...] = ()
    #: The warrior the last attack of this card hit (SWAP, SOLO-FAQ-4).
    last_target: str = ""


class TurnInfo(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    side: str
    number: int
    #: BASE-TURN-1: the human's actions taken this turn, in order (two different ones at most).
    actions: tuple[str, ...] = ()
    #: The action under way ("MOVE" stays open while warriors are left to move).
    current: str = ""
    #: Warriors moved in this turn's MOVE action.
    moved: tuple[str, ...] = ()
    #: SOLO-STAR-4, BASE-STAR-1: star abilities used this turn.
    stars_used: tuple[str, ...] = ()
    #: SOLO-STAR-6, BASE-STAR-1: location abilities used this turn (location ids).
    location_abilities_used: tuple[str, ...] = ()
    #: SOLO-FALL-2: the fallback was used this turn.
    fallback_used: bool = False


class Work(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One item of the Emperor's agenda: what the automaton still has to do this turn.

    It lives in ``decide`` only, except when the automaton waits for the human's defense: then the
    rest of the agenda is written into the ``defense_requested`` event, so the turn resumes from the
    log without re-running anything (DESIGN 1).
    """

    kind: str  # "step", "move", "ability", "attack", "finish_card", "end_turn"
    step: str = ""
    index: int = 0
    warrior: str = ""
    card: str = ""
    ability: Ability | None = None
    source: str = ""
    target: str = ""
    value: int = 0
    #: How ``value`` was made (printed value, bonuses, crest) -- for the ruling.
    parts: dict[str, int] = {}


class Pending(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A decision the human must make inside the Emperor's turn: defend its hero (BASE-DEF-1)."""

    kind: str
    attacker: str
    target: str
    attack: int
    source: str
    #: The defense cards the human may activate and the locations whose DEFENSE it may use.
    cards: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    parts: dict[str, int] = {}
    resume: tuple[Work, ...] = ()


class MoveRecord(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The last Emperor move and the cells it considered (for the picture)."""

    warrior: str
    frm: str
    to: str
    path: tuple[str, ...] = ()
    possible: tuple[str, ...] = ()
    reachable: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    step: int = 0


class EmperorState(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    scenario_id: str
    seats: tuple[str, ...] = (HUMAN,)
    #: The rule choices in force (DESIGN 14, domain/emperor/choices.py), every one filled in.
    choices: dict[str, str] = {}
    opened: bool = False
    setup_title: str = ""
    battlefield: Battlefield | None = None
    #: side -> hero (content): its action row is ``cards`` in row order (SOLO-CARD-1).
    heroes: dict[str, Hero] = {}
    solo: SoloCard | None = None
    orders: dict[str, OrderCard] = {}
    card_policy: str = "compass_scan"
    warriors: dict[str, Warrior] = {}
    #: side -> exhausted card ids (BASE-CARD-1); every other card of the row is prepared.
    exhausted: dict[str, tuple[str, ...]] = {}
    #: location id -> the side that flipped it (BASE-LOC-3/4).
    flipped: dict[str, str] = {}
    #: side -> applied crest initiative (BASE-CREST-1), "" for none.
    crest: dict[str, str] = {}
    #: SOLO-ORD: the hidden deck (top first), the discard pile, the current order card.
    order_deck: tuple[str, ...] = ()
    order_discard: tuple[str, ...] = ()
    order_current: str = ""
    turn: TurnInfo | None = None
    turn_no: int = 0
    activation: Activation | None = None
    pending: Pending | None = None
    last_move: MoveRecord | None = None
    winner: str | None = None
    win_reason: str = ""

    # -- look-ups ------------------------------------------------------------------------
    def hero_of(self, side: str) -> Warrior | None:
        for w in self.warriors.values():
            if w.side == side and w.kind == HERO:
                return w
        return None

    def helper_of(self, side: str) -> Warrior | None:
        for w in self.warriors.values():
            if w.side == side and w.kind == HELPER:
                return w
        return None

    def card(self, card_id: str) -> ActionCard:
        for h in self.heroes.values():
            for c in h.cards:
                if c.id == card_id:
                    return c
        raise KeyError(card_id)

    def side_of_card(self, card_id: str) -> str:
        for s, h in self.heroes.items():
            if any(c.id == card_id for c in h.cards):
                return s
        raise KeyError(card_id)

    def prepared(self, side: str) -> tuple[str, ...]:
        """The side's prepared cards in row order (BASE-CARD-1)."""
        ex = self.exhausted.get(side, ())
        return tuple(c.id for c in self.heroes[side].cards if c.id not in ex)

    def current_order(self) -> OrderCard | None:
        return self.orders.get(self.order_current) if self.order_current else None

    def enemies(self, side: str) -> list[Warrior]:
        return [w for w in self.warriors.values() if w.side != side and w.alive]

    @property
    def emperor_turn(self) -> bool:
        return self.turn is not None and self.turn.side == EMPEROR
