"""The campaign aggregate's decider: ``decide`` turns a campaign command into events (content 3.1). No I/O, no
clock; the support-card draws come from a :class:`~domain.kernel.dice.Dice` so that they are recorded in the
events that made them."""
from __future__ import annotations

from typing import Any

from domain.kernel import Dice, Emitted, RuleViolation, RulingBuilder
from domain.kernel.messages import msg

from ..scenario import FACTIONS
from ..terms import side
from .battles import next_battle
from .commands import CreateCampaign, RecordResult, StartBattle
from .events import BattleEnded, BattleStarted, CampaignCreated, CampaignWon, NextBattleChosen, SecretObjectiveMet
from .graph import AddLeader, DrawSupport
from .secret_objectives import met
from .state import FINISHED, NEW, CampaignState
from .support_cards import SUPPORT_STREAM, draw, drawn, support_played
from .variants import setup_changes, variant_id

#: The campaign rules (battle-of-hoth-content.md 3.1, SOURCE procedure) under the ids rulings cite; their
#: text is in the rules reference (domain/hoth/rules.md, section 15; GET /rulesets/hoth/rules/CAMPAIGN-1).
CAMPAIGN_RULES: tuple[str, ...] = tuple(f"CAMPAIGN-{i}" for i in range(1, 7))


#: Visibility of facts no seat sees until the campaign ends (deck orders, the whole graph).
NOBODY = "umpire"


def battle_title(campaign: Any, node: str) -> str:
    """A battle of the campaign as its content prints it (the node's title; its id when it has none): a node's id is
    the graph's data, never shown to a player."""
    return campaign.nodes[node].title or node


