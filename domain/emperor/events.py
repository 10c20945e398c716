"""Events of an Emperor game. Events carry outcomes (DESIGN 1): every shuffle, every decision of
the automaton (cells considered, tie-breaks, card, targets, push path, star, fallback, defense) and
every wound is written into the event, so folding never runs the automaton and never reads content.
"""
from __future__ import annotations

from typing import ClassVar

from domain.kernel import Event

from .content import Ability, Battlefield, Hero, OrderCard, SoloCard
from .state import Pending, Warrior


class GameOpened(Event, tag="game_opened", kw_only=True):
    """BASE-SETUP-1: the battlefield, both heroes, the Emperor's solo card and order cards."""

    setup: str
    title: str
    battlefield: Battlefield
    human: Hero
    emperor: Hero
    solo: SoloCard
    orders: tuple[OrderCard, ...]
    card_policy: str
    warriors: tuple[Warrior, ...]


class OrderDeckShuffled(Event, tag="order_deck_shuffled", kw_only=True):
    """SOLO-ORD-2, BASE-SETUP-1: the order deck, top first; its order is seen by nobody until the end."""

    private: ClassVar[frozenset[str]] = frozenset({"deck"})
    size: int
    deck: tuple[str, ...]
    reshuffle: bool = False


class TurnStarted(Event, tag="turn_started", kw_only=True):
    side: str
    turn: int
    #: BASE-LOC-4: locations this side flipped, face up again.
    restored: tuple[str, ...] = ()


class TurnEnded(Event, tag="turn_ended", kw_only=True):
    side: str
    turn: int


class OrderCardRevealed(Event, tag="order_card_revealed", kw_only=True):
    """SOLO-ORD-2: the top order card becomes the current one; the previous one is discarded."""

    #: UMPIRE-REVEAL-1: the top of the hidden, shuffled order deck is shown.
    reveals_hidden = True

    card: str
    why: str  # "turn" (SOLO-ORD-3a) or "defense" (SOLO-ORD-3b)
    discarded: str = ""


class StepStarted(Event, tag="emperor_step", kw_only=True):
    """SOLO-TURN-2: the Emperor performs the next step its order card lists."""

    step: str
    index: int
    card: str
    #: False when the step's condition fails (no prepared action card, SOLO-TURN-4/5).
    performed: bool = True


class LocationsFlipped(Event, tag="locations_flipped", kw_only=True):
    """BASE-LOC-3: bonus symbols (or an ability) used; the cards flip."""

    side: str
    warrior: str
    locations: tuple[str, ...]
    symbols: tuple[str, ...] = ()
    amount: int = 0
    purpose: str = ""


class ActionTaken(Event, tag="action_taken", kw_only=True):
    """BASE-TURN-1: the human begins one of its (at most two, different) actions."""

    action: str


class WarriorMoved(Event, tag="warrior_moved", kw_only=True):
    """A move of the human's warrior (BASE-MOVE-1; MARCH); ``hazard``: the active hazard it entered."""

    side: str
    warrior: str
    frm: str
    path: tuple[str, ...]
    movement: int
    purpose: str = "move"
    hazard: str = ""


class EmperorMoved(Event, tag="emperor_moved", kw_only=True):
    """SOLO-MOVE: one movement of an Emperor warrior, with every set and tie-break of the decision."""

    #: UMPIRE-REVEAL-1: the automaton's decision, driven by the hidden order deck.
    reveals_hidden = True

    warrior: str
    purpose: str
    movement: int
    requirement: str
    possible: tuple[str, ...]
    reachable: tuple[str, ...]
    candidates: tuple[str, ...]
    #: B(c) of the cells compared (SOLO-MOVE-6).
    bonus: dict[str, int] = {}
    preferred: tuple[str, ...] = ()
    #: SOLO-MOVE-7 step 1..4; 0: no possible direction at all (SOLO-MOVE-8f).
    step: int = 0
    nearest: tuple[str, ...] = ()
    distances: dict[str, int] = {}
    compass: str = ""
    arrows: tuple[str, ...] = ()
    frm: str
    to: str
    path: tuple[str, ...] = ()


class CardActivated(Event, tag="card_activated", kw_only=True):
    """A side activates a prepared card (human: ACTIVATE; Emperor: SOLO-CARD, SOLO-TURN-5)."""

    side: str
    card: str
    #: The Emperor's scan of its action row (SOLO-CARD-1): cards looked at, in order.
    scanned: tuple[str, ...] = ()
    compass: str = ""


