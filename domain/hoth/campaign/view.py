"""What a seat reads of a campaign (GET /campaigns/{id}): its own carried cards, briefing and secret
objectives until the campaign ends; the printed words of its content."""
from __future__ import annotations

from typing import Any

import msgspec

from ..scenario import FACTIONS
from .graph import AddLeader
from .state import FINISHED, CampaignState
from .variants import setup_changes


def campaign_view(state: CampaignState, seat: str | None, leader_cards: Any = None) -> dict[str, Any]:
    """GET /campaigns/{id} for ``seat`` (None: spectator): own carried cards only, until the campaign ends.

    ``leader_cards(leader) -> card ids`` names the leader cards carried into the battle.
    """
    over = state.status == FINISHED
    faction = seat.split("-", 1)[0] if seat else None
    c = state.campaign
    cur = state.current
    carried_leaders = dict(cur.leaders) if cur else {e.faction: e.leader for e in state.carried
                                                      if isinstance(e, AddLeader)}

    def visible(f: str) -> bool:
        return over or f == faction

    carried: dict[str, Any] = {}
    for f in FACTIONS:
        if not visible(f):
            continue
        leader = carried_leaders.get(f)
        carried[f] = {
            "support_hand": list(state.support_hand.get(f, ())),
            "leader": leader,
            "leader_cards": list(leader_cards(leader)) if (leader and leader_cards) else [],
        }
    node = c.nodes[state.node] if (c and state.node) else None
    secrets = []
    if node is not None and faction is not None:
        secrets = [{"id": so.id, "title": so.title, "text": so.text, "met": so.id in state.secrets_met}
                   for so in node.secret_objectives if so.faction == faction]
    revealed = []
    if c is not None:
        for n in c.nodes.values():
            for so in n.secret_objectives:
                if so.id in state.secrets_met or (over and faction is None):
                    revealed.append({"id": so.id, "faction": so.faction, "title": so.title,
                                     "met": so.id in state.secrets_met})
    return {
        "campaign_id": state.campaign_id,
        "ruleset": state.ruleset,
        "campaign": c.id if c else None,
        "title": c.title if c else None,
        "status": state.status,
        "winner": state.winner,
        "seat": seat,
        "node": state.node,
        "game_id": cur.game_id if cur else None,
        "battles": [{"number": b.number, "node": b.node, "scenario": b.scenario, "game_id": b.game_id,
                     "leaders": dict(b.leaders), "winner": b.winner}
                    for b in state.battles + ((cur,) if cur else ())],
        "carried": carried,
        "support_hand_sizes": {f: len(state.support_hand.get(f, ())) for f in FACTIONS},
        "setup_changes": [msgspec.to_builtins(e) for e in setup_changes(state.carried)] if not cur else [],
        "outcome_text": state.outcome_text,
        #: The caller's own commander instructions for the battle now (content 3.1 procedure 4).
        "briefing": node.briefing.get(faction, "") if (node is not None and faction is not None) else "",
        "secret_objectives": secrets,
        "revealed_objectives": revealed,
    }


#: Where a campaign's view holds the printed words of its content (domain/kernel/printed.py): its title, the
#: caller's briefing, the last outcome's text, the caller's secret objectives and the ones revealed.
CAMPAIGN_PRINTED = (("title",), ("briefing",), ("outcome_text",), ("secret_objectives", "*", "title"),
                    ("secret_objectives", "*", "text"), ("revealed_objectives", "*", "title"))
