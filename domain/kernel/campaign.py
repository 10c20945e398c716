"""Campaigns: the optional kernel protocol a ruleset implements to chain battles (DESIGN 8).

A campaign is its own event stream (the service stores and chains it like a game's); its battles
are ordinary games. The service is generic: it asks the ruleset's :class:`CampaignRules` (from
``ruleset.campaign_rules()``, see :func:`campaign_rules_of`) for everything that is the game's:

- ``campaigns()`` lists them; ``seats(campaign)`` names the seats (the same in every battle);
- ``start(...)`` the events that open one (decks shuffled with the campaign's dice);
- ``evolve(state, event)`` folds the stream from ``initial_state()``; ``status(state)``;
- ``next_battle(state)`` the setup and options of the battle to create now, from the results so
  far (None: a battle is being played, or the campaign is over); ``battle_started(...)`` records
  the game created for it; ``current_game(state)`` the game being played;
- ``battle_result(state, game_state, game_status, dice)`` the events that record a finished
  battle (read from that game's final state), the next node and the end of the campaign;
- ``view(state, seat)`` what ``seat`` (None: a spectator) may see of the campaign.

Everything is pure, as for a game's ruleset: chance comes from the :class:`~domain.kernel.dice.Dice`
the service hands in (drawn from the campaign's own seed and recorded in the events), and a bad
command raises :class:`~domain.kernel.rulings.RuleViolation` naming its rule.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

import msgspec

from .decider import Choice, Status
from .dice import Dice, Roll, counters_after
from .envelope import Emitted, Event
from .header import SeatReady
from .seats import SeatClaimed, SeatHolding, SeatRotated, SeatsOffered, holding_evolve


class SeedChosen(Event, tag="seed_chosen"):
    """The first event of a campaign whose creator gave its seed (UMPIRE-SEAT-6): the creator can compute
    every draw of the campaign and of its battles (their seeds are derived from the campaign's)."""


class BattlePlan(msgspec.Struct, frozen=True, kw_only=True):
    """The battle the service creates next: a game of ``scenario`` with ``options`` (battle ``number``)."""

    number: int
    scenario: str
    options: dict[str, Any] = {}
    #: DESIGN 13: seats the service's bots play in this battle, ``{"<seat>": "<bot id>[:level]"}``.
    bots: dict[str, str] = {}
    #: DESIGN 14: the rule choices every battle of the campaign is played under, ``{"<choice id>": "<option>"}``.
    choices: dict[str, str] = {}
    #: UMPIRE-SEAL-1: options that are one side's secret (a Hoth side's kept support cards), handed to the
    #: battle's opening apart from ``options``: never in its public header, dealt in sealed events.
    sealed: dict[str, Any] = {}


@runtime_checkable
class CampaignRules(Protocol):
    """The campaigns of one ruleset (see the module's docstring)."""

    #: Tagged union of the campaign's event types (the stream's decoder; the kernel's ``seat_ready``
    #: events of a ``when_ready`` campaign are added by the service).
    event_type: ClassVar[Any]
    #: The tag of the event that starts a battle; its payload names the battle's ``game_id``
    #: (so the service can tell a battle of the campaign from a game another writer orphaned).
    battle_started_type: ClassVar[str]

    def campaigns(self) -> list[Choice]: ...

    def seats(self, campaign: str) -> tuple[str, ...]:
        """The campaign's seats (raises SetupError for an unknown campaign)."""
        ...

    def initial_state(self) -> Any: ...

    def start(self, campaign_id: str, ruleset: str, campaign: str, dice: Dice,
              bots: dict[str, str] | None = None, choices: dict[str, str] | None = None) -> list[Emitted]:
        """The events that open the campaign (raises SetupError for an unknown campaign); ``bots``: the
        seats the service's bots play in every battle (recorded, and given back in each BattlePlan);
        ``choices``: the rule choices of every battle (DESIGN 14; recorded, and given back the same way)."""
        ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def status(self, state: Any) -> Status:
        """``active`` or ``finished`` (with its ``winner``)."""
        ...

    def next_battle(self, state: Any) -> BattlePlan | None: ...

    def battle_started(self, state: Any, plan: BattlePlan, game_id: str, dice: Dice) -> list[Emitted]: ...

    def current_game(self, state: Any) -> str | None: ...

    def battle_result(self, state: Any, game_state: Any, game_status: Status, dice: Dice) -> list[Emitted] | None:
        """The events recording the end of the current battle, whose final state and status these
        are (None: nothing to record, e.g. the battle ended without a winner)."""
        ...

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """``GET /campaigns/{id}`` for ``seat`` (None: a spectator): what that seat may see."""
        ...


def campaign_rules_of(ruleset: Any) -> CampaignRules | None:
    """The ruleset's campaign rules (``ruleset.campaign_rules()``), or None when it has none."""
    get = getattr(ruleset, "campaign_rules", None)
    return get() if callable(get) else None


#: The kernel's events of a campaign stream (beside the campaign rules' own): a seat's ``ready``, the
#: seats offered, claimed and rotated (DESIGN 4), a chosen seed (UMPIRE-SEAT-6). The rules never fold them.
CAMPAIGN_KERNEL_EVENTS = (SeatReady, SeatsOffered, SeatClaimed, SeatRotated, SeedChosen)
_INITIAL: Any = object()


def fold_campaign(rules: CampaignRules, events: Iterable[Any], state: Any = _INITIAL) -> Any:
    """The one fold of a campaign stream: ``events`` applied by the rules' ``evolve`` to ``state`` (left
    out: the rules' initial state), the kernel's own events (:data:`CAMPAIGN_KERNEL_EVENTS`) passed over.
    The service folds a campaign's stored stream with it, and the events it is about to append."""
    if state is _INITIAL:
        state = rules.initial_state()
    for ev in events:
        if not isinstance(ev, CAMPAIGN_KERNEL_EVENTS):
            state = rules.evolve(state, ev)
    return state


def fold_campaign_records(rules: CampaignRules,
                          records: Sequence[tuple[Any, Sequence[Roll]]]) -> tuple[Any, int, dict[str, int]]:
    """A campaign's stored records (event, draws) folded: the state (:func:`fold_campaign`), the version (the
    number of records) and the dice counters after every recorded draw (the next draw's)."""
    return fold_campaign(rules, (ev for ev, _ in records)), len(records), counters_after(rolls for _, rolls in records)


def campaign_seating(events: Iterable[Any]) -> tuple[SeatHolding, bool]:
    """The one fold of a campaign stream's seats (DESIGN 4): who was handed which seat and when its token
    last changed (a :class:`~domain.kernel.seats.SeatHolding`, the stream's seqs counted from 1), and
    whether the creator chose the campaign's seed (a :class:`SeedChosen`: UMPIRE-SEAT-6). The rules'
    own events pass over it, as the kernel's pass over :func:`fold_campaign`."""
    holding, given = SeatHolding(), False
    for seq, ev in enumerate(events, start=1):
        holding = holding_evolve(holding, seq, ev)
        given = given or isinstance(ev, SeedChosen)
    return holding, given


__all__ = ["BattlePlan", "CAMPAIGN_KERNEL_EVENTS", "CampaignRules", "SeedChosen", "campaign_rules_of",
           "campaign_seating", "fold_campaign", "fold_campaign_records"]