def decide(state: CampaignState, command: Any, dice: Dice) -> list[Emitted]:
    """The events a campaign command produces; RuleViolation names what is wrong."""
    if isinstance(command, CreateCampaign):
        if state.status != NEW:
            raise RuleViolation("CAMPAIGN-1", msg("This campaign already exists."))
        c = command.campaign
        decks = {f: tuple(dice.shuffle(sorted(command.support.get(f, ())), SUPPORT_STREAM)) for f in FACTIONS}
        ev = CampaignCreated(campaign_id=command.campaign_id, ruleset=command.ruleset, campaign=c,
                             seats=tuple(command.seats), support_decks=decks, bots=dict(command.bots),
                             choices=dict(command.choices))
        rb = RulingBuilder().add("CAMPAIGN-1", msg("Campaign {title} starts with the battle {battle}; each side's "
                                                   "support cards are shuffled into its own support deck (content 3.1).",
                                                   title=c.title, battle=battle_title(c, c.start)),
                                 start=c.start, support={f: len(d) for f, d in decks.items()})
        return [Emitted(event=ev, ruling=rb.build(msg("campaign {title} created", title=c.title)), visibility=NOBODY,
                        rolls=dice.take(), reveals=True)]
    if state.status == NEW:
        raise RuleViolation("CAMPAIGN-1", msg("The campaign has not been created."))
    if state.status == FINISHED:
        raise RuleViolation("CAMPAIGN-3", msg("The campaign is over: {side} won it.", side=side(state.winner)))
    assert state.campaign is not None
    if isinstance(command, StartBattle):
        plan = next_battle(state)
        if plan is None:
            raise RuleViolation("CAMPAIGN-2", msg("A battle of this campaign is being played; it must end first."))
        if command.scenario != plan.scenario:
            raise RuleViolation("CAMPAIGN-2", msg("The battle {battle} is played with scenario {scenario}, not {other}.",
                                                  battle=battle_title(state.campaign, plan.node),
                                                  scenario=plan.scenario, other=command.scenario))
        ev = BattleStarted(number=plan.number, node=plan.node, scenario=plan.scenario, game_id=command.game_id,
                           leaders=plan.leaders, setup_changes=plan.setup_changes)
        rb = RulingBuilder().add("CAMPAIGN-2", msg("Battle {number}, {battle}, is played in game {game}.",
                                                   number=plan.number, battle=battle_title(state.campaign, plan.node),
                                                   game=command.game_id), leaders=plan.leaders)
        return [Emitted(event=ev, ruling=rb.build(msg("battle {number} started", number=plan.number)))]
    if isinstance(command, RecordResult):
        cur = state.current
        if cur is None or cur.game_id != command.game_id:
            raise RuleViolation("CAMPAIGN-3", msg("Game {game} is not the battle being played.", game=command.game_id))
        node = state.campaign.nodes[cur.node]
        played = support_played(state, command.support_left)
        out: list[Emitted] = [Emitted(
            event=BattleEnded(number=cur.number, node=cur.node, game_id=cur.game_id, winner=command.winner,
                              support_played=played),
            ruling=RulingBuilder().add("CAMPAIGN-3", msg("{side} won battle {number}, {battle}; the leader cards added "
                                                         "for it leave the decks (content 3.1).", side=side(command.winner),
                                                         number=cur.number, battle=battle_title(state.campaign, cur.node))
                                       ).build(msg("{side} won {battle}", side=side(command.winner),
                                                   battle=battle_title(state.campaign, cur.node))))]
        deck = dict(state.support_deck)
        discard = {f: state.support_discard.get(f, ()) + played.get(f, ()) for f in FACTIONS}
        for so in node.secret_objectives:
            if not met(so, command):
                continue
            out.append(Emitted(event=SecretObjectiveMet(id=so.id, faction=so.faction, title=so.title, text=so.text),
                               ruling=RulingBuilder().add("CAMPAIGN-5", msg(
                                   "{side} met the secret objective {objective}; it is revealed and rewarded at once.",
                                   side=side(so.faction), objective=repr(so.title))).build(so.title)))
            for e in so.reward:
                if isinstance(e, DrawSupport):
                    ev = draw(state, e.faction, e.count, dice, f"secret objective {so.id}", deck, discard)
                    out.append(Emitted(event=ev, visibility=e.faction, rolls=dice.take(), reveals=True,
                                       ruling=drawn(e)))
        outcome = node.outcomes[command.winner]
        for e in outcome.effects:
            if isinstance(e, DrawSupport):
                ev = draw(state, e.faction, e.count, dice, f"outcome of {cur.node}", deck, discard)
                out.append(Emitted(event=ev, visibility=e.faction, rolls=dice.take(), reveals=True,
                                   ruling=drawn(e)))
        if outcome.next is None:
            winner = outcome.campaign_winner or command.winner
            out.append(Emitted(event=CampaignWon(winner=winner, text=outcome.text), ruling=RulingBuilder().add(
                "CAMPAIGN-6", msg("The campaign ends after {battle}: {side} won it.",
                                  battle=battle_title(state.campaign, cur.node), side=side(winner))
            ).build(msg("victory: {side}", side=side(winner)))))
        else:
            nxt = state.campaign.nodes[outcome.next]
            changes = setup_changes(outcome.effects)
            scen = variant_id(nxt.scenario, state.campaign.id, cur.node, command.winner) if changes else nxt.scenario
            # Rewards of secret objectives that are leader cards join the next battle's effects.
            extra = tuple(e for so in node.secret_objectives if met(so, command) for e in so.reward
                          if isinstance(e, AddLeader))
            out.append(Emitted(event=NextBattleChosen(from_node=cur.node, winner=command.winner,
                                                      next_node=outcome.next, scenario=scen, text=outcome.text,
                                                      effects=tuple(outcome.effects) + extra),
                               ruling=RulingBuilder().add("CAMPAIGN-3", msg("{side}: outcome read, the next battle is "
                                                                            "{battle}.", side=side(command.winner),
                                                                            battle=battle_title(state.campaign,
                                                                                                outcome.next)),
                                                          next=outcome.next, scenario=scen).build(
                                   msg("next: {battle}", battle=battle_title(state.campaign, outcome.next)))))
        return out
    raise RuleViolation("CAMPAIGN-1", msg("{command} is not a campaign command.", command=type(command).__name__))