class TargetChosen(Event, tag="target_chosen", kw_only=True):
    """SOLO-TGT / SOLO-SWITCH: whom an Emperor ability targets, and why."""

    #: UMPIRE-REVEAL-1: the automaton's decision, driven by the hidden order deck.
    reveals_hidden = True

    performer: str
    source: str
    ability: str
    rule: str  # SYM_NEAREST / SYM_FARTHEST / SYM_ALL
    distances: dict[str, int]
    targets: tuple[str, ...]
    compass: str = ""
    switched_from: str = ""
    switch_rule: str = ""


class Defended(Event, tag="defended", kw_only=True):
    """A defense: the Emperor's (SOLO-DEF) or the human's choice (BASE-DEF-1); the card exhausts."""

    side: str
    warrior: str
    card: str = ""
    value: int
    parts: dict[str, int] = {}
    scanned: tuple[str, ...] = ()


class AttackResolved(Event, tag="attack_resolved", kw_only=True):
    """BASE-ATK-1: wounds = max(0, attack - defense)."""

    side: str
    attacker: str
    target: str
    source: str
    attack: int
    defense: int
    wounds: int
    parts: dict[str, int] = {}


class DefenseRequested(Event, tag="defense_requested", kw_only=True):
    """The Emperor attacks the human's hero: the human chooses its defense (BASE-DEF-1). The rest of
    the Emperor's turn is recorded in ``pending.resume``."""

    pending: Pending


class Pushed(Event, tag="pushed", kw_only=True):
    """BASE-PUSH-1 / SOLO-PUSH: the target's path and each active hazard it entered."""

    side: str
    pusher: str
    target: str
    source: str
    value: int
    frm: str
    path: tuple[str, ...]
    hazards: tuple[str, ...] = ()
    wounds: int = 0
    plan: str = ""


class StarChosen(Event, tag="star_chosen", kw_only=True):
    """BASE-STAR-1 / SOLO-STAR: which star ability a star is spent on."""

    side: str
    choice: str
    kind: str  # "hero_star" or "location"
    ability: Ability | None = None
    walk: tuple[str, ...] = ()


class FallbackUsed(Event, tag="fallback_used", kw_only=True):
    """SOLO-FALL: the fallback ability (or nothing, when it was already used this turn)."""

    name: str
    trigger: str
    applied: bool
    target: str = ""
    wounds: int = 0
    healed: int = 0


class AbilityDone(Event, tag="ability_done", kw_only=True):
    """An ability finished (or was skipped, with the reason) -- the human's queue moves on."""

    side: str
    source: str
    ability: str
    skipped: bool = False
    why: str = ""


class CardResolved(Event, tag="card_resolved", kw_only=True):
    """BASE-CARD-1: the activated card is exhausted; BASE-CREST-1: its crest becomes applied."""

    side: str
    card: str
    crest: str


class Refreshed(Event, tag="refreshed", kw_only=True):
    """BASE-REF-1 (human REFRESH; SOLO-TURN-6 for the Emperor): exhausted cards become prepared."""

    side: str
    cards: tuple[str, ...]
    prepared: int = 0
    refresh_value: int = -1
    refreshed: bool = True


class Swapped(Event, tag="swapped", kw_only=True):
    """SOLO-FAQ-4: Akhena's swap (optional) -- two warriors change places."""

    warrior: str
    other: str
    cells: tuple[str, str]


class WarriorHealed(Event, tag="warrior_healed", kw_only=True):
    warrior: str
    amount: int


class WarriorWounded(Event, tag="warrior_wounded", kw_only=True):
    """Wounds without an attack (a hazard entered by moving, BASE-HAZ-2)."""

    warrior: str
    wounds: int
    cause: str


class WarriorDied(Event, tag="warrior_died", kw_only=True):
    """BASE-WAR-2: a warrior at 0 health dies; a helper is removed."""

    warrior: str


class GameWon(Event, tag="game_won", kw_only=True):
    """SOLO-GAME-2: a hero died; the other side wins."""

    winner: str
    reason: str


EmperorEvent = (
    GameOpened | OrderDeckShuffled | TurnStarted | TurnEnded | OrderCardRevealed | StepStarted | LocationsFlipped
    | ActionTaken | WarriorMoved | EmperorMoved | CardActivated | TargetChosen | Defended | AttackResolved
    | DefenseRequested | Pushed | StarChosen | FallbackUsed | AbilityDone | CardResolved | Refreshed | Swapped
    | WarriorHealed | WarriorWounded | WarriorDied | GameWon
)
