"""Battle of Hoth campaigns: the campaign graph (content) and the campaign aggregate.

Rules: battle-of-hoth-content.md 3.1 (SOURCE: the shared campaign rules page)
and 5.5 (PROPOSED stand-in graphs). A campaign is a graph of battles: each
node names a scenario; when its battle ends, the winner's outcome names the
next node (or ends the campaign with a winner) and the effects both sides
carry into the next battle: leader cards for that battle only, support cards
drawn into a hand kept from battle to battle, units added to or removed from
the next setup. Secret objectives are visible only to their own seat until
they are met; their reward is immediate.

The first half of this module is the content contract (the loader in
``scenarios/hoth`` validates campaign files into :class:`Campaign`); the
second half is the aggregate, a pure decider-like module: ``decide`` turns
a campaign command into events, ``evolve`` folds them. No I/O, no clock; the
support-card draws come from a :class:`~domain.kernel.dice.Dice` so that
they are recorded in the events that made them.

Over 500 lines: the campaign graph (content) and the aggregate that walks it are read together (every
campaign command checks the graph's node and outcome); the graph's loader is the part that could stand
alone, and is the first to move out when this module grows.
"""
from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from domain.kernel import Choice, Command, Dice, Emitted, Event, RuleViolation, RulingBuilder, SetupError, Status
from domain.kernel.campaign import BattlePlan as KernelBattlePlan
from domain.kernel.messages import msg, msg_n

from .scenario import FACTIONS, Badge, ContentStatus, Faction, Hex, Scenario, UnitSetup, UnitType
from .board import label
from .terms import side

#: Leaders by faction (HOTH-LEADER-1).
LEADERS: dict[str, tuple[str, ...]] = {
    "imperial": ("vader", "veers", "piett"),
    "rebel": ("leia", "luke", "han"),
}


# -- carried effects (content 3.4 effect types) -----------------------------------------

class AddLeader(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="add_leader"):
    """``faction`` adds ``leader``'s 3 cards to its deck for the next battle only (content 3.1)."""

    faction: Faction
    leader: str


class DrawSupport(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="draw_support"):
    """``faction`` draws ``count`` support cards from its own support deck into its kept hand (content 3.1)."""

    faction: Faction
    count: int = 1


class AddUnit(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="add_unit"):
    """The next battle's setup gains a unit of ``faction`` at ``hex`` (board id ``[x, r]``)."""

    faction: Faction
    unit: UnitType
    hex: Hex
    badge: Badge | None = None


class RemoveUnit(msgspec.Struct, frozen=True, kw_only=True, tag_field="effect", tag="remove_unit"):
    """The next battle's setup loses the unit of ``faction`` and type ``unit`` at ``hex``."""

    faction: Faction
    unit: UnitType
    hex: Hex


CarriedEffect = AddLeader | DrawSupport | AddUnit | RemoveUnit


# -- secret objectives (content 3.1 rule 5; 5.5 PROPOSED ones) ---------------------------

class EnemyUnitDestroyed(msgspec.Struct, frozen=True, kw_only=True, tag_field="condition",
                         tag="enemy_unit_destroyed"):
    """Met when at least ``count`` enemy units of type ``unit`` were destroyed in the battle."""

    unit: UnitType
    count: int = 1


class HexFreeOfEnemy(msgspec.Struct, frozen=True, kw_only=True, tag_field="condition", tag="hex_free_of_enemy"):
    """Met when no enemy unit stands on ``hex`` at the end of the battle."""

    hex: Hex


SecretCondition = EnemyUnitDestroyed | HexFreeOfEnemy


