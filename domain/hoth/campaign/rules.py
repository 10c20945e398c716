"""The kernel's campaign protocol for the Battle of Hoth (:class:`domain.kernel.campaign.CampaignRules`)."""
from __future__ import annotations

from typing import Any, ClassVar

from domain.kernel import Choice, Dice, Emitted, SetupError, Status
from domain.kernel.campaign import BattlePlan as KernelBattlePlan
from domain.kernel.messages import msg

from ..scenario import FACTIONS
from .battles import next_battle
from .commands import CreateCampaign, RecordResult, StartBattle, UnitFact
from .decider import decide
from .events import BattleStarted, CampaignEvents
from .graph import Campaign
from .state import ACTIVE, FINISHED, CampaignState, evolve
from .view import CAMPAIGN_PRINTED, campaign_view


class HothCampaigns:
    """:class:`domain.kernel.campaign.CampaignRules` for the Battle of Hoth (content 3.1).

    ``catalog()`` returns the shipped content (campaign graphs, support and leader cards); the
    ruleset hands it in (the domain never imports ``scenarios``).
    """

    event_type: ClassVar[Any] = CampaignEvents
    battle_started_type: ClassVar[str] = BattleStarted.__struct_config__.tag  # type: ignore[assignment]

    def __init__(self, catalog: Any):
        self._catalog = catalog

    def _graphs(self) -> dict[str, Campaign]:
        return getattr(self._catalog(), "campaigns", {}) or {}

    def _graph(self, campaign: str) -> Campaign:
        graph = self._graphs().get(campaign)
        if graph is None:
            raise SetupError("campaign", msg("unknown campaign {campaign}; known: {known}", campaign=repr(campaign),
                                             known=", ".join(sorted(self._graphs()))))
        return graph

    def campaigns(self) -> list[Choice]:
        return [Choice(id=c.id, title=c.title) for c in self._graphs().values()]

    #: the printed words of its content in a campaign's view (domain/kernel/printed.py)
    printed_paths: ClassVar[Any] = CAMPAIGN_PRINTED

    def printed_samples(self) -> list[dict[str, Any]]:
        """Views holding every printed word of the campaigns (ops/i18n-extract): titles, every side's briefing,
        every outcome's text, every secret objective."""
        out: list[dict[str, Any]] = []
        for c in self._graphs().values():
            out.append({"title": c.title})
            for node in c.nodes.values():
                out += [{"briefing": b} for b in node.briefing.values()]
                out += [{"outcome_text": o.text} for o in node.outcomes.values()]
                out.append({"secret_objectives": [{"title": so.title, "text": so.text} for so in node.secret_objectives]})
        return out

    def seats(self, campaign: str) -> tuple[str, ...]:
        self._graph(campaign)
        #: campaigns are designed for 2 players (content 3.1 procedure 6)
        return FACTIONS

    def initial_state(self) -> CampaignState:
        return CampaignState()

    def start(self, campaign_id: str, ruleset: str, campaign: str, dice: Dice,
              bots: dict[str, str] | None = None, choices: dict[str, str] | None = None) -> list[Emitted]:
        cat = self._catalog()
        cmd = CreateCampaign(campaign_id=campaign_id, ruleset=ruleset, campaign=self._graph(campaign), seats=FACTIONS,
                             support={f: tuple(cat.support_cards(f)) for f in FACTIONS}, bots=dict(bots or {}),
                             choices=dict(choices or {}))
        return decide(CampaignState(), cmd, dice)

    def evolve(self, state: CampaignState, event: Any) -> CampaignState:
        return evolve(state, event)

    def status(self, state: CampaignState) -> Status:
        return Status(status=FINISHED if state.status == FINISHED else ACTIVE, winner=state.winner)

    def next_battle(self, state: CampaignState) -> KernelBattlePlan | None:
        plan = next_battle(state)
        if plan is None:
            return None
        return KernelBattlePlan(number=plan.number, scenario=plan.scenario, options=dict(plan.options),
                                bots=dict(state.bots), choices=dict(state.choices), sealed=dict(plan.sealed))

    def battle_started(self, state: CampaignState, plan: KernelBattlePlan, game_id: str,
                       dice: Dice) -> list[Emitted]:
        return decide(state, StartBattle(game_id=game_id, scenario=plan.scenario), dice)

    def current_game(self, state: CampaignState) -> str | None:
        return state.current.game_id if state.current is not None else None

    def battle_result(self, state: CampaignState, game_state: Any, game_status: Status,
                      dice: Dice) -> list[Emitted] | None:
        """Record the battle from its final state: the winner (CAMPAIGN-3), the units at its start
        and end (secret objectives, CAMPAIGN-5) and the support cards still held (CAMPAIGN-4)."""
        if state.current is None or game_status.winner not in FACTIONS:
            return None
        scenario = getattr(game_state, "scenario", None)
        start = tuple(UnitFact(faction=u.faction, unit=u.unit, hex=tuple(u.hex))
                      for u in (scenario.units if scenario is not None else ()))
        end = tuple(UnitFact(faction=u.faction, unit=u.unit, hex=tuple(u.hex))
                    for u in getattr(game_state, "units", {}).values())
        held = getattr(game_state, "support", None)
        left = {f: tuple(held.get(f, ())) for f in FACTIONS} if isinstance(held, dict) else None
        cmd = RecordResult(game_id=state.current.game_id, winner=game_status.winner, start_units=start,
                           end_units=end, support_left=left)
        return decide(state, cmd, dice)

    def view(self, state: CampaignState, seat: str | None) -> dict[str, Any]:
        return campaign_view(state, seat, getattr(self._catalog(), "leader_cards", None))
