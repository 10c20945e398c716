"""The next battle (CAMPAIGN-2): the node's scenario, or its variant after a setup change, with the leaders
carried into it and each side's kept support cards, sealed."""
from __future__ import annotations

from typing import Any

import msgspec

from .graph import AddLeader, AddUnit, RemoveUnit
from .state import ACTIVE, CampaignState
from .variants import setup_changes, variant_id


class BattlePlan(msgspec.Struct, frozen=True, kw_only=True):
    """What the service creates next: a game of ``scenario`` with these ``options``."""

    number: int
    node: str
    scenario: str
    options: dict[str, Any]
    leaders: dict[str, str]
    setup_changes: tuple[AddUnit | RemoveUnit, ...]
    #: UMPIRE-SEAL-1: each side's kept support cards, for the battle's opening only (never its header).
    sealed: dict[str, Any] = {}


def next_battle(state: CampaignState) -> BattlePlan | None:
    """The battle to create now, or None (campaign over, or a battle is being played)."""
    if state.status != ACTIVE or state.current is not None or state.node is None or state.campaign is None:
        return None
    node = state.campaign.nodes[state.node]
    leaders = {e.faction: e.leader for e in state.carried if isinstance(e, AddLeader)}
    changes = setup_changes(state.carried)
    scenario = node.scenario
    if changes and state.last_result is not None:
        scenario = variant_id(node.scenario, state.campaign.id, *state.last_result)
    options: dict[str, Any] = {"leaders": dict(leaders)} if leaders else {}
    support = {f: list(h) for f, h in sorted(state.support_hand.items()) if h}
    # unplayed support cards come to every battle (content 3.1), sealed: one side's secret (UMPIRE-SEAL-1)
    sealed: dict[str, Any] = {"support": support} if support else {}
    return BattlePlan(number=len(state.battles) + 1, node=state.node, scenario=scenario, options=options,
                      leaders=leaders, setup_changes=changes, sealed=sealed)