class SecretObjective(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    faction: Faction
    title: str
    #: What the owner reads (never shown to the other seat until met).
    text: str = ""
    condition: SecretCondition
    #: Applied at once when met (content 5.5: "the reward is immediate").
    reward: tuple[CarriedEffect, ...] = ()
    status: ContentStatus = "proposed"


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """What the winner reads aloud (content 3.1 rule 3)."""

    #: Next node id; None ends the campaign.
    next: str | None = None
    #: Campaign winner when the campaign ends here.
    campaign_winner: Faction | None = None
    text: str = ""
    effects: tuple[CarriedEffect, ...] = ()


class Node(msgspec.Struct, frozen=True, kw_only=True):
    scenario: str
    title: str = ""
    #: Private commander instructions per faction (content 3.1 rule 4).
    briefing: dict[Faction, str] = {}
    secret_objectives: tuple[SecretObjective, ...] = ()
    #: Keyed by the battle's winner: "imperial" / "rebel".
    outcomes: dict[Faction, Outcome]


class Campaign(msgspec.Struct, frozen=True, kw_only=True):
    id: str  # "CMP-<N>-<NAME>"
    title: str
    status: ContentStatus = "proposed"
    notes: str = ""
    start: str
    nodes: dict[str, Node]


# -- battle variants: the next setup changed by the last outcome ---------------------------

def setup_changes(effects: tuple[CarriedEffect, ...]) -> tuple[AddUnit | RemoveUnit, ...]:
    return tuple(e for e in effects if isinstance(e, (AddUnit, RemoveUnit)))


def variant_id(scenario_id: str, campaign_id: str, node: str, winner: str) -> str:
    """Id of ``scenario_id`` as set up after ``winner`` won ``node`` of ``campaign_id``."""
    return f"{scenario_id}@{campaign_id}/{node}/{winner}"


def apply_setup(s: Scenario, changes: tuple[AddUnit | RemoveUnit, ...], new_id: str, title: str) -> Scenario:
    """``s`` with units removed and added (content 3.4 ADD_UNIT / REMOVE_UNIT)."""
    units = list(s.units)
    for c in changes:
        if isinstance(c, RemoveUnit):
            units = [u for u in units if not (tuple(u.hex) == tuple(c.hex) and u.unit == c.unit
                                                 and u.faction == c.faction)]
    for c in changes:
        if isinstance(c, AddUnit):
            units.append(UnitSetup(hex=c.hex, faction=c.faction, unit=c.unit, badge=c.badge))
    note = "; ".join(_change_text(c) for c in changes)
    return msgspec.structs.replace(s, id=new_id, title=title, units=tuple(units),
                                   notes=f"{s.notes} Campaign setup changes: {note}.".strip())


def _change_text(c: AddUnit | RemoveUnit) -> str:
    verb = "add" if isinstance(c, AddUnit) else "remove"

    return f"{verb} {c.faction} {c.unit} at {label(tuple(c.hex))}"  # type: ignore[arg-type]


def variants(c: Campaign, scenarios: dict[str, Scenario]) -> dict[str, Scenario]:
    """Every changed setup the campaign can lead to, by variant id."""
    out: dict[str, Scenario] = {}
    for nid, node in c.nodes.items():
        for winner, o in node.outcomes.items():
            changes = setup_changes(o.effects)
            if not changes or o.next is None or o.next not in c.nodes:
                continue
            base = scenarios.get(c.nodes[o.next].scenario)
            if base is None:
                continue
            vid = variant_id(base.id, c.id, nid, winner)
            out[vid] = apply_setup(base, changes, vid, f"{base.title} ({c.title}, after {winner} won {nid})")
    return out


# -- the campaign aggregate (content 3.1 state model) -------------------------------------

#: The campaign rules (battle-of-hoth-content.md 3.1, SOURCE procedure) under the ids rulings cite; their
#: text is in the rules reference (domain/hoth/rules.md, section 15; GET /rulesets/hoth/rules/CAMPAIGN-1).
CAMPAIGN_RULES: tuple[str, ...] = tuple(f"CAMPAIGN-{i}" for i in range(1, 7))

NEW, ACTIVE, FINISHED = "new", "active", "finished"
#: Dice stream of the support-deck shuffles (DESIGN 3: every draw recorded in its event).
SUPPORT_STREAM = "support"
#: Visibility of facts no seat sees until the campaign ends (deck orders, the whole graph).
NOBODY = "umpire"


class UnitFact(msgspec.Struct, frozen=True, kw_only=True):
    faction: Faction
    unit: UnitType
    hex: Hex


class BattleRecord(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    node: str
    scenario: str
    game_id: str
    leaders: dict[str, str] = {}
    winner: str | None = None


# events -------------------------------------------------------------------------------

class CampaignEvent(Event, frozen=True, kw_only=True):
    pass


class CampaignCreated(CampaignEvent, frozen=True, kw_only=True, tag="campaign_created"):
    private: ClassVar[frozenset[str]] = frozenset({"campaign", "support_decks"})
    campaign_id: str
    ruleset: str
    campaign: Campaign
    seats: tuple[str, ...]
    #: Each faction's shuffled support deck (content 3.1: "shuffles the support cards of their own faction").
    support_decks: dict[str, tuple[str, ...]]
    #: Seats played by the service's bots in every battle (UMPIRE-BOT-1): seat -> ``"<bot id>:<level>"``.
    bots: dict[str, str] = {}
    #: The rule choices every battle is played under (DESIGN 14).
    choices: dict[str, str] = {}


class BattleStarted(CampaignEvent, frozen=True, kw_only=True, tag="battle_started"):
    number: int
    node: str
    scenario: str
    game_id: str
    #: Leader whose 3 cards each faction adds for this battle only (content 3.1).
    leaders: dict[str, str] = {}
    setup_changes: tuple[AddUnit | RemoveUnit, ...] = ()


class BattleEnded(CampaignEvent, frozen=True, kw_only=True, tag="battle_result"):
    number: int
    node: str
    game_id: str
    winner: Faction
    #: Support cards each side played in the battle (face up, so public): they go to its support
    #: discard; the others stay in its hand (content 3.1).
    support_played: dict[str, tuple[str, ...]] = {}


class SecretObjectiveMet(CampaignEvent, frozen=True, kw_only=True, tag="secret_objective_met"):
    """Revealed when met (content 3.1 rule 5); the reward is immediate (content 5.5)."""

    id: str
    faction: Faction
    title: str
    text: str = ""


class SupportDrawn(CampaignEvent, frozen=True, kw_only=True, tag="support_drawn"):
    """``faction`` draws support cards into the hand it keeps between battles (content 3.1)."""

    private: ClassVar[frozenset[str]] = frozenset({"cards", "deck_after"})
    faction: Faction
    count: int
    cards: tuple[str, ...]
    #: The deck after the draw (after a reshuffle of the discards when it ran out).
    deck_after: tuple[str, ...]
    reshuffled: bool = False
    reason: str = ""


class NextBattleChosen(CampaignEvent, frozen=True, kw_only=True, tag="next_battle_chosen"):
    from_node: str
    winner: Faction
    next_node: str
    scenario: str
    text: str = ""
    effects: tuple[CarriedEffect, ...] = ()


class CampaignWon(CampaignEvent, frozen=True, kw_only=True, tag="campaign_won"):
    winner: Faction
    text: str = ""


CampaignEvents = (CampaignCreated | BattleStarted | BattleEnded | SecretObjectiveMet | SupportDrawn
                  | NextBattleChosen | CampaignWon)


# commands -----------------------------------------------------------------------------

class CreateCampaign(Command, frozen=True, kw_only=True, tag="create_campaign"):
    campaign_id: str
    ruleset: str = "hoth"
    campaign: Campaign
    seats: tuple[str, ...] = FACTIONS
    #: Each faction's support cards (content 3.1), shuffled into its support deck.
    support: dict[str, tuple[str, ...]] = {}
    #: Seats played by the service's bots in every battle (UMPIRE-BOT-1).
    bots: dict[str, str] = {}
    #: The rule choices every battle is played under (DESIGN 14).
    choices: dict[str, str] = {}


class StartBattle(Command, frozen=True, kw_only=True, tag="start_battle"):
    game_id: str
    scenario: str


class RecordResult(Command, frozen=True, kw_only=True, tag="record_result"):
    """The battle ``game_id`` ended; ``start_units``/``end_units`` are what the secret objectives judge."""

    game_id: str
    winner: Faction
    start_units: tuple[UnitFact, ...] = ()
    end_units: tuple[UnitFact, ...] = ()
    #: Support cards each side still holds when the battle ends (None: the battle used none).
    support_left: dict[str, tuple[str, ...]] | None = None


CampaignCommand = CreateCampaign | StartBattle | RecordResult


# state --------------------------------------------------------------------------------

class CampaignState(msgspec.Struct, frozen=True, kw_only=True):
    campaign_id: str = ""
    ruleset: str = "hoth"
    campaign: Campaign | None = None
    seats: tuple[str, ...] = ()
    status: str = NEW
    winner: str | None = None
    #: The node to play now (None once the campaign ended).
    node: str | None = None
    #: The battle being played (None between battles).
    current: BattleRecord | None = None
    battles: tuple[BattleRecord, ...] = ()
    #: Effects carried into the next battle: leaders and setup changes (content 3.1).
    carried: tuple[CarriedEffect, ...] = ()
    #: (node, winner) of the last battle: names the changed setup (:func:`variant_id`).
    last_result: tuple[str, str] | None = None
    support_hand: dict[str, tuple[str, ...]] = {}
    support_deck: dict[str, tuple[str, ...]] = {}
    support_discard: dict[str, tuple[str, ...]] = {}
    secrets_met: tuple[str, ...] = ()
    #: The outcome the last winner read aloud (content 3.1 procedure 3).
    outcome_text: str = ""
    #: Seats played by the service's bots in every battle (UMPIRE-BOT-1).
    bots: dict[str, str] = {}
    #: The rule choices every battle is played under (DESIGN 14).
    choices: dict[str, str] = {}


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


def _draw(state: CampaignState, faction: str, count: int, dice: Dice, reason: str,
          deck: dict[str, tuple[str, ...]], discard: dict[str, tuple[str, ...]]) -> SupportDrawn:
    """Draw ``count`` support cards; an empty deck is the shuffled discards (content 3.1 Reshuffle)."""
    d = list(deck.get(faction, ()))
    drawn: list[str] = []
    reshuffled = False
    for _ in range(count):
        if not d and discard.get(faction):
            d = dice.shuffle(list(discard[faction]), SUPPORT_STREAM)
            discard[faction] = ()
            reshuffled = True
        if not d:
            break  # nothing left anywhere: the draw is lost
        drawn.append(d.pop(0))
    deck[faction] = tuple(d)
    return SupportDrawn(faction=faction, count=count, cards=tuple(drawn), deck_after=tuple(d),
                        reshuffled=reshuffled, reason=reason)


def _met(so: SecretObjective, cmd: RecordResult) -> bool:
    c = so.condition
    enemy = "rebel" if so.faction == "imperial" else "imperial"
    if isinstance(c, EnemyUnitDestroyed):
        start = sum(1 for u in cmd.start_units if u.faction == enemy and u.unit == c.unit)
        end = sum(1 for u in cmd.end_units if u.faction == enemy and u.unit == c.unit)
        return start - end >= c.count
    if isinstance(c, HexFreeOfEnemy):
        return not any(u.faction == enemy and tuple(u.hex) == tuple(c.hex) for u in cmd.end_units)
    return False


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
        rb = RulingBuilder().add("CAMPAIGN-1", msg("Campaign {title} starts at node {node} ({scenario}); each side's "
                                                   "support cards are shuffled into its own support deck (content 3.1).",
                                                   title=c.title, node=c.start, scenario=c.nodes[c.start].scenario),
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
            raise RuleViolation("CAMPAIGN-2", msg("Node {node} is played with {scenario}, not {other}.", node=plan.node,
                                                  scenario=plan.scenario, other=command.scenario))
        ev = BattleStarted(number=plan.number, node=plan.node, scenario=plan.scenario, game_id=command.game_id,
                           leaders=plan.leaders, setup_changes=plan.setup_changes)
        rb = RulingBuilder().add("CAMPAIGN-2", msg("Battle {number} ({node}) is {scenario}, game {game}.",
                                                   number=plan.number, node=plan.node, scenario=plan.scenario,
                                                   game=command.game_id), leaders=plan.leaders)
        return [Emitted(event=ev, ruling=rb.build(msg("battle {number} started", number=plan.number)))]
    if isinstance(command, RecordResult):
        cur = state.current
        if cur is None or cur.game_id != command.game_id:
            raise RuleViolation("CAMPAIGN-3", msg("Game {game} is not the battle being played.", game=command.game_id))
        node = state.campaign.nodes[cur.node]
        played: dict[str, tuple[str, ...]] = {}
        if command.support_left is not None:
            for f in FACTIONS:
                left = list(command.support_left.get(f, ()))
                gone: list[str] = []
                for card in state.support_hand.get(f, ()):
                    if card in left:
                        left.remove(card)
                    else:
                        gone.append(card)
                if left:
                    raise RuleViolation("CAMPAIGN-4", msg("{side} cannot end the battle holding support cards it "
                                                          "did not bring: {cards}.", side=side(f), cards=left))
                if gone:
                    played[f] = tuple(gone)
        out: list[Emitted] = [Emitted(
            event=BattleEnded(number=cur.number, node=cur.node, game_id=cur.game_id, winner=command.winner,
                              support_played=played),
            ruling=RulingBuilder().add("CAMPAIGN-3", msg("{side} won battle {number} ({node}); the leader cards added "
                                                         "for it leave the decks (content 3.1).", side=side(command.winner),
                                                         number=cur.number, node=cur.node)
                                       ).build(msg("{side} won {node}", side=side(command.winner), node=cur.node)))]
        deck = dict(state.support_deck)
        discard = {f: state.support_discard.get(f, ()) + played.get(f, ()) for f in FACTIONS}
        for so in node.secret_objectives:
            if not _met(so, command):
                continue
            out.append(Emitted(event=SecretObjectiveMet(id=so.id, faction=so.faction, title=so.title, text=so.text),
                               ruling=RulingBuilder().add("CAMPAIGN-5", msg(
                                   "{side} met the secret objective {objective}; it is revealed and rewarded at once.",
                                   side=side(so.faction), objective=repr(so.title))).build(so.title)))
            for e in so.reward:
                if isinstance(e, DrawSupport):
                    ev = _draw(state, e.faction, e.count, dice, f"secret objective {so.id}", deck, discard)
                    out.append(Emitted(event=ev, visibility=e.faction, rolls=dice.take(), reveals=True,
                                       ruling=_drawn(e)))
        outcome = node.outcomes[command.winner]
        for e in outcome.effects:
            if isinstance(e, DrawSupport):
                ev = _draw(state, e.faction, e.count, dice, f"outcome of {cur.node}", deck, discard)
                out.append(Emitted(event=ev, visibility=e.faction, rolls=dice.take(), reveals=True,
                                   ruling=_drawn(e)))
        if outcome.next is None:
            winner = outcome.campaign_winner or command.winner
            out.append(Emitted(event=CampaignWon(winner=winner, text=outcome.text), ruling=RulingBuilder().add(
                "CAMPAIGN-6", msg("The campaign ends after {node}: {side} wins it.", node=cur.node, side=side(winner))
            ).build(msg("{side} wins", side=side(winner)))))
        else:
            nxt = state.campaign.nodes[outcome.next]
            changes = setup_changes(outcome.effects)
            scen = variant_id(nxt.scenario, state.campaign.id, cur.node, command.winner) if changes else nxt.scenario
            # Rewards of secret objectives that are leader cards join the next battle's effects.
            extra = tuple(e for so in node.secret_objectives if _met(so, command) for e in so.reward
                          if isinstance(e, AddLeader))
            out.append(Emitted(event=NextBattleChosen(from_node=cur.node, winner=command.winner,
                                                      next_node=outcome.next, scenario=scen, text=outcome.text,
                                                      effects=tuple(outcome.effects) + extra),
                               ruling=RulingBuilder().add("CAMPAIGN-3", msg("{side} reads the outcome: next is {node} "
                                                                            "({scenario}).", side=side(command.winner),
                                                                            node=outcome.next, scenario=scen),
                                                          next=outcome.next).build(msg("next: {node}", node=outcome.next))))
        return out
    raise RuleViolation("CAMPAIGN-1", msg("{command} is not a campaign command.", command=type(command).__name__))


def _drawn(e: DrawSupport) -> Any:
    """CAMPAIGN-4: the ruling of a support-card draw (the cards are in the event, seen by their side only)."""
    return RulingBuilder().add("CAMPAIGN-4", msg_n("{side} draws {count} support card(s).",
                                                   "{side} draws {count} support card(s).", "count",
                                                   side=side(e.faction), count=e.count)
                               ).build(msg("{side} draws support cards", side=side(e.faction)))


def evolve(state: CampaignState, event: Any) -> CampaignState:
    r = msgspec.structs.replace
    if isinstance(event, CampaignCreated):
        return r(state, campaign_id=event.campaign_id, ruleset=event.ruleset, campaign=event.campaign,
                 seats=event.seats, status=ACTIVE, node=event.campaign.start, support_deck=dict(event.support_decks),
                 bots=dict(event.bots), choices=dict(event.choices),
                 support_hand={f: () for f in FACTIONS}, support_discard={f: () for f in FACTIONS})
    if isinstance(event, BattleStarted):
        rec = BattleRecord(number=event.number, node=event.node, scenario=event.scenario, game_id=event.game_id,
                           leaders=dict(event.leaders))
        return r(state, current=rec)
    if isinstance(event, BattleEnded):
        assert state.current is not None
        rec = r(state.current, winner=event.winner)
        hand = dict(state.support_hand)
        discard = dict(state.support_discard)
        for f, cards in event.support_played.items():
            kept = list(hand.get(f, ()))
            for c in cards:
                kept.remove(c)
            hand[f] = tuple(kept)
            discard[f] = discard.get(f, ()) + tuple(cards)
        return r(state, current=None, battles=state.battles + (rec,), carried=(),
                 last_result=(event.node, event.winner), support_hand=hand, support_discard=discard)
    if isinstance(event, SecretObjectiveMet):
        return r(state, secrets_met=state.secrets_met + (event.id,))
    if isinstance(event, SupportDrawn):
        hand = dict(state.support_hand)
        hand[event.faction] = hand.get(event.faction, ()) + event.cards
        deck = dict(state.support_deck)
        deck[event.faction] = event.deck_after
        discard = dict(state.support_discard)
        if event.reshuffled:
            discard[event.faction] = ()
        return r(state, support_hand=hand, support_deck=deck, support_discard=discard)
    if isinstance(event, NextBattleChosen):
        return r(state, node=event.next_node, carried=event.effects, outcome_text=event.text)
    if isinstance(event, CampaignWon):
        return r(state, status=FINISHED, winner=event.winner, node=None, outcome_text=event.text)
    return state


def fold_campaign(events: list[Any]) -> CampaignState:
    st = CampaignState()
    for e in events:
        st = evolve(st, e)
    return st


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


# the kernel's campaign protocol ----------------------------------------------------------

#: Where a campaign's view holds the printed words of its content (domain/kernel/printed.py): its title, the
#: caller's briefing, the last outcome's text, the caller's secret objectives and the ones revealed.
CAMPAIGN_PRINTED = (("title",), ("briefing",), ("outcome_text",), ("secret_objectives", "*", "title"),
                    ("secret_objectives", "*", "text"), ("revealed_objectives", "*", "title"))


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


__all__ = [
    "LEADERS", "AddLeader", "DrawSupport", "AddUnit", "RemoveUnit", "CarriedEffect", "EnemyUnitDestroyed",
    "HexFreeOfEnemy", "SecretCondition", "SecretObjective", "Outcome", "Node", "Campaign",
    "CAMPAIGN_RULES", "setup_changes", "variant_id", "apply_setup", "variants", "UnitFact", "BattleRecord", "CampaignEvent",
    "CampaignCreated", "BattleStarted", "BattleEnded", "SecretObjectiveMet", "SupportDrawn", "NextBattleChosen",
    "CampaignWon", "CampaignEvents", "CreateCampaign", "StartBattle", "RecordResult", "CampaignCommand",
    "CampaignState", "BattlePlan", "next_battle", "decide", "evolve", "fold_campaign", "campaign_view",
    "HothCampaigns",
]
